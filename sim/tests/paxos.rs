//! Single-decree Paxos: one value chosen and kept, duelling proposers and their remedies, and the
//! forgetful acceptor that lets two values be chosen.

use quorumlab_sim::checker::{AGREEMENT, STABILITY, VALIDITY};
use quorumlab_sim::narration::Narrator;
use quorumlab_sim::paxos::checker::PaxosChecker;
use quorumlab_sim::runner::ScenarioRun;
use quorumlab_sim::scenario::parse_scenario;
use quorumlab_sim::time::SimTime;

/// A Paxos run of `nodes` acceptors and `proposers` proposers, with `[paxos]` lines and steps.
fn run(
    nodes: usize,
    proposers: usize,
    seed: u64,
    paxos: &str,
    steps: &str,
    until_ms: u64,
) -> ScenarioRun {
    let text = format!(
        "title = \"paxos test\"\nprotocol = \"paxos\"\nnodes = {nodes}\nseed = {seed}\nduration_ms = {until_ms}\n\
         [locks]\nworkers = {proposers}\n[paxos]\n{paxos}\n{steps}"
    );
    let scenario = parse_scenario(&text, "test").expect("the test scenario parses");
    let mut run = ScenarioRun::new(scenario).expect("the test scenario runs");
    run.advance_to(SimTime::from_ms(until_ms));
    run
}

fn chosen_at_ms(run: &ScenarioRun) -> Option<u64> {
    run.world()
        .checkers()
        .world::<PaxosChecker>()
        .and_then(|paxos| paxos.chosen)
        .map(|chosen| chosen.at.as_ms())
}

fn example(file: &str, change: impl FnOnce(&mut String)) -> ScenarioRun {
    let mut text =
        std::fs::read_to_string(format!("{}/scenarios/{file}", env!("CARGO_MANIFEST_DIR")))
            .expect("the example exists");
    change(&mut text);
    let mut run = ScenarioRun::new(parse_scenario(&text, file).expect("parses")).expect("runs");
    run.run_to_end();
    run
}

fn violations(run: &ScenarioRun, invariant: &str) -> u64 {
    let counts = run.world().report().violation_counts;
    counts.get(invariant).copied().unwrap_or(0)
}

/// The values each proposer (learner) knows are chosen, in node order.
fn learned(run: &ScenarioRun) -> Vec<Option<u64>> {
    let nodes = run.world().nodes().iter();
    nodes
        .filter_map(|slot| slot.actor.as_proposer())
        .map(|proposer| proposer.learned().map(|learned| learned.value))
        .collect()
}

#[test]
fn forgetful_acceptors_let_two_values_be_chosen_and_the_checkers_say_so() {
    let run = example("paxos-forgetful-acceptor.toml", |_| {});
    assert_eq!(violations(&run, AGREEMENT), 1);
    assert_eq!(violations(&run, STABILITY), 1);
    assert_eq!(violations(&run, VALIDITY), 0);
    // A learned "apple" first and then "banana"; B only ever heard "banana".
    assert_eq!(learned(&run), vec![Some(1), Some(1)]);
}

#[test]
fn the_same_steps_with_durable_acceptors_carry_the_chosen_value_forward() {
    let run = example("paxos-forgetful-acceptor.toml", |text| {
        *text = text.replace("durable_acceptors = false", "durable_acceptors = true");
    });
    let counts = run.world().report().violation_counts;
    assert!(counts.values().all(|count| *count == 0), "{counts:?}");
    assert_eq!(learned(&run), vec![Some(0), Some(0)]);
}

#[test]
fn a_rival_carries_a_crashed_proposers_value_forward() {
    let run = example("paxos-proposer-crash.toml", |_| {});
    let counts = run.world().report().violation_counts;
    assert!(counts.values().all(|count| *count == 0), "{counts:?}");
    let chosen = run
        .world()
        .checkers()
        .world::<PaxosChecker>()
        .and_then(|paxos| paxos.chosen)
        .expect("a value is chosen");
    // B's ballot chose A's "apple", not B's own "banana".
    assert_eq!(chosen.value, 0);
    assert_eq!(chosen.ballot.round, 1);
    assert_eq!(learned(&run)[1], Some(0));
}

#[test]
fn duelling_proposers_without_a_remedy_choose_nothing_for_hundreds_of_milliseconds() {
    let duel = example("paxos-duel.toml", |_| {});
    let none_ms = chosen_at_ms(&duel).expect("the duel ends in the end");
    assert!(none_ms > 300, "no remedy chose at {none_ms} ms");
    let ballots: u64 = duel
        .world()
        .nodes()
        .iter()
        .filter_map(|slot| slot.actor.as_proposer())
        .map(|proposer| proposer.ballots_started)
        .sum();
    assert!(ballots >= 30, "only {ballots} ballots: no duel");
    for remedy in ["backoff", "leader"] {
        let run = example("paxos-duel.toml", |text| {
            *text = text.replace("remedy = \"none\"", &format!("remedy = \"{remedy}\""));
        });
        let chosen_ms = chosen_at_ms(&run).expect("a remedy chooses");
        assert!(chosen_ms < 150, "{remedy} chose at {chosen_ms} ms");
        assert_eq!(
            run.world().report().violation_counts.values().sum::<u64>(),
            0
        );
    }
}

