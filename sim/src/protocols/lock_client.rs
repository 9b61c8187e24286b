//! The client side of the lock service, shared by every actor that takes a lease-backed lock from it:
//! the lock workers (`worker/`) and the invoice scheduler's instances (`scheduler/`).
//!
//! Talking to a replicated lock service is the same chore whoever does it. The client does not know
//! which server leads, so it keeps a guess and moves it when a server says "not the leader" (to the
//! hint, or else to the next server). An acquire is answered either with a grant or with a place in
//! the key's queue; a queued lease is later granted by a push (`Granted`) or noticed through a
//! keep-alive reply that carries a token. Keep-alives stretch the lease on the client's own clock,
//! measured from when the keep-alive was *sent*, never from when its answer arrived: the service
//! started its new countdown no earlier than that, so the client's deadline is never later than the
//! service's (clocks that run at one rate assumed).
//!
//! `LockClient` holds that state and turns the service's replies into a [`LockReply`] for its embedder,
//! which decides what each means for its own loop (a worker reads the store, a scheduler instance
//! starts leading). What to send, which timers to set and what to do on expiry stay with the embedder.

use crate::base::ids::NodeId;
use crate::base::units::FencingToken;
use crate::contract::protocol::{Carries, Effects};
use crate::protocols::lockservice::{AcquireResult, LockServiceMessage};

/// A lock-service reply as the embedder needs to act on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LockReply {
    /// A lock-service reply with nothing left to do (stale, or for another attempt).
    Ignored,
    /// The current acquire was refused by a non-leader and not applied: send it again (same id).
    Resend,
    /// The current acquire was answered: granted at once.
    Acquired { lease: u64, token: FencingToken },
    /// The current acquire was answered: the lease exists and waits in the key's queue.
    Queued { lease: u64 },
    /// The service pushed a grant for `lease` (maybe the one queued, maybe an orphan).
    Granted { lease: u64, token: FencingToken },
    /// The service no longer knows the current lease.
    Expired,
    /// The current lease was kept alive (`lease_until_local_us` is already moved); `token` is set if
    /// the lease now holds the lock.
    Renewed {
        lease: u64,
        token: Option<FencingToken>,
    },
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LockClient {
    pub servers: usize,
    /// Which server the client believes leads (an index, taken modulo `servers`).
    pub leader_guess: usize,
    /// Identifies the current acquire attempt.
    pub request: u64,
    pub acquire_sent_local_us: u64,
    /// The lease the client knows about (waiting or holding).
    pub lease: Option<u64>,
    /// Until when the client believes its lease lasts, on its own clock.
    pub lease_until_local_us: u64,
    lease_ttl_ms: u64,
}

impl LockClient {
    pub fn new(servers: usize, lease_ttl_ms: u64) -> LockClient {
        assert!(servers > 0, "a lock client needs a server to talk to");
        LockClient {
            servers,
            leader_guess: 0,
            request: 0,
            acquire_sent_local_us: 0,
            lease: None,
            lease_until_local_us: 0,
            lease_ttl_ms,
        }
    }

    /// The server the client sends to: its guess of the leader.
    pub fn server(&self) -> NodeId {
        NodeId((self.leader_guess % self.servers) as u16)
    }

    pub fn send<M: Carries<LockServiceMessage>>(
        &self,
        effects: &mut Effects<M>,
        message: LockServiceMessage,
    ) {
        effects.send(self.server(), message);
    }

    /// Gives `lease`'s hold on `key` back; `request` lets the reply be matched.
    pub fn send_release<M: Carries<LockServiceMessage>>(
        &self,
        effects: &mut Effects<M>,
        key: u32,
        lease: u64,
        request: u64,
    ) {
        self.send(
            effects,
            LockServiceMessage::Release {
                key,
                lease,
                request,
            },
        );
    }

    /// No answer in time: try the next server.
    pub fn try_next_server(&mut self) {
        self.leader_guess = (self.leader_guess + 1) % self.servers;
    }

    /// Sends a keep-alive for the lease, if there is one; false if there is none.
    pub fn send_keep_alive<M: Carries<LockServiceMessage>>(
        &self,
        now_us: u64,
        effects: &mut Effects<M>,
    ) -> bool {
        let Some(lease) = self.lease else {
            return false;
        };
        let keep_alive = LockServiceMessage::KeepAlive {
            lease,
            sent_at_local_us: now_us,
        };
        self.send(effects, keep_alive);
        true
    }

