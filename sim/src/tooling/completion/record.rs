//! What a completion code holds, as plain serde structs read and written by postcard (field order is
//! the format: add fields only at the end of a new version prefix, never in the middle).
//!
//! A lesson is played on one or more runs: a lesson whose later step has a world of its own opens a
//! fresh run there, and a learner may start a fresh run from the run settings (lesson 11's last step
//! asks for it). Each run is a [`LessonRunRecord`]: the step open when it began and everything needed
//! to rebuild it. A run covers the steps from its `first_step` up to the next run's, so the runs are
//! in strictly increasing `first_step` order.

use crate::base::time::SimTime;
use crate::contract::action::Action;
use crate::engine::history::RecordedAction;
use serde::{Deserialize, Serialize};

/// One learner's work on one lesson.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CompletionCode {
    /// The lesson's id (`leader-election`).
    pub lesson_id: String,
    /// FNV-1a of the lesson file the learner ran (`LessonFile::text_hash`).
    pub lesson_hash: u64,
    /// `BEHAVIOUR_VERSION` of the engine that made the runs.
    pub behaviour_version: u32,
    /// Per step of the lesson, in order: what the page recorded.
    pub steps: Vec<StepRecord>,
    /// The runs, in strictly increasing `first_step`.
    pub runs: Vec<LessonRunRecord>,
}

/// What the page recorded about one step.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct StepRecord {
    /// "Show me" was pressed on this step (or the page played it for a deep link to a later step).
    pub show_me: bool,
    /// The page ticked this step. Only a claim: checking replays the run to see.
    pub claimed_met: bool,
    /// When the page ticked it (µs of its run). The replay judges the step at this instant too, as the
    /// page did after a click while paused; a judgement there only reads the replayed world, so an
    /// instant made up cannot meet what the run did not.
    pub ticked_us: Option<u64>,
}

/// One run a lesson was played on.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LessonRunRecord {
    /// The step (0-based) open when this run began; the lesson's world for that step is its scenario.
    pub first_step: u16,
    /// The run's seed.
    pub seed: u64,
    /// The whole scenario as TOML when the learner changed more than the seed (run settings).
    pub settings_toml: Option<String>,
    /// When the lesson began watching `first_step` on this run (µs of simulated time).
    pub began_us: u64,
    /// How far the run was played (µs).
    pub played_to_us: u64,
    /// Every recorded action, the scenario's own steps included, each placed relative to the one before.
    pub actions: Vec<CodeAction>,
}

/// A recorded action, placed relative to the previous one (so the order cannot be broken).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CodeAction {
    pub since_previous_us: u64,
    pub events_since_previous: u64,
    pub action: Action,
}

/// `actions` as a code holds them.
pub fn code_actions(actions: &[RecordedAction]) -> Vec<CodeAction> {
    let mut previous = (0, 0);
    actions
        .iter()
        .map(|recorded| {
            let at = (recorded.at.as_micros(), recorded.after_events);
            let placed = CodeAction {
                since_previous_us: at.0.saturating_sub(previous.0),
                events_since_previous: at.1.saturating_sub(previous.1),
                action: recorded.action.clone(),
            };
            previous = at;
            placed
        })
        .collect()
}

/// The recorded actions back, or `None` if a time or count overflows (only a forged code does).
pub fn recorded_actions(actions: &[CodeAction]) -> Option<Vec<RecordedAction>> {
    let mut at_us: u64 = 0;
    let mut events: u64 = 0;
    actions
        .iter()
        .map(|placed| {
            at_us = at_us.checked_add(placed.since_previous_us)?;
            events = events.checked_add(placed.events_since_previous)?;
            Some(RecordedAction {
                at: SimTime(at_us),
                after_events: events,
                action: placed.action.clone(),
            })
        })
        .collect()
}

impl LessonRunRecord {
    /// A run of `seed` (settings unchanged) whose watch began at `began`, played to `played_to`.
    pub fn new(
        first_step: usize,
        seed: u64,
        began: SimTime,
        played_to: SimTime,
        actions: &[RecordedAction],
    ) -> LessonRunRecord {
        LessonRunRecord {
            first_step: u16::try_from(first_step).unwrap_or(u16::MAX),
            seed,
            settings_toml: None,
            began_us: began.as_micros(),
            played_to_us: played_to.as_micros(),
            actions: code_actions(actions),
        }
    }
}

impl CompletionCode {
    /// A code for `lesson` as this build runs it, with the page's records.
    pub fn new(
        lesson: &crate::tooling::lesson::Lesson,
        steps: Vec<StepRecord>,
        runs: Vec<LessonRunRecord>,
    ) -> CompletionCode {
        CompletionCode {
            lesson_id: lesson.id.clone(),
            lesson_hash: lesson.source_hash,
            behaviour_version: crate::tooling::behaviour::BEHAVIOUR_VERSION,
            steps,
            runs,
        }
    }
}
