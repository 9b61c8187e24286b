//! Membership changes in links: a run where servers joined and the leader was removed opens to the same
//! trace hash, a tampered link carrying such actions is refused, and the unsafe direct mode is refused
//! when sharing with the reason a learner needs.

use super::*;
use quorumlab_sim::config::MembershipMode;
use quorumlab_sim::scenario::Invalid;

/// A five-node Raft session that adds n6, removes its leader mid-instant (after a stepped event),
/// adds n7 by its explicit id, then isolates n6; it seeks back so the isolation is a recorded future.
fn membership_session() -> Session {
    let mut scenario = Scenario::new("membership", 5, 60_000);
    scenario.seed = 7;
    let mut session = Session::new(scenario).unwrap();
    let request = Action::Request {
        count: 3,
        target: NodeTarget::Leader,
        kind: RequestKind::Put,
    };
    act(&mut session, SimTime::from_ms(800), request);
    act(
        &mut session,
        SimTime::from_ms(1_000),
        Action::AddServer { id: None },
    );
    session.advance_to(SimTime(2_345_678));
    session.step_event();
    assert!(
        session.world().current_leader().is_some(),
        "a leader to remove"
    );
    let remove = Action::RemoveServer {
        target: NodeTarget::Leader,
    };
    let now = session.now();
    act(&mut session, now, remove);
    let add_n7 = Action::AddServer {
        id: Some(NodeId(6)),
    };
    act(&mut session, SimTime::from_ms(3_000), add_n7);
    act(
        &mut session,
        SimTime::from_ms(3_500),
        Action::Isolate { target: node(6) },
    );
    session.advance_to(SimTime::from_ms(5_000));
    session.seek(SimTime::from_ms(3_200));
    session
}

fn act(session: &mut Session, at: SimTime, action: Action) {
    session.advance_to(at);
    assert_eq!(session.apply(&action), ActionOutcome::Applied, "{action:?}");
}

/// Index (0-based) of the first recorded action matching `wanted`.
fn index_of(run: &SharedRun, wanted: impl Fn(&Action) -> bool) -> usize {
    run.actions
        .iter()
        .position(|recorded| wanted(&recorded.action))
        .expect("the run records that action")
}

#[test]
fn a_link_with_an_added_server_and_a_removed_leader_replays_to_the_same_trace_hash() {
    let mut original = membership_session();
    let run = capture(&original);
    let kinds: Vec<&Action> = run
        .actions
        .iter()
        .map(|recorded| &recorded.action)
        .collect();
    assert!(matches!(kinds[1], Action::AddServer { id: None }));
    assert!(matches!(kinds[2], Action::RemoveServer { .. }));
    assert!(
        !run.actions[2].at.0.is_multiple_of(1_000),
        "recorded mid-millisecond"
    );
    let fragment = encode_fragment(&run).unwrap();
    let mut opened = open(decode_fragment(&fragment).unwrap()).unwrap();
    assert_eq!(opened.now(), original.now());
    assert_eq!(opened.world().node_count(), 7);
    assert_eq!(opened.world().trace_hash(), original.world().trace_hash());
    assert_eq!(opened.view(), original.view());
    assert_eq!(
        opened.actions(),
        original.actions(),
        "the future comes along"
    );

    // Both continue identically, through the recorded isolation of n6 and past it.
    for session in [&mut original, &mut opened] {
        session.advance_to(SimTime::from_ms(6_000));
    }
    assert_eq!(opened.world().trace_hash(), original.world().trace_hash());
    assert_eq!(opened.view(), original.view());
    assert_eq!(opened.actions().len(), 5);
}

