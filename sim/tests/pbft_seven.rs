//! The seven-replica example (`pbft-seven.toml`, n = 3f + 1 with f = 2): a lying backup and an
//! equivocating primary at once, and the five honest replicas still agree, vote the primary out and
//! keep answering both clients with f + 1 = 3 matching replies.

use quorumlab_sim::checker::HONEST_AGREEMENT;
use quorumlab_sim::runner::ScenarioRun;
use quorumlab_sim::scenario::{parse_scenario, EXAMPLES};

fn seven_replicas(seed: Option<u64>) -> ScenarioRun {
    let (_, text) = EXAMPLES
        .iter()
        .find(|(name, _)| *name == "pbft-seven.toml")
        .expect("listed in EXAMPLES");
    let mut scenario = parse_scenario(text, "pbft-seven.toml").expect("the example parses");
    if let Some(seed) = seed {
        scenario.seed = seed;
    }
    let mut run = ScenarioRun::new(scenario).expect("the example runs");
    run.run_to_end();
    run
}

#[test]
fn two_liars_among_seven_replicas_break_nothing() {
    let run = seven_replicas(None);
    let world = run.world();
    assert!(run.skipped_steps().is_empty(), "both liars were made");
    let replicas: Vec<_> = world
        .nodes()
        .iter()
        .filter_map(|slot| slot.actor.as_replica())
        .collect();
    assert_eq!(replicas.len(), 7);
    let liars: Vec<usize> = (0..7).filter(|index| replicas[*index].is_lying()).collect();
    assert_eq!(liars, [0, 3], "n1 and n4 lie");
    assert!(replicas.iter().all(|replica| replica.quorum == 5));
    // The honest five voted the primary out: n2 leads view 1.
    assert!(replicas.iter().all(|replica| replica.view == 1));
    let clients: Vec<_> = world
        .nodes()
        .iter()
        .filter_map(|slot| slot.actor.as_pbft_client())
        .collect();
    assert_eq!(clients.len(), 2);
    for client in clients {
        assert_eq!(client.needed, 3, "f + 1 matching replies");
        assert!(
            client.accepted >= 15,
            "{} took {}",
            client.id,
            client.accepted
        );
    }
    let counts = world.report().violation_counts;
    assert!(counts.is_empty(), "{counts:?}");
}

#[test]
fn honest_agreement_holds_on_other_seeds_too() {
    for seed in 1..=20 {
        let run = seven_replicas(Some(seed));
        let counts = run.world().report().violation_counts;
        assert_eq!(counts.get(HONEST_AGREEMENT), None, "seed {seed}");
        let fewest = run
            .world()
            .nodes()
            .iter()
            .filter_map(|slot| slot.actor.as_pbft_client())
            .map(|client| client.accepted)
            .min();
        assert!(fewest >= Some(15), "seed {seed}: {fewest:?}");
    }
}
