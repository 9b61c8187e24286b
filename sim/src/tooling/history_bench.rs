//! Synthetic client histories of a chosen size, for timing the linearizability checker (issue 33's
//! benchmark: 200 operations of 5 clients on 3 keys in the page, 10,000 natively).
//!
//! A run of the simulator makes histories too, but their size and concurrency follow the scenario; a
//! benchmark wants a fixed shape. Here each client issues one operation at a time, with random
//! think times and random durations, so up to `clients` operations overlap at any moment — the case
//! that makes a checker search. Each operation takes effect at a random instant inside its interval,
//! and reads return what the key held at their instant, so the history is linearizable by
//! construction and the checker has to find the order rather than give up early on a refusal. About one
//! write in twenty ends unknown (a timeout); half of those took effect, half never did.
//!
//! The same seed gives the same history, so native and wasm figures are for the same input.

use crate::base::rng::Rng;
use crate::contract::client_history::{LogInstant, Op, OpCall, OpEnd, OpReturn, Unknown, Who};
use crate::contract::protocol::ClientCommand;

/// The shape of a synthetic history.
#[derive(Clone, Copy, Debug)]
pub struct HistoryShape {
    pub ops: usize,
    pub clients: usize,
    pub keys: u32,
    pub seed: u64,
}

/// One op before positions are given: its interval and the instant it took effect, if it did.
struct Planned {
    client: usize,
    call: ClientCommand,
    invoked_us: u64,
    completed_us: u64,
    effect_us: Option<u64>,
    unknown: bool,
}

/// A linearizable history of `shape`, ops numbered by invocation.
pub fn synthetic_history(shape: HistoryShape) -> Vec<Op> {
    let mut rng = Rng::new(shape.seed);
    let clients = shape.clients.max(1);
    let mut free_at_us = vec![0u64; clients];
    let mut planned: Vec<Planned> = Vec::with_capacity(shape.ops);
    for number in 0..shape.ops {
        let client = (0..clients)
            .min_by_key(|client| free_at_us[*client])
            .unwrap_or(0);
        let invoked_us = free_at_us[client] + rng.range_inclusive(0, 2_000);
        let completed_us = invoked_us + rng.range_inclusive(500, 6_000);
        free_at_us[client] = completed_us + 1;
        let key = rng.range_inclusive(0, u64::from(shape.keys.max(1)) - 1) as u32;
        let write = rng.chance_ppm(500_000);
        let call = if write {
            ClientCommand::Put {
                key,
                value: number as u64 + 1,
            }
        } else {
            ClientCommand::Get { key }
        };
        let unknown = write && rng.chance_ppm(50_000);
        let happened = !unknown || rng.chance_ppm(500_000);
        let effect_us = happened.then(|| rng.range_inclusive(invoked_us, completed_us));
        planned.push(Planned {
            client,
            call,
            invoked_us,
            completed_us,
            effect_us,
            unknown,
        });
    }
    planned.sort_by_key(|op| (op.invoked_us, op.client));
    let answers = read_answers(&planned, shape.keys.max(1));
    number_events(&planned, &answers)
}

/// What each read returned: the key's value at the read's instant, writes applied in instant order.
fn read_answers(planned: &[Planned], keys: u32) -> Vec<Option<u64>> {
    let mut by_effect: Vec<(u64, usize)> = planned
        .iter()
        .enumerate()
        .filter_map(|(place, op)| op.effect_us.map(|at| (at, place)))
        .collect();
    by_effect.sort_unstable();
    let mut held: Vec<Option<u64>> = vec![None; keys as usize];
    let mut answers = vec![None; planned.len()];
    for (_, place) in by_effect {
        match planned[place].call {
            ClientCommand::Put { key, value } => held[key as usize] = Some(value),
            ClientCommand::Get { key } => answers[place] = held[key as usize],
        }
    }
    answers
}

/// Gives every invoke and completion a log position in time order (invokes first at a tie).
fn number_events(planned: &[Planned], answers: &[Option<u64>]) -> Vec<Op> {
    let mut events: Vec<(u64, bool, usize)> = Vec::with_capacity(planned.len() * 2);
    for (place, op) in planned.iter().enumerate() {
        events.push((op.invoked_us, false, place));
        events.push((op.completed_us, true, place));
    }
    events.sort_unstable();
    let mut positions = vec![(0u64, 0u64); planned.len()];
    for (position, (_, is_completion, place)) in events.into_iter().enumerate() {
        let slot = &mut positions[place];
        if is_completion {
            slot.1 = position as u64 + 1;
        } else {
            slot.0 = position as u64 + 1;
        }
    }
    planned
        .iter()
        .enumerate()
        .map(|(place, op)| Op {
            index: place as u32,
            who: Who::Request,
            call: OpCall::Kv(op.call),
            invoked: LogInstant {
                at_us: op.invoked_us,
                position: positions[place].0,
            },
            completed: Some(LogInstant {
                at_us: op.completed_us,
                position: positions[place].1,
            }),
            end: match (op.unknown, op.call) {
                (true, _) => OpEnd::Unknown(Unknown::Timeout),
                (false, ClientCommand::Put { .. }) => OpEnd::Ok(OpReturn::Written),
                (false, ClientCommand::Get { .. }) => OpEnd::Ok(OpReturn::Read(answers[place])),
            },
            served_by: None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::views::history_summary::summarize_imported;

    #[test]
    fn a_synthetic_history_has_its_shape_and_is_linearizable() {
        let shape = HistoryShape {
            ops: 200,
            clients: 5,
            keys: 3,
            seed: 33,
        };
        let ops = synthetic_history(shape);
        assert_eq!(ops.len(), 200);
        let overlapping = ops
            .windows(2)
            .filter(|pair| !pair[0].precedes(&pair[1]))
            .count();
        assert!(overlapping > 100, "mostly concurrent: {overlapping}");
        let summary =
            summarize_imported(&ops, crate::engine::linearizable::Budget::NATIVE).unwrap();
        assert_eq!(summary.verdict, "linearizable", "{}", summary.words);
        assert_eq!(summary.partitions, 3);
        assert_eq!(
            synthetic_history(shape),
            ops,
            "the same seed, the same history"
        );
    }
}
