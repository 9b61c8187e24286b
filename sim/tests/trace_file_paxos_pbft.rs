//! Trace files of a Paxos duel, of Paxos with learner actors and of PBFT with liars: a run with a
//! learner's actions (an acceptor or a learner actor crashed and restarted; a backup made to lie
//! mid-run on top of the example's equivocating primary) is written, read back and replayed to the
//! same fingerprint, the same violations and the same final state; a file whose action was altered by
//! one byte is refused, by the reader when the byte makes the action unreadable and by the
//! fingerprint check when it makes another valid action.

use quorumlab_sim::action::{Action, ByzantineMode, NodeTarget};
use quorumlab_sim::history::RecordedAction;
use quorumlab_sim::ids::NodeId;
use quorumlab_sim::runner::ScenarioRun;
use quorumlab_sim::scenario::Scenario;
use quorumlab_sim::time::SimTime;
use quorumlab_sim::trace_file::{
    parse_trace_file, replay, replay_checked, write_trace_file, ReplayCheck,
};
use quorumlab_sim::world::{ActionOutcome, World};

mod common;
use common::load;

/// Runs `scenario` (its own steps included) to `end_ms`, applying `script` as a learner would, each
/// action recorded where it was applied; returns the trace file and the world it describes.
fn record(scenario: Scenario, script: &[(u64, Action)], end_ms: u64) -> (String, World) {
    let mut run = ScenarioRun::new(scenario.clone()).expect("the example runs");
    let mut actions = Vec::new();
    for (at_ms, action) in script {
        run.advance_to(SimTime::from_ms(*at_ms));
        let world = run.world_mut();
        actions.push(RecordedAction {
            at: world.now(),
            after_events: world.events_processed(),
            action: action.clone(),
        });
        assert_eq!(world.apply(action), ActionOutcome::Applied, "{action:?}");
    }
    run.advance_to(SimTime::from_ms(end_ms));
    let text = write_trace_file(&scenario, &actions, run.world());
    (text, run.world().clone())
}

/// Reads `text` back, replays it, and checks the replay is the recorded run.
fn assert_replays_to(text: &str, recorded: &World) -> World {
    let file = parse_trace_file(text).unwrap_or_else(|error| panic!("{error}"));
    let replayed = replay(&file).expect("the file replays");
    assert_eq!(replayed.trace_hash(), recorded.trace_hash());
    assert_eq!(replayed.trace_hash(), file.trace_hash);
    assert_eq!(replayed.events_processed(), recorded.events_processed());
    let (now, then) = (replayed.report(), recorded.report());
    assert_eq!(now.violation_counts, then.violation_counts);
    assert_eq!(now.trace_hash, then.trace_hash);
    assert!(matches!(replay_checked(&file), ReplayCheck::Reproduced(_)));
    replayed
}

fn node(index: u16) -> NodeTarget {
    NodeTarget::Node(NodeId(index))
}

/// The one action line of `text` that contains `needle`, with `from` changed to `to` (same length).
fn tampered(text: &str, needle: &str, from: &str, to: &str) -> (String, usize) {
    assert_eq!(from.len(), to.len(), "one byte, or as many as were there");
    let lines: Vec<&str> = text.lines().collect();
    let index = lines
        .iter()
        .position(|line| line.contains("\"kind\":\"action\"") && line.contains(needle))
        .unwrap_or_else(|| panic!("no action line holds {needle:?}"));
    let mut changed: Vec<String> = lines.iter().map(|line| line.to_string()).collect();
    changed[index] = changed[index].replacen(from, to, 1);
    assert_ne!(changed[index], lines[index]);
    (changed.join("\n") + "\n", index + 1)
}

