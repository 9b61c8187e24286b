//! The checkpoint about a request refused because it could not be read, and the refusals that look
//! like it.
//!
//! A store says no for different reasons, and the caller must be able to tell them apart. A write
//! with an old token is well formed and *stale*: its sender lost the lock, and the right response is
//! to give the batch up. A request sent to a server that does not lead is well formed and *misdirected*:
//! the right response is to try the leader. A write with no token at all is neither: it is *malformed*,
//! and no retry, new lock or other server will make it acceptable; the sender has a bug. So this
//! checkpoint ticks only on the store's malformed answer, and only if the store's count and highest
//! token seen were the same right after that answer as right before it. Stale refusals are counted
//! so the verdict can say what the learner saw instead.

use super::coordination::store;
use super::trace_cursor::{resource_facts, TraceCursor};
use super::{counted, Verdict};
use crate::base::ids::NodeId;
use crate::base::units::FencingToken;
use crate::engine::world::World;
use crate::protocols::resource::{AccessOutcome, Malformed, ResourceFact};

/// The store's inventory count and highest token seen.
type StoreState = (u64, FencingToken);

/// What the malformed-request checkpoint remembers between checks.
#[derive(Clone, Debug)]
pub(super) struct MalformedWatch {
    cursor: TraceCursor,
    /// The store as of the last access read (as of the step's start before any).
    state: Option<StoreState>,
    /// The first malformed write refused with the store left as it was: sender, fault, the store.
    refused: Option<(NodeId, Malformed, StoreState)>,
    /// A malformed write whose refusal came with the store changed: sender, before, after.
    changed: Option<(NodeId, StoreState, StoreState)>,
    /// Accesses refused since the step began for a stale token (well formed, only old).
    stale_refusals: u64,
}

impl MalformedWatch {
    pub(super) fn begin(world: &World) -> MalformedWatch {
        MalformedWatch {
            cursor: TraceCursor::at_end(world),
            state: store(world).map(|resource| (resource.value, resource.highest_seen)),
            refused: None,
            changed: None,
            stale_refusals: 0,
        }
    }

    pub(super) fn check(&mut self, world: &World) -> Verdict {
        if store(world).is_none() {
            return Verdict::not_yet("this world has no store".into());
        }
        self.read(world);
        if let Some((client, malformed, (value, highest_seen))) = self.refused {
            return Verdict::yes(format!(
                "the store refused {}'s write as malformed ({}) and changed nothing: the count \
                 stayed at {value} and the highest token seen at {highest_seen}",
                world.node_label(client),
                malformed.text()
            ));
        }
        if let Some((client, before, after)) = self.changed {
            return Verdict::not_yet(format!(
                "the store refused {}'s malformed write but its count and highest token moved \
                 from {} and {} to {} and {}",
                world.node_label(client),
                before.0,
                before.1,
                after.0,
                after.1
            ));
        }
        if self.stale_refusals > 0 {
            return Verdict::not_yet(format!(
                "the store refused {} for a stale token: well formed, only old. Send it a write \
                 it cannot read",
                counted(self.stale_refusals, "access", "accesses")
            ));
        }
        Verdict::not_yet("the store has refused no malformed write yet".into())
    }

