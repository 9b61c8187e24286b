//! The closed set of actors and messages a world can hold.
//!
//! Worlds are heterogeneous: a later lesson runs Raft servers, lock clients and a protected resource side
//! by side. Each protocol contributes one variant to [`Actor`] (and, when it speaks a new wire
//! language, one to [`Message`] with its [`Carries`] impl); the world only sees these two enums and
//! the [`Protocol`] trait. The protocols themselves never name these enums: they are generic over the
//! world's message type, so this module sits above every protocol and below the engine.

use crate::base::units::Term;
use crate::contract::action::ByzantineMode;
use crate::contract::panel_rows::PanelRows;
use crate::contract::protocol::{
    ActorSummary, Carries, Effects, Input, Observes, Protocol, RaftFact, Wire,
};
use crate::protocols::lockservice::{
    LockFact, LockOp, LockServer, LockServiceMessage, ServiceRaft, ZnodeMessage,
};
use crate::protocols::paxos::{Acceptor, LearnerNode, PaxosFact, PaxosMessage, Proposer};
use crate::protocols::pbft::{PbftClient, PbftFact, PbftMessage, Replica};
use crate::protocols::raft::RaftMessage;
use crate::protocols::redlock::{BeliefFact, KvLockServer, KvMessage};
use crate::protocols::resource::{Resource, ResourceFact, ResourceMessage};
use crate::protocols::scheduler::{InvoiceMessage, SchedulerFact, SchedulerInstance};
use crate::protocols::two_phase_commit::{self, TwoPhaseFact, TwoPhaseMessage};
use crate::protocols::worker::Worker;
use crate::protocols::zookeeper::ZkCandidate;
use crate::protocols::{paxos, pbft, redlock, scheduler, zookeeper};
use serde::{Deserialize, Serialize};

/// A world's own part of a frame, built by its folder's `view.rs` (the registry's `world_view` picks
/// the builder): one variant per world that shows more than the lock family's workers, service and
/// store. New variants go last.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum WorldView {
    Paxos(paxos::view::PaxosView),
    Pbft(pbft::view::PbftView),
    Scheduler(scheduler::view::SchedulerView),
    /// ZooKeeper-style election candidates.
    Zookeeper(Vec<zookeeper::view::CandidateView>),
    /// Redis-style servers: one for a single Redis lock, N for Redlock.
    KvServers(Vec<redlock::view::KvServerView>),
    TwoPhaseCommit(two_phase_commit::view::TwoPhaseView),
}

impl WorldView {
    /// The world's card as plain rows, for worlds whose folder describes its state in words (the app
    /// draws dedicated panels for the others); `labels` names every node.
    pub fn rows(&self, labels: &[String]) -> Option<PanelRows> {
        match self {
            WorldView::Paxos(view) => Some(paxos::rows::rows(view, labels)),
            WorldView::TwoPhaseCommit(view) => Some(view.rows()),
            WorldView::Pbft(_)
            | WorldView::Scheduler(_)
            | WorldView::Zookeeper(_)
            | WorldView::KvServers(_) => None,
        }
    }
}

// `Raft` stays unboxed: it is the common case and existing code builds it directly.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, Hash)]
pub enum Actor {
    /// A plain Raft server. Its log's application entries are lock operations, like the lock
    /// service's, so every world shares one Raft message type (a plain cluster never proposes one).
    Raft(ClusterRaft),
    /// A lock-service replica: Raft plus the lock state machine.
    LockServer(Box<LockServer<Message>>),
    /// A lock client.
    Worker(Box<Worker>),
    /// The protected resource.
    Resource(Box<Resource>),
    /// A Redis-style key-value lock server (single instance or one Redlock server).
    KvServer(Box<KvLockServer>),
    /// An instance of the invoice scheduler.
    Scheduler(Box<SchedulerInstance>),
    /// A candidate of the ZooKeeper-style election recipes.
    Candidate(Box<ZkCandidate>),
    /// A Paxos acceptor.
    Acceptor(Box<Acceptor>),
    /// A Paxos proposer (and learner).
    Proposer(Box<Proposer>),
    /// A Paxos learner actor (`L1`, ...), in a world that asks for learners apart from the proposers.
    PaxosLearner(Box<LearnerNode>),
    /// A PBFT replica.
    Replica(Box<Replica>),
    /// A PBFT client.
    PbftClient(Box<PbftClient>),
    /// A two-phase-commit coordinator or participant.
    TwoPhase(Box<two_phase_commit::Node>),
}

