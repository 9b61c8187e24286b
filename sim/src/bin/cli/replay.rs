//! `quorumlab replay FILE.jsonl`: replay a trace file exported from the app (or written by
//! `quorumlab_sim::trace_file`) and print the report at the instant it was exported. The replay must
//! reproduce the file's trace hash; if it does not, the report is still printed and the exit code is 1.

use super::args::FlagSpec;
use super::Outcome;
use quorumlab_sim::trace_file::{parse_trace_file, replay_checked, ReplayCheck};

const FLAGS: FlagSpec = FlagSpec {
    with_value: &[],
    switches: &[],
};

pub fn replay_command(args: &[String]) -> Outcome {
    match replay_file(args) {
        Ok(true) => Outcome::Success,
        Ok(false) => Outcome::Failures,
        Err(message) => Outcome::BadInput(message),
    }
}

/// True when the replay reproduced the file's fingerprint.
fn replay_file(args: &[String]) -> Result<bool, String> {
    let parsed = FLAGS.parse(args)?;
    let path = parsed.single_positional("trace FILE")?;
    let text =
        std::fs::read_to_string(path).map_err(|error| format!("{path}: cannot read: {error}"))?;
    let file = parse_trace_file(&text).map_err(|error| format!("{path}: {error}"))?;
    let (world, reproduced) = match replay_checked(&file) {
        ReplayCheck::Reproduced(world) => (world, true),
        ReplayCheck::Diverged {
            world,
            recorded,
            replayed,
        } => {
            eprintln!(
                "{path}: the replay did not reproduce the run: trace hash {replayed:016x}, the file says {recorded:016x}"
            );
            (world, false)
        }
        ReplayCheck::Failed(reason) => return Err(format!("{path}: {reason}")),
    };
    let json = serde_json::to_string_pretty(&world.report()).expect("reports serialize");
    println!("{json}");
    Ok(reproduced)
}
