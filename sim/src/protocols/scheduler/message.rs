//! What a scheduler instance says to the invoice store.

use crate::base::units::FencingToken;

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum InvoiceMessage {
    /// Generate the invoices of `minute`. With `if_absent` the store skips a minute that already has
    /// invoices (check and write in one step).
    Invoice {
        minute: u64,
        token: FencingToken,
        if_absent: bool,
        /// Identifies this run (idempotency key): a repeated message of the same run is applied once.
        run: u64,
    },
    InvoiceReply {
        minute: u64,
        /// Written now (false: already there, or refused by fencing).
        written: bool,
        refused: bool,
    },
}

impl InvoiceMessage {
    pub fn label(&self) -> &'static str {
        match self {
            InvoiceMessage::Invoice { .. } => "Invoice",
            InvoiceMessage::InvoiceReply { refused: true, .. } => "Stale token",
            InvoiceMessage::InvoiceReply { written: true, .. } => "Invoiced",
            InvoiceMessage::InvoiceReply { .. } => "Already done",
        }
    }
}