/// The Raft node every world runs, on this module's message type.
pub type ClusterRaft = ServiceRaft<Message>;

/// Each actor type wrapped in its variant, so a world's builder in its folder can make `Actor`s without
/// naming this enum (it asks for `A: From<Acceptor> + ...`; the registry line picks `A = Actor`).
macro_rules! boxed_actor_from {
    ($($variant:ident($actor:ty)),* $(,)?) => {$(
        impl From<$actor> for Actor {
            fn from(actor: $actor) -> Actor {
                Actor::$variant(Box::new(actor))
            }
        }
    )*};
}

boxed_actor_from!(
    LockServer(LockServer<Message>),
    Worker(Worker),
    Resource(Resource),
    KvServer(KvLockServer),
    Scheduler(SchedulerInstance),
    Candidate(ZkCandidate),
    Acceptor(Acceptor),
    Proposer(Proposer),
    PaxosLearner(LearnerNode),
    Replica(Replica),
    PbftClient(PbftClient),
    TwoPhase(two_phase_commit::Node),
);

impl From<ClusterRaft> for Actor {
    fn from(node: ClusterRaft) -> Actor {
        Actor::Raft(node)
    }
}

/// One variant per wire language. Each protocol folder owns its own message type; a world mixes them
/// here, so an event is still a plain `match`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Message {
    Raft(RaftMessage<LockOp>),
    /// Lock clients (workers, scheduler instances, candidates' sessions) and the lock service.
    LockService(LockServiceMessage),
    /// ZooKeeper-style candidates and the lock service: sessions, znodes, watches.
    Znode(ZnodeMessage),
    /// Lock holders and the protected resource.
    Resource(ResourceMessage),
    /// Scheduler instances and the invoice store.
    Invoice(InvoiceMessage),
    /// Redis-style clients and key-value servers.
    Kv(KvMessage),
    /// Paxos proposers and acceptors.
    Paxos(PaxosMessage),
    /// PBFT clients and replicas.
    Pbft(PbftMessage),
    /// The two-phase-commit coordinator and its participants.
    TwoPhase(TwoPhaseMessage),
}

/// `Carries` for one variant of [`Message`]: wrapping builds it, peeling matches only it.
macro_rules! carries {
    ($inner:ty, $variant:ident) => {
        impl Carries<$inner> for Message {
            fn wrap(inner: $inner) -> Message {
                Message::$variant(inner)
            }

            fn peel(&self) -> Option<&$inner> {
                match self {
                    Message::$variant(message) => Some(message),
                    _ => None,
                }
            }
        }
    };
}

carries!(RaftMessage<LockOp>, Raft);
carries!(LockServiceMessage, LockService);
carries!(ZnodeMessage, Znode);
carries!(ResourceMessage, Resource);
carries!(InvoiceMessage, Invoice);
carries!(KvMessage, Kv);
carries!(PaxosMessage, Paxos);
carries!(PbftMessage, Pbft);
carries!(TwoPhaseMessage, TwoPhase);

/// Everything an actor of any world can observe: one variant per protocol's fact type.
///
/// Each variant is `untagged`, so a fact serializes exactly as its protocol's enum does, which is what
/// it was when `Fact` was one flat enum (`{"BecameLeader":{"term":3}}`): trace records, and so the
/// pinned trace hashes, are byte for byte the same. The variant names of the inner enums are distinct,
/// so reading one back finds the only inner enum that knows the name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Fact {
    #[serde(untagged)]
    Raft(RaftFact),
    #[serde(untagged)]
    Lock(LockFact),
    #[serde(untagged)]
    Belief(BeliefFact),
    #[serde(untagged)]
    Scheduler(SchedulerFact),
    #[serde(untagged)]
    Resource(ResourceFact),
    #[serde(untagged)]
    Paxos(PaxosFact),
    #[serde(untagged)]
    Pbft(PbftFact),
    #[serde(untagged)]
    TwoPhase(TwoPhaseFact),
}

