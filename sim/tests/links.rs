//! The network per link: a link's own delay, drop and duplicate rates, the regions preset, and a
//! learner's hand on one message in flight (drop it, hold it back), observed through the trace, the
//! view, the narration and the scenario format.

use quorumlab_sim::action::{Action, NodeTarget, RequestKind};
use quorumlab_sim::ids::NodeId;
use quorumlab_sim::link_settings::{LinkSettings, MAX_LINK_DELAY_MS};
use quorumlab_sim::narration::Narrator;
use quorumlab_sim::runner::ScenarioRun;
use quorumlab_sim::scenario::{parse_scenario, to_toml_string, EXAMPLES};
use quorumlab_sim::time::SimTime;
use quorumlab_sim::trace::TraceEvent;
use quorumlab_sim::{ActionOutcome, World, WorldConfig};

fn slow(one: u16, other: u16, delay_ms: (u64, u64)) -> Action {
    Action::SetLink {
        between: (NodeId(one), NodeId(other)),
        settings: LinkSettings {
            delay_ms: Some(delay_ms),
            ..LinkSettings::default()
        },
    }
}

/// (send time, delivery time) of every message between `one` and `other`, either way.
fn flights_between(world: &World, one: u16, other: u16) -> Vec<(u64, u64)> {
    let pair = |from: NodeId, to: NodeId| {
        (from, to) == (NodeId(one), NodeId(other)) || (from, to) == (NodeId(other), NodeId(one))
    };
    world
        .trace()
        .records()
        .filter_map(|record| match record.event {
            TraceEvent::Send {
                from,
                to,
                deliver_at_us,
                ..
            } if pair(from, to) => Some((record.at_us, deliver_at_us)),
            _ => None,
        })
        .collect()
}

/// Mean time from a write's submission to its acknowledgement, in µs, over `world`'s finished writes.
fn mean_commit_latency_us(world: &World) -> u64 {
    let finished: Vec<u64> = world
        .clients()
        .recent
        .iter()
        .filter_map(|record| Some(record.finished_at_us? - record.submitted_at_us))
        .collect();
    assert!(!finished.is_empty(), "some writes finished");
    finished.iter().sum::<u64>() / finished.len() as u64
}

fn writes(world: &mut World, count: u32) {
    world.apply(&Action::Request {
        count,
        target: NodeTarget::Leader,
        kind: RequestKind::Put,
    });
}

#[test]
fn a_slow_link_delays_both_directions_and_only_that_link() {
    let mut world = World::new(WorldConfig::raft(3, 5)).unwrap();
    assert_eq!(world.apply(&slow(2, 0, (200, 300))), ActionOutcome::Applied);
    world.run_until(SimTime::from_ms(2_000));
    let slow_flights = flights_between(&world, 0, 2);
    assert!(!slow_flights.is_empty());
    assert!(slow_flights
        .iter()
        .all(|(sent, due)| (200_000..=300_000).contains(&(due - sent))));
    let usual = flights_between(&world, 0, 1);
    assert!(usual
        .iter()
        .all(|(sent, due)| (5_000..=15_000).contains(&(due - sent))));
    let view = world.view();
    assert_eq!(view.link_settings.len(), 1);
    assert_eq!(view.link_settings[0].between, (NodeId(0), NodeId(2)));
}

#[test]
fn clearing_a_link_gives_it_back_the_world_timing() {
    let mut world = World::new(WorldConfig::raft(3, 5)).unwrap();
    world.apply(&slow(0, 2, (200, 300)));
    world.run_until(SimTime::from_ms(500));
    world.apply(&Action::ClearLink {
        between: Some((NodeId(2), NodeId(0))),
    });
    let cleared_at_us = world.now().as_micros();
    world.run_until(SimTime::from_ms(1_500));
    let after: Vec<(u64, u64)> = flights_between(&world, 0, 2)
        .into_iter()
        .filter(|(sent, _)| *sent > cleared_at_us)
        .collect();
    assert!(!after.is_empty());
    assert!(after.iter().all(|(sent, due)| due - sent <= 15_000));
    assert!(world.view().link_settings.is_empty());
}

