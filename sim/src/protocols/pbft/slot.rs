//! One sequence number at one replica: the pre-prepare it accepted and the prepares and commits it
//! heard, counted per digest so a liar's odd vote never counts towards the honest one.

use super::{Digest, PbftRequest};
use crate::base::ids::{NodeId, NodeSet};
use serde::Serialize;
use std::collections::BTreeMap;

/// Different digests one slot keeps votes for at most (a liar could otherwise grow the map).
const MAX_DIGESTS_PER_SLOT: usize = 8;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SlotPhase {
    /// Votes heard, but no pre-prepare accepted yet.
    Waiting,
    PrePrepared,
    Prepared,
    Committed,
    Executed,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Slot {
    /// The view the votes below belong to.
    pub view: u64,
    pub phase: SlotPhase,
    /// The digest of the accepted pre-prepare, and its request (`None` with digest 0: a null request).
    pub digest: Option<Digest>,
    pub request: Option<PbftRequest>,
    /// The view it last prepared in, kept across view changes for the proofs it sends.
    pub prepared_view: Option<u64>,
    /// The request it prepared then: a later view's pre-prepare replaces `request`, not this.
    pub prepared_request: Option<PbftRequest>,
    prepares: BTreeMap<Digest, NodeSet>,
    commits: BTreeMap<Digest, NodeSet>,
}

fn vote(votes: &mut BTreeMap<Digest, NodeSet>, digest: Digest, from: NodeId) {
    if votes.len() < MAX_DIGESTS_PER_SLOT || votes.contains_key(&digest) {
        votes.entry(digest).or_default().insert(from);
    }
}

impl Slot {
    pub fn new(view: u64) -> Slot {
        Slot {
            view,
            phase: SlotPhase::Waiting,
            digest: None,
            request: None,
            prepared_view: None,
            prepared_request: None,
            prepares: BTreeMap::new(),
            commits: BTreeMap::new(),
        }
    }

    /// A new view: votes of the old one no longer count; what committed stays committed.
    pub fn enter_view(&mut self, view: u64) {
        self.view = view;
        self.prepares.clear();
        self.commits.clear();
        if self.phase < SlotPhase::Committed {
            self.phase = SlotPhase::Waiting;
            self.digest = None;
        }
    }

    /// A quorum vouched for the accepted digest in `view`: what its view changes will carry.
    pub fn mark_prepared(&mut self, view: u64) {
        self.phase = SlotPhase::Prepared;
        self.prepared_view = Some(view);
        self.prepared_request = self.request;
    }

    pub fn done(&self) -> bool {
        self.phase >= SlotPhase::Committed
    }

    pub fn accept(&mut self, digest: Digest, request: Option<PbftRequest>, primary: NodeId) {
        self.digest = Some(digest);
        self.request = request;
        self.phase = SlotPhase::PrePrepared;
        vote(&mut self.prepares, digest, primary);
    }

    pub fn prepare_from(&mut self, digest: Digest, from: NodeId) {
        vote(&mut self.prepares, digest, from);
    }

    pub fn commit_from(&mut self, digest: Digest, from: NodeId) {
        vote(&mut self.commits, digest, from);
    }

    /// Who vouched for the accepted digest (the primary's pre-prepare and matching prepares).
    pub fn vouchers(&self) -> NodeSet {
        self.matching(&self.prepares)
    }

    pub fn committers(&self) -> NodeSet {
        self.matching(&self.commits)
    }

    fn matching(&self, votes: &BTreeMap<Digest, NodeSet>) -> NodeSet {
        self.digest
            .and_then(|digest| votes.get(&digest).copied())
            .unwrap_or_default()
    }
}
