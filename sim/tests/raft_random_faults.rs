//! A small self-contained fault sweep over every option combination (honest clocks, so lease reads must
//! be safe too): zero violations under faults, then a leader and a committed write after healing.

use quorumlab_sim::action::{Action, NodeTarget, RequestKind};
use quorumlab_sim::config::RaftOptions;
use quorumlab_sim::ids::NodeId;
use quorumlab_sim::rng::Rng;
use quorumlab_sim::time::SimTime;
use quorumlab_sim::{World, WorldConfig};

const NODES: u64 = 5;

fn random_fault(rng: &mut Rng) -> Action {
    let node = NodeTarget::Node(NodeId(rng.range_inclusive(0, NODES - 1) as u16));
    match rng.range_inclusive(0, 9) {
        0 => Action::Crash { target: node },
        1 => Action::Restart { target: node },
        2 => Action::Pause {
            target: node,
            duration_ms: Some(rng.range_inclusive(50, 800)),
        },
        3 => {
            let split = rng.range_inclusive(1, NODES - 1) as u16;
            let (left, right) = (
                (0..split).map(NodeId).collect(),
                (split..NODES as u16).map(NodeId).collect(),
            );
            Action::Partition {
                groups: vec![left, right],
            }
        }
        4 => Action::Heal,
        5 => Action::Isolate { target: node },
        6 => Action::DropRate {
            ppm: rng.range_inclusive(0, 200_000) as u32,
        },
        7 => Action::Crash {
            target: NodeTarget::Leader,
        },
        8 => Action::Request {
            count: 3,
            target: NodeTarget::Leader,
            kind: RequestKind::Get,
        },
        _ => Action::Request {
            count: 3,
            target: NodeTarget::Leader,
            kind: RequestKind::Put,
        },
    }
}

fn options_for(seed: u64) -> RaftOptions {
    RaftOptions {
        pre_vote: seed & 1 == 1,
        check_quorum: seed & 2 == 2,
        read_path: if seed & 4 == 4 {
            quorumlab_sim::config::ReadPath::Lease
        } else {
            quorumlab_sim::config::ReadPath::Log
        },
        ..RaftOptions::default()
    }
}

fn recover_everything(world: &mut World) {
    world.apply(&Action::Heal);
    world.apply(&Action::DropRate { ppm: 0 });
    for index in 0..NODES as u16 {
        world.apply(&Action::Restart {
            target: NodeTarget::Node(NodeId(index)),
        });
        world.apply(&Action::Resume {
            target: NodeTarget::Node(NodeId(index)),
        });
    }
}

#[test]
fn random_faults_break_no_invariant_and_the_cluster_recovers() {
    for seed in 1..=200u64 {
        let mut config = WorldConfig::raft(NODES as usize, seed);
        config.raft = options_for(seed);
        let mut world = World::new(config).unwrap();
        let mut faults = Rng::new(seed ^ 0x5EED);
        for tick in 1..=40u64 {
            world.run_until(SimTime::from_ms(tick * 100));
            world.apply(&random_fault(&mut faults));
        }
        recover_everything(&mut world);
        world.run_until(world.now().plus_ms(3_000));
        let report = world.report();
        assert!(
            report.violations.is_empty(),
            "seed {seed}: {:?}",
            report.violations
        );
        let leader = world
            .current_leader()
            .unwrap_or_else(|| panic!("seed {seed}: no leader after healing"));
        let committed = report.requests.committed;
        world.apply(&Action::Request {
            count: 1,
            target: NodeTarget::Node(leader),
            kind: RequestKind::Put,
        });
        world.run_until(world.now().plus_ms(500));
        assert_eq!(
            world.report().requests.committed,
            committed + 1,
            "seed {seed}: write after healing"
        );
    }
}
