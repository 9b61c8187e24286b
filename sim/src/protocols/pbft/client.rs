//! A PBFT client: it sends one request at a time to every replica and takes a result once f + 1
//! replicas reply with the same one, since at most f of them lie. No answer in time: it sends again.

use super::replica::PbftWire;
use super::{reply_quorum, PbftFact, PbftMessage, PbftRequest};
use crate::base::ids::{NodeId, NodeSet};
use crate::contract::config::PbftOptions;
use crate::contract::protocol::{ActorSummary, Effects, Input, Protocol, TimerDelay, TimerKey};
use std::collections::BTreeMap;

const CLIENT_TIMER: TimerKey = 1;
/// A client waits this many view timeouts for f + 1 replies before it sends again.
const RESEND_VIEW_TIMEOUTS: u64 = 2;
/// Clients start this far apart, so their requests do not always arrive together.
const STAGGER_MS: u64 = 17;

#[derive(Clone, Debug, Hash)]
pub struct PbftClient {
    pub id: NodeId,
    index: usize,
    replicas: usize,
    /// Matching replies it waits for (f + 1).
    pub needed: usize,
    options: PbftOptions,
    /// Requests sent so far; the current one is number `sent`.
    pub sent: u64,
    pub current: Option<PbftRequest>,
    /// Replies to the current request by the sequence number they name.
    replies: BTreeMap<u64, NodeSet>,
    pub accepted: u64,
    /// The last result taken: request number and the sequence number it executed at.
    pub last_result: Option<(u64, u64)>,
    /// When (on its own clock) it last took a result.
    pub last_result_local_us: Option<u64>,
    now_local_us: u64,
    pub messages_sent: u64,
}

impl PbftClient {
    pub fn new(
        id: NodeId,
        index: usize,
        replicas: usize,
        quorum: usize,
        options: PbftOptions,
    ) -> Self {
        PbftClient {
            id,
            index,
            replicas,
            needed: reply_quorum(replicas, quorum),
            options,
            sent: 0,
            current: None,
            replies: BTreeMap::new(),
            accepted: 0,
            last_result: None,
            last_result_local_us: None,
            now_local_us: 0,
            messages_sent: 0,
        }
    }

    /// Replicas that replied to the current request so far, by the sequence number each named.
    pub fn replies(&self) -> &BTreeMap<u64, NodeSet> {
        &self.replies
    }

    fn wait<M: PbftWire>(&self, ms: u64, effects: &mut Effects<M>) {
        let delay = TimerDelay::Exactly {
            local_us: ms * 1_000,
        };
        effects.set_timer(CLIENT_TIMER, delay, "client request");
    }

    fn send_to_all<M: PbftWire>(&mut self, request: PbftRequest, effects: &mut Effects<M>) {
        for replica in 0..self.replicas {
            self.messages_sent += 1;
            effects.send(NodeId(replica as u16), PbftMessage::Request(request));
        }
        let resend_ms = RESEND_VIEW_TIMEOUTS * self.options.view_timeout_ms;
        self.wait(resend_ms, effects);
    }

    fn on_timer<M: PbftWire>(&mut self, effects: &mut Effects<M>) {
        let request = match self.current {
            Some(request) => {
                effects.observe(PbftFact::RequestResent {
                    number: request.number,
                });
                request
            }
            None => {
                self.sent += 1;
                let request = PbftRequest {
                    client: self.id,
                    number: self.sent,
                    operation: self.sent,
                };
                self.current = Some(request);
                request
            }
        };
        self.send_to_all(request, effects);
    }

    fn on_reply<M: PbftWire>(
        &mut self,
        from: NodeId,
        (number, sequence, digest): (u64, u64, u64),
        effects: &mut Effects<M>,
    ) {
        let Some(request) = self.current else { return };
        if from.index() >= self.replicas || number != request.number || digest != request.digest() {
            return;
        }
        let replicas = self.replies.entry(sequence).or_default();
        replicas.insert(from);
        if replicas.len() < self.needed {
            return;
        }
        let replicas = *replicas;
        effects.observe(PbftFact::ResultAccepted {
            number,
            sequence,
            replicas,
        });
        self.accepted += 1;
        self.last_result = Some((number, sequence));
        self.last_result_local_us = Some(self.now_local_us);
        self.current = None;
        self.replies.clear();
        self.wait(self.options.request_interval_ms, effects);
    }
}

impl<M: PbftWire> Protocol<M> for PbftClient {
    fn handle(&mut self, local_now_us: u64, input: Input<'_, M>, effects: &mut Effects<M>) {
        self.now_local_us = local_now_us;
        match input {
            Input::Start | Input::Recover => {
                let first_ms = self.options.request_interval_ms + self.index as u64 * STAGGER_MS;
                self.wait(first_ms, effects);
            }
            Input::Timer { key: CLIENT_TIMER } => self.on_timer(effects),
            Input::Message { from, message } => {
                if let Some(PbftMessage::Reply {
                    number,
                    sequence,
                    digest,
                    ..
                }) = message.peel()
                {
                    self.on_reply(from, (*number, *sequence, *digest), effects);
                }
            }
            _ => {}
        }
    }

    /// A restarted client forgets the replies it collected and sends its request again.
    fn crash(&mut self) {
        self.replies.clear();
    }

    fn summary(&self) -> ActorSummary {
        ActorSummary::WITHOUT_LOG
    }
}
