//! A PBFT view change: suspecting the primary, gathering a quorum of `ViewChange` messages at the
//! next primary, and its `NewView` re-proposing every request that may have committed.

use super::fact::{NewViewFault, Suspicion};
use super::message::{PreparedProof, ViewChangeVote};
use super::replica::{PbftWire, Replica, VIEW_TIMER};
use super::{primary_of, reply_quorum, PbftFact, PbftMessage, PbftRequest};
use crate::base::ids::NodeId;
use crate::contract::protocol::{Effects, TimerDelay};
use std::collections::{BTreeMap, BTreeSet};

/// Views ahead of its own a replica listens to (a liar could otherwise name any view).
const MAX_VIEWS_AHEAD: u64 = 64;
/// Doublings of the view-change timeout at most.
const MAX_TIMEOUT_DOUBLINGS: u64 = 2;

impl Replica {
    /// Asks for `view`, with every slot it prepared, and waits (longer each view in a row) for it.
    pub(super) fn start_view_change<M: PbftWire>(
        &mut self,
        view: u64,
        why: Suspicion,
        effects: &mut Effects<M>,
    ) {
        if view <= self.view || self.changing_to.is_some_and(|asked| asked >= view) {
            return;
        }
        self.changing_to = Some(view);
        let prepared = self.prepared_proofs();
        effects.observe(PbftFact::ViewChangeStarted { view, why });
        let message = PbftMessage::ViewChange {
            view,
            prepared: prepared.clone(),
        };
        self.broadcast(message, effects);
        let doublings = (view - self.view - 1).min(MAX_TIMEOUT_DOUBLINGS);
        effects.set_timer(
            VIEW_TIMER,
            TimerDelay::Exactly {
                local_us: self.view_timeout_us << doublings,
            },
            "view change timeout",
        );
        self.timer_armed = true;
        let me = self.id;
        self.on_view_change(me, view, &prepared, effects);
    }

    fn prepared_proofs(&self) -> Vec<PreparedProof> {
        self.slots
            .iter()
            .filter_map(|(&sequence, slot)| {
                Some(PreparedProof {
                    sequence,
                    view: slot.prepared_view?,
                    request: slot.prepared_request,
                })
            })
            .collect()
    }

    pub(super) fn on_timeout<M: PbftWire>(&mut self, effects: &mut Effects<M>) {
        self.timer_armed = false;
        match self.changing_to {
            // Nobody else asks for this view or a later one yet: ask again instead of running ahead
            // (it refuses the views before the one it asked for, so running ahead alone would leave
            // it out of whichever view the others settle in).
            Some(asked) if !self.others_ask_at_least(asked) => {
                self.changing_to = None;
                self.start_view_change(asked, Suspicion::Timeout, effects)
            }
            Some(asked) => self.start_view_change(asked + 1, Suspicion::Timeout, effects),
            None if !self.pending.is_empty() => {
                self.start_view_change(self.view + 1, Suspicion::Timeout, effects)
            }
            None => {}
        }
    }

    pub(super) fn on_view_change<M: PbftWire>(
        &mut self,
        from: NodeId,
        view: u64,
        prepared: &[PreparedProof],
        effects: &mut Effects<M>,
    ) {
        if view <= self.view {
            return self.bring_up_to_date(from, effects);
        }
        if view > self.view + MAX_VIEWS_AHEAD {
            return;
        }
        let votes = self.view_changes.entry(view).or_default();
        votes.insert(from, prepared.to_vec());
        let join = reply_quorum(self.replicas, self.quorum);
        if let Some(ahead) = self.view_to_join(join) {
            self.start_view_change(ahead, Suspicion::Joined, effects);
        }
        let count = self.view_changes.get(&view).map_or(0, BTreeMap::len);
        let leads = primary_of(view, self.replicas) == self.id && !self.asked_beyond(view);
        if leads && count >= self.quorum && self.new_view_sent.is_none_or(|sent| sent < view) {
            self.send_new_view(view, effects);
        }
    }

    /// PBFT's rule for catching up: when `join` other replicas ask for views past the one it is in
    /// (or asking for), it asks for the lowest view at least `join` of them have reached, so at least
    /// one honest replica is there or further (a liar alone cannot drag it up).
    fn view_to_join(&self, join: usize) -> Option<u64> {
        let floor = self.changing_to.unwrap_or(self.view);
        let mut highest: BTreeMap<NodeId, u64> = BTreeMap::new();
        for (&view, votes) in self.view_changes.range(floor + 1..) {
            for &from in votes.keys().filter(|&&from| from != self.id) {
                highest.insert(from, view);
            }
        }
        let mut views: Vec<u64> = highest.into_values().collect();
        views.sort_unstable_by(|a, b| b.cmp(a));
        views.get(join.checked_sub(1)?).copied()
    }

    /// Sends the `NewView` for `view` with the view changes it holds for it as the proof.
    fn send_new_view<M: PbftWire>(&mut self, view: u64, effects: &mut Effects<M>) {
        let proof: Vec<ViewChangeVote> = self
            .view_changes
            .get(&view)
            .into_iter()
            .flatten()
            .map(|(&from, prepared)| ViewChangeVote {
                from,
                prepared: prepared.clone(),
            })
            .collect();
        let proposals = proposals_from(&proof);
        self.new_view_sent = Some(view);
        let message = PbftMessage::NewView {
            view,
            proposals: proposals.clone(),
            proof,
        };
        self.last_new_view = Some(message.clone());
        self.broadcast(message, effects);
        self.enter_view(view, &proposals, effects);
    }

