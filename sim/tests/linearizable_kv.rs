//! Raft's key-value model under the linearizability checker, on hand-written histories: the ways a
//! store can show a client the past (each refused, naming the right op), and histories that look wrong
//! but have an order (each accepted, its order replayed). Every verdict is held to brute force, and
//! the model reached through the world's parts hook judges exactly as the model itself.

use quorumlab_sim::client_history::{Op, OpCall, OpIndex, OpReturn};
use quorumlab_sim::erased_model::{DynModel, Erased};
use quorumlab_sim::linearizable::models::{check_models, HistoryVerdict};
use quorumlab_sim::linearizable::verify::{brute_force, replay};
use quorumlab_sim::linearizable::{
    check, check_unpruned, partitions, Bound, Budget, Check, Outcome, Verdict,
};
use quorumlab_sim::raft::kv_model::KV_MODEL;
use quorumlab_sim::WorldConfig;

#[path = "support/kv_history.rs"]
mod kv_history;
use kv_history::{get, history, put, read, wrote, Ends};

/// The check, held to brute force on every part and to the same check through the parts hook.
fn checked(ops: &[Op]) -> Check {
    let check = check(&KV_MODEL, ops, Budget::NATIVE).expect("a well-formed history");
    let parts = partitions(&KV_MODEL, ops);
    for part in &check.partitions {
        let oracle = brute_force(&KV_MODEL, &parts[&part.partition]).expect("small parts");
        match &part.outcome {
            Outcome::Linearizable { order } => {
                assert!(oracle.is_some(), "brute force finds no order");
                let replayed = replay(&KV_MODEL, &parts[&part.partition], order);
                assert_eq!(replayed, Ok(()), "order {order:?}");
            }
            Outcome::Refused { .. } => assert_eq!(oracle, None, "brute force finds an order"),
            Outcome::Undecided { bound } => panic!("undecided at {bound} on a tiny history"),
        }
    }
    let models: [&dyn DynModel; 1] = [&KV_MODEL];
    let through_hook = check_models(&models, ops, None, Budget::NATIVE).unwrap();
    assert_eq!(through_hook.checks, std::slice::from_ref(&check));
    check
}

fn refused(ops: &[Op]) -> (OpIndex, Vec<OpIndex>) {
    let check = checked(ops);
    let (_, stuck, longest) = check.refusal().expect("a refusal");
    assert!(matches!(check.verdict(), Verdict::Refused { .. }));
    (stuck, longest.to_vec())
}

fn linearizable(ops: &[Op]) -> Vec<OpIndex> {
    let check = checked(ops);
    assert_eq!(check.verdict(), Verdict::Linearizable, "{check:?}");
    check
        .partitions
        .iter()
        .flat_map(|part| match &part.outcome {
            Outcome::Linearizable { order } => order.clone(),
            _ => Vec::new(),
        })
        .collect()
}

#[test]
fn a_read_of_an_overwritten_value_after_the_overwrite_returned_is_refused() {
    let ops = history(vec![
        (put(1, 1), 0, wrote(10)),
        (put(1, 2), 20, wrote(30)),
        (get(1), 40, read(Some(1), 50)),
    ]);
    assert_eq!(refused(&ops), (2, vec![0, 1]));
    // The look-alike: the read began before the overwrite returned, so it may come first.
    let overlapping = history(vec![
        (put(1, 1), 0, wrote(10)),
        (put(1, 2), 20, wrote(45)),
        (get(1), 40, read(Some(1), 50)),
    ]);
    assert_eq!(linearizable(&overlapping), [0, 2, 1]);
}

#[test]
fn a_read_of_the_future_or_of_a_value_never_written_is_refused() {
    let future = history(vec![
        (get(3), 0, read(Some(5), 10)),
        (put(3, 5), 20, wrote(30)),
    ]);
    assert_eq!(refused(&future), (0, vec![]));
    let never = history(vec![
        (put(3, 5), 0, wrote(10)),
        (get(3), 20, read(Some(9), 30)),
    ]);
    assert_eq!(refused(&never).0, 1);
    let concurrent = history(vec![
        (get(3), 0, read(Some(5), 30)),
        (put(3, 5), 20, wrote(40)),
    ]);
    assert_eq!(linearizable(&concurrent), [1, 0]);
}

