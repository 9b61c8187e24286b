//! Idempotency keys that name the batch (`idempotency_scope = "batch"`), against the default that
//! names the message. The guided lab's promise — every batch changes the inventory exactly once — needs
//! all three parts: a batch the worker gives up on is redone, the redo carries the batch's key, and the
//! store answers a repeat of an applied write by that key before it compares tokens. Each test runs
//! both scopes on the same world so the difference is the option and nothing else.

use quorumlab_sim::lesson::{Checkpoint, CheckpointEvaluator, Verdict};
use quorumlab_sim::runner::ScenarioRun;
use quorumlab_sim::scenario::parse_scenario;
use quorumlab_sim::time::SimTime;

/// Two workers, 400 ms of work inside the lock, the store checking tokens.
fn inventory(scope: &str, steps: &str) -> String {
    format!(
        "protocol = \"lock-service\"\nnodes = 3\nseed = 1\nduration_ms = 6000\n[locks]\nworkers = 2\n\
         lease_ttl_ms = 1000\nrenew_ms = 300\nidempotency_scope = \"{scope}\"\nwork_ms = 400\n\
         think_ms = 100\nop_timeout_ms = 300\n{steps}"
    )
}

/// Pauses the store for two seconds from 1150 ms: in this run a worker is computing then, so its
/// write and both retries go unanswered and it gives the batch up while the first copy waits there.
const STORE_PAUSE: &str =
    "[[step]]\nat_ms = 1150\ndo = \"pause\"\ntarget = \"store\"\nduration_ms = 2000\n";

/// Runs `text` to its end, checking `checkpoint` every 5 ms from `begin_ms`.
fn watch(text: &str, checkpoint: Checkpoint, begin_ms: u64) -> (Verdict, ScenarioRun) {
    let mut run = ScenarioRun::new(parse_scenario(text, "test.toml").unwrap()).unwrap();
    run.advance_to(SimTime::from_ms(begin_ms));
    let mut evaluator = CheckpointEvaluator::begin(checkpoint, run.world());
    loop {
        let verdict = evaluator.check(run.world());
        if run.is_finished() {
            return (verdict, run);
        }
        let next = run.world().now().plus_ms(5);
        run.advance_to(next);
    }
}

fn workers(run: &ScenarioRun) -> Vec<&quorumlab_sim::worker::Worker> {
    run.world()
        .nodes()
        .iter()
        .filter_map(|slot| slot.actor.as_worker())
        .collect()
}

#[test]
fn a_batch_given_up_on_is_redone_and_its_landed_write_recognised() {
    let (verdict, run) = watch(
        &inventory("batch", STORE_PAUSE),
        Checkpoint::BatchRedoRecognised,
        1000,
    );
    assert!(verdict.satisfied, "{}", verdict.explanation);
    assert!(workers(&run).iter().any(|worker| worker.jobs_redone > 0));
    let store = run
        .world()
        .nodes()
        .last()
        .unwrap()
        .actor
        .as_resource()
        .unwrap();
    assert!(store.redos_recognised > 0);
    // Every finished batch moved the count exactly once.
    let done: u64 = workers(&run).iter().map(|worker| worker.jobs_done).sum();
    assert_eq!(store.value, 1_000 - done);
    let report = run.report();
    assert!(
        report.world.violations.is_empty(),
        "{:?}",
        report.world.violations
    );
}

#[test]
fn keyed_by_message_the_same_pause_drops_the_batch_and_nothing_is_redone() {
    let (verdict, run) = watch(
        &inventory("message", STORE_PAUSE),
        Checkpoint::BatchRedoRecognised,
        1000,
    );
    assert!(!verdict.satisfied, "{}", verdict.explanation);
    assert!(workers(&run).iter().all(|worker| worker.jobs_redone == 0));
    assert!(workers(&run).iter().any(|worker| worker.jobs_abandoned > 0));
}

#[test]
fn an_untouched_run_redoes_nothing() {
    let (verdict, _) = watch(&inventory("batch", ""), Checkpoint::BatchRedoRecognised, 0);
    assert!(!verdict.satisfied);
    assert_eq!(
        verdict.explanation,
        "no batch has been redone after its write landed yet"
    );
}

#[test]
fn a_failover_is_met_only_by_a_grant_above_every_earlier_token() {
    let crash = "[[step]]\nat_ms = 1200\ndo = \"crash\"\ntarget = \"leader\"\n";
    let (verdict, _) = watch(
        &inventory("batch", crash),
        Checkpoint::TokensGrewAfterFailover,
        1000,
    );
    assert!(verdict.satisfied, "{}", verdict.explanation);
    assert!(
        verdict.explanation.contains("was granted token"),
        "{}",
        verdict.explanation
    );
    let (verdict, _) = watch(
        &inventory("batch", ""),
        Checkpoint::TokensGrewAfterFailover,
        1000,
    );
    assert!(!verdict.satisfied);
    assert!(verdict
        .explanation
        .starts_with("the lock service has not failed over yet"));
    let raft = "protocol = \"raft\"\nnodes = 3\nduration_ms = 600\n";
    let (verdict, _) = watch(raft, Checkpoint::TokensGrewAfterFailover, 0);
    assert_eq!(verdict.explanation, "this world has no lock clients");
}

#[test]
fn the_scope_is_checked_where_it_is_written() {
    let error = |locks: &str, protocol: &str| {
        let text =
            format!("protocol = \"{protocol}\"\nnodes = 3\nduration_ms = 100\n[locks]\n{locks}");
        parse_scenario(&text, "s.toml").unwrap_err().to_string()
    };
    let unknown = error("idempotency_scope = \"job\"\n", "lock-service");
    assert!(
        unknown.contains("`job`") && unknown.contains("\"message\" or \"batch\""),
        "{unknown}"
    );
    let keyless = error(
        "idempotency_key = false\nidempotency_scope = \"batch\"\n",
        "lock-service",
    );
    assert!(
        keyless.contains("when idempotency_key is false"),
        "{keyless}"
    );
    let elsewhere = error("idempotency_scope = \"batch\"\n", "redis-lock");
    assert!(elsewhere.contains("lock-service"), "{elsewhere}");
    // Written out by export, read back the same.
    let text = inventory("batch", "");
    let scenario = parse_scenario(&text, "s.toml").unwrap();
    let exported = quorumlab_sim::scenario::to_toml_string(&scenario);
    assert!(
        exported.contains("idempotency_scope = \"batch\""),
        "{exported}"
    );
    assert_eq!(parse_scenario(&exported, "s.toml").unwrap(), scenario);
}
