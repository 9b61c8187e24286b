//! Narration read from whole runs of Paxos and PBFT: duelling proposers pre-empted by a higher ballot,
//! a silent primary replaced by a view change, and an equivocating primary telling backups different
//! things. Each expected fragment is built from the facts the run itself recorded (ballots, views,
//! digests, who did what), so the tests check that the story tells those events with the right names
//! and numbers, not that it repeats one run's text.

use quorumlab_sim::action::{Action, ByzantineMode, NodeTarget};
use quorumlab_sim::actor::Fact;
use quorumlab_sim::ids::NodeId;
use quorumlab_sim::narration::Narrator;
use quorumlab_sim::paxos::{ballot_text, PaxosFact};
use quorumlab_sim::pbft::fact::Suspicion;
use quorumlab_sim::pbft::{digest_text, PbftFact};
use quorumlab_sim::runner::ScenarioRun;
use quorumlab_sim::scenario::{Scenario, Step};
use quorumlab_sim::trace::TraceEvent;
use quorumlab_sim::world::World;

mod common;
use common::load;

fn finished(scenario: Scenario) -> ScenarioRun {
    let mut run = ScenarioRun::new(scenario).expect("the scenario runs");
    run.run_to_end();
    run
}

fn narration(world: &World) -> Vec<String> {
    let mut narrator = Narrator::for_world(world);
    assert!(narrator.catch_up(world.trace()));
    narrator.lines().map(|line| line.text.clone()).collect()
}

fn assert_told(lines: &[String], needle: &str) {
    assert!(
        lines.iter().any(|line| line.contains(needle)),
        "no line contains {needle:?} in:\n{}",
        lines.join("\n")
    );
}

/// Every fact the run recorded, with the node and the time it was recorded at.
fn facts(world: &World) -> Vec<(u64, NodeId, Fact)> {
    world
        .trace()
        .records()
        .filter_map(|record| match &record.event {
            TraceEvent::Observe { node, fact } => Some((record.at_us, *node, *fact)),
            _ => None,
        })
        .collect()
}

fn paxos_facts(world: &World) -> Vec<(NodeId, PaxosFact)> {
    facts(world)
        .into_iter()
        .filter_map(|(_, node, fact)| match fact {
            Fact::Paxos(fact) => Some((node, fact)),
            _ => None,
        })
        .collect()
}

fn pbft_facts(world: &World) -> Vec<(u64, NodeId, PbftFact)> {
    facts(world)
        .into_iter()
        .filter_map(|(at_us, node, fact)| match fact {
            Fact::Pbft(fact) => Some((at_us, node, fact)),
            _ => None,
        })
        .collect()
}

#[test]
fn each_learner_actor_is_told_learning_the_value_from_its_majority_and_the_cut_off_one_asking() {
    let run = finished(load("paxos-learners.toml"));
    let world = run.world();
    let lines = narration(world);
    let name = |node: NodeId| world.node_label(node);
    let learned: Vec<(NodeId, PaxosFact)> = paxos_facts(world)
        .into_iter()
        .filter(|(node, fact)| {
            name(*node).starts_with('L') && matches!(fact, PaxosFact::ValueLearned { .. })
        })
        .collect();
    assert_eq!(learned.len(), 3, "each of L1..L3 learns once: {learned:?}");
    for (learner, fact) in learned {
        let PaxosFact::ValueLearned {
            ballot,
            value,
            acceptors,
            ..
        } = fact
        else {
            unreachable!("filtered to ValueLearned")
        };
        let majority: Vec<String> = acceptors.iter().map(name).collect();
        assert_told(
            &lines,
            &format!(
                "{} learns “{}” is chosen: {} (a majority) accepted it in ballot {}",
                name(learner),
                quorumlab_sim::paxos::value_name(value),
                majority.join(", "),
                ballot_text(ballot, &name)
            ),
        );
    }
    let asker = paxos_facts(world)
        .into_iter()
        .find_map(|(node, fact)| {
            matches!(fact, PaxosFact::AcceptancesAsked { questions: 1 }).then_some(node)
        })
        .expect("the cut-off learner asks");
    assert_eq!(name(asker), "L3");
    assert_told(
        &lines,
        "L3 has heard no majority accept one ballot, so it asks every acceptor what it accepted",
    );
}

