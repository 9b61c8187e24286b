//! What the PBFT world owns beyond its replicas and clients, for its registry entry: the checker of
//! Honest Agreement.

use super::checker::PbftChecker;
use crate::contract::entry::parts::{Arming, WorldParts};
use crate::contract::verdicts::WorldChecker;

#[derive(Debug)]
pub struct PbftParts;

impl WorldParts for PbftParts {
    fn checker(&self, arming: &Arming) -> Option<Box<dyn WorldChecker>> {
        Some(Box::new(PbftChecker::armed(arming)))
    }
}
