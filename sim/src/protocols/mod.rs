//! The protocols layer: one module per protocol (Raft, the lock service and its clients, Redis-style
//! locks, the scheduler, ZooKeeper-style election, the work queue), each generic over the world's
//! message type and naming only its own messages. A protocol may import the contract and base layers
//! and the protocols it embeds (the lock service embeds Raft), never the worlds that hold it.

pub mod lock_client;
pub mod lockservice;
pub mod paxos;
pub mod pbft;
pub mod raft;
pub mod redlock;
pub mod resource;
pub mod scheduler;
pub mod two_phase_commit;
pub mod work_queue;
pub mod worker;
pub mod zookeeper;
