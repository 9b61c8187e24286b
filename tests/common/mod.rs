//! What the native and the browser determinism tests share: the example scenarios, compiled in, and the
//! fixture both sides check against.
//!
//! The fixture holds one line per scenario file: `NAME TRACE_HASH JSON_FNV_HASH EVENTS_PROCESSED`. The
//! native test (`native_hashes.rs`) fails when the file disagrees with a native run; the browser test
//! (`web_determinism.rs`) fails when the wasm build disagrees with the file. Together they check the
//! determinism contract of issue 3: the same scenario gives the same trace on native and on wasm32.
//! `TRACE_HASH` is the run fingerprint every run now has; `JSON_FNV_HASH` is the one it had before
//! (FNV-1a over JSON lines, still used to check old trace files): its values were pinned long before
//! the compact fingerprint existed, so their holding shows the runs themselves did not change.

// Each test crate that includes this module uses a different part of it.
#![allow(dead_code)]

use quorumlab_sim::fingerprint::FingerprintKind;
use quorumlab_sim::runner::{run_scenario, run_scenario_with_fingerprint};
use quorumlab_sim::scenario::parse_scenario;

/// Every scenario the fixture pins: the files of `sim/scenarios/` ([`SCENARIOS`]), then the examples
/// worlds keep in their own folders (`two-phase-commit/coordinator-crash.toml`), in registry order, so
/// a world added later is pinned without an edit here.
pub fn every_scenario() -> Vec<(&'static str, &'static str)> {
    let in_folders = quorumlab_sim::registry::ENTRIES
        .iter()
        .flat_map(|entry| entry.parts.examples().iter().copied());
    SCENARIOS.iter().copied().chain(in_folders).collect()
}

pub const FIXTURE_PATH: &str = "tests/fixtures/expected-hashes.txt";
pub const REGENERATE: &str = "QUORUMLAB_BLESS=1 cargo test -p quorumlab --test native_hashes";

/// Every example scenario (`sim/scenarios/*.toml`), by file name. The native test fails if a file is
/// added to that folder without being listed here.
pub const SCENARIOS: [(&str, &str); 40] = [
    (
        "clock-drift.toml",
        include_str!("../../sim/scenarios/clock-drift.toml"),
    ),
    (
        "every-action.toml",
        include_str!("../../sim/scenarios/every-action.toml"),
    ),
    (
        "fencing-pause.toml",
        include_str!("../../sim/scenarios/fencing-pause.toml"),
    ),
    (
        "fifty-one-nodes.toml",
        include_str!("../../sim/scenarios/fifty-one-nodes.toml"),
    ),
    (
        "leader-crash.toml",
        include_str!("../../sim/scenarios/leader-crash.toml"),
    ),
    (
        "lease-reads-skewed-clock.toml",
        include_str!("../../sim/scenarios/lease-reads-skewed-clock.toml"),
    ),
    (
        "lease-reads.toml",
        include_str!("../../sim/scenarios/lease-reads.toml"),
    ),
    (
        "lock-delay-long-pause.toml",
        include_str!("../../sim/scenarios/lock-delay-long-pause.toml"),
    ),
    (
        "lock-delay-pause.toml",
        include_str!("../../sim/scenarios/lock-delay-pause.toml"),
    ),
    (
        "lossy-network.toml",
        include_str!("../../sim/scenarios/lossy-network.toml"),
    ),
    (
        "no-fencing-pause.toml",
        include_str!("../../sim/scenarios/no-fencing-pause.toml"),
    ),
    (
        "one-node.toml",
        include_str!("../../sim/scenarios/one-node.toml"),
    ),
    (
        "partition-minority.toml",
        include_str!("../../sim/scenarios/partition-minority.toml"),
    ),
    (
        "paused-leader.toml",
        include_str!("../../sim/scenarios/paused-leader.toml"),
    ),
    (
        "paxos-duel.toml",
        include_str!("../../sim/scenarios/paxos-duel.toml"),
    ),
    (
        "paxos-forgetful-acceptor.toml",
        include_str!("../../sim/scenarios/paxos-forgetful-acceptor.toml"),
    ),
    (
        "paxos-learners.toml",
        include_str!("../../sim/scenarios/paxos-learners.toml"),
    ),
    (
        "paxos-proposer-crash.toml",
        include_str!("../../sim/scenarios/paxos-proposer-crash.toml"),
    ),
    (
        "pbft-byzantine-primary.toml",
        include_str!("../../sim/scenarios/pbft-byzantine-primary.toml"),
    ),
    (
        "pbft-misconfigured-three.toml",
        include_str!("../../sim/scenarios/pbft-misconfigured-three.toml"),
    ),
    (
        "pbft-normal.toml",
        include_str!("../../sim/scenarios/pbft-normal.toml"),
    ),
    (
        "pbft-seven.toml",
        include_str!("../../sim/scenarios/pbft-seven.toml"),
    ),
    (
        "prevote-rejoin.toml",
        include_str!("../../sim/scenarios/prevote-rejoin.toml"),
    ),
    (
        "queue-global-lock.toml",
        include_str!("../../sim/scenarios/queue-global-lock.toml"),
    ),
    (
        "queue-partitioned.toml",
        include_str!("../../sim/scenarios/queue-partitioned.toml"),
    ),
    (
        "raft-add-server.toml",
        include_str!("../../sim/scenarios/raft-add-server.toml"),
    ),
    (
        "raft-direct-membership-split.toml",
        include_str!("../../sim/scenarios/raft-direct-membership-split.toml"),
    ),
    (
        "raft-remove-leader.toml",
        include_str!("../../sim/scenarios/raft-remove-leader.toml"),
    ),
    (
        "redis-unsafe-release.toml",
        include_str!("../../sim/scenarios/redis-unsafe-release.toml"),
    ),
    (
        "redlock-clock-jump.toml",
        include_str!("../../sim/scenarios/redlock-clock-jump.toml"),
    ),
    (
        "scheduler-leader-election.toml",
        include_str!("../../sim/scenarios/scheduler-leader-election.toml"),
    ),
    (
        "scheduler-leader-fencing.toml",
        include_str!("../../sim/scenarios/scheduler-leader-fencing.toml"),
    ),
    (
        "scheduler-lock-every-run.toml",
        include_str!("../../sim/scenarios/scheduler-lock-every-run.toml"),
    ),
    (
        "scheduler-none.toml",
        include_str!("../../sim/scenarios/scheduler-none.toml"),
    ),
    (
        "slow-follower.toml",
        include_str!("../../sim/scenarios/slow-follower.toml"),
    ),
    (
        "split-vote.toml",
        include_str!("../../sim/scenarios/split-vote.toml"),
    ),
    (
        "stale-lease-read.toml",
        include_str!("../../sim/scenarios/stale-lease-read.toml"),
    ),
    (
        "two-regions.toml",
        include_str!("../../sim/scenarios/two-regions.toml"),
    ),
    (
        "zk-herd.toml",
        include_str!("../../sim/scenarios/zk-herd.toml"),
    ),
    (
        "zk-sequential.toml",
        include_str!("../../sim/scenarios/zk-sequential.toml"),
    ),
];

