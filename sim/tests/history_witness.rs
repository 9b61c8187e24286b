//! Witnesses: a refused key-value history shrunk to the few ops no order explains, and the one
//! sentence each shape of anomaly gets.

use quorumlab_sim::client_history::{Op, OpCall};
use quorumlab_sim::erased_model::DynModel;
use quorumlab_sim::history_words::pattern_sentence;
use quorumlab_sim::linearizable::models::{check_models, witness, Witness};
use quorumlab_sim::linearizable::verify::brute_force;
use quorumlab_sim::linearizable::witness::{shrink, Pattern};
use quorumlab_sim::linearizable::{partitions, Budget};
use quorumlab_sim::protocol::ClientCommand;
use quorumlab_sim::raft::kv_model::KV_MODEL;

#[path = "support/kv_history.rs"]
mod kv_history;
use kv_history::{get, history, put, read, wrote, Ends};

/// The witness of a refused history, held to brute force: refused on its own.
fn witness_of(ops: &[Op]) -> Witness {
    let models: [&dyn DynModel; 1] = [&KV_MODEL];
    let check = check_models(&models, ops, None, Budget::NATIVE).unwrap();
    let found = witness(&models, ops, &check, Budget::NATIVE).expect("a refusal with a witness");
    let members: Vec<&Op> = found
        .ops
        .iter()
        .map(|index| &ops[*index as usize])
        .collect();
    assert_eq!(brute_force(&KV_MODEL, &members), Ok(None), "{found:?}");
    found
}

fn sentence(ops: &[Op]) -> (Pattern, String) {
    let found = witness_of(ops);
    let words = pattern_sentence(ops, &found.pattern, found.stuck);
    (found.pattern, words)
}

#[test]
fn a_long_history_shrinks_to_the_stale_read_and_its_two_writes() {
    let mut specs = Vec::new();
    for round in 0..30u64 {
        let start = round * 10;
        specs.push((put(1, round + 1), start, wrote(start + 5)));
        let seen = if round == 20 { round } else { round + 1 };
        specs.push((get(1), start + 6, read(Some(seen), start + 8)));
    }
    let ops = history(specs);
    assert_eq!(ops.len(), 60);
    let found = witness_of(&ops);
    assert_eq!(found.ops, [38, 40, 41], "put 20, put 21, the read of 20");
    assert_eq!(found.stuck, 41);
    assert_eq!(
        found.pattern,
        Pattern::Stale {
            read: 41,
            newer: 40,
            older: Some(38)
        }
    );
    let words = pattern_sentence(&ops, &found.pattern, found.stuck);
    assert_eq!(
        words,
        "\"get key 1 → 20\" began after \"put key 1 = 21\" had returned, yet returned the older \
         value of \"put key 1 = 20\"."
    );
}

#[test]
fn a_linearizable_part_has_no_witness() {
    let ops = history(vec![
        (put(1, 1), 0, wrote(10)),
        (get(1), 20, read(Some(1), 30)),
    ]);
    let parts = partitions(&KV_MODEL, &ops);
    assert_eq!(shrink(&KV_MODEL, &parts[&1], Budget::NATIVE), None);
}

#[test]
fn each_shape_gets_its_sentence() {
    let never = history(vec![
        (put(3, 5), 0, wrote(10)),
        (get(3), 20, read(Some(9), 30)),
    ]);
    let (pattern, words) = sentence(&never);
    assert_eq!(pattern, Pattern::NeverWritten { read: 1 });
    assert_eq!(
        words,
        "\"get key 3 → 9\" returned a value no put ever wrote."
    );

    let failed = history(vec![
        (put(3, 9), 0, Ends::Failed(10)),
        (get(3), 20, read(Some(9), 30)),
    ]);
    let (_, words) = sentence(&failed);
    assert!(
        words.contains("only \"put key 3 = 9 (failed: not the leader)\" wrote"),
        "{words}"
    );

    let future = history(vec![
        (get(3), 0, read(Some(5), 10)),
        (put(3, 5), 20, wrote(30)),
    ]);
    let (pattern, words) = sentence(&future);
    assert_eq!(pattern, Pattern::Future { read: 0, write: 1 });
    assert!(words.contains("from the future"), "{words}");

    let nothing = history(vec![
        (put(4, 20), 0, wrote(10)),
        (get(4), 20, read(None, 30)),
    ]);
    let (pattern, words) = sentence(&nothing);
    assert_eq!(
        pattern,
        Pattern::Stale {
            read: 1,
            newer: 0,
            older: None
        }
    );
    assert!(words.ends_with("yet found no value at all."), "{words}");
}

