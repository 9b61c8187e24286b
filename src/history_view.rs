//! What the clients saw, laid out: the engine's linearizability verdict on the run so far, and the
//! client operations as bars on lanes along simulated time, ready for the history panel to draw.
//!
//! Raft's clients are anonymous requests, so a "client" here is a lane: operations that never overlap
//! share one, which is exactly what a single client issuing one request at a time would look like. The
//! greedy assignment takes each operation in invocation order and puts it on the first lane that is
//! free by then. A bar is freed not at its completion but once its label has room, so labels never run
//! into the next bar of their lane.
//!
//! Geometry is in percent of the time window (the run from 0 to now, or to the last completion if that
//! is later), so the panel scales with the page; bars have a minimum width in CSS. Everything here is a
//! pure function of a `World` and the time shown, tested natively; the component only draws it and
//! decides when to ask (see `components::history_lanes`).

use quorumlab_sim::client_history::{LockCall, Op, OpCall, OpEnd, OpIndex, OpReturn};
use quorumlab_sim::history_summary::{summarize_imported, summarize_within, HistorySummary};
use quorumlab_sim::ids::NodeId;
use quorumlab_sim::linearizable::Budget;
use quorumlab_sim::protocol::ClientCommand;
use quorumlab_sim::ProtocolConfig;
use quorumlab_sim::World;

/// How a verdict reads at a glance; the CSS class and the mark come from it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VerdictKind {
    Nothing,
    Linearizable,
    NotLinearizable,
    Undecided,
}

impl VerdictKind {
    pub fn class(self) -> &'static str {
        match self {
            VerdictKind::Nothing => "hv-verdict nothing",
            VerdictKind::Linearizable => "hv-verdict linearizable",
            VerdictKind::NotLinearizable => "hv-verdict refused",
            VerdictKind::Undecided => "hv-verdict undecided",
        }
    }

    /// A mark that says the verdict without colour.
    pub fn mark(self) -> &'static str {
        match self {
            VerdictKind::Nothing => "…",
            VerdictKind::Linearizable => "✓",
            VerdictKind::NotLinearizable => "✗",
            VerdictKind::Undecided => "?",
        }
    }
}

/// How an operation ended, as drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Ok,
    Failed,
    Unknown,
}

/// What part an operation plays in a refusal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    Plain,
    Witness,
    Stuck,
}

/// One operation as the panel draws it.
#[derive(Clone, Debug, PartialEq)]
pub struct Bar {
    pub index: OpIndex,
    pub lane: usize,
    pub left_percent: f64,
    pub width_percent: f64,
    /// No answer bounds it: it may still take effect, so it is drawn without a right edge.
    pub open_ended: bool,
    pub outcome: Outcome,
    pub role: Role,
    /// "put k1=17", "get k1 → 1".
    pub label: String,
    /// The label with times, outcome and server, for the tooltip and screen readers.
    pub description: String,
    pub invoked_us: u64,
    /// Where a click takes the run: the instant the answer came, or the invocation when none did.
    pub jump_us: u64,
    /// The node whose answer completed the op; a click selects it.
    pub served_by: Option<NodeId>,
}

impl Bar {
    pub fn class(&self) -> String {
        let outcome = match self.outcome {
            Outcome::Ok => "ok",
            Outcome::Failed => "failed",
            Outcome::Unknown => "unknown",
        };
        let role = match self.role {
            Role::Plain => "",
            Role::Witness => " witness",
            Role::Stuck => " witness stuck",
        };
        let open = if self.open_ended { " open" } else { "" };
        format!("hv-op {outcome}{role}{open}")
    }
}

/// The judged history, before layout: what the checker said and the ops it said it about.
#[derive(Clone, Debug, PartialEq)]
pub struct Judged {
    pub kind: VerdictKind,
    /// The engine's sentence ("Not linearizable: \"get key 1 → 1\" began after …").
    pub words: String,
    pub witness: Vec<OpIndex>,
    pub stuck: Option<OpIndex>,
    pub ops: Vec<Op>,
    /// The name of the node that answered each op, by op index.
    pub served_by: Vec<Option<String>>,
}

