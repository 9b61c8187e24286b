//! `quorumlab explore FILE [--invariant NAME | --example CHECKPOINT] [--depth D] [--faults F]
//! [--drops K] [--holds K] [--duplicates K] [--states N] [--grain-ms G] [--horizon-ms T] [--from-ms S]
//! [--pause-ms A,B,..] [--drift-ppm A,..] [--jump-ms A,..] [--byzantine K] [--byzantine-modes M,..]
//! [--no-crash] [--no-isolate] [--cut-links] [--no-shrink] [--symmetry]
//! [--shrink-attempts N] [--without-steps] [--emit-scenario OUT.toml] [--bench]`: the bounded search for the
//! shortest fault schedule that breaks an invariant (or reaches an example of a lesson checkpoint),
//! shrunk, as one JSON report.
//!
//! `--without-steps` drops the file's own steps first, so a story's scripted fault can be found
//! rather than given. `--from-ms S` searches from that moment: the file's own steps stay as they
//! are, and every step the search adds lies at or after S. `--emit-scenario` writes the scenario that replays a result, for
//! `quorumlab run`. `--bench` prints the search's speed and the time to a shrunk result instead of
//! the report. `--symmetry` visits mirror images of a state once where that is sound (a plain Raft
//! cluster; `explore/symmetry.rs`), and the report gains a `symmetry` object saying whether it was
//! applied and, if not, why. The speed (states per second) goes to stderr: it is a measurement of this machine,
//! and the report on stdout stays the same from run to run.

use super::args::{FlagSpec, ParsedArgs};
use super::Outcome;
use quorumlab_sim::action::ByzantineMode;
use quorumlab_sim::explore::search::merged;
use quorumlab_sim::explore::symmetry::{verdict, SymmetryVerdict};
use quorumlab_sim::explore::{explore, ExploreReport, ExploreRequest};
use quorumlab_sim::scenario::to_toml_string;
use quorumlab_sim::scenario::{parse_scenario, Scenario};
use std::time::Instant;

const FLAGS: FlagSpec = FlagSpec {
    with_value: &[
        "invariant",
        "example",
        "duplicates",
        "drift-ppm",
        "jump-ms",
        "shrink-attempts",
        "depth",
        "faults",
        "drops",
        "holds",
        "states",
        "grain-ms",
        "horizon-ms",
        "from-ms",
        "pause-ms",
        "emit-scenario",
        "byzantine",
        "byzantine-modes",
    ],
    switches: &[
        "without-steps",
        "no-shrink",
        "no-crash",
        "no-isolate",
        "cut-links",
        "symmetry",
        "bench",
    ],
};

pub fn explore_command(args: &[String]) -> Outcome {
    match explore_file(args) {
        Ok(()) => Outcome::Success,
        Err(message) => Outcome::BadInput(message),
    }
}

fn explore_file(args: &[String]) -> Result<(), String> {
    let parsed = FLAGS.parse(args)?;
    let file = parsed.single_positional("scenario FILE")?;
    let text =
        std::fs::read_to_string(file).map_err(|error| format!("{file}: cannot read: {error}"))?;
    let mut scenario = parse_scenario(&text, file).map_err(|error| error.to_string())?;
    if parsed.switch("without-steps") {
        scenario.steps.clear();
    }
    let request = request_from(&parsed)?;
    if parsed.switch("bench") {
        return bench(&scenario, &request, file);
    }
    let started = Instant::now();
    let report = explore(&scenario, &request).map_err(|error| format!("{file}: {error}"))?;
    let seconds = started.elapsed().as_secs_f64();
    eprintln!(
        "explored {} states in {seconds:.2} s ({:.0} states/s)",
        report.states,
        report.states as f64 / seconds.max(1e-9)
    );
    if let (Some(out), Some(schedule)) = (parsed.text("emit-scenario"), report.outcome.schedule()) {
        let replay = to_toml_string(&merged(&scenario, schedule));
        std::fs::write(out, replay).map_err(|error| format!("{out}: cannot write: {error}"))?;
    }
    let json = match verdict(&scenario, &request) {
        Some(symmetry) => serde_json::to_string_pretty(&WithSymmetry {
            report: &report,
            symmetry,
        }),
        None => serde_json::to_string_pretty(&report),
    };
    println!("{}", json.expect("reports serialize"));
    Ok(())
}

/// The report with what `--symmetry` did after its own fields, in their order.
#[derive(serde::Serialize)]
struct WithSymmetry<'a> {
    #[serde(flatten)]
    report: &'a ExploreReport,
    symmetry: SymmetryVerdict,
}

