//! `quorumlab run FILE [--seed N] [--duration-ms N] [--trace OUT.jsonl] [--history]`: run one
//! scenario file and print its report as JSON. `--history` adds a `history` block: whether what the
//! clients saw is linearizable, checked within the native budget (see `views::history_summary`).

use super::args::FlagSpec;
use super::Outcome;
use quorumlab_sim::history_summary::{summarize, HistorySummary};
use quorumlab_sim::linearizable::Budget;
use quorumlab_sim::runner::ScenarioRun;
use quorumlab_sim::scenario::{parse_scenario, Scenario, MAX_DURATION_MS};
use serde::Serialize;

const FLAGS: FlagSpec = FlagSpec {
    with_value: &["seed", "duration-ms", "trace"],
    switches: &["history"],
};

pub fn run_command(args: &[String]) -> Outcome {
    match run_file(args) {
        Ok(()) => Outcome::Success,
        Err(message) => Outcome::BadInput(message),
    }
}

fn run_file(args: &[String]) -> Result<(), String> {
    let parsed = FLAGS.parse(args)?;
    let file = parsed.single_positional("scenario FILE")?;
    let text =
        std::fs::read_to_string(file).map_err(|error| format!("{file}: cannot read: {error}"))?;
    let mut scenario = parse_scenario(&text, file).map_err(|error| error.to_string())?;
    if let Some(seed) = parsed.number::<u64>("seed")? {
        scenario.seed = seed;
    }
    if let Some(duration_ms) = parsed.number::<u64>("duration-ms")? {
        override_duration(&mut scenario, duration_ms)?;
    }
    let mut run = ScenarioRun::new(scenario).map_err(|error| format!("{file}: {error}"))?;
    run.run_to_end();
    if let Some(trace_path) = parsed.text("trace") {
        write_trace(&run, trace_path)?;
    }
    let report = run.report();
    let json = if parsed.switch("history") {
        let history = history_of(&run)?;
        let with_history = WithHistory {
            report: &report,
            history,
        };
        serde_json::to_string_pretty(&with_history)
    } else {
        serde_json::to_string_pretty(&report)
    };
    println!("{}", json.expect("reports serialize"));
    Ok(())
}

/// The report with a `history` block after its own fields, which keep their order.
#[derive(Serialize)]
struct WithHistory<'a, R: Serialize> {
    #[serde(flatten)]
    report: &'a R,
    history: HistorySummary,
}

fn history_of(run: &ScenarioRun) -> Result<HistorySummary, String> {
    let world = run.world();
    let check = world
        .linearizability(Budget::NATIVE)
        .map_err(|error| format!("--history: the client log is malformed: {error}"))?;
    Ok(summarize(world, &check))
}

/// A shorter run may not cut steps off silently: that would change what the scenario means.
fn override_duration(scenario: &mut Scenario, duration_ms: u64) -> Result<(), String> {
    if !(1..=MAX_DURATION_MS).contains(&duration_ms) {
        return Err(format!(
            "--duration-ms {duration_ms} is out of range: expected 1 to {MAX_DURATION_MS}"
        ));
    }
    if let Some((index, step)) = scenario
        .steps
        .iter()
        .enumerate()
        .find(|(_, step)| step.at_ms > duration_ms)
    {
        return Err(format!(
            "--duration-ms {duration_ms} ends before step {} (at_ms {})",
            index + 1,
            step.at_ms
        ));
    }
    scenario.duration_ms = duration_ms;
    Ok(())
}

fn write_trace(run: &ScenarioRun, path: &str) -> Result<(), String> {
    let file = std::fs::File::create(path)
        .map_err(|error| format!("--trace {path}: cannot create: {error}"))?;
    let mut writer = std::io::BufWriter::new(file);
    run.world()
        .write_trace_jsonl(&mut writer)
        .and_then(|()| std::io::Write::flush(&mut writer))
        .map_err(|error| format!("--trace {path}: cannot write: {error}"))
}