impl Fact {
    /// The protocol's own fact inside, for a world's checker to downcast to its fact type.
    pub fn inner(&self) -> &dyn std::any::Any {
        match self {
            Fact::Raft(fact) => fact,
            Fact::Lock(fact) => fact,
            Fact::Belief(fact) => fact,
            Fact::Scheduler(fact) => fact,
            Fact::Resource(fact) => fact,
            Fact::Paxos(fact) => fact,
            Fact::Pbft(fact) => fact,
            Fact::TwoPhase(fact) => fact,
        }
    }
}

impl Wire for Message {
    type Fact = Fact;
}

/// `Observes` for one variant of [`Fact`].
macro_rules! observes {
    ($inner:ty, $variant:ident) => {
        impl Observes<$inner> for Message {
            fn observed(inner: $inner) -> Fact {
                Fact::$variant(inner)
            }
        }
    };
}

observes!(RaftFact, Raft);
observes!(LockFact, Lock);
observes!(BeliefFact, Belief);
observes!(SchedulerFact, Scheduler);
observes!(ResourceFact, Resource);
observes!(PaxosFact, Paxos);
observes!(PbftFact, Pbft);
observes!(TwoPhaseFact, TwoPhase);

impl Message {
    /// Short human label for the UI and the trace ("RequestVote", "Heartbeat", "Vote granted", ...).
    pub fn label(&self) -> &'static str {
        match self {
            Message::Raft(message) => message.label(),
            Message::LockService(message) => message.label(),
            Message::Znode(message) => message.label(),
            Message::Resource(message) => message.label(),
            Message::Invoice(message) => message.label(),
            Message::Kv(message) => message.label(),
            Message::Paxos(message) => message.label(),
            Message::Pbft(message) => message.label(),
            Message::TwoPhase(message) => message.label(),
        }
    }

    /// The term the message carries (0 for protocols without terms).
    pub fn term(&self) -> Term {
        match self {
            Message::Raft(message) => message.term(),
            _ => Term::ZERO,
        }
    }

    /// How many log entries the message carries (for drawing fat AppendEntries).
    pub fn entry_count(&self) -> u32 {
        match self {
            Message::Raft(RaftMessage::AppendEntries { entries, .. }) => entries.len() as u32,
            _ => 0,
        }
    }
}

impl Actor {
    /// The actor as its protocol's own type, for a world's parts to downcast (`WorldRead::actor`).
    pub fn as_any(&self) -> &dyn std::any::Any {
        match self {
            Actor::Raft(node) => node,
            Actor::LockServer(server) => server.as_ref(),
            Actor::Worker(worker) => worker.as_ref(),
            Actor::Resource(resource) => resource.as_ref(),
            Actor::KvServer(server) => server.as_ref(),
            Actor::Scheduler(instance) => instance.as_ref(),
            Actor::Candidate(candidate) => candidate.as_ref(),
            Actor::Acceptor(acceptor) => acceptor.as_ref(),
            Actor::Proposer(proposer) => proposer.as_ref(),
            Actor::PaxosLearner(learner) => learner.as_ref(),
            Actor::Replica(replica) => replica.as_ref(),
            Actor::PbftClient(client) => client.as_ref(),
            Actor::TwoPhase(node) => node.as_ref(),
        }
    }

    /// A plain Raft server's core, to change it (membership changes run on plain Raft clusters only).
    pub fn as_cluster_raft_mut(&mut self) -> Option<&mut ClusterRaft> {
        match self {
            Actor::Raft(node) => Some(node),
            _ => None,
        }
    }

    /// The Raft core of the actor, if it has one (Raft nodes and lock-service replicas).
    pub fn as_raft(&self) -> Option<&ClusterRaft> {
        match self {
            Actor::Raft(node) => Some(node),
            Actor::LockServer(server) => Some(&server.raft),
            Actor::Worker(_)
            | Actor::Resource(_)
            | Actor::KvServer(_)
            | Actor::Scheduler(_)
            | Actor::Candidate(_)
            | Actor::Acceptor(_)
            | Actor::Proposer(_)
            | Actor::PaxosLearner(_)
            | Actor::Replica(_)
            | Actor::PbftClient(_)
            | Actor::TwoPhase(_) => None,
        }
    }

    /// [`Actor::as_raft`], to change.
    pub fn as_raft_mut(&mut self) -> Option<&mut ClusterRaft> {
        match self {
            Actor::Raft(node) => Some(node),
            Actor::LockServer(server) => Some(&mut server.raft),
            _ => None,
        }
    }

