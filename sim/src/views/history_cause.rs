//! Which fault came before a refused operation, when the run's own actions can say so.
//!
//! A witness tells what the clients saw; a learner then asks why. The node that answered the op the
//! checker could not place is known (`Op::served_by`), and so is every action the run applied, with
//! its time (`World::action_log`). The newest action before the op began that touched that node by
//! name — its clock set or slowed, its links cut, a pause, a crash — is the fault a sentence may
//! name. Only that, and only honestly:
//!
//! - an action aimed at "the leader" counts for the node that led when it was applied
//!   (`World::leader_aims`, noted as it ran, never guessed later), and the sentence says it was aimed
//!   at the leader; one that found no leader touched nobody;
//! - a cut that a later "heal" undid, or a pause a later "resume" ended, before the op began no
//!   longer held when the op ran, and is left out too;
//! - an op nobody answered has no node, and gets no cause.
//!
//! The sentence says "after", not "because": the fault came first and touched the node that gave the
//! wrong answer, which is what a person checks next on the space-time diagram.

use crate::base::ids::NodeId;
use crate::base::time::SimTime;
use crate::contract::action::{Action, NodeTarget};
use crate::contract::client_history::Op;
use crate::views::narration::actions::describe_action_named;

/// An action as the run applied it: an aim at "the leader" replaced by the node that led then.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AppliedAction {
    pub at: SimTime,
    pub action: Action,
    pub aimed_at_leader: bool,
}

/// `log` (a world's action log) with each aim at the leader that `aims` resolves (a world's
/// `leader_aims`: place in the log, node that led) replaced by that node.
pub fn applied_actions(log: &[(SimTime, Action)], aims: &[(usize, NodeId)]) -> Vec<AppliedAction> {
    let mut applied: Vec<AppliedAction> = log
        .iter()
        .map(|(at, action)| AppliedAction {
            at: *at,
            action: action.clone(),
            aimed_at_leader: false,
        })
        .collect();
    for (place, leader) in aims {
        if let Some(entry) = applied.get_mut(*place) {
            entry.action = aimed_at(&entry.action, *leader);
            entry.aimed_at_leader = true;
        }
    }
    applied
}

/// `action` with every "the leader" target turned into `leader`.
fn aimed_at(action: &Action, leader: NodeId) -> Action {
    let node = |target: NodeTarget| match target {
        NodeTarget::Leader => NodeTarget::Node(leader),
        named => named,
    };
    let mut resolved = action.clone();
    match &mut resolved {
        Action::Crash { target }
        | Action::Restart { target }
        | Action::Pause { target, .. }
        | Action::Resume { target }
        | Action::Isolate { target }
        | Action::ClockJump { target, .. }
        | Action::ClockDrift { target, .. } => *target = node(*target),
        Action::Cut { from, to, .. } => (*from, *to) = (node(*from), node(*to)),
        _ => {}
    }
    resolved
}

/// The newest action in `actions` before `op` began that touched the node that answered it and
/// still held then.
pub fn preceding_fault<'a>(actions: &'a [AppliedAction], op: &Op) -> Option<&'a AppliedAction> {
    let node = op.served_by?;
    let before: Vec<&AppliedAction> = actions
        .iter()
        .filter(|entry| entry.at.as_micros() <= op.invoked.at_us)
        .collect();
    before.iter().enumerate().rev().find_map(|(place, entry)| {
        let later = &before[place + 1..];
        (touches(&entry.action, node) && !undone(&entry.action, node, later)).then_some(*entry)
    })
}

/// "It came after a fault on n5, the node that answered it: n5's clock drifts −90.0% at 1,500 ms."
/// An aim at the leader says so: "a fault aimed at the leader, n5 then, the node that answered it".
pub fn cause_sentence(
    actions: &[AppliedAction],
    op: &Op,
    name: &dyn Fn(NodeId) -> String,
) -> Option<String> {
    let entry = preceding_fault(actions, op)?;
    let node = name(op.served_by?);
    let fault = match entry.aimed_at_leader {
        true => format!("a fault aimed at the leader, {node} then,"),
        false => format!("a fault on {node},"),
    };
    Some(format!(
        "It came after {fault} the node that answered it: {} at {} ms.",
        describe_action_named(&entry.action, name),
        entry.at.as_micros() / 1_000
    ))
}

fn named(target: &NodeTarget, node: NodeId) -> bool {
    *target == NodeTarget::Node(node)
}

fn touches(action: &Action, node: NodeId) -> bool {
    match action {
        Action::Crash { target }
        | Action::Pause { target, .. }
        | Action::Isolate { target }
        | Action::ClockJump { target, .. }
        | Action::ClockDrift { target, .. } => named(target, node),
        Action::Cut { from, to, .. } => named(from, node) || named(to, node),
        Action::Partition { groups } => groups.iter().flatten().any(|member| *member == node),
        _ => false,
    }
}

