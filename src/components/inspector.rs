//! The selected node, in full: what it believes (role, term, vote, log, indexes, timers, clock) and the
//! faults you can inflict on it.

use crate::components::node_actions::{NodeActionRows, PauseForMs};
use crate::context::{use_run, use_selection};
use crate::format;
use crate::world_text::beliefs::belief_sentence;
use crate::world_text::capabilities::{runs_raft, tokens_fence};
use crate::world_text::names::label_of;
use crate::world_text::node_kind::NodeKind;
use crate::world_text::paxos::{learner_why, paxos_state};
use leptos::prelude::*;
use quorumlab_sim::ids::NodeId;
use quorumlab_sim::units::{LogIndex, Term};
use quorumlab_sim::view::{ClusterView, NodeView};
use quorumlab_sim::view_coordination::CoordinationView;
use quorumlab_sim::world::NodeStatus;

fn indexes(values: &Option<Vec<LogIndex>>) -> String {
    match values {
        Some(values) => values
            .iter()
            .enumerate()
            .map(|(index, value)| format!("n{}:{value}", index + 1))
            .collect::<Vec<_>>()
            .join(" "),
        None => "—".to_string(),
    }
}

fn timers(node: &NodeView, now_us: u64) -> String {
    if node.timers.is_empty() {
        return "none".to_string();
    }
    node.timers
        .iter()
        .map(|timer| {
            let left_us = timer.due_at_us.saturating_sub(now_us);
            format!("{} in {}", timer.kind, format::sim_time(left_us))
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// What a Raft server believes.
fn raft_facts(node: &NodeView, now_us: u64) -> Vec<(&'static str, String)> {
    let newest_terms: Vec<String> = node
        .log_terms
        .iter()
        .rev()
        .take(12)
        .rev()
        .map(Term::to_string)
        .collect();
    let log = format!(
        "{} {}; newest terms [{}]",
        node.log_len,
        if node.log_len == 1 {
            "entry"
        } else {
            "entries"
        },
        newest_terms.join(" ")
    );
    let mut facts = vec![
        ("role", role_fact(node)),
        ("term", node.term.to_string()),
        (
            "voted for",
            node.voted_for
                .map_or("nobody".to_string(), |vote| vote.to_string()),
        ),
        (
            "believes leader",
            node.leader_hint
                .map_or("unknown".to_string(), |leader| leader.to_string()),
        ),
        (
            "commit / applied",
            format!("{} / {}", node.commit_index, node.applied_index),
        ),
        ("log", log),
        ("nextIndex", indexes(&node.next_index)),
        ("matchIndex", indexes(&node.match_index)),
        ("clock", clock_fact(node)),
        ("timers", timers(node, now_us)),
        ("queued inputs", node.queued_inputs.to_string()),
    ];
    if let Some(lease) = lease_fact(node) {
        facts.insert(facts.len() - 2, ("lease", lease));
    }
    facts
}

/// Whether a leader's read lease holds by its own clock (a true-time check would say otherwise when
/// the clock lies: the clock fact beside it shows by how much).
/// `None` for a node that is no leader with lease reads on.
fn lease_fact(node: &NodeView) -> Option<String> {
    node.lease_holds.map(|holds| {
        if holds {
            "holds, by its own clock: it answers reads alone".to_string()
        } else {
            "expired, by its own clock: it may not answer reads alone".to_string()
        }
    })
}

/// A crashed server has no role: its volatile state (the role among it) went with the crash.
fn role_fact(node: &NodeView) -> String {
    match node.status {
        NodeStatus::Crashed => "none — crashed".to_string(),
        _ => format!("{:?}", node.role).to_lowercase(),
    }
}

fn clock_fact(node: &NodeView) -> String {
    format!(
        "{} (true {}), offset {}, drift {}",
        format::sim_time(node.local_clock_us.max(0) as u64),
        format::sim_time(node.true_clock_us),
        format::clock_offset(node.clock_offset_us),
        format::drift(node.clock_drift_ppm)
    )
}

/// What a worker, the protected resource or a Redis-style server knows: no Raft fields for them.
fn actor_facts(
    coordination: &CoordinationView,
    node: &NodeView,
    label: &str,
    kind: NodeKind,
) -> Vec<(&'static str, String)> {
    let mut facts = vec![
        ("name", label.to_string()),
        ("kind", kind.word_in(coordination.kind).to_string()),
    ];
    if let Some(worker) = coordination
        .workers
        .iter()
        .find(|worker| worker.id == node.id)
    {
        let paused = node.status == NodeStatus::Paused;
        let tokens = tokens_fence(coordination.kind);
        facts.push(("believes", belief_sentence(worker, paused, tokens)));
        facts.push((
            "jobs",
            format!(
                "{} done, {} abandoned, {} fenced off",
                worker.jobs_done, worker.jobs_abandoned, worker.fenced_off
            ),
        ));
    }
    if let Some(resource) = coordination
        .resource
        .as_ref()
        .filter(|resource| resource.id == node.id)
    {
        facts.push((
            "fencing",
            if resource.fencing { "on" } else { "off" }.to_string(),
        ));
        facts.push(("value", resource.value.to_string()));
        // Redis-style hold values are not ordered: "highest" of them means nothing.
        let highest = if tokens_fence(coordination.kind) {
            format!("; highest token seen {}", resource.highest_seen)
        } else {
            String::new()
        };
        facts.push((
            "accesses",
            format!(
                "{} accepted, {} rejected{highest}",
                resource.accepted, resource.rejected
            ),
        ));
    }
    facts.extend(paxos_facts(coordination, node.id));
    if let Some(server) = coordination
        .kv_servers()
        .iter()
        .find(|server| server.id == node.id)
    {
        facts.push(("keys held", server.keys.len().to_string()));
    }
    facts.push(("clock", clock_fact(node)));
    facts.push(("queued inputs", node.queued_inputs.to_string()));
    facts
}

/// A Paxos actor's state in the ring's words, and for a learner actor the majority it learned from.
fn paxos_facts(coordination: &CoordinationView, node: NodeId) -> Vec<(&'static str, String)> {
    let Some(paxos) = coordination.paxos() else {
        return Vec::new();
    };
    let labels = &coordination.labels;
    let mut facts = Vec::new();
    if let Some(state) = paxos_state(paxos, node, labels) {
        facts.push(("holds", state));
    }
    if let Some(why) = learner_why(paxos, node, labels) {
        facts.push(("because", why));
    }
    facts
}

/// The facts to show for one node, whichever kind of actor it is.
fn fact_values(view: &ClusterView, node: &NodeView) -> Vec<(&'static str, String)> {
    let Some(coordination) = view.coordination.as_ref() else {
        return raft_facts(node, view.now_us);
    };
    let label = label_of(Some(coordination), node.id.index()).unwrap_or_default();
    let kind = NodeKind::of_label(label);
    if kind == NodeKind::Server && runs_raft(coordination.kind) {
        raft_facts(node, view.now_us)
    } else {
        actor_facts(coordination, node, label, kind)
    }
}

#[component]
pub fn Inspector() -> impl IntoView {
    let selection = use_selection();
    view! {
        <section class="card inspector" aria-label="Node inspector" data-testid="inspector">
            <h2>"Inspector"</h2>
            {move || match selection.selected.get() {
                None => view! { <p class="hint">"Select a node (click it, or press 1–9) to see what it believes; clicking it also opens its actions beside it."</p> }.into_any(),
                Some(node) => view! { <NodeFacts node=node /> <NodeActions node=node /> }.into_any(),
            }}
        </section>
    }
}

#[component]
fn NodeFacts(node: NodeId) -> impl IntoView {
    let run = use_run();
    let values = Memo::new(move |_| {
        run.panel_view.with(|view| {
            view.nodes
                .get(node.index())
                .map(|node_view| (node_view.status, fact_values(view, node_view)))
        })
    });
    let status = move || {
        values.with(|values| {
            values
                .as_ref()
                .map_or("gone", |(status, _)| status.as_str())
        })
    };
    let name = move || {
        run.panel_view.with(|view| {
            label_of(view.coordination.as_ref(), node.index())
                .map_or_else(|| node.to_string(), str::to_string)
        })
    };
    let rows = move || {
        values.with(|values| {
            values
                .as_ref()
                .map(|(_, facts)| facts.clone())
                .unwrap_or_default()
                .into_iter()
                .map(|(label, value)| view! { <div class="fact"><dt>{label}</dt><dd>{value}</dd></div> })
                .collect_view()
        })
    };
    view! {
        <h3 class="inspector-title">{move || format!("{} — {}", name(), status())}</h3>
        <dl class="facts">{rows}</dl>
    }
}

#[component]
fn NodeActions(node: NodeId) -> impl IntoView {
    let run = use_run();
    let up = Memo::new(move |_| {
        run.panel_view.with(|view| {
            view.nodes
                .get(node.index())
                .is_some_and(|node_view| node_view.status == NodeStatus::Up)
        })
    });
    let faults_label = move || {
        run.panel_view.with(|view| {
            let name = label_of(view.coordination.as_ref(), node.index())
                .map_or_else(|| node.to_string(), str::to_string);
            format!("Faults for {name}")
        })
    };
    view! {
        <div class="action-grid" role="group" aria-label=faults_label>
            <NodeActionRows node=node named=false />
            <Show when=move || up.get()>
                <PauseForMs node=node named=false />
            </Show>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::Session;
    use quorumlab_sim::scenario::{parse_scenario, EXAMPLES};
    use quorumlab_sim::time::SimTime;

    fn view_of(example: &str, at_ms: u64) -> ClusterView {
        let (file, text) = EXAMPLES
            .iter()
            .find(|(file, _)| file.contains(example))
            .expect("example exists");
        let mut session = Session::new(parse_scenario(text, file).expect("parses")).expect("world");
        session.advance_to(SimTime::from_ms(at_ms));
        session.view()
    }

    fn labels(facts: &[(&'static str, String)]) -> Vec<&'static str> {
        facts.iter().map(|(label, _)| *label).collect()
    }

    #[test]
    fn raft_servers_show_raft_facts() {
        let view = view_of("leader-crash", 1_000);
        let facts = fact_values(&view, &view.nodes[0]);
        assert!(labels(&facts).contains(&"term") && labels(&facts).contains(&"matchIndex"));
    }

    #[test]
    fn workers_and_the_store_show_what_they_know_not_raft_fields() {
        let view = view_of("fencing-pause", 2_000);
        let coordination = view.coordination.as_ref().expect("a coordination world");
        let worker = coordination.workers[0].id;
        let worker_facts = fact_values(&view, &view.nodes[worker.index()]);
        assert!(labels(&worker_facts).contains(&"believes"));
        assert!(!labels(&worker_facts).contains(&"term"));
        let store = coordination.resource.as_ref().expect("a store").id;
        let store_facts = fact_values(&view, &view.nodes[store.index()]);
        assert_eq!(store_facts[0], ("name", "store".to_string()));
        assert!(labels(&store_facts).contains(&"accesses"));
    }
}