/// The request the flags describe (defaults for what they leave out).
fn request_from(parsed: &ParsedArgs) -> Result<ExploreRequest, String> {
    let defaults = ExploreRequest::default();
    let max_depth = parsed.number("depth")?.unwrap_or(defaults.max_depth);
    Ok(ExploreRequest {
        invariant: parsed.text("invariant").map(str::to_string),
        example: parsed.text("example").map(str::to_string),
        max_depth,
        max_faults: parsed.number("faults")?.unwrap_or(max_depth),
        max_drops: parsed.number("drops")?.unwrap_or(defaults.max_drops),
        max_holds: parsed.number("holds")?.unwrap_or(defaults.max_holds),
        max_duplicates: parsed
            .number("duplicates")?
            .unwrap_or(defaults.max_duplicates),
        max_states: parsed.number("states")?.unwrap_or(defaults.max_states),
        grain_ms: parsed.number("grain-ms")?.unwrap_or(defaults.grain_ms),
        pause_ms: numbers("pause-ms", parsed.text("pause-ms"))?.unwrap_or(defaults.pause_ms),
        crash: !parsed.switch("no-crash"),
        isolate: !parsed.switch("no-isolate"),
        cut_links: parsed.switch("cut-links"),
        drift_ppm: numbers("drift-ppm", parsed.text("drift-ppm"))?.unwrap_or_default(),
        jump_ms: numbers("jump-ms", parsed.text("jump-ms"))?.unwrap_or_default(),
        shrink: !parsed.switch("no-shrink"),
        max_shrink_attempts: parsed
            .number("shrink-attempts")?
            .unwrap_or(defaults.max_shrink_attempts),
        horizon_ms: parsed.number("horizon-ms")?,
        from_ms: parsed.number("from-ms")?.unwrap_or(defaults.from_ms),
        max_byzantine: parsed
            .number("byzantine")?
            .unwrap_or(defaults.max_byzantine),
        byzantine_modes: modes(parsed.text("byzantine-modes"))?.unwrap_or(defaults.byzantine_modes),
        symmetry: parsed.switch("symmetry"),
    })
}

/// `--byzantine-modes equivocate,silent`: the lying modes by name.
fn modes(text: Option<&str>) -> Result<Option<Vec<ByzantineMode>>, String> {
    let Some(text) = text else {
        return Ok(None);
    };
    text.split(',')
        .map(|name| {
            ByzantineMode::from_name(name.trim()).ok_or_else(|| {
                format!(
                    "--byzantine-modes: {name:?} is not a mode ({})",
                    ByzantineMode::NAMES.join(", ")
                )
            })
        })
        .collect::<Result<Vec<_>, String>>()
        .map(Some)
}

/// `--bench`: the search alone (no shrinking) gives the states per second; the search as asked
/// (shrinking included) gives the time to a reportable result. One JSON object on stdout; these are
/// measurements of this machine, not results.
fn bench(scenario: &Scenario, request: &ExploreRequest, file: &str) -> Result<(), String> {
    let timed = |request: &ExploreRequest| {
        let started = Instant::now();
        let report = explore(scenario, request).map_err(|error| format!("{file}: {error}"));
        (report, started.elapsed().as_secs_f64())
    };
    let unshrunk = ExploreRequest {
        shrink: false,
        ..request.clone()
    };
    let (search, search_seconds) = timed(&unshrunk);
    let (report, total_seconds) = timed(request);
    let (search, report) = (search?, report?);
    let json = serde_json::json!({
        "file": file,
        "states": search.states,
        "duplicates": search.duplicates,
        "memory_bytes": search.memory_bytes,
        "search_seconds": search_seconds,
        "states_per_second": search.states as f64 / search_seconds.max(1e-9),
        "seconds_to_result": total_seconds,
        "summary": report.summary,
        "shrink": report.shrink,
        "symmetry": verdict(scenario, request),
    });
    println!(
        "{}",
        serde_json::to_string_pretty(&json).expect("serializes")
    );
    Ok(())
}

/// `--pause-ms 500,2000` (or `--drift-ppm -800,800`) as a list of whole numbers; `--pause-ms ""`
/// offers none.
fn numbers<N: std::str::FromStr>(flag: &str, text: Option<&str>) -> Result<Option<Vec<N>>, String> {
    let Some(text) = text else {
        return Ok(None);
    };
    if text.trim().is_empty() {
        return Ok(Some(Vec::new()));
    }
    text.split(',')
        .map(|item| {
            item.trim()
                .parse::<N>()
                .map_err(|_| format!("--{flag}: {item:?} is not a whole number"))
        })
        .collect::<Result<Vec<N>, String>>()
        .map(Some)
}
