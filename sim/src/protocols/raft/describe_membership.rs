//! Membership changes in plain words: learners catching up, configuration entries, a leader leaving.

use crate::base::ids::{NodeId, NodeSet};
use crate::contract::entry::describe::{Described, Telling, Weight};
use crate::contract::protocol::RaftFact;

/// The members of a configuration by name: "n1, n2, n4".
pub fn members(voters: NodeSet, telling: &Telling<'_>) -> String {
    let names: Vec<String> = voters.iter().map(|voter| telling.name(voter)).collect();
    names.join(", ")
}

/// Tells one membership fact; `None` for Raft's other facts.
pub fn describe(node: NodeId, fact: &RaftFact, telling: &Telling<'_>) -> Option<Described> {
    let who = telling.name(node);
    let (weight, text, nodes) = match *fact {
        RaftFact::LearnerAdded { learner } => (
            Weight::Notable,
            format!(
                "{who} starts copying its log to {}, a learner: it receives every entry but has no \
                 vote until it has caught up",
                telling.name(learner)
            ),
            vec![node, learner],
        ),
        RaftFact::LearnerCaughtUp { learner, rounds } => (
            Weight::Routine,
            format!(
                "{} has caught up with {who}'s log ({rounds} catch-up round{}): it can join",
                telling.name(learner),
                if rounds == 1 { "" } else { "s" }
            ),
            vec![node, learner],
        ),
        RaftFact::LearnerGivenUp { learner, rounds } => (
            Weight::Notable,
            format!(
                "{who} gives up on {}: after {rounds} rounds it still lags behind the log, and adding \
                 a voter that cannot keep up would slow every commit",
                telling.name(learner)
            ),
            vec![node, learner],
        ),
        RaftFact::ConfigurationAppended { index, voters } => (
            Weight::Notable,
            format!(
                "{who} appends a configuration entry at index {index}: voters {}. Each server uses \
                 it as soon as it holds it; one server changes at a time, so old and new majorities \
                 always share a server",
                members(voters, telling)
            ),
            voters.iter().chain([node]).collect(),
        ),
        RaftFact::RemovedSelf { term } => (
            Weight::Notable,
            format!(
                "{who} is no longer in the configuration, so it steps down as leader of term {term} \
                 and stays quiet; the remaining servers will elect a leader among themselves"
            ),
            vec![node],
        ),
        RaftFact::ConfigurationEdited { voters } => (
            Weight::Notable,
            format!(
                "{who}'s configuration was rewritten by hand, outside the log: it now counts {} as \
                 voters, whatever the others believe",
                members(voters, telling)
            ),
            vec![node],
        ),
        _ => return None,
    };
    Some(Described::new(weight, text, nodes))
}
