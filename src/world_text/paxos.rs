//! What Paxos actors hold, in the few words the ring draws under each node: an acceptor's promise and
//! accepted value, a proposer's ballot or what it learned, and a learner actor's value with, on a line
//! of its own, the majority and the ballot it learned it from.

use quorumlab_sim::ids::NodeId;
use quorumlab_sim::paxos::{self, ProposerPhase};
use quorumlab_sim::view_coordination::PaxosView;

/// An acceptor's promise and accepted value, a proposer's ballot and what it learned, or what a learner
/// actor knows is chosen (value, ballot and the acceptors that accepted it), in a few words.
pub fn paxos_state(paxos: &PaxosView, node: NodeId, labels: &[String]) -> Option<String> {
    let name = |node: NodeId| labels.get(node.index()).cloned().unwrap_or_default();
    let ballot = |ballot| paxos::ballot_text(ballot, &name);
    if let Some(acceptor) = paxos.acceptors.iter().find(|acceptor| acceptor.id == node) {
        let promised = acceptor
            .promised
            .map_or("no promise".to_string(), |promised| {
                format!("promised {}", ballot(promised))
            });
        return Some(match acceptor.accepted {
            // The accepted ballot is in the Paxos card; the ring keeps captions short enough not to touch.
            Some(accepted) => format!("{promised} · has {}", paxos::value_name(accepted.value)),
            None => format!("{promised} · empty"),
        });
    }
    if let Some(learner) = paxos.learners.iter().find(|learner| learner.id == node) {
        return Some(match learner.learned {
            Some(learned) => format!("knows {}", paxos::value_name(learned.value)),
            None => "knows nothing yet".to_string(),
        });
    }
    let proposer = paxos
        .proposers
        .iter()
        .find(|proposer| proposer.id == node)?;
    if let Some(learned) = proposer.learned {
        return Some(format!(
            "knows {} is chosen",
            paxos::value_name(learned.value)
        ));
    }
    let current = proposer
        .ballot
        .map_or(String::new(), |current| format!(" {}", ballot(current)));
    Some(match proposer.phase {
        ProposerPhase::Preparing => format!("ballot{current}: asking for promises"),
        ProposerPhase::Accepting => format!(
            "ballot{current}: asking to accept {}",
            proposer
                .proposed
                .map_or("?", |proposed| paxos::value_name(proposed.value))
        ),
        _ => format!("wants {}", paxos::value_name(proposer.own_value)),
    })
}

/// The majority and the ballot a learner actor learned its value from: `accepted by n1 n2 n4 in 2.A`.
pub fn learner_why(paxos: &PaxosView, node: NodeId, labels: &[String]) -> Option<String> {
    let name = |node: NodeId| labels.get(node.index()).cloned().unwrap_or_default();
    let learner = paxos.learners.iter().find(|learner| learner.id == node)?;
    let learned = learner.learned?;
    let acceptors: Vec<String> = learned.acceptors.iter().map(name).collect();
    Some(format!(
        "accepted by {} in {}",
        acceptors.join(" "),
        paxos::ballot_text(learned.ballot, &name)
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use quorumlab_sim::paxos::learner::Learned;
    use quorumlab_sim::paxos::{Ballot, Proposal};
    use quorumlab_sim::view_coordination::{AcceptorView, LearnerView};

    #[test]
    fn acceptors_proposers_and_learner_actors_say_what_they_hold_in_a_few_words() {
        let ballot = Ballot {
            round: 2,
            proposer: NodeId(3),
        };
        let paxos = PaxosView {
            acceptors: vec![AcceptorView {
                id: NodeId(0),
                promised: Some(ballot),
                accepted: Some(Proposal { ballot, value: 1 }),
            }],
            proposers: Vec::new(),
            learners: vec![
                LearnerView {
                    id: NodeId(4),
                    learned: Some(Learned {
                        ballot,
                        value: 1,
                        acceptors: [NodeId(0), NodeId(2)].into_iter().collect(),
                    }),
                    questions_asked: 0,
                },
                LearnerView {
                    id: NodeId(5),
                    learned: None,
                    questions_asked: 2,
                },
            ],
            chosen: None,
            durable_acceptors: true,
        };
        let labels = ["n1", "n2", "n3", "A", "L1", "L2"].map(String::from);
        assert_eq!(
            paxos_state(&paxos, NodeId(0), &labels).as_deref(),
            Some("promised 2.A · has banana")
        );
        assert_eq!(paxos_state(&paxos, NodeId(1), &labels), None);
        assert_eq!(
            paxos_state(&paxos, NodeId(4), &labels).as_deref(),
            Some("knows banana")
        );
        assert_eq!(
            learner_why(&paxos, NodeId(4), &labels).as_deref(),
            Some("accepted by n1 n3 in 2.A")
        );
        assert_eq!(learner_why(&paxos, NodeId(5), &labels), None);
        assert_eq!(
            paxos_state(&paxos, NodeId(5), &labels).as_deref(),
            Some("knows nothing yet")
        );
    }
}
