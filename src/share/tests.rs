//! Share links: round trips, every way a link can be wrong, random damage, and the promise that matters
//! most — an opened link replays to the same trace hash as the run that made it.

use super::replay::{capture, open};
use super::validate::{MAX_SHARED_ACTIONS, MAX_SHARED_TIME};
use super::*;
use crate::session::Session;
use legacy_bytes::Writer;
use quorumlab_sim::action::{Action, ByzantineMode, MalformedFault, NodeTarget, RequestKind};
use quorumlab_sim::ids::NodeId;
use quorumlab_sim::link_settings::{LinkSettings, MAX_HOLD_MS, MAX_LINK_DELAY_MS};
use quorumlab_sim::scenario::Step;
use quorumlab_sim::ActionOutcome;

mod byzantine_modes;
mod coordination;
mod disks;
mod errors;
mod legacy_bytes;
mod lessons;
mod membership;
mod read_paths;
mod recorded_links;
mod registered;
mod v4_bodies;

pub(super) fn node(number: u16) -> NodeTarget {
    NodeTarget::Node(NodeId(number - 1))
}

/// One of every action kind, with their edge values.
pub(super) fn every_action() -> Vec<Action> {
    vec![
        Action::Crash {
            target: NodeTarget::Leader,
        },
        Action::Restart { target: node(5) },
        Action::Pause {
            target: node(1),
            duration_ms: Some(1_500),
        },
        Action::Pause {
            target: NodeTarget::Leader,
            duration_ms: None,
        },
        Action::Resume { target: node(1) },
        Action::Partition {
            groups: vec![vec![NodeId(0), NodeId(1)], vec![NodeId(4)]],
        },
        Action::Isolate { target: node(3) },
        Action::Cut {
            from: node(1),
            to: NodeTarget::Leader,
            both: true,
        },
        Action::Heal,
        Action::DropRate { ppm: 1_000_000 },
        Action::ClockJump {
            target: node(2),
            by_ms: -3_600_000,
        },
        Action::ClockDrift {
            target: node(2),
            ppm: -999_999,
        },
        Action::Request {
            count: 10_000,
            target: NodeTarget::Leader,
            kind: RequestKind::Get,
        },
        Action::Request {
            count: 1,
            target: node(4),
            kind: RequestKind::Put,
        },
        Action::SetLink {
            between: (NodeId(4), NodeId(0)),
            settings: LinkSettings {
                delay_ms: Some((0, MAX_LINK_DELAY_MS)),
                drop_ppm: Some(1_000_000),
                duplicate_ppm: None,
            },
        },
        Action::ClearLink {
            between: Some((NodeId(0), NodeId(4))),
        },
        Action::ClearLink { between: None },
        Action::Regions {
            groups: vec![vec![NodeId(0), NodeId(1)], vec![NodeId(2)], vec![NodeId(4)]],
        },
        Action::DropMessage {
            message: u64::MAX,
            from: NodeId(1),
            to: NodeId(0),
        },
        Action::HoldMessage {
            message: 1,
            from: NodeId(0),
            to: NodeId(4),
            by_ms: MAX_HOLD_MS,
        },
        Action::Byzantine {
            target: NodeTarget::Leader,
            mode: ByzantineMode::Equivocate,
        },
        Action::Byzantine {
            target: node(2),
            mode: ByzantineMode::Honest,
        },
        // Last, so the five-node sample may name what they add: n6, then n7 by its explicit id.
        Action::AddServer { id: None },
        Action::AddServer {
            id: Some(NodeId(6)),
        },
        Action::RemoveServer { target: node(7) },
        Action::RemoveServer {
            target: NodeTarget::Leader,
        },
        // Skipped in this Raft run (n2 is no worker), which a link carries all the same.
        Action::MalformedWrite {
            target: node(2),
            fault: MalformedFault::TokenTooLarge,
        },
    ]
}