    pub fn as_lock_server(&self) -> Option<&LockServer<Message>> {
        match self {
            Actor::LockServer(server) => Some(server),
            _ => None,
        }
    }

    pub fn as_worker(&self) -> Option<&Worker> {
        match self {
            Actor::Worker(worker) => Some(worker),
            _ => None,
        }
    }

    /// [`Actor::as_worker`], to make it send something (a malformed write).
    pub fn as_worker_mut(&mut self) -> Option<&mut Worker> {
        match self {
            Actor::Worker(worker) => Some(worker),
            _ => None,
        }
    }

    pub fn as_scheduler(&self) -> Option<&SchedulerInstance> {
        match self {
            Actor::Scheduler(instance) => Some(instance),
            _ => None,
        }
    }

    pub fn as_candidate(&self) -> Option<&ZkCandidate> {
        match self {
            Actor::Candidate(candidate) => Some(candidate),
            _ => None,
        }
    }

    pub fn as_kv_server(&self) -> Option<&KvLockServer> {
        match self {
            Actor::KvServer(server) => Some(server),
            _ => None,
        }
    }

    pub fn as_acceptor(&self) -> Option<&Acceptor> {
        match self {
            Actor::Acceptor(acceptor) => Some(acceptor),
            _ => None,
        }
    }

    pub fn as_proposer(&self) -> Option<&Proposer> {
        match self {
            Actor::Proposer(proposer) => Some(proposer),
            _ => None,
        }
    }

    pub fn as_paxos_learner(&self) -> Option<&LearnerNode> {
        match self {
            Actor::PaxosLearner(learner) => Some(learner),
            _ => None,
        }
    }

    /// Whether the node lies now (`Some(true)`), could be made to (`Some(false)`), or cannot lie
    /// in this simulation at all (`None`): only Raft servers and PBFT replicas can.
    pub fn lying(&self) -> Option<bool> {
        match self {
            Actor::Raft(node) => Some(node.lying_mode().is_some()),
            Actor::Replica(replica) => Some(replica.is_lying()),
            _ => None,
        }
    }

    pub fn as_replica(&self) -> Option<&Replica> {
        match self {
            Actor::Replica(replica) => Some(replica),
            _ => None,
        }
    }

    /// Whether the node writes to disk before it answers (`Effects::send_after_persist`), so its
    /// disk's write time matters: what the node menu asks before offering a slow disk.
    pub fn persists(&self) -> bool {
        matches!(
            self,
            Actor::Raft(_)
                | Actor::LockServer(_)
                | Actor::Acceptor(_)
                | Actor::Proposer(_)
                | Actor::TwoPhase(_)
        )
    }

    /// How the node lies, if it was made Byzantine (only Raft servers and PBFT replicas can be).
    pub fn lying_mode(&self) -> Option<ByzantineMode> {
        match self {
            Actor::Raft(node) => node.lying_mode(),
            Actor::Replica(replica) => replica.byzantine,
            _ => None,
        }
    }

    pub fn as_pbft_client(&self) -> Option<&PbftClient> {
        match self {
            Actor::PbftClient(client) => Some(client),
            _ => None,
        }
    }

    pub fn as_resource(&self) -> Option<&Resource> {
        match self {
            Actor::Resource(resource) => Some(resource),
            _ => None,
        }
    }
}

impl Protocol<Message> for Actor {
    fn handle(
        &mut self,
        local_now_us: u64,
        input: Input<'_, Message>,
        effects: &mut Effects<Message>,
    ) {
        match self {
            Actor::Raft(node) => node.handle(local_now_us, input, effects),
            Actor::LockServer(server) => server.handle(local_now_us, input, effects),
            Actor::Worker(worker) => worker.handle(local_now_us, input, effects),
            Actor::Resource(resource) => resource.handle(local_now_us, input, effects),
            Actor::KvServer(server) => server.handle(local_now_us, input, effects),
            Actor::Scheduler(instance) => instance.handle(local_now_us, input, effects),
            Actor::Candidate(candidate) => candidate.handle(local_now_us, input, effects),
            Actor::Acceptor(acceptor) => acceptor.handle(local_now_us, input, effects),
            Actor::Proposer(proposer) => proposer.handle(local_now_us, input, effects),
            Actor::PaxosLearner(learner) => learner.handle(local_now_us, input, effects),
            Actor::Replica(replica) => replica.handle(local_now_us, input, effects),
            Actor::PbftClient(client) => client.handle(local_now_us, input, effects),
            Actor::TwoPhase(node) => node.handle(local_now_us, input, effects),
        }
    }

