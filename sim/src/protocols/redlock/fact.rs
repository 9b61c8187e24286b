//! What a client that holds a lock only by belief tells the checkers: a Redis or Redlock client, or a
//! ZooKeeper-style candidate that leads while its session lasts (Exclusive Belief reads both).

use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum BeliefFact {
    /// The client now believes it holds the lock (`hold` names the acquisition) for
    /// `valid_for_local_us` more on its own clock.
    LockBelief { hold: u64, valid_for_local_us: u64 },
    /// The client stopped believing it holds `hold` (released, gave up, or saw it run out).
    LockBeliefEnded { hold: u64 },
    /// A Redis-style client asked again (`tries` retries) after its `SET NX` went unanswered, and
    /// found the key already holding its own value `hold`: the first attempt had landed. Added after
    /// the others, and only reported by a client configured to retry.
    FoundAlreadyHeld { hold: u64, tries: u32 },
}
