//! Property tests for the pure quorum helper, against an obviously-correct naive version
//! (the idea of etcd's `quorum/quick_test.go`).

use proptest::prelude::*;
use quorumlab_sim::raft::quorum::{majority, naive_quorum_commit_index, quorum_commit_index};

proptest! {
    #[test]
    fn quorum_commit_index_matches_the_naive_computation(matches in prop::collection::vec(0u64..50, 1..=51)) {
        let mut scratch = Vec::new();
        prop_assert_eq!(quorum_commit_index(&matches, &mut scratch), naive_quorum_commit_index(&matches));
    }

    #[test]
    fn the_quorum_index_is_stored_on_a_majority_and_nothing_higher_is(matches in prop::collection::vec(0u64..1_000, 1..=51)) {
        let mut scratch = Vec::new();
        let index = quorum_commit_index(&matches, &mut scratch);
        let holders = matches.iter().filter(|m| **m >= index).count();
        prop_assert!(holders >= majority(matches.len()));
        let above = matches.iter().filter(|m| **m > index).count();
        prop_assert!(above < majority(matches.len()));
    }
}
