//! The PBFT world's state: each replica's view, the primary it follows and its newest sequence slots
//! (phase, digest, votes), each client's replies against the f + 1 it needs, the options of the run,
//! and the price: messages per request counted in this run beside a same-size Raft run's count.

use crate::context::use_run;
use crate::world_text::byzantine::{liar_label, restart_liar_label};
use crate::world_text::pbft::{
    beyond_tolerance, client_words, per_request, slot_words, tenths_text,
};
use leptos::prelude::*;
use quorumlab_sim::ids::NodeId;
use quorumlab_sim::price::{raft_baseline, MessageCost, BASELINE_WRITES};
use quorumlab_sim::view_coordination::{CoordinationView, PbftView, ReplicaView};
use quorumlab_sim::world::NodeStatus;

/// One replica's row: its name (with ◆ for the primary, and its lie), its view, and its slot chips.
/// A crashed replica is primary of nothing and lies to no one while down: its row says it crashed,
/// and a liar's that it lies again once restarted.
#[derive(Clone, Debug, PartialEq, Eq)]
struct ReplicaRow {
    name: String,
    view: String,
    slots: Vec<(String, &'static str)>,
    liar: bool,
}

fn replica_rows(pbft: &PbftView, labels: &[String]) -> Vec<ReplicaRow> {
    let name = |node: NodeId| labels.get(node.index()).cloned().unwrap_or_default();
    pbft.replicas
        .iter()
        .map(|replica| {
            let view = match (replica.status, replica.changing_to) {
                (NodeStatus::Crashed, _) => format!("view {} when it crashed", replica.view),
                (_, Some(next)) => format!("view {} → asks for {next}", replica.view),
                (_, None) => format!("view {}, primary {}", replica.view, name(replica.primary)),
            };
            let slots = replica
                .slots
                .iter()
                .map(|slot| (slot_words(slot, &name), phase_class(slot.phase)))
                .collect();
            ReplicaRow {
                name: replica_title(replica, &name),
                view,
                slots,
                liar: replica.lying.is_some() && replica.status != NodeStatus::Crashed,
            }
        })
        .collect()
}

fn replica_title(replica: &ReplicaView, name: &dyn Fn(NodeId) -> String) -> String {
    let own = name(replica.id);
    if replica.status == NodeStatus::Crashed {
        return match replica.lying {
            Some(mode) => format!("{own} · crashed ({})", restart_liar_label(mode)),
            None => format!("{own} · crashed"),
        };
    }
    let primary = replica.primary == replica.id && replica.changing_to.is_none();
    let mut title = format!("{own}{}", if primary { " ◆" } else { "" });
    if let Some(mode) = replica.lying {
        title.push_str(&format!(" ({})", liar_label(mode)));
    }
    title
}

fn phase_class(phase: quorumlab_sim::pbft::SlotPhase) -> &'static str {
    use quorumlab_sim::pbft::SlotPhase;
    match phase {
        SlotPhase::Waiting => "slot waiting",
        SlotPhase::PrePrepared => "slot pre-prepared",
        SlotPhase::Prepared => "slot prepared",
        SlotPhase::Committed | SlotPhase::Executed => "slot committed",
    }
}

/// The header line: n, f, the quorum and the replies a client needs.
fn rules_line(pbft: &PbftView) -> String {
    let replicas = pbft.replicas.len();
    let safe = 2 * pbft.faults_tolerated + 1;
    let quorum = match pbft.quorum == safe {
        true => format!("quorum {} (2f + 1)", pbft.quorum),
        false => format!("quorum {} — UNSAFE, 2f + 1 would be {safe}", pbft.quorum),
    };
    format!(
        "n = {replicas} replicas tolerate f = {} liars · {quorum} · a client takes a result on {} matching replies",
        pbft.faults_tolerated, pbft.reply_quorum
    )
}

/// The price sentence: this run's count against the Raft run's.
fn price_line(pbft: &PbftView, raft: Option<MessageCost>) -> String {
    let counted = MessageCost {
        messages: pbft.messages_sent,
        committed: pbft.results_taken,
        heartbeats: 0,
        upkeep: 0,
    };
    let own = format!(
        "PBFT: {} messages per request ({} sent for {} results taken, counted in this run)",
        per_request(counted),
        pbft.messages_sent,
        pbft.results_taken
    );
    match raft {
        // Raft's heartbeats and their answers go out on the clock, not for a write: dividing them
        // among the writes would price Raft near PBFT, so they are counted apart.
        Some(raft) => format!(
            "{own} · Raft with {} servers: {} per write ({} sent for {} committed, counted in a \
             {BASELINE_WRITES}-write Raft run the engine makes with this seed; besides, {} \
             heartbeats and answers to them, sent on the clock whether or not anyone writes)",
            pbft.replicas.len(),
            tenths_text(raft.per_commit_tenths_without_upkeep()),
            raft.messages.saturating_sub(raft.upkeep),
            raft.committed,
            raft.upkeep
        ),
        None => own,
    }
}

