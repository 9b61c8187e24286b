//! What a Redis or Redlock client believes, in plain words: a lock it holds only for as long as its
//! own clock says the key's time to live has not run out.

use super::BeliefFact;
use crate::base::ids::NodeId;
use crate::contract::entry::describe::{Described, Describer, Telling, Weight};
use crate::protocols::lockservice::describe::LockDescriber;

/// A ZooKeeper candidate's belief is told by the election recipe instead.
impl Describer<BeliefFact> for LockDescriber {
    fn describe(
        &mut self,
        node: NodeId,
        fact: &BeliefFact,
        telling: &Telling<'_>,
    ) -> Option<Described> {
        let who = telling.name(node);
        let described = match *fact {
            BeliefFact::LockBelief {
                valid_for_local_us, ..
            } => Described::new(
                Weight::Notable,
                format!(
                    "{who} now believes it holds the lock, for {} ms more by its own clock",
                    valid_for_local_us / 1_000
                ),
                vec![node],
            ),
            BeliefFact::FoundAlreadyHeld { tries, .. } => Described::new(
                Weight::Notable,
                format!(
                    "{who}'s SET NX reply was lost; {who} asked again{} and found the key already \
                     holds its own value: it holds the lock",
                    if tries > 1 {
                        format!(" ({tries} times)")
                    } else {
                        String::new()
                    }
                ),
                vec![node],
            ),
            BeliefFact::LockBeliefEnded { .. } => Described::new(
                Weight::Routine,
                format!("{who} no longer believes it holds the lock"),
                vec![node],
            ),
        };
        Some(described)
    }
}