/// One scenario's run as the fixture records it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expected {
    pub name: String,
    pub trace_hash: String,
    pub json_fnv_hash: String,
    pub events_processed: u64,
}

impl Expected {
    pub fn line(&self) -> String {
        format!(
            "{} {} {} {}",
            self.name, self.trace_hash, self.json_fnv_hash, self.events_processed
        )
    }
}

/// Runs one compiled-in scenario on whatever target this test was built for.
pub fn run(name: &str, text: &str) -> Expected {
    let scenario = parse_scenario(text, name).unwrap_or_else(|error| panic!("{name}: {error}"));
    let report = run_scenario(&scenario).unwrap_or_else(|error| panic!("{name}: {error}"));
    let json_fnv = run_scenario_with_fingerprint(&scenario, FingerprintKind::JsonFnv)
        .unwrap_or_else(|error| panic!("{name}: {error}"));
    assert_eq!(
        json_fnv.world.events_processed, report.world.events_processed,
        "{name}: the fingerprint changed the run"
    );
    Expected {
        name: name.to_string(),
        trace_hash: report.world.trace_hash,
        json_fnv_hash: json_fnv.world.trace_hash,
        events_processed: report.world.events_processed,
    }
}

/// Parses the fixture; `#` starts a comment line.
pub fn parse_fixture(text: &str) -> Vec<Expected> {
    text.lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .map(|line| {
            let fields: Vec<&str> = line.split_whitespace().collect();
            assert_eq!(
                fields.len(),
                4,
                "fixture line `{line}`: NAME TRACE_HASH JSON_FNV_HASH EVENTS"
            );
            Expected {
                name: fields[0].to_string(),
                trace_hash: fields[1].to_string(),
                json_fnv_hash: fields[2].to_string(),
                events_processed: fields[3]
                    .parse()
                    .unwrap_or_else(|_| panic!("fixture line `{line}`: events is a number")),
            }
        })
        .collect()
}

/// The fixture's line naming the engine behaviour version its hashes were made with.
pub const BEHAVIOUR_LINE: &str = "# behaviour version ";

/// The behaviour version a fixture names, if it names one.
pub fn fixture_behaviour_version(text: &str) -> Option<u32> {
    text.lines()
        .find_map(|line| line.strip_prefix(BEHAVIOUR_LINE))
        .and_then(|number| number.trim().parse().ok())
}

pub fn render_fixture(expected: &[Expected]) -> String {
    let mut text = format!(
        "# Trace hashes of sim/scenarios/*.toml from a native run: NAME TRACE_HASH JSON_FNV_HASH EVENTS_PROCESSED.\n\
         # TRACE_HASH is the run fingerprint; JSON_FNV_HASH the older one, which old trace files carry.\n\
         # tests/native_hashes.rs checks them natively, tests/web_determinism.rs in the browser (wasm32).\n\
         # Regenerate after a deliberate engine change: {REGENERATE}\n\
         # When a hash below changes, bump BEHAVIOUR_VERSION (sim/src/tooling/behaviour.rs) first.\n\
         {BEHAVIOUR_LINE}{}\n",
        quorumlab_sim::behaviour::BEHAVIOUR_VERSION
    );
    for entry in expected {
        text.push_str(&entry.line());
        text.push('\n');
    }
    text
}