#[test]
fn a_new_value_then_an_old_one_names_both_reads() {
    let ops = history(vec![
        (put(2, 1), 0, wrote(10)),
        (put(2, 2), 20, wrote(100)),
        (get(2), 30, read(Some(2), 40)),
        (get(2), 50, read(Some(1), 60)),
    ]);
    let (pattern, words) = sentence(&ops);
    assert_eq!(
        pattern,
        Pattern::NewThenOld {
            first: 2,
            second: 3,
            newer: 1,
            older: Some(0)
        }
    );
    assert_eq!(
        words,
        "\"get key 2 → 1\" began after \"get key 2 → 2\" had returned the value of \"put key 2 = \
         2\", yet returned the older value of \"put key 2 = 1\"."
    );
}

#[test]
fn an_unknown_write_read_then_lost_is_a_new_then_old_with_an_unknown_write() {
    // W(5) timed out; one read saw it, a later read saw the value before it: the store went back.
    let ops = history(vec![
        (put(8, 4), 0, wrote(5)),
        (put(8, 5), 6, Ends::Unknown(10)),
        (get(8), 100, read(Some(5), 110)),
        (get(8), 200, read(Some(4), 210)),
    ]);
    let found = witness_of(&ops);
    assert_eq!(found.ops, [0, 1, 2, 3]);
    let words = pattern_sentence(&ops, &found.pattern, found.stuck);
    assert!(words.contains("\"put key 8 = 5 (unknown)\""), "{words}");
}

#[test]
fn witnesses_are_minimal_on_random_refusals() {
    let mut rng = quorumlab_sim::rng::Rng::new(5);
    let mut shrunk = 0;
    for _ in 0..300 {
        let count = rng.range_inclusive(4, 12);
        let mut used = std::collections::BTreeSet::new();
        let specs = (0..count)
            .map(|round| {
                let mut fresh = |low: u64, high: u64| loop {
                    let candidate = rng.range_inclusive(low, high);
                    if used.insert(candidate) {
                        return candidate;
                    }
                };
                let start = fresh(round * 10, round * 10 + 9);
                let end = fresh(start + 1, start + 30);
                if rng.chance_ppm(400_000) {
                    (put(1, round + 1), start, wrote(end))
                } else {
                    let seen = rng.range_inclusive(0, round + 1);
                    (get(1), start, read((seen > 0).then_some(seen), end))
                }
            })
            .collect();
        let ops = history(specs);
        let models: [&dyn DynModel; 1] = [&KV_MODEL];
        let check = check_models(&models, &ops, None, Budget::NATIVE).unwrap();
        if check.refused().is_none() {
            continue;
        }
        let found = witness_of(&ops);
        shrunk += 1;
        assert!(found.ops.len() <= 4, "{found:?}");
        for leave_out in &found.ops {
            let rest: Vec<&Op> = found
                .ops
                .iter()
                .filter(|index| *index != leave_out)
                .map(|index| &ops[*index as usize])
                .collect();
            let is_read = matches!(
                ops[*leave_out as usize].call,
                OpCall::Kv(ClientCommand::Get { .. })
            );
            if is_read {
                assert!(
                    brute_force(&KV_MODEL, &rest).unwrap().is_some(),
                    "{found:?}"
                );
            }
        }
    }
    assert!(shrunk > 50, "{shrunk} refusals");
}
