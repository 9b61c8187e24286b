//! The v4 body: every action kind and every protocol survive a link, and a body that is forged —
//! lengths promising more than the link holds, overlong numbers, unknown codes, bytes after the end
//! — is refused by name before anything large is allocated. Also random damage to the recorded
//! v1–v3 links behind a recomputed checksum: an error or a valid run, never a panic.

use super::recorded_links::Recorded;
use super::*;
use quorumlab_sim::config::{
    LockServiceOptions, PaxosOptions, PaxosRemedy, PbftOptions, ProtocolConfig, QueueOptions,
    SchedulerMode, SchedulerOptions, ZkRecipe,
};
use quorumlab_sim::scenario::Invalid;

#[test]
fn every_action_kind_survives_a_v4_link() {
    let run = sample_run();
    let fragment = encode_fragment(&run).unwrap();
    assert!(fragment.starts_with("#/run/v4/"));
    let decoded = decode_fragment(&fragment).unwrap();
    let kinds: Vec<Action> = decoded
        .actions
        .into_iter()
        .map(|recorded| recorded.action)
        .collect();
    assert_eq!(kinds, every_action());
    assert_eq!(decoded.scenario.steps, run.scenario.steps);
}

/// One run of each coordination workload, each scheduler mode and each ZooKeeper recipe, with every
/// lock flag the protocol may set turned away from its default.
fn every_protocol() -> Vec<ProtocolConfig> {
    let locks = LockServiceOptions {
        workers: 3,
        lease_ttl_ms: 1_234,
        renew_ms: 321,
        fencing: false,
        check_lease_before_write: false,
        idempotency_key: false,
        think_ms: 0,
        work_ms: 600_000,
        op_timeout_ms: 77,
        initial_count: 1_000_000_000,
        ..LockServiceOptions::default()
    };
    let redis = LockServiceOptions {
        renew_ms: LockServiceOptions::default().renew_ms,
        unchecked_release: true,
        ..locks
    };
    let redlock = LockServiceOptions {
        renew_ms: LockServiceOptions::default().renew_ms,
        drift_allowance_ms: 0,
        ..locks
    };
    let mut protocols = vec![
        ProtocolConfig::Raft,
        ProtocolConfig::LockService(LockServiceOptions {
            fencing: true,
            ..locks
        }),
        ProtocolConfig::RedisLock(redis),
        ProtocolConfig::Redlock(redlock),
        ProtocolConfig::Zookeeper(locks, ZkRecipe::Herd),
        ProtocolConfig::Zookeeper(locks, ZkRecipe::Sequential),
        ProtocolConfig::WorkQueue(
            LockServiceOptions {
                fencing: true,
                ..locks
            },
            QueueOptions {
                partitioned: false,
                accounts: 10_000,
            },
        ),
        ProtocolConfig::Paxos(
            LockServiceOptions {
                workers: 4,
                fencing: false,
                think_ms: 7,
                ..LockServiceOptions::default()
            },
            PaxosOptions {
                remedy: PaxosRemedy::Leader,
                durable_acceptors: false,
                round_timeout_ms: 60_000,
                backoff_ms: 1,
                stagger_ms: 0,
                learners: 0,
            },
        ),
        ProtocolConfig::Paxos(
            LockServiceOptions {
                workers: 2,
                fencing: false,
                ..LockServiceOptions::default()
            },
            PaxosOptions {
                learners: 3,
                ..PaxosOptions::default()
            },
        ),
        ProtocolConfig::Pbft(
            LockServiceOptions {
                workers: 3,
                fencing: false,
                ..LockServiceOptions::default()
            },
            PbftOptions {
                quorum: 2,
                request_interval_ms: 60_000,
                view_timeout_ms: 1,
            },
        ),
    ];
    for mode in [
        SchedulerMode::None,
        SchedulerMode::LockEveryRun,
        SchedulerMode::LeaderElection,
        SchedulerMode::LeaderFencing,
    ] {
        let scheduler = SchedulerOptions {
            mode,
            minute_ms: 600_000,
        };
        protocols.push(ProtocolConfig::Scheduler(locks, scheduler));
    }
    // Every world the registry lists, at its defaults (worlds added later than this list).
    for entry in quorumlab_sim::registry::ENTRIES {
        let defaults = (entry.defaults)();
        if !protocols
            .iter()
            .any(|protocol| protocol.kind() == entry.kind)
        {
            protocols.push(defaults);
        }
    }
    protocols
}

#[test]
fn every_protocol_survives_a_v4_link() {
    let mut seen = Vec::new();
    for coordination in every_protocol() {
        let mut scenario = Scenario::new("every protocol", 3, 10_000);
        // Worlds with one server (a single Redis lock, a two-phase-commit coordinator) get one.
        if quorumlab_sim::coordination::servers_fit(3, &coordination).is_err() {
            scenario.node_count = 1;
        }
        scenario.protocol = coordination;
        seen.push(scenario.protocol_name());
        let run = SharedRun {
            scenario,
            actions: Vec::new(),
            position: SimTime::from_ms(5),
            lesson: None,
        };
        let fragment = encode_fragment(&run).unwrap();
        assert_eq!(decode_fragment(&fragment), Ok(run.clone()), "{fragment}");
        assert!(open(run).is_ok(), "{fragment}");
    }
    for protocol in quorumlab_sim::registry::names() {
        assert!(seen.contains(&protocol), "{protocol} not covered");
    }
}

/// The v4 body of a run with no steps, no actions, position 0 and no lesson ends in four zero bytes:
/// the step count, the action count, the position and "no lesson".
fn empty_run_body() -> Vec<u8> {
    let mut run = sample_run();
    run.scenario.steps.clear();
    run.actions.clear();
    run.position = SimTime::ZERO;
    let body = v4_body(&run);
    assert_eq!(body[body.len() - 4..], [0, 0, 0, 0]);
    body
}

