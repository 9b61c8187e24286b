//! A lock holder frozen past its lease, and the late write it sends when it wakes.
//!
//! The fencing lesson is about one story: a worker holds the lock, a long pause freezes it, its lease
//! runs out on the service while it sleeps, another worker is granted the lock, and the frozen one
//! wakes still sure the lock is its own and writes with its old token. Two clients believing they hold
//! the lock, or a stale write refused, can also come from elsewhere (the service leader's clock jumping
//! ahead ends a lease early while its holder runs on), so these checkpoints follow the frozen holder:
//! - `lock_granted_while_holder_paused`: a worker seen paused while it believed it held the lock is
//!   still frozen with that belief, and another worker now believes it holds the lock with a higher
//!   token.
//! - `paused_holder_write_refused`: the store refused a write carrying the very token a worker held
//!   when it was seen paused: its late write, read off the store's facts in the trace.
//!
//! While the write has not come, the verdict borrows the stale-write watch's hints (a pause while
//! releasing or between jobs leaves nothing late to send).

use super::holders::workers;
use super::stale_write::StaleWriteWatch;
use super::trace_cursor::{resource_facts, TraceCursor};
use super::Verdict;
use crate::base::ids::NodeId;
use crate::base::units::FencingToken;
use crate::engine::world::{NodeStatus, World};
use crate::protocols::resource::{AccessOutcome, ResourceFact};
use std::collections::BTreeMap;

#[derive(Clone, Debug)]
pub(super) struct PausedHolderWatch {
    cursor: TraceCursor,
    /// Workers seen paused while they believed they held the lock, with that token.
    frozen: BTreeMap<NodeId, FencingToken>,
    /// A worker seen paused holding nothing.
    paused_empty: Option<NodeId>,
    /// A holder that woke before anyone else was granted the lock.
    woke_early: Option<NodeId>,
    /// A refused write from a worker that was not a frozen holder (or not under its frozen token).
    other_refusal: Option<(NodeId, FencingToken)>,
    /// The frozen holder's refused write: who, its token, the highest token the store had seen.
    refused: Option<(NodeId, FencingToken, FencingToken)>,
}

impl PausedHolderWatch {
    pub(super) fn begin(world: &World) -> PausedHolderWatch {
        let mut watch = PausedHolderWatch {
            cursor: TraceCursor::at_end(world),
            frozen: BTreeMap::new(),
            paused_empty: None,
            woke_early: None,
            other_refusal: None,
            refused: None,
        };
        watch.note_pauses(world);
        watch
    }

    fn note_pauses(&mut self, world: &World) {
        for (node, worker) in workers(world) {
            if world.nodes()[node.index()].status != NodeStatus::Paused {
                continue;
            }
            match worker.belief {
                Some(belief) => {
                    self.frozen.entry(node).or_insert(belief.token);
                }
                None if !self.frozen.contains_key(&node) => self.paused_empty = Some(node),
                None => {}
            }
        }
    }

    /// The highest token another worker than `node` believes it holds now.
    fn rival(world: &World, node: NodeId) -> Option<(NodeId, FencingToken)> {
        workers(world)
            .filter(|(other, _)| *other != node)
            .filter_map(|(other, worker)| Some((other, worker.belief?.token)))
            .max_by_key(|(_, token)| *token)
    }

    pub(super) fn granted_while_paused(&mut self, world: &World) -> Verdict {
        self.note_pauses(world);
        let frozen: Vec<(NodeId, FencingToken)> =
            self.frozen.iter().map(|(n, t)| (*n, *t)).collect();
        for (node, token) in frozen {
            let label = world.node_label(node);
            let worker = world.nodes()[node.index()].actor.as_worker();
            let still_believes = worker
                .and_then(|worker| worker.belief)
                .is_some_and(|belief| belief.token == token);
            let paused = world.nodes()[node.index()].status == NodeStatus::Paused;
            let rival = Self::rival(world, node).filter(|(_, rival)| *rival > token);
            match (paused && still_believes, rival) {
                (true, Some((other, other_token))) => {
                    return Verdict::yes(format!(
                        "{label} is frozen and still sure it holds the lock with token {token}, \
                         while its lease ran out on the service and {} was granted token \
                         {other_token}: two clients each believe the lock is theirs",
                        world.node_label(other)
                    ))
                }
                (true, None) => {
                    return Verdict::not_yet(format!(
                        "{label} is frozen holding token {token}; waiting for its lease to run out \
                         on the service and another worker to be granted the lock"
                    ))
                }
                (false, _) => {
                    self.frozen.remove(&node);
                    self.woke_early = Some(node);
                }
            }
        }
        let hint = match (self.woke_early, self.paused_empty) {
            (Some(node), _) => format!(
                "{} woke before anyone else was granted the lock; pause the holder for longer than \
                 its lease",
                world.node_label(node)
            ),
            (None, Some(node)) => format!(
                "{} was paused holding no lock; pause the worker that holds it",
                world.node_label(node)
            ),
            (None, None) => "no lock holder is paused".into(),
        };
        Verdict::not_yet(hint)
    }

