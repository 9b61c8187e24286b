//! The determinism contract: same config + seed + actions = same trace, bit for bit.

use quorumlab_sim::action::{Action, NodeTarget, RequestKind};
use quorumlab_sim::ids::NodeId;
use quorumlab_sim::time::SimTime;
use quorumlab_sim::{World, WorldConfig};

fn schedule() -> Vec<(u64, Action)> {
    let n = |index: u16| NodeTarget::Node(NodeId(index));
    vec![
        (
            300,
            Action::Request {
                count: 20,
                target: NodeTarget::Leader,
                kind: RequestKind::Put,
            },
        ),
        (400, Action::DropRate { ppm: 50_000 }),
        (
            500,
            Action::Partition {
                groups: vec![
                    vec![NodeId(0), NodeId(1)],
                    vec![NodeId(2), NodeId(3), NodeId(4)],
                ],
            },
        ),
        (
            600,
            Action::Request {
                count: 10,
                target: n(2),
                kind: RequestKind::Put,
            },
        ),
        (
            700,
            Action::ClockDrift {
                target: n(3),
                ppm: 200_000,
            },
        ),
        (900, Action::Heal),
        (
            1_000,
            Action::Crash {
                target: NodeTarget::Leader,
            },
        ),
        (
            1_100,
            Action::Pause {
                target: n(4),
                duration_ms: Some(300),
            },
        ),
        (
            1_300,
            Action::ClockJump {
                target: n(1),
                by_ms: 120,
            },
        ),
        (
            1_500,
            Action::Request {
                count: 10,
                target: NodeTarget::Leader,
                kind: RequestKind::Get,
            },
        ),
        (1_700, Action::Restart { target: n(0) }),
        (
            1_800,
            Action::Cut {
                from: n(2),
                to: n(3),
                both: false,
            },
        ),
    ]
}

fn run(seed: u64, until_ms: u64) -> World {
    let mut config = WorldConfig::raft(5, seed);
    config.timing.duplicate_ppm = 20_000;
    let mut world = World::new(config).unwrap();
    for (at_ms, action) in schedule() {
        if at_ms > until_ms {
            break;
        }
        world.run_until(SimTime::from_ms(at_ms));
        world.apply(&action);
    }
    world.run_until(SimTime::from_ms(until_ms));
    world
}

fn trace_text(world: &World) -> Vec<u8> {
    let mut out = Vec::new();
    world.write_trace_jsonl(&mut out).unwrap();
    out
}

#[test]
fn same_seed_and_actions_give_the_same_trace() {
    let first = run(42, 3_000);
    let second = run(42, 3_000);
    assert_eq!(first.trace_hash(), second.trace_hash());
    assert_eq!(trace_text(&first), trace_text(&second));
    assert_eq!(first.report(), second.report());
    assert!(first.events_processed() > 1_000);
}

#[test]
fn a_different_seed_gives_a_different_trace() {
    assert_ne!(run(42, 3_000).trace_hash(), run(43, 3_000).trace_hash());
}

#[test]
fn a_clone_taken_mid_run_continues_identically() {
    let mut original = run(7, 1_200);
    let mut copy = original.clone();
    for world in [&mut original, &mut copy] {
        world.apply(&Action::Request {
            count: 5,
            target: NodeTarget::Leader,
            kind: RequestKind::Put,
        });
        world.run_until(SimTime::from_ms(2_500));
    }
    assert_eq!(original.trace_hash(), copy.trace_hash());
    assert_eq!(original.view(), copy.view());
}

#[test]
fn the_trace_hash_is_hex_in_the_report_and_covers_actions() {
    let mut world = run(5, 500);
    let report = world.report();
    assert_eq!(report.trace_hash.len(), 16);
    assert!(report
        .trace_hash
        .chars()
        .all(|c| c.is_ascii_hexdigit() && !c.is_ascii_uppercase()));
    let before = world.trace_hash();
    world.apply(&Action::Heal);
    assert_ne!(
        world.trace_hash(),
        before,
        "even a no-op action is part of the trace"
    );
    assert_eq!(
        world.action_log().last().map(|(_, action)| action),
        Some(&Action::Heal)
    );
}
