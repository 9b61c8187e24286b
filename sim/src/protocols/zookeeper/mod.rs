//! ZooKeeper-style leader election, two recipes, on the replicated coordination service of
//! [`crate::protocols::lockservice`] (sessions are its leases, znodes live in its replicated table).
//!
//! A client opens a *session* with a timeout and keeps it alive with pings; if the pings stop (crash,
//! pause, partition) the service's leader expires the session on its own clock, and every *ephemeral*
//! znode the session created goes with it. A *watch* is a one-shot notification: "tell me when this znode
//! goes away".
//!
//! **Herd recipe.** Every candidate tries to create `/election/leader`. One succeeds and leads; every
//! other candidate sets a watch on that znode. When the leader's session ends, the znode is deleted and
//! *every* waiting candidate is notified at once, and all of them race to create the znode again: with
//! N candidates, each change of leader costs N − 1 notifications and N − 1 create attempts (the herd
//! effect).
//!
//! **Sequential recipe** (the one the ZooKeeper documentation recommends). Each candidate creates an
//! ephemeral *sequential* znode `/election/n_<seq>`. The candidate with the lowest sequence number
//! leads; every other one watches only the znode just before its own. When a candidate's session ends,
//! exactly one other candidate is notified, and the order of succession is the order of arrival.
//!
//! Watches live in the memory of the service's leader, as a ZooKeeper watch lives on the server the
//! client is connected to; a waiting candidate sets its watch again with every session ping, so a change
//! of service leader does not strand it.
//!
//! A request a server refuses ("not leader") goes again no sooner than a back-off window after it was
//! sent ([`crate::protocols::lock_client::ResendBackoff`]: windows doubling up to a cap, the resend
//! jittered inside them, at once if the refusal took the whole window to come back), and a candidate
//! keeps one request outstanding: each request has a fresh id and only a refusal naming the outstanding
//! one counts. So a duplicated refusal cannot start a second chain of retries, and with no leader the
//! candidates' retries cannot keep a network that takes no time at one instant.
//!
//! A leader here *believes* it leads for as long as its session holds on its own clock (the last ping the
//! service answered plus the session timeout), and reports that belief (`LockBelief`) so the checker
//! *Exclusive Belief* can confirm that the recipe never gives two candidates the role at once.

pub mod checkpoints;
pub mod describe;
pub mod entry;
pub mod options;
pub mod parts;
pub mod variations;
pub mod view;

use crate::base::ids::NodeId;
use crate::contract::config::{LockServiceOptions, ZkRecipe};
use crate::contract::protocol::{
    ActorSummary, Carries, ClientError, ClientOutcome, Effects, Input, Observes, Protocol,
    TimerDelay, TimerKey,
};
use crate::protocols::lock_client::ResendBackoff;
use crate::protocols::lockservice::{CreatePath, LockServiceMessage, ZPath, ZnodeMessage};
use crate::protocols::redlock::BeliefFact;
use serde::Serialize;

/// What a world's message type must carry for a candidate: the ZooKeeper-style requests and answers,
/// and the lock service's own (sessions are kept alive with its `KeepAlive`; followers say `NotLeader`).
pub trait CandidateWire:
    Carries<LockServiceMessage> + Carries<ZnodeMessage> + Observes<BeliefFact>
{
}

impl<M> CandidateWire for M where
    M: Carries<LockServiceMessage> + Carries<ZnodeMessage> + Observes<BeliefFact>
{
}

const OP_TIMER: TimerKey = 1;
const PING_TIMER: TimerKey = 2;
/// A refused request goes again when this fires.
const RETRY_TIMER: TimerKey = 3;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CandidatePhase {
    OpeningSession,
    Creating,
    /// Asked who else is a candidate (sequential recipe).
    Listing,
    /// Setting a watch.
    Watching,
    /// Waiting for a watch to fire.
    Waiting,
    Leading,
}

#[derive(Clone, Debug, Hash)]
pub struct ZkCandidate {
    pub id: NodeId,
    pub servers: usize,
    pub options: LockServiceOptions,
    pub recipe: ZkRecipe,
    pub phase: CandidatePhase,
    pub session: Option<u64>,
    /// Sequential recipe: this candidate's znode.
    pub znode: Option<ZPath>,
    /// The znode it watches, if any.
    pub watching: Option<ZPath>,
    pub session_until_local_us: u64,
    leader_guess: usize,
    request: u64,
    /// The current request still waits for an answer (false once refused, while backing off).
    outstanding: bool,
    backoff: ResendBackoff,
    sent_local_us: u64,
    pub notifications: u64,
    pub times_led: u64,
}

