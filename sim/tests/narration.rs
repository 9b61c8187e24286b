//! Narration read from whole example runs: the sentences a learner must see, in order.

use quorumlab_sim::entry::describe::Weight;
use quorumlab_sim::narration::Narrator;
use quorumlab_sim::runner::ScenarioRun;
use quorumlab_sim::scenario::{parse_scenario, EXAMPLES};

fn example_run(file: &str) -> ScenarioRun {
    let text = EXAMPLES
        .iter()
        .find(|(name, _)| *name == file)
        .map(|(_, text)| *text)
        .expect("the example exists");
    let scenario = parse_scenario(text, file).expect("examples parse");
    ScenarioRun::new(scenario).expect("examples run")
}

fn narrate_example(file: &str) -> Narrator {
    let mut run = example_run(file);
    run.run_to_end();
    let mut narrator = Narrator::for_world(run.world());
    assert!(narrator.catch_up(run.world().trace()));
    narrator
}

fn texts(narrator: &Narrator) -> Vec<String> {
    narrator.lines().map(|line| line.text.clone()).collect()
}

fn position(lines: &[String], needle: &str) -> usize {
    lines
        .iter()
        .position(|line| line.contains(needle))
        .unwrap_or_else(|| panic!("no line contains {needle:?} in:\n{}", lines.join("\n")))
}

#[test]
fn a_leader_crash_is_told_as_crash_timeout_votes_and_a_won_election() {
    let narrator = narrate_example("leader-crash.toml");
    let lines = texts(&narrator);
    let crash = position(&lines, "Crash the leader. n4 was the leader");
    let timeout = crash
        + position(
            &lines[crash..],
            "heard no leader before its election timer ran out",
        );
    let vote = timeout + position(&lines[timeout..], "its vote for term");
    let won = vote + position(&lines[vote..], "wins the election for term");
    assert!(
        lines[won].contains("of 5 votes, a majority"),
        "{}",
        lines[won]
    );
    assert!(lines
        .iter()
        .any(|line| line.starts_with("Entry ") && line.contains("is committed: stored on")));
}

#[test]
fn the_store_refusing_a_stale_token_names_both_numbers() {
    let narrator = narrate_example("fencing-pause.toml");
    let lines = texts(&narrator);
    let refused = &lines[position(&lines, "refuses A's write: its token")];
    let numbers: Vec<u64> = refused
        .split(|character: char| !character.is_ascii_digit())
        .filter_map(|word| word.parse().ok())
        .collect();
    assert!(numbers.len() >= 2 && numbers[0] < numbers[1], "{refused}");
    position(
        &lines,
        "The lock service grants the lock to B with fencing token",
    );
}

#[test]
fn without_fencing_the_violation_is_narrated_as_an_alarm() {
    let narrator = narrate_example("no-fencing-pause.toml");
    let alarm = narrator.latest(Weight::Alarm).expect("a violation line");
    assert!(alarm.text.contains("is broken"), "{}", alarm.text);
}

#[test]
fn redis_values_are_not_called_tokens() {
    let narrator = narrate_example("redis-unsafe-release.toml");
    let lines = texts(&narrator);
    position(&lines, "sets the lock key for");
    assert!(lines.iter().all(|line| !line.contains("fencing token")));
    assert!(!lines.iter().any(|line| line.contains("wins the election")));
}

#[test]
fn narration_is_the_same_for_the_same_run_and_reading_in_pieces_changes_nothing() {
    let whole = texts(&narrate_example("partition-minority.toml"));
    assert_eq!(whole, texts(&narrate_example("partition-minority.toml")));
    let mut run = example_run("partition-minority.toml");
    let mut narrator = Narrator::for_world(run.world());
    let mut until = quorumlab_sim::time::SimTime::ZERO;
    while !run.is_finished() {
        until = until.plus_ms(137);
        run.advance_to(until);
        assert!(narrator.catch_up(run.world().trace()));
    }
    run.run_to_end();
    narrator.catch_up(run.world().trace());
    assert_eq!(texts(&narrator), whole);
}

#[test]
fn quiet_heartbeats_become_one_line_and_repeats_coalesce() {
    let narrator = narrate_example("leader-crash.toml");
    let quiet = narrator.lines().find(|line| {
        line.text
            .contains("rounds of heartbeats; nothing else changed")
    });
    assert!(quiet.is_some());
    assert!(narrator
        .lines()
        .all(|line| !line.text.starts_with("One round")));
    let sends = narrator
        .lines()
        .find(|line| line.text.starts_with("A client sends a write"))
        .expect("the client's writes are told");
    assert_eq!(sends.repeats, 5, "five writes in a row are one line");
}

#[test]
fn a_rewound_trace_asks_for_a_new_narrator() {
    let mut narrator = narrate_example("leader-crash.toml");
    let fresh = example_run("leader-crash.toml");
    let before = narrator.lines().len();
    assert!(!narrator.catch_up(fresh.world().trace()));
    assert_eq!(narrator.lines().len(), before);
}

#[test]
#[ignore = "prints a run's narration, for reading"]
fn print_narration() {
    let file = std::env::var("NARRATE").unwrap_or_else(|_| "leader-crash.toml".to_string());
    for line in narrate_example(&file).lines() {
        println!(
            "{:>8} ×{:<3} {:?} {}",
            line.at_us / 1000,
            line.repeats,
            line.weight,
            line.text
        );
    }
}
