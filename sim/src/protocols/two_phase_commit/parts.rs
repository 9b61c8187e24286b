//! What the two-phase-commit world owns beyond its actors, for its registry entry: the Atomicity
//! checker, its one-coordinator rule, its example scenarios and its lesson checkpoint.

use super::checker::TwoPhaseChecker;
use crate::contract::checkpoint::CheckpointSpec;
use crate::contract::config::ProtocolConfig;
use crate::contract::entry::parts::{exactly_one_server, Arming, WorldParts};
use crate::contract::invalid::Invalid;
use crate::contract::verdicts::WorldChecker;

#[derive(Debug)]
pub struct TwoPhaseParts;

/// The world's examples, named `two-phase-commit/<file>.toml`.
const EXAMPLES: &[(&str, &str)] = &[
    (
        "two-phase-commit/coordinator-crash.toml",
        include_str!("examples/coordinator-crash.toml"),
    ),
    (
        "two-phase-commit/happy-commit.toml",
        include_str!("examples/happy-commit.toml"),
    ),
];

impl WorldParts for TwoPhaseParts {
    fn checker(&self, arming: &Arming) -> Option<Box<dyn WorldChecker>> {
        Some(Box::new(TwoPhaseChecker::armed(arming)))
    }

    /// One coordinator decides; the participants are the lettered actors.
    fn servers_fit(&self, servers: usize, _protocol: &ProtocolConfig) -> Result<(), Invalid> {
        exactly_one_server(servers, "the coordinator")
    }

    fn examples(&self) -> &'static [(&'static str, &'static str)] {
        EXAMPLES
    }

    fn checkpoints(&self) -> &'static [CheckpointSpec] {
        super::checkpoints::CHECKPOINTS
    }
}
