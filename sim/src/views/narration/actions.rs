//! Actions (a learner's crash, a scenario's partition) as short sentences, for the timeline, the
//! history and the narration.

use crate::base::ids::NodeId;
use crate::contract::action::{Action, ByzantineMode, NodeTarget, RequestKind, SelectiveSilence};
use crate::contract::link_settings::LinkSettings;

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
        Action::DropRate { ppm } => format!("drop rate {}", percent(*ppm)),
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
        Action::SetLink {
            between: (one, other),
            settings,
        } => format!(
            "link {} ↔ {}: {}",
            name(*one),
            name(*other),
            link_settings_text(settings)
        ),
        Action::ClearLink {
            between: Some((one, other)),
        } => format!(
            "link {} ↔ {} back to the usual network",
            name(*one),
            name(*other)
        ),
        Action::ClearLink { between: None } => "every link back to the usual network".to_string(),
        Action::Regions { groups } => {
            let groups: Vec<String> = groups
                .iter()
                .map(|group| format!("{{{}}}", node_list(group)))
                .collect();
            format!("regions {}", groups.join(" | "))
        }
        Action::Byzantine {
            target: who,
            mode: ByzantineMode::Honest,
        } => format!("{} follows its protocol again", target(who)),
        Action::Byzantine { target: who, mode } => {
            format!(
                "{} turns Byzantine: it will {}",
                target(who),
                byzantine_text(*mode)
            )
        }
        Action::DropMessage { message, from, to } => {
            format!("drop message #{message} {} → {}", name(*from), name(*to))
        }
        Action::AddServer { id: Some(id) } => format!("add server {}", name(*id)),
        Action::AddServer { id: None } => "add a new server".to_string(),
        Action::RemoveServer { target: who } => {
            format!("remove {} from the configuration", target(who))
        }
        Action::MalformedWrite { target: who, fault } => {
            format!("{} sends the store {}", target(who), fault.text())
        }
        Action::SlowDisk {
            target: who,
            persist_ms: Some((min_ms, max_ms)),
        } => format!(
            "{}'s disk slows to {} a write: every vote and log entry it answers waits for it",
            target(who),
            range_text(*min_ms, *max_ms)
        ),
        Action::SlowDisk {
            target: who,
            persist_ms: None,
        } => format!("{}'s disk writes at the world's speed again", target(who)),
        Action::HoldMessage {
            message,
            from,
            to,
            by_ms,
        } => format!(
            "hold message #{message} {} → {} for {by_ms} ms",
            name(*from),
            name(*to)
        ),
        Action::DuplicateMessage { message, from, to } => format!(
            "deliver message #{message} {} → {} twice",
            name(*from),
            name(*to)
        ),
    }
}

/// A link's own settings in a few words: `80–120 ms, drops 10%`.
pub fn link_settings_text(settings: &LinkSettings) -> String {
    let mut parts = Vec::new();
    if let Some((min_ms, max_ms)) = settings.delay_ms {
        parts.push(if min_ms == max_ms {
            format!("{min_ms} ms")
        } else {
            format!("{min_ms}–{max_ms} ms")
        });
    }
    if let Some(ppm) = settings.drop_ppm {
        parts.push(format!("drops {}", percent(ppm)));
    }
    if let Some(ppm) = settings.duplicate_ppm {
        parts.push(format!("duplicates {}", percent(ppm)));
    }
    parts.join(", ")
}

/// Parts per million as a percentage, without trailing zeros (`100000` -> `10%`).
/// "40 ms" or "40–80 ms".
fn range_text(min_ms: u64, max_ms: u64) -> String {
    if min_ms == max_ms {
        format!("{min_ms} ms")
    } else {
        format!("{min_ms}–{max_ms} ms")
    }
}

fn percent(ppm: u32) -> String {
    format!("{}%", ppm as f64 / 10_000.0)
}
/// What a Byzantine node in `mode` will do, as the narration says it.
pub fn byzantine_text(mode: ByzantineMode) -> &'static str {
    match mode {
        ByzantineMode::Honest => "follow its protocol",
        ByzantineMode::Equivocate => "tell different peers different things",
        ByzantineMode::Lie => "lie about what it holds and what it saw",
        ByzantineMode::Silent => "say nothing while it still listens",
        ByzantineMode::Selective => {
            "send nothing to the upper half of its peers by number and keep talking to the rest"
        }
    }
}

/// A selectively silent node's sentence, naming whom it ignores among `servers` servers:
/// "n1 goes selectively silent: it sends nothing to n4 and n5, and keeps talking to n2 and n3".
pub fn selective_silence_text(
    node: NodeId,
    servers: usize,
    name: &dyn Fn(NodeId) -> String,
) -> String {
    let split = SelectiveSilence::of(node, servers);
    let names = |nodes: &[NodeId]| {
        let named: Vec<String> = nodes.iter().map(|node| name(*node)).collect();
        match named.split_last() {
            None => "no one".to_string(),
            Some((last, [])) => last.clone(),
            Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
        }
    };
    format!(
        "{} goes selectively silent: it sends nothing to {}, and keeps talking to {}",
        name(node),
        names(&split.ignored),
        names(&split.heard)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn drift_shows_percent() {
        assert_eq!(drift(100_000), "+10%");
        assert_eq!(drift(-5_000), "−0.5%");
    }
}
