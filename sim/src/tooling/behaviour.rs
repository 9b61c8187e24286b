//! Which runs this engine reproduces, for links and files that must replay the same after a release.
//!
//! A share link records a seed and the learner's actions, not the run: the run is whatever the engine
//! makes of them. An engine that changes how a world behaves (a timer drawn differently, a message
//! handled in another order) replays an old link into a different run, and nothing in the link itself
//! would notice. So links also carry [`BEHAVIOUR_VERSION`], the scenario's hash ([`scenario_hash`])
//! and the fingerprint the run had where it was made; the app compares them after replaying and says
//! plainly when the run differs, never showing a different run silently.
//!
//! The version is bumped whenever any pinned trace hash changes (`tests/fixtures/expected-hashes.txt`
//! records the version it was made with, and re-blessing changed hashes without a bump is refused).

use crate::tooling::scenario::{to_toml_string, Scenario};

/// The engine's behaviour: equal numbers replay every run to the same trace hash.
pub const BEHAVIOUR_VERSION: u32 = 1;

/// The scenario as this version reads it: XXH64 of its exported TOML, which names every setting.
pub fn scenario_hash(scenario: &Scenario) -> u64 {
    xxhash_rust::xxh64::xxh64(to_toml_string(scenario).as_bytes(), 0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tooling::scenario::{example_text, parse_scenario};

    #[test]
    fn a_scenario_hash_is_stable_and_tells_settings_apart() {
        let text = example_text("leader-crash.toml").expect("an example");
        let scenario = parse_scenario(text, "leader-crash.toml").expect("it parses");
        assert_eq!(
            scenario_hash(&scenario),
            scenario_hash(&parse_scenario(text, "leader-crash.toml").unwrap())
        );
        let mut other = scenario.clone();
        other.seed += 1;
        assert_ne!(scenario_hash(&scenario), scenario_hash(&other));
    }
}
