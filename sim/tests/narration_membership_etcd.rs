//! Narration read from whole example runs, for membership changes and for the lock service in etcd's
//! words. Each expected fragment is built from what the run itself did (the configuration entries in
//! a server's log, the lock facts in the trace), so the test checks that the story tells those events
//! with the right names and numbers, not that it repeats one run's text.

use quorumlab_sim::actor::Fact;
use quorumlab_sim::ids::{NodeId, NodeSet};
use quorumlab_sim::lockservice::LockFact;
use quorumlab_sim::narration::Narrator;
use quorumlab_sim::raft::Command;
use quorumlab_sim::runner::ScenarioRun;
use quorumlab_sim::trace::TraceEvent;
use quorumlab_sim::units::LogIndex;
use quorumlab_sim::world::World;

mod common;
use common::load;

fn finished(file: &str) -> ScenarioRun {
    let mut run = ScenarioRun::new(load(file)).expect("the example runs");
    run.run_to_end();
    run
}

fn narration(world: &World) -> Vec<String> {
    let mut narrator = Narrator::for_world(world);
    assert!(narrator.catch_up(world.trace()));
    narrator.lines().map(|line| line.text.clone()).collect()
}

/// The first line at or after `from` that contains `needle`.
fn position_after(lines: &[String], from: usize, needle: &str) -> usize {
    lines[from..]
        .iter()
        .position(|line| line.contains(needle))
        .map(|offset| from + offset)
        .unwrap_or_else(|| {
            panic!(
                "no line from {from} on contains {needle:?} in:\n{}",
                lines.join("\n")
            )
        })
}

fn names(world: &World, set: NodeSet) -> String {
    let names: Vec<String> = set.iter().map(|node| world.node_label(node)).collect();
    names.join(", ")
}

/// The configuration entries in `node`'s log, as (index, voters).
fn configuration_entries(world: &World, node: NodeId) -> Vec<(u64, NodeSet)> {
    let log = world.nodes()[node.index()]
        .actor
        .as_raft()
        .expect("a Raft server")
        .log();
    (1..=log.last_index().0)
        .filter_map(|index| match log.entry(LogIndex(index))?.command {
            Command::Config { voters } => Some((index, voters)),
            _ => None,
        })
        .collect()
}

/// One applied change of the lock table, told once however many replicas report it.
#[derive(Debug)]
struct LockChange {
    owner: NodeId,
    lease: u64,
    token: u64,
    revision: u64,
    /// `None` for a grant; for an end of a hold, whether the lease expired.
    ended_by_expiry: Option<bool>,
}

/// The lock service's grants and ends of holds, in revision order.
fn lock_changes(world: &World) -> Vec<LockChange> {
    let mut changes: Vec<LockChange> = Vec::new();
    for record in world.trace().records() {
        let TraceEvent::Observe {
            fact: Fact::Lock(fact),
            ..
        } = &record.event
        else {
            continue;
        };
        let change = match *fact {
            LockFact::LockGranted {
                lease,
                owner,
                token,
                revision,
                ..
            } => LockChange {
                owner,
                lease,
                token: token.0,
                revision,
                ended_by_expiry: None,
            },
            LockFact::LockReleased {
                lease,
                owner,
                token,
                expired,
                revision,
                ..
            } => LockChange {
                owner,
                lease,
                token: token.0,
                revision,
                ended_by_expiry: Some(expired),
            },
            _ => continue,
        };
        if changes
            .last()
            .is_none_or(|last| last.revision < change.revision)
        {
            changes.push(change);
        }
    }
    changes
}

/// Each added server is told joining as a learner (copied to, no vote), catching up, and then the
/// configuration entry that makes it a voter, at the index and with the voters its log holds; the
/// second server starts only after the first one's entry (one change at a time).
#[test]
fn an_added_server_is_told_as_a_learner_then_as_a_voter_by_its_configuration_entry() {
    let run = finished("raft-add-server.toml");
    let world = run.world();
    let lines = narration(world);
    let entries = configuration_entries(world, NodeId(0));
    assert_eq!(entries.len(), 2, "one entry per added server: {entries:?}");
    let mut voters_before = NodeSet::first(3);
    let mut from = 0;
    for (learner, (index, voters)) in [NodeId(3), NodeId(4)].into_iter().zip(entries) {
        assert!(!voters_before.contains(learner) && voters.contains(learner));
        let learner_name = world.node_label(learner);
        let joins = position_after(
            &lines,
            from,
            &format!("starts copying its log to {learner_name}, a learner"),
        );
        assert!(
            lines[joins].contains("has no vote until it has caught up"),
            "{}",
            lines[joins]
        );
        let leader = lines[joins].split(' ').next().expect("a first word");
        let caught_up = position_after(
            &lines,
            joins,
            &format!("{learner_name} has caught up with {leader}'s log"),
        );
        from = position_after(
            &lines,
            caught_up,
            &format!(
                "{leader} appends a configuration entry at index {index}: voters {}",
                names(world, voters)
            ),
        );
        voters_before = voters;
    }
}

