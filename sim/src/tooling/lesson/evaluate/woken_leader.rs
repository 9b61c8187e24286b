//! A leader that wakes from a pause and acts on a term that is over.
//!
//! A paused process cannot see its own pause. The leader-election lesson freezes the leader long enough
//! for the others to elect someone else, and the point is what the old leader does when it wakes: it
//! still believes it leads its old term, so it goes on sending heartbeats (or entries) as leader, until
//! the first message carrying the newer term reaches it and it becomes a follower. A step-down alone is
//! not that lesson: an isolated leader that is healed steps down too, without ever having been frozen.
//!
//! So `woken_leader_acted_on_old_term` is met when the leader of the step's start was seen paused, a
//! server won a later term meanwhile, and then, in the trace after that win, the old leader sent at
//! least one heartbeat or append as leader before it recorded becoming a follower.

use super::trace_cursor::TraceCursor;
use super::{counted, Verdict};
use crate::base::ids::NodeId;
use crate::base::units::Term;
use crate::contract::protocol::RaftFact;
use crate::engine::trace::TraceEvent;
use crate::engine::world::{NodeStatus, World};
use crate::worlds::actor::Fact;

/// Message labels only a leader sends.
const LEADER_LABELS: [&str; 2] = ["Heartbeat", "AppendEntries"];

#[derive(Clone, Debug)]
pub(super) struct WokenLeaderWatch {
    cursor: TraceCursor,
    leader: Option<(NodeId, Term)>,
    paused: bool,
    /// Who won a later term while the leader was paused, and which term.
    successor: Option<(NodeId, Term)>,
    /// Heartbeats and appends the old leader sent after the successor won.
    stale_sends: u64,
    /// The term it became a follower in, after the successor won.
    stepped_down: Option<Term>,
    /// Why the last leader watched did not count.
    missed: Option<String>,
}

impl WokenLeaderWatch {
    pub(super) fn begin(world: &World) -> WokenLeaderWatch {
        WokenLeaderWatch {
            cursor: TraceCursor::at_end(world),
            leader: super::leader_and_term(world),
            paused: false,
            successor: None,
            stale_sends: 0,
            stepped_down: None,
            missed: None,
        }
    }

    fn read(&mut self, world: &World, node: NodeId, term: Term) {
        self.paused |= world.nodes()[node.index()].status == NodeStatus::Paused;
        let Some(records) = self.cursor.unread(world) else {
            *self = WokenLeaderWatch::begin(world);
            return;
        };
        for record in records {
            match &record.event {
                TraceEvent::Observe {
                    node: by,
                    fact: Fact::Raft(RaftFact::BecameLeader { term: won, .. }),
                } if *by != node && *won > term && self.paused => {
                    self.successor.get_or_insert((*by, *won));
                }
                TraceEvent::Send { from, label, .. }
                    if *from == node
                        && self.successor.is_some()
                        && self.stepped_down.is_none()
                        && LEADER_LABELS.contains(label) =>
                {
                    self.stale_sends += 1;
                }
                TraceEvent::Observe {
                    node: by,
                    fact: Fact::Raft(RaftFact::BecameFollower { term: now }),
                } if *by == node && self.successor.is_some() => {
                    self.stepped_down.get_or_insert(*now);
                }
                _ => {}
            }
        }
    }

    fn move_on(&mut self, world: &World, why: String) -> Verdict {
        *self = WokenLeaderWatch::begin(world);
        let verdict = Verdict::not_yet(format!("{why}; pause the leader again"));
        self.missed = Some(why);
        verdict
    }

    pub(super) fn acted_on_old_term(&mut self, world: &World) -> Verdict {
        if self.leader.is_none() {
            self.leader = super::leader_and_term(world);
            self.cursor = TraceCursor::at_end(world);
        }
        let Some((node, term)) = self.leader else {
            return Verdict::not_yet("no leader has been seen yet".into());
        };
        self.read(world, node, term);
        let label = world.node_label(node);
        let (Some((next, won)), Some(now)) = (self.successor, self.stepped_down) else {
            return self.waiting(world, node, term);
        };
        if self.stale_sends == 0 {
            return self.move_on(
                world,
                format!(
                    "{label} learned of term {won} before it sent anything as leader, so it never \
                     acted on its old term"
                ),
            );
        }
        Verdict::yes(format!(
            "{label} woke still sure it led term {term} and sent {} as leader, though {} had won \
             term {won} while it was frozen; the first message carrying the newer term made it a \
             follower in term {now}",
            counted(self.stale_sends, "heartbeat", "heartbeats"),
            world.node_label(next)
        ))
    }