/// Checks `world`'s client log within `budget` (the verdict and, on a refusal, the witness).
pub fn judge(world: &World, budget: Budget) -> Judged {
    let ops = world.client_log().ops();
    let served_by = ops
        .iter()
        .map(|op| op.served_by.map(|node| world.node_label(node)))
        .collect();
    let Ok(check) = world.linearizability(budget) else {
        return Judged {
            kind: VerdictKind::Nothing,
            words: "This world's client history cannot be checked.".to_string(),
            witness: Vec::new(),
            stuck: None,
            ops,
            served_by,
        };
    };
    let summary = summarize_within(world, &check, budget);
    judged_from(&summary, ops, served_by)
}

/// Checks a history read from a file (`linearizable::import`) within `budget`, as the panel draws it.
pub fn judge_imported(ops: Vec<Op>, budget: Budget) -> Judged {
    let served_by = ops
        .iter()
        .map(|op| op.served_by.map(|node| node.to_string()))
        .collect();
    match summarize_imported(&ops, budget) {
        Ok(summary) => judged_from(&summary, ops, served_by),
        Err(problem) => Judged {
            kind: VerdictKind::Nothing,
            words: format!("This history cannot be checked: {problem}."),
            witness: Vec::new(),
            stuck: None,
            ops,
            served_by,
        },
    }
}

fn judged_from(summary: &HistorySummary, ops: Vec<Op>, served_by: Vec<Option<String>>) -> Judged {
    let kind = match summary.verdict {
        "linearizable" => VerdictKind::Linearizable,
        "not linearizable" => VerdictKind::NotLinearizable,
        "undecided" => VerdictKind::Undecided,
        _ => VerdictKind::Nothing,
    };
    let refused = summary.refused.as_ref();
    Judged {
        kind,
        words: summary.words.clone(),
        witness: refused
            .map(|refusal| refusal.witness.iter().map(|op| op.index).collect())
            .unwrap_or_default(),
        stuck: refused.map(|refusal| refusal.stuck.index),
        ops,
        served_by,
    }
}

/// The panel's content: lanes of bars over a time window, and a few ticks.
#[derive(Clone, Debug, PartialEq)]
pub struct Lanes {
    pub lanes: usize,
    pub bars: Vec<Bar>,
    pub end_us: u64,
    /// Where "now" is, in percent of the window.
    pub now_percent: f64,
    /// (percent, "1.5 s").
    pub ticks: Vec<(f64, String)>,
}

/// Room a label takes on its lane, per character, as a share of the window: about 7 px of a
/// 1000 px wide panel (the panel scrolls sideways below that width).
const LABEL_SHARE_PER_CHAR: f64 = 0.007;

/// "put k1=17", "get k1 → 1", "get k4 → none", "write a0=999 t3", "acquire → t5"; a failed op says
/// so, an unknown one asks.
pub fn label(op: &Op) -> String {
    let call = match op.call {
        OpCall::Kv(ClientCommand::Put { key, value }) => format!("put k{key}={value}"),
        OpCall::Kv(ClientCommand::Get { key }) => format!("get k{key}"),
        OpCall::Access {
            account,
            token,
            write: Some(value),
            ..
        } => format!("write a{account}={value} t{token}"),
        OpCall::Access { account, token, .. } => format!("read a{account} t{token}"),
        OpCall::Lock(LockCall::Acquire { .. }) => "acquire".to_string(),
        OpCall::Lock(LockCall::Release { .. }) => "release".to_string(),
        other => format!("{other:?}"),
    };
    match op.end {
        OpEnd::Ok(OpReturn::Read(Some(value)) | OpReturn::Value(value)) => {
            format!("{call} → {value}")
        }
        OpEnd::Ok(OpReturn::Granted(token)) => format!("{call} → t{token}"),
        OpEnd::Ok(OpReturn::Released(false)) => format!("{call} → not held"),
        OpEnd::Ok(OpReturn::Read(None)) => format!("{call} → none"),
        OpEnd::Ok(_) => call,
        OpEnd::Failed(_) => format!("{call} ⊘"),
        OpEnd::Unknown(_) => format!("{call} ?"),
    }
}

fn outcome_of(op: &Op) -> Outcome {
    match op.end {
        OpEnd::Ok(_) => Outcome::Ok,
        OpEnd::Failed(_) => Outcome::Failed,
        OpEnd::Unknown(_) => Outcome::Unknown,
    }
}

