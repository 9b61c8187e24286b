//! Two-phase commit: one coordinator asks every participant whether a transaction may commit, and
//! tells them all the same answer. It is the classic atomic-commit protocol, and the classic example of
//! a protocol that is safe but *blocks*.
//!
//! **Actors.** The one server `n1` is the *coordinator*; the lettered actors `A`, `B`, ... are the
//! *participants* (`[two_phase_commit] participants`). The coordinator runs `transactions`
//! transactions one after another, numbered from 1.
//!
//! **Phase 1 (prepare / vote).** The coordinator sends `Prepare(tx)` to every participant. Each one
//! votes: *yes* means "I have done my part and written it down; I can still commit or abort, whichever
//! you say", *no* means "I cannot commit". A participant that votes no aborts at once on its own: the
//! coordinator cannot commit without its yes, so nothing it hears later can change that. Whether a
//! participant votes no is drawn for each transaction when the world is built (`vote_no_ppm`), from a
//! generator seeded by the world's seed: an actor draws nothing itself (the sans-IO contract), and the
//! same seed gives the same votes.
//!
//! **Phase 2 (decision).** The decision is *commit* if and only if every participant voted yes;
//! otherwise *abort*. The coordinator writes the decision to its log (which takes a few milliseconds,
//! `coordinator::DECISION_WRITE_MS`) and only then tells every participant, which applies it.
//!
//! **Durable state.** Votes and decisions are written before they are sent, and survive a crash: a
//! participant never forgets it voted yes, and a coordinator never forgets a decision. A coordinator
//! that restarts with a transaction still undecided asks for the votes again; participants answer with
//! the votes they wrote down.
//!
//! **Blocking.** A participant that voted yes and has heard no decision is *in doubt*. It may not
//! decide alone: it promised to do whichever the coordinator says, and the coordinator may already
//! have decided commit (every vote was yes) or abort (another vote was no, or one was lost), and told
//! someone. So it can only ask the coordinator, every `ask_ms`. If the coordinator crashes after the
//! votes and before the decision reaches anyone, every yes-voter stays in doubt — holding whatever the
//! transaction locked — until the coordinator comes back. That single point of decision is what a
//! consensus-backed commit (the coordinator's decision replicated by Raft or Paxos) removes.
//!
//! **Atomicity** (the checker): no participant applies commit while another applies abort for the
//! same transaction, and a decision, once made or applied, never changes.

pub mod build;
pub mod chaos;
pub mod checker;
pub mod checkpoints;
pub mod coordinator;
pub mod describe;
pub mod entry;
pub mod fact;
pub mod message;
pub mod node;
pub mod options;
pub mod participant;
pub mod parts;
pub mod view;

pub use coordinator::Coordinator;
pub use fact::TwoPhaseFact;
pub use message::TwoPhaseMessage;
pub use node::Node;
pub use participant::Participant;

use crate::contract::protocol::{Carries, Observes};

/// A transaction's number: 1 for the first the coordinator runs.
pub type TxId = u64;

/// What a world's message type must carry for two-phase-commit actors.
pub trait TwoPhaseWire: Carries<TwoPhaseMessage> + Observes<TwoPhaseFact> {}

impl<M> TwoPhaseWire for M where M: Carries<TwoPhaseMessage> + Observes<TwoPhaseFact> {}

/// "commit" or "abort", the two outcomes as people read them.
pub fn outcome_word(commit: bool) -> &'static str {
    if commit {
        "commit"
    } else {
        "abort"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outcomes_read_as_words() {
        assert_eq!(outcome_word(true), "commit");
        assert_eq!(outcome_word(false), "abort");
    }
}
