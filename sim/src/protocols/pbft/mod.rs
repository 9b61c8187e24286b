//! PBFT, after Castro and Liskov, "Practical Byzantine Fault Tolerance" (1999): replicas agree on the
//! order of client requests even when some of them lie, as long as at most f of n = 3f + 1 do.
//!
//! **Actors.** The servers `n1..nN` are *replicas*; the lettered actors `A`, `B`, ... are *clients*,
//! each sending one request at a time to every replica. Views are numbered; the *primary* of view `v`
//! is replica `v mod n`, and the others are *backups*.
//!
//! **Normal case.** The primary gives each new request the next *sequence number* and sends
//! `PrePrepare(v, s, d)` with the request's digest `d`. A backup that accepts it (right view, right
//! primary, no other digest for `s` in this view, and `d` really is the request's digest) tells every
//! replica `Prepare(v, s, d)`. A replica is *prepared* once it holds the pre-prepare and a quorum of
//! replicas (the primary's pre-prepare and its own prepare count) vouch for `d`; it then sends
//! `Commit(v, s, d)`, and it *commits* once a quorum of commits match. Committed requests execute in
//! sequence order, and each replica replies to the client, which takes a result once f + 1 replicas
//! give the same one: at least one of them is honest.
//!
//! **Why 2f + 1 of 3f + 1.** Two quorums of 2f + 1 share at least f + 1 replicas, so at least one
//! honest replica sits in both, and an honest replica never vouches for two digests at one sequence
//! number in one view: two different requests cannot both commit at `s`. With the scenario key
//! `quorum` set lower (the UNSAFE misconfiguration, e.g. quorum 2 of n = 3 "for one fault"), two
//! quorums can overlap only in the liar, and honest replicas commit different requests at the same
//! sequence number, which the checker *Honest Agreement* catches.
//!
//! **View change.** A backup that knows of a request which has not executed within `view_timeout_ms`
//! suspects the primary (silent, or sending different backups different things) and sends
//! `ViewChange(v + 1)` with every request it prepared. A backup also suspects the primary at once
//! when another backup's prepare quotes a pre-prepare for the same slot with another digest: the
//! primary signs its pre-prepares, so two signed ones with different digests prove it equivocated.
//! The next primary, holding a quorum of view changes, sends `NewView` re-proposing, for each sequence
//! number, the request prepared in the highest view (a null request for a gap), so a request that may
//! have committed keeps its number; the `NewView` quotes the view changes it was worked out from, and
//! a backup enters the view only if they are a quorum from distinct replicas and give exactly those
//! proposals (else a Byzantine new primary could start a view alone or drop a committed request). A
//! view change that does not finish in time moves to the next view, waiting twice as long.
//!
//! **What is modelled.** Signatures are not computed: a message's sender is what the network says,
//! and a liar cannot change the digest a primary's pre-prepare carries when it quotes it. No
//! checkpoints or garbage collection: the log of slots only grows (bounded by `MAX_SEQUENCE`).
//! Byzantine modes (`Action::Byzantine`, see `lying.rs`): `equivocate` (a primary sends half the
//! backups a forged request; any replica's votes differ by recipient), `lie` (votes with a wrong
//! digest, pre-prepares whose digest does not match the request), `silent` (sends nothing) and
//! `selective` (sends nothing to the upper half of the other replicas, the truth to the rest).

pub mod build;
pub mod chaos;
pub mod checker;
pub mod checkpoints;
pub mod client;
pub mod describe;
pub mod entry;
pub mod fact;
pub mod lying;
pub mod message;
pub mod options;
pub mod parts;
pub mod replica;
pub mod slot;
pub mod view;
pub mod view_change;

pub use client::PbftClient;
pub use fact::PbftFact;
pub use message::{PbftMessage, ViewChangeVote};
pub use replica::Replica;
pub use slot::{Slot, SlotPhase};

use crate::base::hash::Fnv;
use crate::base::ids::NodeId;
use serde::{Deserialize, Serialize};

/// A request's fingerprint; 0 is the null request a new view fills a gap with.
pub type Digest = u64;

/// Highest sequence number a replica takes part in (no garbage collection, so the log is bounded).
pub const MAX_SEQUENCE: u64 = 100_000;

/// What a client asks for: its `number`-th request, with an operation the replicas execute.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct PbftRequest {
    pub client: NodeId,
    pub number: u64,
    pub operation: u64,
}

impl PbftRequest {
    pub fn digest(&self) -> Digest {
        let mut hash = Fnv::new();
        for word in [u64::from(self.client.0), self.number, self.operation] {
            hash.write_u64(word);
        }
        // Never 0, which names the null request.
        hash.finish().max(1)
    }

    /// The request an equivocating primary shows half the backups instead: same client and number,
    /// another operation.
    pub fn forged(&self) -> PbftRequest {
        PbftRequest {
            operation: self.operation ^ FORGED_OPERATION,
            ..*self
        }
    }
}

/// Flipped in a forged request's operation, so a forgery is easy to tell in the UI.
const FORGED_OPERATION: u64 = 1 << 40;

/// Whether an operation is one an equivocating primary made up.
pub fn is_forged(operation: u64) -> bool {
    operation & FORGED_OPERATION != 0
}

/// The faults `replicas` tolerate when the quorum is the safe one: f = (n - 1) / 3.
pub fn faults_tolerated(replicas: usize) -> usize {
    replicas.saturating_sub(1) / 3
}

/// Matching messages needed to prepare and commit: the configured `quorum`, or 2f + 1.
pub fn quorum_size(replicas: usize, quorum: u32) -> usize {
    match quorum {
        0 => 2 * faults_tolerated(replicas) + 1,
        quorum => quorum as usize,
    }
}

/// Matching replies a client waits for: one more than the replicas that may lie, where a quorum of
/// `quorum` of `replicas` can go on without `replicas - quorum` of them (f + 1 when the quorum is
/// 2f + 1 of 3f + 1).
pub fn reply_quorum(replicas: usize, quorum: usize) -> usize {
    replicas.saturating_sub(quorum) + 1
}

/// The primary of `view` among `replicas`.
pub fn primary_of(view: u64, replicas: usize) -> NodeId {
    NodeId((view % replicas.max(1) as u64) as u16)
}

/// A digest as the UI shows it: four hex digits, or "null".
pub fn digest_text(digest: Digest) -> String {
    match digest {
        0 => "null".to_string(),
        digest => format!("{:04x}", digest & 0xffff),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quorums_follow_three_f_plus_one() {
        assert_eq!(faults_tolerated(4), 1);
        assert_eq!(faults_tolerated(7), 2);
        assert_eq!(quorum_size(4, 0), 3);
        assert_eq!(quorum_size(7, 0), 5);
        assert_eq!(quorum_size(3, 2), 2);
        assert_eq!(reply_quorum(4, 3), 2);
        assert_eq!(reply_quorum(3, 2), 2);
        assert_eq!(primary_of(5, 4), NodeId(1));
    }

    #[test]
    fn a_forged_request_has_another_digest() {
        let request = PbftRequest {
            client: NodeId(4),
            number: 1,
            operation: 7,
        };
        assert_ne!(request.digest(), request.forged().digest());
        assert!(is_forged(request.forged().operation));
        assert!(!is_forged(request.operation));
        assert_ne!(request.digest(), 0);
    }
}
