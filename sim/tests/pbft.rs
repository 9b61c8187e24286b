//! PBFT: the normal case, view changes past a silent or equivocating primary, a lying backup, and the
//! misconfigured quorum that lets a liar split honest replicas; the Byzantine fault in other worlds.

use quorumlab_sim::action::{Action, ByzantineMode, NodeTarget};
use quorumlab_sim::checker::HONEST_AGREEMENT;
use quorumlab_sim::ids::NodeId;
use quorumlab_sim::narration::Narrator;
use quorumlab_sim::runner::ScenarioRun;
use quorumlab_sim::scenario::parse_scenario;
use quorumlab_sim::world::ActionOutcome;

/// A PBFT run of `nodes` replicas and `clients` clients, with `[pbft]` lines and steps.
fn run(
    nodes: usize,
    clients: usize,
    seed: u64,
    pbft: &str,
    steps: &str,
    until_ms: u64,
) -> ScenarioRun {
    let text = format!(
        "title = \"pbft test\"\nprotocol = \"pbft\"\nnodes = {nodes}\nseed = {seed}\nduration_ms = {until_ms}\n\
         [locks]\nworkers = {clients}\n[pbft]\n{pbft}\n{steps}"
    );
    let scenario = parse_scenario(&text, "test").expect("the test scenario parses");
    let mut run = ScenarioRun::new(scenario).expect("the test scenario runs");
    run.run_to_end();
    run
}

fn byzantine(at_ms: u64, node: u16, mode: &str) -> String {
    format!(
        "[[step]]\nat_ms = {at_ms}\ndo = \"byzantine\"\ntarget = \"n{node}\"\nmode = \"{mode}\"\n"
    )
}

fn violations(run: &ScenarioRun, invariant: &str) -> u64 {
    let counts = run.world().report().violation_counts;
    counts.get(invariant).copied().unwrap_or(0)
}

/// Results every client took, in node order.
fn accepted(run: &ScenarioRun) -> Vec<u64> {
    let nodes = run.world().nodes().iter();
    nodes
        .filter_map(|slot| slot.actor.as_pbft_client())
        .map(|client| client.accepted)
        .collect()
}

/// The views the replicas are in, in node order.
fn views(run: &ScenarioRun) -> Vec<u64> {
    let nodes = run.world().nodes().iter();
    nodes
        .filter_map(|slot| slot.actor.as_replica())
        .map(|replica| replica.view)
        .collect()
}

#[test]
fn four_honest_replicas_answer_every_request_in_view_zero() {
    let run = run(4, 1, 3, "", "", 2_000);
    assert!(accepted(&run)[0] >= 5, "{:?}", accepted(&run));
    assert_eq!(views(&run), vec![0, 0, 0, 0]);
    assert_eq!(violations(&run, HONEST_AGREEMENT), 0);
}

#[test]
fn a_silent_primary_is_replaced_by_a_view_change() {
    let before = run(4, 1, 3, "", &byzantine(1_000, 1, "silent"), 1_000);
    let after = run(4, 1, 3, "", &byzantine(1_000, 1, "silent"), 3_000);
    assert!(
        views(&after)[1..].iter().all(|view| *view >= 1),
        "{:?}",
        views(&after)
    );
    assert!(accepted(&after)[0] > accepted(&before)[0] + 3);
    assert_eq!(violations(&after, HONEST_AGREEMENT), 0);
}

#[test]
fn an_equivocating_primary_is_caught_and_four_replicas_still_agree() {
    for seed in 1..=30 {
        let run = run(4, 2, seed, "", &byzantine(500, 1, "equivocate"), 3_000);
        assert_eq!(violations(&run, HONEST_AGREEMENT), 0, "seed {seed}");
        assert!(
            views(&run)[1..].iter().all(|view| *view >= 1),
            "seed {seed}"
        );
        assert!(
            accepted(&run).iter().all(|count| *count >= 5),
            "seed {seed}"
        );
    }
}

#[test]
fn a_lying_backup_cannot_stop_three_honest_replicas() {
    for mode in ["lie", "equivocate", "silent"] {
        let run = run(4, 1, 9, "", &byzantine(1, 3, mode), 2_000);
        assert_eq!(violations(&run, HONEST_AGREEMENT), 0, "{mode}");
        assert_eq!(views(&run), vec![0, 0, 0, 0], "{mode}");
        assert!(accepted(&run)[0] >= 5, "{mode}: {:?}", accepted(&run));
    }
}

