//! The trace records every world shares (actions, client requests, violations), told in words; and a
//! plain one-line reading of any record, for naming the event a single step processed.

use super::actions::{describe_action_named, selective_silence_text};
use super::fate::intercepted_text;
use crate::contract::action::{Action, ByzantineMode, NodeTarget};
use crate::contract::entry::describe::{Described, Describer, Telling, Weight};
use crate::contract::protocol::{ClientCommand, ClientError, ClientOutcome};
use crate::engine::trace::{TraceEvent, TraceRecord};
use crate::worlds::registry::describe::WorldDescriber;

/// The line for a record that is not a fact (facts go to the world's describer).
/// `servers` is how many servers the world has now (a selectively silent one's peers).
pub(super) fn tell(
    event: &TraceEvent,
    describer: &mut WorldDescriber,
    telling: &Telling<'_>,
    servers: usize,
) -> Option<Described> {
    match event {
        // A learner's hand on a message is told by the `Intercepted` record after it, which knows
        // what the message was.
        TraceEvent::Action {
            action: Action::DropMessage { .. } | Action::HoldMessage { .. },
        } => None,
        TraceEvent::Action { action } => Some(action_line(action, describer, telling, servers)),
        TraceEvent::Intercepted {
            from,
            to,
            label,
            held_by_ms,
            ..
        } => {
            let text =
                intercepted_text(label, &telling.name(*from), &telling.name(*to), *held_by_ms);
            Some(Described::new(Weight::Notable, text, vec![*from, *to]))
        }
        TraceEvent::Skipped { reason } => Some(Described::new(
            Weight::Notable,
            format!("That action could not run: {reason}"),
            Vec::new(),
        )),
        TraceEvent::ClientSubmit { node, command, .. } => {
            let what = match command {
                ClientCommand::Put { .. } => "a write",
                ClientCommand::Get { .. } => "a read",
            };
            let text = format!("A client sends {what} to {}", telling.name(*node));
            Some(Described::new(Weight::Routine, text, vec![*node]).coalescing("client-submit"))
        }
        TraceEvent::ClientOutcome { outcome, .. } => client_outcome(outcome, telling),
        TraceEvent::Violation {
            invariant,
            nodes,
            detail,
        } => Some(Described::new(
            Weight::Alarm,
            format!("{invariant} is broken: {detail}"),
            nodes.clone(),
        )),
        TraceEvent::Note { text } => {
            Some(Described::new(Weight::Routine, text.clone(), Vec::new()))
        }
        TraceEvent::Send { .. }
        | TraceEvent::Deliver { .. }
        | TraceEvent::Drop { .. }
        | TraceEvent::Queued { .. }
        | TraceEvent::Timer { .. }
        | TraceEvent::Observe { .. } => None,
    }
}

fn action_line(
    action: &Action,
    describer: &mut WorldDescriber,
    telling: &Telling<'_>,
    servers: usize,
) -> Described {
    let name = |node| telling.name(node);
    let mut text = match action {
        // The rule names no one, so the line does: whom this node ignores in this cluster.
        Action::Byzantine {
            target: NodeTarget::Node(node),
            mode: ByzantineMode::Selective,
        } => selective_silence_text(*node, servers, &name),
        _ => capitalised(&describe_action_named(action, &name)),
    };
    if let Some(consequence) = describer.consequence(action, telling) {
        text.push_str(". ");
        text.push_str(&consequence);
    }
    Described::new(Weight::Notable, text, action.named_nodes())
}

fn client_outcome(outcome: &ClientOutcome, telling: &Telling<'_>) -> Option<Described> {
    let (weight, text) = match outcome {
        ClientOutcome::Pending => return None,
        ClientOutcome::Committed { index, .. } => (
            Weight::Routine,
            format!("A client's write is acknowledged: committed at index {index}"),
        ),
        ClientOutcome::Read { index, .. } => (
            Weight::Routine,
            format!("A client's read is answered, as of index {index}"),
        ),
        ClientOutcome::Rejected(ClientError::NotLeader {
            leader_hint: Some(hint),
        }) => (
            Weight::Routine,
            format!(
                "A request is refused: not the leader (it points to {})",
                telling.name(*hint)
            ),
        ),
        ClientOutcome::Rejected(ClientError::NotLeader { leader_hint: None }) => (
            Weight::Routine,
            "A request is refused: that node does not lead and knows no leader".to_string(),
        ),
        ClientOutcome::Rejected(ClientError::NodeDown) => (
            Weight::Routine,
            "A request fails: the node is down".to_string(),
        ),
        ClientOutcome::Unknown => (
            Weight::Notable,
            "A client gave up waiting: its request may or may not have taken effect".to_string(),
        ),
    };
    Some(Described::new(weight, text, Vec::new()).coalescing("client-outcome"))
}

/// The line with its first letter capitalised, unless it opens with a server's name ("n1 turns
/// Byzantine"), which is spelled the same everywhere on screen.
fn capitalised(text: &str) -> String {
    let opens_with_server = text.starts_with('n')
        && text[1..].starts_with(|character: char| character.is_ascii_digit());
    if opens_with_server {
        return text.to_string();
    }
    let mut characters = text.chars();
    match characters.next() {
        Some(first) => first.to_uppercase().chain(characters).collect(),
        None => String::new(),
    }
}

/// Any record in one plain line ("n2 receives Heartbeat from n1"): what a single step did, even when
/// the narration has nothing to say about it.
pub fn plain_record(
    record: &TraceRecord,
    name: &dyn Fn(crate::base::ids::NodeId) -> String,
) -> String {
    match &record.event {
        TraceEvent::Action { action } => capitalised(&describe_action_named(action, name)),
        TraceEvent::Skipped { reason } => format!("The action could not run: {reason}"),
        TraceEvent::Send {
            from,
            to,
            label,
            dropped,
            ..
        } => {
            let lost = if *dropped { " (it will be lost)" } else { "" };
            format!("{} sends {label} to {}{lost}", name(*from), name(*to))
        }
        TraceEvent::Deliver {
            from, to, label, ..
        } => {
            format!("{} receives {label} from {}", name(*to), name(*from))
        }
        TraceEvent::Drop { reason, .. } => format!("A message is dropped: {reason}"),
        TraceEvent::Queued { to, .. } => format!("A message waits for {} to resume", name(*to)),
        TraceEvent::Timer { node, label } => format!("{}'s {label} timer fires", name(*node)),
        TraceEvent::Observe { node, fact } => format!("{} reports {fact:?}", name(*node)),
        TraceEvent::ClientSubmit { node, .. } => {
            format!("A client request reaches {}", name(*node))
        }
        TraceEvent::ClientOutcome { .. } => "A client request is answered".to_string(),
        TraceEvent::Violation { invariant, .. } => format!("{invariant} is broken"),
        TraceEvent::Note { text } => text.clone(),
        TraceEvent::Intercepted {
            from,
            to,
            label,
            held_by_ms: None,
            ..
        } => format!(
            "{label} from {} to {} is dropped by hand",
            name(*from),
            name(*to)
        ),
        TraceEvent::Intercepted {
            from, to, label, ..
        } => format!("{label} from {} to {} is held back", name(*from), name(*to)),
    }
}

#[cfg(test)]
mod capitalised_tests {
    use super::capitalised;

    #[test]
    fn a_line_is_capitalised_but_a_server_name_is_not() {
        assert_eq!(capitalised("crash n1"), "Crash n1");
        assert_eq!(capitalised("n1 turns Byzantine"), "n1 turns Byzantine");
        assert_eq!(capitalised("nobody leads"), "Nobody leads");
        assert_eq!(capitalised(""), "");
    }
}