    /// A replica asking for a view older than this one missed its `NewView` (it was down or cut
    /// off): the primary that sent it sends it again, so the replica can join without another view
    /// change.
    fn bring_up_to_date<M: PbftWire>(&mut self, from: NodeId, effects: &mut Effects<M>) {
        let leads = self.is_primary() && self.new_view_sent == Some(self.view);
        if let Some(message) = self
            .last_new_view
            .clone()
            .filter(|_| leads && from != self.id)
        {
            self.send_to(from, message, effects);
        }
    }

    /// Enters `view` on its primary's `NewView`, once the proof holds: a quorum of view changes from
    /// distinct replicas, and the proposals exactly what they give. Without that check a Byzantine
    /// new primary could start a view alone, or drop a request that may have committed.
    pub(super) fn on_new_view<M: PbftWire>(
        &mut self,
        from: NodeId,
        view: u64,
        (proposals, proof): (&[(u64, Option<PbftRequest>)], &[ViewChangeVote]),
        effects: &mut Effects<M>,
    ) {
        let fits = view > self.view && view <= self.view + MAX_VIEWS_AHEAD;
        if !fits || self.asked_beyond(view) || from != primary_of(view, self.replicas) {
            return;
        }
        if let Some(why) = new_view_fault(self.replicas, self.quorum, proposals, proof) {
            effects.observe(PbftFact::NewViewRefused {
                view,
                primary: from,
                votes: proof.len() as u64,
                quorum: self.quorum as u64,
                why,
            });
            return;
        }
        self.enter_view(view, proposals, effects);
    }

    fn others_ask_at_least(&self, view: u64) -> bool {
        let me = self.id;
        let mut later = self.view_changes.range(view..);
        later.any(|(_, votes)| votes.keys().any(|&from| from != me))
    }

    /// It sent a `ViewChange` for a view after `view`: that message promised (as a replica moving to
    /// a view does in PBFT) to take no part in earlier views, since the primary it went to builds its
    /// `NewView` from what it said it had prepared. Entering `view` now and preparing there would
    /// leave that message stale, and the later primary could re-propose another request at a sequence
    /// number that committed in `view`.
    fn asked_beyond(&self, view: u64) -> bool {
        self.changing_to.is_some_and(|asked| asked > view)
    }

    /// Enters `view`: old votes no longer count, the proposals are taken as pre-prepares, the new
    /// primary orders what is still waiting, and messages that arrived early are read now.
    fn enter_view<M: PbftWire>(
        &mut self,
        view: u64,
        proposals: &[(u64, Option<PbftRequest>)],
        effects: &mut Effects<M>,
    ) {
        self.view = view;
        self.changing_to = None;
        self.view_changes.retain(|asked, _| *asked > view);
        self.proposed.clear();
        for slot in self.slots.values_mut() {
            slot.enter_view(view);
        }
        let primary = primary_of(view, self.replicas);
        effects.observe(PbftFact::ViewEntered { view, primary });
        if primary == self.id {
            self.lead_new_view(proposals, effects);
        } else {
            for &(sequence, request) in proposals {
                let digest = request.map_or(0, |request| request.digest());
                self.on_pre_prepare(primary, (view, sequence), digest, request, effects);
            }
        }
        self.restart_timer(effects);
        let early = std::mem::take(&mut self.early);
        for (from, message) in early {
            self.on_message(from, &message, effects);
        }
    }

    fn lead_new_view<M: PbftWire>(
        &mut self,
        proposals: &[(u64, Option<PbftRequest>)],
        effects: &mut Effects<M>,
    ) {
        let (view, me) = (self.view, self.id);
        for &(sequence, request) in proposals {
            let digest = request.map_or(0, |request| request.digest());
            let slot = self
                .slots
                .entry(sequence)
                .or_insert_with(|| super::Slot::new(view));
            if !slot.done() {
                slot.accept(digest, request, me);
            }
            self.proposed.insert(digest);
        }
        let last = proposals.last().map_or(0, |(sequence, _)| *sequence);
        self.next_sequence = last.max(self.executed) + 1;
        let waiting: Vec<PbftRequest> = self.pending.values().copied().collect();
        for request in waiting {
            self.assign(Some(request), effects);
        }
    }
}

/// For each sequence number up to the highest any view change names, the request prepared in the
/// highest view (the first such vote on a tie), or a null request for a gap.
pub fn proposals_from(proof: &[ViewChangeVote]) -> Vec<(u64, Option<PbftRequest>)> {
    let mut best: BTreeMap<u64, PreparedProof> = BTreeMap::new();
    for prepared in proof.iter().flat_map(|vote| &vote.prepared) {
        let entry = best.entry(prepared.sequence).or_insert(*prepared);
        if prepared.view > entry.view {
            *entry = *prepared;
        }
    }
    let last = best.keys().next_back().copied().unwrap_or(0);
    (1..=last)
        .map(|sequence| {
            (
                sequence,
                best.get(&sequence).and_then(|proof| proof.request),
            )
        })
        .collect()
}

/// What is wrong with a `NewView`'s proof, if anything: fewer than `quorum` view changes from
/// distinct replicas, or proposals other than the ones they give.
pub fn new_view_fault(
    replicas: usize,
    quorum: usize,
    proposals: &[(u64, Option<PbftRequest>)],
    proof: &[ViewChangeVote],
) -> Option<NewViewFault> {
    let senders: BTreeSet<NodeId> = proof.iter().map(|vote| vote.from).collect();
    let all_replicas = senders.iter().all(|from| from.index() < replicas);
    if senders.len() != proof.len() || !all_replicas || senders.len() < quorum {
        return Some(NewViewFault::TooFewViewChanges);
    }
    (proposals_from(proof) != proposals).then_some(NewViewFault::ProposalsDoNotFollow)
}