    /// Reads the store's accesses since the last check.
    fn read(&mut self, world: &World) {
        let Some(records) = self.cursor.unread(world) else {
            *self = MalformedWatch::begin(world);
            return;
        };
        for fact in resource_facts(records) {
            let ResourceFact::ResourceAccess {
                client,
                outcome,
                value,
                highest_seen,
                account,
                ..
            } = *fact;
            let before = self.state;
            // The work queue's accounts other than 0 are not the count this watch follows.
            let count = if account == 0 {
                value
            } else {
                before.map_or(value, |(count, _)| count)
            };
            let after = (count, highest_seen);
            self.state = Some(after);
            match outcome {
                AccessOutcome::Malformed(malformed) => match before {
                    Some(before) if before != after => {
                        self.changed.get_or_insert((client, before, after));
                    }
                    _ => {
                        self.refused.get_or_insert((client, malformed, after));
                    }
                },
                AccessOutcome::StaleToken => self.stale_refusals += 1,
                _ => {}
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::{watch_until_met, with_step};
    use crate::tooling::lesson::Checkpoint;

    const INVENTORY: &str = include_str!("../../../../../lessons/scenarios/inventory-batch.toml");

    fn inventory() -> String {
        INVENTORY.replace("duration_ms = 120000", "duration_ms = 8000")
    }

    fn watch(text: &str) -> (Option<u64>, super::Verdict) {
        watch_until_met(text, Checkpoint::MalformedRequestRejected, 1_000, 5_000)
    }

    #[test]
    fn a_write_with_no_token_is_refused_as_malformed_and_ticks_it() {
        let text = with_step(
            &inventory(),
            1_100,
            "\"malformed_write\"\ntarget = \"A\"\nfault = \"missing_token\"",
        );
        let (met, verdict) = watch(&text);
        assert!(met.is_some(), "{}", verdict.explanation);
        assert!(
            verdict
                .explanation
                .starts_with("the store refused A's write as malformed (no fencing token)"),
            "{}",
            verdict.explanation
        );
        assert!(verdict.explanation.contains("changed nothing"));
    }

    #[test]
    fn every_fault_ticks_it_naming_what_was_wrong() {
        let cases = [
            ("token_too_large", "a fencing token too large for 64 bits"),
            ("negative_count", "a count below zero"),
        ];
        for (fault, words) in cases {
            let action = format!("\"malformed_write\"\ntarget = \"B\"\nfault = \"{fault}\"");
            let (met, verdict) = watch(&with_step(&inventory(), 1_100, &action));
            assert!(met.is_some(), "{fault}: {}", verdict.explanation);
            assert!(
                verdict
                    .explanation
                    .contains(&format!("B's write as malformed ({words})")),
                "{fault}: {}",
                verdict.explanation
            );
        }
    }

    /// The look-alike: A frozen past its lease wakes and writes with its old token. The store says
    /// no, but to a well-formed write, for a stale token.
    #[test]
    fn a_stale_write_refused_by_the_token_check_does_not_tick_it() {
        let text = with_step(
            &inventory(),
            1_300,
            "\"pause\"\ntarget = \"A\"\nduration_ms = 2500",
        );
        let (met, verdict) = watch(&text);
        assert_eq!(met, None, "{}", verdict.explanation);
        assert!(
            verdict.explanation.starts_with("the store refused ")
                && verdict
                    .explanation
                    .contains("for a stale token: well formed, only old"),
            "{}",
            verdict.explanation
        );
    }

    /// The other look-alike: well-formed requests sent to servers that do not lead come back
    /// refused as "not leader", which is a redirect, not a malformed request.
    #[test]
    fn requests_refused_as_not_leader_do_not_tick_it() {
        use super::super::CheckpointEvaluator;
        use crate::base::time::SimTime;
        use crate::contract::protocol::{ClientError, ClientOutcome};
        use crate::engine::trace::TraceEvent;
        use crate::tooling::runner::ScenarioRun;
        use crate::tooling::scenario::parse_scenario;
        let mut text = inventory();
        for server in ["n1", "n2", "n3", "store"] {
            let action = format!("\"request\"\ncount = 3\ntarget = \"{server}\"");
            text = with_step(&text, 1_100, &action);
        }
        let scenario = parse_scenario(&text, "test.toml").expect("parses");
        let mut run = ScenarioRun::new(scenario).expect("builds");
        run.advance_to(SimTime::from_ms(1_000));
        let mut evaluator =
            CheckpointEvaluator::begin(Checkpoint::MalformedRequestRejected, run.world());
        run.advance_to(SimTime::from_ms(3_000));
        let verdict = evaluator.check(run.world());
        assert!(!verdict.satisfied, "{}", verdict.explanation);
        assert_eq!(
            verdict.explanation,
            "the store has refused no malformed write yet"
        );
        let not_leader = run
            .world()
            .trace()
            .records()
            .filter(|record| {
                matches!(
                    record.event,
                    TraceEvent::ClientOutcome {
                        outcome: ClientOutcome::Rejected(ClientError::NotLeader { .. }),
                        ..
                    }
                )
            })
            .count();
        assert!(
            not_leader >= 3,
            "{not_leader} requests refused as not leader"
        );
    }

    #[test]
    fn an_untouched_run_and_a_malformed_write_from_a_paused_worker_do_not_tick_it() {
        let (met, verdict) = watch(&inventory());
        assert_eq!(met, None, "{}", verdict.explanation);
        let paused = with_step(&inventory(), 1_050, "\"pause\"\ntarget = \"A\"");
        let text = with_step(&paused, 1_100, "\"malformed_write\"\ntarget = \"A\"");
        let (met, verdict) = watch(&text);
        assert_eq!(met, None, "{}", verdict.explanation);
    }
}