pub(super) fn sample_run() -> SharedRun {
    let mut scenario = Scenario::new("Leader crash — «demo»", 5, 600_000);
    scenario.seed = u64::MAX;
    scenario.timing.election_timeout_ms = (150, 600_000);
    scenario.timing.network_delay_ms = (0, 15);
    scenario.timing.drop_ppm = 12_345;
    scenario.raft.pre_vote = true;
    scenario.raft.read_path = quorumlab_sim::config::ReadPath::Lease;
    scenario.steps = vec![
        Step {
            at_ms: 0,
            action: Action::Heal,
        },
        Step {
            at_ms: 400,
            action: Action::Crash {
                target: NodeTarget::Leader,
            },
        },
        Step {
            at_ms: 600_000,
            action: Action::Restart { target: node(1) },
        },
    ];
    let actions = every_action()
        .into_iter()
        .enumerate()
        .map(|(index, action)| RecordedAction {
            at: SimTime(index as u64 * 1_234 + 7),
            after_events: index as u64 * 3,
            action,
        })
        .collect();
    SharedRun {
        scenario,
        actions,
        position: SimTime(99_999),
        lesson: None,
    }
}

/// The v2 fragment for raw (unchecked) legacy bytes, sealed with a correct checksum.
pub(super) fn fragment_of_body(build: impl FnOnce(&mut Writer)) -> String {
    let mut writer = Writer::default();
    build(&mut writer);
    writer.fragment("v2")
}

/// Encodes without validating, as a hand-made malicious link would be.
pub(super) fn unchecked_fragment(run: &SharedRun) -> String {
    v4_fragment_of_sealed(&v4::encode(&body_convert::from_run(run)))
}

/// The v4 body of `run`, checksum cut off (to damage or forge).
pub(super) fn v4_body(run: &SharedRun) -> Vec<u8> {
    let mut bytes = v4::encode(&body_convert::from_run(run));
    bytes.truncate(bytes.len() - 4);
    bytes
}

/// The v4 fragment for raw body bytes, sealed with a correct checksum.
pub(super) fn v4_fragment_of_body(body: &[u8]) -> String {
    let mut sealed = body.to_vec();
    sealed.extend_from_slice(&v4::checksum(body));
    v4_fragment_of_sealed(&sealed)
}

fn v4_fragment_of_sealed(sealed: &[u8]) -> String {
    format!("{LINK_PREFIX}v4/{}", payload::encode(sealed))
}

pub(super) fn decode_error(fragment: &str) -> ShareError {
    decode_fragment(fragment).expect_err("the link should be refused")
}

#[test]
fn a_run_survives_encoding_and_decoding() {
    let run = sample_run();
    let fragment = encode_fragment(&run).unwrap();
    assert!(fragment.starts_with("#/run/v4/"));
    assert!(fragment[9..]
        .bytes()
        .all(|byte| byte.is_ascii_alphanumeric() || byte == b'-' || byte == b'_'));
    assert_eq!(decode_fragment(&fragment).unwrap(), run);
}

#[test]
fn links_are_compact() {
    let mut run = sample_run();
    run.actions = (0..100)
        .map(|index| RecordedAction {
            at: SimTime(index * 137_000),
            after_events: index * 400,
            action: Action::Crash {
                target: NodeTarget::Leader,
            },
        })
        .collect();
    let fragment = encode_fragment(&run).unwrap();
    assert!(
        fragment.len() < 1_200,
        "100 actions took {} characters",
        fragment.len()
    );
}

#[test]
fn the_default_run_makes_a_short_link() {
    let session = Session::new(crate::state::default_scenario()).unwrap();
    let fragment = encode_fragment(&capture(&session)).unwrap();
    assert!(fragment.len() < 80, "{fragment}");
}

/// xorshift64: the fuzz loop is deterministic, so a failure names the iteration that reproduces it.
struct Random(u64);

impl Random {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, bound: usize) -> usize {
        (self.next() % bound as u64) as usize
    }
}

fn damaged(original: &[u8], random: &mut Random) -> Vec<u8> {
    let mut bytes = original.to_vec();
    match random.below(4) {
        0 => {
            let index = random.below(bytes.len());
            bytes[index] ^= 1 << random.below(8);
        }
        1 => bytes.truncate(random.below(bytes.len())),
        2 => {
            let index = random.below(bytes.len());
            bytes[index] = random.next() as u8;
        }
        _ => {
            let index = random.below(bytes.len() + 1);
            bytes.insert(index, random.next() as u8);
        }
    }
    bytes
}

#[test]
fn damaged_links_are_refused_without_panicking() {
    let mut random = Random(0x5eed);
    let fragment = encode_fragment(&sample_run()).unwrap();
    let payload = fragment.strip_prefix("#/run/v4/").unwrap();
    let mut accepted = 0;
    for _ in 0..2_000 {
        let text = String::from_utf8_lossy(&damaged(payload.as_bytes(), &mut random)).into_owned();
        if decode_fragment(&format!("#/run/v4/{text}")).is_ok() {
            accepted += 1;
        }
    }
    assert!(
        accepted < 5,
        "the checksum lets {accepted} of 2000 damaged links through"
    );
}

