//! What the PBFT world owns beyond its replicas and clients, for its registry entry: the checker of
//! Honest Agreement, what its price of agreement counts (and against what Raft run), and its lesson
//! checkpoints (`checkpoints.rs`). Its Byzantine
//! chaos, `chaos.rs`, is listed apart: `registry::chaos`.

use super::checker::PbftChecker;
use super::PbftClient;
use crate::contract::checkpoint::CheckpointSpec;
use crate::contract::config::ProtocolConfig;
use crate::contract::entry::parts::{Arming, WorldParts};
use crate::contract::invalid::Invalid;
use crate::contract::verdicts::WorldChecker;
use crate::contract::world_read::{actors_of, WorldRead};

#[derive(Debug)]
pub struct PbftParts;

impl WorldParts for PbftParts {
    fn checker(&self, arming: &Arming) -> Option<Box<dyn WorldChecker>> {
        Some(Box::new(PbftChecker::armed(arming)))
    }

    /// A quorum set by hand cannot ask for more replicas than there are.
    fn servers_fit(&self, servers: usize, protocol: &ProtocolConfig) -> Result<(), Invalid> {
        let ProtocolConfig::Pbft(_, options) = protocol else {
            return Ok(());
        };
        if options.quorum as usize > servers {
            return Err(Invalid::OutOfRange {
                field: "pbft.quorum".into(),
                value: options.quorum.to_string(),
                expected: format!(
                    "a pbft.quorum of 0 (for 2f + 1) or at most the {servers} replicas"
                ),
            });
        }
        Ok(())
    }

    fn raft_baseline_interval_ms(&self, protocol: &ProtocolConfig) -> Option<u64> {
        match protocol {
            ProtocolConfig::Pbft(_, options) => Some(options.request_interval_ms),
            _ => None,
        }
    }

    /// A request counts once a client takes its result on f + 1 matching replies.
    fn committed_requests(&self, world: &dyn WorldRead) -> Option<(&'static str, u64)> {
        let taken = actors_of::<PbftClient>(world)
            .map(|(_, client)| client.accepted)
            .sum();
        Some(("pbft", taken))
    }

    fn checkpoints(&self) -> &'static [CheckpointSpec] {
        super::checkpoints::CHECKPOINTS
    }
}
