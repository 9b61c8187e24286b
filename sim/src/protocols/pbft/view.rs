//! The PBFT world's part of a frame: each replica's view, the primary it follows and its newest
//! sequence slots (phase, digest, votes), each client's request and the replies it has, the
//! messages the run has cost so far for the results clients took, and which replicas are faulty
//! right now, so the card can say when there are more than the f that n = 3f + 1 tolerates.
//!
//! PBFT promises nothing past f faults: with n = 4, a crashed replica and a lying one leave two
//! honest replicas, one short of the 2f + 1 = 3 matching votes a request needs, so no view can
//! commit anything and a client waits for as long as both faults last. That is the model, not a
//! stall to fix, and the card says so instead of leaving the learner to watch a client wait.

use super::{
    faults_tolerated, is_forged, quorum_size, reply_quorum, Digest, PbftClient, Replica, SlotPhase,
};
use crate::base::ids::{NodeId, NodeSet};
use crate::contract::action::ByzantineMode;
use crate::contract::config::ProtocolConfig;
use crate::contract::node_status::NodeStatus;
use crate::contract::world_read::{actors_of, WorldRead};
use serde::Serialize;

/// Newest sequence slots shown per replica.
pub const MAX_VIEW_SLOTS: usize = 6;

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct PbftView {
    pub replicas: Vec<ReplicaView>,
    pub clients: Vec<PbftClientView>,
    /// f: the liars the replica count tolerates with the safe quorum.
    pub faults_tolerated: usize,
    /// Matching prepares or commits a slot needs (2f + 1, or the configured one).
    pub quorum: usize,
    /// Matching replies a client waits for.
    pub reply_quorum: usize,
    /// Messages replicas and clients have sent since the run began.
    pub messages_sent: u64,
    /// Results the clients have taken (each a committed request a client knows about).
    pub results_taken: u64,
    /// Replicas faulty at this moment: crashed, paused or lying (lowest first). Above
    /// `faults_tolerated`, PBFT guarantees neither progress nor agreement.
    pub faulty: Vec<NodeId>,
}

impl PbftView {
    /// More replicas are faulty than the replica count tolerates.
    pub fn beyond_tolerance(&self) -> bool {
        self.faulty.len() > self.faults_tolerated
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct ReplicaView {
    pub id: NodeId,
    /// Up, crashed or paused: a crashed replica leads and lies in nothing until it restarts.
    pub status: NodeStatus,
    pub view: u64,
    /// The view it asked to move to and has not entered yet.
    pub changing_to: Option<u64>,
    /// The primary of the view it is in.
    pub primary: NodeId,
    pub lying: Option<ByzantineMode>,
    /// Every sequence number up to this one executed.
    pub executed: u64,
    /// Newest last, at most `MAX_VIEW_SLOTS`.
    pub slots: Vec<SlotView>,
    pub waiting_requests: usize,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct SlotView {
    pub sequence: u64,
    pub view: u64,
    pub phase: SlotPhase,
    pub digest: Option<Digest>,
    /// The request the accepted pre-prepare carried: client and its request number.
    pub request: Option<(NodeId, u64)>,
    /// The request is one an equivocating primary made up.
    pub forged: bool,
    /// Replicas that vouched for the accepted digest, and that committed it.
    pub vouchers: usize,
    pub committers: usize,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct PbftClientView {
    pub id: NodeId,
    /// The request it waits on (its number), if any.
    pub waiting_on: Option<u64>,
    /// Replies to that request: the sequence number named, and which replicas named it.
    pub replies: Vec<(u64, NodeSet)>,
    pub needed: usize,
    pub accepted: u64,
    /// The last result taken: request number and the sequence number it executed at.
    pub last_result: Option<(u64, u64)>,
}

fn replica_view(replica: &Replica, status: NodeStatus) -> ReplicaView {
    let slots = replica
        .slots
        .iter()
        .rev()
        .take(MAX_VIEW_SLOTS)
        .rev()
        .map(|(&sequence, slot)| SlotView {
            sequence,
            view: slot.view,
            phase: slot.phase,
            digest: slot.digest,
            request: slot.request.map(|request| (request.client, request.number)),
            forged: slot
                .request
                .is_some_and(|request| is_forged(request.operation)),
            vouchers: slot.vouchers().len(),
            committers: slot.committers().len(),
        })
        .collect();
    ReplicaView {
        id: replica.id,
        status,
        view: replica.view,
        changing_to: replica.changing_to,
        primary: replica.primary(),
        lying: replica.byzantine,
        executed: replica.executed,
        slots,
        waiting_requests: replica.waiting_requests(),
    }
}

fn client_view(client: &PbftClient) -> PbftClientView {
    PbftClientView {
        id: client.id,
        waiting_on: client.current.map(|request| request.number),
        replies: client
            .replies()
            .iter()
            .map(|(&sequence, &replicas)| (sequence, replicas))
            .collect(),
        needed: client.needed,
        accepted: client.accepted,
        last_result: client.last_result,
    }
}

/// The frame's PBFT part; `None` in any other world.
pub fn view(world: &dyn WorldRead) -> Option<PbftView> {
    let ProtocolConfig::Pbft(_, options) = world.protocol() else {
        return None;
    };
    let replicas: Vec<(&Replica, NodeStatus)> = actors_of::<Replica>(world)
        .filter_map(|(id, replica)| Some((replica, world.status(id)?)))
        .collect();
    let clients: Vec<&PbftClient> = actors_of::<PbftClient>(world)
        .map(|(_, client)| client)
        .collect();
    let servers = world.servers();
    let quorum = quorum_size(servers, options.quorum);
    let messages_sent = replicas
        .iter()
        .map(|(replica, _)| replica.messages_sent)
        .sum::<u64>()
        + clients
            .iter()
            .map(|client| client.messages_sent)
            .sum::<u64>();
    Some(PbftView {
        faults_tolerated: faults_tolerated(servers),
        quorum,
        reply_quorum: reply_quorum(servers, quorum),
        messages_sent,
        results_taken: clients.iter().map(|client| client.accepted).sum(),
        faulty: replicas
            .iter()
            .filter(|(replica, status)| *status != NodeStatus::Up || replica.is_lying())
            .map(|(replica, _)| replica.id)
            .collect(),
        replicas: replicas
            .into_iter()
            .map(|(replica, status)| replica_view(replica, status))
            .collect(),
        clients: clients.into_iter().map(client_view).collect(),
    })
}
