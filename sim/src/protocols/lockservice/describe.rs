//! Lock facts in plain words: grants, releases and expiries, what clients believe, and what the
//! protected store does with each write (accepted, repeated, refused for a stale token).
//!
//! One describer serves two kinds of lock server. A replicated service (etcd-like, on Raft) reports
//! each change from every replica, so a change is told once, by its revision; its numbers are fencing
//! tokens. A Redis-style server reports its own key, its number is a random value that fences nothing,
//! and its key expires on that server's own clock.

use crate::base::ids::NodeId;
use crate::base::units::FencingToken;
use crate::contract::entry::describe::{Described, Describer, Telling, Weight};
use crate::protocols::lockservice::LockFact;

pub struct LockDescriber {
    /// Changes come from a replicated service (tell each revision once) rather than single servers.
    replicated: bool,
    /// The holder's number is a fencing token (otherwise a Redis value).
    fenced: bool,
    last_revision_told: u64,
    /// The revision and length of the newest lock-delay begun, told with the release it came with.
    delay_begun: Option<(u64, u64)>,
    /// The revision whose lock-delay's end was told last.
    last_delay_end_told: u64,
}

impl LockDescriber {
    /// The etcd-like service on Raft: one story per change, numbers are fencing tokens.
    pub fn service() -> LockDescriber {
        LockDescriber {
            replicated: true,
            fenced: true,
            last_revision_told: 0,
            delay_begun: None,
            last_delay_end_told: 0,
        }
    }

    /// Redis-style servers: each server's key is its own story, numbers are values.
    pub fn redis() -> LockDescriber {
        LockDescriber {
            replicated: false,
            fenced: false,
            last_revision_told: 0,
            delay_begun: None,
            last_delay_end_told: 0,
        }
    }

    /// Whether this change was already told (another replica applying the same revision).
    fn already_told(&mut self, revision: u64) -> bool {
        if !self.replicated {
            return false;
        }
        if revision <= self.last_revision_told {
            return true;
        }
        self.last_revision_told = revision;
        false
    }

    fn number(&self, token: FencingToken) -> String {
        let number = token.0;
        if self.fenced {
            format!("fencing token {number}")
        } else {
            // A Redis value is a large random number: its last digits are enough to tell two apart.
            format!("value …{:04}", number % 10_000)
        }
    }

    fn granted(
        &mut self,
        server: NodeId,
        owner: NodeId,
        token: FencingToken,
        revision: u64,
        telling: &Telling<'_>,
    ) -> Option<Described> {
        if self.already_told(revision) {
            return None;
        }
        let owner_name = telling.name(owner);
        let (text, nodes) = if self.replicated {
            let text = format!(
                "The lock service grants the lock to {owner_name} with {}: every write {owner_name} \
                 makes under this lease carries it",
                self.number(token)
            );
            (text, vec![owner])
        } else {
            let text = format!(
                "{} sets the lock key for {owner_name} ({}); it will expire by {}'s own clock",
                telling.name(server),
                self.number(token),
                telling.name(server)
            );
            (text, vec![server, owner])
        };
        Some(Described::new(Weight::Notable, text, nodes))
    }

    #[allow(clippy::too_many_arguments)]
    fn released(
        &mut self,
        server: NodeId,
        owner: NodeId,
        by: NodeId,
        token: FencingToken,
        expired: bool,
        revision: u64,
        telling: &Telling<'_>,
    ) -> Option<Described> {
        if self.already_told(revision) {
            return None;
        }
        let owner_name = telling.name(owner);
        let number = self.number(token);
        let delay_ms = self
            .delay_begun
            .filter(|(begun_at, _)| *begun_at == revision)
            .map(|(_, delay_ms)| delay_ms);
        let text = match (expired, self.replicated) {
            (true, true) if delay_ms.is_some() => format!(
                "{owner_name}'s lease ({number}) ran out, so the service releases the lock, but \
                 lock-delay keeps it from everyone for {}: {owner_name} may only be paused and still \
                 at work, so the next holder waits out that time",
                seconds(delay_ms.unwrap_or_default())
            ),
            (true, true) => format!(
                "{owner_name}'s lease ({number}) ran out: the service's leader stopped hearing \
                 keep-alives in time, by its own clock, so the lock is free again"
            ),
            (true, false) => format!(
                "The lock key for {owner_name} ({number}) expired on {}, by {}'s clock",
                telling.name(server),
                telling.name(server)
            ),
            (false, _) if by == owner => format!("{owner_name} releases the lock ({number})"),
            (false, _) => format!(
                "{} deletes the lock key that {owner_name} set ({number}): it removed someone \
                 else's lock",
                telling.name(by)
            ),
        };
        Some(Described::new(Weight::Notable, text, vec![owner, server]))
    }
}

impl Describer<LockFact> for LockDescriber {
    fn describe(
        &mut self,
        node: NodeId,
        fact: &LockFact,
        telling: &Telling<'_>,
    ) -> Option<Described> {
        match *fact {
            LockFact::LockGranted {
                owner,
                token,
                revision,
                ..
            } => self.granted(node, owner, token, revision, telling),
            LockFact::LockReleased {
                owner,
                by,
                token,
                expired,
                revision,
                ..
            } => self.released(node, owner, by, token, expired, revision, telling),
            LockFact::LockRequested { .. } => Some(
                Described::new(
                    Weight::Routine,
                    format!("{} asks for the lock", telling.name(node)),
                    vec![node],
                )
                .coalescing("lock-request"),
            ),
            LockFact::WatchNotified { .. } => None,
            LockFact::LockDelayStarted {
                delay_ms, revision, ..
            } => {
                // Told in the words of the release that follows it.
                self.delay_begun = Some((revision, delay_ms));
                None
            }
            LockFact::LockDelayEnded { revision, .. } => {
                if revision <= self.last_delay_end_told {
                    return None;
                }
                self.last_delay_end_told = revision;
                let text =
                    "Lock-delay is over: the service may grant the lock again, to the first \
                            client in its queue";
                Some(Described::new(
                    Weight::Notable,
                    text.to_string(),
                    vec![node],
                ))
            }
        }
    }
}

/// A length of time in words: whole seconds as "2 s", anything else in milliseconds.
fn seconds(ms: u64) -> String {
    if ms.is_multiple_of(1_000) {
        format!("{} s", ms / 1_000)
    } else {
        format!("{ms} ms")
    }
}