    /// Not met yet: what has happened so far, and what the learner can do next.
    fn waiting(&mut self, world: &World, node: NodeId, term: Term) -> Verdict {
        let label = world.node_label(node);
        let status = world.nodes()[node.index()].status;
        let said = match (status, self.successor) {
            (NodeStatus::Crashed, _) => {
                format!("{label} is crashed; this step wants it paused, so that it wakes later")
            }
            (NodeStatus::Paused, None) => {
                format!("{label} is paused; waiting for the others to elect a new leader")
            }
            (NodeStatus::Paused, Some((next, won))) => format!(
                "{} won term {won} while {label} is frozen; {label} will wake believing it still \
                 leads term {term}",
                world.node_label(next)
            ),
            (NodeStatus::Up, None) => {
                if self.paused {
                    self.paused = false;
                    self.missed = Some(format!(
                        "{label} woke before anyone replaced it, so it simply led on"
                    ));
                }
                format!("{label} leads term {term}; pause it for longer than an election timeout")
            }
            (NodeStatus::Up, Some(_)) => format!(
                "{label} is awake and has sent {} as leader of term {term} so far",
                counted(self.stale_sends, "heartbeat", "heartbeats")
            ),
        };
        match &self.missed {
            Some(missed) => Verdict::not_yet(format!("{missed}; {said}")),
            None => Verdict::not_yet(said),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::{explanation_when_never_met, watch_until_met, with_step};
    use crate::tooling::lesson::Checkpoint;

    const CALM: &str = include_str!("../../../../../lessons/scenarios/calm-five.toml");

    /// Lesson 3 step 2: frozen for 1.5 s, the leader is replaced, wakes, and still acts as leader.
    #[test]
    fn a_leader_paused_past_an_election_wakes_and_acts_on_its_old_term() {
        let text = with_step(
            CALM,
            1_100,
            "\"pause\"\ntarget = \"leader\"\nduration_ms = 1500",
        );
        let (met, verdict) =
            watch_until_met(&text, Checkpoint::WokenLeaderActedOnOldTerm, 1_000, 4_000);
        assert!(met.is_some(), "{}", verdict.explanation);
        assert!(
            met.unwrap() >= 2_600 && verdict.explanation.contains("woke still sure it led"),
            "{met:?}: {}",
            verdict.explanation
        );
    }

    /// Cut off and healed, the leader steps down too, but it was never frozen: the plain step-down
    /// ticks, this does not.
    #[test]
    fn an_isolated_leader_that_is_healed_was_never_paused() {
        let text = with_step(
            &with_step(CALM, 1_100, "\"isolate\"\ntarget = \"leader\""),
            2_600,
            "\"heal\"",
        );
        let (stepped, _) = watch_until_met(&text, Checkpoint::LeaderSteppedDown, 1_000, 4_000);
        assert!(
            stepped.is_some(),
            "the look-alike ticks the plain checkpoint"
        );
        let (met, verdict) =
            watch_until_met(&text, Checkpoint::WokenLeaderActedOnOldTerm, 1_000, 4_000);
        assert_eq!(met, None, "{}", verdict.explanation);
    }

    /// Paused for less than any election timeout, the leader wakes still leading: nobody replaced it.
    #[test]
    fn a_short_pause_replaces_nobody() {
        let text = with_step(
            CALM,
            1_100,
            "\"pause\"\ntarget = \"leader\"\nduration_ms = 100",
        );
        let explanation =
            explanation_when_never_met(&text, Checkpoint::WokenLeaderActedOnOldTerm, 1_000, 3_000);
        assert!(
            explanation.contains("woke before anyone replaced it"),
            "{}",
            explanation
        );
    }
}
