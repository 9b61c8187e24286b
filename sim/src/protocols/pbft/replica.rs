//! A PBFT replica in the normal case: requests, pre-prepares, prepares and commits, executing in
//! sequence order and replying to clients. View changes are in `view_change.rs`, lying in `lying.rs`.

use super::fact::Suspicion;
use super::lying;
use super::message::PreparedProof;
use super::slot::{Slot, SlotPhase};
use super::{
    is_forged, primary_of, quorum_size, Digest, PbftFact, PbftMessage, PbftRequest, MAX_SEQUENCE,
};
use crate::base::ids::NodeId;
use crate::contract::action::ByzantineMode;
use crate::contract::config::PbftOptions;
use crate::contract::protocol::{
    ActorSummary, Carries, Effects, Input, Observes, Protocol, TimerDelay, TimerKey,
};
use std::collections::{BTreeMap, BTreeSet};

/// What a world's message type must carry for PBFT actors.
pub trait PbftWire: Carries<PbftMessage> + Observes<PbftFact> {}

impl<M> PbftWire for M where M: Carries<PbftMessage> + Observes<PbftFact> {}

/// The one timer: a request waiting too long, or a view change taking too long.
pub const VIEW_TIMER: TimerKey = 1;
/// Requests a replica remembers as waiting at most (a flood of them is ignored beyond this).
const MAX_PENDING: usize = 1_024;
/// Sequence numbers ahead of the last executed one a replica takes part in.
const SEQUENCE_WINDOW: u64 = 1_024;
/// Messages of a view not entered yet kept for when it is.
pub(super) const MAX_EARLY: usize = 1_024;

#[derive(Clone, Debug, Hash)]
pub struct Replica {
    pub id: NodeId,
    pub replicas: usize,
    pub quorum: usize,
    pub(super) view_timeout_us: u64,
    pub view: u64,
    /// The view it asked for and has not entered yet.
    pub changing_to: Option<u64>,
    pub slots: BTreeMap<u64, Slot>,
    pub(super) next_sequence: u64,
    /// Every sequence number up to this one executed, in order.
    pub executed: u64,
    /// Requests heard of and not executed, by digest.
    pub(super) pending: BTreeMap<Digest, PbftRequest>,
    /// Executed requests' digests, with the sequence number each executed at.
    pub(super) done: BTreeMap<Digest, u64>,
    /// Digests the primary already ordered in this view.
    pub(super) proposed: BTreeSet<Digest>,
    /// View changes heard, by view and sender.
    pub(super) view_changes: BTreeMap<u64, BTreeMap<NodeId, Vec<PreparedProof>>>,
    pub(super) new_view_sent: Option<u64>,
    /// The `NewView` it sent as primary, sent again to a replica that missed it.
    pub(super) last_new_view: Option<PbftMessage>,
    /// Messages for a view it has not entered yet (delivered before the `NewView`).
    pub(super) early: Vec<(NodeId, PbftMessage)>,
    pub(super) timer_armed: bool,
    /// How it lies, if it does (`Action::Byzantine`).
    pub byzantine: Option<ByzantineMode>,
    pub messages_sent: u64,
}

impl Replica {
    pub fn new(id: NodeId, replicas: usize, options: PbftOptions) -> Replica {
        Replica {
            id,
            replicas,
            quorum: quorum_size(replicas, options.quorum),
            view_timeout_us: options.view_timeout_ms * 1_000,
            view: 0,
            changing_to: None,
            slots: BTreeMap::new(),
            next_sequence: 1,
            executed: 0,
            pending: BTreeMap::new(),
            done: BTreeMap::new(),
            proposed: BTreeSet::new(),
            view_changes: BTreeMap::new(),
            new_view_sent: None,
            last_new_view: None,
            early: Vec::new(),
            timer_armed: false,
            byzantine: None,
            messages_sent: 0,
        }
    }

    pub fn primary(&self) -> NodeId {
        primary_of(self.view, self.replicas)
    }

    pub fn is_primary(&self) -> bool {
        self.primary() == self.id && self.changing_to.is_none()
    }

    pub fn is_lying(&self) -> bool {
        self.byzantine.is_some()
    }

    /// Requests heard of and not executed yet.
    pub fn waiting_requests(&self) -> usize {
        self.pending.len()
    }