#[test]
fn a_paxos_duel_with_an_acceptor_crashed_and_restarted_replays_from_its_trace_file() {
    let script = [
        (250, Action::Crash { target: node(1) }),
        (700, Action::Restart { target: node(1) }),
        (900, Action::Crash { target: node(4) }),
    ];
    let (text, recorded) = record(load("paxos-duel.toml"), &script, 1_400);
    assert_eq!(text.matches("\"kind\":\"action\"").count(), 3, "{text}");
    assert!(text.contains(r#""action":{"do":"crash","target":"n2"}"#));
    assert!(text.contains(r#""action":{"do":"restart","target":"n2"}"#));
    let replayed = assert_replays_to(&text, &recorded);
    let learned = |world: &World| -> Vec<_> {
        world
            .nodes()
            .iter()
            .filter_map(|slot| slot.actor.as_proposer())
            .map(|proposer| proposer.learned())
            .collect()
    };
    assert_eq!(learned(&replayed), learned(&recorded));
}

#[test]
fn paxos_with_learner_actors_one_crashed_and_restarted_replays_from_its_trace_file() {
    // n1..n5, A, B, then L1 (node 7), L2 and the example's isolated L3.
    let script = [
        (2, Action::Crash { target: node(7) }),
        (450, Action::Restart { target: node(7) }),
        (
            500,
            Action::Pause {
                target: node(8),
                duration_ms: Some(300),
            },
        ),
    ];
    let (text, recorded) = record(load("paxos-learners.toml"), &script, 1_400);
    assert!(
        text.contains(r#""action":{"do":"crash","target":"L1"}"#),
        "{text}"
    );
    assert!(text.contains(r#""action":{"do":"pause","target":"L2","duration_ms":300}"#));
    let file = parse_trace_file(&text).expect("reads back");
    assert_eq!(file.scenario.protocol, load("paxos-learners.toml").protocol);
    let replayed = assert_replays_to(&text, &recorded);
    let learned = |world: &World| -> Vec<_> {
        world
            .nodes()
            .iter()
            .filter_map(|slot| slot.actor.as_paxos_learner())
            .map(|learner| learner.learned())
            .collect()
    };
    let known = learned(&recorded);
    assert_eq!(known.len(), 3);
    // The restarted L1 forgot and found out again by asking; L3 after the heal.
    assert!(known.iter().all(Option::is_some), "{known:?}");
    assert_eq!(learned(&replayed), known);
}

#[test]
fn pbft_with_an_equivocating_primary_and_a_backup_lying_mid_run_replays_from_its_trace_file() {
    let script = [(
        2_200,
        Action::Byzantine {
            target: node(2),
            mode: ByzantineMode::Lie,
        },
    )];
    let (text, recorded) = record(load("pbft-byzantine-primary.toml"), &script, 3_500);
    assert!(text.contains(r#""action":{"do":"byzantine","target":"n3","mode":"lie"}"#));
    let file = parse_trace_file(&text).expect("reads back");
    let primary_lies = Action::Byzantine {
        target: node(0),
        mode: ByzantineMode::Equivocate,
    };
    assert!(
        file.scenario
            .steps
            .iter()
            .any(|step| step.action == primary_lies),
        "the example's own step travels in the embedded scenario"
    );
    let replayed = assert_replays_to(&text, &recorded);
    let modes = |world: &World| -> Vec<_> {
        world
            .nodes()
            .iter()
            .map(|slot| slot.actor.lying_mode())
            .collect()
    };
    assert_eq!(modes(&replayed), modes(&recorded));
}

#[test]
fn a_trace_file_whose_byzantine_mode_was_altered_by_one_byte_is_refused_naming_the_line() {
    let script = [(
        2_200,
        Action::Byzantine {
            target: node(2),
            mode: ByzantineMode::Lie,
        },
    )];
    let (text, _) = record(load("pbft-byzantine-primary.toml"), &script, 3_000);
    let (bad, line) = tampered(&text, "\"mode\":\"lie\"", "\"lie\"", "\"lid\"");
    let error = parse_trace_file(&bad).expect_err("an unknown mode is refused");
    assert_eq!(error.line, line);
    let message = error.to_string();
    assert!(message.contains(&format!("line {line}")), "{message}");
    assert!(message.contains("mode"), "{message}");
    assert!(message.contains("lid"), "{message}");
}

#[test]
fn a_trace_file_whose_action_names_another_node_is_caught_by_its_fingerprint() {
    let script = [
        (250, Action::Crash { target: node(1) }),
        (700, Action::Restart { target: node(1) }),
    ];
    let (text, _) = record(load("paxos-duel.toml"), &script, 1_200);
    // n2 to n4: still a valid acceptor, so only the replay can tell.
    let (bad, _) = tampered(&text, "\"do\":\"crash\"", "\"n2\"", "\"n4\"");
    let file = parse_trace_file(&bad).expect("the altered action is valid on its own");
    match replay_checked(&file) {
        ReplayCheck::Diverged {
            recorded, replayed, ..
        } => assert_ne!(recorded, replayed),
        ReplayCheck::Reproduced(_) => panic!("a different run reproduced the recorded fingerprint"),
        ReplayCheck::Failed(reason) => panic!("the replay should run, to another run: {reason}"),
    }
}
