//! Checkpoints about work that went missing and state that fell behind: a minute the invoice scheduler
//! never invoiced, and a server that missed committed entries and then caught up.
//!
//! Both are judged from the step's start. A minute counts once it has *ended* with no accepted invoice,
//! as the run report's `missed_minutes` counts it, but only minutes still under way when the step began:
//! gaps left by an earlier step must not tick this one. A server "caught up" only after it was first seen
//! *behind*: down, paused or cut off from a majority while the others committed entries it lacks.
//! Without that first half, every calm follower would count as caught up at every moment, and the step
//! would tick for nothing.

use super::{servers, Verdict};
use crate::base::ids::NodeId;
use crate::base::time::SimTime;
use crate::contract::action::NodeTarget;
use crate::contract::protocol::Protocol;
use crate::engine::world::{NodeStatus, World};
use crate::tooling::lesson::Checkpoint;
use std::collections::BTreeSet;

/// What the two checkpoints remember from the moment their step began.
#[derive(Clone, Debug)]
pub(super) struct ProgressWatch {
    began: SimTime,
    /// The watched server has been seen away (not up, or cut off) while lacking committed entries.
    seen_behind: bool,
}

impl ProgressWatch {
    /// Starts watching; for `node_caught_up` it looks at the node at once, because the step may begin
    /// with it already behind and a scripted run first checks only after its actions.
    pub(super) fn begin(
        checkpoint: &Checkpoint,
        world: &World,
        start_leader: Option<(NodeId, crate::base::units::Term)>,
    ) -> ProgressWatch {
        let mut watch = ProgressWatch {
            began: world.now(),
            seen_behind: false,
        };
        let watched = match checkpoint {
            Checkpoint::NodeCaughtUp(NodeTarget::Node(node)) => Some(*node),
            Checkpoint::NodeCaughtUp(NodeTarget::Leader) => start_leader.map(|(node, _)| node),
            _ => None,
        };
        if let Some(node) = watched {
            watch.caught_up(world, node);
        }
        watch
    }

    /// Met when a scheduler minute that was under way when the step began, or started later, has ended
    /// with no accepted invoice.
    pub(super) fn missed_invoice(&self, world: &World) -> Verdict {
        let Some(minute_ms) = world
            .config()
            .protocol
            .invoicing()
            .map(|billing| billing.minute_ms)
        else {
            return Verdict::not_yet("this world has no invoice scheduler".into());
        };
        // Minute m ends at (m + 1) * minute_ms; those ending after the step began are watched.
        let first_watched = (self.began.as_ms() / minute_ms).max(1);
        let first_unfinished = world.now().as_ms() / minute_ms;
        if first_unfinished <= first_watched {
            return Verdict::not_yet("no minute has ended since this step began".into());
        }
        let invoiced: BTreeSet<u64> = world
            .checkers()
            .locks()
            .invoices
            .iter()
            .filter(|record| !record.refused)
            .map(|record| record.minute)
            .collect();
        let missed: Vec<String> = (first_watched..first_unfinished)
            .filter(|minute| !invoiced.contains(minute))
            .map(|minute| minute.to_string())
            .collect();
        match missed.as_slice() {
            [] => Verdict::not_yet(format!(
                "every minute since this step began has been invoiced (up to minute {})",
                first_unfinished - 1
            )),
            [one] => Verdict::yes(format!("minute {one} went by without an invoice")),
            many => Verdict::yes(format!(
                "minutes {} went by without an invoice",
                many.join(", ")
            )),
        }
    }