#[test]
fn a_damaged_link_with_membership_actions_is_refused() {
    let run = capture(&membership_session());
    let fragment = encode_fragment(&run).unwrap();
    let payload = fragment.strip_prefix("#/run/v4/").unwrap();
    // One character changed in the middle, checksum not recomputed.
    let mut bytes = payload.as_bytes().to_vec();
    let middle = bytes.len() / 2;
    bytes[middle] = if bytes[middle] == b'A' { b'B' } else { b'A' };
    let changed = format!("#/run/v4/{}", String::from_utf8(bytes).unwrap());
    assert_eq!(decode_error(&changed), ShareError::Damaged);

    let mut random = Random(0x00ad_d5e7);
    for round in 0..500 {
        let text = String::from_utf8_lossy(&damaged(payload.as_bytes(), &mut random)).into_owned();
        if let Ok(decoded) = decode_fragment(&format!("#/run/v4/{text}")) {
            assert_eq!(
                decoded, run,
                "round {round}: damage let another run through"
            );
        }
    }
}

/// Forged links, their checksum recomputed: membership actions that do not fit the world are refused
/// by name, and a log that claims more events before the removal than the run has is refused on opening.
#[test]
fn a_resealed_forgery_of_membership_actions_is_refused() {
    let run = capture(&membership_session());
    let add_n7 = index_of(&run, |action| {
        matches!(action, Action::AddServer { id: Some(_) })
    });
    let remove = index_of(&run, |action| matches!(action, Action::RemoveServer { .. }));

    let mut gap = run.clone();
    gap.actions[add_n7].action = Action::AddServer {
        id: Some(NodeId(8)),
    };
    assert_eq!(
        decode_error(&unchecked_fragment(&gap)),
        ShareError::Invalid(Invalid::NodeOutOfRange {
            field: format!("action {} id", add_n7 + 1),
            node: 9,
            node_count: 7,
        })
    );

    // Without the first addition, the explicit n7 skips n6 and the isolation names no server.
    let mut unadded = run.clone();
    unadded
        .actions
        .retain(|recorded| recorded.action != Action::AddServer { id: None });
    assert!(matches!(
        decode_error(&unchecked_fragment(&unadded)),
        ShareError::Invalid(Invalid::NodeOutOfRange {
            node: 7,
            node_count: 6,
            ..
        })
    ));

    let mut missing = run.clone();
    missing.actions[remove].action = Action::RemoveServer { target: node(9) };
    assert_eq!(
        decode_error(&unchecked_fragment(&missing)),
        ShareError::Invalid(Invalid::NodeOutOfRange {
            field: format!("action {} target", remove + 1),
            node: 9,
            node_count: 6,
        })
    );

    let mut early = run.clone();
    for later in early.actions.iter_mut().skip(remove) {
        later.after_events = 1_000_000_000;
    }
    let decoded = decode_fragment(&unchecked_fragment(&early)).unwrap();
    let Err(error) = open(decoded) else {
        panic!("a removal claiming a billion events before it was replayed");
    };
    assert!(
        matches!(error, ShareError::DoesNotFit { action, .. } if action == remove + 1),
        "{error}"
    );
}

#[test]
fn a_run_in_the_direct_membership_mode_is_refused_with_the_reason() {
    let mut scenario = Scenario::new("direct", 5, 60_000);
    scenario.raft.membership = MembershipMode::Direct;
    let mut session = Session::new(scenario).unwrap();
    session.advance_to(SimTime::from_ms(1_000));
    assert_eq!(
        session.apply(&Action::AddServer { id: None }),
        ActionOutcome::Applied
    );
    session.advance_to(SimTime::from_ms(1_500));
    let error = encode_fragment(&capture(&session)).unwrap_err();
    assert_eq!(
        error,
        ShareError::NotShareable {
            setting: super::super::error::DIRECT_MEMBERSHIP_SETTING
        }
    );
    let text = error.refusal_text();
    assert!(
        text.starts_with("This run cannot be shared as a link:"),
        "{text}"
    );
    assert!(text.contains("not the log"), "{text}");
    assert!(text.contains("reopen the safe mode"), "{text}");
    assert!(text.contains("Export the trace or the scenario"), "{text}");
    // The same run in the safe mode shares.
    let mut safe = capture(&session);
    safe.scenario.raft.membership = MembershipMode::Log;
    assert!(encode_fragment(&safe).is_ok());
}