#[test]
fn a_link_that_always_drops_loses_every_message_on_it() {
    let mut world = World::new(WorldConfig::raft(3, 5)).unwrap();
    let lossy = Action::SetLink {
        between: (NodeId(0), NodeId(1)),
        settings: LinkSettings {
            drop_ppm: Some(1_000_000),
            ..LinkSettings::default()
        },
    };
    world.apply(&lossy);
    world.run_until(SimTime::from_ms(1_000));
    let sends: Vec<bool> = world
        .trace()
        .records()
        .filter_map(|record| match record.event {
            TraceEvent::Send {
                from, to, dropped, ..
            } if (from.0, to.0) == (0, 1) || (from.0, to.0) == (1, 0) => Some(dropped),
            _ => None,
        })
        .collect();
    assert!(!sends.is_empty());
    assert!(sends.iter().all(|dropped| *dropped));
}

/// Mean commit latency of nine writes to a five-node cluster, after `setup` (given the leader) ran.
fn latency_after(setup: impl Fn(u16) -> Vec<Action>) -> u64 {
    let mut world = World::new(WorldConfig::raft(5, 4)).unwrap();
    world.run_until(SimTime::from_ms(600));
    let leader = world.current_leader().expect("a leader by 600 ms").0;
    for action in setup(leader) {
        assert_eq!(world.apply(&action), ActionOutcome::Applied);
    }
    for round in 1..=3 {
        world.run_until(SimTime::from_ms(600 + round * 400));
        writes(&mut world, 3);
    }
    world.run_until(SimTime::from_ms(3_000));
    mean_commit_latency_us(&world)
}

#[test]
fn a_slowed_follower_does_not_slow_the_majority_but_regions_do() {
    let plain = latency_after(|_| Vec::new());
    let follower_slowed = latency_after(|leader| {
        let follower = (leader + 1) % 5;
        (0..5)
            .filter(|other| *other != follower)
            .map(|other| slow(follower, other, (60, 90)))
            .collect()
    });
    let all_followers_slowed = latency_after(|leader| {
        (0..5)
            .filter(|other| *other != leader)
            .map(|other| slow(leader, other, (60, 90)))
            .collect()
    });
    let regions = latency_after(|_| {
        vec![Action::Regions {
            groups: vec![
                vec![NodeId(0), NodeId(1)],
                vec![NodeId(2), NodeId(3)],
                vec![NodeId(4)],
            ],
        }]
    });
    assert!(
        follower_slowed < plain + 15_000,
        "the quorum does not wait for one slow follower: {follower_slowed} µs vs {plain} µs"
    );
    assert!(
        all_followers_slowed > plain + 100_000,
        "a round trip over slow links to every follower: {all_followers_slowed} µs vs {plain} µs"
    );
    assert!(
        regions > plain + 60_000,
        "every write waits for another region: {regions} µs vs {plain} µs"
    );
}

#[test]
fn bad_link_settings_are_refused_and_change_nothing() {
    let mut world = World::new(WorldConfig::raft(3, 5)).unwrap();
    let refused = [
        slow(0, 1, (10, MAX_LINK_DELAY_MS + 1)),
        slow(0, 1, (50, 10)),
        slow(1, 1, (10, 20)),
        slow(0, 7, (10, 20)),
        Action::SetLink {
            between: (NodeId(0), NodeId(1)),
            settings: LinkSettings::default(),
        },
        Action::SetLink {
            between: (NodeId(0), NodeId(1)),
            settings: LinkSettings {
                drop_ppm: Some(1_000_001),
                ..LinkSettings::default()
            },
        },
        Action::Regions {
            groups: vec![vec![NodeId(0)]],
        },
        Action::Regions {
            groups: vec![vec![NodeId(0)], vec![NodeId(0), NodeId(1)]],
        },
    ];
    for action in &refused {
        match world.apply(action) {
            ActionOutcome::Skipped { reason } => assert!(!reason.is_empty()),
            ActionOutcome::Applied => panic!("{action:?} was applied"),
        }
    }
    assert!(world.view().link_settings.is_empty());
}

/// The first message from `from` to `to` in flight once the run reaches `at_ms`.
fn message_in_flight(world: &mut World, from: u16, to: u16, at_ms: u64) -> u64 {
    world.run_until(SimTime::from_ms(at_ms));
    for _ in 0..10_000 {
        let found = world
            .view()
            .messages
            .iter()
            .find(|message| (message.from.0, message.to.0) == (from, to) && !message.dropped)
            .map(|message| message.id);
        if let Some(id) = found {
            return id;
        }
        world.step();
    }
    panic!("no message from n{} to n{} in flight", from + 1, to + 1);
}

fn delivered(world: &World, id: u64) -> Option<u64> {
    world
        .trace()
        .records()
        .find_map(|record| match record.event {
            TraceEvent::Deliver { id: delivered, .. } if delivered == id => Some(record.at_us),
            _ => None,
        })
}

