//! The linearizability search on hand-written register histories, and against brute force on random
//! small ones. The register model lives here, in the test: the engine's own models come later, and
//! the search must not depend on any of them.

use quorumlab_sim::client_history::{
    LogInstant, Op, OpCall, OpEnd, OpIndex, OpReturn, Unknown, Who,
};
use quorumlab_sim::linearizable::verify::{brute_force, replay};
use quorumlab_sim::linearizable::{
    check, partitions, Bound, Budget, Check, HistoryError, Outcome, Progress, Search, Verdict,
};
use quorumlab_sim::protocol::ClientCommand;
use quorumlab_sim::rng::Rng;
use quorumlab_sim::sequential::SequentialModel;

/// A register per key: a put sets it, a get returns it (`None` before any put).
struct Register;

impl SequentialModel for Register {
    type State = Option<u64>;

    fn name(&self) -> &'static str {
        "test register"
    }

    fn initial(&self) -> Option<u64> {
        None
    }

    fn judges(&self, call: &OpCall) -> bool {
        matches!(call, OpCall::Kv(_))
    }

    fn partition(&self, call: &OpCall) -> u64 {
        match call {
            OpCall::Kv(ClientCommand::Put { key, .. } | ClientCommand::Get { key }) => *key as u64,
            _ => 0,
        }
    }

    fn step(
        &self,
        state: &Option<u64>,
        call: &OpCall,
        returned: Option<&OpReturn>,
    ) -> Option<Option<u64>> {
        match (call, returned) {
            (OpCall::Kv(ClientCommand::Put { value, .. }), None | Some(OpReturn::Written)) => {
                Some(Some(*value))
            }
            (OpCall::Kv(ClientCommand::Get { .. }), None) => Some(*state),
            (OpCall::Kv(ClientCommand::Get { .. }), Some(OpReturn::Read(value))) => {
                (value == state).then_some(*state)
            }
            _ => None,
        }
    }
}

/// How one hand-written op ends: `Ok` with its answer at a completion position, unknown (with the
/// position its client gave up at, if any), or failed at a completion position.
enum Ends {
    Ok(OpReturn, u64),
    Unknown(Option<u64>),
    Failed(u64),
}

fn put(key: u32, value: u64) -> OpCall {
    OpCall::Kv(ClientCommand::Put { key, value })
}

fn get(key: u32) -> OpCall {
    OpCall::Kv(ClientCommand::Get { key })
}

fn read(value: Option<u64>) -> OpReturn {
    OpReturn::Read(value)
}

/// Ops numbered by place from (call, invoke position, ending); each position is also the instant in
/// microseconds times ten, unless `same_instant` puts every event at one microsecond.
fn history_at(specs: Vec<(OpCall, u64, Ends)>, same_instant: bool) -> Vec<Op> {
    let instant = |position: u64| LogInstant {
        at_us: if same_instant { 1_000 } else { position * 10 },
        position,
    };
    specs
        .into_iter()
        .enumerate()
        .map(|(place, (call, invoked, ends))| {
            let (completed, end) = match ends {
                Ends::Ok(returned, at) => (Some(at), OpEnd::Ok(returned)),
                Ends::Unknown(at) => (at, OpEnd::Unknown(Unknown::Timeout)),
                Ends::Failed(at) => (Some(at), OpEnd::Failed("refused")),
            };
            Op {
                index: place as OpIndex,
                who: Who::Request,
                call,
                invoked: instant(invoked),
                completed: completed.map(instant),
                end,
                served_by: None,
            }
        })
        .collect()
}

fn history(specs: Vec<(OpCall, u64, Ends)>) -> Vec<Op> {
    history_at(specs, false)
}

fn checked(ops: &[Op]) -> Check {
    check(&Register, ops, Budget::NATIVE).expect("a well-formed history")
}

/// Every linearizable part's order replays through the plain referee; returns the orders by key.
fn replayed_orders(ops: &[Op], check: &Check) -> Vec<(u64, Vec<OpIndex>)> {
    let parts = partitions(&Register, ops);
    check
        .partitions
        .iter()
        .map(|part| match &part.outcome {
            Outcome::Linearizable { order } => {
                let result = replay(&Register, &parts[&part.partition], order);
                assert_eq!(result, Ok(()), "order {order:?} of part {}", part.partition);
                (part.partition, order.clone())
            }
            other => panic!("part {} is not linearizable: {other:?}", part.partition),
        })
        .collect()
}

