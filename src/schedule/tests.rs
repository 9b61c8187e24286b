//! The lane's edits on their own, and an edited schedule travelling through a share link: the link
//! replays to the same trace hash as the session that made it, and as a fresh run of the edited file.

use super::*;
use crate::session::Session;
use crate::share::replay::{capture, open};
use crate::share::{decode_fragment, encode_fragment};
use quorumlab_sim::action::NodeTarget;
use quorumlab_sim::ids::NodeId;
use quorumlab_sim::runner::ScenarioRun;
use quorumlab_sim::scenario::{parse_scenario, Scenario, EXAMPLES};
use quorumlab_sim::time::SimTime;

fn example(file: &str) -> Scenario {
    let (_, text) = EXAMPLES.iter().find(|(name, _)| *name == file).unwrap();
    parse_scenario(text, file).unwrap()
}

fn at(ms: u64, action: Action) -> Step {
    Step { at_ms: ms, action }
}

#[test]
fn a_partition_and_its_heal_are_one_mark_that_moves_and_resizes_together() {
    let steps = FaultKind::Partition.steps(2, 1_000, 400).unwrap();
    let marks = lane_marks(&steps, 0);
    assert_eq!(marks.len(), 1, "the heal is the bar's end");
    assert_eq!(marks[0].end_ms, Some(1_400));
    let (moved, index) = apply_edit(
        &steps,
        &Edit::Move {
            index: 0,
            to_ms: 1_500,
        },
        0,
        5_000,
    )
    .unwrap();
    assert_eq!(
        (moved[0].at_ms, moved[1].at_ms, index),
        (1_500, 1_900, Some(0))
    );
    let (resized, _) = apply_edit(
        &moved,
        &Edit::Resize {
            index: 0,
            span_ms: 1_000,
        },
        0,
        5_000,
    )
    .unwrap();
    assert_eq!(resized[1].at_ms, 2_500);
    let (deleted, index) = apply_edit(&resized, &Edit::Delete { index: 0 }, 0, 5_000).unwrap();
    assert!(
        deleted.is_empty() && index.is_none(),
        "the heal goes with it"
    );
}

#[test]
fn the_past_is_fixed() {
    let steps = vec![at(500, Action::Heal), at(2_000, Action::Heal)];
    let now_us = 1_000_000;
    let past = apply_edit(&steps, &Edit::Delete { index: 0 }, now_us, 5_000).unwrap_err();
    assert!(past.contains("in the past"), "{past}");
    let into_past = apply_edit(
        &steps,
        &Edit::Move {
            index: 1,
            to_ms: 900,
        },
        now_us,
        5_000,
    )
    .unwrap_err();
    assert!(into_past.contains("in the past"), "{into_past}");
    let too_late = apply_edit(
        &steps,
        &Edit::Move {
            index: 1,
            to_ms: 6_000,
        },
        now_us,
        5_000,
    )
    .unwrap_err();
    assert!(too_late.contains("after the run ends"), "{too_late}");
    assert!(FaultKind::Pause
        .steps(0, 2_000, 3)
        .unwrap_err()
        .contains("at least"));
    assert!(FaultKind::RequestBurst.steps(0, 2_000, 0).is_err());
}

#[test]
fn moving_a_step_past_another_keeps_the_list_in_time_order() {
    let steps = vec![
        at(
            1_000,
            Action::Crash {
                target: NodeTarget::Leader,
            },
        ),
        at(2_000, Action::Heal),
    ];
    let (edited, index) = apply_edit(
        &steps,
        &Edit::Move {
            index: 0,
            to_ms: 3_000,
        },
        0,
        5_000,
    )
    .unwrap();
    assert_eq!(edited[1].at_ms, 3_000);
    assert_eq!(
        index,
        Some(1),
        "the edited step is followed to its new place"
    );
}

/// Moves the crash, deletes the second request burst and adds a pause of n2, as the e2e test does.
fn edit_leader_crash(session: &mut Session) {
    let now_us = session.now().as_micros();
    let duration_ms = session.scenario().duration_ms;
    let mut steps = session.scenario().steps.clone();
    for edit in [
        Edit::Move {
            index: 1,
            to_ms: 1_700,
        },
        Edit::Delete { index: 2 },
        Edit::Add {
            steps: FaultKind::Pause.steps(1, 2_100, 300).unwrap(),
        },
    ] {
        steps = apply_edit(&steps, &edit, now_us, duration_ms).unwrap().0;
    }
    session.set_future_steps(steps).unwrap();
}

#[test]
fn an_edited_schedule_replays_from_a_share_link_to_the_same_hash() {
    let mut session = Session::new(example("leader-crash.toml")).unwrap();
    session.advance_to(SimTime::from_ms(600));
    edit_leader_crash(&mut session);
    session.advance_to(SimTime::from_ms(3_000));
    let edited_hash = session.trace_hash();

    let fragment = encode_fragment(&capture(&session)).unwrap();
    let mut opened = open(decode_fragment(&fragment).unwrap()).unwrap();
    assert_eq!(
        opened.trace_hash(),
        edited_hash,
        "the link opens on the same state"
    );
    assert_eq!(opened.scenario().steps, session.scenario().steps);
    opened.seek(SimTime::from_ms(4_000));
    session.advance_to(SimTime::from_ms(4_000));
    assert_eq!(
        opened.trace_hash(),
        session.trace_hash(),
        "and plays on the same"
    );

    let mut fresh = ScenarioRun::new(session.scenario().clone()).unwrap();
    fresh.advance_to(SimTime::from_ms(4_000));
    assert_eq!(
        fresh.world().trace_hash(),
        session.trace_hash(),
        "as the edited file runs"
    );

    let mut untouched = Session::new(example("leader-crash.toml")).unwrap();
    untouched.advance_to(SimTime::from_ms(4_000));
    assert_ne!(
        untouched.trace_hash(),
        session.trace_hash(),
        "the edits changed the run"
    );
}