fn pbft_of(coordination: Option<&CoordinationView>) -> Option<(&PbftView, &[String])> {
    let coordination = coordination?;
    Some((coordination.pbft()?, &coordination.labels))
}

#[component]
pub fn PbftPanel() -> impl IntoView {
    let run = use_run();
    let shown = Memo::new(move |_| {
        run.panel_view.with(|view| {
            pbft_of(view.coordination.as_ref()).map(|(pbft, labels)| {
                let name = |node: NodeId| labels.get(node.index()).cloned().unwrap_or_default();
                let clients: Vec<(String, String)> = pbft
                    .clients
                    .iter()
                    .map(|client| (name(client.id), client_words(client, &name)))
                    .collect();
                let warning = beyond_tolerance(pbft, &name);
                (
                    rules_line(pbft),
                    replica_rows(pbft, labels),
                    clients,
                    warning,
                )
            })
        })
    });
    // Raft's figure needs a run of its own: made once per scenario, not per frame.
    let raft = Memo::new(move |_| {
        run.scenario.with(|scenario| {
            let options = scenario.protocol.pbft()?;
            // `node_count` counts the replicas; the clients come on top.
            raft_baseline(
                scenario.node_count,
                scenario.seed,
                options.request_interval_ms,
            )
        })
    });
    let options = move || {
        run.scenario.with(|scenario| match scenario.protocol.pbft() {
            Some(options) => format!(
                "Options: a client's next request {} ms after its last result; a replica asks for a new view after {} ms without progress ([pbft] in the scenario)",
                options.request_interval_ms, options.view_timeout_ms
            ),
            None => String::new(),
        })
    };
    let price = move || {
        run.panel_view.with(|view| {
            pbft_of(view.coordination.as_ref())
                .map(|(pbft, _)| price_line(pbft, raft.get()))
                .unwrap_or_default()
        })
    };
    view! {
        <Show when=move || shown.with(Option::is_some)>
            <section class="card pbft-panel" aria-label="PBFT state" data-testid="pbft-panel">
                <h2>"PBFT " <span class="muted">"views, primaries, sequence slots and replies"</span></h2>
                <p class="muted" data-testid="pbft-rules">{move || shown.with(|shown| shown.as_ref().map(|shown| shown.0.clone()).unwrap_or_default())}</p>
                <Show when=move || shown.with(|shown| shown.as_ref().is_some_and(|shown| shown.3.is_some()))>
                    // Said in words with a sign, not by colour alone: more faults than n = 3f + 1 tolerates.
                    <p class="pbft-warning" role="status" data-testid="pbft-beyond-tolerance">
                        "⚠ " {move || shown.with(|shown| shown.as_ref().and_then(|shown| shown.3.clone()).unwrap_or_default())}
                    </p>
                </Show>
                <table class="pbft-replicas" data-testid="pbft-replicas">
                    <thead><tr><th>"replica"</th><th>"view"</th><th>"newest slots"</th></tr></thead>
                    <tbody>
                        {move || shown.with(|shown| shown.as_ref().map(|shown| shown.1.iter().map(|row| view! {
                            <tr class=if row.liar { "liar" } else { "" } data-testid="pbft-replica">
                                <th scope="row">{row.name.clone()}</th>
                                <td>{row.view.clone()}</td>
                                <td class="slots">{row.slots.iter().map(|(text, class)| view! {
                                    <span class=*class>{text.clone()}</span>
                                }).collect_view()}</td>
                            </tr>
                        }).collect_view()))}
                    </tbody>
                </table>
                <ul class="kv-list" data-testid="pbft-clients">
                    {move || shown.with(|shown| shown.as_ref().map(|shown| shown.2.iter().map(|(client, words)| view! {
                        <li><strong>{client.clone()}</strong>" "<span>{words.clone()}</span></li>
                    }).collect_view()))}
                </ul>
                <p data-testid="pbft-price">{price}</p>
                <p class="muted">{options}</p>
            </section>
        </Show>
    }
}
