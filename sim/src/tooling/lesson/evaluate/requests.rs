//! Checkpoints about what a caller of the cluster sees: a write acknowledged only after a long wait
//! (a slow link on the way to a majority), and writes that come back refused or with an unknown
//! outcome while no majority answers.
//!
//! Both look only at requests that finished after the step began, so the requests of an earlier step
//! never tick a later one. A refused write was certainly not applied; an unknown one (the client's
//! timeout ran out first) may still commit later, and the verdict keeps the two apart because that
//! difference is the lesson.

use super::{counted, Verdict};
use crate::base::time::SimTime;
use crate::contract::protocol::{ClientCommand, ClientOutcome};
use crate::engine::world::World;

/// Request outcomes counted when the step began.
#[derive(Clone, Debug)]
pub(super) struct RequestWatch {
    began: SimTime,
    refused_at_start: u64,
    unknown_at_start: u64,
    /// The slowest acknowledged write seen since the step began, in ms.
    slowest_ack_ms: u64,
}

impl RequestWatch {
    pub(super) fn begin(world: &World) -> RequestWatch {
        let counts = &world.clients().counts;
        RequestWatch {
            began: world.now(),
            refused_at_start: counts.failed,
            unknown_at_start: counts.unknown,
            slowest_ack_ms: 0,
        }
    }

    /// Met when a write that finished since the step began took `wanted_ms` or more from its
    /// submission to its acknowledgement.
    pub(super) fn write_acknowledged_after(&mut self, world: &World, wanted_ms: u64) -> Verdict {
        let began_us = self.began.as_micros();
        let newest = world
            .clients()
            .recent
            .iter()
            .filter(|record| matches!(record.command, Some(ClientCommand::Put { .. })))
            .filter(|record| matches!(record.outcome, ClientOutcome::Committed { .. }))
            .filter_map(|record| {
                let finished_us = record.finished_at_us?;
                (finished_us >= began_us)
                    .then(|| finished_us.saturating_sub(record.submitted_at_us) / 1_000)
            })
            .max();
        self.slowest_ack_ms = self.slowest_ack_ms.max(newest.unwrap_or(0));
        let slowest = self.slowest_ack_ms;
        if slowest >= wanted_ms {
            Verdict::yes(format!(
                "a write was acknowledged {slowest} ms after it was sent (a calm cluster answers in \
                 a few tens of ms)"
            ))
        } else if newest.is_none() && slowest == 0 {
            Verdict::not_yet("no write has been acknowledged since this step began".into())
        } else {
            Verdict::not_yet(format!(
                "the slowest write since this step began took {slowest} ms (waiting for one of \
                 {wanted_ms} ms or more)"
            ))
        }
    }

    /// Met when a request finished since the step began came back refused or unknown; the verdict
    /// says how many of each.
    pub(super) fn refused_or_unknown(&self, world: &World) -> Verdict {
        let counts = &world.clients().counts;
        let refused = counts.failed.saturating_sub(self.refused_at_start);
        let unknown = counts.unknown.saturating_sub(self.unknown_at_start);
        let refused_text = format!(
            "{} refused (certainly not applied)",
            counted(refused, "request came back", "requests came back")
        );
        let unknown_text = format!(
            "{} unknown (the client stopped waiting; it may still commit)",
            counted(unknown, "request came back", "requests came back")
        );
        match (refused, unknown) {
            (0, 0) => Verdict::not_yet(
                "every request since this step began was answered, or is still waiting".into(),
            ),
            (_, 0) => Verdict::yes(refused_text),
            (0, _) => Verdict::yes(unknown_text),
            _ => Verdict::yes(format!("{refused_text}; {unknown_text}")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::{explanation_when_met, explanation_when_never_met};
    use crate::tooling::lesson::Checkpoint;

    /// Five Raft nodes; the leader's links (n1 leads with this seed) get a slow delay, then a write.
    const SLOW: &str = r#"
title = "slow leader links"
protocol = "raft"
nodes = 5
seed = 2
duration_ms = 6000
[timing]
check_quorum = true
STEPS
[[step]]
at_ms = 2000
do = "request"
count = 1
"#;

    fn slow_links(delay_ms: u64) -> String {
        let links: String = ["n2", "n3", "n4", "n5"]
            .iter()
            .map(|other| {
                format!(
                    "[[step]]\nat_ms = 1500\ndo = \"link\"\nbetween = [\"n1\", \"{other}\"]\n\
                     delay_ms = [{delay_ms}, {delay_ms}]\n"
                )
            })
            .collect();
        SLOW.replace("STEPS", &links)
    }

    #[test]
    fn a_write_over_slow_links_is_acknowledged_late() {
        let explanation = explanation_when_met(
            &slow_links(60),
            Checkpoint::WriteAcknowledgedAfterMs(100),
            1_000,
            5_000,
        );
        assert!(explanation.contains("acknowledged"));
    }

    #[test]
    fn a_write_over_ordinary_links_is_acknowledged_quickly() {
        let explanation = explanation_when_never_met(
            &slow_links(10),
            Checkpoint::WriteAcknowledgedAfterMs(100),
            1_000,
            5_000,
        );
        assert!(explanation.contains("the slowest write"));
    }

    const NO_MAJORITY: &str = r#"
title = "three of five crashed"
protocol = "raft"
nodes = 5
seed = 2
duration_ms = 6000
[timing]
check_quorum = true
CRASHES
[[step]]
at_ms = 1600
do = "request"
count = 2
"#;

    #[test]
    fn writes_without_a_majority_come_back_refused() {
        let crashes: String = ["n3", "n4", "n5"]
            .iter()
            .map(|node| format!("[[step]]\nat_ms = 1100\ndo = \"crash\"\ntarget = \"{node}\"\n"))
            .collect();
        let text = NO_MAJORITY.replace("CRASHES", &crashes);
        let explanation =
            explanation_when_met(&text, Checkpoint::WriteRefusedOrUnknown, 1_000, 5_000);
        assert!(
            explanation.contains("refused") || explanation.contains("unknown"),
            "{}",
            explanation
        );
    }

    #[test]
    fn writes_with_a_majority_are_answered() {
        let text = NO_MAJORITY.replace("CRASHES", "");
        explanation_when_never_met(&text, Checkpoint::WriteRefusedOrUnknown, 1_000, 5_000);
    }
}
