//! The checkpoint about a `SET NX` whose answer went missing and whose retry found the key already
//! holding the worker's own value.
//!
//! The worker counts such finds itself (`Worker::found_already_held`), so the checkpoint needs only
//! the counts when the step began: a find before the step never ticks it. When nothing is found yet,
//! the verdict says which of the ways to miss it the run is on: every answer arrived, the workers of
//! this run give up at once instead of asking again, or a retry is still under way.

use super::holders::workers;
use super::Verdict;
use crate::base::ids::NodeId;
use crate::contract::entry::hold_number;
use crate::engine::world::World;
use std::collections::BTreeMap;

/// Per worker, its finds and its timed-out operations when the step began.
#[derive(Clone, Debug, Default)]
pub(super) struct SetNxWatch {
    at_start: BTreeMap<NodeId, (u64, u64)>,
}

impl SetNxWatch {
    pub(super) fn begin(world: &World) -> SetNxWatch {
        SetNxWatch {
            at_start: workers(world)
                .map(|(node, worker)| (node, (worker.found_already_held, worker.unknown_outcomes)))
                .collect(),
        }
    }

    /// Met once a worker's retry found its own value in the key since the step began.
    pub(super) fn found_already_held(&self, world: &World) -> Verdict {
        let baseline = |node: NodeId| self.at_start.get(&node).copied().unwrap_or((0, 0));
        let found =
            workers(world).find(|(node, worker)| worker.found_already_held > baseline(*node).0);
        if let Some((node, worker)) = found {
            let held = worker
                .belief
                .map(|belief| format!(" ({})", hold_number(false, belief.lease)))
                .unwrap_or_default();
            return Verdict::yes(format!(
                "{label}'s SET NX reply was lost; {label} asked again and found the key already \
                 holds its own value{held}: it holds the lock",
                label = world.node_label(node)
            ));
        }
        let retries = world
            .config()
            .protocol
            .lock_options()
            .map_or(0, |options| options.set_nx_retries);
        let unanswered =
            workers(world).find(|(node, worker)| worker.unknown_outcomes > baseline(*node).1);
        match unanswered {
            None => Verdict::not_yet(
                "every SET NX so far was answered in time: drop an OK on its way from the server \
                 to a worker"
                    .into(),
            ),
            Some((node, _)) if retries == 0 => Verdict::not_yet(format!(
                "{}'s SET NX went unanswered and it gave the attempt up at once: the workers of \
                 this run never ask again (set_nx_retries = 0)",
                world.node_label(node)
            )),
            Some((node, _)) => Verdict::not_yet(format!(
                "{}'s SET NX went unanswered; it asks again, up to {retries} times, and its answer \
                 must get through: heal any cut to it",
                world.node_label(node)
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::{explanation_when_met, explanation_when_never_met};
    use crate::tooling::lesson::Checkpoint;

    const RETRY: &str = include_str!("../../../../../lessons/scenarios/redis-retry-calm.toml");
    const REDIS: &str = include_str!("../../../../../lessons/scenarios/redis-lock-calm.toml");

    /// A cut from n1 to B from 1 000 ms to 1 250 ms: B's OK at about 1 013 ms is lost, its retry
    /// after the 300 ms timeout gets through.
    fn cut_reply_to_b(text: &str) -> String {
        format!(
            "{text}\n[[step]]\nat_ms = 1000\ndo = \"cut\"\nfrom = \"n1\"\nto = \"B\"\n\
             [[step]]\nat_ms = 1250\ndo = \"heal\"\n"
        )
    }

    #[test]
    fn a_retry_finds_the_key_already_holding_its_own_value() {
        let explanation = explanation_when_met(
            &cut_reply_to_b(RETRY),
            Checkpoint::LockFoundAlreadyHeld,
            1_000,
            3_000,
        );
        assert!(
            explanation.starts_with(
                "B's SET NX reply was lost; B asked again and found the key already holds its own \
                 value (value …"
            ),
            "{}",
            explanation
        );
    }

    #[test]
    fn answered_requests_find_nothing() {
        let explanation =
            explanation_when_never_met(RETRY, Checkpoint::LockFoundAlreadyHeld, 1_000, 6_000);
        assert!(explanation.contains("answered in time"));
    }

    #[test]
    fn workers_that_never_ask_again_find_nothing_and_the_verdict_says_why() {
        let explanation = explanation_when_never_met(
            &cut_reply_to_b(REDIS),
            Checkpoint::LockFoundAlreadyHeld,
            1_000,
            3_000,
        );
        assert!(explanation.contains("never ask again"), "{}", explanation);
    }

    /// Cut for good: every retry's answer is lost too, and B gives up, holding nothing it knows of.
    #[test]
    fn a_retry_whose_answer_is_lost_too_finds_nothing() {
        let text =
            format!("{RETRY}\n[[step]]\nat_ms = 1000\ndo = \"cut\"\nfrom = \"n1\"\nto = \"B\"\n");
        let explanation =
            explanation_when_never_met(&text, Checkpoint::LockFoundAlreadyHeld, 1_000, 3_000);
        assert!(explanation.contains("asks again"), "{}", explanation);
    }
}
