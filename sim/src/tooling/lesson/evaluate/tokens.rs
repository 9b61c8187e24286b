//! Fencing tokens across a failover of the lock service, checked as tokens rather than as leaders:
//! the step is met only when, after a new service leader has taken over, some worker is granted a
//! token above every token seen before the takeover. A new leader that started counting again (or
//! repeated the last token) would leave the step unmet, with the numbers in the explanation.

use super::Verdict;
use crate::base::ids::NodeId;
use crate::base::units::{FencingToken, Term};
use crate::engine::world::World;

/// What the token checkpoint remembers between checks.
#[derive(Clone, Debug, Default)]
pub(super) struct TokenWatch {
    /// The highest token seen anywhere (the store, a worker's belief) up to the failover.
    highest_before: FencingToken,
    /// Set when the service's leader was first seen changed: the highest token before that moment.
    failover: Option<FencingToken>,
}

impl TokenWatch {
    /// `leader_changed` is the evaluator's own answer: a leader in a later term than the one the
    /// step began with.
    pub(super) fn check(&mut self, world: &World, leader_changed: bool) -> Verdict {
        if world.layout().is_none_or(|layout| layout.workers == 0) {
            return Verdict::not_yet("this world has no lock clients".into());
        }
        let Some(before) = self.failover else {
            self.highest_before = self.highest_before.max(highest_token(world));
            if !leader_changed {
                return Verdict::not_yet(format!(
                    "the lock service has not failed over yet (highest token so far: {})",
                    self.highest_before
                ));
            }
            self.failover = Some(self.highest_before);
            return Verdict::not_yet(format!(
                "a new service leader took over; waiting for a grant above token {}",
                self.highest_before
            ));
        };
        match believed_tokens(world).max_by_key(|(_, token)| *token) {
            Some((worker, token)) if token > before => Verdict::yes(format!(
                "after the failover {} was granted token {token}, above {before}, the highest \
                 before it",
                world.node_label(worker)
            )),
            _ => Verdict::not_yet(format!(
                "no grant since the failover has carried a token above {before} yet"
            )),
        }
    }
}

/// Each worker that believes it holds the lock, with the token it was given.
fn believed_tokens(world: &World) -> impl Iterator<Item = (NodeId, FencingToken)> + '_ {
    let layout = world.layout();
    let workers = layout.map_or(0, |layout| layout.workers);
    (0..workers).filter_map(move |index| {
        let node = layout?.worker(index);
        let belief = world.nodes()[node.index()].actor.as_worker()?.belief?;
        Some((node, belief.token))
    })
}

/// The highest token the store has seen or any worker believes it holds.
fn highest_token(world: &World) -> FencingToken {
    let stored =
        super::coordination::store(world).map_or(FencingToken::ZERO, |store| store.highest_seen);
    believed_tokens(world)
        .map(|(_, token)| token)
        .fold(stored, FencingToken::max)
}

/// Whether `now` is a later term than `start` (both the service's leader, if any).
pub(super) fn later_term(start: Option<(NodeId, Term)>, now: Option<(NodeId, Term)>) -> bool {
    matches!((start, now), (Some((_, old)), Some((_, new))) if new > old)
}
