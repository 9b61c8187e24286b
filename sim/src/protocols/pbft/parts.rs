//! What the PBFT world owns beyond its replicas and clients, for its registry entry: the checker of
//! Honest Agreement, what its price of agreement counts
//! (and against what Raft run), and its Byzantine chaos.

use super::checker::PbftChecker;
use super::PbftClient;
use crate::contract::action::Action;
use crate::contract::config::ProtocolConfig;
use crate::contract::entry::parts::{AimedChaos, Arming, WorldParts};
use crate::contract::verdicts::WorldChecker;
use crate::contract::world_read::{actors_of, WorldRead};

#[derive(Debug)]
pub struct PbftParts;

impl WorldParts for PbftParts {
    fn checker(&self, arming: &Arming) -> Option<Box<dyn WorldChecker>> {
        Some(Box::new(PbftChecker::armed(arming)))
    }

    fn aimed_chaos(&self) -> Option<AimedChaos> {
        Some(super::chaos::AIMED)
    }

    fn raft_baseline_interval_ms(&self, protocol: &ProtocolConfig) -> Option<u64> {
        match protocol {
            ProtocolConfig::Pbft(_, options) => Some(options.request_interval_ms),
            _ => None,
        }
    }

    fn mixed_chaos_opening(&self, seed: u64, servers: usize) -> Option<(u64, Action)> {
        Some(super::chaos::liar(seed, servers))
    }

    /// A request counts once a client takes its result on f + 1 matching replies.
    fn committed_requests(&self, world: &dyn WorldRead) -> Option<(&'static str, u64)> {
        let taken = actors_of::<PbftClient>(world)
            .map(|(_, client)| client.accepted)
            .sum();
        Some(("pbft", taken))
    }
}
