//! The example scenarios of `sim/scenarios/`, compiled in, so the app can offer them without a file
//! system, and after them every world's own (its folder's, listed by its registry entry's parts). A
//! test checks that [`EXAMPLES`] and the folder agree.
//!
//! A world added later brings its examples in its folder; [`all_examples`] and [`example_text`] find
//! them through the registry, so this list, the tests' loader and the lesson parser need no edit.

use crate::worlds::registry::ENTRIES;

/// Every example: [`EXAMPLES`], then each world's own in registry order (named `<world>/<file>.toml`).
pub fn all_examples() -> impl Iterator<Item = (&'static str, &'static str)> {
    let worlds = ENTRIES.iter().flat_map(|entry| entry.parts.examples());
    EXAMPLES.iter().chain(worlds).copied()
}

/// The text of the example called `name` (`leader-crash.toml`, `two-phase-commit/coordinator-crash.toml`).
pub fn example_text(name: &str) -> Option<&'static str> {
    all_examples()
        .find(|(known, _)| *known == name)
        .map(|(_, text)| text)
}

/// `(file name, TOML text)` for every example scenario, in a stable teaching order: Raft first, then
/// the coordination protocols.
pub const EXAMPLES: &[(&str, &str)] = &[
    (
        "leader-crash.toml",
        include_str!("../../../scenarios/leader-crash.toml"),
    ),
    (
        "partition-minority.toml",
        include_str!("../../../scenarios/partition-minority.toml"),
    ),
    (
        "paused-leader.toml",
        include_str!("../../../scenarios/paused-leader.toml"),
    ),
    (
        "split-vote.toml",
        include_str!("../../../scenarios/split-vote.toml"),
    ),
    (
        "lossy-network.toml",
        include_str!("../../../scenarios/lossy-network.toml"),
    ),
    (
        "clock-drift.toml",
        include_str!("../../../scenarios/clock-drift.toml"),
    ),
    (
        "prevote-rejoin.toml",
        include_str!("../../../scenarios/prevote-rejoin.toml"),
    ),
    (
        "lease-reads.toml",
        include_str!("../../../scenarios/lease-reads.toml"),
    ),
    (
        "lease-reads-skewed-clock.toml",
        include_str!("../../../scenarios/lease-reads-skewed-clock.toml"),
    ),
    (
        "stale-lease-read.toml",
        include_str!("../../../scenarios/stale-lease-read.toml"),
    ),
    (
        "slow-follower.toml",
        include_str!("../../../scenarios/slow-follower.toml"),
    ),
    (
        "two-regions.toml",
        include_str!("../../../scenarios/two-regions.toml"),
    ),
    (
        "every-action.toml",
        include_str!("../../../scenarios/every-action.toml"),
    ),
    (
        "raft-add-server.toml",
        include_str!("../../../scenarios/raft-add-server.toml"),
    ),
    (
        "raft-remove-leader.toml",
        include_str!("../../../scenarios/raft-remove-leader.toml"),
    ),
    (
        "raft-direct-membership-split.toml",
        include_str!("../../../scenarios/raft-direct-membership-split.toml"),
    ),
    // Coordination protocols (lock service, Redis lock, Redlock, scheduler, ZooKeeper, work queue).
    (
        "fencing-pause.toml",
        include_str!("../../../scenarios/fencing-pause.toml"),
    ),
    (
        "no-fencing-pause.toml",
        include_str!("../../../scenarios/no-fencing-pause.toml"),
    ),
    (
        "redis-unsafe-release.toml",
        include_str!("../../../scenarios/redis-unsafe-release.toml"),
    ),
    (
        "redlock-clock-jump.toml",
        include_str!("../../../scenarios/redlock-clock-jump.toml"),
    ),
    (
        "scheduler-none.toml",
        include_str!("../../../scenarios/scheduler-none.toml"),
    ),
    (
        "scheduler-lock-every-run.toml",
        include_str!("../../../scenarios/scheduler-lock-every-run.toml"),
    ),
    (
        "scheduler-leader-election.toml",
        include_str!("../../../scenarios/scheduler-leader-election.toml"),
    ),
    (
        "scheduler-leader-fencing.toml",
        include_str!("../../../scenarios/scheduler-leader-fencing.toml"),
    ),
    (
        "zk-herd.toml",
        include_str!("../../../scenarios/zk-herd.toml"),
    ),
    (
        "zk-sequential.toml",
        include_str!("../../../scenarios/zk-sequential.toml"),
    ),
    (
        "queue-partitioned.toml",
        include_str!("../../../scenarios/queue-partitioned.toml"),
    ),
    (
        "queue-global-lock.toml",
        include_str!("../../../scenarios/queue-global-lock.toml"),
    ),
    (
        "paxos-duel.toml",
        include_str!("../../../scenarios/paxos-duel.toml"),
    ),
    (
        "paxos-proposer-crash.toml",
        include_str!("../../../scenarios/paxos-proposer-crash.toml"),
    ),
    (
        "paxos-forgetful-acceptor.toml",
        include_str!("../../../scenarios/paxos-forgetful-acceptor.toml"),
    ),
    (
        "paxos-learners.toml",
        include_str!("../../../scenarios/paxos-learners.toml"),
    ),
    // Added for the gallery (issue 16): the smallest and the largest cluster.
    (
        "one-node.toml",
        include_str!("../../../scenarios/one-node.toml"),
    ),
    (
        "fifty-one-nodes.toml",
        include_str!("../../../scenarios/fifty-one-nodes.toml"),
    ),
    (
        "pbft-normal.toml",
        include_str!("../../../scenarios/pbft-normal.toml"),
    ),
    (
        "pbft-byzantine-primary.toml",
        include_str!("../../../scenarios/pbft-byzantine-primary.toml"),
    ),
    (
        "pbft-misconfigured-three.toml",
        include_str!("../../../scenarios/pbft-misconfigured-three.toml"),
    ),
    (
        "pbft-seven.toml",
        include_str!("../../../scenarios/pbft-seven.toml"),
    ),
    // Consul-style lock-delay on the lock service (issue 14): what it buys, and what it does not.
    (
        "lock-delay-pause.toml",
        include_str!("../../../scenarios/lock-delay-pause.toml"),
    ),
    (
        "lock-delay-long-pause.toml",
        include_str!("../../../scenarios/lock-delay-long-pause.toml"),
    ),
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tooling::scenario::parse_scenario;

    /// A world's examples carry its name as their folder and open as a run of that world.
    #[test]
    fn every_worlds_own_example_is_named_for_its_world_and_opens_as_it() {
        for entry in ENTRIES {
            for (name, text) in entry.parts.examples() {
                let prefix = format!("{}/", entry.name);
                assert!(name.starts_with(&prefix), "{name} is not under {prefix}");
                let scenario = parse_scenario(text, name).unwrap_or_else(|error| panic!("{error}"));
                assert_eq!(scenario.protocol.kind(), entry.kind, "{name}");
                assert_eq!(example_text(name), Some(*text));
            }
        }
    }

    #[test]
    fn examples_are_found_by_name_and_unknown_names_are_not() {
        let mut names: Vec<&str> = all_examples().map(|(name, _)| name).collect();
        assert!(names.len() >= EXAMPLES.len());
        assert_eq!(
            names[..EXAMPLES.len()],
            EXAMPLES.iter().map(|(name, _)| *name).collect::<Vec<_>>()[..]
        );
        let (first, text) = EXAMPLES[0];
        assert_eq!(example_text(first), Some(text));
        assert_eq!(example_text("no-such-example.toml"), None);
        assert_eq!(example_text(&format!("sim/scenarios/{first}")), None);
        names.sort_unstable();
        let count = names.len();
        names.dedup();
        assert_eq!(names.len(), count, "two examples share a name");
    }
}