#[test]
fn a_newer_value_then_an_older_one_is_refused() {
    let ops = history(vec![
        (put(2, 1), 0, wrote(10)),
        (put(2, 2), 20, wrote(100)),
        (get(2), 30, read(Some(2), 40)),
        (get(2), 50, read(Some(1), 60)),
    ]);
    let (stuck, longest) = refused(&ops);
    assert_eq!(stuck, 3, "the old value, read after the new one");
    assert_eq!(longest, [0, 1, 2]);
    let reversed = history(vec![
        (put(2, 1), 0, wrote(10)),
        (put(2, 2), 20, wrote(100)),
        (get(2), 30, read(Some(1), 40)),
        (get(2), 50, read(Some(2), 60)),
    ]);
    assert_eq!(linearizable(&reversed), [0, 2, 1, 3]);
}

#[test]
fn a_failed_write_did_not_happen_so_reading_it_is_refused() {
    let ops = history(vec![
        (put(4, 6), 0, Ends::Failed(10)),
        (get(4), 20, read(Some(6), 30)),
    ]);
    assert_eq!(refused(&ops).0, 1);
    let timed_out = history(vec![
        (put(4, 6), 0, Ends::Unknown(10)),
        (get(4), 20, read(Some(6), 30)),
    ]);
    assert_eq!(linearizable(&timed_out), [0, 1]);
}

#[test]
fn keys_are_checked_apart() {
    let other_key = history(vec![
        (put(1, 1), 0, wrote(10)),
        (get(2), 20, read(None, 30)),
    ]);
    let check = checked(&other_key);
    assert_eq!(check.verdict(), Verdict::Linearizable);
    assert_eq!(check.partitions.len(), 2);
    let same_key = history(vec![
        (put(1, 1), 0, wrote(10)),
        (get(1), 20, read(None, 30)),
    ]);
    assert_eq!(refused(&same_key), (1, vec![0]));
}

#[test]
fn an_unknown_write_read_later_takes_effect_after_a_newer_acknowledged_one() {
    // W(2) times out at 8; W(3) is acknowledged; a read much later sees 2: W(2) took effect last.
    let ops = history(vec![
        (put(5, 2), 5, Ends::Unknown(8)),
        (put(5, 3), 50, wrote(60)),
        (get(5), 100, read(Some(2), 110)),
    ]);
    assert_eq!(linearizable(&ops), [1, 0, 2]);
}

#[test]
fn an_unknown_write_nobody_read_may_never_have_happened() {
    let ops = history(vec![
        (put(6, 1), 0, wrote(10)),
        (put(6, 4), 12, Ends::Unknown(14)),
        (get(6), 20, read(Some(1), 30)),
        (put(6, 7), 40, wrote(50)),
        (get(6), 60, read(Some(7), 70)),
    ]);
    let order = linearizable(&ops);
    assert!(!order.contains(&1), "left out: {order:?}");
    let pruned = checked(&ops);
    let unpruned = check_unpruned(&KV_MODEL, &ops, Budget::NATIVE).unwrap();
    assert_eq!(unpruned.verdict(), Verdict::Linearizable);
    assert_eq!(pruned.partitions[0].ops, 4);
    assert_eq!(unpruned.partitions[0].ops, 5);
}

#[test]
fn pruning_keeps_the_verdict_of_a_refused_history_with_unknown_writes() {
    let ops = history(vec![
        (put(7, 1), 0, wrote(10)),
        (put(7, 4), 12, Ends::Unknown(14)),
        (get(7), 16, Ends::Unknown(18)),
        (put(7, 2), 20, wrote(30)),
        (get(7), 40, read(Some(1), 50)),
    ]);
    let pruned = checked(&ops);
    let unpruned = check_unpruned(&KV_MODEL, &ops, Budget::NATIVE).unwrap();
    assert_eq!(pruned.refusal().map(|(_, stuck, _)| stuck), Some(4));
    assert_eq!(unpruned.refusal().map(|(_, stuck, _)| stuck), Some(4));
    assert_eq!(pruned.partitions[0].ops, 3);
}