/// The leader that is removed appends the entry without itself and is told stepping down once that
/// entry commits; the next leader is elected by the four that remain.
#[test]
fn a_removed_leader_is_told_stepping_down_and_the_rest_electing() {
    let run = finished("raft-remove-leader.toml");
    let world = run.world();
    let lines = narration(world);
    let entries = configuration_entries(world, NodeId(0));
    assert_eq!(entries.len(), 1, "one removal: {entries:?}");
    let (index, voters) = entries[0];
    let removed: Vec<NodeId> = NodeSet::first(5)
        .iter()
        .filter(|node| !voters.contains(*node))
        .collect();
    assert_eq!(removed.len(), 1, "{voters:?}");
    let removed_name = world.node_label(removed[0]);
    let appends = position_after(
        &lines,
        0,
        &format!(
            "{removed_name} appends a configuration entry at index {index}: voters {}",
            names(world, voters)
        ),
    );
    let steps_down = position_after(
        &lines,
        appends,
        &format!("{removed_name} is no longer in the configuration, so it steps down as leader"),
    );
    let stepping_down = lines
        .iter()
        .filter(|line| line.contains("steps down as leader"))
        .count();
    assert_eq!(stepping_down, 1, "{}", lines.join("\n"));
    let elected = position_after(&lines, steps_down, "wins the election for term");
    assert!(
        !lines[elected].starts_with(&format!("{removed_name} ")),
        "{}",
        lines[elected]
    );
    assert!(lines[elected].contains("of 4 votes"), "{}", lines[elected]);
}

/// Every worker's ask is told as etcd's calls: a LeaseGrant, a Txn creating its key under the lock's
/// prefix only if it does not exist, and a Watch on the key just before its own.
#[test]
fn a_lock_request_is_told_as_lease_grant_txn_and_a_watch_on_the_predecessor() {
    let run = finished("lock-delay-pause.toml");
    let lines = narration(run.world());
    for worker in ["A", "B"] {
        let asks = position_after(
            &lines,
            0,
            &format!("{worker} asks for the lock: LeaseGrant, then a Txn"),
        );
        for fragment in [
            "creates its key under /lock/jobs/ if its create_revision is 0",
            "it Watches the key just before its own",
        ] {
            assert!(
                lines[asks].contains(fragment),
                "{fragment:?}: {}",
                lines[asks]
            );
        }
    }
    let delay_over = position_after(&lines, 0, "Lock-delay is over");
    assert!(
        lines[delay_over].contains("Watch on the deleted key"),
        "{}",
        lines[delay_over]
    );
}

/// Each grant names the revision it was applied at as the fencing token, with the key the lease
/// created; each release by its holder is a LeaseRevoke of that lease and key; and the store is told
/// checking that same number.
#[test]
fn grants_name_the_revision_as_fencing_token_and_releases_are_lease_revokes() {
    let run = finished("lock-delay-pause.toml");
    let world = run.world();
    let lines = narration(world);
    let changes = lock_changes(world);
    let released = changes
        .iter()
        .filter(|change| change.ended_by_expiry == Some(false))
        .count();
    assert!(released >= 2, "{changes:?}");
    let mut from = 0;
    for change in &changes {
        let owner = world.node_label(change.owner);
        let lease = change.lease;
        let key = format!("/lock/jobs/{lease:x}");
        let expected = match change.ended_by_expiry {
            None => format!(
                "grants the lock to {owner} with fencing token {} (the revision of this grant, its \
                 key's mod_revision): its key {key} is now the oldest under /lock/jobs/",
                change.revision
            ),
            Some(false) => format!(
                "{owner} releases the lock (fencing token {}) with LeaseRevoke: lease {lease:x} and its \
                 key {key} are deleted",
                change.token
            ),
            Some(true) => format!("{owner}'s lease {lease:x} (fencing token {}) expired", change.token),
        };
        from = position_after(&lines, from, &expected);
        if change.ended_by_expiry.is_none() {
            assert!(
                lines[from].contains(&format!("under lease {lease:x}")),
                "{}",
                lines[from]
            );
        }
    }
    let first_grant = &changes[0];
    position_after(
        &lines,
        0,
        &format!(
            "store accepts {}'s write with token {}",
            world.node_label(first_grant.owner),
            first_grant.revision
        ),
    );
}

/// A lease that runs out is told as no LeaseKeepAlive reaching the leader, naming the lease and its
/// key; without lock-delay the lock is free at once.
#[test]
fn an_expired_lease_is_told_as_no_lease_keep_alive_arriving() {
    let run = finished("fencing-pause.toml");
    let world = run.world();
    let lines = narration(world);
    let changes = lock_changes(world);
    let expired: Vec<&LockChange> = changes
        .iter()
        .filter(|change| change.ended_by_expiry == Some(true))
        .collect();
    assert_eq!(expired.len(), 1, "{changes:?}");
    let owner = world.node_label(expired[0].owner);
    let lease = expired[0].lease;
    let told = position_after(
        &lines,
        0,
        &format!("{owner}'s lease {lease:x} (fencing token"),
    );
    for fragment in [
        "no LeaseKeepAlive reached the service's leader in time".to_string(),
        format!("its key /lock/jobs/{lease:x} is deleted"),
    ] {
        assert!(
            lines[told].contains(&fragment),
            "{fragment:?}: {}",
            lines[told]
        );
    }
}
