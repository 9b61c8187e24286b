//! What proposers and acceptors say to each other: the two phases and their refusals.

use super::{Ballot, PaxosValue, Proposal};

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum PaxosMessage {
    /// Phase 1a: "promise to accept nothing below `ballot`".
    Prepare { ballot: Ballot },
    /// Phase 1b: the promise, with the highest-ballot proposal this acceptor already accepted.
    Promise {
        ballot: Ballot,
        accepted: Option<Proposal>,
    },
    /// Phase 2a: "accept `value` in `ballot`".
    Accept { ballot: Ballot, value: PaxosValue },
    /// Phase 2b, sent to every learner: this acceptor accepted `value` in `ballot`.
    Accepted { ballot: Ballot, value: PaxosValue },
    /// A prepare or accept for `ballot` refused: the acceptor promised `promised`, which is higher.
    Refused { ballot: Ballot, promised: Ballot },
    /// A learner that heard no majority asks an acceptor what it last accepted; the answer is an
    /// `Accepted` for that proposal (none if it accepted nothing). Asking changes no acceptor's state.
    AskAccepted,
    /// A learner that still cannot tell what was chosen from the acceptors' answers (they accepted it
    /// in different ballots) asks a proposer to run a ballot, as "Paxos Made Simple" suggests: the
    /// value rule makes that ballot carry the chosen value, and its majority tells every learner.
    RunBallot,
}

impl PaxosMessage {
    pub fn label(&self) -> &'static str {
        match self {
            PaxosMessage::Prepare { .. } => "Prepare",
            PaxosMessage::Promise { accepted: None, .. } => "Promise",
            PaxosMessage::Promise { .. } => "Promise (with value)",
            PaxosMessage::Accept { .. } => "Accept",
            PaxosMessage::Accepted { .. } => "Accepted",
            PaxosMessage::Refused { .. } => "Refused",
            PaxosMessage::AskAccepted => "What did you accept?",
            PaxosMessage::RunBallot => "Run a ballot",
        }
    }
}
