//! Paxos in plain words: ballots started and given up, promises that carry an old value forward,
//! acceptances, what each learner knows is chosen, and an acceptor that restarted with nothing on disk.

use super::{ballot_text, value_name, Ballot, PaxosFact, Proposal};
use crate::base::ids::{NodeId, NodeSet};
use crate::contract::entry::describe::{Described, Describer, Telling, Weight};

/// Keeps nothing between facts: every Paxos fact carries what its sentence needs.
#[derive(Clone, Debug, Hash, Default)]
pub struct PaxosDescriber;

fn ballot(telling: &Telling<'_>, ballot: Ballot) -> String {
    ballot_text(ballot, telling.name)
}

fn names(telling: &Telling<'_>, nodes: NodeSet) -> String {
    nodes
        .iter()
        .map(|node| telling.name(node))
        .collect::<Vec<_>>()
        .join(", ")
}

fn proposal(telling: &Telling<'_>, proposal: Option<Proposal>) -> String {
    match proposal {
        Some(proposal) => format!(
            "“{}” from ballot {}",
            value_name(proposal.value),
            ballot(telling, proposal.ballot)
        ),
        None => "nothing".to_string(),
    }
}

impl Describer<PaxosFact> for PaxosDescriber {
    fn describe(
        &mut self,
        node: NodeId,
        fact: &PaxosFact,
        telling: &Telling<'_>,
    ) -> Option<Described> {
        let who = telling.name(node);
        let line = |weight, text: String| Described::new(weight, text, vec![node]);
        Some(match *fact {
            PaxosFact::BallotStarted { ballot: started } => line(
                Weight::Notable,
                format!("{who} starts ballot {} and asks every acceptor to promise it", ballot(telling, started)),
            ),
            PaxosFact::PromiseGiven { ballot: promised, accepted } => line(
                Weight::Routine,
                format!(
                    "{who} promises ballot {} (it had accepted {})",
                    ballot(telling, promised),
                    proposal(telling, accepted)
                ),
            )
            .coalescing("paxos-promise"),
            PaxosFact::BallotRefused { ballot: refused, promised } => line(
                Weight::Routine,
                format!(
                    "{who} refuses ballot {}: it already promised the higher {}",
                    ballot(telling, refused),
                    ballot(telling, promised)
                ),
            )
            .coalescing("paxos-refused"),
            PaxosFact::ValueProposed { ballot: proposed, value, carried_from, promises } => {
                let why = match carried_from {
                    Some(from) => format!(
                        "a promise carried it from ballot {}, so {who} must propose it again",
                        ballot(telling, from)
                    ),
                    None => "no promise carried an older value, so it proposes its own".to_string(),
                };
                line(
                    Weight::Notable,
                    format!(
                        "{} promised ballot {}; {who} asks them to accept “{}”: {why}",
                        names(telling, promises),
                        ballot(telling, proposed),
                        value_name(value)
                    ),
                )
            }
            PaxosFact::BallotAbandoned { ballot: abandoned, by } => line(
                Weight::Notable,
                match by {
                    Some(higher) => format!(
                        "{who} is pre-empted: ballot {} lost to {}, it will try higher",
                        ballot(telling, abandoned),
                        ballot(telling, higher)
                    ),
                    None => format!(
                        "{who} gives ballot {} up: no majority answered in time",
                        ballot(telling, abandoned)
                    ),
                },
            ),
            PaxosFact::ValueAccepted { ballot: accepted, value } => line(
                Weight::Routine,
                format!("{who} accepts “{}” in ballot {}", value_name(value), ballot(telling, accepted)),
            )
            .coalescing("paxos-accepted"),
            PaxosFact::ValueLearned { ballot: learned, value, acceptors, before } => {
                let text = match before {
                    Some(old) => format!(
                        "{who} now hears “{}” chosen in ballot {} by {}, after it had learned “{}”: two values chosen",
                        value_name(value),
                        ballot(telling, learned),
                        names(telling, acceptors),
                        value_name(old)
                    ),
                    None => format!(
                        "{who} learns “{}” is chosen: {} (a majority) accepted it in ballot {}",
                        value_name(value),
                        names(telling, acceptors),
                        ballot(telling, learned)
                    ),
                };
                let weight = if before.is_some() { Weight::Alarm } else { Weight::Notable };
                line(weight, text)
            }
            PaxosFact::AcceptancesAsked { questions } => line(
                Weight::Routine,
                format!(
                    "{who} has heard no majority accept one ballot, so it asks every acceptor what it accepted ({})",
                    if questions == 1 { "first time".to_string() } else { format!("time {questions}") }
                ),
            )
            .coalescing("paxos-asked"),
            PaxosFact::BallotRequested { proposer } => line(
                Weight::Notable,
                format!(
                    "{who} still cannot tell what was chosen: the acceptors' answers name different ballots, so it asks {} to run a ballot, which must carry any chosen value",
                    telling.name(proposer)
                ),
            ),
            PaxosFact::AcceptorRestarted { forgot: true, .. } => line(
                Weight::Notable,
                format!("{who} restarts with nothing on disk: it forgot its promise and what it accepted"),
            ),
            PaxosFact::AcceptorRestarted { promised, accepted, .. } => line(
                Weight::Routine,
                format!(
                    "{who} restarts and reads back its promise ({}) and its accepted {}",
                    promised.map_or("none".to_string(), |promised| ballot(telling, promised)),
                    proposal(telling, accepted)
                ),
            ),
        })
    }
}
