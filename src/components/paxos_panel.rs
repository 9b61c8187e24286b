//! The Paxos world's state in words: what each acceptor has promised and accepted (kept on disk, or
//! not), what each proposer is doing, and what each learner knows is chosen and which majority said so.

use crate::state::AppState;
use leptos::prelude::*;
use quorumlab_sim::ids::NodeId;
use quorumlab_sim::paxos::{ballot_text, value_name, ProposerPhase};
use quorumlab_sim::view_coordination::PaxosView;

/// One line per acceptor, then one per proposer, then the acceptors' truth.
fn lines(paxos: &PaxosView, labels: &[String]) -> Vec<(String, String)> {
    let name = |node: NodeId| labels.get(node.index()).cloned().unwrap_or_default();
    let ballot = |ballot| ballot_text(ballot, &name);
    let disk = if paxos.durable_acceptors {
        "on disk"
    } else {
        "in memory only"
    };
    let mut lines: Vec<(String, String)> = paxos
        .acceptors
        .iter()
        .map(|acceptor| {
            let promised = acceptor.promised.map_or("no promise".into(), |promised| {
                format!("promised {}", ballot(promised))
            });
            let accepted = acceptor
                .accepted
                .map_or("accepted nothing".into(), |accepted| {
                    format!(
                        "accepted “{}” in {}",
                        value_name(accepted.value),
                        ballot(accepted.ballot)
                    )
                });
            (
                format!("◯ {}", name(acceptor.id)),
                format!("{promised} · {accepted} ({disk})"),
            )
        })
        .collect();
    for proposer in &paxos.proposers {
        let doing = match (proposer.phase, proposer.ballot) {
            (ProposerPhase::Preparing, Some(current)) => format!(
                "ballot {}: {} of {} promises",
                ballot(current),
                proposer.promises.len(),
                paxos.acceptors.len() / 2 + 1
            ),
            (ProposerPhase::Accepting, Some(current)) => format!(
                "ballot {}: asked to accept “{}”",
                ballot(current),
                proposer
                    .proposed
                    .map_or("?", |proposed| value_name(proposed.value))
            ),
            (ProposerPhase::Done, _) => "done proposing".into(),
            _ => format!("waiting to propose “{}”", value_name(proposer.own_value)),
        };
        let knows = match proposer.learned {
            Some(learned) => format!(
                "knows “{}” is chosen: {} accepted it in {}",
                value_name(learned.value),
                learned
                    .acceptors
                    .iter()
                    .map(name)
                    .collect::<Vec<_>>()
                    .join(", "),
                ballot(learned.ballot)
            ),
            None => "knows nothing chosen yet".into(),
        };
        lines.push((
            format!("▢ {}", name(proposer.id)),
            format!("{doing} · {knows}"),
        ));
    }
    let truth = match paxos.chosen {
        Some(chosen) => format!(
            "“{}”, first by a majority in ballot {}",
            value_name(chosen.value),
            ballot(chosen.ballot)
        ),
        None => "nothing yet: no ballot has a majority of acceptances".into(),
    };
    lines.push(("Chosen".into(), truth));
    lines
}

#[component]
pub fn PaxosPanel() -> impl IntoView {
    let state = expect_context::<AppState>();
    let rows = Memo::new(move |_| {
        state.panel_view.with(|view| {
            let Some(coordination) = view.coordination.as_ref() else {
                return Vec::new();
            };
            coordination
                .paxos
                .as_ref()
                .map_or_else(Vec::new, |paxos| lines(paxos, &coordination.labels))
        })
    });
    let count = Memo::new(move |_| rows.with(Vec::len));
    view! {
        <Show when=move || { count.get() > 0 }>
            <section class="card paxos-panel" aria-label="Paxos state" data-testid="paxos-panel">
                <h2>"Paxos " <span class="muted">"promises, acceptances and what each learner knows"</span></h2>
                <ul class="kv-list">
                    <For each=move || 0..count.get() key=|index| *index let:index>
                        <li>
                            <strong>{move || rows.with(|rows| rows.get(index).map(|row| row.0.clone()).unwrap_or_default())}</strong>
                            " "
                            <span>{move || rows.with(|rows| rows.get(index).map(|row| row.1.clone()).unwrap_or_default())}</span>
                        </li>
                    </For>
                </ul>
            </section>
        </Show>
    }
}