#[test]
fn a_dropped_message_never_arrives_and_the_narration_says_what_it_means() {
    let mut world = World::new(WorldConfig::raft(3, 5)).unwrap();
    world.run_until(SimTime::from_ms(800));
    let leader = world.current_leader().unwrap().0;
    let follower = (leader + 1) % 3;
    let id = message_in_flight(&mut world, leader, follower, 800);
    let drop = Action::DropMessage {
        message: id,
        from: NodeId(leader),
        to: NodeId(follower),
    };
    assert_eq!(world.apply(&drop), ActionOutcome::Applied);
    assert!(world.view().messages.iter().all(|message| message.id != id));
    world.run_until(SimTime::from_ms(1_200));
    assert_eq!(delivered(&world, id), None);
    let mut narrator = Narrator::for_world(&world);
    assert!(narrator.catch_up(world.trace()));
    let text = format!(
        "You dropped n{}'s Heartbeat to n{}; n{} will hear from n{} at the next heartbeat",
        leader + 1,
        follower + 1,
        follower + 1,
        leader + 1
    );
    assert!(
        narrator.lines().any(|line| line.text.starts_with(&text)),
        "{text}"
    );
    match world.apply(&drop) {
        ActionOutcome::Skipped { reason } => assert!(reason.contains("no longer in flight")),
        ActionOutcome::Applied => panic!("a message cannot be dropped twice"),
    }
}

#[test]
fn a_held_message_arrives_that_much_later_and_a_wrong_one_is_refused() {
    let mut world = World::new(WorldConfig::raft(3, 5)).unwrap();
    let leader = {
        world.run_until(SimTime::from_ms(800));
        world.current_leader().unwrap().0
    };
    let follower = (leader + 1) % 3;
    let id = message_in_flight(&mut world, leader, follower, 800);
    let due_us = world.network().in_flight[&id].deliver_at.as_micros();
    let wrong_way = Action::HoldMessage {
        message: id,
        from: NodeId(follower),
        to: NodeId(leader),
        by_ms: 100,
    };
    assert!(matches!(
        world.apply(&wrong_way),
        ActionOutcome::Skipped { .. }
    ));
    let hold = Action::HoldMessage {
        message: id,
        from: NodeId(leader),
        to: NodeId(follower),
        by_ms: 100,
    };
    assert_eq!(world.apply(&hold), ActionOutcome::Applied);
    world.run_until(SimTime::from_ms(1_500));
    assert_eq!(delivered(&world, id), Some(due_us + 100_000));
    let mut narrator = Narrator::for_world(&world);
    assert!(narrator.catch_up(world.trace()));
    let held = format!(
        "You held n{}'s Heartbeat to n{} back by 100 ms; ",
        leader + 1,
        follower + 1
    );
    assert!(
        narrator.lines().any(|line| line.text.starts_with(&held)),
        "{held}"
    );
}

#[test]
fn the_same_link_and_message_actions_replay_to_the_same_hash() {
    let run = || {
        let mut world = World::new(WorldConfig::raft(3, 5)).unwrap();
        world.apply(&slow(0, 2, (30, 60)));
        let id = message_in_flight(&mut world, 0, 1, 700);
        world.apply(&Action::HoldMessage {
            message: id,
            from: NodeId(0),
            to: NodeId(1),
            by_ms: 50,
        });
        world.run_until(SimTime::from_ms(2_000));
        world.trace_hash()
    };
    let plain = {
        let mut world = World::new(WorldConfig::raft(3, 5)).unwrap();
        world.run_until(SimTime::from_ms(2_000));
        world.trace_hash()
    };
    assert_eq!(run(), run());
    assert_ne!(run(), plain);
}

#[test]
fn every_new_step_reads_back_from_its_export() {
    for name in ["slow-follower.toml", "two-regions.toml"] {
        let text = EXAMPLES
            .iter()
            .find(|(file, _)| *file == name)
            .map(|(_, text)| *text)
            .expect("listed in EXAMPLES");
        let scenario = parse_scenario(text, name).unwrap();
        let again = parse_scenario(&to_toml_string(&scenario), name).unwrap();
        assert_eq!(scenario, again);
    }
}

