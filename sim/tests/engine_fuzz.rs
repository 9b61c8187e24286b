//! Any sequence of actions, however odd, must leave the engine running: no panic, time moves forward,
//! caps hold, and a replay of the same sequence is identical.

use proptest::prelude::*;
use quorumlab_sim::action::{Action, NodeTarget, RequestKind};
use quorumlab_sim::ids::NodeId;
use quorumlab_sim::network::MAX_IN_FLIGHT;
use quorumlab_sim::time::SimTime;
use quorumlab_sim::{World, WorldConfig};

fn target() -> impl Strategy<Value = NodeTarget> {
    prop_oneof![
        (0u16..5).prop_map(|index| NodeTarget::Node(NodeId(index))),
        Just(NodeTarget::Leader)
    ]
}

fn action() -> impl Strategy<Value = Action> {
    prop_oneof![
        target().prop_map(|target| Action::Crash { target }),
        target().prop_map(|target| Action::Restart { target }),
        (target(), prop::option::of(0u64..2_000)).prop_map(|(target, duration_ms)| Action::Pause {
            target,
            duration_ms
        }),
        target().prop_map(|target| Action::Resume { target }),
        prop::collection::vec(
            prop::collection::vec((0u16..5).prop_map(NodeId), 0..4),
            0..3
        )
        .prop_map(|groups| Action::Partition { groups }),
        target().prop_map(|target| Action::Isolate { target }),
        (target(), target(), any::<bool>()).prop_map(|(from, to, both)| Action::Cut {
            from,
            to,
            both
        }),
        Just(Action::Heal),
        (0u32..=1_000_000).prop_map(|ppm| Action::DropRate { ppm }),
        (target(), -5_000i64..5_000)
            .prop_map(|(target, by_ms)| Action::ClockJump { target, by_ms }),
        (target(), -2_000_000i64..2_000_000)
            .prop_map(|(target, ppm)| Action::ClockDrift { target, ppm }),
        (0u32..20, target(), any::<bool>()).prop_map(|(count, target, put)| Action::Request {
            count,
            target,
            kind: if put {
                RequestKind::Put
            } else {
                RequestKind::Get
            },
        }),
    ]
}

fn run(seed: u64, steps: &[(u64, Action)]) -> World {
    let mut world = World::new(WorldConfig::raft(5, seed)).unwrap();
    for (gap_ms, action) in steps {
        world.run_until(world.now().plus_ms(*gap_ms));
        world.apply(action);
        assert!(world.view().messages.len() <= MAX_IN_FLIGHT);
    }
    world.run_until(world.now().plus_ms(1_000));
    world
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn arbitrary_action_sequences_never_break_the_engine(
        seed in any::<u64>(),
        steps in prop::collection::vec((0u64..300, action()), 0..40),
    ) {
        let world = run(seed, &steps);
        prop_assert!(world.now() >= SimTime::from_ms(1_000));
        prop_assert_eq!(world.action_log().len(), steps.len());
        let again = run(seed, &steps);
        prop_assert_eq!(world.trace_hash(), again.trace_hash());
        // Clock faults can break lease reads, never the core Raft invariants.
        let report = world.report();
        let core = report.violations.iter().filter(|v| v.invariant != "Linearizable Reads").count();
        prop_assert_eq!(core, 0, "{:?}", report.violations);
    }
}
