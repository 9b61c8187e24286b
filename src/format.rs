//! Words and numbers as people read them. Pure functions, tested natively.

use quorumlab_sim::ids::NodeId;
use quorumlab_sim::protocol::{ClientError, ClientOutcome};

pub use quorumlab_sim::narration::actions::{describe_action, describe_action_named, drift};

/// Simulated time for display: `1.234 s` past a second, `850 ms` below.
/// `10000` as `10,000`: counts a reader takes in at a glance.
pub fn thousands(count: u64) -> String {
    let digits = count.to_string();
    let mut out = String::new();
    for (index, digit) in digits.chars().enumerate() {
        if index > 0 && (digits.len() - index).is_multiple_of(3) {
            out.push(',');
        }
        out.push(digit);
    }
    out
}

pub fn sim_time(time_us: u64) -> String {
    let ms = time_us / 1_000;
    if ms >= 1_000 {
        format!("{}.{:03} s", ms / 1_000, ms % 1_000)
    } else {
        format!("{ms} ms")
    }
}

/// A signed clock offset, e.g. `+250 ms` or `−1.2 s`.
pub fn clock_offset(offset_us: i64) -> String {
    let sign = if offset_us < 0 { "−" } else { "+" };
    let ms = offset_us.unsigned_abs() / 1_000;
    if ms >= 1_000 {
        format!("{sign}{}.{} s", ms / 1_000, (ms % 1_000) / 100)
    } else {
        format!("{sign}{ms} ms")
    }
}

/// What a client sees, in one line.
pub fn client_outcome(outcome: &ClientOutcome) -> String {
    match outcome {
        ClientOutcome::Pending => "waiting for an answer…".to_string(),
        ClientOutcome::Committed { index, term } => {
            format!("committed at index {index} (term {term})")
        }
        ClientOutcome::Read { index, value } => match value {
            Some(value) => format!("read {value} (as of index {index})"),
            None => format!("read: key not set (as of index {index})"),
        },
        ClientOutcome::Rejected(ClientError::NotLeader {
            leader_hint: Some(hint),
        }) => {
            format!("rejected: not the leader, try {hint}")
        }
        ClientOutcome::Rejected(ClientError::NotLeader { leader_hint: None }) => {
            "rejected: not the leader, and it knows of none".to_string()
        }
        ClientOutcome::Rejected(ClientError::NodeDown) => "failed: the node is down".to_string(),
        ClientOutcome::Unknown => {
            "unknown: timed out — it may or may not have committed".to_string()
        }
    }
}

/// The short class name used to colour an outcome.
pub fn outcome_class(outcome: &ClientOutcome) -> &'static str {
    match outcome {
        ClientOutcome::Pending => "pending",
        ClientOutcome::Committed { .. } | ClientOutcome::Read { .. } => "committed",
        ClientOutcome::Rejected(_) => "failed",
        ClientOutcome::Unknown => "unknown",
    }
}

/// A colour per term, cycling through eight (`--term-0` … `--term-7` in style/main.css) that stay
/// distinct on a projector and under dark text in either theme.
pub fn term_color(term: u64) -> String {
    const TERM_COLOURS: u64 = 8;
    format!("var(--term-{})", term % TERM_COLOURS)
}

/// Quorum badge text for a group of `group_size` nodes in a cluster of `node_count`.
pub fn quorum_badge(group_size: usize, node_count: usize) -> (String, bool) {
    let can_commit = group_size > node_count / 2;
    let verdict = if can_commit {
        "can commit"
    } else {
        "no quorum"
    };
    (format!("{group_size}/{node_count} — {verdict}"), can_commit)
}

pub fn node_list(nodes: &[NodeId]) -> String {
    nodes
        .iter()
        .map(|node| node.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use quorumlab_sim::units::{LogIndex, Term};

    #[test]
    fn times_read_naturally() {
        assert_eq!(sim_time(850_000), "850 ms");
        assert_eq!(sim_time(1_234_567), "1.234 s");
        assert_eq!(clock_offset(-1_250_000), "−1.2 s");
        assert_eq!(clock_offset(250_000), "+250 ms");
    }

    #[test]
    fn outcomes_explain_themselves() {
        let hint = ClientOutcome::Rejected(ClientError::NotLeader {
            leader_hint: Some(NodeId(2)),
        });
        assert_eq!(client_outcome(&hint), "rejected: not the leader, try n3");
        let committed = ClientOutcome::Committed {
            index: LogIndex(4),
            term: Term(2),
        };
        assert_eq!(client_outcome(&committed), "committed at index 4 (term 2)");
        assert!(client_outcome(&ClientOutcome::Unknown).starts_with("unknown"));
        assert_eq!(outcome_class(&ClientOutcome::Unknown), "unknown");
    }

    #[test]
    fn quorum_needs_a_strict_majority() {
        assert_eq!(quorum_badge(3, 5), ("3/5 — can commit".to_string(), true));
        assert_eq!(quorum_badge(2, 5), ("2/5 — no quorum".to_string(), false));
        assert!(!quorum_badge(2, 4).1, "half is not a majority");
    }

    #[test]
    fn consecutive_terms_get_different_colours() {
        for term in 0..20 {
            assert_ne!(term_color(term), term_color(term + 1));
        }
    }

    #[test]
    fn counts_are_grouped_by_thousands() {
        assert_eq!(thousands(7), "7");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(10_000), "10,000");
        assert_eq!(thousands(1_234_567), "1,234,567");
    }
}