impl ZkCandidate {
    pub fn new(id: NodeId, servers: usize, options: LockServiceOptions, recipe: ZkRecipe) -> Self {
        ZkCandidate {
            id,
            servers,
            options,
            recipe,
            phase: CandidatePhase::OpeningSession,
            session: None,
            znode: None,
            watching: None,
            session_until_local_us: 0,
            leader_guess: 0,
            request: 0,
            outstanding: false,
            backoff: ResendBackoff::default(),
            sent_local_us: 0,
            notifications: 0,
            times_led: 0,
        }
    }

    fn server(&self) -> NodeId {
        NodeId((self.leader_guess % self.servers) as u16)
    }

    /// Sends `message` (built with a fresh request id) to the server believed to lead.
    fn ask<M: CandidateWire>(
        &mut self,
        now_us: u64,
        effects: &mut Effects<M>,
        message: impl Fn(u64) -> ZnodeMessage,
    ) {
        self.request += 1;
        self.outstanding = true;
        self.sent_local_us = now_us;
        effects.cancel_timer(RETRY_TIMER);
        effects.send(self.server(), message(self.request));
        let local_us = self.options.op_timeout_ms * 1_000;
        effects.set_timer(
            OP_TIMER,
            TimerDelay::Exactly { local_us },
            "operation timeout",
        );
    }

    /// Re-sends what the current phase is waiting for.
    fn retry<M: CandidateWire>(&mut self, now_us: u64, effects: &mut Effects<M>) {
        let ttl_ms = self.options.lease_ttl_ms;
        let Some(session) = self.session else {
            self.phase = CandidatePhase::OpeningSession;
            self.ask(now_us, effects, |request| ZnodeMessage::OpenSession {
                ttl_ms,
                request,
            });
            return;
        };
        match self.phase {
            CandidatePhase::OpeningSession | CandidatePhase::Creating => {
                self.create(now_us, session, effects)
            }
            CandidatePhase::Listing => self.list(now_us, effects),
            CandidatePhase::Watching => match self.watching {
                Some(path) => self.watch(now_us, path, effects),
                None => self.create(now_us, session, effects),
            },
            CandidatePhase::Waiting | CandidatePhase::Leading => {}
        }
    }

    fn create<M: CandidateWire>(&mut self, now_us: u64, session: u64, effects: &mut Effects<M>) {
        // Sequential: create one znode per session, then only list and watch.
        if let (ZkRecipe::Sequential, Some(_)) = (self.recipe, self.znode) {
            self.list(now_us, effects);
            return;
        }
        self.phase = CandidatePhase::Creating;
        let path = match self.recipe {
            ZkRecipe::Herd => CreatePath::Leader,
            ZkRecipe::Sequential => CreatePath::Sequential,
        };
        self.ask(now_us, effects, |request| ZnodeMessage::Create {
            session,
            path,
            request,
        });
    }

    fn list<M: CandidateWire>(&mut self, now_us: u64, effects: &mut Effects<M>) {
        self.phase = CandidatePhase::Listing;
        self.ask(now_us, effects, |request| ZnodeMessage::Children {
            request,
        });
    }

    fn watch<M: CandidateWire>(&mut self, now_us: u64, path: ZPath, effects: &mut Effects<M>) {
        self.phase = CandidatePhase::Watching;
        self.watching = Some(path);
        self.ask(now_us, effects, |request| ZnodeMessage::WatchExists {
            path,
            request,
        });
    }

    fn lead<M: CandidateWire>(&mut self, now_us: u64, effects: &mut Effects<M>) {
        self.phase = CandidatePhase::Leading;
        self.watching = None;
        self.times_led += 1;
        effects.cancel_timer(OP_TIMER);
        let hold = (self.id.0 as u64) << 32 | self.session.unwrap_or(0);
        effects.observe(BeliefFact::LockBelief {
            hold,
            valid_for_local_us: self.session_until_local_us.saturating_sub(now_us),
        });
    }

    /// The session is gone (expired, or the service says so): start over with a new one.
    fn lose_session<M: CandidateWire>(&mut self, now_us: u64, effects: &mut Effects<M>) {
        if self.phase == CandidatePhase::Leading {
            let hold = (self.id.0 as u64) << 32 | self.session.unwrap_or(0);
            effects.observe(BeliefFact::LockBeliefEnded { hold });
        }
        self.session = None;
        self.znode = None;
        self.watching = None;
        effects.cancel_timer(PING_TIMER);
        self.retry(now_us, effects);
    }