/// `body` with its last four bytes replaced by `tail`, then `padding` zero bytes.
fn forged(body: &[u8], tail: &[u8], padding: usize) -> String {
    let mut bytes = body[..body.len() - 4].to_vec();
    bytes.extend_from_slice(tail);
    bytes.extend(std::iter::repeat_n(0, padding));
    v4_fragment_of_body(&bytes)
}

#[test]
fn a_forged_length_is_refused_before_allocating() {
    let body = empty_run_body();
    // 2^62 steps in a few bytes: the length is more than the bytes left, refused at once.
    let huge = [0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x40];
    assert_eq!(
        decode_error(&forged(&body, &huge, 0)),
        ShareError::Truncated {
            field: "steps".into()
        }
    );
    // 5 001 actions that the bytes could hold: over the link's limit, refused before reading one.
    let mut tail = vec![0];
    tail.extend_from_slice(&[0x89, 0x27]);
    assert_eq!(
        decode_error(&forged(&body, &tail, 5_001 * 3)),
        ShareError::Invalid(Invalid::TooMany {
            field: "recorded actions".into(),
            count: 5_001,
            max: 5_000
        })
    );
    // A title claiming 2^62 bytes.
    let title_at = 0;
    let mut bytes = body.clone();
    bytes.splice(title_at..title_at + 1, huge);
    assert!(matches!(
        decode_error(&v4_fragment_of_body(&bytes)),
        ShareError::Undecodable { .. }
    ));
}

#[test]
fn a_forged_partition_is_bounded_too() {
    let body = empty_run_body();
    // One action: no time, no events, Partition (variant 4) with 52 groups.
    let tail = [0, 1, 0, 0, 4, 52];
    assert_eq!(
        decode_error(&forged(&body, &tail, 200)),
        ShareError::Invalid(Invalid::TooMany {
            field: "partition groups".into(),
            count: 52,
            max: 51
        })
    );
}

#[test]
fn v4_bytes_after_the_end_overlong_numbers_and_unknown_codes_are_refused() {
    let body = empty_run_body();
    assert_eq!(
        decode_error(&forged(&body, &[0, 0, 0, 0, 0], 0)),
        ShareError::TrailingBytes { count: 1 }
    );
    // Position 0 spelled in two bytes.
    assert_eq!(
        decode_error(&forged(&body, &[0, 0, 0x80, 0x00, 0], 0)),
        ShareError::Undecodable {
            problem: "a number is not written in its shortest form"
        }
    );
    // "Some lesson" flag 2.
    assert!(matches!(
        decode_error(&forged(&body, &[0, 0, 0, 2], 0)),
        ShareError::Undecodable { problem } if problem.contains("yes/no")
    ));
    // One action of kind 23 (there are 23 kinds, 0..=22; 22 is a duplicated message).
    assert!(matches!(
        decode_error(&forged(&body, &[0, 1, 0, 0, 23], 4)),
        ShareError::Undecodable { problem } if problem.contains("unknown code")
    ));
    let mut unknown_protocol = body.clone();
    let protocol_at = 1 + sample_run().scenario.title.len();
    assert_eq!(unknown_protocol[protocol_at], 0, "Raft");
    unknown_protocol[protocol_at] = 7;
    assert!(matches!(
        decode_error(&v4_fragment_of_body(&unknown_protocol)),
        ShareError::Undecodable { .. }
    ));
    let cut = &body[..body.len() - 2];
    assert!(matches!(
        decode_error(&v4_fragment_of_body(cut)),
        ShareError::Undecodable { problem } if problem.contains("ends")
    ));
}

#[test]
fn a_v4_body_labelled_v2_is_refused_not_misread() {
    let fragment = encode_fragment(&sample_run()).unwrap();
    assert_eq!(
        decode_error(&fragment.replace("/v4/", "/v2/")),
        ShareError::Damaged
    );
}

/// Damage behind a recomputed FNV checksum, on every recorded v1–v3 link: an error, or a run that
/// passes validation, survives a v4 link unchanged and opens without panicking.
#[test]
fn damaged_legacy_links_are_an_error_or_a_valid_run() {
    let mut random = super::Random(0x1e6ac);
    let (mut refused, mut accepted) = (0, 0);
    for recorded in recorded_links_all() {
        let version = &recorded.fragment[LINK_PREFIX.len()..LINK_PREFIX.len() + 2];
        let body = recorded.body();
        for _ in 0..300 {
            let mutated = super::damaged(&body, &mut random);
            let fragment = {
                let mut writer = Writer::default();
                writer.raw(&mutated);
                writer.fragment(version)
            };
            match decode_fragment(&fragment) {
                Err(error) => {
                    assert!(!error.to_string().is_empty());
                    refused += 1;
                }
                Ok(decoded) => {
                    let again = encode_fragment(&decoded).unwrap();
                    assert_eq!(decode_fragment(&again).as_ref(), Ok(&decoded));
                    let short = decoded.position <= SimTime::from_ms(3_000)
                        && decoded
                            .actions
                            .last()
                            .is_none_or(|last| last.at <= SimTime::from_ms(3_000));
                    if short && decoded.scenario.timing.heartbeat_ms >= 10 {
                        let _ = open(decoded);
                    }
                    accepted += 1;
                }
            }
        }
    }
    assert!(refused > 1_000, "only {refused} refused");
    assert!(accepted > 10, "only {accepted} accepted");
}

fn recorded_links_all() -> impl Iterator<Item = &'static Recorded> {
    super::recorded_links::RECORDED.iter()
}
