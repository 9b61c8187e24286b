//! Disks (`[timing] persist_ms`, the `slow_disk` step): a reply that depends on a write leaves when
//! the write is done, a reply that needs none and a leader's AppendEntries leave at once, a slow disk slows only its own node,
//! a crash in the middle of a write sends nothing, and files read, refuse and write the keys back.

use quorumlab_sim::action::{Action, NodeTarget, RequestKind};
use quorumlab_sim::ids::NodeId;
use quorumlab_sim::runner::ScenarioRun;
use quorumlab_sim::scenario::{parse_scenario, to_toml_string};
use quorumlab_sim::time::SimTime;
use quorumlab_sim::trace::TraceEvent;
use quorumlab_sim::{ActionOutcome, World, WorldConfig};

const WIRE_US: u64 = 5_000;

fn world(persist_ms: (u64, u64), seed: u64) -> World {
    let mut config = WorldConfig::raft(3, seed);
    config.timing.network_delay_ms = (5, 5);
    config.timing.persist_ms = persist_ms;
    World::new(config).expect("a valid world")
}

/// Every reply `from` sent with `label` after `after_us`: (sent at, due at) in µs.
fn sends(world: &World, from: NodeId, label: &str, after_us: u64) -> Vec<(u64, u64)> {
    world
        .trace()
        .records()
        .filter(|record| record.at_us > after_us)
        .filter_map(|record| match record.event {
            TraceEvent::Send {
                from: sender,
                label: sent,
                deliver_at_us,
                ..
            } if sender == from && sent == label => Some((record.at_us, deliver_at_us)),
            _ => None,
        })
        .collect()
}

fn leader_and_followers(world: &World) -> (NodeId, NodeId, NodeId) {
    let leader = world.current_leader().expect("a leader by now");
    let mut others = (0..3).map(NodeId).filter(|node| *node != leader);
    (leader, others.next().unwrap(), others.next().unwrap())
}

#[test]
fn a_granted_vote_waits_for_the_voters_disk_and_an_instant_disk_does_not() {
    for (persist_ms, least_us) in [((20, 20), 20_000 + WIRE_US), ((0, 0), WIRE_US)] {
        let mut world = world(persist_ms, 3);
        world.run_until(SimTime::from_ms(2_000));
        let votes: Vec<(u64, u64)> = (0..3)
            .flat_map(|node| sends(&world, NodeId(node), "Vote granted", 0))
            .collect();
        assert!(!votes.is_empty(), "someone voted");
        for (sent_us, due_us) in votes {
            let took_us = due_us - sent_us;
            assert!(
                took_us >= least_us,
                "{persist_ms:?}: a vote took {took_us} µs"
            );
            if persist_ms == (0, 0) {
                assert_eq!(took_us, WIRE_US, "an instant disk adds nothing");
            }
        }
    }
}

#[test]
fn a_candidate_asks_after_its_write_and_a_leader_replicates_at_once() {
    let mut world = world((20, 20), 3);
    world.run_until(SimTime::from_ms(2_000));
    world.apply(&Action::Request {
        count: 1,
        target: NodeTarget::Leader,
        kind: RequestKind::Put,
    });
    world.run_until(SimTime::from_ms(2_200));
    let all = |label: &str| -> Vec<(u64, u64)> {
        (0..3)
            .flat_map(|node| sends(&world, NodeId(node), label, 0))
            .collect()
    };
    let asks = all("RequestVote");
    assert!(!asks.is_empty());
    assert!(asks
        .iter()
        .all(|(sent_us, due_us)| due_us - sent_us >= 20_000 + WIRE_US));
    let appends = all("AppendEntries");
    assert!(!appends.is_empty());
    assert!(appends
        .iter()
        .all(|(sent_us, due_us)| due_us - sent_us == WIRE_US));
}

#[test]
fn a_heartbeat_reply_needs_no_write_and_is_not_held() {
    let mut world = world((20, 20), 3);
    world.run_until(SimTime::from_ms(2_000));
    let (_, follower, _) = leader_and_followers(&world);
    let replies = sends(&world, follower, "AppendEntries ok", 1_000_000);
    assert!(!replies.is_empty(), "the follower answers heartbeats");
    assert!(replies
        .iter()
        .all(|(sent_us, due_us)| due_us - sent_us == WIRE_US));
}

#[test]
fn a_slow_disk_holds_its_own_nodes_replies_only_until_it_is_given_back() {
    let mut world = world((0, 0), 5);
    world.run_until(SimTime::from_ms(1_000));
    let (_, slow, other) = leader_and_followers(&world);
    let slow_disk = Action::SlowDisk {
        target: NodeTarget::Node(slow),
        persist_ms: Some((100, 100)),
    };
    assert_eq!(world.apply(&slow_disk), ActionOutcome::Applied);
    assert_eq!(world.persist_ms(slow), (100, 100));
    let write = Action::Request {
        count: 1,
        target: NodeTarget::Leader,
        kind: RequestKind::Put,
    };
    world.apply(&write);
    world.run_until(SimTime::from_ms(1_400));
    let slow_replies = sends(&world, slow, "AppendEntries ok", 1_000_000);
    let held = |replies: &[(u64, u64)]| {
        replies
            .iter()
            .any(|(sent_us, due_us)| due_us - sent_us >= 100_000 + WIRE_US)
    };
    assert!(held(&slow_replies), "{slow_replies:?}");
    assert!(!held(&sends(&world, other, "AppendEntries ok", 1_000_000)));
    let given_back = Action::SlowDisk {
        target: NodeTarget::Node(slow),
        persist_ms: None,
    };
    world.apply(&given_back);
    world.apply(&write);
    world.run_until(SimTime::from_ms(1_800));
    assert!(!held(&sends(&world, slow, "AppendEntries ok", 1_400_000)));
}

