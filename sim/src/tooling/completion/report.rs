//! What checking a code finds, as data: the page lists it and `quorumlab verify` prints it as JSON, so
//! both say the same facts in the same order.

use serde::Serialize;

/// One pasted code, checked.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CodeReport {
    /// Its place among the codes pasted (1-based).
    pub code: usize,
    /// Its first characters, to tell the codes apart.
    pub starts: String,
    /// The text is not a readable code (cut short, altered past reading, over a bound).
    pub malformed: bool,
    /// Why it was not checked (malformed, another lesson or engine version, a run that cannot be
    /// rebuilt). When set, `steps` is empty.
    pub error: Option<String>,
    pub lesson_id: Option<String>,
    pub lesson_title: Option<String>,
    pub steps: Vec<StepReport>,
    /// Steps the replay met.
    pub met: usize,
    /// Steps the lesson has.
    pub total: usize,
    /// Claims the replay does not bear out (a code altered, or from another version).
    pub mismatches: usize,
}

/// One step of a checked code.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct StepReport {
    /// 1-based.
    pub step: usize,
    /// The checkpoint as the lesson writes it (`leader_changed`).
    pub checkpoint: String,
    pub status: StepStatus,
    /// How a met step was done, as the page recorded it.
    pub how: Option<HowMet>,
    /// The page claimed it met.
    pub claimed: bool,
    /// Ran on settings the learner changed (the run settings card), not the lesson's own.
    pub changed_settings: bool,
    /// What the replay saw happen, the last reason it was not met, or why it was not checked.
    pub detail: String,
    /// Set when the claim and the replay disagree.
    pub mismatch: Option<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum StepStatus {
    Met,
    NotMet,
    /// No run in the code played this step.
    NotPlayed,
    /// A bound was reached, or the run could not be rebuilt, before this step was judged.
    NotChecked,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum HowMet {
    ByHand,
    ShowMe,
}

impl HowMet {
    pub fn words(self) -> &'static str {
        match self {
            HowMet::ByHand => "by hand",
            HowMet::ShowMe => "with “show me”",
        }
    }
}

impl StepStatus {
    pub fn words(self) -> &'static str {
        match self {
            StepStatus::Met => "met",
            StepStatus::NotMet => "not met",
            StepStatus::NotPlayed => "not played",
            StepStatus::NotChecked => "not checked",
        }
    }
}

/// What a claimed step the replay did not meet is told.
pub const CLAIM_NOT_MET: &str =
    "claimed but not met on replay: the code was altered or comes from another version";

impl CodeReport {
    /// A code that could not be checked at all.
    pub fn refused(code: usize, text: &str, malformed: bool, error: String) -> CodeReport {
        CodeReport {
            code,
            starts: starts_of(text),
            malformed,
            error: Some(error),
            lesson_id: None,
            lesson_title: None,
            steps: Vec::new(),
            met: 0,
            total: 0,
            mismatches: 0,
        }
    }
}

/// A code's first characters as the report shows them (control characters escaped).
pub fn starts_of(text: &str) -> String {
    let head: String = text.trim().chars().take(16).collect();
    crate::tooling::scenario::shown(&head)
}
