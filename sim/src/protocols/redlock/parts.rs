//! What the two Redis-style worlds own beyond their servers and clients, for their registry entries:
//! Redlock's variation that trades it for the fenced lock service, and the single Redis lock's rule
//! that it has exactly one server.

use crate::contract::config::ProtocolConfig;
use crate::contract::entry::parts::{exactly_one_server, VariationHook, WorldParts};
use crate::contract::invalid::Invalid;

#[derive(Debug)]
pub struct RedlockParts;

impl WorldParts for RedlockParts {
    fn variations(&self) -> &'static [VariationHook] {
        &[super::variations::REDLOCK]
    }
}

#[derive(Debug)]
pub struct RedisLockParts;

impl WorldParts for RedisLockParts {
    /// One Redis server is the whole point (and the single point of failure).
    fn servers_fit(&self, servers: usize, _protocol: &ProtocolConfig) -> Result<(), Invalid> {
        exactly_one_server(servers, "a single Redis server")
    }
}