    /// Reads a reply from the lock service. `acquiring`: the embedder still waits for the answer to
    /// `request`. `None` for messages that are not the lock service's replies to a client.
    pub fn on_reply(
        &mut self,
        from: NodeId,
        message: &LockServiceMessage,
        acquiring: bool,
    ) -> Option<LockReply> {
        let reply = match *message {
            LockServiceMessage::NotLeader {
                request,
                leader_hint,
            } => {
                self.leader_guess = match leader_hint {
                    Some(hint) if hint.index() < self.servers => hint.index(),
                    _ => (from.index() + 1) % self.servers,
                };
                if acquiring && request == self.request {
                    LockReply::Resend
                } else {
                    LockReply::Ignored
                }
            }
            LockServiceMessage::AcquireReply { request, result } => {
                if !acquiring || request != self.request {
                    return Some(LockReply::Ignored);
                }
                self.leader_guess = from.index();
                match result {
                    AcquireResult::Granted { lease, token } => LockReply::Acquired { lease, token },
                    AcquireResult::Queued { lease } => LockReply::Queued { lease },
                }
            }
            LockServiceMessage::Granted { lease, token, .. } => LockReply::Granted { lease, token },
            LockServiceMessage::KeepAliveReply {
                lease,
                alive,
                token,
                echo_sent_at_local_us,
            } => {
                if self.lease != Some(lease) {
                    return Some(LockReply::Ignored);
                }
                if !alive {
                    return Some(LockReply::Expired);
                }
                let until = echo_sent_at_local_us.saturating_add(self.lease_ttl_ms * 1_000);
                self.lease_until_local_us = self.lease_until_local_us.max(until);
                LockReply::Renewed { lease, token }
            }
            _ => return None,
        };
        Some(reply)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn client() -> LockClient {
        let mut client = LockClient::new(3, 1_000);
        client.request = 5;
        client
    }

    #[test]
    fn not_leader_moves_the_guess_to_the_hint_or_the_next_server() {
        let mut client = client();
        let refused = LockServiceMessage::NotLeader {
            request: 5,
            leader_hint: Some(NodeId(2)),
        };
        assert_eq!(
            client.on_reply(NodeId(0), &refused, true),
            Some(LockReply::Resend)
        );
        assert_eq!(client.server(), NodeId(2));
        let no_hint = LockServiceMessage::NotLeader {
            request: 4,
            leader_hint: None,
        };
        assert_eq!(
            client.on_reply(NodeId(2), &no_hint, true),
            Some(LockReply::Ignored),
            "an older attempt's refusal is not resent"
        );
        assert_eq!(client.server(), NodeId(0));
    }

    #[test]
    fn an_acquire_answer_counts_only_for_the_current_attempt() {
        let mut client = client();
        let answer = |request| LockServiceMessage::AcquireReply {
            request,
            result: AcquireResult::Queued { lease: 9 },
        };
        assert_eq!(
            client.on_reply(NodeId(1), &answer(4), true),
            Some(LockReply::Ignored)
        );
        assert_eq!(
            client.on_reply(NodeId(1), &answer(5), false),
            Some(LockReply::Ignored)
        );
        assert_eq!(
            client.on_reply(NodeId(1), &answer(5), true),
            Some(LockReply::Queued { lease: 9 })
        );
        assert_eq!(client.server(), NodeId(1), "whoever answered leads");
    }

    #[test]
    fn keep_alive_replies_stretch_from_the_send_time_and_report_expiry() {
        let mut client = client();
        client.lease = Some(9);
        client.lease_until_local_us = 1_500_000;
        let reply = |alive, echo| LockServiceMessage::KeepAliveReply {
            lease: 9,
            alive,
            token: Some(FencingToken(3)),
            echo_sent_at_local_us: echo,
        };
        assert_eq!(
            client.on_reply(NodeId(0), &reply(true, 2_000_000), false),
            Some(LockReply::Renewed {
                lease: 9,
                token: Some(FencingToken(3))
            })
        );
        assert_eq!(client.lease_until_local_us, 3_000_000);
        // A late answer to an older keep-alive never shortens the lease.
        client.on_reply(NodeId(0), &reply(true, 100_000), false);
        assert_eq!(client.lease_until_local_us, 3_000_000);
        assert_eq!(
            client.on_reply(NodeId(0), &reply(false, 0), false),
            Some(LockReply::Expired)
        );
        client.lease = Some(10);
        assert_eq!(
            client.on_reply(NodeId(0), &reply(false, 0), false),
            Some(LockReply::Ignored),
            "a reply about another lease"
        );
    }

    #[test]
    fn other_messages_are_left_to_the_embedder() {
        let mut client = client();
        let release = LockServiceMessage::ReleaseReply {
            request: 1,
            released: true,
        };
        assert_eq!(client.on_reply(NodeId(0), &release, true), None);
    }
}