#[test]
fn editing_ahead_of_a_recorded_future_replaces_it_and_keeps_the_past() {
    let mut session = Session::new(example("leader-crash.toml")).unwrap();
    session.advance_to(SimTime::from_ms(3_000));
    session.seek(SimTime::from_ms(600));
    let hash_at_600 = session.trace_hash();
    edit_leader_crash(&mut session);
    assert_eq!(session.horizon(), session.now(), "the old future is gone");
    assert_eq!(session.trace_hash(), hash_at_600);
    // The past cannot be rewritten through the session either.
    let mut rewritten = session.scenario().steps.clone();
    rewritten[0].at_ms = 100;
    assert!(session.set_future_steps(rewritten).is_err());
    let mut bad = session.scenario().steps.clone();
    bad.push(at(
        2_500,
        Action::Crash {
            target: NodeTarget::Node(NodeId(40)),
        },
    ));
    let refused = session.set_future_steps(bad).unwrap_err();
    assert!(
        refused.contains("n41") || refused.contains("node"),
        "{refused}"
    );
}

#[test]
fn the_lane_places_a_byzantine_step_on_a_node_by_its_mode_name() {
    use quorumlab_sim::action::ByzantineMode;
    let kind = FaultKind::from_name("byzantine: equivocate").expect("a listed kind");
    assert_eq!(kind.amount(), None);
    let steps = kind.steps(0, 1_500, 0).unwrap();
    assert_eq!(
        steps,
        vec![Step {
            at_ms: 1_500,
            action: Action::Byzantine {
                target: NodeTarget::Node(NodeId(0)),
                mode: ByzantineMode::Equivocate,
            },
        }]
    );
    let names: Vec<&str> = FaultKind::ALL.iter().map(|kind| kind.name()).collect();
    let unique: std::collections::BTreeSet<&str> = names.iter().copied().collect();
    assert_eq!(
        names.len(),
        unique.len(),
        "every kind has its own name: {names:?}"
    );
}

#[test]
fn a_partition_can_cut_off_a_group_of_nodes() {
    let steps = partition_steps(&[3, 1, 3], Some(5), 2_000, 700).unwrap();
    assert_eq!(
        steps,
        vec![
            at(
                2_000,
                Action::Partition {
                    groups: vec![vec![NodeId(1), NodeId(3)]]
                }
            ),
            at(2_700, Action::Heal),
        ]
    );
    let marks = lane_marks(&steps, 0);
    assert_eq!((marks.len(), marks[0].end_ms), (1, Some(2_700)));
    // The group travels in the scenario like any step: the run cuts n2 and n4 off together.
    let mut scenario = example("leader-crash.toml");
    scenario.steps = steps;
    let mut run = ScenarioRun::new(scenario).unwrap();
    run.advance_to(SimTime::from_ms(2_100));
    let network = run.world().network();
    let cut = |from: u16, to: u16| !network.link_up(NodeId(from), NodeId(to));
    assert!(!cut(1, 3), "n2 and n4 are on one side");
    assert!(cut(1, 0) && cut(3, 4), "and cut off from the rest");
}

#[test]
fn a_partition_must_leave_someone_on_the_other_side() {
    assert!(partition_steps(&[0, 1, 2], Some(3), 1_000, 500)
        .unwrap_err()
        .contains("both sides"));
    assert!(partition_steps(&[], Some(3), 1_000, 500).is_err());
    assert!(partition_steps(&[0], Some(3), 1_000, 5)
        .unwrap_err()
        .contains("at least 10 ms"));
}

#[test]
fn a_slow_disk_is_placed_with_its_write_time_and_zero_makes_it_normal() {
    use quorumlab_sim::action::{Action, NodeTarget};
    use quorumlab_sim::ids::NodeId;
    let target = NodeTarget::Node(NodeId(1));
    let slow = FaultKind::SlowDisk.steps(1, 300, 1_000).unwrap();
    assert_eq!(
        slow[0].action,
        Action::SlowDisk {
            target,
            persist_ms: Some((1_000, 1_000))
        }
    );
    let normal = FaultKind::SlowDisk.steps(1, 300, 0).unwrap();
    assert_eq!(
        normal[0].action,
        Action::SlowDisk {
            target,
            persist_ms: None
        }
    );
    assert!(FaultKind::SlowDisk
        .steps(1, 300, 20_000)
        .unwrap_err()
        .contains("0 to 10000 ms"));
    assert_eq!(FaultKind::from_name("slow disk"), Some(FaultKind::SlowDisk));
}
