//! What the grader says about one script: every check with its status, and for the first property
//! that broke, its name (the checker's own), the hints and the counterexample to replay.

use super::hints::Hints;
use super::sandbox::ScriptError;
use serde::Serialize;

/// How one check ended. A bound reached is never a pass: it says how far the check looked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CheckStatus {
    /// Every run of the check kept every judged property.
    Held,
    /// A judged property broke (see the verdict's `broken`).
    Broken,
    /// The search found nothing within its bounds; a deeper search might.
    BoundReached,
    /// Not run: an earlier check already broke.
    Skipped,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Check {
    /// `scenario`, `chaos` or `search`.
    pub kind: &'static str,
    pub name: String,
    pub status: CheckStatus,
    pub detail: String,
}

/// Where to see the property break: a scenario file that replays it (`quorumlab run`), and how it was
/// found.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Counterexample {
    /// `scenario FILE`, `seed N (holders profile, WORLD/VARIANT)` or `search path of K step(s)`.
    pub found_by: String,
    pub seed: Option<u64>,
    /// The scenario to replay, as a file; run it with the same role to see the break.
    pub scenario_toml: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Broken {
    pub property: String,
    pub check: String,
    pub hints: Hints,
    pub counterexample: Counterexample,
    /// The script's first error, when the break is one.
    pub script_error: Option<ScriptError>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Verdict {
    pub role: &'static str,
    /// No judged property broke in any check (a search that reached its bound still counts as not
    /// broken; its check says so).
    pub passed: bool,
    pub summary: String,
    pub broken: Option<Broken>,
    pub checks: Vec<Check>,
    /// Calls of the script that failed, over every run.
    pub script_errors: u64,
}