#[test]
fn a_write_applied_after_its_client_gave_up_may_be_read_later() {
    // The paused-backlog case: the client timed out at 10, the write was applied at some later
    // moment, a read at 200 sees it, and a read at 100 did not yet.
    let ops = history(vec![
        (put(8, 5), 0, Ends::Unknown(10)),
        (get(8), 100, read(None, 110)),
        (get(8), 200, read(Some(5), 210)),
    ]);
    assert_eq!(linearizable(&ops), [1, 0, 2]);
    let back_again = history(vec![
        (put(8, 5), 0, Ends::Unknown(10)),
        (get(8), 100, read(Some(5), 110)),
        (get(8), 200, read(None, 210)),
    ]);
    assert_eq!(refused(&back_again).0, 2);
}

#[test]
fn a_budget_reached_is_undecided_never_a_verdict() {
    let ops = history(vec![
        (put(1, 1), 0, wrote(10)),
        (put(1, 2), 20, wrote(30)),
        (get(1), 40, read(Some(1), 50)),
    ]);
    let tight = Budget {
        configurations: 1,
        ..Budget::NATIVE
    };
    let check = check(&KV_MODEL, &ops, tight).unwrap();
    assert_eq!(
        check.verdict(),
        Verdict::Undecided {
            partition: 1,
            bound: Bound::Configurations(1)
        }
    );
    let models: [&dyn DynModel; 1] = [&KV_MODEL];
    let whole = check_models(&models, &ops, None, tight).unwrap();
    assert!(matches!(whole.verdict(), HistoryVerdict::Undecided { .. }));
}

#[test]
fn states_of_the_erased_model_compare_by_value() {
    let erased = Erased(&KV_MODEL);
    use quorumlab_sim::sequential::SequentialModel;
    let start = erased.initial();
    let one = erased.step(&start, &put(1, 1), Some(&OpReturn::Written));
    let again = erased.step(&start, &put(1, 1), None);
    let other = erased.step(&start, &put(1, 2), None);
    assert_eq!(one, again);
    assert_ne!(one, other);
    let read = OpReturn::Read(Some(1));
    assert!(erased.step(&one.unwrap(), &get(1), Some(&read)).is_some());
    assert!(erased.step(&start, &get(1), Some(&read)).is_none());
}

#[test]
fn a_world_with_no_models_judges_nothing_and_a_raft_world_judges_its_requests() {
    let ops = history(vec![(put(1, 1), 0, wrote(10))]);
    let none = check_models(&[], &ops, None, Budget::NATIVE).unwrap();
    assert_eq!(none.verdict(), HistoryVerdict::NothingJudged);
    let world = quorumlab_sim::World::new(WorldConfig::raft(3, 1)).unwrap();
    let check = world.linearizability(Budget::NATIVE).unwrap();
    assert_eq!(check.ops, 0);
    assert_eq!(check.checks.len(), 1);
    assert_eq!(check.checks[0].model, "key-value store");
    assert_eq!(check.verdict(), HistoryVerdict::NothingJudged);
}

/// A random history of at most eight ops on one key, with unknown and failed ends, distinct positions.
fn random_history(rng: &mut quorumlab_sim::rng::Rng) -> Vec<Op> {
    let count = rng.range_inclusive(2, 8);
    let mut used = std::collections::BTreeSet::new();
    let mut position = |rng: &mut quorumlab_sim::rng::Rng| loop {
        let candidate = rng.range_inclusive(0, 60);
        if used.insert(candidate) {
            return candidate;
        }
    };
    let specs = (1..=count)
        .map(|value| {
            let (a, b) = (position(rng), position(rng));
            let (invoked, completed) = (a.min(b), a.max(b));
            let is_write = rng.chance_ppm(500_000);
            let seen = rng.range_inclusive(0, count);
            let (call, returned) = if is_write {
                (put(1, value), OpReturn::Written)
            } else {
                (get(1), OpReturn::Read((seen > 0).then_some(seen)))
            };
            let ends = match rng.range_inclusive(0, 9) {
                0..=2 => Ends::Unknown(completed),
                3 => Ends::Failed(completed),
                _ => Ends::Ok(returned, completed),
            };
            (call, invoked, ends)
        })
        .collect();
    history(specs)
}

