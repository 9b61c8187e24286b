//! What a shared run may hold. The same checks run before a link is made and after one is read: the
//! scenario and every recorded action against the engine's one rule set (`Scenario::validate`,
//! `validate_action`), so a link can never carry a run a scenario file could not — plus what only a
//! link limits: its title, the recorded actions' count and order, how far the run has gone, the lesson.

use super::{ShareError, SharedLesson, SharedRun};
use quorumlab_sim::history::RecordedAction;
use quorumlab_sim::scenario::Invalid;
use quorumlab_sim::scenario::{nodes_after, shown, validate_action, Scenario, MAX_DURATION_MS};
use quorumlab_sim::time::SimTime;

/// Most recorded actions one link may carry.
pub const MAX_SHARED_ACTIONS: usize = 5_000;
/// Longest title, in UTF-8 bytes.
pub const MAX_TITLE_BYTES: usize = 200;
/// Furthest simulated instant a link may point at or record an action at: the longest scenario.
pub const MAX_SHARED_TIME: SimTime = SimTime(MAX_DURATION_MS * 1_000);

/// Longest lesson id, in bytes.
pub const MAX_LESSON_ID_BYTES: usize = 64;
/// Highest step number a link may name (no lesson comes near it).
pub const MAX_LESSON_STEP: u64 = 64;

pub fn run(run: &SharedRun) -> Result<(), ShareError> {
    scenario(&run.scenario)?;
    recorded_actions(&run.actions, actor_count(&run.scenario))?;
    at_most_time("position", run.position)?;
    match &run.lesson {
        Some(lesson) => self::lesson(lesson, run.position),
        None => Ok(()),
    }
}

/// How many nodes actions of `scenario` may name: the servers, then any workers and the store.
pub fn actor_count(scenario: &Scenario) -> usize {
    scenario.actor_count()
}

/// The id is a lesson id's shape, the step in range, and the step began no later than the instant
/// shown. Whether the lesson exists here is not the link's business: a link from a build with more
/// lessons still opens its run, and the page says the lesson is not known.
fn lesson(lesson: &SharedLesson, position: SimTime) -> Result<(), ShareError> {
    let well_formed = !lesson.id.is_empty()
        && lesson.id.len() <= MAX_LESSON_ID_BYTES
        && lesson.id.chars().all(|character| {
            character.is_ascii_lowercase() || character.is_ascii_digit() || character == '-'
        });
    if !well_formed {
        return Err(ShareError::Invalid(Invalid::OutOfRange {
            field: "lesson id".into(),
            value: format!("`{}`", shown(&lesson.id)),
            expected: format!("1 to {MAX_LESSON_ID_BYTES} lowercase letters, digits and dashes"),
        }));
    }
    if lesson.step as u64 > MAX_LESSON_STEP {
        return Err(ShareError::Invalid(Invalid::OutOfRange {
            field: "lesson step".into(),
            value: lesson.step.to_string(),
            expected: format!("0..={MAX_LESSON_STEP}"),
        }));
    }
    if lesson.step_began > position || lesson.step_began > MAX_SHARED_TIME {
        return Err(ShareError::Invalid(Invalid::OutOfRange {
            field: "lesson step began".into(),
            value: lesson.step_began.to_string(),
            expected: format!("no later than the position shown ({position})"),
        }));
    }
    Ok(())
}

/// The scenario against the format's own rules (`Scenario::validate`, the one rule set every path
/// shares), plus what only a link refuses: a long title, and the test-only unsafe Raft switch.
fn scenario(scenario: &Scenario) -> Result<(), ShareError> {
    if scenario.title.len() > MAX_TITLE_BYTES {
        return Err(ShareError::Invalid(Invalid::TooMany {
            field: "title".into(),
            count: scenario.title.len() as u64,
            max: MAX_TITLE_BYTES as u64,
        }));
    }
    if scenario.raft.unsafe_commit_previous_term {
        return Err(ShareError::NotShareable {
            setting: "unsafe_commit_previous_term",
        });
    }
    Ok(scenario.validate()?)
}

/// What a link cannot carry although a trace or scenario file can: a v4 link has no room for the
/// membership mode (a new field needs a new version), so it is refused rather than let the link open
/// the safe mode instead. Checked only when a link is made; a file keeps the mode and imports.
pub fn linkable(run: &SharedRun) -> Result<(), ShareError> {
    if run.scenario.raft.membership != quorumlab_sim::config::MembershipMode::Log {
        return Err(ShareError::NotShareable {
            setting: super::error::DIRECT_MEMBERSHIP_SETTING,
        });
    }
    if run.scenario.timing.persist_ms != (0, 0) {
        return Err(ShareError::NotShareable {
            setting: "[timing] persist_ms",
        });
    }
    if run.scenario.timing.timer_jitter_us != 0 {
        return Err(ShareError::NotShareable {
            setting: "[timing] timer_jitter_us",
        });
    }
    Ok(())
}

fn recorded_actions(actions: &[RecordedAction], mut node_count: usize) -> Result<(), ShareError> {
    at_most_count("recorded actions", actions.len(), MAX_SHARED_ACTIONS)?;
    let mut previous: Option<&RecordedAction> = None;
    for (index, recorded) in actions.iter().enumerate() {
        let place = format!("action {}", index + 1);
        if let Some(previous) = previous {
            nondecreasing(&place, "time (µs)", previous.at.0, recorded.at.0)?;
            nondecreasing(
                &place,
                "event count",
                previous.after_events,
                recorded.after_events,
            )?;
        }
        at_most_time(&format!("{place} time"), recorded.at)?;
        validate_action(&place, &recorded.action, node_count)?;
        // An added server may be named by the actions after it.
        node_count = nodes_after(&recorded.action, node_count);
        previous = Some(recorded);
    }
    Ok(())
}

fn nondecreasing(place: &str, field: &str, previous: u64, found: u64) -> Result<(), ShareError> {
    if found < previous {
        return Err(ShareError::Invalid(Invalid::OutOfOrder {
            field: format!("{place} {field}"),
            previous,
            found,
        }));
    }
    Ok(())
}

fn at_most_time(field: &str, time: SimTime) -> Result<(), ShareError> {
    if time > MAX_SHARED_TIME {
        return Err(ShareError::Invalid(Invalid::OutOfRange {
            field: field.into(),
            value: time.to_string(),
            expected: format!("at most {MAX_SHARED_TIME} (one simulated hour)"),
        }));
    }
    Ok(())
}

fn at_most_count(field: &str, count: usize, max: usize) -> Result<(), ShareError> {
    if count > max {
        return Err(ShareError::Invalid(Invalid::TooMany {
            field: field.into(),
            count: count as u64,
            max: max as u64,
        }));
    }
    Ok(())
}
