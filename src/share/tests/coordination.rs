//! Coordination runs (lock service, Redis lock, Redlock, scheduler, ZooKeeper recipe, work queue) in
//! links: every example survives encode → decode → replay with the same trace hash, v1 links still
//! open, each coordination setting is checked against the scenario format's limits, and damage to a
//! coordination link is an error or a valid run, never a panic.

use super::*;
use quorumlab_sim::config::{
    LockServiceOptions, ProtocolConfig, QueueOptions, SchedulerMode, SchedulerOptions,
};
use quorumlab_sim::coordination::Layout;
use quorumlab_sim::scenario::Invalid;
use quorumlab_sim::scenario::{parse_scenario, EXAMPLES};

/// Every compiled-in example scenario with a coordination workload, parsed.
pub(super) fn coordination_examples() -> Vec<(String, Scenario)> {
    EXAMPLES
        .iter()
        .map(|(name, text)| (name.to_string(), parse_scenario(text, name).unwrap()))
        .filter(|(_, scenario)| scenario.protocol.is_coordination())
        .collect()
}

/// A session on `scenario` with learner actions on a worker and a server, then a seek back, so the
/// link carries a recorded future too.
pub(super) fn played(scenario: Scenario) -> Session {
    let layout = Layout::new(scenario.node_count, &scenario.protocol);
    let end = SimTime::from_ms(scenario.duration_ms.min(4_000));
    let mut session = Session::new(scenario).unwrap();
    session.advance_to(SimTime(end.0 / 4));
    session.apply(&Action::Pause {
        target: NodeTarget::Node(layout.worker(0)),
        duration_ms: Some(700),
    });
    session.advance_to(SimTime(end.0 / 2));
    session.apply(&Action::ClockJump {
        target: NodeTarget::Node(NodeId(0)),
        by_ms: 250,
    });
    session.advance_to(end);
    session.seek(SimTime(end.0 * 3 / 4));
    session
}

#[test]
fn every_coordination_example_replays_from_its_link_to_the_same_trace_hash() {
    let examples = coordination_examples();
    assert_eq!(examples.len(), 22, "one per coordination example");
    for (name, scenario) in examples {
        let mut original = played(scenario.clone());
        let run = capture(&original);
        let fragment = encode_fragment(&run).unwrap();
        assert!(fragment.starts_with("#/run/v4/"), "{name}");
        let decoded = decode_fragment(&fragment).unwrap();
        assert_eq!(decoded, run, "{name}: the link loses nothing");
        assert_eq!(decoded.scenario.protocol, scenario.protocol, "{name}");
        let mut opened = open(decoded).unwrap();
        assert_eq!(opened.now(), original.now(), "{name}");
        assert_eq!(
            opened.world().trace_hash(),
            original.world().trace_hash(),
            "{name}"
        );
        assert_eq!(opened.view(), original.view(), "{name}");
        let end = SimTime::from_ms(scenario.duration_ms);
        for session in [&mut original, &mut opened] {
            session.advance_to(end);
        }
        assert_eq!(
            opened.world().trace_hash(),
            original.world().trace_hash(),
            "{name}: both continue identically to the end"
        );
    }
}

#[test]
fn a_coordination_link_opens_as_its_protocol_not_as_raft() {
    let (_, scenario) = coordination_examples()
        .into_iter()
        .find(|(name, _)| name == "no-fencing-pause.toml")
        .unwrap();
    let run = capture(&Session::new(scenario).unwrap());
    let decoded = decode_fragment(&encode_fragment(&run).unwrap()).unwrap();
    assert_eq!(decoded.scenario.protocol_name(), "lock-service");
    assert!(!decoded.scenario.protocol.lock_options().unwrap().fencing);
}

#[test]
fn version_1_links_still_open_as_raft_runs() {
    let v1 = super::recorded_links::Recorded::named("v1 raft");
    let run = decode_fragment(v1.fragment).unwrap();
    assert_eq!(run.scenario.protocol_name(), "raft");
    assert_eq!(run.scenario.protocol, ProtocolConfig::Raft);
    // The same bytes read as v2 are misaligned and refused, never misread.
    let as_v2 = v1.fragment.replace("/v1/", "/v2/");
    assert!(decode_fragment(&as_v2).is_err());
}

/// A lock-service run whose coordination settings `edit` changes, then checked.
fn lock_run_error(edit: impl FnOnce(&mut Scenario)) -> ShareError {
    let (_, mut scenario) = coordination_examples()
        .into_iter()
        .find(|(name, _)| name == "fencing-pause.toml")
        .unwrap();
    edit(&mut scenario);
    let run = SharedRun {
        scenario,
        actions: Vec::new(),
        position: SimTime::ZERO,
        lesson: None,
    };
    let error = encode_fragment(&run).expect_err("refused before encoding");
    assert_eq!(decode_error(&unchecked_fragment(&run)), error, "and after");
    error
}

