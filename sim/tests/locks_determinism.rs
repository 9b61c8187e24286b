//! Every coordination example is deterministic (same file, same trace), seed-sensitive, and survives
//! time travel: seeking back and replaying to the end gives the same trace hash.

use quorumlab_sim::action::{Action, NodeTarget};
use quorumlab_sim::history::Timeline;
use quorumlab_sim::ids::NodeId;
use quorumlab_sim::runner::{run_scenario, world_config};
use quorumlab_sim::scenario::{parse_scenario, Scenario};
use quorumlab_sim::time::SimTime;
use quorumlab_sim::World;

fn examples() -> Vec<(String, Scenario)> {
    let directory = concat!(env!("CARGO_MANIFEST_DIR"), "/scenarios");
    let mut files: Vec<_> = std::fs::read_dir(directory)
        .expect("folder")
        .map(|entry| entry.expect("entry").path())
        .filter(|path| {
            path.extension()
                .is_some_and(|extension| extension == "toml")
        })
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|path| {
            let name = path.file_name().unwrap().to_string_lossy().to_string();
            let text = std::fs::read_to_string(&path).unwrap();
            let scenario = parse_scenario(&text, &name).unwrap_or_else(|error| panic!("{error}"));
            (name, scenario)
        })
        .filter(|(_, scenario)| scenario.protocol.is_coordination())
        .collect()
}

#[test]
fn every_coordination_example_is_deterministic_and_seed_sensitive() {
    let examples = examples();
    assert!(examples.len() >= 12, "{} examples", examples.len());
    for (name, scenario) in examples {
        let first = run_scenario(&scenario).unwrap();
        assert_eq!(first, run_scenario(&scenario).unwrap(), "{name}");
        let reseeded = Scenario {
            seed: scenario.seed + 1_000,
            ..scenario.clone()
        };
        let other = run_scenario(&reseeded).unwrap();
        assert_ne!(first.world.trace_hash, other.world.trace_hash, "{name}");
    }
}

#[test]
fn time_travel_replays_a_coordination_world_exactly() {
    let (_, scenario) = examples()
        .into_iter()
        .find(|(name, _)| name == "fencing-pause.toml")
        .unwrap();
    let world = World::new(world_config(&scenario)).unwrap();
    let mut timeline = Timeline::new(world, 500, 64);
    timeline.run_until(SimTime::from_ms(950));
    timeline.apply(&Action::Pause {
        target: NodeTarget::Node(NodeId(3)),
        duration_ms: Some(2_500),
    });
    timeline.run_until(SimTime::from_ms(6_000));
    let hash = timeline.world().trace_hash();
    let view = timeline.world().view();
    timeline.seek(SimTime::from_ms(1_700));
    timeline.seek(SimTime::from_ms(6_000));
    assert_eq!(timeline.world().trace_hash(), hash);
    assert_eq!(timeline.world().view(), view);
    let rejected = view.coordination.unwrap().resource.unwrap().rejected;
    assert!(
        rejected >= 1,
        "the stale write is in the replayed ledger too"
    );
}
