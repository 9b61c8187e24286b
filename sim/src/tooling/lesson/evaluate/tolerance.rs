//! A cluster with no fault tolerance: a single server down and no majority left. In a cluster of one
//! that is the only server, and the moment it goes down nothing can be elected or committed. The step
//! is met once writes sent since the step began were committed, a single failure then left the cluster
//! without a majority for longer than any election timeout, and other writes sent since the step began
//! got nowhere.
//!
//! Writes are read from the clients' records rather than sampled at each check: a scripted run applies
//! its writes and its crash between two checks. In a larger cluster a single failure leaves a majority,
//! and the verdict says how many failures the cluster rides out instead.

use super::{counted, Verdict};
use crate::base::ids::NodeId;
use crate::base::time::SimTime;
use crate::contract::protocol::{ClientCommand, ClientOutcome};
use crate::engine::world::{NodeStatus, World};

/// What the checkpoint remembers between checks.
#[derive(Clone, Debug)]
pub(super) struct ToleranceWatch {
    began: SimTime,
    /// When a single failure was first seen leaving no majority (cleared when a majority is back).
    stopped_since: Option<SimTime>,
}

impl ToleranceWatch {
    pub(super) fn begin(world: &World) -> ToleranceWatch {
        ToleranceWatch {
            began: world.now(),
            stopped_since: None,
        }
    }

    pub(super) fn no_fault_tolerance(&mut self, world: &World) -> Verdict {
        let count = super::server_count(world);
        let majority = count / 2 + 1;
        let down: Vec<NodeId> = super::servers(world)
            .filter(|node| world.nodes()[node.index()].status != NodeStatus::Up)
            .collect();
        let up = count - down.len();
        if up >= majority {
            self.stopped_since = None;
            return still_has_majority(world, &down, up, count);
        }
        if down.len() > 1 {
            return Verdict::not_yet(format!(
                "{} of {count} servers are down: more than one failure; this step wants a single \
                 failure to stop the cluster",
                down.len()
            ));
        }
        let (committed, stranded) = writes_since(world, self.began);
        let label = world.node_label(down[0]);
        if committed == 0 {
            return Verdict::not_yet(format!(
                "{label} is down, but no write was committed since this step began: bring it back, \
                 send a few writes, then take it away again"
            ));
        }
        let since = *self.stopped_since.get_or_insert(world.now());
        let down_ms = world.now().saturating_since(since) / 1_000;
        let longest_timeout_ms = world.config().timing.election_timeout_ms.1;
        if down_ms < longest_timeout_ms || stranded == 0 {
            return Verdict::not_yet(format!(
                "{label} has been down for {down_ms} ms; send writes, and wait at least \
                 {longest_timeout_ms} ms, the longest election timeout, to see whether anyone takes \
                 over"
            ));
        }
        let status = world.nodes()[down[0].index()].status.as_str();
        Verdict::yes(format!(
            "{} committed since this step began, with {majority} of {count} as the majority; \
             {label} has now been {status} for {down_ms} ms and nobody has taken over, because no \
             server is left that could win a vote; {} sent during this step got no commit. One \
             failure stopped the whole cluster: {count} {} rides out {} failures",
            counted(committed, "write was", "writes were"),
            counted(stranded, "other write", "other writes"),
            if count == 1 { "server" } else { "servers" },
            (count - 1) / 2
        ))
    }
}

fn still_has_majority(world: &World, down: &[NodeId], up: usize, count: usize) -> Verdict {
    let tolerated = counted(((count - 1) / 2) as u64, "failure", "failures");
    if down.is_empty() {
        return Verdict::not_yet(format!(
            "all {count} servers are up; this cluster rides out {tolerated}"
        ));
    }
    let labels = down
        .iter()
        .map(|node| world.node_label(*node))
        .collect::<Vec<_>>()
        .join(", ");
    Verdict::not_yet(format!(
        "{labels} down, yet {up} of {count} servers are up, still a majority: this cluster rides \
         out {tolerated}"
    ))
}

/// Writes sent at or after `since`: how many committed, and how many did not (refused, unknown or
/// still waiting).
fn writes_since(world: &World, since: SimTime) -> (u64, u64) {
    let clients = world.clients();
    let writes = clients
        .recent
        .iter()
        .chain(clients.pending())
        .filter(|record| matches!(record.command, Some(ClientCommand::Put { .. })))
        .filter(|record| record.submitted_at_us >= since.as_micros());
    writes.fold((0, 0), |(committed, stranded), record| {
        let done = matches!(record.outcome, ClientOutcome::Committed { .. });
        (committed + u64::from(done), stranded + u64::from(!done))
    })
}

#[cfg(test)]
mod tests {
    use super::super::test_support::{explanation_when_met, explanation_when_never_met};
    use crate::tooling::lesson::Checkpoint;

    const ONE: &str = include_str!("../../../../../lessons/scenarios/one-node-calm.toml");
    const FIVE: &str = include_str!("../../../../../lessons/scenarios/calm-five.toml");

    fn with_steps(scenario: &str, steps: &[(u64, &str)]) -> String {
        let mut text = scenario.to_string();
        for (at_ms, action) in steps {
            let extra = match *action {
                "request" => "count = 2\n",
                _ => "target = \"n1\"\n",
            };
            text.push_str(&format!(
                "\n[[step]]\nat_ms = {at_ms}\ndo = \"{action}\"\n{extra}"
            ));
        }
        text
    }

    #[test]
    fn a_lone_server_that_crashes_stops_everything() {
        let steps = [(1_100, "request"), (1_300, "crash"), (1_400, "request")];
        let text = with_steps(ONE, &steps);
        let explanation = explanation_when_met(&text, Checkpoint::NoFaultTolerance, 1_000, 3_000);
        let text = explanation;
        assert!(text.starts_with("2 writes were committed"), "{text}");
        assert!(
            text.contains("2 other writes sent during this step got no commit"),
            "{text}"
        );
        assert!(text.ends_with("1 server rides out 0 failures"), "{text}");
    }

    #[test]
    fn a_crash_with_nothing_committed_first_is_not_enough() {
        let steps = [(1_300, "crash"), (1_400, "request")];
        let text = with_steps(ONE, &steps);
        let explanation =
            explanation_when_never_met(&text, Checkpoint::NoFaultTolerance, 1_000, 3_000);
        assert!(explanation.contains("no write was committed"));
    }

    #[test]
    fn five_servers_ride_out_one_crash() {
        let steps = [(1_100, "request"), (1_300, "crash"), (1_400, "request")];
        let text = with_steps(FIVE, &steps);
        let explanation =
            explanation_when_never_met(&text, Checkpoint::NoFaultTolerance, 1_000, 3_000);
        assert!(
            explanation.ends_with("rides out 2 failures"),
            "{}",
            explanation
        );
    }
}
