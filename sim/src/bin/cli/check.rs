//! `quorumlab check FILE...`: validate scenario files without running them, for lesson authors and CI.
//! Every file is checked (not just up to the first bad one), so one pass lists every mistake.

use super::args::FlagSpec;
use super::Outcome;
use quorumlab_sim::scenario::parse_scenario;

const FLAGS: FlagSpec = FlagSpec {
    with_value: &[],
    switches: &[],
};

pub fn check_command(args: &[String]) -> Outcome {
    let parsed = match FLAGS.parse(args) {
        Ok(parsed) => parsed,
        Err(message) => return Outcome::BadInput(message),
    };
    if parsed.positionals.is_empty() {
        return Outcome::BadInput("missing scenario FILE (one or more)".into());
    }
    let errors: Vec<String> = parsed
        .positionals
        .iter()
        .filter_map(|file| check_file(file).err())
        .collect();
    match errors.as_slice() {
        [] => Outcome::Success,
        _ => Outcome::BadInput(errors.join("\nerror: ")),
    }
}

/// Prints `FILE: ok (N nodes, M steps)` for a valid file; returns the error text otherwise.
fn check_file(file: &str) -> Result<(), String> {
    let text =
        std::fs::read_to_string(file).map_err(|error| format!("{file}: cannot read: {error}"))?;
    let scenario = parse_scenario(&text, file).map_err(|error| error.to_string())?;
    println!(
        "{file}: ok ({} nodes, {} steps)",
        scenario.node_count,
        scenario.steps.len()
    );
    Ok(())
}
