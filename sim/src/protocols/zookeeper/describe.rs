//! The ZooKeeper-style election's facts in plain words: who believes it leads (told once per
//! leadership, not at every session ping), who stops, and which watcher the service woke.

use crate::base::ids::NodeId;
use crate::contract::entry::describe::{Described, Describer, Telling, Weight};
use crate::protocols::lockservice::LockFact;
use crate::protocols::redlock::BeliefFact;
use std::collections::BTreeSet;

#[derive(Default)]
pub struct ZookeeperDescriber {
    leading: BTreeSet<NodeId>,
}

impl Describer<BeliefFact> for ZookeeperDescriber {
    fn describe(
        &mut self,
        node: NodeId,
        fact: &BeliefFact,
        telling: &Telling<'_>,
    ) -> Option<Described> {
        let who = telling.name(node);
        match *fact {
            // Each session ping renews the belief: tell only the first of a leadership.
            BeliefFact::LockBelief {
                valid_for_local_us, ..
            } if self.leading.insert(node) => {
                let text = format!(
                    "{who} now believes it is the leader, for as long as its session holds ({} ms \
                     more by its own clock unless it pings again)",
                    valid_for_local_us / 1_000
                );
                Some(Described::new(Weight::Key, text, vec![node]))
            }
            // A ZooKeeper candidate sends no SET NX, so never finds one already held.
            BeliefFact::LockBelief { .. } | BeliefFact::FoundAlreadyHeld { .. } => None,
            BeliefFact::LockBeliefEnded { .. } => {
                self.leading.remove(&node);
                let text = format!("{who} stops believing it leads: its session is gone");
                Some(Described::new(Weight::Notable, text, vec![node]))
            }
        }
    }
}

impl Describer<LockFact> for ZookeeperDescriber {
    fn describe(
        &mut self,
        _node: NodeId,
        fact: &LockFact,
        telling: &Telling<'_>,
    ) -> Option<Described> {
        let LockFact::WatchNotified { watcher } = *fact else {
            return None;
        };
        let text = format!(
            "The service tells {} that the znode it watched is gone, so it checks whether it is \
             now first in line",
            telling.name(watcher)
        );
        Some(Described::new(Weight::Routine, text, vec![watcher]).coalescing("watch"))
    }
}
