//! Checkpoints about what the clients saw, judged by the linearizability checker as the history panel
//! judges it (`World::linearizability` with the app's budget, so a lesson never ticks on a verdict the
//! panel beside it would not show).
//!
//! - `history_refused`: the history fits no order, and the operation no order can place was invoked
//!   since the step began, so an older refusal never ticks a later step.
//! - `unknown_outcome_linearizable`: an operation invoked since the step began ended unknown (its
//!   client stopped waiting), and the history, unknown operations and all, still fits one order. The
//!   lesson is that "unknown" is no error: the checker may place such a write or leave it out.
//!
//! A check costs a search, so it is redone only when the client log changed (its length or the newest
//! positions in it); between changes the last verdict stands.

use super::Verdict;
use crate::base::time::SimTime;
use crate::contract::client_history::{Op, OpEnd, Unknown};
use crate::engine::client_log::ClientLog;
use crate::engine::linearizable::models::HistoryVerdict;
use crate::engine::linearizable::Budget;
use crate::engine::world::World;
use crate::views::history_summary::summarize_within;

/// What identifies the client log's content cheaply.
type LogKey = (usize, u64, u64);

/// The step's start and the last verdict, with the log it was made on.
#[derive(Clone, Debug)]
pub(super) struct HistoryWatch {
    began: SimTime,
    last: Option<(LogKey, Verdict)>,
}

impl HistoryWatch {
    pub(super) fn begin(world: &World) -> HistoryWatch {
        HistoryWatch {
            began: world.now(),
            last: None,
        }
    }

    fn cached(&mut self, world: &World, judge: impl FnOnce(&[Op], u64) -> Verdict) -> Verdict {
        let ops = world.client_log().ops();
        let key = ClientLog::content_key(&ops);
        if let Some((seen, verdict)) = &self.last {
            if *seen == key {
                return verdict.clone();
            }
        }
        let verdict = judge(&ops, self.began.as_micros());
        self.last = Some((key, verdict.clone()));
        verdict
    }

    /// Met when the history is refused at an op invoked since the step began.
    pub(super) fn refused(&mut self, world: &World) -> Verdict {
        self.cached(world, |ops, began_us| {
            let Ok(check) = world.linearizability(Budget::APP) else {
                return Verdict::not_yet("this world's client history cannot be checked".into());
            };
            let summary = summarize_within(world, &check, Budget::APP);
            let stuck = summary.refused.as_ref().map(|refusal| refusal.stuck.index);
            match stuck {
                Some(index) if ops[index as usize].invoked.at_us >= began_us => {
                    Verdict::yes(format!("what the clients saw: {}", summary.words))
                }
                Some(_) => Verdict::not_yet(
                    "the history was already refused before this step; a new refusal must come from \
                     an operation sent since"
                        .into(),
                ),
                None => Verdict::not_yet(format!(
                    "what the clients saw still fits one order ({})",
                    summary.verdict
                )),
            }
        })
    }

    /// Met when an op invoked since the step began ended unknown and the history is linearizable.
    pub(super) fn unknown_yet_linearizable(&mut self, world: &World) -> Verdict {
        self.cached(world, |ops, began_us| {
            let unknown = ops
                .iter()
                .filter(|op| op.invoked.at_us >= began_us)
                .filter(|op| matches!(op.end, OpEnd::Unknown(reason) if reason != Unknown::NotYet))
                .count();
            if unknown == 0 {
                return Verdict::not_yet(
                    "no request sent since this step began has come back unknown yet".into(),
                );
            }
            let Ok(check) = world.linearizability(Budget::APP) else {
                return Verdict::not_yet("this world's client history cannot be checked".into());
            };
            let all_unknown = ops
                .iter()
                .filter(|op| matches!(op.end, OpEnd::Unknown(_)))
                .count();
            match check.verdict() {
                HistoryVerdict::Linearizable => Verdict::yes(format!(
                    "{} since this step began came back unknown, and the history is still \
                     linearizable: its {} operations, {all_unknown} of them unknown, fit one order",
                    super::counted(unknown as u64, "request", "requests"),
                    ops.len()
                )),
                HistoryVerdict::Refused { .. } => Verdict::not_yet(
                    "the history is not linearizable, so this is not the harmless unknown the step \
                     asks for"
                        .into(),
                ),
                _ => Verdict::not_yet("the checker has not reached a verdict on the history".into()),
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::watch_until_met;
    use crate::tooling::lesson::Checkpoint;
    use crate::tooling::scenario::example_text;

    fn gallery_stale_read() -> String {
        example_text("stale-lease-read.toml")
            .expect("the gallery example")
            .to_string()
    }

    #[test]
    fn a_stale_lease_read_ticks_history_refused_only_when_sent_in_the_step() {
        let text = gallery_stale_read();
        let (met_ms, verdict) = watch_until_met(&text, Checkpoint::HistoryRefused, 1_000, 3_000);
        assert!(met_ms.is_some_and(|ms| ms >= 1_800), "{verdict:?}");
        assert!(
            verdict.explanation.contains("began after"),
            "{}",
            verdict.explanation
        );
        // Begun after the read was sent, the old refusal does not count.
        let (met_ms, verdict) = watch_until_met(&text, Checkpoint::HistoryRefused, 1_900, 3_500);
        assert_eq!(met_ms, None, "{verdict:?}");
        assert!(
            verdict.explanation.contains("already refused"),
            "{}",
            verdict.explanation
        );
        // Without the read there is nothing to refuse.
        let (met_ms, _) = watch_until_met(&text, Checkpoint::HistoryRefused, 1_000, 1_790);
        assert_eq!(met_ms, None);
    }

    #[test]
    fn an_unknown_write_is_no_refusal_but_a_stale_read_is() {
        let stranded = r#"
title = "a write to a cut-off leader"
protocol = "raft"
nodes = 5
seed = 2
duration_ms = 8000
[timing]
check_quorum = true
[[step]]
at_ms = 1000
do = "request"
count = 2
kind = "put"
[[step]]
at_ms = 1500
do = "isolate"
target = "leader"
[[step]]
at_ms = 1510
do = "request"
count = 1
kind = "put"
"#;
        let (met_ms, verdict) = watch_until_met(
            stranded,
            Checkpoint::UnknownOutcomeLinearizable,
            1_200,
            7_000,
        );
        assert!(met_ms.is_some(), "{verdict:?}");
        assert!(
            verdict.explanation.contains("still linearizable"),
            "{}",
            verdict.explanation
        );
        let (met_ms, verdict) = watch_until_met(
            stranded,
            Checkpoint::UnknownOutcomeLinearizable,
            1_200,
            1_505,
        );
        assert_eq!(met_ms, None, "nothing unknown yet: {verdict:?}");
    }
}