#[test]
fn a_duelling_proposer_is_told_it_lost_to_the_higher_ballot_and_acceptors_say_why_they_refuse() {
    let run = finished(load("paxos-duel.toml"));
    let world = run.world();
    let lines = narration(world);
    let name = |node: NodeId| world.node_label(node);
    let recorded = paxos_facts(world);
    let (proposer, lost, higher) = recorded
        .iter()
        .find_map(|(node, fact)| match *fact {
            PaxosFact::BallotAbandoned {
                ballot,
                by: Some(higher),
            } => Some((*node, ballot, higher)),
            _ => None,
        })
        .expect("a duel pre-empts some proposer");
    assert!(higher > lost, "{higher:?} beats {lost:?}");
    assert_told(
        &lines,
        &format!(
            "{} is pre-empted: ballot {} lost to {}, it will try higher",
            name(proposer),
            ballot_text(lost, &name),
            ballot_text(higher, &name)
        ),
    );
    let (acceptor, refused, promised) = recorded
        .iter()
        .find_map(|(node, fact)| match *fact {
            PaxosFact::BallotRefused { ballot, promised } => Some((*node, ballot, promised)),
            _ => None,
        })
        .expect("some acceptor refuses a lower ballot");
    assert!(promised > refused);
    assert_told(
        &lines,
        &format!(
            "{} refuses ballot {}: it already promised the higher {}",
            name(acceptor),
            ballot_text(refused, &name),
            ballot_text(promised, &name)
        ),
    );
}

#[test]
fn a_silent_primary_is_replaced_and_the_new_view_and_its_primary_are_named() {
    let mut scenario = load("pbft-normal.toml");
    let silence = Action::Byzantine {
        target: NodeTarget::Node(NodeId(0)),
        mode: ByzantineMode::Silent,
    };
    scenario.steps.push(Step {
        at_ms: 1_000,
        action: silence,
    });
    scenario.steps.sort_by_key(|step| step.at_ms);
    let run = finished(scenario);
    let world = run.world();
    let lines = narration(world);
    assert_told(
        &lines,
        "turns Byzantine: it will say nothing while it still listens",
    );
    let recorded = pbft_facts(world);
    let (asker, asked_view) = recorded
        .iter()
        .find_map(|(_, node, fact)| match *fact {
            PbftFact::ViewChangeStarted {
                view,
                why: Suspicion::Timeout,
            } => Some((*node, view)),
            _ => None,
        })
        .expect("a backup times out on the silent primary");
    assert_eq!(asked_view, 1);
    assert_told(
        &lines,
        &format!(
            "{} asks for view 1: a request it knows of has waited too long",
            world.node_label(asker)
        ),
    );
    let entered: Vec<(NodeId, NodeId)> = recorded
        .iter()
        .filter_map(|(_, node, fact)| match *fact {
            PbftFact::ViewEntered { view: 1, primary } => Some((*node, primary)),
            _ => None,
        })
        .collect();
    assert!(entered.len() >= 3, "a quorum moves to view 1: {entered:?}");
    assert!(
        entered.iter().all(|(_, primary)| *primary == NodeId(1)),
        "view 1's primary is n2"
    );
    // Replicas entering one view coalesce into one line, told by the first of them.
    let (first, _) = entered[0];
    assert_told(
        &lines,
        &format!(
            "{} enters view 1; its primary is n2",
            world.node_label(first)
        ),
    );
}

#[test]
fn an_equivocating_primary_is_told_handing_backups_a_request_it_did_not_order() {
    let run = finished(load("pbft-byzantine-primary.toml"));
    let world = run.world();
    let lines = narration(world);
    let name = |node: NodeId| world.node_label(node);
    let recorded = pbft_facts(world);
    // The example's primary n1 starts equivocating at 1 s: its first slot after that.
    let (sequence, ordered) = recorded
        .iter()
        .find_map(|(at_us, node, fact)| match *fact {
            PbftFact::SequenceAssigned {
                view: 0,
                sequence,
                digest,
            } if *at_us > 1_000_000 && *node == NodeId(0) => Some((sequence, digest)),
            _ => None,
        })
        .expect("n1 orders a request while it lies");
    let accepted: Vec<(NodeId, u64)> = recorded
        .iter()
        .filter_map(|(_, node, fact)| match *fact {
            PbftFact::PrePrepareAccepted {
                view: 0,
                sequence: at,
                digest,
            } if at == sequence => Some((*node, digest)),
            _ => None,
        })
        .collect();
    assert!(
        accepted.iter().any(|(_, digest)| *digest == ordered)
            && accepted.iter().any(|(_, digest)| *digest != ordered),
        "backups were shown different requests: {accepted:?}"
    );
    for (backup, digest) in accepted {
        let told = if digest == ordered {
            format!(
                "{} accepts the pre-prepare of {} at {sequence} and tells everyone",
                name(backup),
                digest_text(digest)
            )
        } else {
            format!(
                "{0} accepts the pre-prepare of {1} at {sequence}, but n1 ordered {2} there: \
                 the primary told {0} something else",
                name(backup),
                digest_text(digest),
                digest_text(ordered)
            )
        };
        assert_told(&lines, &told);
    }
    assert_told(&lines, "the primary equivocated");
}