    /// Sends `message` to `to`, shaped by how this replica lies (or not at all, when silent to `to`).
    pub(super) fn send_to<M: PbftWire>(
        &mut self,
        to: NodeId,
        message: PbftMessage,
        effects: &mut Effects<M>,
    ) {
        let request = lying::slot_request(self, &message);
        let route = (self.id, to);
        if let Some(message) = lying::shape(self.byzantine, route, self.replicas, message, request)
        {
            self.messages_sent += 1;
            effects.send(to, message);
        }
    }

    pub(super) fn broadcast<M: PbftWire>(
        &mut self,
        message: PbftMessage,
        effects: &mut Effects<M>,
    ) {
        for index in 0..self.replicas {
            let to = NodeId(index as u16);
            if to != self.id {
                self.send_to(to, message.clone(), effects);
            }
        }
    }

    pub(super) fn arm_timer<M: PbftWire>(&mut self, effects: &mut Effects<M>) {
        if self.timer_armed || self.pending.is_empty() || self.changing_to.is_some() {
            return;
        }
        self.timer_armed = true;
        let delay = TimerDelay::Exactly {
            local_us: self.view_timeout_us,
        };
        effects.set_timer(VIEW_TIMER, delay, "view change timeout");
    }

    pub(super) fn restart_timer<M: PbftWire>(&mut self, effects: &mut Effects<M>) {
        effects.cancel_timer(VIEW_TIMER);
        self.timer_armed = false;
        self.arm_timer(effects);
    }

    fn in_window(&self, sequence: u64) -> bool {
        sequence > 0 && sequence <= MAX_SEQUENCE && sequence <= self.executed + SEQUENCE_WINDOW
    }

    fn on_request<M: PbftWire>(&mut self, request: PbftRequest, effects: &mut Effects<M>) {
        let digest = request.digest();
        if let Some(&sequence) = self.done.get(&digest) {
            let reply = self.reply_for(request, sequence);
            return self.send_to(request.client, reply, effects);
        }
        if self.pending.len() >= MAX_PENDING && !self.pending.contains_key(&digest) {
            return;
        }
        self.pending.insert(digest, request);
        if self.is_primary() {
            self.assign(Some(request), effects);
        }
        self.arm_timer(effects);
    }

    fn reply_for(&self, request: PbftRequest, sequence: u64) -> PbftMessage {
        PbftMessage::Reply {
            view: self.view,
            number: request.number,
            sequence,
            digest: request.digest(),
        }
    }

    /// The primary orders a request (or, filling a gap, a null one) at the next sequence number.
    pub(super) fn assign<M: PbftWire>(
        &mut self,
        request: Option<PbftRequest>,
        effects: &mut Effects<M>,
    ) {
        let digest = request.map_or(0, |request| request.digest());
        let sequence = self.next_sequence;
        if !self.in_window(sequence) || !self.proposed.insert(digest) {
            return;
        }
        self.next_sequence += 1;
        let view = self.view;
        let slot = self
            .slots
            .entry(sequence)
            .or_insert_with(|| Slot::new(view));
        slot.enter_view(view);
        slot.accept(digest, request, self.id);
        effects.observe(PbftFact::SequenceAssigned {
            view,
            sequence,
            digest,
        });
        let pre_prepare = PbftMessage::PrePrepare {
            view,
            sequence,
            digest,
            request,
        };
        self.broadcast(pre_prepare, effects);
        if self.byzantine == Some(ByzantineMode::Equivocate) {
            // A liar need not wait for prepares: commits sent at once, each matching what its
            // recipient was shown, help the two halves commit before anyone compares notes.
            let commit = PbftMessage::Commit {
                view,
                sequence,
                digest,
            };
            self.broadcast(commit, effects);
        }
    }

