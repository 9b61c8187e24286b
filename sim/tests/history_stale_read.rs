//! A stale read a client can see: the omniscient check and the history check both catch it.
//!
//! The lease-read examples read keys nobody wrote, so their clients see "no value", which is what a
//! linearizable store could answer too; the omniscient check, comparing log indexes, fires there while
//! the history check passes. Here every key is written first (sixteen puts, ids 1 to 16), the leader is
//! cut off with a clock running at a tenth of true speed, the new leader overwrites every key (ids 17
//! to 32), and request 33 reads key 1 from the old leader: it answers 1 from its lease after 17 was
//! acknowledged. With honest clocks the old lease runs out first and neither check has anything to say.

use quorumlab_sim::action::{Action, NodeTarget, RequestKind};
use quorumlab_sim::checker::LINEARIZABLE_READS;
use quorumlab_sim::client_history::{OpCall, OpEnd, OpReturn};
use quorumlab_sim::config::RaftOptions;
use quorumlab_sim::ids::NodeId;
use quorumlab_sim::linearizable::models::HistoryVerdict;
use quorumlab_sim::linearizable::verify::brute_force;
use quorumlab_sim::linearizable::Budget;
use quorumlab_sim::protocol::ClientCommand;
use quorumlab_sim::raft::kv_model::KV_MODEL;
use quorumlab_sim::runner::ScenarioRun;
use quorumlab_sim::scenario::parse_scenario;
use quorumlab_sim::{World, WorldConfig};

fn puts(world: &mut World, target: NodeId, count: u32) {
    world.apply(&Action::Request {
        count,
        target: NodeTarget::Node(target),
        kind: RequestKind::Put,
    });
}

/// Runs the story and returns the world at its end.
fn every_key_written_then_a_lease_read_at_the_old_leader(seed: u64, drift_ppm: i64) -> World {
    let mut config = WorldConfig::raft(5, seed);
    config.raft = RaftOptions {
        read_path: quorumlab_sim::config::ReadPath::Lease,
        ..RaftOptions::default()
    };
    let mut world = World::new(config).unwrap();
    world.run_until(world.now().plus_ms(1_000));
    let old = world.current_leader().expect("a leader");
    let old_target = NodeTarget::Node(old);
    world.apply(&Action::ClockDrift {
        target: old_target,
        ppm: drift_ppm,
    });
    puts(&mut world, old, 16);
    world.run_until(world.now().plus_ms(60));
    world.apply(&Action::Isolate { target: old_target });
    let others: Vec<NodeId> = (0..5).map(NodeId).filter(|node| *node != old).collect();
    let is_new = |world: &World| world.current_leader().filter(|node| others.contains(node));
    for _ in 0..400 {
        if is_new(&world).is_some() {
            break;
        }
        world.run_until(world.now().plus_ms(5));
    }
    let new = is_new(&world).expect("the others elect a leader");
    puts(&mut world, new, 16);
    world.run_until(world.now().plus_ms(40));
    world.apply(&Action::Request {
        count: 1,
        target: old_target,
        kind: RequestKind::Get,
    });
    world.run_until(world.now().plus_ms(1_500));
    world
}

fn stale_reads(world: &World) -> u64 {
    let report = world.report();
    report
        .violation_counts
        .get(LINEARIZABLE_READS)
        .copied()
        .unwrap_or(0)
}

#[test]
fn a_slow_clock_s_stale_read_is_refused_by_both_checks() {
    for seed in 1..=3 {
        let world = every_key_written_then_a_lease_read_at_the_old_leader(seed, -900_000);
        assert_eq!(stale_reads(&world), 1, "seed {seed}");
        let ops = world.client_log().ops();
        assert_eq!(ops.len(), 33);
        let read = &ops[32];
        assert_eq!(read.call, OpCall::Kv(ClientCommand::Get { key: 1 }));
        assert_eq!(read.end, OpEnd::Ok(OpReturn::Read(Some(1))), "seed {seed}");
        assert!(ops[..32]
            .iter()
            .all(|op| op.end == OpEnd::Ok(OpReturn::Written)));
        let check = world.linearizability(Budget::NATIVE).unwrap();
        let verdict = check.verdict();
        let expected = HistoryVerdict::Refused {
            model: "key-value store",
            partition: 1,
        };
        assert_eq!(verdict, expected, "seed {seed}");
        let (part, stuck, longest) = check.checks[0].refusal().unwrap();
        assert_eq!((part.partition, stuck, longest), (1, 32, &[0, 16][..]));
        let witness = [&ops[0], &ops[16], &ops[32]];
        assert_eq!(
            brute_force(&KV_MODEL, &witness),
            Ok(None),
            "the three alone"
        );
        assert_eq!(
            brute_force(&KV_MODEL, &witness[..2])
                .unwrap()
                .map(|o| o.len()),
            Some(2)
        );
    }
}

#[test]
fn with_honest_clocks_both_checks_pass() {
    for seed in 1..=3 {
        let world = every_key_written_then_a_lease_read_at_the_old_leader(seed, 0);
        assert_eq!(stale_reads(&world), 0, "seed {seed}");
        let check = world.linearizability(Budget::NATIVE).unwrap();
        assert_eq!(check.verdict(), HistoryVerdict::Linearizable, "seed {seed}");
        assert_eq!(check.partitions(), 16);
        let read = &world.client_log().ops()[32];
        assert!(
            !matches!(read.end, OpEnd::Ok(OpReturn::Read(Some(1)))),
            "seed {seed}: the old leader turned the read away or could not answer"
        );
    }
}

fn run_example(name: &str) -> World {
    let path = format!("{}/scenarios/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap();
    let scenario = parse_scenario(&text, &path).unwrap();
    let mut run = ScenarioRun::new(scenario).unwrap();
    run.run_to_end();
    run.world().clone()
}

/// Pinned disagreement: the skewed-clock example's stale reads go to keys nobody wrote. Those reads
/// return "no value", which the store could have answered at any time, so no client saw the past.
/// (The honest-clock example reads unwritten keys too, and neither check fires there.)
#[test]
fn the_lease_read_examples_read_only_unwritten_keys_so_their_histories_are_linearizable() {
    let examples = [
        ("lease-reads-skewed-clock.toml", 4..=6, true),
        ("lease-reads.toml", 4..=13, false),
    ];
    for (name, read_keys, flagged) in examples {
        let world = run_example(name);
        assert_eq!(stale_reads(&world) >= 1, flagged, "{name}");
        let ops = world.client_log().ops();
        let written: Vec<u32> = ops
            .iter()
            .filter_map(|op| match op.call {
                OpCall::Kv(ClientCommand::Put { key, .. }) => Some(key),
                _ => None,
            })
            .collect();
        let answered_reads: Vec<(u32, OpEnd)> = ops
            .iter()
            .filter_map(|op| match (op.call, op.end) {
                (OpCall::Kv(ClientCommand::Get { key }), end @ OpEnd::Ok(_)) => Some((key, end)),
                _ => None,
            })
            .collect();
        assert!(!answered_reads.is_empty(), "{name}");
        for (key, end) in answered_reads {
            assert!(
                read_keys.contains(&key) && !written.contains(&key),
                "{name}: key {key}"
            );
            assert_eq!(end, OpEnd::Ok(OpReturn::Read(None)), "{name}");
        }
        let check = world.linearizability(Budget::NATIVE).unwrap();
        assert_eq!(check.verdict(), HistoryVerdict::Linearizable, "{name}");
    }
}
