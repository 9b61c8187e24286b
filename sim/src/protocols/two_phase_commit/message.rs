//! What the coordinator and the participants say to each other.

use super::TxId;

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum TwoPhaseMessage {
    /// Phase 1, coordinator to participant: "can you commit `tx`? Vote."
    Prepare { tx: TxId },
    /// Phase 1, participant to coordinator: its vote on `tx`, already written down.
    Vote { tx: TxId, yes: bool },
    /// Phase 2, coordinator to participant: the decision on `tx`, already written down.
    Decision { tx: TxId, commit: bool },
    /// A participant in doubt asks the coordinator what it decided on `tx`.
    AskDecision { tx: TxId },
}

impl TwoPhaseMessage {
    pub fn label(&self) -> &'static str {
        match self {
            TwoPhaseMessage::Prepare { .. } => "Prepare",
            TwoPhaseMessage::Vote { yes: true, .. } => "Vote yes",
            TwoPhaseMessage::Vote { yes: false, .. } => "Vote no",
            TwoPhaseMessage::Decision { commit: true, .. } => "Commit",
            TwoPhaseMessage::Decision { commit: false, .. } => "Abort",
            TwoPhaseMessage::AskDecision { .. } => "What did you decide?",
        }
    }
}
