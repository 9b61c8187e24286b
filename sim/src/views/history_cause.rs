//! Which fault came before a refused operation, when the run's own actions can say so.
//!
//! A witness tells what the clients saw; a learner then asks why. The node that answered the op the
//! checker could not place is known (`Op::served_by`), and so is every action the run applied, with
//! its time (`World::action_log`). The newest action before the op began that touched that node by
//! name — its clock set or slowed, its links cut, a pause, a crash — is the fault a sentence may
//! name. Only that, and only honestly:
//!
//! - an action aimed at "the leader" is left out, because the log keeps the aim, not who led at the
//!   time, and naming a node by guess would be worse than naming none;
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

/// The newest action in `actions` before `op` began that named the node that answered it and still
/// held then, with its time.
pub fn preceding_fault<'a>(
    actions: &'a [(SimTime, Action)],
    op: &Op,
) -> Option<&'a (SimTime, Action)> {
    let node = op.served_by?;
    let before: Vec<&(SimTime, Action)> = actions
        .iter()
        .filter(|(at, _)| at.as_micros() <= op.invoked.at_us)
        .collect();
    before.iter().enumerate().rev().find_map(|(place, entry)| {
        let (_, action) = entry;
        let later = &before[place + 1..];
        (touches(action, node) && !undone(action, node, later)).then_some(*entry)
    })
}

/// "It followed a fault on n5, the node that answered it: n5's clock drifts −90.0% at 1,500 ms."
pub fn cause_sentence(
    actions: &[(SimTime, Action)],
    op: &Op,
    name: &dyn Fn(NodeId) -> String,
) -> Option<String> {
    let (at, action) = preceding_fault(actions, op)?;
    let node = name(op.served_by?);
    Some(format!(
        "It came after a fault on {node}, the node that answered it: {} at {} ms.",
        describe_action_named(action, name),
        at.as_micros() / 1_000
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
fn undone(action: &Action, node: NodeId, later: &[&(SimTime, Action)]) -> bool {
    later.iter().any(|(_, after)| match (action, after) {
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

    fn at(ms: u64, action: Action) -> (SimTime, Action) {
        (SimTime::from_ms(ms), action)
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
        let (time, action) = preceding_fault(&actions, &op).expect("a fault");
        assert_eq!(time.as_micros(), 300_000);
        assert!(matches!(action, Action::ClockJump { by_ms: -500, .. }));
        let sentence = cause_sentence(&actions, &op, &|node| node.to_string()).unwrap();
        assert!(sentence.contains("at 300 ms"), "{sentence}");
    }

    #[test]
    fn a_healed_cut_an_aim_at_the_leader_and_another_node_name_nothing() {
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