#[test]
fn a_quorum_of_two_among_three_lets_an_equivocating_primary_split_honest_replicas() {
    let unsafe_run = run(
        3,
        1,
        5,
        "quorum = 2",
        &byzantine(1_000, 1, "equivocate"),
        3_000,
    );
    assert!(violations(&unsafe_run, HONEST_AGREEMENT) > 0);
    let honest_run = run(3, 1, 5, "quorum = 2", "", 3_000);
    assert_eq!(violations(&honest_run, HONEST_AGREEMENT), 0);
    // Four replicas with the safe quorum of three cannot be split by the same liar.
    let safe_run = run(4, 1, 5, "", &byzantine(1_000, 1, "equivocate"), 3_000);
    assert_eq!(violations(&safe_run, HONEST_AGREEMENT), 0);
}

#[test]
fn a_quorum_larger_than_the_replicas_is_refused_with_its_key() {
    let text =
        "title = \"t\"\nprotocol = \"pbft\"\nnodes = 3\nduration_ms = 100\n[pbft]\nquorum = 4\n";
    let error = parse_scenario(text, "test").expect_err("four of three is refused");
    let message = error.to_string();
    assert!(
        message.contains("quorum") && message.contains('3'),
        "{message}"
    );
}

#[test]
fn worlds_whose_nodes_cannot_lie_skip_the_fault_with_the_reason() {
    let text = "title = \"t\"\nprotocol = \"paxos\"\nnodes = 3\nduration_ms = 100\n";
    let mut run = ScenarioRun::new(parse_scenario(text, "test").unwrap()).unwrap();
    let action = Action::Byzantine {
        target: NodeTarget::Node(NodeId(0)),
        mode: ByzantineMode::Lie,
    };
    match run.world_mut().apply(&action) {
        ActionOutcome::Skipped { reason } => assert!(reason.contains("cannot lie"), "{reason}"),
        outcome => panic!("applied in a Paxos world: {outcome:?}"),
    }
}

#[test]
fn a_run_is_the_same_every_time() {
    let steps = byzantine(700, 1, "equivocate");
    let first = run(4, 2, 21, "", &steps, 2_500);
    let second = run(4, 2, 21, "", &steps, 2_500);
    assert_eq!(first.world().trace_hash(), second.world().trace_hash());
}

#[test]
#[ignore = "prints a scenario file's run, for reading"]
fn print_file() {
    let file = std::env::var("FILE").expect("FILE=path/to/scenario.toml");
    let text = std::fs::read_to_string(&file).unwrap();
    let mut run = ScenarioRun::new(parse_scenario(&text, &file).unwrap()).unwrap();
    run.run_to_end();
    let mut narrator = Narrator::for_world(run.world());
    narrator.catch_up(run.world().trace());
    for line in narrator.lines() {
        println!("{:>6} {:?} {}", line.at_us / 1000, line.weight, line.text);
    }
    println!(
        "{:?} views {:?} accepted {:?}",
        run.world().report().violation_counts,
        views(&run),
        accepted(&run)
    );
}

/// Seeds per sweep here (the command line runs 10,000 and more: `quorumlab sweep --protocol pbft`).
const SWEEP_SEEDS: u64 = 1_000;

fn chaos_options(variant: &str) -> quorumlab_sim::chaos::locks::LockChaosOptions {
    let entry = quorumlab_sim::registry::by_name("pbft").expect("a registry entry");
    quorumlab_sim::chaos::locks::LockChaosOptions::new(entry.kind, variant).expect("a variant")
}

#[test]
fn four_replicas_with_one_liar_stay_in_agreement_across_seeds() {
    let options = chaos_options("three-f-plus-one");
    for seed in 1..=SWEEP_SEEDS {
        let outcome = quorumlab_sim::sweep::run_lock_seed(seed, &options).expect("runs");
        assert!(
            outcome.violations.is_empty(),
            "seed {seed}: {:?}",
            outcome.violations
        );
    }
}

#[test]
fn the_misconfigured_quorum_is_caught_in_nearly_every_aimed_seed() {
    let options = chaos_options("misconfigured-quorum");
    let caught = (1..=200)
        .filter(|seed| {
            let outcome = quorumlab_sim::sweep::run_holder_seed(*seed, &options).expect("runs");
            outcome.violations.contains_key(HONEST_AGREEMENT)
        })
        .count();
    assert!(caught >= 180, "caught in {caught} of 200 seeds");
}

/// Chaos seed 7214 (mixed profile, `n2` equivocating): replicas that had asked for view 3 still
/// entered views 1 and 2 and prepared there, so the view-change messages the primary of view 3
/// gathered no longer said what they had prepared, and it re-proposed another request at a sequence
/// number one honest replica had already committed.
#[test]
fn chaos_seed_7214_keeps_honest_replicas_in_agreement_across_stale_view_changes() {
    let options = chaos_options("three-f-plus-one");
    let outcome = quorumlab_sim::sweep::run_lock_seed(7_214, &options).expect("runs");
    assert!(outcome.violations.is_empty(), "{:?}", outcome.violations);
}
