//! How the PBFT world is built: replicas `n1..nN`, then the clients. No store. Generic over the
//! world's actor type, which the registry line picks (`A: From<…>` wraps each actor in its variant),
//! and drawing nothing from the world's generator.

use super::{quorum_size, PbftClient, Replica};
use crate::base::ids::NodeId;
use crate::contract::config::{ProtocolConfig, WorldConfig};
use crate::contract::layout::Layout;

pub fn actors<A>(config: &WorldConfig, layout: &Layout) -> Vec<A>
where
    A: From<Replica> + From<PbftClient>,
{
    let ProtocolConfig::Pbft(_, options) = &config.protocol else {
        unreachable!("the PBFT builder runs only for a PBFT world");
    };
    let quorum = quorum_size(layout.servers, options.quorum);
    let mut actors: Vec<A> = (0..layout.servers)
        .map(|index| A::from(Replica::new(NodeId(index as u16), layout.servers, *options)))
        .collect();
    for index in 0..layout.workers {
        let client = PbftClient::new(
            layout.worker(index),
            index,
            layout.servers,
            quorum,
            *options,
        );
        actors.push(A::from(client));
    }
    actors
}
