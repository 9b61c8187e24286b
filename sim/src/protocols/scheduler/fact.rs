//! What the scheduler world tells the checkers: invoices written, and who believes it leads.

use crate::base::ids::NodeId;
use crate::base::units::FencingToken;
use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum SchedulerFact {
    /// The invoice store recorded (or, fenced, refused) invoices for `minute` from `client`.
    InvoiceWritten {
        client: NodeId,
        minute: u64,
        token: FencingToken,
        /// Invoices for this minute already existed: a duplicate.
        duplicate: bool,
        /// Refused: token below the highest seen.
        refused: bool,
    },
    /// A scheduler instance now believes it is the leader (`leads`) or stopped believing it.
    SchedulerLeader { leads: bool },
}
