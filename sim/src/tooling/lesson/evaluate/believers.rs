//! Two lock clients each sure the lock is theirs, at this moment: the overlap every lock lesson shows.
//!
//! A belief is what a worker (or a scheduler instance) holds in memory: a token and a lease end on its
//! own clock. A frozen holder's belief outlives its validity, so the verdict names such a belief as one
//! whose time is already up, and says why Exclusive Belief (which counts beliefs within their validity)
//! can stay green meanwhile. An overlap left over from the step before does not count: a step waits for
//! a new one.

use super::{CheckpointEvaluator, Verdict};
use crate::engine::world::World;

impl CheckpointEvaluator {
    /// Two clients believe they hold the lock, in an overlap that began during this step.
    pub(super) fn new_two_believers(&mut self, world: &World) -> Verdict {
        let verdict = two_believers(world);
        if self.overlap_at_start {
            if verdict.satisfied {
                return Verdict::not_yet(
                    "two clients still overlap from the step before; this step wants a new overlap, \
                     so wait for it to end, then make one"
                        .into(),
                );
            }
            self.overlap_at_start = false;
        }
        verdict
    }
}

pub(super) fn two_believers(world: &World) -> Verdict {
    let Some(view) = world.coordination_view() else {
        return Verdict::not_yet("this world has no lock clients".into());
    };
    // Redis-style holds carry a unique value, not a token: call it what it is.
    let tokens_fence = view.kind.entry().capabilities.tokens_fence;
    let mut believers: Vec<String> = view
        .workers
        .iter()
        .filter_map(|worker| {
            let belief = worker.belief.as_ref()?;
            // A frozen holder's belief outlives its validity: it cannot look at its clock.
            let past = worker.local_clock_us >= belief.lease_until_local_us as i64;
            Some(format!(
                "{} ({}{})",
                world.node_label(worker.id),
                crate::contract::entry::hold_number(tokens_fence, belief.token.0),
                if past {
                    ", its time already up by its own clock"
                } else {
                    ""
                }
            ))
        })
        .collect();
    believers.extend(
        view.scheduler()
            .into_iter()
            .flat_map(|scheduler| &scheduler.instances)
            .filter(|instance| instance.believes_it_leads)
            .map(|instance| {
                format!(
                    "{} (token {})",
                    world.node_label(instance.id),
                    instance.token
                )
            }),
    );
    match believers.len() {
        0 => Verdict::not_yet("no client believes it holds the lock".into()),
        1 => Verdict::not_yet(format!("only {} believes it holds the lock", believers[0])),
        _ => {
            // Exclusive Belief judges beliefs within their validity only; say why it may stay green.
            let note = if believers
                .iter()
                .any(|believer| believer.contains("time already up"))
            {
                "; a belief past its own validity is not one Exclusive Belief counts, so that check \
                 can stay green while the stale holder still acts"
            } else {
                ""
            };
            Verdict::yes(format!(
                "{} each believe they hold the lock{note}",
                believers.join(" and ")
            ))
        }
    }
}
