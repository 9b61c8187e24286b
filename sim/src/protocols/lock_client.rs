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
//! **Refusals back off, and one send is outstanding.** A server that does not lead refuses an acquire
//! without applying it, so the same request may go again, but not at once whatever the network: a
//! client that resent the moment it heard "not leader" would, on a network that takes no time, keep the
//! world at one instant forever (the servers' election timers never fire). So consecutive sends of one
//! refused request are at least a *back-off window* apart, start to start: the window is
//! `RESEND_BACKOFF_MIN_MS` at first and doubles with every refusal in a row, up to
//! `RESEND_BACKOFF_MAX_MS`, and the resend leaves at a moment drawn uniformly in the window's second
//! half, by the world (`TimerDelay::Between`, from its seeded generator, so a run stays deterministic),
//! so that clients refused together do not come back together. Measuring from the refused send, as
//! gRPC's connection back-off does, lets the round trip count toward the wait: when the refusal took
//! the whole window to come back, the resend goes at once. The cap is the default network's shortest
//! round trip (twice 5 ms), so on the default network and slower ones a refusal is resent on arrival,
//! as it always was, and only a faster network is slowed to one resend per window.
//!
//! And a client keeps at most one send of its acquire outstanding: every send is numbered (`attempt`,
//! echoed in the refusal), and a refusal counts only if it names the send still waiting for an answer.
//! A duplicated or late refusal names a send already refused, so it cannot start a second resend
//! chain: without that rule every duplicate of a refusal forked one more chain, and with no leader the
//! chains multiplied until they filled the network's in-flight cap and crowded out the very votes that
//! would elect one. [`ResendBackoff`] is the window on its own, for clients that number their requests
//! another way (the ZooKeeper-style candidates).
//!
//! `LockClient` holds that state and turns the service's replies into a [`LockReply`] for its embedder,
//! which decides what each means for its own loop (a worker reads the store, a scheduler instance
//! starts leading). What to send, which timers to set and what to do on expiry stay with the embedder.

use crate::base::ids::NodeId;
use crate::base::units::FencingToken;
use crate::contract::protocol::{Carries, Effects, TimerDelay};
use crate::protocols::lockservice::{AcquireResult, LockServiceMessage};

/// The first back-off window: a refused request's next send leaves at least half this long after the
/// refused one, and at most this long.
pub const RESEND_BACKOFF_MIN_MS: u64 = 1;
/// The longest back-off window: doubling stops here. One default round trip (twice the default 5 ms
/// least network delay), so the default network's refusals are resent on arrival.
pub const RESEND_BACKOFF_MAX_MS: u64 = 10;

/// When to send a refused request again: exponential windows with a cap, jittered, measured from the
/// refused send.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ResendBackoff {
    /// Refusals in a row since the last answer.
    refusals: u32,
}

impl ResendBackoff {
    /// One more refusal of a request whose refused send left at `sent_local_us`, read at `now_us`
    /// (both on the client's clock): `None` to send again at once (the window has passed), else the
    /// wait, drawn in what is left of the window's second half.
    pub fn after_refusal(&mut self, sent_local_us: u64, now_us: u64) -> Option<TimerDelay> {
        // Past 16 doublings the window is long at the cap; stopping there keeps the shift in range.
        let doublings = self.refusals.min(16);
        self.refusals = self.refusals.saturating_add(1);
        let window_us = (RESEND_BACKOFF_MIN_MS << doublings).min(RESEND_BACKOFF_MAX_MS) * 1_000;
        let elapsed_us = now_us.saturating_sub(sent_local_us);
        if elapsed_us >= window_us {
            return None;
        }
        Some(TimerDelay::Between {
            min_local_us: (window_us / 2).saturating_sub(elapsed_us),
            max_local_us: window_us - elapsed_us,
        })
    }

    /// An answer came: the next refusal starts from the first window again.
    pub fn reset(&mut self) {
        self.refusals = 0;
    }
}

