//! The checkpoint about a stale *write* refused by the fencing store, and the trap beside it.
//!
//! The fencing lesson asks the learner to freeze a holder while it is modifying: it has read the
//! count and is about to write, so its write leaves late, with an old token, and the store refuses it.
//! Frozen at another moment, the same holder never sends a late write at all. Paused while writing,
//! its write had left before the freeze and landed in time; paused while releasing, its job was done.
//! Either way the step cannot tick, so the checkpoint remembers the phase each paused worker froze in
//! (`paused_phase`) and its verdict names that phase and what to do instead, rather than waiting in
//! silence.

use super::coordination::store;
use super::paused_phase::PausedPhases;
use super::{counted, Verdict};
use crate::engine::world::World;

/// What the stale-write checkpoint remembers between checks.
#[derive(Clone, Debug, Default)]
pub(super) struct StaleWriteWatch {
    /// Accesses, and of them writes, the store had refused when the step began.
    rejected_at_start: (u64, u64),
    /// Where each worker paused since the step began froze.
    paused: PausedPhases,
}

impl StaleWriteWatch {
    pub(super) fn begin(world: &World) -> StaleWriteWatch {
        StaleWriteWatch {
            rejected_at_start: store(world).map_or((0, 0), |resource| {
                (resource.rejected, resource.rejected_writes)
            }),
            paused: PausedPhases::begin(world),
        }
    }

    pub(super) fn check(&mut self, world: &World) -> Verdict {
        self.paused.note(world);
        let Some(resource) = store(world) else {
            return Verdict::not_yet("this world has no store".into());
        };
        let (rejected_before, writes_before) = self.rejected_at_start;
        let writes = resource.rejected_writes.saturating_sub(writes_before);
        let reads = resource
            .rejected
            .saturating_sub(rejected_before)
            .saturating_sub(writes);
        if writes > 0 {
            return Verdict::yes(format!(
                "the store refused {} carrying a stale token (highest token seen: {})",
                counted(writes, "write", "writes"),
                resource.highest_seen
            ));
        }
        if !resource.fencing {
            return Verdict::not_yet("the store does not check tokens (fencing is off)".into());
        }
        if reads > 0 {
            // The paused holder had not read yet: its late access was a read, not the write.
            return Verdict::not_yet(format!(
                "the store refused {} but no write yet: pause a holder while it is modifying",
                counted(reads, "stale read", "stale reads")
            ));
        }
        if let Some(hint) = self.paused.hint(world) {
            return Verdict::not_yet(hint);
        }
        Verdict::not_yet("the store has refused no stale write yet".into())
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::{
        explanation_when_met, explanation_when_never_met, watch_until_met,
    };
    use crate::tooling::lesson::Checkpoint;

    const FENCING: &str = include_str!("../../../../../lessons/scenarios/fencing-calm.toml");

    /// Pauses A at `at_ms` for 2.5 s, longer than its 1 s lease, so B takes the lock meanwhile.
    fn pause_a_at(at_ms: u64) -> String {
        format!(
            "{FENCING}\n[[step]]\nat_ms = {at_ms}\ndo = \"pause\"\ntarget = \"A\"\nduration_ms = 2500\n"
        )
        .replace("duration_ms = 120000", "duration_ms = 8000")
    }

    /// At 1 300 ms A holds the lock and is modifying (see the scenario and lesson 6 step 1).
    #[test]
    fn a_holder_paused_while_modifying_has_its_late_write_refused() {
        let explanation = explanation_when_met(
            &pause_a_at(1_300),
            Checkpoint::StaleWriteRefused,
            1_000,
            6_000,
        );
        assert!(explanation.contains("refused 1 write"), "{}", explanation);
    }

    /// A writes from 1 641 ms to 1 667 ms (times fixed by the seed). Frozen then, its write lands in
    /// time but the answer finds it paused; when it wakes its timeout has run out, and the retry of
    /// that write, under the old token, is the stale write the store refuses.
    #[test]
    fn a_holder_paused_while_writing_has_its_retried_write_refused() {
        let (met, verdict) = watch_until_met(
            &pause_a_at(1_650),
            Checkpoint::StaleWriteRefused,
            1_000,
            6_000,
        );
        assert!(met.is_some(), "{}", verdict.explanation);
    }

    /// A releases from 1 667 ms to 1 704 ms and is idle until 1 820 ms: frozen then, it sends no
    /// late write, and the verdict says why and what to do instead.
    #[test]
    fn a_holder_paused_while_releasing_cannot_tick_and_is_told_why() {
        let cases = [
            (1_670, "while releasing"),
            (1_690, "while releasing"),
            (1_750, "between jobs"),
        ];
        for (at_ms, phase) in cases {
            let explanation = explanation_when_never_met(
                &pause_a_at(at_ms),
                Checkpoint::StaleWriteRefused,
                1_000,
                6_000,
            );
            assert!(
                explanation.starts_with(&format!("A was paused {phase}")),
                "{}",
                explanation
            );
            assert!(
                explanation.contains("again while its lane says modifying"),
                "{}",
                explanation
            );
        }
    }

    #[test]
    fn an_untouched_run_refuses_no_write() {
        let text = FENCING.replace("duration_ms = 120000", "duration_ms = 8000");
        explanation_when_never_met(&text, Checkpoint::StaleWriteRefused, 1_000, 6_000);
    }
}