    fn crash(&mut self) {
        match self {
            Actor::Raft(node) => node.crash(),
            Actor::LockServer(server) => server.crash(),
            Actor::Worker(worker) => Protocol::<Message>::crash(&mut **worker),
            Actor::Resource(resource) => Protocol::<Message>::crash(&mut **resource),
            Actor::KvServer(server) => Protocol::<Message>::crash(&mut **server),
            Actor::Scheduler(instance) => Protocol::<Message>::crash(&mut **instance),
            Actor::Candidate(candidate) => Protocol::<Message>::crash(&mut **candidate),
            Actor::Acceptor(acceptor) => Protocol::<Message>::crash(&mut **acceptor),
            Actor::Proposer(proposer) => Protocol::<Message>::crash(&mut **proposer),
            Actor::PaxosLearner(learner) => Protocol::<Message>::crash(&mut **learner),
            Actor::Replica(replica) => Protocol::<Message>::crash(&mut **replica),
            Actor::PbftClient(client) => Protocol::<Message>::crash(&mut **client),
            Actor::TwoPhase(node) => Protocol::<Message>::crash(&mut **node),
        }
    }

    fn summary(&self) -> ActorSummary {
        match self {
            Actor::Raft(node) => node.summary(),
            Actor::LockServer(server) => server.summary(),
            Actor::Worker(worker) => Protocol::<Message>::summary(&**worker),
            Actor::Resource(resource) => Protocol::<Message>::summary(&**resource),
            Actor::KvServer(server) => Protocol::<Message>::summary(&**server),
            Actor::Scheduler(instance) => Protocol::<Message>::summary(&**instance),
            Actor::Candidate(candidate) => Protocol::<Message>::summary(&**candidate),
            Actor::Acceptor(acceptor) => Protocol::<Message>::summary(&**acceptor),
            Actor::Proposer(proposer) => Protocol::<Message>::summary(&**proposer),
            Actor::PaxosLearner(learner) => Protocol::<Message>::summary(&**learner),
            Actor::Replica(replica) => Protocol::<Message>::summary(&**replica),
            Actor::PbftClient(client) => Protocol::<Message>::summary(&**client),
            Actor::TwoPhase(node) => Protocol::<Message>::summary(&**node),
        }
    }

    fn turn_byzantine(&mut self, mode: ByzantineMode) -> Result<(), &'static str> {
        match self {
            Actor::Raft(node) => node.turn_byzantine(mode),
            Actor::Replica(replica) => Protocol::<Message>::turn_byzantine(&mut **replica, mode),
            Actor::PbftClient(_) => Err("a PBFT client only sends requests: make a replica lie"),
            _ => Err("only Raft servers and PBFT replicas can be made to lie in this simulation"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::ids::NodeId;
    use crate::base::units::{FencingToken, Term};

    #[test]
    fn a_fact_serializes_as_its_protocols_enum_alone() {
        let elected = Fact::Raft(RaftFact::BecameLeader {
            term: Term(3),
            votes: 2,
            cluster: 3,
        });
        let json = serde_json::to_string(&elected).unwrap();
        assert_eq!(json, r#"{"BecameLeader":{"term":3,"votes":2,"cluster":3}}"#);
        assert_eq!(serde_json::from_str::<Fact>(&json).unwrap(), elected);
        let invoiced = Fact::Scheduler(SchedulerFact::InvoiceWritten {
            client: NodeId(4),
            minute: 2,
            token: FencingToken(7),
            duplicate: false,
            refused: true,
        });
        let json = serde_json::to_string(&invoiced).unwrap();
        assert_eq!(
            json,
            r#"{"InvoiceWritten":{"client":4,"minute":2,"token":7,"duplicate":false,"refused":true}}"#
        );
        assert_eq!(serde_json::from_str::<Fact>(&json).unwrap(), invoiced);
    }
}
