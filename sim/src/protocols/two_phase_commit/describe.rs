//! Two-phase commit in plain words: prepares, votes, decisions, outcomes applied, participants left in
//! doubt, and a coordinator reading its log back after a restart.

use super::{outcome_word, TwoPhaseFact};
use crate::base::ids::NodeId;
use crate::contract::entry::describe::{Described, Describer, Telling, Weight};

/// Keeps nothing between facts: every fact carries what its sentence needs.
#[derive(Clone, Debug, Hash, Default)]
pub struct TwoPhaseDescriber;

impl Describer<TwoPhaseFact> for TwoPhaseDescriber {
    fn describe(
        &mut self,
        node: NodeId,
        fact: &TwoPhaseFact,
        telling: &Telling<'_>,
    ) -> Option<Described> {
        let who = telling.name(node);
        let line = |weight, text: String| Described::new(weight, text, vec![node]);
        Some(match *fact {
            TwoPhaseFact::TxPrepareSent { tx, again: false } => line(
                Weight::Notable,
                format!("{who} begins transaction {tx} and asks every participant to prepare and vote"),
            ),
            TwoPhaseFact::TxPrepareSent { tx, again: true } => line(
                Weight::Routine,
                format!("{who} still lacks votes on transaction {tx} and asks again"),
            )
            .coalescing("two-phase-prepare-again"),
            TwoPhaseFact::TxVoted { tx, yes: true } => line(
                Weight::Routine,
                format!("{who} votes yes on transaction {tx}: it wrote its part down and will do whatever the coordinator decides"),
            )
            .coalescing("two-phase-vote-yes"),
            TwoPhaseFact::TxVoted { tx, yes: false } => line(
                Weight::Notable,
                format!("{who} votes no on transaction {tx}, and aborts its part at once: without its yes nobody can commit"),
            ),
            TwoPhaseFact::TxDecided { tx, commit: true, .. } => line(
                Weight::Notable,
                format!("{who} heard yes from every participant: it has written commit for transaction {tx} to its log and tells them all"),
            ),
            TwoPhaseFact::TxDecided { tx, votes_missing: true, .. } => line(
                Weight::Notable,
                format!("{who} waited too long for some votes on transaction {tx}: it decides abort (nobody was told anything yet)"),
            ),
            TwoPhaseFact::TxDecided { tx, .. } => line(
                Weight::Notable,
                format!("{who} heard a no on transaction {tx}: it has written abort to its log and tells every participant"),
            ),
            TwoPhaseFact::TxApplied { tx, commit } => line(
                Weight::Routine,
                format!("{who} applies {} on transaction {tx}", outcome_word(commit)),
            )
            .coalescing("two-phase-applied"),
            TwoPhaseFact::TxInDoubt { tx, since_ms } => line(
                Weight::Notable,
                format!("{who} is in doubt on transaction {tx}: it voted yes at {since_ms} ms and has heard no decision; it may not decide alone, so it keeps asking the coordinator"),
            ),
            TwoPhaseFact::TxCoordinatorRestarted { tx, decided: Some(commit) } => line(
                Weight::Notable,
                format!("{who} restarts; its log says transaction {tx} was decided {}, and it answers anyone who asks", outcome_word(commit)),
            ),
            TwoPhaseFact::TxCoordinatorRestarted { tx, decided: None } => line(
                Weight::Notable,
                format!("{who} restarts with transaction {tx} undecided in its log: it asks for the votes again"),
            ),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_in_doubt_participant_is_a_turn_in_the_story() {
        let name = |node: NodeId| format!("p{}", node.index());
        let telling = Telling {
            name: &name,
            timer: None,
        };
        let fact = TwoPhaseFact::TxInDoubt {
            tx: 1,
            since_ms: 20,
        };
        let line = TwoPhaseDescriber
            .describe(NodeId(2), &fact, &telling)
            .unwrap();
        assert_eq!(line.weight, Weight::Notable);
        assert!(
            line.text.starts_with("p2 is in doubt on transaction 1"),
            "{}",
            line.text
        );
        let applied = TwoPhaseFact::TxApplied {
            tx: 1,
            commit: false,
        };
        let line = TwoPhaseDescriber
            .describe(NodeId(2), &applied, &telling)
            .unwrap();
        assert_eq!(line.text, "p2 applies abort on transaction 1");
    }
}
