//! What two-phase-commit actors tell the checker and the narration. Every variant name starts with
//! `Tx`, so it is distinct from every other protocol's facts and a trace record reads back to this enum.

use super::TxId;
use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum TwoPhaseFact {
    /// The coordinator asked every participant to vote on `tx`; `again` when it asks anew after a
    /// restart or because some vote had not arrived.
    TxPrepareSent { tx: TxId, again: bool },
    /// A participant voted on `tx` (and wrote its vote down).
    TxVoted { tx: TxId, yes: bool },
    /// The coordinator decided `tx` and wrote the decision down; `votes_missing` when it aborts because
    /// some votes never came.
    TxDecided {
        tx: TxId,
        commit: bool,
        votes_missing: bool,
    },
    /// A participant applied the outcome of `tx`.
    TxApplied { tx: TxId, commit: bool },
    /// A participant that voted yes on `tx` has heard no decision since `since_ms` (its own clock) and
    /// starts asking the coordinator.
    TxInDoubt { tx: TxId, since_ms: u64 },
    /// The coordinator restarted during `tx`; `decided` is what its log says of it.
    TxCoordinatorRestarted { tx: TxId, decided: Option<bool> },
}
