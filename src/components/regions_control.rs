//! The regions preset, beside the partition controls: split the servers into two or three regions
//! whose links between them are long (40–80 ms against the usual 5–15), or give every link back to
//! the run's timing. Only the servers are split; workers and a store keep the usual network.

use crate::context::use_run;
use crate::state::controls::use_controls;
use leptos::prelude::*;
use quorumlab_sim::action::Action;
use quorumlab_sim::ids::NodeId;

/// `servers` split into `regions` runs of consecutive servers, the larger ones first
/// (5 into 3: n1 n2 | n3 n4 | n5).
pub fn region_groups(servers: usize, regions: usize) -> Vec<Vec<NodeId>> {
    let regions = regions.clamp(1, servers.max(1));
    let (size, larger) = (servers / regions, servers % regions);
    let mut next = 0;
    (0..regions)
        .map(|region| {
            let count = size + usize::from(region < larger);
            let group = (next..next + count)
                .map(|index| NodeId(index as u16))
                .collect();
            next += count;
            group
        })
        .collect()
}

/// Whether a leader in the largest region still needs another region for a majority of `servers`.
pub fn every_write_crosses(servers: usize, regions: usize) -> bool {
    let largest = region_groups(servers, regions)
        .iter()
        .map(Vec::len)
        .max()
        .unwrap_or(0);
    largest <= servers / 2
}

#[component]
pub fn RegionsControl() -> impl IntoView {
    let run = use_run();
    let controls = use_controls();
    let servers = Memo::new(move |_| run.scenario.with(|scenario| scenario.node_count));
    let regions = move |count: usize| {
        controls.apply(Action::Regions {
            groups: region_groups(servers.get_untracked(), count),
        })
    };
    let hint = move || {
        let servers = servers.get();
        match (every_write_crosses(servers, 2), every_write_crosses(servers, 3)) {
            (true, _) => "With either split no region holds a majority: every write pays a long link.",
            (false, true) => "With two regions one of them holds a majority; with three, every write pays a long link.",
            (false, false) => "A region that holds a majority can commit without the long links.",
        }
    };
    view! {
        <div class="regions-control" data-testid="regions-control">
            <h3>"Regions"</h3>
            <p class="hint">"Links between regions take 40–80 ms; links inside one take the usual time. " {hint}</p>
            <div class="row">
                <button data-testid="regions-2" on:click=move |_| regions(2)
                    disabled=move || servers.get() < 2>"2 regions"</button>
                <button data-testid="regions-3" on:click=move |_| regions(3)
                    disabled=move || servers.get() < 3>"3 regions"</button>
                <button data-testid="regions-clear" on:click=move |_| controls.apply(Action::ClearLink { between: None })>
                    "Usual network on every link"</button>
            </div>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn servers_split_into_consecutive_runs_larger_first() {
        let names = |groups: Vec<Vec<NodeId>>| -> Vec<Vec<u16>> {
            groups
                .into_iter()
                .map(|group| group.into_iter().map(|node| node.0 + 1).collect())
                .collect()
        };
        assert_eq!(
            names(region_groups(5, 3)),
            vec![vec![1, 2], vec![3, 4], vec![5]]
        );
        assert_eq!(names(region_groups(5, 2)), vec![vec![1, 2, 3], vec![4, 5]]);
        assert_eq!(names(region_groups(4, 2)), vec![vec![1, 2], vec![3, 4]]);
    }

    #[test]
    fn a_region_with_a_majority_commits_alone() {
        assert!(!every_write_crosses(5, 2));
        assert!(every_write_crosses(5, 3));
        assert!(every_write_crosses(4, 2));
    }
}
