//! Single-decree Paxos, as Lamport tells it in "Paxos Made Simple" (2001): a handful of nodes agree on
//! one value, even though any of them may crash and restart and messages may be lost, delayed or
//! duplicated.
//!
//! **Actors.** The servers `n1..nN` are *acceptors* (N = 2f + 1 tolerates f of them down). The
//! lettered actors `A`, `B`, ... are *proposers*, each with a value of its own to propose, and each is
//! also a *learner*: acceptors tell every proposer what they accept.
//!
//! **Learners of their own.** With `learners = N` the world also has learner actors `L1..LN`, which
//! propose nothing and promise nothing. The paper's first way to learn is "to have each acceptor,
//! whenever it accepts a proposal, respond to all learners"; the roles are separate there, and one
//! process may play several. So acceptors tell the learner actors *as well as* the proposers: a
//! proposer still needs to hear the outcome to stop proposing, and keeping its notices exactly as
//! they were keeps every run without learner actors bit for bit what it was. A learner knows a value
//! is chosen when a majority of acceptors told it they accepted that value in *one* ballot, and it
//! shows which acceptors those were. The paper notes a value can be chosen with no learner hearing
//! (the notices were lost, or the learner was cut off) and suggests asking a proposer to run a
//! ballot. Here a learner that knows nothing asks every acceptor what it last accepted instead, every
//! few round timeouts: an acceptor's answer is an ordinary `Accepted` notice, true when sent, so a
//! majority naming one ballot still proves that ballot's value chosen, and asking changes no
//! acceptor's promise, so no ballot is disturbed. What a learner learned is held in memory: a
//! restarted learner asks again.
//!
//! **Ballots.** Every attempt carries a ballot `(round, proposer)`, ordered by round and then by
//! proposer, so two proposers never use the same ballot and every proposer can always pick a higher one.
//!
//! **Phase 1 (prepare / promise).** A proposer picks a ballot higher than any it has seen and sends
//! `Prepare(b)` to every acceptor. An acceptor that has promised nothing higher promises `b` ("I will
//! accept nothing below `b`") and answers with the highest-ballot proposal it has already accepted, if
//! any. Otherwise it refuses and says what it promised, so the proposer can pick higher next time.
//!
//! **The value rule.** Once a majority has promised, the proposer must propose the value of the
//! highest-ballot proposal among those promises; only if none of them accepted anything may it propose
//! its own value. This is the heart of the algorithm: if some value was already chosen at a lower
//! ballot, a majority accepted it, every majority overlaps that one, so at least one promise carries it
//! (or a value that itself carried it forward), and the new ballot proposes the same value again.
//!
//! **Phase 2 (accept / accepted).** The proposer sends `Accept(b, v)`. An acceptor accepts unless it
//! promised a higher ballot since, and tells every learner. A value is *chosen* when a majority of
//! acceptors accepted it in one ballot; a learner knows it when it has heard that majority.
//!
//! **Durable state.** An acceptor's promise and accepted proposal are written down before it answers
//! and survive a crash (the world keeps an actor's durable fields when it crashes). The UNSAFE option
//! `durable_acceptors = false` makes a restarted acceptor forget both: it can then promise a ballot it
//! already refused and hide a value it accepted, and two different values can be chosen, which the
//! checker *Agreement* catches. A proposer keeps the highest round it used (so it never reuses a
//! ballot); what it learned is volatile, and a restarted proposer finds out again by running a ballot,
//! which the value rule makes carry the chosen value forward.
//!
//! **Duelling proposers.** Paxos is always safe but not always live: two proposers that each answer a
//! refusal at once with a higher ballot can pre-empt each other's second phase for as long as the timing
//! lets them. The remedy is a setting: `none` (try again at once), `backoff` (wait a random time in a
//! window that doubles with each pre-emption), or `leader` (proposer `A` is distinguished; the others
//! stand back, and step in only after a long silence, as a crude stand-in for a leader election).

pub mod acceptor;
pub mod build;
pub mod chaos;
pub mod checker;
pub mod checkpoints;
pub mod describe;
pub mod entry;
pub mod fact;
pub mod learner;
pub mod learner_node;
pub mod message;
pub mod options;
pub mod parts;
pub mod proposer;
pub mod rows;
pub mod view;

pub use acceptor::Acceptor;
pub use fact::PaxosFact;
pub use learner::Learner;
pub use learner_node::LearnerNode;
pub use message::PaxosMessage;
pub use proposer::{Proposer, ProposerPhase};

use crate::base::ids::NodeId;
use serde::{Deserialize, Serialize};

/// A proposal number: the round first, then the proposer, so ballots are unique and totally ordered.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Ballot {
    pub round: u64,
    pub proposer: NodeId,
}

/// A value as it travels: a small number a proposer starts with (its index), read as a word.
pub type PaxosValue = u64;

/// A proposal an acceptor accepted: the ballot and the value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Proposal {
    pub ballot: Ballot,
    pub value: PaxosValue,
}

const VALUE_WORDS: [&str; 26] = [
    "apple", "banana", "cherry", "damson", "elder", "fig", "grape", "hazel", "iris", "juniper",
    "kiwi", "lemon", "mango", "nutmeg", "olive", "peach", "quince", "rhubarb", "sage", "thyme",
    "ugli", "vanilla", "walnut", "xigua", "yam", "zest",
];

/// The word for a value: proposer `A` starts with "apple", `B` with "banana", ...
pub fn value_name(value: PaxosValue) -> &'static str {
    VALUE_WORDS
        .get(value as usize)
        .copied()
        .unwrap_or("unknown value")
}

/// How many acceptors make a majority of `acceptors`.
pub fn majority(acceptors: usize) -> usize {
    acceptors / 2 + 1
}

/// A ballot as people read it: round and proposer, `3.A`. `name` gives the proposer's letter.
pub fn ballot_text(ballot: Ballot, name: &dyn Fn(NodeId) -> String) -> String {
    format!("{}.{}", ballot.round, name(ballot.proposer))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ballots_order_by_round_then_proposer() {
        let ballot = |round, proposer| Ballot {
            round,
            proposer: NodeId(proposer),
        };
        assert!(ballot(1, 9) < ballot(2, 0));
        assert!(ballot(2, 3) < ballot(2, 4));
        assert_eq!(majority(5), 3);
        assert_eq!(majority(4), 3);
        assert_eq!(value_name(1), "banana");
        assert_eq!(value_name(99), "unknown value");
    }
}