#[test]
fn mistakes_in_the_new_steps_point_at_their_line_and_column() {
    let file = |step: &str| {
        format!(
            "protocol = \"raft\"\nnodes = 3\nduration_ms = 1000\n\n[[step]]\nat_ms = 10\n{step}"
        )
    };
    let cases = [
        (
            "do = \"link\"\nbetween = [\"n1\", \"n1\"]\ndelay_ms = [5, 9]\n",
            "8:18: step 1 key `between`: a link joins two different nodes",
        ),
        (
            "do = \"link\"\nbetween = [\"n1\", \"n2\"]\ndelay_ms = [5, 10001]\n",
            "9:16: step 1 key `delay_ms`: 10001 is out of range: expected 0 to 10000",
        ),
        (
            "do = \"link\"\nbetween = [\"n1\", \"n2\"]\n",
            "5:1: step 1 key `delay_ms`: missing (required by action `link`",
        ),
        (
            "do = \"regions\"\ngroups = [[\"n1\", \"n2\", \"n3\"]]\n",
            "8:10: step 1 key `groups`: expected 2 to 5 regions, found 1",
        ),
        (
            "do = \"hold_message\"\nmessage = 4\nfrom = \"n1\"\nto = \"n2\"\nby_ms = 0\n",
            "11:9: step 1 key `by_ms`: 0 is out of range: expected 1 to 60000",
        ),
        (
            "do = \"drop_message\"\nmessage = 4\nfrom = \"n1\"\nto = \"n9\"\n",
            "10:6: step 1 key `to`: node `n9` is out of range",
        ),
    ];
    for (step, expected) in cases {
        let error = parse_scenario(&file(step), "bad.toml")
            .unwrap_err()
            .to_string();
        assert!(
            error.starts_with(&format!("bad.toml:{expected}")),
            "{error}\n  expected bad.toml:{expected}"
        );
    }
}

/// Mean commit latency of an example run, and of the same file with its network steps left out.
fn example_latencies(name: &str) -> (u64, u64) {
    let text = EXAMPLES
        .iter()
        .find(|(file, _)| *file == name)
        .map(|(_, text)| *text)
        .expect("listed in EXAMPLES");
    let scenario = parse_scenario(text, name).unwrap();
    let mut plain = scenario.clone();
    plain
        .steps
        .retain(|step| matches!(step.action, Action::Request { .. }));
    assert!(plain.steps.len() < scenario.steps.len());
    let latency = |scenario| {
        let mut run = ScenarioRun::new(scenario).unwrap();
        run.run_to_end();
        assert!(run.skipped_steps().is_empty());
        mean_commit_latency_us(run.world())
    };
    let (with_steps, without) = (latency(scenario), latency(plain));
    eprintln!(
        "{name}: mean commit latency {with_steps} µs, {without} µs without its network steps"
    );
    (with_steps, without)
}

#[test]
fn the_slow_follower_example_commits_as_fast_as_without_it() {
    let (slowed, plain) = example_latencies("slow-follower.toml");
    assert!(
        slowed < plain + 10_000,
        "the majority is fast: {slowed} µs vs {plain} µs"
    );
}

#[test]
fn the_two_regions_example_makes_every_write_pay_the_long_link() {
    let (regions, plain) = example_latencies("two-regions.toml");
    assert!(
        regions > plain + 60_000,
        "a round trip between regions per write: {regions} µs vs {plain} µs"
    );
}

#[test]
fn a_trace_file_carries_link_and_message_actions_and_replays_them() {
    use quorumlab_sim::history::RecordedAction;
    use quorumlab_sim::runner::world_config;
    use quorumlab_sim::trace_file::{parse_trace_file, replay, write_trace_file};
    let scenario = quorumlab_sim::scenario::Scenario::new("links", 3, 3_000);
    let mut world = World::new(world_config(&scenario)).unwrap();
    let mut recorded = Vec::new();
    let mut apply = |world: &mut World, action: Action| {
        recorded.push(RecordedAction {
            at: world.now(),
            after_events: world.events_processed(),
            action: action.clone(),
        });
        assert_eq!(world.apply(&action), ActionOutcome::Applied, "{action:?}");
    };
    world.run_until(SimTime::from_ms(200));
    apply(&mut world, slow(0, 2, (40, 70)));
    world.run_until(SimTime::from_ms(700));
    let leader = world.current_leader().expect("a leader by 700 ms").0;
    let (first, second) = ((leader + 1) % 3, (leader + 2) % 3);
    let id = message_in_flight(&mut world, leader, first, 700);
    let hold = Action::HoldMessage {
        message: id,
        from: NodeId(leader),
        to: NodeId(first),
        by_ms: 30,
    };
    apply(&mut world, hold);
    let other = message_in_flight(&mut world, leader, second, 900);
    apply(
        &mut world,
        Action::DropMessage {
            message: other,
            from: NodeId(leader),
            to: NodeId(second),
        },
    );
    apply(
        &mut world,
        Action::Regions {
            groups: vec![vec![NodeId(0)], vec![NodeId(1), NodeId(2)]],
        },
    );
    apply(&mut world, Action::ClearLink { between: None });
    world.run_until(SimTime::from_ms(1_500));
    let text = write_trace_file(&scenario, &recorded, &world);
    let file = parse_trace_file(&text).unwrap();
    let actions: Vec<Action> = file
        .actions
        .iter()
        .map(|recorded| recorded.action.clone())
        .collect();
    let written: Vec<Action> = recorded
        .iter()
        .map(|recorded| recorded.action.clone())
        .collect();
    assert_eq!(actions, written);
    assert_eq!(replay(&file).unwrap().trace_hash(), world.trace_hash());
}