    pub(super) fn write_refused(&mut self, world: &World, hints: &mut StaleWriteWatch) -> Verdict {
        self.note_pauses(world);
        let Some(records) = self.cursor.unread(world) else {
            *self = PausedHolderWatch::begin(world);
            return Verdict::not_yet("the run went back in time; watching again from here".into());
        };
        for fact in resource_facts(records) {
            let ResourceFact::ResourceAccess {
                client,
                token,
                write: true,
                outcome: AccessOutcome::StaleToken,
                highest_seen,
                ..
            } = *fact
            else {
                continue;
            };
            if self.frozen.get(&client) == Some(&token) {
                self.refused.get_or_insert((client, token, highest_seen));
            } else {
                self.other_refusal = Some((client, token));
            }
        }
        if let Some((node, token, highest)) = self.refused {
            return Verdict::yes(format!(
                "{label} had been frozen holding token {token} past its lease; it woke and sent its \
                 write with that token, and the store refused it (highest token seen: {highest})",
                label = world.node_label(node)
            ));
        }
        if let Some((node, token)) = self.other_refusal {
            return Verdict::not_yet(format!(
                "the store refused a write from {} with token {token}, but not from a holder that \
                 was frozen past its lease; pause the holder while it is modifying and resume it \
                 once another worker holds the lock",
                world.node_label(node)
            ));
        }
        let mut hint = hints.check(world);
        hint.satisfied = false;
        hint
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::{
        explanation_when_met, explanation_when_never_met, watch_until_met, with_step,
    };
    use crate::tooling::lesson::Checkpoint;

    const FENCING: &str = include_str!("../../../../../lessons/scenarios/fencing-calm.toml");

    fn fencing() -> String {
        FENCING.replace("duration_ms = 120000", "duration_ms = 8000")
    }

    /// At 1 300 ms A holds the lock and is modifying (lesson 6 step 1's moment).
    fn pause_a(duration_ms: u64) -> String {
        with_step(
            &fencing(),
            1_300,
            &format!("\"pause\"\ntarget = \"A\"\nduration_ms = {duration_ms}"),
        )
    }

    /// The lock service's leader jumps 1 s ahead at 1 100 ms: A's lease ends early on the service's
    /// clock while A runs on, B is granted the lock, and A's write (at 1 175 ms, times fixed by the
    /// seed) is refused. Two believers and a refused write, with no pause at all.
    fn service_clock_ahead() -> String {
        with_step(
            &fencing(),
            1_100,
            "\"clock_jump\"\ntarget = \"leader\"\nby_ms = 1000",
        )
    }

    #[test]
    fn a_holder_frozen_past_its_lease_sees_the_lock_granted_to_another() {
        let explanation = explanation_when_met(
            &pause_a(2_500),
            Checkpoint::LockGrantedWhileHolderPaused,
            1_000,
            6_000,
        );
        assert!(explanation.starts_with("A is frozen"), "{}", explanation);
    }

    #[test]
    fn the_frozen_holders_late_write_is_refused() {
        let explanation = explanation_when_met(
            &pause_a(2_500),
            Checkpoint::PausedHolderWriteRefused,
            1_000,
            6_000,
        );
        assert!(
            explanation.starts_with("A had been frozen"),
            "{}",
            explanation
        );
    }

    #[test]
    fn a_pause_within_the_lease_hands_the_lock_to_nobody() {
        let explanation = explanation_when_never_met(
            &pause_a(600),
            Checkpoint::LockGrantedWhileHolderPaused,
            1_000,
            6_000,
        );
        assert!(
            explanation.contains("woke before anyone else"),
            "{}",
            explanation
        );
    }

    /// The look-alike of the issue: the service's clock jump ticks the plain checkpoints, not these.
    #[test]
    fn a_clock_jump_at_the_service_is_not_a_frozen_holder() {
        let text = service_clock_ahead();
        let (two, _) = watch_until_met(
            &text,
            Checkpoint::TwoClientsBelieveTheyHoldLock,
            1_000,
            6_000,
        );
        assert!(two.is_some(), "the look-alike ticks the plain checkpoint");
        let (met, verdict) = watch_until_met(
            &text,
            Checkpoint::LockGrantedWhileHolderPaused,
            1_000,
            6_000,
        );
        assert_eq!(met, None, "{}", verdict.explanation);
        assert_eq!(verdict.explanation, "no lock holder is paused");
        let (met, verdict) =
            watch_until_met(&text, Checkpoint::PausedHolderWriteRefused, 1_000, 6_000);
        assert_eq!(met, None, "{}", verdict.explanation);
    }

    #[test]
    fn a_clock_jump_at_the_service_also_refuses_a_write() {
        let (met, verdict) = watch_until_met(
            &service_clock_ahead(),
            Checkpoint::StaleWriteRefused,
            1_000,
            6_000,
        );
        assert!(met.is_some(), "{}", verdict.explanation);
        let explanation = explanation_when_never_met(
            &service_clock_ahead(),
            Checkpoint::PausedHolderWriteRefused,
            1_000,
            6_000,
        );
        assert!(
            explanation.contains("not from a holder that was frozen"),
            "{}",
            explanation
        );
    }
}
