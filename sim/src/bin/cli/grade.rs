//! `quorumlab grade ROLE FILE`: a learner's script for one role of the guided lab, through the same
//! hidden checks the page runs (`quorumlab_sim::lab`); the verdict as JSON on stdout. Exit 0 when no
//! judged property broke, 1 when one did, 2 for bad input (an unknown role, an unreadable file, a script
//! that does not read, with its line and column).

use super::args::FlagSpec;
use super::Outcome;
use quorumlab_sim::lab::{grade, GradeOptions, RoleKind, ScriptRole};

const FLAGS: FlagSpec = FlagSpec {
    with_value: &["seeds", "states"],
    switches: &[],
};

pub fn grade_command(args: &[String]) -> Outcome {
    match graded(args) {
        Ok(true) => Outcome::Success,
        Ok(false) => Outcome::Failures,
        Err(message) => Outcome::BadInput(message),
    }
}

/// Grades and prints; whether the script passed.
fn graded(args: &[String]) -> Result<bool, String> {
    let parsed = FLAGS.parse(args)?;
    let [role, file] = parsed.positionals.as_slice() else {
        return Err(
            "usage: quorumlab grade ROLE FILE (roles: store-write, release, job-guard)".into(),
        );
    };
    let kind = RoleKind::from_name(role).ok_or_else(|| {
        let names: Vec<&str> = RoleKind::ALL.iter().map(|kind| kind.name()).collect();
        format!("unknown role `{role}`; the roles are {}", names.join(", "))
    })?;
    let source =
        std::fs::read_to_string(file).map_err(|error| format!("{file}: cannot read: {error}"))?;
    let script = ScriptRole::new(kind, &source).map_err(|error| format!("{file}:{error}"))?;
    let defaults = GradeOptions::default();
    let options = GradeOptions {
        seeds: parsed
            .number("seeds")?
            .unwrap_or(defaults.seeds)
            .min(10_000),
        max_states: parsed
            .number("states")?
            .unwrap_or(defaults.max_states)
            .min(1_000_000),
        ..defaults
    };
    let verdict = grade(script, options)?;
    let json = serde_json::to_string_pretty(&verdict).map_err(|error| error.to_string())?;
    println!("{json}");
    Ok(verdict.passed)
}
