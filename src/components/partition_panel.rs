//! Partitions: put each node in a group, apply, and see which side still has a quorum. In a
//! coordination world the chips carry the actors' names (`n1`, `A`, `store`) and a side's verdict
//! counts the servers it holds, since workers and the store vote in nothing.

use crate::components::regions_control::RegionsControl;
use crate::context::use_run;
use crate::state::controls::use_controls;
use crate::world_text::{membership, names, partition};
use leptos::prelude::*;
use quorumlab_sim::action::Action;
use quorumlab_sim::ids::NodeId;

const GROUP_NAMES: [&str; 3] = ["A", "B", "C"];

/// Turns a per-node group choice into the groups a partition action takes (empty groups dropped).
pub fn groups_from_choices(choices: &[usize]) -> Vec<Vec<NodeId>> {
    (0..GROUP_NAMES.len())
        .map(|group| {
            choices
                .iter()
                .enumerate()
                .filter(|(_, choice)| **choice == group)
                .map(|(index, _)| NodeId(index as u16))
                .collect::<Vec<_>>()
        })
        .filter(|group| !group.is_empty())
        .collect()
}

/// The panel's instruction: groups are lettered A..C, which a coordination world also uses for its
/// workers, so there the sentence says "group" every time.
fn hint(has_named_actors: bool) -> &'static str {
    if has_named_actors {
        "Click a chip to move it between group A, group B and group C, then apply. Only the servers (n1, n2, …) count toward a majority."
    } else {
        "Click a node's chip to move it between groups A, B and C, then apply."
    }
}

#[component]
pub fn PartitionPanel() -> impl IntoView {
    let run = use_run();
    let controls = use_controls();
    let node_count = Memo::new(move |_| run.panel_view.with(|view| view.nodes.len()));
    let names = Memo::new(move |_| {
        run.panel_view.with(|view| {
            (0..view.nodes.len())
                .map(|index| names::node_name(view.coordination.as_ref(), NodeId(index as u16)))
                .collect::<Vec<_>>()
        })
    });
    let named_actors = move || run.panel_view.with(|view| view.coordination.is_some());
    let choices = RwSignal::new(Vec::<usize>::new());
    Effect::new(move |_| {
        // Re-split when the world's actors change (a new scenario or protocol), not every frame.
        let _ = names.get();
        let defaults = run.view.with_untracked(|view| {
            partition::default_groups(view.coordination.as_ref(), view.nodes.len())
        });
        choices.set(defaults);
    });
    let cycle = move |index: usize| {
        choices.update(|choices| {
            if let Some(choice) = choices.get_mut(index) {
                *choice = (*choice + 1) % GROUP_NAMES.len();
            }
        })
    };
    let apply = move |_| {
        controls.apply(Action::Partition {
            groups: groups_from_choices(&choices.get_untracked()),
        })
    };
    let badges = move || {
        run.panel_view.with(|view| {
            let coordination = view.coordination.as_ref();
            view.partition_groups
                .iter()
                .map(|group| {
                    // A plain Raft side counts its voters against the voters of the configuration.
                    let (counted, total) = membership::counted_group(view, group);
                    let (text, ok) = partition::group_verdict(coordination, &counted, total);
                    let members = names::name_list(coordination, group);
                    view! { <li class=if ok { "quorum ok" } else { "quorum no" }>{format!("{{{members}}}: {text}")}</li> }
                })
                .collect_view()
        })
    };
    view! {
        <section class="card partition-panel" aria-label="Partition" data-testid="partition-panel">
            <h2>"Partition"</h2>
            <p class="hint">{move || hint(named_actors())}</p>
            <div class="chips" data-testid="partition-chips">
                {move || (0..node_count.get()).map(|index| {
                    let group = move || choices.with(|choices| choices.get(index).copied().unwrap_or(0));
                    let name = move || names.with(|names| names.get(index).cloned().unwrap_or_default());
                    let label = move || partition::chip_text(&name(), GROUP_NAMES[group()], named_actors());
                    let class = move || format!("chip group-{}", group());
                    view! { <button class=class data-testid=move || format!("partition-chip-{}", name()) on:click=move |_| cycle(index) aria-label=move || format!("{}: click to change group", label())>{label}</button> }
                }).collect_view()}
            </div>
            <div class="row">
                <button class="primary" data-testid="apply-partition" on:click=apply>"Apply partition"</button>
                <button on:click=move |_| controls.apply(Action::Heal)>"Heal"</button>
            </div>
            <ul class="quorum-badges" data-testid="quorum-badges">{badges}</ul>
            <RegionsControl />
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn choices_become_groups_without_empty_ones() {
        let groups = groups_from_choices(&[0, 0, 1, 1, 1]);
        assert_eq!(
            groups,
            vec![
                vec![NodeId(0), NodeId(1)],
                vec![NodeId(2), NodeId(3), NodeId(4)]
            ]
        );
        let groups = groups_from_choices(&[2, 0, 2]);
        assert_eq!(groups, vec![vec![NodeId(1)], vec![NodeId(0), NodeId(2)]]);
    }
}