/// Pairs of sends that are one message sent twice: adjacent `Send` records at the same instant, with
/// consecutive ids, the same ends and the same kind. Returned as ((from, to), first id, second id).
fn duplicated_sends(world: &World) -> Vec<((u16, u16), u64, u64)> {
    let sends: Vec<(u64, u64, u16, u16, &'static str)> = world
        .trace()
        .records()
        .filter_map(|record| match record.event {
            TraceEvent::Send {
                id,
                from,
                to,
                label,
                ..
            } => Some((record.at_us, id, from.0, to.0, label)),
            _ => None,
        })
        .collect();
    sends
        .windows(2)
        .filter(|pair| {
            let (a, b) = (pair[0], pair[1]);
            a.0 == b.0 && b.1 == a.1 + 1 && (a.2, a.3, a.4) == (b.2, b.3, b.4)
        })
        .map(|pair| ((pair[0].2, pair[0].3), pair[0].1, pair[1].1))
        .collect()
}

#[test]
fn a_link_duplicate_rate_sends_copies_on_that_link_only_and_the_same_ones_for_a_seed() {
    let run = |duplicate_ppm: Option<u32>| {
        let mut world = World::new(WorldConfig::raft(3, 5)).unwrap();
        if let Some(duplicate_ppm) = duplicate_ppm {
            let doubling = Action::SetLink {
                between: (NodeId(1), NodeId(0)),
                settings: LinkSettings {
                    duplicate_ppm: Some(duplicate_ppm),
                    ..LinkSettings::default()
                },
            };
            assert_eq!(world.apply(&doubling), ActionOutcome::Applied);
        }
        world.run_until(SimTime::from_ms(2_000));
        world
    };
    // Without the setting nothing is sent twice: the pairs found below are the link's doing.
    assert_eq!(duplicated_sends(&run(None)), []);

    let world = run(Some(500_000));
    let doubled = duplicated_sends(&world);
    let on_link = |(from, to): (u16, u16)| matches!((from, to), (0, 1) | (1, 0));
    assert!(
        doubled.iter().all(|(ends, _, _)| on_link(*ends)),
        "only n1–n2 duplicates: {doubled:?}"
    );
    let messages_on_link = flights_between(&world, 0, 1).len() - doubled.len();
    assert!(
        messages_on_link >= 20,
        "{messages_on_link} messages on the link"
    );
    let share = doubled.len() as f64 / messages_on_link as f64;
    assert!(
        (0.3..=0.7).contains(&share),
        "about half the messages on the link are sent twice: {} of {messages_on_link}",
        doubled.len()
    );
    // Both copies arrive (the link drops nothing), each as a delivery of its own.
    let delivered_ids: Vec<u64> = world
        .trace()
        .records()
        .filter_map(|record| match record.event {
            TraceEvent::Deliver { id, .. } => Some(id),
            _ => None,
        })
        .collect();
    let both_arrived = doubled
        .iter()
        .filter(|(_, first, second)| {
            delivered_ids.contains(first) && delivered_ids.contains(second)
        })
        .count();
    assert!(
        both_arrived + 2 >= doubled.len(),
        "{both_arrived} of {} duplicated messages arrived twice",
        doubled.len()
    );
    // The link's other settings stay the world's: no copy is lost, none is slow.
    assert!(flights_between(&world, 0, 1)
        .iter()
        .all(|(sent, due)| (5_000..=15_000).contains(&(due - sent))));

    // The same seed and setting duplicate the same messages, to the same trace hash.
    let again = run(Some(500_000));
    assert_eq!(duplicated_sends(&again), doubled);
    assert_eq!(again.trace_hash(), world.trace_hash());
    assert_ne!(world.trace_hash(), run(None).trace_hash());
}