/// Damage behind a recomputed checksum reaches every decoder path: the result must be an error or a
/// run that passes validation, re-encodes to the same bytes, and opens without panicking.
#[test]
fn resealed_damage_is_an_error_or_a_valid_run() {
    let mut random = Random(0xdecaf);
    let mut run = sample_run();
    run.position = SimTime(600_000);
    let body = v4_body(&run);
    let (mut refused, mut opened) = (0, 0);
    for _ in 0..3_000 {
        let mutated = damaged(&body, &mut random);
        let fragment = v4_fragment_of_body(&mutated);
        match decode_fragment(&fragment) {
            Err(error) => {
                assert!(!error.to_string().is_empty());
                refused += 1;
            }
            Ok(decoded) => {
                assert_eq!(
                    encode_fragment(&decoded).unwrap(),
                    fragment,
                    "one spelling per run"
                );
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
    assert!(refused > 1_000, "only {refused} refused");
    assert!(opened > 10, "only {opened} opened");
}

/// A session with user actions, a scripted step and a recorded future (it seeks back before sharing).
fn recorded_session() -> Session {
    let mut scenario = Scenario::new("trace hash", 5, 60_000);
    scenario.seed = 42;
    scenario.steps.push(Step {
        at_ms: 900,
        action: Action::Isolate { target: node(2) },
    });
    let mut session = Session::new(scenario).unwrap();
    session.advance_to(SimTime::from_ms(500));
    session.apply(&Action::Request {
        count: 3,
        target: NodeTarget::Leader,
        kind: RequestKind::Put,
    });
    session.advance_to(SimTime(812_345));
    session.step_event();
    session.apply(&Action::Crash {
        target: NodeTarget::Leader,
    });
    session.advance_to(SimTime::from_ms(1_700));
    session.apply(&Action::Partition {
        groups: vec![vec![NodeId(0), NodeId(1)]],
    });
    session.apply(&Action::Pause {
        target: node(4),
        duration_ms: Some(300),
    });
    session.advance_to(SimTime::from_ms(2_600));
    session.apply(&Action::Heal);
    session.advance_to(SimTime::from_ms(3_200));
    session.seek(SimTime::from_ms(2_000));
    session
}

#[test]
fn an_opened_link_replays_to_the_same_trace_hash() {
    let mut original = recorded_session();
    let fragment = encode_fragment(&capture(&original)).unwrap();
    let mut opened = open(decode_fragment(&fragment).unwrap()).unwrap();
    assert_eq!(opened.now(), original.now());
    assert_eq!(opened.world().trace_hash(), original.world().trace_hash());
    assert_eq!(opened.view(), original.view());
    assert_eq!(
        opened.actions(),
        original.actions(),
        "the recorded future comes along"
    );

    // Both continue identically: through the recorded future and past it.
    for session in [&mut original, &mut opened] {
        session.advance_to(SimTime::from_ms(4_000));
    }
    assert_eq!(opened.world().trace_hash(), original.world().trace_hash());
    assert_eq!(
        opened.actions().len(),
        6,
        "scripted step replayed once, future kept"
    );
}

/// The message with the lowest id from `from` to `to` in flight at the session's moment.
fn first_message(session: &Session, from: u16, to: u16) -> Option<u64> {
    session
        .view()
        .messages
        .iter()
        .find(|message| (message.from.0, message.to.0) == (from, to) && !message.dropped)
        .map(|message| message.id)
}

#[test]
fn link_settings_regions_and_a_hand_on_messages_replay_from_a_link() {
    let mut original = Session::new(Scenario::new("links", 5, 60_000)).unwrap();
    original.advance_to(SimTime::from_ms(300));
    original.apply(&Action::SetLink {
        between: (NodeId(0), NodeId(2)),
        settings: LinkSettings {
            delay_ms: Some((80, 120)),
            drop_ppm: Some(100_000),
            duplicate_ppm: Some(50_000),
        },
    });
    let mut handled = 0;
    for _ in 0..20_000 {
        if handled == 3 || !original.step_event() {
            break;
        }
        let leader = original.world().current_leader().map(|node| node.0);
        let Some(leader) = leader else { continue };
        let follower = (leader + 1) % 5;
        if let Some(message) = first_message(&original, leader, follower) {
            let (from, to) = (NodeId(leader), NodeId(follower));
            let action = match handled {
                0 => Action::DropMessage { message, from, to },
                1 => Action::HoldMessage {
                    message,
                    from,
                    to,
                    by_ms: 250,
                },
                _ => Action::DuplicateMessage { message, from, to },
            };
            assert_eq!(original.apply(&action), ActionOutcome::Applied);
            handled += 1;
        }
    }
    assert_eq!(
        handled, 3,
        "found messages to drop, to hold and to duplicate"
    );
    original.apply(&Action::Regions {
        groups: vec![vec![NodeId(0), NodeId(1)], vec![NodeId(2), NodeId(3)]],
    });
    original.advance_to(SimTime::from_ms(3_500));
    let fragment = encode_fragment(&capture(&original)).unwrap();
    let opened = open(decode_fragment(&fragment).unwrap()).unwrap();
    assert_eq!(opened.world().trace_hash(), original.world().trace_hash());
    assert_eq!(opened.view(), original.view());
    assert_eq!(opened.actions(), original.actions());
}

#[test]
fn a_different_seed_gives_a_different_hash() {
    let original = recorded_session();
    let mut run = capture(&original);
    run.scenario.seed += 1;
    run.actions.retain(|recorded| recorded.after_events == 0);
    let opened = open(run).unwrap();
    assert_ne!(opened.world().trace_hash(), original.world().trace_hash());
}

#[test]
fn a_log_that_claims_events_the_run_never_had_is_refused() {
    let original = recorded_session();
    let mut run = capture(&original);
    run.actions[0].after_events = 1_000_000_000;
    for later in run.actions.iter_mut().skip(1) {
        later.after_events = 1_000_000_000;
    }
    let Err(error) = open(run) else {
        panic!("a log claiming a billion events before 500 ms was accepted");
    };
    assert!(
        matches!(error, ShareError::DoesNotFit { action: 1, .. }),
        "{error}"
    );
    assert!(error
        .to_string()
        .starts_with("recorded action 1 at 500.000 ms expects 1000000000 events"));
}

#[test]
fn base64url_round_trips_any_bytes() {
    let mut random = Random(7);
    for length in 0..64 {
        let bytes: Vec<u8> = (0..length).map(|_| random.next() as u8).collect();
        assert_eq!(payload::decode(&payload::encode(&bytes)).unwrap(), bytes);
    }
}

#[test]
fn a_long_imported_title_is_shortened_for_the_link() {
    let title = "é".repeat(150);
    let session = Session::new(Scenario::new(&title, 3, 1_000)).unwrap();
    let run = capture(&session);
    assert_eq!(run.scenario.title, "é".repeat(100));
    assert!(encode_fragment(&run).is_ok());
}

#[test]
fn a_run_too_heavy_to_replay_is_refused_before_replaying() {
    let mut run = capture(&Session::new(Scenario::new("heavy", 51, 3_600_000)).unwrap());
    run.position = MAX_SHARED_TIME;
    let default_timing = super::replay::estimated_replay_events(&run);
    assert!(
        default_timing < super::replay::MAX_ESTIMATED_EVENTS,
        "{default_timing}"
    );
    run.scenario.timing.heartbeat_ms = 1;
    run.scenario.timing.election_timeout_ms = (5, 10);
    let Err(error) = open(run) else {
        panic!("an hour of 51 nodes with 1 ms heartbeats was replayed");
    };
    assert!(
        matches!(error, ShareError::TooLongToReplay { estimated_events } if estimated_events > 300_000_000)
    );
}

/// A link ten simulated minutes into a run: opening it runs the timeline that far in one go, which
/// used to double the snapshot interval at every snapshot past the bound until it overflowed.
#[test]
fn a_link_minutes_into_a_run_opens() {
    let mut scenario = quorumlab_sim::scenario::Scenario::new("Ten minutes", 5, 900_000);
    scenario.seed = 3;
    let run = SharedRun {
        scenario,
        actions: Vec::new(),
        position: quorumlab_sim::time::SimTime::from_ms(600_000),
        lesson: None,
    };
    let fragment = encode_fragment(&run).unwrap();
    let opened = open(decode_fragment(&fragment).unwrap()).unwrap();
    assert_eq!(opened.now(), run.position);
}