/// A lock-service reply as the embedder needs to act on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LockReply {
    /// A lock-service reply with nothing left to do (stale, or for another attempt).
    Ignored,
    /// The outstanding send of the current acquire was refused by a non-leader and not applied, and its
    /// back-off window has passed: send it again now (same id, [`LockClient::send_acquire`]).
    Resend,
    /// The same refusal inside the back-off window: send it again once `delay` has passed, not before.
    BackOff { delay: TimerDelay },
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

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct LockClient {
    pub servers: usize,
    /// Which server the client believes leads (an index, taken modulo `servers`).
    pub leader_guess: usize,
    /// Identifies the current acquire (kept across its sends).
    pub request: u64,
    /// Numbers every send of an acquire, so a refusal names the send it refuses.
    attempt: u32,
    /// The send of the current acquire that waits for an answer: `None` once it is refused (while the
    /// client backs off) or answered.
    outstanding: Option<u32>,
    backoff: ResendBackoff,
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
            attempt: 0,
            outstanding: None,
            backoff: ResendBackoff::default(),
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

    /// Starts a new acquire named `request`: its refusals back off from the shortest wait.
    pub fn begin_acquire(&mut self, request: u64) {
        self.request = request;
        self.outstanding = None;
        self.backoff.reset();
    }

    /// Sends the current acquire for `key` (again, on a resend: same request id, next attempt), which
    /// becomes the one outstanding send.
    pub fn send_acquire<M: Carries<LockServiceMessage>>(
        &mut self,
        now_us: u64,
        effects: &mut Effects<M>,
        (key, ttl_ms): (u32, u64),
        idempotent: bool,
    ) {
        self.attempt = self.attempt.wrapping_add(1).max(1);
        self.outstanding = Some(self.attempt);
        self.acquire_sent_local_us = now_us;
        let message = LockServiceMessage::Acquire {
            key,
            ttl_ms,
            request: self.request,
            attempt: self.attempt,
            idempotent,
        };
        self.send(effects, message);
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

    /// Reads a reply from the lock service, at `now_us` on the client's clock. `acquiring`: the embedder
    /// still waits for the answer to `request`. `None` for messages that are not the lock service's
    /// replies to a client.
    pub fn on_reply(
        &mut self,
        now_us: u64,
        from: NodeId,
        message: &LockServiceMessage,
        acquiring: bool,
    ) -> Option<LockReply> {
        let reply = match *message {
            LockServiceMessage::NotLeader {
                request,
                attempt,
                leader_hint,
            } => {
                self.leader_guess = match leader_hint {
                    Some(hint) if hint.index() < self.servers => hint.index(),
                    _ => (from.index() + 1) % self.servers,
                };
                if acquiring && request == self.request && self.outstanding == Some(attempt) {
                    self.outstanding = None;
                    let sent_us = self.acquire_sent_local_us;
                    match self.backoff.after_refusal(sent_us, now_us) {
                        None => LockReply::Resend,
                        Some(delay) => LockReply::BackOff { delay },
                    }
                } else {
                    LockReply::Ignored
                }
            }
            LockServiceMessage::AcquireReply { request, result } => {
                // Any send of the current request counts: the service applied it.
                if !acquiring || request != self.request {
                    return Some(LockReply::Ignored);
                }
                self.outstanding = None;
                self.backoff.reset();
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
    use crate::contract::protocol::Wire;

    /// A world that speaks only the lock protocol, to catch what the client sends.
    #[derive(Clone, Debug, PartialEq, Eq, Hash)]
    struct LockWire(LockServiceMessage);

    impl Wire for LockWire {
        type Fact = ();
    }

    impl Carries<LockServiceMessage> for LockWire {
        fn wrap(inner: LockServiceMessage) -> Self {
            LockWire(inner)
        }
        fn peel(&self) -> Option<&LockServiceMessage> {
            Some(&self.0)
        }
    }

    fn client() -> LockClient {
        let mut client = LockClient::new(3, 1_000);
        client.begin_acquire(5);
        client
    }

    /// Sends the current acquire at `at_us`; returns the attempt it carried.
    fn send(client: &mut LockClient, at_us: u64) -> u32 {
        let mut effects = Effects::<LockWire>::new();
        client.send_acquire(at_us, &mut effects, (0, 1_000), true);
        match effects.as_slice() {
            [crate::contract::protocol::Effect::Send {
                message: LockWire(LockServiceMessage::Acquire { attempt, .. }),
                ..
            }] => *attempt,
            other => panic!("{other:?}"),
        }
    }

    fn refusal(request: u64, attempt: u32) -> LockServiceMessage {
        LockServiceMessage::NotLeader {
            request,
            attempt,
            leader_hint: None,
        }
    }

    /// The wait a back-off asks for, in microseconds: (earliest, latest).
    fn wait_us(reply: Option<LockReply>) -> (u64, u64) {
        match reply {
            Some(LockReply::BackOff {
                delay:
                    TimerDelay::Between {
                        min_local_us,
                        max_local_us,
                    },
            }) => (min_local_us, max_local_us),
            other => panic!("expected a back-off, got {other:?}"),
        }
    }

    #[test]
    fn not_leader_moves_the_guess_to_the_hint_or_the_next_server() {
        let mut client = client();
        let attempt = send(&mut client, 0);
        let refused = LockServiceMessage::NotLeader {
            request: 5,
            attempt,
            leader_hint: Some(NodeId(2)),
        };
        assert!(matches!(
            client.on_reply(0, NodeId(0), &refused, true),
            Some(LockReply::BackOff { .. })
        ));
        assert_eq!(client.server(), NodeId(2));
        assert_eq!(
            client.on_reply(0, NodeId(2), &refusal(4, attempt), true),
            Some(LockReply::Ignored),
            "an older acquire's refusal is not resent"
        );
        assert_eq!(client.server(), NodeId(0));
    }

    /// Refused at once, every time: the window doubles to its cap, the wait is its second half, and an
    /// answer starts it over.
    #[test]
    fn refusals_back_off_exponentially_up_to_the_cap_until_an_answer() {
        let mut client = client();
        let waits: Vec<(u64, u64)> = (0..7)
            .map(|_| {
                let attempt = send(&mut client, 50_000);
                wait_us(client.on_reply(50_000, NodeId(0), &refusal(5, attempt), true))
            })
            .collect();
        let windows_ms = [1, 2, 4, 8, 10, 10, 10];
        let expected: Vec<(u64, u64)> = windows_ms
            .iter()
            .map(|window_ms| (window_ms * 500, window_ms * 1_000))
            .collect();
        assert_eq!(waits, expected);
        send(&mut client, 50_000);
        let answer = LockServiceMessage::AcquireReply {
            request: 5,
            result: AcquireResult::Queued { lease: 9 },
        };
        client.on_reply(50_000, NodeId(1), &answer, true);
        let attempt = send(&mut client, 50_000);
        let reply = client.on_reply(50_000, NodeId(0), &refusal(5, attempt), true);
        assert_eq!(wait_us(reply), (500, 1_000), "an answer starts over");
    }

    /// The window runs from the refused send: a slow refusal leaves less to wait, one that took the
    /// whole window (any on the default network, whose round trip is at least the cap) none.
    #[test]
    fn the_round_trip_counts_toward_the_window() {
        let mut client = client();
        let attempt = send(&mut client, 0);
        let reply = client.on_reply(600, NodeId(0), &refusal(5, attempt), true);
        assert_eq!(wait_us(reply), (0, 400));
        let attempt = send(&mut client, 1_000);
        let reply = client.on_reply(3_000, NodeId(1), &refusal(5, attempt), true);
        assert_eq!(
            reply,
            Some(LockReply::Resend),
            "2 ms window, 2 ms round trip"
        );
        for _ in 0..10 {
            let attempt = send(&mut client, 100_000);
            let round_trip_us = 2 * 5_000;
            let reply = client.on_reply(
                100_000 + round_trip_us,
                NodeId(2),
                &refusal(5, attempt),
                true,
            );
            assert_eq!(reply, Some(LockReply::Resend));
        }
    }

    /// One send outstanding: a duplicated refusal, a late refusal of an earlier send and a refused
    /// keep-alive whose lease number happens to equal the request id start no second resend.
    #[test]
    fn only_a_refusal_of_the_outstanding_send_backs_off() {
        let mut client = client();
        let first = send(&mut client, 0);
        let refused = refusal(5, first);
        wait_us(client.on_reply(0, NodeId(0), &refused, true));
        assert_eq!(
            client.on_reply(0, NodeId(0), &refused, true),
            Some(LockReply::Ignored),
            "its duplicate, while backing off"
        );
        let second = send(&mut client, 1_000);
        assert_ne!(first, second);
        assert_eq!(
            client.on_reply(1_000, NodeId(1), &refused, true),
            Some(LockReply::Ignored),
            "a late duplicate of the first send's refusal"
        );
        let keep_alive_refused = refusal(5, 0);
        assert_eq!(
            client.on_reply(1_000, NodeId(1), &keep_alive_refused, true),
            Some(LockReply::Ignored)
        );
        wait_us(client.on_reply(1_000, NodeId(1), &refusal(5, second), true));
    }

    #[test]
    fn an_acquire_answer_counts_only_for_the_current_attempt() {
        let mut client = client();
        let answer = |request| LockServiceMessage::AcquireReply {
            request,
            result: AcquireResult::Queued { lease: 9 },
        };
        assert_eq!(
            client.on_reply(0, NodeId(1), &answer(4), true),
            Some(LockReply::Ignored)
        );
        assert_eq!(
            client.on_reply(0, NodeId(1), &answer(5), false),
            Some(LockReply::Ignored)
        );
        assert_eq!(
            client.on_reply(0, NodeId(1), &answer(5), true),
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
            client.on_reply(0, NodeId(0), &reply(true, 2_000_000), false),
            Some(LockReply::Renewed {
                lease: 9,
                token: Some(FencingToken(3))
            })
        );
        assert_eq!(client.lease_until_local_us, 3_000_000);
        // A late answer to an older keep-alive never shortens the lease.
        client.on_reply(0, NodeId(0), &reply(true, 100_000), false);
        assert_eq!(client.lease_until_local_us, 3_000_000);
        assert_eq!(
            client.on_reply(0, NodeId(0), &reply(false, 0), false),
            Some(LockReply::Expired)
        );
        client.lease = Some(10);
        assert_eq!(
            client.on_reply(0, NodeId(0), &reply(false, 0), false),
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
        assert_eq!(client.on_reply(0, NodeId(0), &release, true), None);
    }
}