    /// A backup takes the primary's pre-prepare (also re-run for each slot a `NewView` proposes).
    pub(super) fn on_pre_prepare<M: PbftWire>(
        &mut self,
        from: NodeId,
        (view, sequence): (u64, u64),
        digest: Digest,
        request: Option<PbftRequest>,
        effects: &mut Effects<M>,
    ) {
        if from != primary_of(view, self.replicas) || from == self.id || !self.in_window(sequence) {
            return;
        }
        let slot = self
            .slots
            .entry(sequence)
            .or_insert_with(|| Slot::new(view));
        if slot.done() {
            // Committed already (in an earlier view): vouch again so the others can catch up.
            if slot.digest == Some(digest) {
                self.vote_again(view, sequence, digest, effects);
            }
            return;
        }
        let valid = request.map_or(digest == 0, |request| request.digest() == digest);
        if slot.phase >= SlotPhase::PrePrepared || !valid {
            if slot.digest != Some(digest) {
                effects.observe(PbftFact::PrePrepareRefused {
                    view,
                    sequence,
                    digest,
                });
            }
            return;
        }
        slot.accept(digest, request, from);
        slot.prepare_from(digest, self.id);
        if let Some(request) = request.filter(|request| !self.done.contains_key(&request.digest()))
        {
            self.pending.entry(digest).or_insert(request);
        }
        effects.observe(PbftFact::PrePrepareAccepted {
            view,
            sequence,
            digest,
        });
        let prepare = PbftMessage::Prepare {
            view,
            sequence,
            digest,
            primary_digest: digest,
        };
        self.broadcast(prepare, effects);
        self.arm_timer(effects);
        self.check_prepared(sequence, effects);
    }

    fn vote_again<M: PbftWire>(
        &mut self,
        view: u64,
        sequence: u64,
        digest: Digest,
        effects: &mut Effects<M>,
    ) {
        let prepare = PbftMessage::Prepare {
            view,
            sequence,
            digest,
            primary_digest: digest,
        };
        self.broadcast(prepare, effects);
        let commit = PbftMessage::Commit {
            view,
            sequence,
            digest,
        };
        self.broadcast(commit, effects);
    }

    fn on_prepare<M: PbftWire>(
        &mut self,
        from: NodeId,
        (view, sequence): (u64, u64),
        (digest, primary_digest): (Digest, Digest),
        effects: &mut Effects<M>,
    ) {
        if from == primary_of(view, self.replicas) || !self.in_window(sequence) {
            return;
        }
        let suspects = self.primary() != self.id && !self.is_lying();
        let slot = self
            .slots
            .entry(sequence)
            .or_insert_with(|| Slot::new(view));
        if slot.done() {
            return;
        }
        let caught = slot.digest.is_some_and(|mine| mine != primary_digest);
        if caught && suspects {
            let next = view + 1;
            return self.start_view_change(next, Suspicion::Equivocation, effects);
        }
        slot.prepare_from(digest, from);
        self.check_prepared(sequence, effects);
    }

    fn check_prepared<M: PbftWire>(&mut self, sequence: u64, effects: &mut Effects<M>) {
        let (view, quorum, me) = (self.view, self.quorum, self.id);
        let Some(slot) = self.slots.get_mut(&sequence) else {
            return;
        };
        let vouchers = slot.vouchers();
        let Some(digest) = slot.digest else { return };
        if slot.phase != SlotPhase::PrePrepared || vouchers.len() < quorum {
            return;
        }
        slot.mark_prepared(view);
        slot.commit_from(digest, me);
        effects.observe(PbftFact::SlotPrepared {
            view,
            sequence,
            digest,
            vouchers,
        });
        let commit = PbftMessage::Commit {
            view,
            sequence,
            digest,
        };
        self.broadcast(commit, effects);
        self.check_committed(sequence, effects);
    }

    fn on_commit<M: PbftWire>(
        &mut self,
        from: NodeId,
        (view, sequence): (u64, u64),
        digest: Digest,
        effects: &mut Effects<M>,
    ) {
        if !self.in_window(sequence) {
            return;
        }
        let slot = self
            .slots
            .entry(sequence)
            .or_insert_with(|| Slot::new(view));
        if !slot.done() {
            slot.commit_from(digest, from);
            self.check_committed(sequence, effects);
        }
    }

    fn check_committed<M: PbftWire>(&mut self, sequence: u64, effects: &mut Effects<M>) {
        let (view, quorum, honest) = (self.view, self.quorum, !self.is_lying());
        let Some(slot) = self.slots.get_mut(&sequence) else {
            return;
        };
        let committers = slot.committers();
        let Some(digest) = slot.digest else { return };
        if slot.phase != SlotPhase::Prepared || committers.len() < quorum {
            return;
        }
        slot.phase = SlotPhase::Committed;
        effects.observe(PbftFact::SlotCommitted {
            view,
            sequence,
            digest,
            committers,
            honest,
        });
        self.execute_ready(effects);
    }

