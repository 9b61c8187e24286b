//! Checkpoints of the lesson "When nodes lie" that span worlds: what a Byzantine node breaks in Raft
//! (two leaders in one term, honest servers applying different commands), requests still committed
//! while a node lies, and what it costs (messages per committed request, counted by kind from the run
//! itself, in Raft or PBFT alike). PBFT's own checkpoints (a view change, honest replicas
//! disagreeing) live in its folder, `protocols/pbft/checkpoints.rs`.
//!
//! Everything counts from the step's start, so a violation or a commit of an earlier step never ticks
//! a later one.

use super::message_tally::MessageTally;
use super::violations::latest_detail;
use super::{counted, Verdict};
use crate::base::ids::NodeId;
use crate::contract::action::ByzantineMode;
use crate::engine::checker::{ELECTION_SAFETY, HONEST_AGREEMENT, STATE_MACHINE_SAFETY};
use crate::engine::world::World;
use std::collections::BTreeMap;

/// What the Byzantine checkpoints remember from the step's start.
#[derive(Clone, Debug)]
pub(super) struct ByzantineWatch {
    violations: BTreeMap<String, u64>,
    /// Requests committed (Raft acknowledgements, PBFT results taken) at the last look.
    committed_seen: u64,
    /// Requests committed since the step began that count (all of them, or only while a node lied).
    committed_counted: u64,
    messages: MessageTally,
}

impl ByzantineWatch {
    pub(super) fn begin(world: &World) -> ByzantineWatch {
        ByzantineWatch {
            violations: world.checkers().violation_counts().clone(),
            committed_seen: committed(world),
            committed_counted: 0,
            messages: MessageTally::from_now(world),
        }
    }

    fn new_violations(&self, world: &World, invariant: &str) -> u64 {
        let count = |counts: &BTreeMap<String, u64>| counts.get(invariant).copied().unwrap_or(0);
        count(world.checkers().violation_counts()).saturating_sub(count(&self.violations))
    }

    pub(super) fn two_leaders_in_one_term(&self, world: &World) -> Verdict {
        match self.new_violations(world, ELECTION_SAFETY) {
            0 => Verdict::not_yet("every term so far has had at most one leader".into()),
            _ => Verdict::yes(latest_detail(world, ELECTION_SAFETY)),
        }
    }

    pub(super) fn applied_commands_diverged(&self, world: &World) -> Verdict {
        match self.new_violations(world, STATE_MACHINE_SAFETY) {
            0 => Verdict::not_yet(
                "every server that committed an entry committed the same command there".into(),
            ),
            _ => Verdict::yes(format!(
                "honest servers committed different commands at one index: {}",
                latest_detail(world, STATE_MACHINE_SAFETY)
            )),
        }
    }

    /// Requests committed since the step began, with the messages sent meanwhile.
    pub(super) fn requests_committed_at_least(&mut self, world: &World, wanted: u64) -> Verdict {
        self.tally(world, true);
        let done = self.committed_counted;
        let text = format!(
            "{} committed since this step began; the cluster sent {}",
            counted(done, "request", "requests"),
            self.messages.per_request(done)
        );
        if done >= wanted && wanted > 0 {
            Verdict::yes(text)
        } else {
            Verdict::not_yet(format!("{text} (waiting for {wanted} requests)"))
        }
    }

    /// Requests committed while some node lied, counted from the step's start, with the messages
    /// sent in those stretches; the verdict also says whether honest replicas still agree.
    pub(super) fn requests_committed_while_lying(&mut self, world: &World, wanted: u64) -> Verdict {
        let liars = liars(world);
        self.tally(world, !liars.is_empty());
        let done = self.committed_counted;
        let agreement = match self.new_violations(world, HONEST_AGREEMENT) {
            0 if judges_honest_agreement(world) => {
                "; honest replicas agree at every sequence number"
            }
            0 => "",
            _ => "; but honest replicas disagree (Honest Agreement broke)",
        };
        let text = format!(
            "{} committed while a node lied, and the cluster sent {}{agreement}",
            counted(done, "request", "requests"),
            self.messages.per_request(done)
        );
        match liars.as_slice() {
            _ if done >= wanted && wanted > 0 => Verdict::yes(text),
            [] => Verdict::not_yet(format!("no node is lying now; {text}")),
            _ => Verdict::not_yet(format!(
                "{} lying: {text} (waiting for {wanted})",
                liars.join(", ")
            )),
        }
    }

