//! Byzantine modes in links: every mode survives a link, the selectively silent one (added last)
//! replays to the same trace hash, and the older modes keep the codes old links carry.

use super::super::body::LinkByzantineMode;
use super::*;

#[test]
fn the_older_modes_keep_their_codes_and_selective_comes_after_them() {
    let codes: Vec<Vec<u8>> = [
        LinkByzantineMode::Honest,
        LinkByzantineMode::Equivocate,
        LinkByzantineMode::Lie,
        LinkByzantineMode::Silent,
        LinkByzantineMode::Selective,
    ]
    .iter()
    .map(|mode| postcard::to_allocvec(mode).unwrap())
    .collect();
    assert_eq!(codes, [[0], [1], [2], [3], [4]]);
}

#[test]
fn every_mode_survives_a_link() {
    let mut run = sample_run();
    run.actions.truncate(1);
    let first = run.actions[0].clone();
    run.actions = ByzantineMode::NAMES
        .iter()
        .map(|name| {
            let mode = ByzantineMode::from_name(name).unwrap();
            let mut recorded = first.clone();
            recorded.action = Action::Byzantine {
                target: node(2),
                mode,
            };
            recorded
        })
        .collect();
    let decoded = decode_fragment(&encode_fragment(&run).unwrap()).unwrap();
    assert_eq!(decoded.actions, run.actions);
}

#[test]
fn a_link_with_a_selectively_silent_leader_replays_to_the_same_trace_hash() {
    let mut scenario = Scenario::new("selective", 5, 60_000);
    scenario.seed = 2;
    let mut session = Session::new(scenario).unwrap();
    session.advance_to(SimTime::from_ms(1_000));
    let selective = Action::Byzantine {
        target: NodeTarget::Leader,
        mode: ByzantineMode::Selective,
    };
    assert_eq!(session.apply(&selective), ActionOutcome::Applied);
    session.advance_to(SimTime::from_ms(3_000));
    let run = capture(&session);
    assert_eq!(run.actions[0].action, selective);
    let opened = open(decode_fragment(&encode_fragment(&run).unwrap()).unwrap()).unwrap();
    assert_eq!(opened.now(), session.now());
    assert_eq!(opened.world().trace_hash(), session.world().trace_hash());
    assert_eq!(opened.actions(), session.actions());
}