fn refusal(check: &Check) -> (OpIndex, Vec<OpIndex>) {
    let Verdict::Refused { partition } = check.verdict() else {
        panic!("expected a refusal, got {:?}", check.verdict());
    };
    let part = check.partitions.iter().find(|p| p.partition == partition);
    match &part.expect("the refused part").outcome {
        Outcome::Refused { stuck, longest } => (*stuck, longest.clone()),
        other => panic!("the refused part says {other:?}"),
    }
}

#[test]
fn a_concurrent_linearizable_history_passes_with_an_order_that_replays() {
    let ops = history(vec![
        (put(1, 7), 10, Ends::Ok(OpReturn::Written, 100)),
        (get(1), 20, Ends::Ok(read(None), 50)),
        (get(1), 40, Ends::Ok(read(Some(7)), 90)),
        (put(2, 3), 1, Ends::Ok(OpReturn::Written, 5)),
        (get(2), 6, Ends::Ok(read(Some(3)), 8)),
    ]);
    let check = checked(&ops);
    assert_eq!(check.verdict(), Verdict::Linearizable);
    let orders = replayed_orders(&ops, &check);
    // The read of nothing must come before the put that overlaps it: the only order there is.
    assert_eq!(orders, vec![(1, vec![1, 0, 2]), (2, vec![3, 4])]);
}

#[test]
fn a_stale_read_is_refused_and_names_the_read_as_stuck() {
    let stale = history(vec![
        (put(1, 1), 1, Ends::Ok(OpReturn::Written, 2)),
        (put(1, 2), 3, Ends::Ok(OpReturn::Written, 4)),
        (get(1), 5, Ends::Ok(read(Some(1)), 6)),
    ]);
    let (stuck, longest) = refusal(&checked(&stale));
    assert_eq!(stuck, 2, "the read cannot follow both writes");
    assert_eq!(longest, vec![0, 1]);
    // The look-alike: the same read, begun while the second write was in flight, may precede it.
    let concurrent = history(vec![
        (put(1, 1), 1, Ends::Ok(OpReturn::Written, 2)),
        (put(1, 2), 3, Ends::Ok(OpReturn::Written, 5)),
        (get(1), 4, Ends::Ok(read(Some(1)), 6)),
    ]);
    let check = checked(&concurrent);
    assert_eq!(
        replayed_orders(&concurrent, &check),
        vec![(1, vec![0, 2, 1])]
    );
}

#[test]
fn ops_at_one_instant_are_ordered_by_log_position() {
    // A write answered, then a read asked and answered, all in one microsecond: the read comes after.
    let write_first = history_at(
        vec![
            (put(1, 5), 1, Ends::Ok(OpReturn::Written, 2)),
            (get(1), 3, Ends::Ok(read(None), 4)),
        ],
        true,
    );
    assert_eq!(refusal(&checked(&write_first)).0, 1);
    let read_first = history_at(
        vec![
            (get(1), 1, Ends::Ok(read(None), 2)),
            (put(1, 5), 3, Ends::Ok(OpReturn::Written, 4)),
        ],
        true,
    );
    assert_eq!(checked(&read_first).verdict(), Verdict::Linearizable);
}

#[test]
fn an_empty_history_and_one_of_failed_ops_are_linearizable() {
    let empty = checked(&[]);
    assert_eq!(empty.verdict(), Verdict::Linearizable);
    assert!(empty.partitions.is_empty());
    // A failed write did not happen, so a read of nothing after it is fine; had it succeeded, not.
    let failed = history(vec![
        (put(1, 5), 1, Ends::Failed(2)),
        (get(1), 3, Ends::Ok(read(None), 4)),
    ]);
    assert_eq!(checked(&failed).verdict(), Verdict::Linearizable);
    let succeeded = history(vec![
        (put(1, 5), 1, Ends::Ok(OpReturn::Written, 2)),
        (get(1), 3, Ends::Ok(read(None), 4)),
    ]);
    assert!(matches!(
        checked(&succeeded).verdict(),
        Verdict::Refused { .. }
    ));
}

#[test]
fn an_unknown_write_may_take_effect_after_its_client_gave_up() {
    // The write of 5 timed out at position 2, before the write of 6 began; it is read after 6.
    let ops = history(vec![
        (put(1, 5), 1, Ends::Unknown(Some(2))),
        (put(1, 6), 3, Ends::Ok(OpReturn::Written, 4)),
        (get(1), 5, Ends::Ok(read(Some(5)), 6)),
    ]);
    let check = checked(&ops);
    assert_eq!(replayed_orders(&ops, &check), vec![(1, vec![1, 0, 2])]);
}