fn description(op: &Op, served_by: Option<&str>, role: Role) -> String {
    let from = crate::format::sim_time(op.invoked.at_us);
    let span = match op.completed {
        Some(done) => format!("{from} to {}", crate::format::sim_time(done.at_us)),
        None => format!("from {from}, no answer yet"),
    };
    let end = match op.end {
        OpEnd::Ok(_) => "ok".to_string(),
        OpEnd::Failed(reason) => format!("failed ({reason}): it never happened"),
        OpEnd::Unknown(_) => "unknown: it may take effect later, or never".to_string(),
    };
    let server = served_by.map_or(String::new(), |node| format!(", answered by {node}"));
    let part = match role {
        Role::Plain => "",
        Role::Witness => "; part of the witness",
        Role::Stuck => "; the operation no order can place",
    };
    format!("{}: {span}, {end}{server}{part}", label(op))
}

/// Lays `judged` out up to `now_us`.
pub fn lay_out(judged: &Judged, now_us: u64) -> Lanes {
    let last_us = judged
        .ops
        .iter()
        .filter_map(|op| op.completed.map(|done| done.at_us))
        .max()
        .unwrap_or(0);
    let end_us = now_us.max(last_us).max(1_000);
    let percent = |at_us: u64| 100.0 * at_us.min(end_us) as f64 / end_us as f64;
    let mut order: Vec<&Op> = judged.ops.iter().collect();
    order.sort_by_key(|op| op.invoked.position);
    let mut lane_free_us: Vec<f64> = Vec::new();
    let mut bars = Vec::with_capacity(order.len());
    for op in order {
        let role = if judged.stuck == Some(op.index) {
            Role::Stuck
        } else if judged.witness.contains(&op.index) {
            Role::Witness
        } else {
            Role::Plain
        };
        let open_ended = matches!(op.end, OpEnd::Unknown(_));
        let drawn_end_us = match (op.completed, open_ended) {
            (Some(done), false) => done.at_us,
            _ => end_us,
        };
        let text = label(op);
        let label_us = text.chars().count() as f64 * LABEL_SHARE_PER_CHAR * end_us as f64;
        let busy_until = (drawn_end_us as f64).max(op.invoked.at_us as f64 + label_us);
        let starts = op.invoked.at_us as f64;
        let lane = match lane_free_us.iter().position(|free| *free <= starts) {
            Some(lane) => lane,
            None => {
                lane_free_us.push(0.0);
                lane_free_us.len() - 1
            }
        };
        lane_free_us[lane] = busy_until;
        let served = judged.served_by.get(op.index as usize).cloned().flatten();
        bars.push(Bar {
            index: op.index,
            lane,
            left_percent: percent(op.invoked.at_us),
            width_percent: percent(drawn_end_us) - percent(op.invoked.at_us),
            open_ended,
            outcome: outcome_of(op),
            role,
            description: description(op, served.as_deref(), role),
            label: text,
            invoked_us: op.invoked.at_us,
            jump_us: op.completed.map_or(op.invoked.at_us, |done| done.at_us),
            served_by: op.served_by,
        });
    }
    lift_marked_lanes(&mut bars, lane_free_us.len());
    Lanes {
        lanes: lane_free_us.len(),
        bars,
        end_us,
        now_percent: percent(now_us),
        ticks: ticks(end_us),
    }
}

/// Moves the lanes holding the op that cannot be placed, then the witness, to the top, so a refusal
/// is on screen when the panel opens however many lanes the history needs.
fn lift_marked_lanes(bars: &mut [Bar], lanes: usize) {
    let rank = |lane: usize| {
        bars.iter()
            .filter(|bar| bar.lane == lane)
            .map(|bar| match bar.role {
                Role::Stuck => 0,
                Role::Witness => 1,
                Role::Plain => 2,
            })
            .min()
            .unwrap_or(2)
    };
    let mut order: Vec<usize> = (0..lanes).collect();
    order.sort_by_key(|lane| (rank(*lane), *lane));
    let mut new_lane = vec![0; lanes];
    for (position, lane) in order.into_iter().enumerate() {
        new_lane[lane] = position;
    }
    for bar in bars.iter_mut() {
        bar.lane = new_lane[bar.lane];
    }
}