/// Whether a later action ended what `action` did to `node` before the op began.
fn undone(action: &Action, node: NodeId, later: &[&AppliedAction]) -> bool {
    later.iter().any(|entry| match (action, &entry.action) {
        (Action::Isolate { .. } | Action::Cut { .. } | Action::Partition { .. }, Action::Heal) => {
            true
        }
        (Action::Pause { .. }, Action::Resume { target }) => named(target, node),
        (
            Action::Pause {
                duration_ms: Some(_),
                ..
            },
            _,
        ) => false,
        (Action::Crash { .. }, Action::Restart { target }) => named(target, node),
        _ => false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contract::client_history::{LogInstant, OpCall, OpEnd, OpReturn, Who};
    use crate::contract::protocol::ClientCommand;

    fn read_served_by(node: usize, at_ms: u64) -> Op {
        Op {
            index: 0,
            who: Who::Request,
            call: OpCall::Kv(ClientCommand::Get { key: 1 }),
            invoked: LogInstant {
                at_us: at_ms * 1_000,
                position: 1,
            },
            completed: Some(LogInstant {
                at_us: at_ms * 1_000 + 10,
                position: 2,
            }),
            end: OpEnd::Ok(OpReturn::Read(Some(1))),
            served_by: Some(NodeId(node as u16)),
        }
    }

    fn at(ms: u64, action: Action) -> AppliedAction {
        AppliedAction {
            at: SimTime::from_ms(ms),
            action,
            aimed_at_leader: false,
        }
    }

    fn node(index: usize) -> NodeTarget {
        NodeTarget::Node(NodeId(index as u16))
    }

    #[test]
    fn the_newest_fault_on_the_serving_node_is_named() {
        let actions = vec![
            at(100, Action::Isolate { target: node(4) }),
            at(200, Action::Heal),
            at(
                300,
                Action::ClockJump {
                    target: node(4),
                    by_ms: -500,
                },
            ),
            at(400, Action::Crash { target: node(1) }),
            at(
                900,
                Action::ClockJump {
                    target: node(4),
                    by_ms: 300,
                },
            ),
        ];
        let op = read_served_by(4, 500);
        let fault = preceding_fault(&actions, &op).expect("a fault");
        assert_eq!(fault.at.as_micros(), 300_000);
        assert!(matches!(
            fault.action,
            Action::ClockJump { by_ms: -500, .. }
        ));
        let sentence = cause_sentence(&actions, &op, &|node| node.to_string()).unwrap();
        assert!(sentence.contains("at 300 ms"), "{sentence}");
    }

    #[test]
    fn an_aim_at_the_leader_counts_for_the_node_that_led_then() {
        let log = vec![
            (
                SimTime::from_ms(100),
                Action::Isolate {
                    target: NodeTarget::Leader,
                },
            ),
            (
                SimTime::from_ms(100),
                Action::ClockDrift {
                    target: NodeTarget::Leader,
                    ppm: -900_000,
                },
            ),
            (
                SimTime::from_ms(300),
                Action::Crash {
                    target: NodeTarget::Leader,
                },
            ),
        ];
        // NodeId(4), "n5", led for the first two; nobody led at 300 ms, so the crash reached no one.
        let actions = applied_actions(&log, &[(0, NodeId(4)), (1, NodeId(4))]);
        assert_eq!(actions[0].action, Action::Isolate { target: node(4) });
        assert!(actions[1].aimed_at_leader && !actions[2].aimed_at_leader);
        let op = read_served_by(4, 500);
        let sentence = cause_sentence(&actions, &op, &|node| node.to_string()).unwrap();
        assert!(
            sentence.contains("aimed at the leader, n5 then") && sentence.contains("at 100 ms"),
            "{sentence}"
        );
        assert!(
            sentence.contains("drifts"),
            "the newest of the two: {sentence}"
        );
        assert_eq!(preceding_fault(&actions, &read_served_by(2, 500)), None);
    }

    #[test]
    fn a_healed_cut_an_unresolved_aim_and_another_node_name_nothing() {
        let actions = vec![
            at(100, Action::Isolate { target: node(4) }),
            at(150, Action::Heal),
            at(
                200,
                Action::ClockDrift {
                    target: NodeTarget::Leader,
                    ppm: -900_000,
                },
            ),
            at(
                300,
                Action::Pause {
                    target: node(2),
                    duration_ms: None,
                },
            ),
        ];
        assert_eq!(preceding_fault(&actions, &read_served_by(4, 500)), None);
        let mut nobody = read_served_by(4, 500);
        nobody.served_by = None;
        assert_eq!(preceding_fault(&actions, &nobody), None);
    }
}
