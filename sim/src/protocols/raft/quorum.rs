//! Pure quorum arithmetic, kept apart so it can be property-tested against a naive version.

/// Votes (or acknowledgements) needed out of `voters`: a strict majority.
pub fn majority(voters: usize) -> usize {
    voters / 2 + 1
}

/// The highest index stored on a majority, given every voter's match index (the leader's own included).
/// `scratch` is reused to avoid allocating on every acknowledgement.
/// Generic because the same order statistic also finds the newest send time a majority acknowledged
/// (the leader's read lease), which is a time and not an index.
pub fn quorum_commit_index<T: Copy + Ord + Default>(
    match_indexes: &[T],
    scratch: &mut Vec<T>,
) -> T {
    if match_indexes.is_empty() {
        return T::default();
    }
    scratch.clear();
    scratch.extend_from_slice(match_indexes);
    // The majority-th largest: sort descending and take position majority - 1.
    let position = majority(match_indexes.len()) - 1;
    let (_, nth, _) = scratch.select_nth_unstable_by(position, |a, b| b.cmp(a));
    *nth
}

/// Obviously-correct reference: the largest index `n` such that a majority has match >= n.
pub fn naive_quorum_commit_index<T: Copy + Ord + Default>(match_indexes: &[T]) -> T {
    let needed = majority(match_indexes.len());
    let mut best = T::default();
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