    /// Counts the requests committed and the messages sent since the last look, if `counting`.
    fn tally(&mut self, world: &World, counting: bool) {
        let now = committed(world);
        if counting {
            self.committed_counted += now.saturating_sub(self.committed_seen);
        }
        self.committed_seen = now;
        self.messages.catch_up(world, counting);
    }
}

/// Whether the world's checkers judge Honest Agreement (a world of replicas that may lie: PBFT).
fn judges_honest_agreement(world: &World) -> bool {
    let entry = world.config().protocol.entry();
    entry.invariants().any(|info| info.name == HONEST_AGREEMENT)
}

/// Requests committed so far: the client box's acknowledged requests, and in a world whose servers do
/// not run Raft, what its own parts count as committed (PBFT clients' results taken). A Raft world's
/// parts count the client box itself, already in the first term.
fn committed(world: &World) -> u64 {
    let entry = world.config().protocol.entry();
    let own = match entry.capabilities.runs_raft {
        true => None,
        false => entry.parts.committed_requests(world),
    };
    world.clients().counts.committed + own.map_or(0, |(_, committed)| committed)
}

/// The nodes lying or equivocating now, by name. A silent node is left out: it says nothing false,
/// and a step that silenced one must not count as a step that made one lie.
fn liars(world: &World) -> Vec<String> {
    let says_false = |mode: Option<ByzantineMode>| {
        matches!(mode, Some(ByzantineMode::Lie | ByzantineMode::Equivocate))
    };
    // Only plain Raft servers and PBFT replicas can be made to lie (`Actor::lying_mode`).
    let lying = |index: usize| says_false(world.nodes()[index].actor.lying_mode());
    (0..world.node_count())
        .filter(|index| lying(*index))
        .map(|index| world.node_label(NodeId(index as u16)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::super::test_support::watch_until_met;
    use crate::tooling::lesson::Checkpoint;

    const RAFT_FOUR: &str = include_str!("../../../../../lessons/scenarios/raft-four.toml");
    const PBFT_FOUR: &str = include_str!("../../../../../lessons/scenarios/pbft-four.toml");

    fn watch(text: &str, checkpoint: Checkpoint, begin_ms: u64, until_ms: u64) -> (bool, String) {
        let (met_at, verdict) = watch_until_met(text, checkpoint, begin_ms, until_ms);
        (met_at.is_some(), verdict.explanation)
    }

    fn step(at_ms: u64, action: &str) -> String {
        format!("\n[[step]]\nat_ms = {at_ms}\n{action}\n")
    }

    fn liar(at_ms: u64, node: &str, mode: &str) -> String {
        step(
            at_ms,
            &format!("do = \"byzantine\"\ntarget = \"{node}\"\nmode = \"{mode}\""),
        )
    }

    fn writes(first_ms: u64, count: u64) -> String {
        (0..count)
            .map(|index| {
                let action = "do = \"request\"\ncount = 1\ntarget = \"leader\"";
                step(first_ms + index * 200, action)
            })
            .collect()
    }

    #[test]
    fn a_lying_raft_follower_makes_two_leaders_of_one_term_and_an_honest_one_does_not() {
        let lying = format!("{RAFT_FOUR}{}", liar(1_000, "n3", "lie"));
        let (met, why) = watch(&lying, Checkpoint::TwoLeadersInOneTerm, 900, 2_000);
        assert!(met, "{why}");
        assert!(why.starts_with("n3 forged a claim to lead term"), "{why}");
        assert!(!why.contains("elected"), "{why}");
        let honest = format!("{RAFT_FOUR}{}", liar(1_000, "n3", "honest"));
        let (met, why) = watch(&honest, Checkpoint::TwoLeadersInOneTerm, 900, 2_000);
        assert!(!met, "{why}");
        assert_eq!(why, "every term so far has had at most one leader");
    }

    #[test]
    fn a_write_after_the_forgery_makes_honest_servers_diverge_and_no_write_does_not() {
        let lying = format!("{RAFT_FOUR}{}", liar(1_000, "n3", "lie"));
        let (met, why) = watch(&lying, Checkpoint::AppliedCommandsDiverged, 1_200, 3_000);
        assert!(
            !met,
            "the forgery alone commits nothing the leader contradicts: {why}"
        );
        let written = format!("{lying}{}", writes(1_500, 1));
        let (met, why) = watch(&written, Checkpoint::AppliedCommandsDiverged, 1_200, 3_000);
        assert!(met, "{why}");
        assert!(why.contains("different commands at one index"), "{why}");
    }

    #[test]
    fn requests_while_a_replica_lies_count_only_once_it_lies_and_silence_is_not_lying() {
        let lying = format!("{PBFT_FOUR}{}", liar(1_000, "n3", "lie"));
        let (met, why) = watch(&lying, Checkpoint::RequestsCommittedWhileLying(5), 0, 3_000);
        assert!(met, "{why}");
        assert!(why.contains("honest replicas agree"), "{why}");
        assert!(why.contains("Prepare") && why.contains("Commit"), "{why}");
        let silent = format!("{PBFT_FOUR}{}", liar(1_000, "n3", "silent"));
        let (met, why) = watch(
            &silent,
            Checkpoint::RequestsCommittedWhileLying(5),
            0,
            3_000,
        );
        assert!(!met, "{why}");
        assert!(why.starts_with("no node is lying now; 0 requests"), "{why}");
    }

    #[test]
    fn raft_requests_are_counted_with_their_messages_and_an_idle_cluster_commits_none() {
        let written = format!("{RAFT_FOUR}{}", writes(1_000, 10));
        let (met, why) = watch(
            &written,
            Checkpoint::RequestsCommittedAtLeast(10),
            1_000,
            4_000,
        );
        assert!(met, "{why}");
        assert!(why.starts_with("10 requests committed since"), "{why}");
        // A write costs an AppendEntries to each of the three followers and an answer back; the
        // heartbeats and their answers are named apart, not shared out among the writes.
        let per_request = per_request_tenths(&why);
        assert!((55..=70).contains(&per_request), "{why}");
        assert!(!why.contains("Heartbeat "), "{why}");
        assert!(why.contains("heartbeats and answers to them"), "{why}");
        // PBFT's price for the same pace, while a backup lies: no upkeep, and far dearer.
        let lying = format!("{PBFT_FOUR}{}", liar(1_000, "n3", "lie"));
        let (met, pbft) = watch(
            &lying,
            Checkpoint::RequestsCommittedWhileLying(10),
            0,
            4_000,
        );
        assert!(met, "{pbft}");
        assert!(
            per_request_tenths(&pbft) > 3 * per_request,
            "{pbft} vs {why}"
        );
        assert!(!pbft.contains("heartbeats"), "{pbft}");
        let (met, why) = watch(
            RAFT_FOUR,
            Checkpoint::RequestsCommittedAtLeast(10),
            1_000,
            4_000,
        );
        assert!(!met, "{why}");
        assert!(why.starts_with("0 requests committed"), "{why}");
    }

    /// "6.2" in "..., 6.2 per request (...", as tenths.
    fn per_request_tenths(why: &str) -> u64 {
        let before = why.split(" per request (").next().expect("a figure");
        let figure = before.rsplit(' ').next().expect("a number");
        let (whole, tenth) = figure.split_once('.').expect("one decimal");
        whole.parse::<u64>().unwrap() * 10 + tenth.parse::<u64>().unwrap()
    }

    /// The tally must agree with the trace it reads: the same sends, counted another way.
    #[test]
    fn the_messages_in_a_verdict_are_the_sends_in_the_trace() {
        use crate::base::time::SimTime;
        use crate::engine::trace::TraceEvent;
        use crate::tooling::lesson::CheckpointEvaluator;
        use crate::tooling::runner::ScenarioRun;
        use crate::tooling::scenario::parse_scenario;
        let scenario = parse_scenario(PBFT_FOUR, "pbft-four.toml").unwrap();
        let mut run = ScenarioRun::new(scenario).unwrap();
        run.advance_to(SimTime::from_ms(500));
        let first = run.world().trace().total();
        let checkpoint = Checkpoint::RequestsCommittedAtLeast(1_000);
        let mut evaluator = CheckpointEvaluator::begin(checkpoint, run.world());
        for ms in (505..=1_500).step_by(5) {
            run.advance_to(SimTime::from_ms(ms));
            evaluator.check(run.world());
        }
        let why = evaluator.check(run.world()).explanation;
        let records = run.world().trace().records();
        let sends = records
            .skip(first as usize)
            .filter(|record| matches!(record.event, TraceEvent::Send { .. }))
            .count();
        assert!(sends > 0);
        assert!(
            why.contains(&format!("the cluster sent {sends} messages,")),
            "{sends}: {why}"
        );
    }
}
