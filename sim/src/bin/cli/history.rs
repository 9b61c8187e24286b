//! `quorumlab history check FILE` and `quorumlab history export SCENARIO [--seed N]`: the client
//! history as other checkers write it (`docs/history-format.md`).
//!
//! `check` reads a Jepsen-style operation log (EDN or JSON lines), checks it against the key-value
//! store's model within the native budget, and prints the same `history` summary as
//! `quorumlab run --history`, plus how long the check took. A file that cannot be read is bad input
//! (exit 2) with the line and column of its first error; a history that is not linearizable is still
//! a finished check (exit 0), its verdict in the JSON. `export` runs a scenario to its end and prints
//! its key-value history in that format, ready for `check`, Knossos or Porcupine. `generate [--ops N]
//! [--clients C] [--keys K] [--seed S]` prints a synthetic linearizable history of that shape (200 ops,
//! 5 clients, 3 keys by default), the input of the checker's benchmark.

use super::args::FlagSpec;
use super::Outcome;
use quorumlab_sim::history_bench::{synthetic_history, HistoryShape};
use quorumlab_sim::history_summary::{summarize_imported, HistorySummary};
use quorumlab_sim::linearizable::export::export_history;
use quorumlab_sim::linearizable::import::import_history;
use quorumlab_sim::linearizable::Budget;
use quorumlab_sim::runner::ScenarioRun;
use quorumlab_sim::scenario::parse_scenario;
use serde::Serialize;
use std::time::Instant;

const CHECK_FLAGS: FlagSpec = FlagSpec {
    with_value: &[],
    switches: &[],
};

const GENERATE_FLAGS: FlagSpec = FlagSpec {
    with_value: &["ops", "clients", "keys", "seed"],
    switches: &[],
};

/// Most ops `generate` writes: the import's own bound.
const MAX_GENERATED_OPS: usize = 50_000;

const EXPORT_FLAGS: FlagSpec = FlagSpec {
    with_value: &["seed"],
    switches: &[],
};

pub fn history_command(args: &[String]) -> Outcome {
    let result = match args.first().map(String::as_str) {
        Some("check") => check_file(&args[1..]),
        Some("export") => export_file(&args[1..]),
        Some("generate") => generate(&args[1..]),
        Some(other) => Err(format!(
            "unknown history command `{other}`: expected `check FILE`, `export SCENARIO` or `generate`"
        )),
        None => Err("missing history command: `check FILE` or `export SCENARIO`".to_string()),
    };
    match result {
        Ok(()) => Outcome::Success,
        Err(message) => Outcome::BadInput(message),
    }
}

/// The summary with the wall time the import and check took.
#[derive(Serialize)]
struct Checked {
    file: String,
    #[serde(flatten)]
    summary: HistorySummary,
    check_ms: f64,
}

fn check_file(args: &[String]) -> Result<(), String> {
    let parsed = CHECK_FLAGS.parse(args)?;
    let file = parsed.single_positional("history FILE")?;
    let text =
        std::fs::read_to_string(file).map_err(|error| format!("{file}: cannot read: {error}"))?;
    let started = Instant::now();
    let ops = import_history(&text).map_err(|error| format!("{file}: {error}"))?;
    let summary =
        summarize_imported(&ops, Budget::NATIVE).map_err(|error| format!("{file}: {error}"))?;
    let checked = Checked {
        file: file.to_string(),
        summary,
        check_ms: started.elapsed().as_secs_f64() * 1_000.0,
    };
    let json = serde_json::to_string_pretty(&checked).map_err(|error| error.to_string())?;
    println!("{json}");
    Ok(())
}

fn export_file(args: &[String]) -> Result<(), String> {
    let parsed = EXPORT_FLAGS.parse(args)?;
    let file = parsed.single_positional("scenario FILE")?;
    let text =
        std::fs::read_to_string(file).map_err(|error| format!("{file}: cannot read: {error}"))?;
    let mut scenario = parse_scenario(&text, file).map_err(|error| error.to_string())?;
    if let Some(seed) = parsed.number::<u64>("seed")? {
        scenario.seed = seed;
    }
    let mut run = ScenarioRun::new(scenario).map_err(|error| format!("{file}: {error}"))?;
    run.run_to_end();
    let world = run.world();
    print!(
        "{}",
        export_history(&world.client_log().ops(), &|node| world.node_label(node))
    );
    Ok(())
}

/// A synthetic linearizable history of the asked shape, for timing the checker
/// (`tooling::history_bench`).
fn generate(args: &[String]) -> Result<(), String> {
    let parsed = GENERATE_FLAGS.parse(args)?;
    parsed.no_positionals()?;
    let shape = HistoryShape {
        ops: parsed.number::<usize>("ops")?.unwrap_or(200),
        clients: parsed.number::<usize>("clients")?.unwrap_or(5),
        keys: parsed.number::<u32>("keys")?.unwrap_or(3),
        seed: parsed.number::<u64>("seed")?.unwrap_or(33),
    };
    if shape.ops > MAX_GENERATED_OPS || shape.clients == 0 || shape.clients > 1_000 {
        return Err(format!(
            "--ops must be at most {MAX_GENERATED_OPS} and --clients 1 to 1000"
        ));
    }
    if !(1..=1_000).contains(&shape.keys) {
        return Err("--keys must be 1 to 1000".to_string());
    }
    print!(
        "{}",
        export_history(&synthetic_history(shape), &|node| node.to_string())
    );
    Ok(())
}
