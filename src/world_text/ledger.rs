//! One line per access the protected resource saw: what it was asked, with which token, and why it was
//! refused, so a stale write reads as the comparison that caught it.

use quorumlab_sim::entry::hold_number;
use quorumlab_sim::resource::AccessOutcome;
use quorumlab_sim::resource::LedgerEntry;

/// One resource access: accepted (with its token), a duplicate, or refused with the comparison that
/// refused it (`stale: 33 < 34`). Without `tokens` (Redis-style locks) the token is not shown.
pub fn ledger_sentence(entry: &LedgerEntry, client: &str, tokens: bool) -> String {
    let what = match entry.write {
        Some(value) => format!("write {value}"),
        None => "read".to_string(),
    };
    if !tokens && entry.outcome == AccessOutcome::Accepted {
        return format!("{client} {what} · accepted");
    }
    match entry.outcome {
        AccessOutcome::Accepted => format!("{client} {what} · token {} · accepted", entry.token),
        AccessOutcome::Duplicate => {
            format!(
                "{client} {what} · {} · duplicate, not applied again",
                hold_number(tokens, entry.token.0)
            )
        }
        AccessOutcome::StaleToken => format!(
            "{client} {what} · rejected, stale: {} < {}",
            entry.token, entry.highest_seen
        ),
        // Refused before it was read: no count or token of its own to show.
        AccessOutcome::Malformed(malformed) => format!(
            "{client} write · rejected as malformed: {}; nothing changed",
            malformed.text()
        ),
    }
}

pub fn outcome_class(outcome: AccessOutcome) -> &'static str {
    match outcome {
        AccessOutcome::Accepted => "accepted",
        AccessOutcome::Duplicate => "duplicate",
        AccessOutcome::StaleToken | AccessOutcome::Malformed(_) => "rejected",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use quorumlab_sim::ids::NodeId;
    use quorumlab_sim::units::FencingToken;

    #[test]
    fn a_stale_write_names_both_tokens() {
        let entry = LedgerEntry {
            client: NodeId(3),
            token: FencingToken(33),
            write: Some(7),
            outcome: AccessOutcome::StaleToken,
            highest_seen: FencingToken(34),
            value: 8,
            local_us: 0,
        };
        assert_eq!(
            ledger_sentence(&entry, "A", true),
            "A write 7 · rejected, stale: 33 < 34"
        );
    }

    #[test]
    fn a_malformed_write_says_what_was_wrong_and_that_nothing_changed() {
        use quorumlab_sim::resource::{Malformed, WriteField};
        let entry = LedgerEntry {
            client: NodeId(3),
            token: FencingToken(0),
            write: None,
            outcome: AccessOutcome::Malformed(Malformed::Missing(WriteField::Token)),
            highest_seen: FencingToken(34),
            value: 8,
            local_us: 0,
        };
        assert_eq!(
            ledger_sentence(&entry, "A", true),
            "A write · rejected as malformed: no fencing token; nothing changed"
        );
        assert_eq!(outcome_class(entry.outcome), "rejected");
    }
}