fn locks(scenario: &mut Scenario) -> &mut LockServiceOptions {
    scenario
        .protocol
        .lock_options_mut()
        .expect("a lock-service run")
}

#[test]
fn every_coordination_setting_is_checked_against_the_scenario_limits() {
    let error = lock_run_error(|scenario| locks(scenario).workers = 0);
    assert_eq!(error.to_string(), "locks.workers is 0; expected 1..=26");
    let error = lock_run_error(|scenario| locks(scenario).lease_ttl_ms = 0);
    assert_eq!(
        error.to_string(),
        "locks.lease_ttl_ms is 0; expected 1..=600000"
    );
    let error = lock_run_error(|scenario| locks(scenario).renew_ms = 600_001);
    assert_eq!(
        error.to_string(),
        "locks.renew_ms is 600001; expected 1..=600000"
    );
    let error = lock_run_error(|scenario| locks(scenario).op_timeout_ms = 0);
    assert!(error.to_string().starts_with("locks.op_timeout_ms is 0"));
    let error = lock_run_error(|scenario| locks(scenario).think_ms = u64::MAX);
    assert!(error.to_string().starts_with("locks.think_ms is"));
    let error = lock_run_error(|scenario| locks(scenario).work_ms = 600_001);
    assert!(error.to_string().starts_with("locks.work_ms is 600001"));
    let error = lock_run_error(|scenario| locks(scenario).initial_count = 1_000_000_001);
    assert_eq!(
        error.to_string(),
        "locks.initial_count is 1000000001; expected 0..=1000000000"
    );
    let error = lock_run_error(|scenario| locks(scenario).unchecked_release = true);
    assert_eq!(
        error.to_string(),
        "locks.unchecked_release is true; expected false (protocol \"lock-service\" does not set it)"
    );
    let error = lock_run_error(|scenario| locks(scenario).drift_allowance_ms = 5);
    assert!(error
        .to_string()
        .starts_with("locks.drift_allowance_ms is 5"));
    let error = lock_run_error(|scenario| {
        let options = *locks(scenario);
        scenario.protocol = ProtocolConfig::RedisLock(LockServiceOptions {
            fencing: false,
            ..options
        });
    });
    assert_eq!(
        error.to_string(),
        "nodes is 3; expected 1 (a single Redis server)"
    );
    let error = lock_run_error(|scenario| {
        let options = *locks(scenario);
        scenario.protocol = ProtocolConfig::Redlock(options);
    });
    assert!(error.to_string().starts_with("locks.fencing is true"));
    let error = lock_run_error(|scenario| {
        scenario.node_count = 40;
        locks(scenario).workers = 20;
    });
    assert_eq!(
        error.to_string(),
        "nodes is 40; expected at most 30 servers beside 21 other actors"
    );
    let error = lock_run_error(|scenario| {
        let options = *locks(scenario);
        let scheduler = SchedulerOptions {
            mode: SchedulerMode::LeaderFencing,
            minute_ms: 0,
        };
        scenario.protocol = ProtocolConfig::Scheduler(
            LockServiceOptions {
                fencing: false,
                ..options
            },
            scheduler,
        );
    });
    assert_eq!(
        error.to_string(),
        "scheduler.minute_ms is 0; expected 1..=600000"
    );
    let error = lock_run_error(|scenario| {
        let options = *locks(scenario);
        let queue = QueueOptions {
            partitioned: false,
            accounts: 10_001,
        };
        scenario.protocol = ProtocolConfig::WorkQueue(options, queue);
    });
    assert_eq!(
        error.to_string(),
        "queue.accounts is 10001; expected 1..=10000"
    );
}

#[test]
fn actions_may_name_workers_and_the_store_but_nothing_past_them() {
    let (_, scenario) = coordination_examples()
        .into_iter()
        .find(|(name, _)| name == "fencing-pause.toml")
        .unwrap();
    // 3 servers, workers A and B, the store: nodes 1..=6.
    let layout = Layout::new(3, &scenario.protocol);
    assert_eq!(layout.total(), 6);
    let mut run = SharedRun {
        scenario,
        actions: vec![RecordedAction {
            at: SimTime::from_ms(10),
            after_events: 0,
            action: Action::Crash {
                target: NodeTarget::Node(layout.store()),
            },
        }],
        position: SimTime::from_ms(10),
        lesson: None,
    };
    assert_eq!(
        decode_fragment(&encode_fragment(&run).unwrap()).unwrap(),
        run
    );
    run.actions[0].action = Action::Crash { target: node(7) };
    assert!(matches!(
        decode_error(&unchecked_fragment(&run)),
        ShareError::Invalid(Invalid::NodeOutOfRange {
            node: 7,
            node_count: 6,
            ..
        })
    ));
}

