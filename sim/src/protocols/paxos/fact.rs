//! What Paxos actors tell the checkers and the narration. The variant names are distinct from every
//! other protocol's facts, so a trace record reads back to the one enum that knows its name.

use super::{Ballot, PaxosValue, Proposal};
use crate::base::ids::{NodeId, NodeSet};
use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum PaxosFact {
    /// A proposer sent `Prepare` for a new ballot (phase 1a).
    BallotStarted { ballot: Ballot },
    /// An acceptor promised `ballot`, reporting what it had accepted before (phase 1b).
    PromiseGiven {
        ballot: Ballot,
        accepted: Option<Proposal>,
    },
    /// An acceptor refused a prepare or accept for `ballot`: it had promised `promised`.
    BallotRefused { ballot: Ballot, promised: Ballot },
    /// A proposer heard from a majority and sent `Accept(ballot, value)` (phase 2a). `carried_from`
    /// is the ballot whose accepted value it had to take over; `None` when it proposes its own.
    ValueProposed {
        ballot: Ballot,
        value: PaxosValue,
        carried_from: Option<Ballot>,
        promises: NodeSet,
    },
    /// A proposer gave `ballot` up: a refusal named the higher `by`, or (`by: None`) no majority
    /// answered in time.
    BallotAbandoned { ballot: Ballot, by: Option<Ballot> },
    /// An acceptor accepted `value` in `ballot` (phase 2b).
    ValueAccepted { ballot: Ballot, value: PaxosValue },
    /// A learner heard a majority (`acceptors`) accept `value` in `ballot`; `before` is the different
    /// value it had learned earlier, if any (which must never happen).
    ValueLearned {
        ballot: Ballot,
        value: PaxosValue,
        acceptors: NodeSet,
        before: Option<PaxosValue>,
    },
    /// An acceptor restarted; `forgot` when it had no durable state and lost its promise and value.
    AcceptorRestarted {
        forgot: bool,
        promised: Option<Ballot>,
        accepted: Option<Proposal>,
    },
    /// A learner that knows of no chosen value asked every acceptor what it accepted (the
    /// `questions`-th time). Last, so the run fingerprint's variant numbers of the others stay.
    AcceptancesAsked { questions: u64 },
    /// A learner whose questions to the acceptors taught it nothing asked `proposer` to run a ballot.
    /// Last, for the same reason.
    BallotRequested { proposer: NodeId },
}
