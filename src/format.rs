//! Words and numbers as people read them. Pure functions, tested natively.

use quorumlab_sim::action::{Action, NodeTarget, RequestKind};
use quorumlab_sim::ids::NodeId;
use quorumlab_sim::protocol::{ClientError, ClientOutcome};

/// Simulated time for display: `1.234 s` past a second, `850 ms` below.
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

/// A drift rate in percent, e.g. `+10%`, `−0.5%`.
pub fn drift(drift_ppm: i64) -> String {
    let sign = if drift_ppm < 0 { "−" } else { "+" };
    let tenths_of_percent = drift_ppm.unsigned_abs() / 1_000;
    if tenths_of_percent.is_multiple_of(10) {
        format!("{sign}{}%", tenths_of_percent / 10)
    } else {
        format!(
            "{sign}{}.{}%",
            tenths_of_percent / 10,
            tenths_of_percent % 10
        )
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

/// A colour per term, cycling through a palette that stays distinct on a projector.
pub fn term_color(term: u64) -> &'static str {
    const PALETTE: [&str; 8] = [
        "#f5b942", "#4fb3ff", "#3ecf8e", "#ff7a90", "#b98cff", "#ffa05c", "#5ce0d8", "#d4e157",
    ];
    PALETTE[(term % PALETTE.len() as u64) as usize]
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

fn target_named(target: &NodeTarget, name: &dyn Fn(NodeId) -> String) -> String {
    match target {
        NodeTarget::Node(node) => name(*node),
        NodeTarget::Leader => "the leader".to_string(),
    }
}

/// An action as a short sentence, for the timeline and the history.
pub fn describe_action(action: &Action) -> String {
    describe_action_named(action, &|node| node.to_string())
}

/// [`describe_action`] with each node called by `name` (a coordination world's `A`, `store`).
pub fn describe_action_named(action: &Action, name: &dyn Fn(NodeId) -> String) -> String {
    let target = |who: &NodeTarget| target_named(who, name);
    let node_list = |nodes: &[NodeId]| {
        nodes
            .iter()
            .map(|node| name(*node))
            .collect::<Vec<_>>()
            .join(", ")
    };
    match action {
        Action::Crash { target: who } => format!("crash {}", target(who)),
        Action::Restart { target: who } => format!("restart {}", target(who)),
        Action::Pause {
            target: who,
            duration_ms: Some(ms),
        } => format!("pause {} for {ms} ms", target(who)),
        Action::Pause {
            target: who,
            duration_ms: None,
        } => format!("pause {}", target(who)),
        Action::Resume { target: who } => format!("resume {}", target(who)),
        Action::Partition { groups } => {
            let groups: Vec<String> = groups
                .iter()
                .map(|group| format!("{{{}}}", node_list(group)))
                .collect();
            format!("partition {}", groups.join(" | "))
        }
        Action::Isolate { target: who } => format!("isolate {}", target(who)),
        Action::Cut { from, to, both } => {
            format!(
                "cut {} {} {}",
                target(from),
                if *both { "↔" } else { "→" },
                target(to)
            )
        }
        Action::Heal => "heal all links".to_string(),
        Action::DropRate { ppm } => format!("drop rate {}%", *ppm as f64 / 10_000.0),
        Action::ClockJump { target: who, by_ms } => {
            format!("{}'s clock jumps {by_ms:+} ms", target(who))
        }
        Action::ClockDrift { target: who, ppm } => {
            format!("{}'s clock drifts {}", target(who), drift(*ppm))
        }
        Action::Request {
            count,
            target: who,
            kind,
        } => {
            let what = match kind {
                RequestKind::Put => "write",
                RequestKind::Get => "read",
            };
            let plural = if *count == 1 { "" } else { "s" };
            format!("{count} {what}{plural} to {}", target(who))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use quorumlab_sim::units::{LogIndex, Term};

    #[test]
    fn actions_use_the_names_given() {
        let name = |node: NodeId| ["n1", "A", "store"][node.index()].to_string();
        let cut = Action::Cut {
            from: NodeTarget::Node(NodeId(1)),
            to: NodeTarget::Node(NodeId(2)),
            both: false,
        };
        assert_eq!(describe_action_named(&cut, &name), "cut A → store");
        let partition = Action::Partition {
            groups: vec![vec![NodeId(0), NodeId(1)], vec![NodeId(2)]],
        };
        assert_eq!(
            describe_action_named(&partition, &name),
            "partition {n1, A} | {store}"
        );
    }

    #[test]
    fn actions_read_as_sentences() {
        assert_eq!(
            describe_action(&Action::Crash {
                target: NodeTarget::Leader
            }),
            "crash the leader"
        );
        let cut = Action::Cut {
            from: NodeTarget::Node(NodeId(0)),
            to: NodeTarget::Node(NodeId(2)),
            both: false,
        };
        assert_eq!(describe_action(&cut), "cut n1 → n3");
        let partition = Action::Partition {
            groups: vec![vec![NodeId(0), NodeId(1)], vec![NodeId(2)]],
        };
        assert_eq!(describe_action(&partition), "partition {n1, n2} | {n3}");
    }

    #[test]
    fn times_read_naturally() {
        assert_eq!(sim_time(850_000), "850 ms");
        assert_eq!(sim_time(1_234_567), "1.234 s");
        assert_eq!(clock_offset(-1_250_000), "−1.2 s");
        assert_eq!(clock_offset(250_000), "+250 ms");
    }

    #[test]
    fn drift_shows_percent() {
        assert_eq!(drift(100_000), "+10%");
        assert_eq!(drift(-5_000), "−0.5%");
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
}