#[test]
fn unknown_coordination_codes_are_named() {
    let with = |rest: &[u64]| {
        let rest = rest.to_vec();
        fragment_of_body(move |writer| {
            writer.settings(3, false, false);
            for value in rest {
                writer.unsigned(value);
            }
        })
    };
    assert_eq!(
        decode_error(&with(&[9])),
        ShareError::UnknownCode {
            field: "protocol (coordination)".into(),
            code: 9
        }
    );
    let locks = [2, 1_000, 300, 100, 50, 300, 1_000, 12];
    let mut scheduler = vec![4];
    scheduler.extend(locks);
    scheduler.extend([0, 4]);
    assert_eq!(
        decode_error(&with(&scheduler)),
        ShareError::UnknownCode {
            field: "scheduler.mode".into(),
            code: 4
        }
    );
    let mut bad_bits = vec![1];
    bad_bits.extend(locks);
    bad_bits.push(16);
    assert_eq!(
        decode_error(&with(&bad_bits)),
        ShareError::UnknownCode {
            field: "locks options".into(),
            code: 16
        }
    );
    let mut zookeeper = vec![5];
    zookeeper.extend(locks);
    zookeeper.extend([0, 2]);
    assert_eq!(
        decode_error(&with(&zookeeper)),
        ShareError::UnknownCode {
            field: "zookeeper.recipe".into(),
            code: 2
        }
    );
    let mut too_many = vec![1, 27];
    too_many.extend(&locks[1..]);
    assert!(matches!(
        decode_error(&with(&too_many)),
        ShareError::Invalid(Invalid::OutOfRange { ref field, .. }) if field == "locks.workers"
    ));
}

/// Damage behind a recomputed checksum, on coordination links: an error or a valid run that
/// re-encodes to the same link and opens without panicking.
#[test]
fn damaged_coordination_links_never_panic() {
    let mut random = super::Random(0xc00d);
    let (mut refused, mut opened) = (0, 0);
    for (_, scenario) in coordination_examples() {
        let mut run = capture(&played(scenario));
        run.position = SimTime::from_ms(1_500);
        let body = v4_body(&run);
        for _ in 0..200 {
            let mutated = super::damaged(&body, &mut random);
            let fragment = v4_fragment_of_body(&mutated);
            match decode_fragment(&fragment) {
                Err(error) => {
                    assert!(!error.to_string().is_empty());
                    refused += 1;
                }
                Ok(decoded) => {
                    assert_eq!(encode_fragment(&decoded).unwrap(), fragment);
                    let short = decoded.position <= SimTime::from_ms(3_000)
                        && decoded
                            .actions
                            .last()
                            .is_none_or(|last| last.at <= SimTime::from_ms(3_000));
                    if short && decoded.scenario.timing.heartbeat_ms >= 10 {
                        let _ = open(decoded);
                        opened += 1;
                    }
                }
            }
        }
    }
    assert!(refused > 1_000, "only {refused} refused");
    assert!(opened > 10, "only {opened} opened");
}

/// The replay estimate covers what a coordination run really does (so every example opens), and a
/// link whose workers would spin (1 ms keep-alives, no think or work time, 26 workers, an hour) is
/// refused before replaying.
#[test]
fn the_replay_estimate_counts_the_workers_and_refuses_a_spinning_workload() {
    for (name, scenario) in coordination_examples() {
        let end = SimTime::from_ms(scenario.duration_ms);
        let mut session = Session::new(scenario).unwrap();
        session.advance_to(end);
        let run = capture(&session);
        let estimate = super::super::replay::estimated_replay_events(&run);
        let actual = session.world().events_processed();
        assert!(
            estimate >= actual,
            "{name}: estimated {estimate}, ran {actual}"
        );
        assert!(
            estimate < super::super::replay::MAX_ESTIMATED_EVENTS,
            "{name}"
        );
        assert!(open(run).is_ok(), "{name}");
    }
    let (_, mut scenario) = coordination_examples()
        .into_iter()
        .find(|(name, _)| name == "fencing-pause.toml")
        .unwrap();
    scenario.duration_ms = 3_600_000;
    scenario.steps.clear();
    let options = locks(&mut scenario);
    options.workers = 26;
    options.renew_ms = 1;
    options.think_ms = 0;
    options.work_ms = 0;
    let run = SharedRun {
        scenario,
        actions: Vec::new(),
        position: MAX_SHARED_TIME,
        lesson: None,
    };
    let fragment = encode_fragment(&run).unwrap();
    let Err(error) = open(decode_fragment(&fragment).unwrap()) else {
        panic!("an hour of 26 workers sending keep-alives every millisecond was replayed");
    };
    assert!(
        matches!(error, ShareError::TooLongToReplay { .. }),
        "{error}"
    );
}

