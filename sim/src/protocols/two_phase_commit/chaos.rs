//! The coordinator-aimed chaos plan (what `--profile holders` runs for a two-phase-commit world): the
//! coordinator crashes again and again, each time staying down longer than a participant waits before
//! it asks, and a participant or two crash as well.
//!
//! A transaction's cycle is short (the prepare, the votes, a 30 ms log write, a 100 ms pause), so a
//! crash at a random time lands in the window between the last vote and the written decision about
//! one time in five: several crashes per run put most seeds there, with participants in doubt while
//! the coordinator is down, and the restarted coordinator asking for their votes again. Atomicity must
//! hold through all of it. Everything is drawn from the generator the chaos tooling hands over.

use crate::base::ids::NodeId;
use crate::base::rng::Rng;
use crate::contract::action::{Action, NodeTarget};
use crate::contract::entry::parts::{AimedChaos, AimedPlan, ChaosNodes, ChaosParts};

pub const CHAOS: ChaosParts = ChaosParts {
    aimed: Some(AimedChaos {
        salt: 0x2fc0_c4a0_5000_0031,
        title: "Coordinator",
        plan,
    }),
    mixed_opening: None,
};

/// Coordinator crashes in one plan.
const COORDINATOR_CRASHES: usize = 5;

fn plan(rng: &mut Rng, nodes: &ChaosNodes) -> AimedPlan {
    let coordinator = NodeTarget::Node(NodeId(0));
    let mut steps = Vec::new();
    let mut at_ms = rng.range_inclusive(20, 200);
    for _ in 0..COORDINATOR_CRASHES {
        let restart_ms = at_ms + rng.range_inclusive(150, 900);
        steps.push((
            at_ms,
            Action::Crash {
                target: coordinator,
            },
        ));
        steps.push((
            restart_ms,
            Action::Restart {
                target: coordinator,
            },
        ));
        at_ms = restart_ms + rng.range_inclusive(20, 300);
    }
    let last_ms = at_ms;
    for _ in 0..rng.range_inclusive(1, 2) {
        let index = rng.range_inclusive(0, nodes.workers as u64 - 1) as usize;
        let target = NodeTarget::Node(nodes.worker(index));
        let crash_ms = rng.range_inclusive(20, last_ms);
        let restart_ms = crash_ms + rng.range_inclusive(50, 600);
        steps.push((crash_ms, Action::Crash { target }));
        steps.push((restart_ms, Action::Restart { target }));
    }
    steps.sort_by_key(|(at_ms, _)| *at_ms);
    let heal_not_before_ms = steps.last().map_or(0, |(at_ms, _)| *at_ms) + 1;
    AimedPlan {
        steps,
        heal_not_before_ms,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_plan_crashes_and_restarts_the_coordinator_in_turn() {
        let nodes = ChaosNodes {
            servers: 1,
            workers: 3,
        };
        let planned = plan(&mut Rng::new(11), &nodes);
        let coordinator = NodeTarget::Node(NodeId(0));
        let turns: Vec<bool> = planned
            .steps
            .iter()
            .filter_map(|(_, action)| match action {
                Action::Crash { target } if *target == coordinator => Some(true),
                Action::Restart { target } if *target == coordinator => Some(false),
                _ => None,
            })
            .collect();
        let expected: Vec<bool> = (0..COORDINATOR_CRASHES)
            .flat_map(|_| [true, false])
            .collect();
        assert_eq!(turns, expected);
        assert!(planned.steps.windows(2).all(|pair| pair[0].0 <= pair[1].0));
        assert!(planned.heal_not_before_ms > planned.steps.last().unwrap().0);
    }
}