    fn ping_timer<M: CandidateWire>(&self, effects: &mut Effects<M>) {
        let local_us = self.options.renew_ms * 1_000;
        effects.set_timer(PING_TIMER, TimerDelay::Exactly { local_us }, "session ping");
    }

    fn on_message<M: CandidateWire>(
        &mut self,
        now_us: u64,
        from: NodeId,
        message: &M,
        effects: &mut Effects<M>,
    ) {
        if let Some(message) = Carries::<LockServiceMessage>::peel(message) {
            self.on_session_reply(now_us, from, message, effects);
        } else if let Some(message) = Carries::<ZnodeMessage>::peel(message) {
            if answered_request(message) == Some(self.request) {
                self.outstanding = false;
                self.backoff.reset();
            }
            self.on_znode_message(now_us, from, message, effects);
        }
    }

    /// The lock service's own answers: a server that does not lead, or a session kept alive (or gone).
    fn on_session_reply<M: CandidateWire>(
        &mut self,
        now_us: u64,
        from: NodeId,
        message: &LockServiceMessage,
        effects: &mut Effects<M>,
    ) {
        match message {
            LockServiceMessage::NotLeader {
                request,
                leader_hint,
                ..
            } => {
                self.leader_guess = match leader_hint {
                    Some(hint) if hint.index() < self.servers => hint.index(),
                    _ => (from.index() + 1) % self.servers,
                };
                if *request == self.request && self.outstanding {
                    // Not applied: ask again, now or after the back-off (awaiting no answer meanwhile).
                    self.outstanding = false;
                    match self.backoff.after_refusal(self.sent_local_us, now_us) {
                        None => self.retry(now_us, effects),
                        Some(delay) => {
                            effects.cancel_timer(OP_TIMER);
                            effects.set_timer(RETRY_TIMER, delay, "retry after back-off");
                        }
                    }
                }
            }
            LockServiceMessage::KeepAliveReply {
                lease,
                alive,
                echo_sent_at_local_us,
                ..
            } if Some(*lease) == self.session => {
                if !alive {
                    self.lose_session(now_us, effects);
                    return;
                }
                let until = echo_sent_at_local_us + self.options.lease_ttl_ms * 1_000;
                self.session_until_local_us = self.session_until_local_us.max(until);
                if self.phase == CandidatePhase::Leading {
                    let hold = (self.id.0 as u64) << 32 | *lease;
                    effects.observe(BeliefFact::LockBelief {
                        hold,
                        valid_for_local_us: self.session_until_local_us.saturating_sub(now_us),
                    });
                }
            }
            _ => {}
        }
    }

