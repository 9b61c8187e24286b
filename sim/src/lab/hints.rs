//! Hints in three levels for a broken property, after Alloy4Fun's finding that a next step helps a
//! novice more than a raw counterexample: first where to look, then which fact matters, then what the
//! fix must check. The counterexample comes after them in the verdict.

use super::catalogue::RoleKind;
use crate::contract::entry::invariants::{
    MUTUAL_EXCLUSION, NO_DUPLICATE_INVOICE, NO_LOST_UPDATES, RELEASE_BY_OWNER, TOKEN_MONOTONICITY,
};
use crate::tooling::sweep::PROGRESS_AFTER_HEAL;
use serde::Serialize;

/// The script itself failed (a limit, a type error, an answer of the wrong shape).
pub const SCRIPT_ERROR: &str = "Script Error";

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Hints {
    /// What to look at.
    pub look_at: &'static str,
    /// Which fact matters.
    pub fact: &'static str,
    /// What the fix must check.
    pub fix: &'static str,
}

/// The hints for `role` having broken `property`.
pub fn hints(role: RoleKind, property: &str) -> Hints {
    let (look_at, fact, fix) = match (role, property) {
        (_, SCRIPT_ERROR) => (
            "The error's line and column in your script.",
            "A failing call refuses: the store refuses, the server keeps the key, the minute is skipped.",
            "Every path of your function must return the shape the contract names, within the limits.",
        ),
        (RoleKind::StoreWrite, PROGRESS_AFTER_HEAL) => (
            "Follow one job: the holder reads, then writes with the same token.",
            "The holder's write carries the token its own read already showed the store, so it equals the highest seen.",
            "Refuse only a token strictly below the highest seen (`<`, not `<=`).",
        ),
        (RoleKind::StoreWrite, MUTUAL_EXCLUSION | NO_LOST_UPDATES | TOKEN_MONOTONICITY) => (
            "Find the write that lands after a newer holder has already written.",
            "The late writer's token is lower than one the store has already seen; only the store can notice.",
            "Refuse an access whose token is below the highest seen, and remember the highest token you let through.",
        ),
        (RoleKind::Release, RELEASE_BY_OWNER) => (
            "Watch a holder that paused past its TTL and then lets go.",
            "By the time it lets go, the key may hold another client's value: its own key expired.",
            "Delete only if the value the key holds is the value the client names.",
        ),
        (RoleKind::JobGuard, NO_DUPLICATE_INVOICE) => (
            "Watch a leader that pauses between the top of the minute and its write.",
            "Its lease check was true when it looked; the pause outlived the lease and a new leader ran the same minute.",
            "Carry the lease's token (the store fences on it) and write only if the minute is absent.",
        ),
        (RoleKind::JobGuard, PROGRESS_AFTER_HEAL) => (
            "Look at the minutes after the faults heal: which instance runs them?",
            "A leader that never runs, or whose writes are all refused, invoices nothing.",
            "Run when you hold a live lease, with your lease's token.",
        ),
        _ => (
            "The property named in the verdict, at the moment of the counterexample.",
            "Replay the counterexample and read the narration around the violation.",
            "Compare your decision with the contract for the case the counterexample reaches.",
        ),
    };
    Hints { look_at, fact, fix }
}