#[test]
fn over_many_seeds_the_slowest_duel_is_far_slower_without_a_remedy() {
    let slowest = |remedy: &str| {
        (1..=100)
            .map(|seed| {
                let run = run(5, 3, seed, &format!("remedy = \"{remedy}\""), "", 2_000);
                assert_eq!(
                    run.world().report().violation_counts.values().sum::<u64>(),
                    0
                );
                chosen_at_ms(&run).unwrap_or(u64::MAX)
            })
            .max()
            .unwrap()
    };
    let (none, backoff, leader) = (slowest("none"), slowest("backoff"), slowest("leader"));
    assert!(none > 2 * backoff, "none {none} ms, backoff {backoff} ms");
    assert!(none > 2 * leader, "none {none} ms, leader {leader} ms");
}

#[test]
fn a_distinguished_proposer_leaves_the_others_standing_back() {
    let run = run(5, 3, 7, "remedy = \"leader\"", "", 1_000);
    let started: Vec<u64> = run
        .world()
        .nodes()
        .iter()
        .filter_map(|slot| slot.actor.as_proposer())
        .map(|proposer| proposer.ballots_started)
        .collect();
    assert_eq!(started, vec![1, 0, 0]);
    assert_eq!(learned(&run), vec![Some(0); 3]);
}

#[test]
fn a_run_is_the_same_every_time() {
    let first = example("paxos-duel.toml", |_| {});
    let second = example("paxos-duel.toml", |_| {});
    assert_eq!(first.world().trace_hash(), second.world().trace_hash());
}

fn print(run: &ScenarioRun) {
    let mut narrator = Narrator::for_world(run.world());
    narrator.catch_up(run.world().trace());
    for line in narrator.lines() {
        println!("{:>6} {:?} {}", line.at_us / 1000, line.weight, line.text);
    }
}

#[test]
#[ignore = "prints a run, for reading"]
fn print_run() {
    let remedy = std::env::var("REMEDY").unwrap_or_else(|_| "none".into());
    let seed = std::env::var("SEED").map_or(1, |seed| seed.parse().unwrap());
    let run = run(5, 2, seed, &format!("remedy = \"{remedy}\""), "", 2_000);
    print(&run);
    println!("chosen {:?}", chosen_at_ms(&run));
}

#[test]
#[ignore = "prints a tally, for tuning"]
fn tally_duels() {
    for remedy in ["none", "backoff", "leader"] {
        let mut times = Vec::new();
        for seed in 1..=200 {
            let extra = std::env::var("EXTRA")
                .unwrap_or_default()
                .replace(';', "\n");
            let paxos = format!("remedy = \"{remedy}\"\n{extra}");
            let timing = std::env::var("TIMING")
                .unwrap_or_default()
                .replace(';', "\n");
            let proposers = std::env::var("PROPOSERS").map_or(2, |count| count.parse().unwrap());
            let run = run(
                5,
                proposers,
                seed,
                &paxos,
                &format!("[timing]\n{timing}"),
                3_000,
            );
            times.push((chosen_at_ms(&run).unwrap_or(u64::MAX), seed));
        }
        times.sort_unstable();
        let never = times.iter().filter(|t| t.0 == u64::MAX).count();
        println!(
            "{remedy}: median {:?} p90 {:?} max {:?} never {never}",
            times[100], times[180], times[199]
        );
    }
}

#[test]
#[ignore = "prints an example, for reading"]
fn print_example() {
    let file = std::env::var("EXAMPLE").unwrap_or_else(|_| "paxos-forgetful-acceptor.toml".into());
    let text = std::fs::read_to_string(format!("scenarios/{file}")).unwrap();
    let mut run = ScenarioRun::new(parse_scenario(&text, &file).unwrap()).unwrap();
    run.run_to_end();
    print(&run);
    println!("{:?}", run.world().report().violation_counts);
}

#[test]
fn the_paxos_card_has_a_row_per_actor_and_the_chosen_value_last() {
    let run = example("paxos-forgetful-acceptor.toml", |_| {});
    let view = run.world().view();
    let coordination = view.coordination.expect("a Paxos world");
    let card = coordination
        .world
        .as_ref()
        .and_then(|world| world.rows(&coordination.labels))
        .expect("Paxos describes itself in rows");
    let paxos = coordination.paxos().expect("a Paxos view");
    let actors = paxos.acceptors.len() + paxos.proposers.len() + paxos.learners.len();
    assert_eq!(card.rows.len(), actors + 1, "{card:#?}");
    assert_eq!(card.world, "paxos");
    let last = card.rows.last().expect("rows");
    assert_eq!((last.label.as_str(), last.node), ("Chosen", None));
    assert!(card.rows[0].label.starts_with("◯ n1"), "{card:#?}");
}
