//! Disks in links: a slow disk applied by hand travels in a link and replays to the same trace hash,
//! and a run whose world has a disk write time or timer jitter (which a v4 link has no field for) is
//! refused when sharing rather than reopened without them.

use super::*;

#[test]
fn a_link_with_a_slow_disk_replays_to_the_same_trace_hash() {
    let mut scenario = Scenario::new("slow disk", 5, 60_000);
    scenario.seed = 3;
    let mut session = Session::new(scenario).unwrap();
    session.advance_to(SimTime::from_ms(1_000));
    let slow = Action::SlowDisk {
        target: NodeTarget::Node(NodeId(1)),
        persist_ms: Some((40, 80)),
    };
    assert_eq!(session.apply(&slow), ActionOutcome::Applied);
    let write = Action::Request {
        count: 3,
        target: NodeTarget::Leader,
        kind: RequestKind::Put,
    };
    session.apply(&write);
    session.advance_to(SimTime::from_ms(3_000));
    let run = capture(&session);
    assert_eq!(run.actions[0].action, slow);
    let opened = open(decode_fragment(&encode_fragment(&run).unwrap()).unwrap()).unwrap();
    assert_eq!(opened.world().trace_hash(), session.world().trace_hash());
    assert_eq!(opened.actions(), session.actions());
}

#[test]
fn a_world_with_a_disk_time_or_timer_jitter_is_refused_naming_the_key() {
    for (persist_ms, timer_jitter_us, key) in [
        ((5, 7), 0, "persist_ms"),
        ((0, 0), 1_000, "timer_jitter_us"),
    ] {
        let mut scenario = Scenario::new("disk", 5, 60_000);
        scenario.timing.persist_ms = persist_ms;
        scenario.timing.timer_jitter_us = timer_jitter_us;
        let mut session = Session::new(scenario).unwrap();
        session.advance_to(SimTime::from_ms(500));
        let error = encode_fragment(&capture(&session)).unwrap_err();
        assert!(
            matches!(error, ShareError::NotShareable { setting } if setting.contains(key)),
            "{error}"
        );
    }
    // The same run without either shares as before.
    let mut session = Session::new(Scenario::new("plain", 5, 60_000)).unwrap();
    session.advance_to(SimTime::from_ms(500));
    assert!(encode_fragment(&capture(&session)).is_ok());
}