#[test]
fn an_unknown_write_never_read_may_never_have_happened() {
    let specs = |first_write: Ends| {
        vec![
            (put(1, 5), 1, first_write),
            (get(1), 3, Ends::Ok(read(None), 4)),
            (put(1, 6), 5, Ends::Ok(OpReturn::Written, 6)),
            (get(1), 7, Ends::Ok(read(Some(6)), 8)),
        ]
    };
    let unknown = history(specs(Ends::Unknown(None)));
    let check = checked(&unknown);
    assert_eq!(check.verdict(), Verdict::Linearizable);
    replayed_orders(&unknown, &check);
    // Had the write of 5 been acknowledged before the read began, the read of nothing is impossible.
    let acknowledged = history(specs(Ends::Ok(OpReturn::Written, 2)));
    assert_eq!(refusal(&checked(&acknowledged)).0, 1);
}

#[test]
fn an_unknown_write_cannot_explain_a_read_that_ended_before_it_began() {
    let too_late = history(vec![
        (get(1), 1, Ends::Ok(read(Some(5)), 2)),
        (put(1, 5), 3, Ends::Unknown(None)),
    ]);
    assert_eq!(refusal(&checked(&too_late)), (0, vec![]));
    let overlapping = history(vec![
        (get(1), 1, Ends::Ok(read(Some(5)), 3)),
        (put(1, 5), 2, Ends::Unknown(None)),
    ]);
    let check = checked(&overlapping);
    assert_eq!(replayed_orders(&overlapping, &check), vec![(1, vec![1, 0])]);
}

/// Twelve overlapping writes, then a read of a value none of them wrote: refused, after a search
/// through many orders of the writes.
fn many_writes_then_an_impossible_read() -> Vec<Op> {
    let mut specs: Vec<(OpCall, u64, Ends)> = (1..=12)
        .map(|value| {
            (
                put(1, value),
                value,
                Ends::Ok(OpReturn::Written, 12 + value),
            )
        })
        .collect();
    specs.push((get(1), 30, Ends::Ok(read(Some(99)), 31)));
    history(specs)
}

#[test]
fn a_bound_reached_is_undecided_never_a_verdict() {
    let ops = many_writes_then_an_impossible_read();
    let full = checked(&ops);
    assert!(matches!(full.verdict(), Verdict::Refused { .. }));
    assert!(full.explored() > 1_000, "explored {}", full.explored());
    let small = |budget: Budget| check(&Register, &ops, budget).expect("well-formed");
    let steps = small(Budget {
        configurations: 100,
        ..Budget::NATIVE
    });
    assert_eq!(
        steps.verdict(),
        Verdict::Undecided {
            partition: 1,
            bound: Bound::Configurations(100)
        }
    );
    assert_eq!(steps.explored(), 100);
    let memory = small(Budget {
        cache_bytes: 1_000,
        ..Budget::NATIVE
    });
    assert!(matches!(
        memory.verdict(),
        Verdict::Undecided {
            bound: Bound::CacheBytes(1_000),
            ..
        }
    ));
    let size = small(Budget {
        ops_per_partition: 12,
        ..Budget::NATIVE
    });
    assert!(matches!(
        size.verdict(),
        Verdict::Undecided {
            bound: Bound::OpsPerPartition(12),
            ..
        }
    ));
    assert_eq!(size.explored(), 0);
    // A linearizable history cut short is undecided too, not linearizable.
    let mut fine = many_writes_then_an_impossible_read();
    fine[12].end = OpEnd::Ok(read(Some(12)));
    let cut = check(
        &Register,
        &fine,
        Budget {
            configurations: 3,
            ..Budget::NATIVE
        },
    );
    assert!(matches!(cut.unwrap().verdict(), Verdict::Undecided { .. }));
}

#[test]
fn a_search_advanced_in_slices_ends_as_one_run_does() {
    let ops = many_writes_then_an_impossible_read();
    let part: Vec<&Op> = ops.iter().collect();
    let mut whole = Search::new(&Register, &part, Budget::NATIVE);
    let outcome = whole.run();
    let mut sliced = Search::new(&Register, &part, Budget::NATIVE);
    let mut slices = 0;
    let sliced_outcome = loop {
        slices += 1;
        assert!(slices < 1_000_000, "the sliced search does not end");
        if let Progress::Done(outcome) = sliced.advance(37) {
            break outcome;
        }
    };
    assert!(slices > 10, "only {slices} slices");
    assert_eq!(sliced_outcome, outcome);
    assert_eq!(sliced.explored(), whole.explored());
}