#[test]
fn pruning_never_changes_a_verdict_on_random_histories() {
    let mut rng = quorumlab_sim::rng::Rng::new(3_300);
    let (mut accepted, mut refusals) = (0, 0);
    for round in 0..800 {
        let ops = random_history(&mut rng);
        let pruned = checked(&ops).verdict();
        let unpruned = check_unpruned(&KV_MODEL, &ops, Budget::NATIVE).unwrap();
        assert_eq!(pruned, unpruned.verdict(), "round {round}: {ops:?}");
        match pruned {
            Verdict::Linearizable => accepted += 1,
            _ => refusals += 1,
        }
    }
    assert!(accepted > 100 && refusals > 100, "{accepted} / {refusals}");
}

/// Two hundred puts of one key begin together, a read of the empty key begins and ends while they
/// are all open, the puts are acknowledged in turn, and a last read sees the last put.
fn many_open_writes_and_an_early_read(last_seen: u64) -> Vec<Op> {
    let mut specs: Vec<(OpCall, u64, Ends)> = (0..200u64)
        .map(|place| (put(1, place + 1), place, wrote(202 + place)))
        .collect();
    specs.push((get(1), 200, read(None, 201)));
    specs.push((get(1), 500, read(Some(last_seen), 501)));
    history(specs)
}

#[test]
fn a_read_that_had_to_come_before_many_open_writes_is_found_without_undoing_them() {
    let ops = many_open_writes_and_an_early_read(200);
    let check = check(&KV_MODEL, &ops, Budget::NATIVE).unwrap();
    assert_eq!(check.verdict(), Verdict::Linearizable);
    assert!(check.explored() < 1_000, "{} steps", check.explored());
    let Outcome::Linearizable { order } = &check.partitions[0].outcome else {
        unreachable!()
    };
    assert_eq!(order[0], 200, "the early read first");
    let parts = partitions(&KV_MODEL, &ops);
    assert_eq!(replay(&KV_MODEL, &parts[&1], order), Ok(()));
}

/// When the last read sees an early put of two hundred open ones, the order exists (that put last).
/// In list order the walk would place the puts oldest first and undo them a subset at a time; with
/// the puts nobody waits for tried first, the one the read needs comes last at once.
#[test]
fn many_open_writes_with_an_early_one_read_last_are_ordered_without_undoing_them() {
    let other_last = many_open_writes_and_an_early_read(17);
    let check = check(&KV_MODEL, &other_last, Budget::NATIVE).unwrap();
    assert_eq!(check.verdict(), Verdict::Linearizable);
    assert!(check.explored() < 2_000, "{} steps", check.explored());
    let Outcome::Linearizable { order } = &check.partitions[0].outcome else {
        unreachable!()
    };
    assert_eq!(
        order[order.len() - 2..],
        [16, 201],
        "put 17, then the last read"
    );
    let few = history(vec![
        (put(1, 1), 0, wrote(5)),
        (put(1, 2), 1, wrote(6)),
        (put(1, 3), 2, wrote(7)),
        (get(1), 10, read(Some(1), 11)),
    ]);
    assert_eq!(linearizable(&few), [1, 2, 0, 3]);
}

#[test]
fn a_search_advanced_in_slices_explores_what_one_run_does() {
    use quorumlab_sim::linearizable::{Progress, Search};
    let mut rng = quorumlab_sim::rng::Rng::new(77);
    for _ in 0..100 {
        let ops = random_history(&mut rng);
        let parts = partitions(&KV_MODEL, &ops);
        for part in parts.values() {
            let mut whole = Search::new(&KV_MODEL, part, Budget::NATIVE);
            let outcome = whole.run();
            let mut sliced = Search::new(&KV_MODEL, part, Budget::NATIVE);
            let sliced_outcome = loop {
                if let Progress::Done(outcome) = sliced.advance(1) {
                    break outcome;
                }
            };
            assert_eq!(sliced_outcome, outcome);
            assert_eq!(sliced.explored(), whole.explored());
        }
    }
}
