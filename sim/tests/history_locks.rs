//! Histories of the lock service's workers: their acquires and releases, and their reads and writes
//! of the store, checked against the lock's and the fenced store's sequential models.
//!
//! The fencing story as the clients saw it: a holder paused past its lease wakes and writes with its
//! old token after its successor wrote with a newer one. A store that takes any write acknowledges
//! it, and no order of the acknowledged accesses keeps the tokens in the order the lock was handed
//! out, so the fenced-store history is refused. A store that checks tokens refuses the write (an op
//! known not to have happened), and the history is linearizable. The lock's own history is
//! linearizable either way: the service kept its promise, the store did not.

use quorumlab_sim::chaos::{chaos_scenario, ChaosOptions};
use quorumlab_sim::client_history::{LockCall, Op, OpCall, OpEnd, OpReturn, Who};
use quorumlab_sim::config::{LockServiceOptions, ProtocolConfig};
use quorumlab_sim::linearizable::models::HistoryVerdict;
use quorumlab_sim::linearizable::{Budget, Verdict};
use quorumlab_sim::runner::ScenarioRun;
use quorumlab_sim::scenario::Scenario;
use quorumlab_sim::World;

mod common;
use common::load;

fn run(scenario: Scenario) -> World {
    let mut run = ScenarioRun::new(scenario).expect("the scenario builds");
    run.run_to_end();
    run.world().clone()
}

/// The verdict of the model named `model` on `world`'s history.
fn verdict_of(world: &World, model: &str) -> Verdict {
    let check = world
        .linearizability(Budget::NATIVE)
        .expect("a well-formed log");
    let model_check = check
        .checks
        .iter()
        .find(|check| check.model == model)
        .unwrap_or_else(|| panic!("no {model} check"));
    model_check.verdict()
}

fn count(ops: &[Op], wanted: impl Fn(&Op) -> bool) -> usize {
    ops.iter().filter(|op| wanted(op)).count()
}

#[test]
fn a_paused_holder_without_fencing_breaks_the_store_history() {
    let world = run(load("no-fencing-pause.toml"));
    let ops = world.client_log().ops();
    let accesses = count(&ops, |op| matches!(op.call, OpCall::Access { .. }));
    let grants = count(&ops, |op| matches!(op.end, OpEnd::Ok(OpReturn::Granted(_))));
    assert!(
        accesses >= 4 && grants >= 2,
        "{accesses} accesses, {grants} grants"
    );
    assert!(ops.iter().all(|op| matches!(op.who, Who::Node(_))));
    let store = verdict_of(&world, "fenced store");
    assert!(matches!(store, Verdict::Refused { .. }), "{store:?}");
    assert_eq!(verdict_of(&world, "lock"), Verdict::Linearizable);
    let check = world.linearizability(Budget::NATIVE).unwrap();
    let witness = world.history_witness(&check, Budget::NATIVE);
    let witness = witness.expect("a refusal comes with its witness");
    assert!(witness.ops.len() <= 4, "{witness:?}");
}

#[test]
fn the_same_pause_with_fencing_keeps_the_store_history_linearizable() {
    let world = run(load("fencing-pause.toml"));
    let ops = world.client_log().ops();
    let refused = count(&ops, |op| op.end == OpEnd::Failed("stale token"));
    assert!(refused >= 1, "the stale write is refused: {ops:#?}");
    let check = world.linearizability(Budget::NATIVE).unwrap();
    assert_eq!(check.verdict(), HistoryVerdict::Linearizable);
    let releases = count(&ops, |op| {
        matches!(op.call, OpCall::Lock(LockCall::Release { .. })) && op.end.is_required()
    });
    assert!(releases >= 1, "releases are recorded too");
}

/// Mixed chaos on the fenced lock service: never a refusal, and never undecided.
#[test]
fn fenced_chaos_histories_are_linearizable() {
    let mut store_ops = 0;
    for seed in 1..=40 {
        let mut scenario = chaos_scenario(seed, &ChaosOptions::default());
        scenario.protocol = ProtocolConfig::LockService(LockServiceOptions::default());
        let world = run(scenario);
        let verdict = world.linearizability(Budget::NATIVE).unwrap().verdict();
        assert_eq!(verdict, HistoryVerdict::Linearizable, "seed {seed}");
        let ops = world.client_log().ops();
        store_ops += count(&ops, |op| matches!(op.call, OpCall::Access { .. }));
    }
    assert!(store_ops > 100, "{store_ops} store ops over 40 seeds");
}

/// The same chaos with the store taking any write: some seed's history breaks.
#[test]
fn unfenced_chaos_histories_get_caught() {
    let caught = (1..=40)
        .filter(|seed| {
            let mut scenario = chaos_scenario(*seed, &ChaosOptions::default());
            let options = LockServiceOptions {
                fencing: false,
                ..LockServiceOptions::default()
            };
            scenario.protocol = ProtocolConfig::LockService(options);
            let world = run(scenario);
            let verdict = world.linearizability(Budget::NATIVE).unwrap().verdict();
            matches!(verdict, HistoryVerdict::Refused { .. })
        })
        .count();
    eprintln!("unfenced chaos: {caught} of 40 seeds refused");
    assert!(caught >= 1);
}