#[test]
fn a_malformed_history_is_refused_with_a_reason() {
    let mut ops = history(vec![
        (put(1, 5), 1, Ends::Ok(OpReturn::Written, 2)),
        (get(1), 3, Ends::Ok(read(None), 4)),
    ]);
    ops[1].invoked.position = 2;
    assert_eq!(
        check(&Register, &ops, Budget::NATIVE),
        Err(HistoryError::Position { position: 2, op: 1 })
    );
    ops[1].invoked.position = 5;
    assert_eq!(
        check(&Register, &ops, Budget::NATIVE),
        Err(HistoryError::CompletedBeforeInvoked(1))
    );
    ops[1].completed = None;
    assert_eq!(
        check(&Register, &ops, Budget::NATIVE),
        Err(HistoryError::NoCompletion(1))
    );
    ops[1].index = 7;
    let error = check(&Register, &ops, Budget::NATIVE).unwrap_err();
    assert_eq!(
        error.to_string(),
        "op 7 sits at place 1; number ops by their place"
    );
}

/// A random history of two to seven ops on one key: writes of unique values, reads that return a
/// value some write wrote or nothing, ends mostly ok, some unknown, some failed.
fn random_history(rng: &mut Rng) -> Vec<Op> {
    let count = rng.range_inclusive(2, 7);
    let mut events: Vec<(u64, u64, usize, bool)> = Vec::new();
    let mut specs = Vec::new();
    for place in 0..count as usize {
        let value = place as u64 + 1;
        let is_write = rng.chance_ppm(500_000);
        let call = if is_write { put(1, value) } else { get(1) };
        let invoked_us = rng.range_inclusive(0, 30);
        let completed_us = invoked_us + rng.range_inclusive(1, 12);
        let returned = if is_write {
            OpReturn::Written
        } else {
            let seen = rng.range_inclusive(0, count);
            read((seen > 0).then_some(seen))
        };
        let end = match rng.range_inclusive(0, 9) {
            0 | 1 => OpEnd::Unknown(Unknown::Timeout),
            2 => OpEnd::Failed("refused"),
            _ => OpEnd::Ok(returned),
        };
        let has_completion = !matches!(end, OpEnd::Unknown(_)) || rng.chance_ppm(500_000);
        events.push((invoked_us, rng.next_u64(), place, true));
        if has_completion {
            events.push((completed_us, rng.next_u64(), place, false));
        }
        specs.push((call, end));
    }
    events.sort();
    let mut ops: Vec<Op> = specs
        .into_iter()
        .enumerate()
        .map(|(place, (call, end))| Op {
            index: place as OpIndex,
            who: Who::Request,
            call,
            invoked: LogInstant {
                at_us: 0,
                position: 0,
            },
            completed: None,
            end,
            served_by: None,
        })
        .collect();
    for (position, (at_us, _, place, is_call)) in events.into_iter().enumerate() {
        let instant = LogInstant {
            at_us,
            position: position as u64 + 1,
        };
        if is_call {
            ops[place].invoked = instant;
        } else {
            ops[place].completed = Some(instant);
        }
    }
    ops
}

#[test]
fn the_search_agrees_with_brute_force_on_random_small_histories() {
    let mut rng = Rng::new(33);
    let (mut linearizable, mut refused) = (0, 0);
    for round in 0..600 {
        let ops = random_history(&mut rng);
        let check = checked(&ops);
        let parts = partitions(&Register, &ops);
        let part = parts.get(&1).cloned().unwrap_or_default();
        let slow = brute_force(&Register, &part).expect("at most eight ops");
        match (check.verdict(), slow) {
            (Verdict::Linearizable, Some(order)) => {
                assert_eq!(replay(&Register, &part, &order), Ok(()), "round {round}");
                replayed_orders(&ops, &check);
                linearizable += 1;
            }
            (Verdict::Refused { .. }, None) => {
                let (stuck, _) = refusal(&check);
                assert!(ops[stuck as usize].end.is_required(), "round {round}");
                refused += 1;
            }
            (verdict, slow) => {
                panic!("round {round}: search says {verdict:?}, brute force {slow:?}\n{ops:#?}")
            }
        }
    }
    assert!(
        linearizable > 150 && refused > 150,
        "{linearizable} / {refused}"
    );
}
