//! Two-phase commit: commits when every vote is yes, aborts everywhere on a no, blocks participants in
//! doubt while a crashed coordinator holds the only decision, and never breaks Atomicity — unless the
//! coordinator is built broken, which the checker must catch.

use quorumlab_sim::config::ProtocolConfig;
use quorumlab_sim::contract::world_read::actors_of;
use quorumlab_sim::protocols::two_phase_commit::checker::{TwoPhaseChecker, ATOMICITY};
use quorumlab_sim::protocols::two_phase_commit::participant::Phase;
use quorumlab_sim::protocols::two_phase_commit::view::TwoPhaseView;
use quorumlab_sim::protocols::two_phase_commit::{Node, TxId};
use quorumlab_sim::runner::ScenarioRun;
use quorumlab_sim::scenario::{parse_scenario, Scenario};
use quorumlab_sim::time::SimTime;

fn example_text(file: &str) -> String {
    let path = format!(
        "{}/src/protocols/two_phase_commit/examples/{file}",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(path).expect("the example exists")
}

fn example(file: &str) -> Scenario {
    parse_scenario(&example_text(file), file).unwrap_or_else(|error| panic!("{error}"))
}

fn run_to_end(scenario: Scenario) -> ScenarioRun {
    let mut run = ScenarioRun::new(scenario).expect("the scenario runs");
    run.run_to_end();
    run
}

fn atomicity_violations(run: &ScenarioRun) -> u64 {
    let counts = run.world().report().violation_counts;
    counts.get(ATOMICITY).copied().unwrap_or(0)
}

fn options_mut(scenario: &mut Scenario) -> &mut quorumlab_sim::config::TwoPhaseOptions {
    match &mut scenario.protocol {
        ProtocolConfig::TwoPhaseCommit(_, options) => options,
        other => panic!("not a two-phase-commit world: {other:?}"),
    }
}

/// Per participant (node order), what it voted and applied on `tx`.
fn outcomes(run: &ScenarioRun, tx: TxId) -> Vec<(Option<bool>, Option<bool>)> {
    actors_of::<Node>(run.world())
        .filter_map(|(_, node)| node.as_participant())
        .map(|participant| {
            let record = participant.records.get(&tx).copied().unwrap_or_default();
            (record.vote, record.applied)
        })
        .collect()
}

fn decision(run: &ScenarioRun, tx: TxId) -> Option<bool> {
    actors_of::<Node>(run.world())
        .find_map(|(_, node)| node.as_coordinator())
        .and_then(|coordinator| coordinator.decision(tx))
}

fn phases(run: &ScenarioRun) -> Vec<Phase> {
    let view = TwoPhaseView::read(run.world());
    view.participants
        .iter()
        .map(|participant| participant.phase)
        .collect()
}

#[test]
fn the_happy_path_commits_every_transaction_everywhere() {
    let run = run_to_end(example("happy-commit.toml"));
    for tx in 1..=3 {
        assert_eq!(decision(&run, tx), Some(true), "transaction {tx}");
        assert_eq!(
            outcomes(&run, tx),
            vec![(Some(true), Some(true)); 3],
            "transaction {tx}"
        );
    }
    assert_eq!(phases(&run), vec![Phase::Committed; 3]);
    assert_eq!(atomicity_violations(&run), 0);
    let checker = run
        .world()
        .checkers()
        .world::<TwoPhaseChecker>()
        .expect("armed");
    assert_eq!(checker.decided.len(), 3);
}

#[test]
fn one_no_vote_aborts_everywhere_and_all_yes_commits() {
    let (mut aborted, mut committed) = (0, 0);
    for seed in 1..=4 {
        let mut scenario = example("happy-commit.toml");
        scenario.seed = seed;
        scenario.duration_ms = 6_000;
        let options = options_mut(&mut scenario);
        options.vote_no_ppm = 300_000;
        options.transactions = 20;
        let run = run_to_end(scenario);
        assert_eq!(atomicity_violations(&run), 0, "seed {seed}");
        for tx in 1..=20 {
            let outcomes = outcomes(&run, tx);
            let all_yes = outcomes.iter().all(|(vote, _)| *vote == Some(true));
            assert_eq!(
                decision(&run, tx),
                Some(all_yes),
                "seed {seed} transaction {tx}"
            );
            for (_, applied) in &outcomes {
                assert_eq!(*applied, Some(all_yes), "seed {seed} transaction {tx}");
            }
            if all_yes {
                committed += 1;
            } else {
                aborted += 1;
            }
        }
    }
    assert!(
        aborted > 0 && committed > 0,
        "{aborted} aborted, {committed} committed"
    );
}

#[test]
fn a_coordinator_crashed_before_its_decision_leaves_participants_in_doubt_until_it_restarts() {
    let mut run = ScenarioRun::new(example("coordinator-crash.toml")).expect("runs");
    run.advance_to(SimTime::from_ms(1_400));
    assert_eq!(phases(&run), vec![Phase::InDoubt; 3]);
    assert_eq!(outcomes(&run, 1), vec![(Some(true), None); 3]);
    assert_eq!(decision(&run, 1), None);
    assert_eq!(TwoPhaseView::read(run.world()).in_doubt(), 3);
    run.run_to_end();
    assert_eq!(phases(&run), vec![Phase::Committed; 3]);
    assert_eq!(decision(&run, 1), Some(true));
    assert_eq!(atomicity_violations(&run), 0);
}

#[test]
fn a_coordinator_crashed_after_writing_its_decision_blocks_nobody() {
    // The look-alike: the same crash once the decision is written (and sent) at 50 ms.
    let text = example_text("coordinator-crash.toml").replace("at_ms = 35", "at_ms = 55");
    let scenario = parse_scenario(&text, "late crash").expect("parses");
    let mut run = ScenarioRun::new(scenario).expect("runs");
    run.advance_to(SimTime::from_ms(1_400));
    assert_eq!(phases(&run), vec![Phase::Committed; 3]);
    assert_eq!(TwoPhaseView::read(run.world()).in_doubt(), 0);
}

#[test]
fn a_broken_coordinator_that_splits_its_decision_breaks_atomicity() {
    let mut scenario = example("happy-commit.toml");
    options_mut(&mut scenario).unsafe_split_decision = true;
    let broken = run_to_end(scenario);
    assert!(atomicity_violations(&broken) > 0);
    let honest = run_to_end(example("happy-commit.toml"));
    assert_eq!(atomicity_violations(&honest), 0);
}

#[test]
fn the_same_seed_gives_the_same_run() {
    let hash = |seed: u64| {
        let mut scenario = example("coordinator-crash.toml");
        scenario.seed = seed;
        options_mut(&mut scenario).vote_no_ppm = 400_000;
        run_to_end(scenario).world().trace_hash()
    };
    assert_eq!(hash(5), hash(5));
    let first = run_to_end(example("coordinator-crash.toml"))
        .world()
        .trace_hash();
    let second = run_to_end(example("coordinator-crash.toml"))
        .world()
        .trace_hash();
    assert_eq!(first, second);
}

#[test]
fn a_second_server_is_refused_with_a_clear_error() {
    let text = example_text("happy-commit.toml").replace("nodes = 1", "nodes = 3");
    let error = parse_scenario(&text, "three.toml").expect_err("one coordinator only");
    assert!(error.to_string().contains("the coordinator"), "{error}");
}

#[test]
fn the_view_reads_as_rows() {
    let mut run = ScenarioRun::new(example("coordinator-crash.toml")).expect("runs");
    run.advance_to(SimTime::from_ms(1_000));
    let card = TwoPhaseView::read(run.world()).rows();
    let rows = &card.rows;
    assert_eq!(rows.len(), 4);
    assert_eq!(rows[0].label, "coordinator");
    assert_eq!(rows[1].label, "participant A");
    assert!(
        rows[1].value.starts_with("transaction 1: in doubt since"),
        "{rows:?}"
    );
    // The same card reaches the app through the frame's world view, one row per node.
    let view = run.world().view();
    let coordination = view.coordination.expect("a coordination frame");
    let through_frame = coordination
        .world
        .as_ref()
        .and_then(|world| world.rows(&coordination.labels))
        .expect("two-phase commit describes itself in rows");
    assert_eq!(through_frame, card);
    assert_eq!(rows[1].node, Some(quorumlab_sim::ids::NodeId(1)));
    assert_eq!(rows[1].caption.as_deref(), Some("in doubt"));
    // The crashed coordinator's row says what survived: no decision in its log.
    assert!(
        rows[0]
            .value
            .starts_with("crashed; its log holds no decision for transaction 1"),
        "{rows:?}"
    );
}

#[test]
fn the_narration_tells_the_blocked_participants_and_the_restart() {
    use quorumlab_sim::narration::Narrator;
    let run = run_to_end(example("coordinator-crash.toml"));
    let world = run.world();
    let mut narrator = Narrator::for_world(world);
    assert!(narrator.catch_up(world.trace()));
    let lines: Vec<String> = narrator.lines().map(|line| line.text.clone()).collect();
    let told = |needle: &str| lines.iter().any(|line| line.contains(needle));
    for needle in [
        "A is in doubt on transaction 1",
        "C is in doubt on transaction 1",
        "n1 restarts with transaction 1 undecided in its log",
        "written commit for transaction 1",
    ] {
        assert!(
            told(needle),
            "no line contains {needle:?} in:\n{}",
            lines.join("\n")
        );
    }
}

#[test]
fn the_coordinator_aimed_chaos_leaves_participants_in_doubt_without_breaking_atomicity() {
    use quorumlab_sim::actor::Fact;
    use quorumlab_sim::chaos::holders::holder_run;
    use quorumlab_sim::chaos::locks::LockChaosOptions;
    use quorumlab_sim::config::ProtocolKind;
    use quorumlab_sim::protocols::two_phase_commit::TwoPhaseFact;
    use quorumlab_sim::trace::TraceEvent;
    let options =
        LockChaosOptions::default_for(ProtocolKind::TwoPhaseCommit).expect("a lock world");
    let mut undecided_restarts = 0;
    for seed in 1..=20 {
        let aimed = holder_run(seed, &options).expect("runs");
        assert_eq!(atomicity_violations(&aimed.run), 0, "seed {seed}");
        let facts: Vec<TwoPhaseFact> = aimed
            .run
            .world()
            .trace()
            .records()
            .filter_map(|record| match &record.event {
                TraceEvent::Observe {
                    fact: Fact::TwoPhase(fact),
                    ..
                } => Some(*fact),
                _ => None,
            })
            .collect();
        let undecided = facts.iter().any(|fact| {
            matches!(
                fact,
                TwoPhaseFact::TxCoordinatorRestarted { decided: None, .. }
            )
        });
        let in_doubt = facts
            .iter()
            .any(|fact| matches!(fact, TwoPhaseFact::TxInDoubt { .. }));
        if undecided && in_doubt {
            undecided_restarts += 1;
        }
    }
    assert!(
        undecided_restarts >= 10,
        "only {undecided_restarts} of 20 seeds"
    );
}