#[test]
fn a_node_that_crashes_mid_write_sends_nothing_after_it_went_down() {
    let mut world = world((0, 0), 5);
    world.run_until(SimTime::from_ms(1_000));
    let (_, slow, _) = leader_and_followers(&world);
    world.apply(&Action::SlowDisk {
        target: NodeTarget::Node(slow),
        persist_ms: Some((200, 200)),
    });
    world.apply(&Action::Request {
        count: 1,
        target: NodeTarget::Leader,
        kind: RequestKind::Put,
    });
    world.run_until(SimTime::from_ms(1_050));
    let waiting = sends(&world, slow, "AppendEntries ok", 1_000_000);
    assert!(!waiting.is_empty(), "its reply is waiting on the disk");
    world.apply(&Action::Crash {
        target: NodeTarget::Node(slow),
    });
    world.run_until(SimTime::from_ms(1_500));
    let crash_us = 1_050_000;
    let delivered_late = world.trace().records().any(|record| {
        record.at_us > crash_us
            && matches!(record.event, TraceEvent::Deliver { from, .. } if from == slow)
    });
    assert!(!delivered_late, "a crashed node's reply arrived");
    let told = world.trace().records().any(
        |record| matches!(&record.event, TraceEvent::Note { text } if text.contains("never left")),
    );
    assert!(told, "the trace says what was lost");
}

#[test]
fn a_run_with_disks_repeats_exactly_and_differs_from_one_without() {
    let run = |persist_ms| {
        let mut world = world(persist_ms, 11);
        world.run_until(SimTime::from_ms(3_000));
        world.trace_hash()
    };
    assert_eq!(run((5, 30)), run((5, 30)));
    assert_ne!(run((5, 30)), run((0, 0)));
}

const FILE: &str = "title = \"disk\"\nprotocol = \"raft\"\nnodes = 3\nduration_ms = 2000\n\n[timing]\npersist_ms = [4, 9]\n\n\
[[step]]\nat_ms = 500\ndo = \"slow_disk\"\ntarget = \"n2\"\npersist_ms = [50, 80]\n\n\
[[step]]\nat_ms = 900\ndo = \"slow_disk\"\ntarget = \"n2\"\n";

#[test]
fn files_read_and_write_back_the_disk_keys_and_the_step() {
    let scenario = parse_scenario(FILE, "disk.toml").expect("parses");
    assert_eq!(scenario.timing.persist_ms, (4, 9));
    assert_eq!(
        scenario.steps[0].action,
        Action::SlowDisk {
            target: NodeTarget::Node(NodeId(1)),
            persist_ms: Some((50, 80)),
        }
    );
    assert_eq!(
        scenario.steps[1].action,
        Action::SlowDisk {
            target: NodeTarget::Node(NodeId(1)),
            persist_ms: None,
        }
    );
    let again = parse_scenario(&to_toml_string(&scenario), "again.toml").expect("parses");
    assert_eq!(again, scenario);
    let mut run = ScenarioRun::new(scenario).expect("builds");
    run.run_to_end();
    assert!(run.skipped_steps().is_empty());
}

#[test]
fn a_file_without_a_disk_writes_no_disk_key() {
    let scenario = parse_scenario(
        "protocol = \"raft\"\nnodes = 3\nduration_ms = 100\n",
        "plain.toml",
    )
    .expect("parses");
    assert!(!to_toml_string(&scenario).contains("persist_ms"));
}

#[test]
fn bad_disk_times_are_refused_with_the_key_named() {
    let cases = [
        ("persist_ms = [4, 9]", "persist_ms = [9, 4]", "9"),
        ("persist_ms = [4, 9]", "persist_ms = [4, 10001]", "10001"),
        ("persist_ms = [50, 80]", "persist_ms = [80, 50]", "80"),
        ("persist_ms = [50, 80]", "persist_ms = 50", "persist_ms"),
    ];
    for (good, bad, named) in cases {
        let text = FILE.replacen(good, bad, 1);
        let error = parse_scenario(&text, "bad.toml")
            .expect_err(bad)
            .to_string();
        assert!(error.contains(named), "{bad}: {error}");
        assert!(error.len() < 300, "short: {error}");
    }
}

#[test]
fn the_narration_tells_a_slow_disk_and_its_repair() {
    use quorumlab_sim::narration::actions::describe_action;
    let slow = describe_action(&Action::SlowDisk {
        target: NodeTarget::Node(NodeId(2)),
        persist_ms: Some((50, 80)),
    });
    assert!(slow.contains("n3") && slow.contains("50–80 ms"), "{slow}");
    let repaired = describe_action(&Action::SlowDisk {
        target: NodeTarget::Leader,
        persist_ms: None,
    });
    assert!(repaired.contains("world's speed"), "{repaired}");
}

#[test]
fn a_slow_disk_out_of_range_is_skipped_with_the_reason_and_changes_nothing() {
    let mut world = world((0, 0), 5);
    for persist_ms in [(20, 10), (0, 10_001)] {
        let outcome = world.apply(&Action::SlowDisk {
            target: NodeTarget::Node(NodeId(0)),
            persist_ms: Some(persist_ms),
        });
        let ActionOutcome::Skipped { reason } = outcome else {
            panic!("{persist_ms:?} applied");
        };
        assert!(
            reason.contains("ordered range of at most 10000 ms"),
            "{reason}"
        );
        assert_eq!(world.persist_ms(NodeId(0)), (0, 0));
    }
}