    /// Met when `node` is up, can reach a majority of the servers, and holds every committed entry, after
    /// having been seen away while behind.
    pub(super) fn caught_up(&mut self, world: &World, node: NodeId) -> Verdict {
        let label = world.node_label(node);
        let status = world.nodes()[node.index()].status;
        let own = world.nodes()[node.index()].actor.summary();
        let highest = servers(world)
            .map(|server| world.nodes()[server.index()].actor.summary().commit_index)
            .max()
            .unwrap_or_default();
        // Cut off means unable to reach a majority both ways: a link to some other absent node being
        // down does not keep this one from the leader's entries.
        let network = world.network();
        let reachable = servers(world)
            .filter(|other| {
                *other == node || (network.link_up(node, *other) && network.link_up(*other, node))
            })
            .count();
        let cut_off = reachable <= super::server_count(world) / 2;
        let away = status != NodeStatus::Up || cut_off;
        if away && own.commit_index < highest {
            self.seen_behind = true;
        }
        if !self.seen_behind {
            return Verdict::not_yet(format!(
                "{label} has missed nothing since this step began: crash, pause or isolate it, \
                 then commit writes without it"
            ));
        }
        if status != NodeStatus::Up {
            return Verdict::not_yet(format!(
                "{label} is {} while the others have committed {highest} entries",
                status.as_str()
            ));
        }
        if cut_off {
            return Verdict::not_yet(format!(
                "{label} is cut off from a majority at commit index {} while the others are at {highest}",
                own.commit_index
            ));
        }
        if own.commit_index >= highest && own.log_len >= highest.0 {
            Verdict::yes(format!(
                "{label} is back in step: it holds all {highest} committed entries"
            ))
        } else {
            Verdict::not_yet(format!(
                "{label} is catching up: commit index {} of {highest}",
                own.commit_index
            ))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::watch_until_met;
    use crate::base::ids::NodeId;
    use crate::contract::action::NodeTarget;
    use crate::tooling::lesson::Checkpoint;

    /// When `checkpoint` was met (or `None`) and the last explanation.
    fn watch(
        text: &str,
        checkpoint: Checkpoint,
        begin_ms: u64,
        until_ms: u64,
    ) -> (Option<u64>, String) {
        let (met_at, verdict) = watch_until_met(text, checkpoint, begin_ms, until_ms);
        (met_at, verdict.explanation)
    }

    /// Two scheduler instances behind one lease; B wins it first with this seed. `STEPS` is replaced.
    const SCHEDULER: &str = r#"
title = "scheduler"
protocol = "scheduler"
nodes = 3
seed = 1
duration_ms = 9000
[locks]
workers = 2
lease_ttl_ms = 1000
renew_ms = 300
work_ms = 800
[scheduler]
mode = "leader-election"
minute_ms = 1000
STEPS
"#;

    const CRASH_B: &str = "[[step]]\nat_ms = 3300\ndo = \"crash\"\ntarget = \"B\"\n";

    #[test]
    fn a_crashed_leader_leaves_a_minute_uninvoiced() {
        let text = SCHEDULER.replace("STEPS", CRASH_B);
        let (met_at, why) = watch(&text, Checkpoint::MissedInvoice, 2_500, 8_000);
        // B dies while generating minute 3; A only gets the lease after it expires, past 4000 ms.
        assert_eq!(met_at, Some(4_000), "{why}");
        assert_eq!(why, "minute 3 went by without an invoice");
    }

    #[test]
    fn a_calm_scheduler_misses_no_minute() {
        let text = SCHEDULER.replace("STEPS", "");
        let (met_at, why) = watch(&text, Checkpoint::MissedInvoice, 2_500, 8_000);
        assert_eq!(met_at, None, "{why}");
        assert_eq!(
            why,
            "every minute since this step began has been invoiced (up to minute 7)"
        );
    }

    #[test]
    fn gaps_from_before_the_step_do_not_count() {
        // The crash's gap (minutes 3 and 4) is over by 6000 ms; A invoices every minute after that.
        let text = SCHEDULER.replace("STEPS", CRASH_B);
        let (met_at, why) = watch(&text, Checkpoint::MissedInvoice, 6_000, 9_000);
        assert_eq!(met_at, None, "{why}");
    }

    #[test]
    fn missed_invoice_needs_a_scheduler() {
        let raft = "title = \"t\"\nprotocol = \"raft\"\nnodes = 3\nduration_ms = 2000\n";
        let (met_at, why) = watch(raft, Checkpoint::MissedInvoice, 0, 2_000);
        assert_eq!(met_at, None);
        assert_eq!(why, "this world has no invoice scheduler");
    }

    /// Five Raft nodes (n4 leads with this seed) with PreVote, writes at 1500 ms and 3500 ms; `AWAY` (at
    /// 3000 ms) and `BACK` (after 3500 ms) are replaced.
    const CLUSTER: &str = r#"
title = "catch up"
protocol = "raft"
nodes = 5
seed = 1
duration_ms = 9000
[timing]
pre_vote = true
[[step]]
at_ms = 1500
do = "request"
count = 3
AWAY
[[step]]
at_ms = 3500
do = "request"
count = 3
BACK
"#;

    fn n5() -> Checkpoint {
        Checkpoint::NodeCaughtUp(NodeTarget::Node(NodeId(4)))
    }

    #[test]
    fn a_restarted_follower_catches_up_after_missing_writes() {
        let text = CLUSTER
            .replace(
                "AWAY",
                "[[step]]\nat_ms = 3000\ndo = \"crash\"\ntarget = \"n5\"",
            )
            .replace(
                "BACK",
                "[[step]]\nat_ms = 5000\ndo = \"restart\"\ntarget = \"n5\"",
            );
        let (met_at, why) = watch(&text, n5(), 2_500, 9_000);
        let met_at = met_at.unwrap_or_else(|| panic!("{why}"));
        assert!((5_000..6_000).contains(&met_at), "{met_at}: {why}");
        assert_eq!(why, "n5 is back in step: it holds all 7 committed entries");
    }

    #[test]
    fn an_isolated_follower_is_not_caught_up_until_healed() {
        let text = CLUSTER
            .replace(
                "AWAY",
                "[[step]]\nat_ms = 3000\ndo = \"isolate\"\ntarget = \"n5\"",
            )
            .replace("BACK", "[[step]]\nat_ms = 6000\ndo = \"heal\"");
        let (met_at, why) = watch(&text, n5(), 2_500, 5_900);
        assert_eq!(met_at, None);
        assert_eq!(
            why,
            "n5 is cut off from a majority at commit index 4 while the others are at 7"
        );
        let (met_at, why) = watch(&text, n5(), 2_500, 9_000);
        assert!(met_at.is_some_and(|ms| ms > 6_000), "{why}");
    }

    #[test]
    fn a_restarted_follower_counts_while_another_stays_isolated() {
        // n3 stays cut off throughout; n5 can still reach the majority, so it is back in step.
        let text = CLUSTER
            .replace(
                "AWAY",
                "[[step]]\nat_ms = 3000\ndo = \"crash\"\ntarget = \"n5\"\n\
                 [[step]]\nat_ms = 3000\ndo = \"isolate\"\ntarget = \"n3\"",
            )
            .replace(
                "BACK",
                "[[step]]\nat_ms = 5000\ndo = \"restart\"\ntarget = \"n5\"",
            );
        let (met_at, why) = watch(&text, n5(), 2_500, 9_000);
        assert!(met_at.is_some_and(|ms| ms > 5_000), "{why}");
        let n3 = Checkpoint::NodeCaughtUp(NodeTarget::Node(NodeId(2)));
        let (met_at, why) = watch(&text, n3, 2_500, 9_000);
        assert_eq!(met_at, None);
        assert!(why.starts_with("n3 is cut off from a majority"), "{why}");
    }

    #[test]
    fn a_follower_that_never_fell_behind_does_not_count() {
        let text = CLUSTER.replace("AWAY", "").replace("BACK", "");
        let (met_at, why) = watch(&text, n5(), 1_000, 9_000);
        assert_eq!(met_at, None);
        assert!(why.starts_with("n5 has missed nothing"), "{why}");
    }
}