    fn on_znode_message<M: CandidateWire>(
        &mut self,
        now_us: u64,
        from: NodeId,
        message: &ZnodeMessage,
        effects: &mut Effects<M>,
    ) {
        match message {
            ZnodeMessage::SessionOpened { request, session } if *request == self.request => {
                self.leader_guess = from.index();
                self.session = Some(*session);
                self.session_until_local_us =
                    self.sent_local_us + self.options.lease_ttl_ms * 1_000;
                self.ping_timer(effects);
                self.create(now_us, *session, effects);
            }
            ZnodeMessage::CreateReply { request, path } if *request == self.request => {
                match (self.recipe, path) {
                    (ZkRecipe::Herd, Some(_)) => self.lead(now_us, effects),
                    (ZkRecipe::Herd, None) => self.watch(now_us, ZPath::Leader, effects),
                    (ZkRecipe::Sequential, Some(path)) => {
                        self.znode = Some(*path);
                        self.list(now_us, effects);
                    }
                    (ZkRecipe::Sequential, None) => self.lose_session(now_us, effects),
                }
            }
            ZnodeMessage::ChildrenReply { request, sequences } if *request == self.request => {
                // Ours is the lowest znode of our session: a create whose answer was lost and was
                // retried leaves a second one, which must not make us wait for ourselves.
                let session = self.session;
                let ours = sequences
                    .iter()
                    .filter(|(_, owner)| Some(*owner) == session)
                    .map(|(sequence, _)| *sequence)
                    .min();
                let Some(mine) = ours else {
                    // Our znode is gone: so is our session.
                    self.lose_session(now_us, effects);
                    return;
                };
                self.znode = Some(ZPath::Candidate(mine));
                let others = sequences
                    .iter()
                    .filter(|(_, owner)| Some(*owner) != session);
                match others
                    .map(|(sequence, _)| *sequence)
                    .filter(|sequence| *sequence < mine)
                    .max()
                {
                    None => self.lead(now_us, effects),
                    Some(before) => self.watch(now_us, ZPath::Candidate(before), effects),
                }
            }
            ZnodeMessage::WatchExistsReply {
                request: 0,
                exists: false,
                path,
                ..
            } if self.phase == CandidatePhase::Waiting && self.watching == Some(*path) => {
                // Re-armed too late: it went while the watch was lost. Act as if notified.
                self.watching = None;
                if let Some(session) = self.session {
                    self.create(now_us, session, effects);
                }
            }
            ZnodeMessage::WatchExistsReply {
                request,
                exists,
                owner_session,
                ..
            } if *request == self.request => {
                effects.cancel_timer(OP_TIMER);
                if *exists && *owner_session == self.session && self.recipe == ZkRecipe::Herd {
                    // The leader znode is ours: our create went through but its answer was lost.
                    self.lead(now_us, effects);
                } else if *exists {
                    self.phase = CandidatePhase::Waiting;
                } else if let Some(session) = self.session {
                    // Gone before we could watch it: act as if notified.
                    self.create(now_us, session, effects);
                }
            }
            ZnodeMessage::WatchEvent { path } => {
                self.notifications += 1;
                if self.watching == Some(*path) && self.phase == CandidatePhase::Waiting {
                    self.watching = None;
                    if let Some(session) = self.session {
                        self.create(now_us, session, effects);
                    }
                }
            }
            _ => {}
        }
    }

    fn on_ping<M: CandidateWire>(&mut self, now_us: u64, effects: &mut Effects<M>) {
        let Some(lease) = self.session else {
            return;
        };
        if now_us >= self.session_until_local_us {
            // Our own clock says the session ran out: whatever the service thinks, stop leading.
            self.lose_session(now_us, effects);
            return;
        }
        let ping = LockServiceMessage::KeepAlive {
            lease,
            sent_at_local_us: now_us,
        };
        effects.send(self.server(), ping);
        self.ping_timer(effects);
        // Watches live on the service's leader and are lost when leadership moves: set it again (the
        // server keeps one watch per watcher, so this never doubles a notification).
        if let (CandidatePhase::Waiting, Some(path)) = (self.phase, self.watching) {
            let rearm = ZnodeMessage::WatchExists { path, request: 0 };
            effects.send(self.server(), rearm);
        }
    }
}

/// The request a service answer is for (`None` for a watch event, which answers nothing).
fn answered_request(message: &ZnodeMessage) -> Option<u64> {
    match *message {
        ZnodeMessage::SessionOpened { request, .. }
        | ZnodeMessage::CreateReply { request, .. }
        | ZnodeMessage::WatchExistsReply { request, .. }
        | ZnodeMessage::ChildrenReply { request, .. } => Some(request),
        _ => None,
    }
}

impl<M: CandidateWire> Protocol<M> for ZkCandidate {
    fn handle(&mut self, local_now_us: u64, input: Input<'_, M>, effects: &mut Effects<M>) {
        match input {
            Input::Start | Input::Recover => self.retry(local_now_us, effects),
            Input::Message { from, message } => {
                self.on_message(local_now_us, from, message, effects)
            }
            Input::Timer { key: OP_TIMER } => {
                self.leader_guess = (self.leader_guess + 1) % self.servers;
                self.retry(local_now_us, effects);
            }
            Input::Timer { key: PING_TIMER } => self.on_ping(local_now_us, effects),
            Input::Timer { key: RETRY_TIMER } => self.retry(local_now_us, effects),
            Input::Timer { .. } => {}
            Input::Client { request_id, .. } => {
                let error = ClientError::NotLeader { leader_hint: None };
                effects.reply(request_id, ClientOutcome::Rejected(error));
            }
        }
    }

    /// A crashed client loses its session handle; the service expires the session later.
    fn crash(&mut self) {
        let fresh = ZkCandidate::new(self.id, self.servers, self.options, self.recipe);
        *self = ZkCandidate {
            request: self.request,
            notifications: self.notifications,
            times_led: self.times_led,
            ..fresh
        };
    }

    fn summary(&self) -> ActorSummary {
        ActorSummary::WITHOUT_LOG
    }
}