    /// Executes committed slots in order, from the first not executed, and replies to their clients.
    fn execute_ready<M: PbftWire>(&mut self, effects: &mut Effects<M>) {
        let before = self.executed;
        while let Some(slot) = self.slots.get_mut(&(self.executed + 1)) {
            if slot.phase != SlotPhase::Committed {
                break;
            }
            slot.phase = SlotPhase::Executed;
            self.executed += 1;
            let Some(request) = slot.request else {
                continue;
            };
            let (sequence, digest) = (self.executed, request.digest());
            self.done.insert(digest, sequence);
            self.pending.remove(&digest);
            effects.observe(PbftFact::RequestExecuted {
                sequence,
                digest,
                client: request.client,
                number: request.number,
                forged: is_forged(request.operation),
            });
            let reply = self.reply_for(request, sequence);
            self.send_to(request.client, reply, effects);
        }
        if self.executed > before && self.changing_to.is_none() {
            self.restart_timer(effects);
        }
    }

    /// Normal-case and view-change messages; those of a view not entered yet wait for it.
    pub(super) fn on_message<M: PbftWire>(
        &mut self,
        from: NodeId,
        message: &PbftMessage,
        effects: &mut Effects<M>,
    ) {
        if from.index() >= self.replicas && !matches!(message, PbftMessage::Request(_)) {
            return;
        }
        match *message {
            PbftMessage::Request(request) => self.on_request(request, effects),
            PbftMessage::PrePrepare { view, .. }
            | PbftMessage::Prepare { view, .. }
            | PbftMessage::Commit { view, .. }
                if view != self.view || self.changing_to.is_some() =>
            {
                self.keep_early(from, view, message)
            }
            PbftMessage::PrePrepare {
                view,
                sequence,
                digest,
                request,
            } => self.on_pre_prepare(from, (view, sequence), digest, request, effects),
            PbftMessage::Prepare {
                view,
                sequence,
                digest,
                primary_digest,
            } => self.on_prepare(from, (view, sequence), (digest, primary_digest), effects),
            PbftMessage::Commit {
                view,
                sequence,
                digest,
            } => self.on_commit(from, (view, sequence), digest, effects),
            PbftMessage::ViewChange { view, ref prepared } => {
                self.on_view_change(from, view, prepared, effects)
            }
            PbftMessage::NewView {
                view,
                ref proposals,
                ref proof,
            } => self.on_new_view(from, view, (proposals, proof), effects),
            PbftMessage::Reply { .. } => {}
        }
    }

    fn keep_early(&mut self, from: NodeId, view: u64, message: &PbftMessage) {
        if view > self.view && self.early.len() < MAX_EARLY {
            self.early.push((from, message.clone()));
        }
    }
}

impl<M: PbftWire> Protocol<M> for Replica {
    fn handle(&mut self, _local_now_us: u64, input: Input<'_, M>, effects: &mut Effects<M>) {
        match input {
            Input::Message { from, message } => {
                if let Some(message) = message.peel() {
                    self.on_message(from, message, effects);
                }
            }
            Input::Timer { key: VIEW_TIMER } => self.on_timeout(effects),
            Input::Recover => {
                self.timer_armed = false;
                match self.changing_to {
                    // Still asking for a view: ask again, as a timeout would.
                    Some(asked) => {
                        self.changing_to = None;
                        self.start_view_change(asked, Suspicion::Timeout, effects);
                    }
                    None => self.arm_timer(effects),
                }
            }
            _ => {}
        }
    }

    /// Its log of slots, its view and what it executed are written down; timers and the votes of a
    /// view change in progress are not.
    fn crash(&mut self) {
        self.timer_armed = false;
        self.early.clear();
    }

    fn summary(&self) -> ActorSummary {
        ActorSummary::WITHOUT_LOG
    }

    fn turn_byzantine(&mut self, mode: ByzantineMode) -> Result<(), &'static str> {
        self.byzantine = (mode != ByzantineMode::Honest).then_some(mode);
        Ok(())
    }
}
