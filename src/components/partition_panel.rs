//! Partitions: put each node in a group, apply, and see which side still has a quorum.

use crate::format;
use crate::state::AppState;
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

#[component]
pub fn PartitionPanel() -> impl IntoView {
    let state = expect_context::<AppState>();
    let node_count = Memo::new(move |_| state.view.with(|view| view.nodes.len()));
    let choices = RwSignal::new(Vec::<usize>::new());
    Effect::new(move |_| {
        let count = node_count.get();
        // Default split: the first two nodes against the rest, the classic minority/majority demo.
        choices.set(
            (0..count)
                .map(|index| usize::from(index >= 2.min(count / 2)))
                .collect(),
        );
    });
    let cycle = move |index: usize| {
        choices.update(|choices| {
            if let Some(choice) = choices.get_mut(index) {
                *choice = (*choice + 1) % GROUP_NAMES.len();
            }
        })
    };
    let apply = move |_| {
        state.apply(Action::Partition {
            groups: groups_from_choices(&choices.get_untracked()),
        })
    };
    let badges = move || {
        state.view.with(|view| {
            let total = view.nodes.len();
            view.partition_groups
                .iter()
                .map(|group| {
                    let (text, ok) = format::quorum_badge(group.len(), total);
                    view! { <li class=if ok { "quorum ok" } else { "quorum no" }>{format!("{{{}}}: {text}", format::node_list(group))}</li> }
                })
                .collect_view()
        })
    };
    view! {
        <section class="card partition-panel" aria-label="Partition" data-testid="partition-panel">
            <h2>"Partition"</h2>
            <p class="hint">"Click a node's chip to move it between groups A, B and C, then apply."</p>
            <div class="chips">
                {move || (0..node_count.get()).map(|index| {
                    let label = move || format!("n{} · {}", index + 1, GROUP_NAMES[choices.with(|choices| choices.get(index).copied().unwrap_or(0))]);
                    let class = move || format!("chip group-{}", choices.with(|choices| choices.get(index).copied().unwrap_or(0)));
                    view! { <button class=class on:click=move |_| cycle(index) aria-label=move || format!("{}: click to change group", label())>{label}</button> }
                }).collect_view()}
            </div>
            <div class="row">
                <button class="primary" data-testid="apply-partition" on:click=apply>"Apply partition"</button>
                <button on:click=move |_| state.apply(Action::Heal)>"Heal"</button>
            </div>
            <ul class="quorum-badges" data-testid="quorum-badges">{badges}</ul>
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