/// Round instants from 0 to `end_us`, at most about eight of them.
fn ticks(end_us: u64) -> Vec<(f64, String)> {
    let mut decade_us: u64 = 1_000;
    let step_us = loop {
        let fitting = [1, 2, 5]
            .into_iter()
            .map(|mantissa| mantissa * decade_us)
            .find(|step_us| end_us / step_us <= 8);
        if let Some(step_us) = fitting {
            break step_us;
        }
        decade_us *= 10;
    };
    (0..=end_us / step_us)
        .map(|tick| {
            let at_us = tick * step_us;
            (
                100.0 * at_us as f64 / end_us as f64,
                crate::format::sim_time(at_us),
            )
        })
        .collect()
}

/// The verdict split for display: its heading ("Not linearizable") and the rest of the sentence.
pub fn verdict_parts(words: &str) -> (String, String) {
    match words.split_once(": ") {
        Some((head, rest)) => (head.to_string(), rest.to_string()),
        None => (words.to_string(), String::new()),
    }
}

/// Whether `protocol`'s world says what its clients may see (a sequential model of its store): only
/// then is there a history to draw and judge. Asked of the registry, never by the world's name.
pub fn has_history_model(protocol: &ProtocolConfig) -> bool {
    !protocol.entry().parts.history_models(protocol).is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;
    use quorumlab_sim::runner::ScenarioRun;
    use quorumlab_sim::scenario::parse_scenario;

    fn world_of(example: &str, until_ms: Option<u64>) -> World {
        let text = quorumlab_sim::scenario::example_text(example).expect("an example");
        let scenario = parse_scenario(text, example).unwrap();
        let mut run = ScenarioRun::new(scenario).unwrap();
        match until_ms {
            Some(until_ms) => {
                let until = run.world().now().plus_ms(until_ms);
                run.advance_to(until);
            }
            None => run.run_to_end(),
        }
        run.world().clone()
    }

    #[test]
    fn the_stale_lease_read_is_refused_and_its_witness_marked() {
        let world = world_of("stale-lease-read.toml", None);
        let judged = judge(&world, Budget::APP);
        assert_eq!(judged.kind, VerdictKind::NotLinearizable);
        let (head, rest) = verdict_parts(&judged.words);
        assert_eq!(head, "Not linearizable");
        assert!(rest.contains("began after"), "{rest}");
        let lanes = lay_out(&judged, world.now().as_micros());
        let stuck: Vec<&Bar> = lanes
            .bars
            .iter()
            .filter(|bar| bar.role == Role::Stuck)
            .collect();
        assert_eq!(stuck.len(), 1);
        assert_eq!(stuck[0].label, "get k1 → 1");
        assert_eq!(stuck[0].invoked_us, 1_800_000);
        let witnesses: Vec<&str> = lanes
            .bars
            .iter()
            .filter(|bar| bar.role == Role::Witness)
            .map(|bar| bar.label.as_str())
            .collect();
        assert_eq!(witnesses, ["put k1=1", "put k1=17"]);
        assert!(stuck[0].class().contains("stuck"));
        // The refusal is on the top lanes: the read first, then the two puts.
        assert_eq!(stuck[0].lane, 0);
        let witness_lanes: Vec<usize> = lanes
            .bars
            .iter()
            .filter(|bar| bar.role == Role::Witness)
            .map(|bar| bar.lane)
            .collect();
        assert!(
            witness_lanes.iter().all(|lane| *lane <= 2),
            "{witness_lanes:?}"
        );
    }

    /// The lock service's workers are drawn too: their store accesses and grants, the stale write of
    /// the paused holder refused when the store takes any token.
    #[test]
    fn a_paused_holder_without_fencing_is_drawn_and_refused() {
        let world = world_of("no-fencing-pause.toml", None);
        let judged = judge(&world, Budget::APP);
        assert_eq!(
            judged.kind,
            VerdictKind::NotLinearizable,
            "{}",
            judged.words
        );
        let lanes = lay_out(&judged, world.now().as_micros());
        let labels: Vec<&str> = lanes.bars.iter().map(|bar| bar.label.as_str()).collect();
        assert!(
            labels.iter().any(|label| label.starts_with("write a0=")),
            "{labels:?}"
        );
        assert!(
            labels.iter().any(|label| label.starts_with("acquire → t")),
            "{labels:?}"
        );
        assert!(lanes.bars.iter().any(|bar| bar.role == Role::Stuck));
        let fenced = world_of("fencing-pause.toml", None);
        let judged = judge(&fenced, Budget::APP);
        assert_eq!(judged.kind, VerdictKind::Linearizable, "{}", judged.words);
    }

    #[test]
    fn a_calm_run_is_linearizable_with_nothing_marked() {
        let world = world_of("stale-lease-read.toml", Some(1_200));
        let judged = judge(&world, Budget::APP);
        assert_eq!(judged.kind, VerdictKind::Linearizable, "{}", judged.words);
        let lanes = lay_out(&judged, world.now().as_micros());
        assert_eq!(lanes.bars.len(), 16);
        assert!(lanes.bars.iter().all(|bar| bar.role == Role::Plain));
    }

    #[test]
    fn before_any_request_there_is_nothing_to_judge() {
        let world = world_of("stale-lease-read.toml", Some(500));
        let judged = judge(&world, Budget::APP);
        assert_eq!(judged.kind, VerdictKind::Nothing);
        assert!(lay_out(&judged, 500_000).bars.is_empty());
    }

    #[test]
    fn a_tiny_budget_is_undecided_never_a_verdict() {
        let world = world_of("stale-lease-read.toml", None);
        let budget = Budget {
            configurations: 1,
            ..Budget::APP
        };
        let judged = judge(&world, budget);
        assert_eq!(judged.kind, VerdictKind::Undecided, "{}", judged.words);
    }

    #[test]
    fn overlapping_ops_get_their_own_lanes_and_later_ones_reuse_them() {
        let world = world_of("stale-lease-read.toml", None);
        let judged = judge(&world, Budget::APP);
        let lanes = lay_out(&judged, world.now().as_micros());
        // Sixteen puts at once need sixteen lanes; the second sixteen reuse them, and the read, 50 ms
        // later, lands where those puts' labels still are, so it takes a seventeenth.
        assert_eq!(lanes.lanes, 17);
        for lane in 0..lanes.lanes {
            let mut on_lane: Vec<&Bar> = lanes.bars.iter().filter(|bar| bar.lane == lane).collect();
            on_lane.sort_by(|a, b| a.left_percent.total_cmp(&b.left_percent));
            for pair in on_lane.windows(2) {
                assert!(pair[0].left_percent + pair[0].width_percent <= pair[1].left_percent);
            }
        }
        let bar = &lanes.bars[0];
        assert!((bar.left_percent - 20.0).abs() < 1e-9, "800 ms of 4 s");
    }

    #[test]
    fn unknown_ops_are_open_ended_and_labelled_as_such() {
        let world = world_of("stale-lease-read.toml", Some(1_800));
        let mut judged = judge(&world, Budget::APP);
        judged.witness.clear();
        judged.stuck = None;
        let last = judged.ops.len() - 1;
        judged.ops[last].end = OpEnd::Unknown(quorumlab_sim::client_history::Unknown::Timeout);
        let lanes = lay_out(&judged, 2_000_000);
        let bar = lanes
            .bars
            .iter()
            .find(|bar| bar.index as usize == last)
            .unwrap();
        assert!(bar.open_ended && bar.class().contains("unknown open"));
        assert!(bar.label.ends_with(" ?"));
        assert!((bar.left_percent + bar.width_percent - 100.0).abs() < 1e-9);
        assert!(bar.description.contains("may take effect later"));
    }

    #[test]
    fn ticks_are_round_and_few() {
        let labels: Vec<String> = ticks(4_000_000).into_iter().map(|(_, text)| text).collect();
        assert_eq!(labels.first().map(String::as_str), Some("0 ms"));
        assert!(labels.len() <= 9 && labels.len() >= 4, "{labels:?}");
        assert!(labels.contains(&"2.000 s".to_string()));
        assert_eq!(verdict_parts("No client operation to judge yet.").1, "");
    }
}
