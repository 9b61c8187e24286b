//! Raft with one lying server (`Action::Byzantine`): a crash-fault protocol has no defence against a
//! node that claims a leadership it never won, and its checkers say what broke.

use quorumlab_sim::action::{Action, ByzantineMode, NodeTarget, RequestKind};
use quorumlab_sim::checker::{ELECTION_SAFETY, LOG_MATCHING, STATE_MACHINE_SAFETY};
use quorumlab_sim::config::WorldConfig;
use quorumlab_sim::ids::NodeId;
use quorumlab_sim::time::SimTime;
use quorumlab_sim::world::{ActionOutcome, World};
use std::collections::BTreeMap;

/// Five servers elect a leader; then (if `mode`) a follower lies, and writes keep coming.
fn run(seed: u64, mode: Option<ByzantineMode>) -> BTreeMap<String, u64> {
    let mut world = World::new(WorldConfig::raft(5, seed)).expect("a five-server cluster");
    world.run_until(SimTime::from_ms(1_000));
    let leader = world.current_leader().expect("a leader after a second");
    let liar = NodeId((leader.0 + 1) % 5);
    if let Some(mode) = mode {
        let action = Action::Byzantine {
            target: NodeTarget::Node(liar),
            mode,
        };
        assert_eq!(world.apply(&action), ActionOutcome::Applied);
    }
    for step in 1..=20 {
        world.run_until(SimTime::from_ms(1_000 + step * 100));
        world.apply(&Action::Request {
            count: 1,
            target: NodeTarget::Leader,
            kind: RequestKind::Put,
        });
    }
    world.run_until(SimTime::from_ms(4_000));
    world.report().violation_counts
}

fn fired(counts: &BTreeMap<String, u64>, invariant: &str) -> bool {
    counts.get(invariant).is_some_and(|count| *count > 0)
}

#[test]
fn a_follower_that_forges_leadership_makes_honest_servers_apply_different_writes() {
    for seed in 1..=5 {
        let counts = run(seed, Some(ByzantineMode::Lie));
        assert!(fired(&counts, ELECTION_SAFETY), "seed {seed}: {counts:?}");
        assert!(fired(&counts, LOG_MATCHING), "seed {seed}: {counts:?}");
        assert!(
            fired(&counts, STATE_MACHINE_SAFETY),
            "seed {seed}: {counts:?}"
        );
    }
}

#[test]
fn the_same_run_without_the_liar_breaks_nothing() {
    for seed in 1..=5 {
        assert_eq!(run(seed, None), BTreeMap::new(), "seed {seed}");
        let honest_again = run(seed, Some(ByzantineMode::Honest));
        assert_eq!(honest_again, BTreeMap::new(), "seed {seed}");
    }
}

#[test]
fn a_silent_or_vote_granting_follower_alone_breaks_nothing_here() {
    // Five servers with a leader already in place: a liar that only grants votes or says nothing
    // has no candidate to help, so these runs stay safe (the lesson shows what equivocation needs).
    for mode in [ByzantineMode::Silent, ByzantineMode::Equivocate] {
        assert_eq!(run(3, Some(mode)), BTreeMap::new(), "{mode:?}");
    }
}

/// Five servers with a leader; `liar` (the follower after it) made to lie, and the world run on.
fn lying_world(seed: u64) -> (World, NodeId, NodeId) {
    let mut world = World::new(WorldConfig::raft(5, seed)).expect("a five-server cluster");
    world.run_until(SimTime::from_ms(1_000));
    let leader = world.current_leader().expect("a leader after a second");
    let liar = NodeId((leader.0 + 1) % 5);
    let action = Action::Byzantine {
        target: NodeTarget::Node(liar),
        mode: ByzantineMode::Lie,
    };
    assert_eq!(world.apply(&action), ActionOutcome::Applied);
    world.run_until(SimTime::from_ms(1_500));
    (world, leader, liar)
}

#[test]
fn a_forged_leadership_is_told_as_a_forged_claim_never_as_an_election() {
    let (world, leader, liar) = lying_world(2);
    let details: Vec<&str> = world
        .checkers()
        .violations()
        .iter()
        .filter(|record| record.invariant == ELECTION_SAFETY)
        .map(|record| record.detail.as_str())
        .collect();
    assert!(!details.is_empty(), "the forgery broke Election Safety");
    for detail in &details {
        assert!(
            detail.starts_with(&format!("{liar} forged a claim to lead term")),
            "{detail}"
        );
        assert!(detail.contains(&format!("which {leader} won")), "{detail}");
        assert!(!detail.contains("elected"), "{detail}");
    }
    // The ring's truth at that moment: the liar is a follower and the leader still leads.
    assert_eq!(world.current_leader(), Some(leader));
    let mut narrator = quorumlab_sim::narration::Narrator::for_world(&world);
    assert!(narrator.catch_up(world.trace()));
    let lines: Vec<String> = narrator.lines().map(|line| line.text.clone()).collect();
    let forged = format!("{liar} forges a claim to lead term");
    assert!(
        lines.iter().any(|line| line.starts_with(&forged)),
        "{lines:#?}"
    );
    let liar_won = format!("{liar} wins the election");
    assert!(
        !lines.iter().any(|line| line.starts_with(&liar_won)),
        "{lines:#?}"
    );
    // The honest leader's own election is still told as a win.
    let leader_won = format!("{leader} wins the election");
    assert!(
        lines.iter().any(|line| line.starts_with(&leader_won)),
        "{lines:#?}"
    );
}
