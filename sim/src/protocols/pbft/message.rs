//! What PBFT clients and replicas say to each other: the three normal-case phases, replies, and the
//! two messages of a view change.

use super::{Digest, PbftRequest};
use crate::base::ids::NodeId;

/// A request a replica prepared, as a view change carries it: the new primary re-proposes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PreparedProof {
    pub sequence: u64,
    /// The view it prepared in (the highest wins for a sequence number).
    pub view: u64,
    /// `None` for a null request.
    pub request: Option<PbftRequest>,
}

/// One `ViewChange` as a `NewView` quotes it: who sent it and what it said it prepared. In the paper
/// these are signed, so a new primary can pass them on but not make them up; the model takes the
/// sender it names as the sender (signatures are not computed, as everywhere in PBFT here).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ViewChangeVote {
    pub from: NodeId,
    pub prepared: Vec<PreparedProof>,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum PbftMessage {
    /// A client's request, sent to every replica.
    Request(PbftRequest),
    /// The primary orders `request` at `sequence` in `view`.
    PrePrepare {
        view: u64,
        sequence: u64,
        digest: Digest,
        /// `None` for the null request a new view fills a gap with.
        request: Option<PbftRequest>,
    },
    /// "I accepted a pre-prepare of `digest` for this slot." `primary_digest` quotes the digest of the
    /// (signed) pre-prepare it holds: a liar can say a wrong `digest`, but cannot forge the quote.
    Prepare {
        view: u64,
        sequence: u64,
        digest: Digest,
        primary_digest: Digest,
    },
    /// "A quorum vouched for `digest` at this slot."
    Commit {
        view: u64,
        sequence: u64,
        digest: Digest,
    },
    /// To the client: request `number` executed at `sequence`, its digest `digest`.
    Reply {
        view: u64,
        number: u64,
        sequence: u64,
        digest: Digest,
    },
    /// "I suspect the primary; let us move to `view`." Carries what this replica prepared.
    ViewChange {
        view: u64,
        prepared: Vec<PreparedProof>,
    },
    /// From the new primary: `view` starts, with these slots re-proposed (`None` is a null request),
    /// and the quorum of view changes they were worked out from, so a backup can check both.
    NewView {
        view: u64,
        proposals: Vec<(u64, Option<PbftRequest>)>,
        proof: Vec<ViewChangeVote>,
    },
}

impl PbftMessage {
    pub fn label(&self) -> &'static str {
        match self {
            PbftMessage::Request(_) => "Request",
            PbftMessage::PrePrepare { .. } => "PrePrepare",
            PbftMessage::Prepare { .. } => "Prepare",
            PbftMessage::Commit { .. } => "Commit",
            PbftMessage::Reply { .. } => "Reply",
            PbftMessage::ViewChange { .. } => "ViewChange",
            PbftMessage::NewView { .. } => "NewView",
        }
    }

    /// The digest a vote or pre-prepare carries (what differs per recipient when a node equivocates).
    pub fn digest(&self) -> Option<Digest> {
        match self {
            PbftMessage::PrePrepare { digest, .. }
            | PbftMessage::Prepare { digest, .. }
            | PbftMessage::Commit { digest, .. }
            | PbftMessage::Reply { digest, .. } => Some(*digest),
            _ => None,
        }
    }
}
