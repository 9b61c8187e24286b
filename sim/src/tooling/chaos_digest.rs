//! One number per world for the native = wasm check at scale: the FNV-1a digest of the trace hashes of
//! many short chaos seeds, every registry entry in its default sweep configuration under the mixed
//! profile. The app crate's `native_chaos_digests` test computes it natively and `web_determinism`
//! computes it in headless Chromium; both compare with `tests/fixtures/chaos-digests.txt`, which the
//! native test rewrites when asked (see the file's header). The runs are short (a fault window of
//! [`FAULT_WINDOW_MS`] and a quiet period of [`QUIET_MS`]) so that a thousand seeds per world fit the
//! browser test's time budget; every fault kind still happens in them.

use crate::base::hash::Fnv;
use crate::tooling::chaos::locks::{lock_chaos_scenario, LockChaosOptions};
use crate::tooling::chaos::{chaos_scenario, ChaosOptions};
use crate::tooling::runner::ScenarioRun;
use crate::worlds::registry::{self, Entry};

/// Seeds per world the fixture records (seeds 1 to this).
pub const DIGEST_SEEDS: u64 = 1_000;
pub const FAULT_WINDOW_MS: u64 = 400;
pub const QUIET_MS: u64 = 200;

/// The digest of one world's seeds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WorldDigest {
    pub world: String,
    /// 16 lowercase hex digits.
    pub digest: String,
    pub seeds: u64,
}

impl WorldDigest {
    /// `WORLD DIGEST SEEDS`, one fixture line.
    pub fn line(&self) -> String {
        format!("{} {} {}", self.world, self.digest, self.seeds)
    }
}

/// The digest of seeds `1..=seeds` of `entry`'s short chaos runs.
pub fn world_digest(entry: &Entry, seeds: u64) -> Result<WorldDigest, String> {
    let mut hash = Fnv::new();
    let lock_options = LockChaosOptions::default_for(entry.kind).map(|options| LockChaosOptions {
        fault_window_ms: FAULT_WINDOW_MS,
        quiet_ms: QUIET_MS,
        ..options
    });
    let raft_options = ChaosOptions {
        fault_window_ms: FAULT_WINDOW_MS,
        quiet_ms: QUIET_MS,
        ..ChaosOptions::default()
    };
    for seed in 1..=seeds {
        let scenario = match &lock_options {
            Some(options) => lock_chaos_scenario(seed, options),
            None => chaos_scenario(seed, &raft_options),
        };
        let mut run = ScenarioRun::new(scenario)?;
        run.run_to_end();
        hash.write_u64(run.world().trace_hash());
    }
    Ok(WorldDigest {
        world: entry.name.to_string(),
        digest: format!("{:016x}", hash.finish()),
        seeds,
    })
}

/// Every registry entry's digest, in registry order.
pub fn every_world_digest(seeds: u64) -> Result<Vec<WorldDigest>, String> {
    registry::ENTRIES
        .iter()
        .map(|entry| world_digest(entry, seeds))
        .collect()
}

/// The fixture's digest lines (`#` comments and blank lines skipped).
pub fn parse_digests(text: &str) -> Result<Vec<WorldDigest>, String> {
    text.lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty() && !line.starts_with('#'))
        .map(|(index, line)| {
            let fields: Vec<&str> = line.split_whitespace().collect();
            let [world, digest, seeds] = fields[..] else {
                return Err(format!(
                    "line {}: expected `WORLD DIGEST SEEDS`, found `{line}`",
                    index + 1
                ));
            };
            let seeds = seeds
                .parse()
                .map_err(|_| format!("line {}: `{seeds}` is not a seed count", index + 1))?;
            Ok(WorldDigest {
                world: world.to_string(),
                digest: digest.to_string(),
                seeds,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digests_read_back_and_differ_between_worlds_and_seed_counts() {
        let digests = every_world_digest(3).unwrap();
        assert_eq!(digests.len(), registry::ENTRIES.len());
        let text: String = digests.iter().map(|d| d.line() + "\n").collect();
        assert_eq!(
            parse_digests(&format!("# header\n\n{text}")).unwrap(),
            digests
        );
        let mut distinct: Vec<&str> = digests.iter().map(|d| d.digest.as_str()).collect();
        distinct.sort_unstable();
        distinct.dedup();
        assert_eq!(distinct.len(), digests.len());
        let raft = registry::by_name("raft").unwrap();
        assert_ne!(world_digest(raft, 2).unwrap().digest, digests[0].digest);
    }

    #[test]
    fn a_malformed_line_is_named() {
        let error = parse_digests("# ok\nraft 0123\n").unwrap_err();
        assert!(error.contains("line 2") && error.contains("WORLD DIGEST SEEDS"));
        assert!(parse_digests("raft 0123 many")
            .unwrap_err()
            .contains("`many`"));
    }
}