/// A run keyed by batch carries its scope in the byte where earlier links wrote a yes/no, so the same
/// link never opens as the older, per-message behaviour; every run without the option writes the very
/// bytes it wrote before.
#[test]
fn a_run_keyed_by_batch_keeps_its_scope_and_other_runs_keep_their_bytes() {
    use quorumlab_sim::config::IdempotencyScope;
    use quorumlab_sim::lesson::SCENARIO_FILES;
    let (path, text) = SCENARIO_FILES
        .iter()
        .find(|(path, _)| path.ends_with("inventory-batch.toml"))
        .unwrap();
    let batch = parse_scenario(text, path).unwrap();
    assert_eq!(
        batch.protocol.lock_options().unwrap().idempotency_scope,
        IdempotencyScope::Batch
    );
    let mut by_message = batch.clone();
    locks(&mut by_message).idempotency_scope = IdempotencyScope::Message;
    let mut fragments = Vec::new();
    for scenario in [batch, by_message] {
        // The store paused while a worker computes: it gives its batch up, and only by batch is it
        // redone, so the two scopes part here.
        let layout = Layout::new(scenario.node_count, &scenario.protocol);
        let mut original = Session::new(scenario.clone()).unwrap();
        original.advance_to(SimTime::from_ms(1_150));
        original.apply(&Action::Pause {
            target: NodeTarget::Node(layout.store()),
            duration_ms: Some(2_000),
        });
        original.advance_to(SimTime::from_ms(4_000));
        let run = capture(&original);
        let fragment = encode_fragment(&run).unwrap();
        let decoded = decode_fragment(&fragment).unwrap();
        assert_eq!(decoded.scenario.protocol, scenario.protocol);
        let mut opened = open(decoded).unwrap();
        let end = SimTime::from_ms(6_000);
        original.advance_to(end);
        opened.advance_to(end);
        assert_eq!(opened.world().trace_hash(), original.world().trace_hash());
        fragments.push((fragment, original.world().trace_hash()));
    }
    let [(batch_link, batch_hash), (message_link, message_hash)] = &fragments[..] else {
        unreachable!("two runs");
    };
    assert_ne!(batch_hash, message_hash, "the scope changes the run");
    let bytes = |fragment: &str| payload::decode(fragment.rsplit('/').next().unwrap()).unwrap();
    let (batch_bytes, message_bytes) = (bytes(batch_link), bytes(message_link));
    assert_eq!(batch_bytes.len(), message_bytes.len());
    // One byte differs in the body (1 → 2, the scope), and the checksum after it.
    let body = batch_bytes.len() - 4;
    let differing: Vec<(u8, u8)> = (0..body)
        .filter(|&index| batch_bytes[index] != message_bytes[index])
        .map(|index| (message_bytes[index], batch_bytes[index]))
        .collect();
    assert_eq!(differing, vec![(1, 2)]);
}

/// A Redis lock whose workers ask again after a lost `OK` travels in a link of its own kind and
/// replays to the same run; the same run without retries is another run, written as before.
#[test]
fn a_redis_lock_that_retries_keeps_its_retries_in_the_link() {
    use quorumlab_sim::lesson::SCENARIO_FILES;
    let (path, text) = SCENARIO_FILES
        .iter()
        .find(|(path, _)| path.ends_with("redis-retry-calm.toml"))
        .unwrap();
    let retrying = parse_scenario(text, path).unwrap();
    assert_eq!(retrying.protocol.lock_options().unwrap().set_nx_retries, 2);
    let mut giving_up = retrying.clone();
    locks(&mut giving_up).set_nx_retries = 0;
    let mut hashes = Vec::new();
    for scenario in [retrying, giving_up] {
        // n1's OK to B is lost (see lesson 5 step 7); only a worker that asks again finds it held.
        let mut original = Session::new(scenario.clone()).unwrap();
        original.advance_to(SimTime::from_ms(1_000));
        original.apply(&Action::Cut {
            from: NodeTarget::Node(NodeId(0)),
            to: NodeTarget::Node(NodeId(2)),
            both: false,
        });
        original.advance_to(SimTime::from_ms(1_250));
        original.apply(&Action::Heal);
        original.advance_to(SimTime::from_ms(2_000));
        let run = capture(&original);
        let decoded = decode_fragment(&encode_fragment(&run).unwrap()).unwrap();
        assert_eq!(decoded.scenario.protocol, scenario.protocol);
        let mut opened = open(decoded).unwrap();
        let end = SimTime::from_ms(3_000);
        original.advance_to(end);
        opened.advance_to(end);
        assert_eq!(opened.world().trace_hash(), original.world().trace_hash());
        hashes.push(original.world().trace_hash());
    }
    assert_ne!(hashes[0], hashes[1], "asking again changes the run");
}
