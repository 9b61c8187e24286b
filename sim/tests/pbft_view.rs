//! The PBFT part of a frame and what a Byzantine node looks like in it: each replica's view, primary
//! and slots; a liar named on its node; an equivocating primary's pre-prepares reading differently
//! per recipient; and the price in messages against a same-size Raft run.

use quorumlab_sim::action::ByzantineMode;
use quorumlab_sim::ids::NodeId;
use quorumlab_sim::pbft::SlotPhase;
use quorumlab_sim::price::raft_baseline;
use quorumlab_sim::runner::ScenarioRun;
use quorumlab_sim::scenario::parse_scenario;
use quorumlab_sim::time::SimTime;
use std::collections::BTreeSet;

fn example(name: &str) -> ScenarioRun {
    let path = format!("{}/scenarios/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).expect("the example exists");
    let scenario = parse_scenario(&text, name).expect("the example parses");
    ScenarioRun::new(scenario).expect("the example runs")
}

#[test]
fn a_normal_run_shows_views_primary_slots_and_replies() {
    let mut run = example("pbft-normal.toml");
    // Before the primary's crash at 1.5 s.
    run.advance_to(SimTime::from_ms(1_400));
    let view = run.world().view();
    let pbft = view
        .coordination
        .and_then(|coordination| coordination.pbft().cloned());
    let pbft = pbft.expect("a PBFT world has a PBFT view");
    assert_eq!(pbft.replicas.len(), 4);
    assert_eq!(
        (pbft.faults_tolerated, pbft.quorum, pbft.reply_quorum),
        (1, 3, 2)
    );
    for replica in &pbft.replicas {
        assert_eq!(replica.primary, NodeId(0), "view 0's primary is n1");
        assert!(replica.executed > 0, "{replica:?}");
        assert!(replica
            .slots
            .iter()
            .any(|slot| slot.phase >= SlotPhase::Committed));
        assert!(replica.slots.len() <= quorumlab_sim::view_coordination::MAX_VIEW_SLOTS);
    }
    assert!(pbft.results_taken > 0 && pbft.messages_sent > pbft.results_taken);
    assert!(view.nodes.iter().all(|node| node.lying.is_none()));
}

#[test]
fn an_equivocating_primary_sends_different_pre_prepares_and_is_named_a_liar() {
    let mut run = example("pbft-byzantine-primary.toml");
    run.advance_to(SimTime::from_ms(1_000));
    let mut contents = BTreeSet::new();
    // Bounded: one simulated second past the fault, in 1 ms steps.
    for ms in 1_001..2_000 {
        run.advance_to(SimTime::from_ms(ms));
        let view = run.world().view();
        assert_eq!(view.nodes[0].lying, Some(ByzantineMode::Equivocate));
        for message in view
            .messages
            .iter()
            .filter(|message| message.from == NodeId(0))
        {
            if message.kind == "PrePrepare" {
                contents.insert(message.content.clone().unwrap_or_default());
            }
        }
        if contents.len() >= 2 {
            break;
        }
    }
    assert!(
        contents.len() >= 2,
        "one sender, different pre-prepares: {contents:?}"
    );
    assert!(
        contents.iter().any(|content| content.ends_with("(forged)")),
        "{contents:?}"
    );
    let view = run.world().view();
    let pbft = view
        .coordination
        .and_then(|coordination| coordination.pbft().cloned())
        .expect("PBFT");
    assert_eq!(pbft.replicas[0].lying, Some(ByzantineMode::Equivocate));
    assert!(pbft.replicas[1..]
        .iter()
        .all(|replica| replica.lying.is_none()));
}

#[test]
fn pbft_costs_more_messages_per_request_than_raft_of_the_same_size() {
    let mut run = example("pbft-normal.toml");
    run.run_to_end();
    let view = run.world().view();
    let pbft = view
        .coordination
        .and_then(|coordination| coordination.pbft().cloned())
        .expect("PBFT");
    let pbft_tenths = pbft.messages_sent * 10 / pbft.results_taken.max(1);
    let raft = raft_baseline(4, run.world().config().seed, 200).expect("a Raft run");
    let raft_tenths = raft.per_commit_tenths().expect("Raft committed writes");
    eprintln!("PBFT {pbft_tenths}/10 per request ({pbft:?}), Raft {raft_tenths}/10 ({raft:?})");
    assert!(
        pbft_tenths > raft_tenths,
        "PBFT {pbft_tenths} vs Raft {raft_tenths}"
    );
}
