//! What PBFT actors tell the checkers and the narration. The variant names are distinct from every
//! other protocol's facts, so a trace record reads back to the one enum that knows its name.

use super::Digest;
use crate::base::ids::{NodeId, NodeSet};
use serde::{Deserialize, Serialize};

/// Why a replica asked for a new view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Suspicion {
    /// A request it knows of did not execute in time (the primary is silent, or the view change
    /// before this one did not finish).
    Timeout,
    /// Another backup quoted a pre-prepare with a different digest for the same slot.
    Equivocation,
    /// Enough other replicas asked for this view that it joins them.
    Joined,
}

/// What was wrong with a refused `NewView`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NewViewFault {
    /// Fewer than a quorum of distinct replicas' view changes (or one from a non-replica).
    TooFewViewChanges,
    /// The slots it re-proposes are not what its view changes say was prepared.
    ProposalsDoNotFollow,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum PbftFact {
    /// The primary gave a request a sequence number.
    SequenceAssigned {
        view: u64,
        sequence: u64,
        digest: Digest,
    },
    /// A backup accepted the primary's pre-prepare.
    PrePrepareAccepted {
        view: u64,
        sequence: u64,
        digest: Digest,
    },
    /// A replica refused a pre-prepare whose digest is not its request's, or that clashes.
    PrePrepareRefused {
        view: u64,
        sequence: u64,
        digest: Digest,
    },
    /// A quorum vouched for `digest` at this slot (`vouchers`).
    SlotPrepared {
        view: u64,
        sequence: u64,
        digest: Digest,
        vouchers: NodeSet,
    },
    /// A quorum of commits matched. `honest` is false when the replica was lying at the time (the
    /// agreement checker judges honest replicas only).
    SlotCommitted {
        view: u64,
        sequence: u64,
        digest: Digest,
        committers: NodeSet,
        honest: bool,
    },
    /// The request at `sequence` executed (`forged` when its operation was made up by a liar).
    RequestExecuted {
        sequence: u64,
        digest: Digest,
        client: NodeId,
        number: u64,
        forged: bool,
    },
    /// A replica asked for view `view`.
    ViewChangeStarted { view: u64, why: Suspicion },
    /// A replica entered view `view`, whose primary is `primary`.
    ViewEntered { view: u64, primary: NodeId },
    /// A client took a result: `replicas` (at least f + 1) gave the same one.
    ResultAccepted {
        number: u64,
        sequence: u64,
        replicas: NodeSet,
    },
    /// A client resent a request no f + 1 replicas answered in time.
    RequestResent { number: u64 },
    // Last, so that the variants before it keep their numbers in the trace fingerprint.
    /// A replica refused a `NewView` from `primary`: it quoted `votes` view changes where the quorum
    /// is `quorum`, or its proposals are not the ones those view changes give.
    NewViewRefused {
        view: u64,
        primary: NodeId,
        votes: u64,
        quorum: u64,
        why: NewViewFault,
    },
}
