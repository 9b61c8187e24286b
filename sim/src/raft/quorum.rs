//! Pure quorum arithmetic, kept apart so it can be property-tested against a naive version.

/// Votes (or acknowledgements) needed out of `voters`: a strict majority.
pub fn majority(voters: usize) -> usize {
    voters / 2 + 1
}

/// The highest index stored on a majority, given every voter's match index (the leader's own included).
/// `scratch` is reused to avoid allocating on every acknowledgement.
pub fn quorum_commit_index(match_indexes: &[u64], scratch: &mut Vec<u64>) -> u64 {
    if match_indexes.is_empty() {
        return 0;
    }
    scratch.clear();
    scratch.extend_from_slice(match_indexes);
    // The majority-th largest: sort descending and take position majority - 1.
    let position = majority(match_indexes.len()) - 1;
    let (_, nth, _) = scratch.select_nth_unstable_by(position, |a, b| b.cmp(a));
    *nth
}

/// Obviously-correct reference: the largest index `n` such that a majority has match >= n.
pub fn naive_quorum_commit_index(match_indexes: &[u64]) -> u64 {
    let needed = majority(match_indexes.len());
    let mut best = 0;
    for &candidate in match_indexes {
        let holders = match_indexes
            .iter()
            .filter(|&&other| other >= candidate)
            .count();
        if holders >= needed && candidate > best {
            best = candidate;
        }
    }
    best
}
