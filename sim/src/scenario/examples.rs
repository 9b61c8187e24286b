//! The example scenarios of `sim/scenarios/`, compiled in, so the app can offer them without a file
//! system. A test checks that this list and the folder agree.

/// `(file name, TOML text)` for every example scenario, in a stable teaching order.
pub const EXAMPLES: &[(&str, &str)] = &[
    (
        "leader-crash.toml",
        include_str!("../../scenarios/leader-crash.toml"),
    ),
    (
        "partition-minority.toml",
        include_str!("../../scenarios/partition-minority.toml"),
    ),
    (
        "paused-leader.toml",
        include_str!("../../scenarios/paused-leader.toml"),
    ),
    (
        "split-vote.toml",
        include_str!("../../scenarios/split-vote.toml"),
    ),
    (
        "lossy-network.toml",
        include_str!("../../scenarios/lossy-network.toml"),
    ),
    (
        "clock-drift.toml",
        include_str!("../../scenarios/clock-drift.toml"),
    ),
    (
        "prevote-rejoin.toml",
        include_str!("../../scenarios/prevote-rejoin.toml"),
    ),
    (
        "lease-reads.toml",
        include_str!("../../scenarios/lease-reads.toml"),
    ),
    (
        "every-action.toml",
        include_str!("../../scenarios/every-action.toml"),
    ),
];
