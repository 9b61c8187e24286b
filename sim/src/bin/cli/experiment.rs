//! `quorumlab experiment FILE [--trials N] [--json OUT] [--csv OUT] [--emit-trial LINE:TRIAL]`: run an
//! experiment file (`sim/EXPERIMENTS.md`) and write its rows and per-line summaries as JSON (to
//! stdout, or `--json`) and CSV (`--csv`); each line's summary and the wall time go to stderr as the
//! lines finish. `--emit-trial 3:17` prints the scenario of line 3's trial 17 instead (both counted
//! from 1), which `quorumlab run` replays alone.

use super::args::FlagSpec;
use super::Outcome;
use quorumlab_sim::experiment::{
    parse_experiment, to_csv, trial_scenario, Experiment, Summary, TrialRow, Unit,
    MAX_TOTAL_TRIALS, MAX_TRIALS,
};
use quorumlab_sim::scenario::{parse_scenario, to_toml_string};
use std::path::Path;
use std::time::Instant;

const FLAGS: FlagSpec = FlagSpec {
    with_value: &["trials", "json", "csv", "emit-trial"],
    switches: &[],
};

pub fn experiment_command(args: &[String]) -> Outcome {
    match run(args) {
        Ok(()) => Outcome::Success,
        Err(message) => Outcome::BadInput(message),
    }
}

fn run(args: &[String]) -> Result<(), String> {
    let parsed = FLAGS.parse(args)?;
    let file = parsed.single_positional("experiment FILE")?;
    let mut experiment = load(file)?;
    if let Some(trials) = parsed.number::<u64>("trials")? {
        let total = trials.saturating_mul(experiment.values.len() as u64);
        if trials == 0 || trials > MAX_TRIALS || total > MAX_TOTAL_TRIALS {
            return Err(format!(
                "--trials {trials}: 1 to {MAX_TRIALS} per line and {MAX_TOTAL_TRIALS} in all"
            ));
        }
        experiment.trials = trials;
    }
    if let Some(which) = parsed.text("emit-trial") {
        let (line, trial) = trial_named(&experiment, which)?;
        print!(
            "{}",
            to_toml_string(&trial_scenario(&experiment, line, trial)?)
        );
        return Ok(());
    }
    let result = run_telling(&experiment)?;
    let json = serde_json::to_string_pretty(&result).expect("results serialize");
    match parsed.text("json") {
        Some(path) => write(path, "--json", &json)?,
        None => println!("{json}"),
    }
    if let Some(path) = parsed.text("csv") {
        write(path, "--csv", &to_csv(&result))?;
    }
    Ok(())
}

/// The experiment file and the scenario it names (relative to the experiment file).
fn load(file: &str) -> Result<Experiment, String> {
    let text = read(file)?;
    let parsed = parse_experiment(&text, file)?;
    let folder = Path::new(file).parent().unwrap_or(Path::new(""));
    let scenario_path = folder.join(&parsed.scenario);
    let scenario_file = scenario_path.to_string_lossy().into_owned();
    let scenario_text = read(&scenario_file)
        .map_err(|error| format!("{file}: scenario = \"{}\": {error}", parsed.scenario))?;
    let scenario =
        parse_scenario(&scenario_text, &scenario_file).map_err(|error| error.to_string())?;
    parsed.with_scenario(scenario)
}

fn read(file: &str) -> Result<String, String> {
    std::fs::read_to_string(file).map_err(|error| format!("{file}: cannot read: {error}"))
}

fn write(path: &str, flag: &str, text: &str) -> Result<(), String> {
    std::fs::write(path, text).map_err(|error| format!("{flag} {path}: cannot write: {error}"))
}

/// `LINE:TRIAL`, both from 1, as indices.
fn trial_named(experiment: &Experiment, which: &str) -> Result<(usize, u64), String> {
    let bad = || {
        format!(
            "--emit-trial {which}: expected LINE:TRIAL with LINE 1 to {} and TRIAL 1 to {}",
            experiment.values.len(),
            experiment.trials
        )
    };
    let (line, trial) = which.split_once(':').ok_or_else(bad)?;
    let line: usize = line.parse().map_err(|_| bad())?;
    let trial: u64 = trial.parse().map_err(|_| bad())?;
    if line == 0 || line > experiment.values.len() || trial == 0 || trial > experiment.trials {
        return Err(bad());
    }
    Ok((line - 1, trial - 1))
}

/// Runs every trial, telling each line's summary on stderr as the line finishes.
fn run_telling(
    experiment: &Experiment,
) -> Result<quorumlab_sim::experiment::ExperimentResult, String> {
    let started = Instant::now();
    let mut line_started = Instant::now();
    let mut of_line: Vec<TrialRow> = Vec::new();
    let result = experiment.run(|row| {
        of_line.push(row.clone());
        if of_line.len() as u64 == experiment.trials {
            let summary = Summary::of(
                experiment.measure.unit(),
                &of_line.iter().collect::<Vec<_>>(),
            );
            eprintln!(
                "{} = {}: {} in {:.2} s",
                experiment.key.name(),
                experiment.value_text(row.line),
                summary_text(&summary),
                line_started.elapsed().as_secs_f64()
            );
            of_line.clear();
            line_started = Instant::now();
        }
    })?;
    eprintln!(
        "{} trials in {:.2} s (wall time, this machine)",
        result.rows.len(),
        started.elapsed().as_secs_f64()
    );
    Ok(result)
}

fn summary_text(summary: &Summary) -> String {
    let unit = match summary.unit {
        Unit::Time => " ms",
        Unit::Count => " messages per commit",
    };
    let shown = |value: Option<f64>| {
        value.map_or("beyond the bound".to_string(), |value| {
            format!("{value:.1}{unit}")
        })
    };
    format!(
        "median {}, mean {}, worst {} ({} measured, {} censored at the bound, {} with no leader to act on)",
        shown(summary.median),
        shown(summary.mean),
        shown(summary.worst),
        summary.measured,
        summary.censored,
        summary.no_leader_to_crash
    )
}
