//! The lesson block of a v3 link: where in a lesson the sharer was. It follows the position, so every
//! field before it reads exactly as in v2.
//!
//! Layout: 0 (no lesson) or 1, then the lesson id (length + UTF-8), the open step (0-based) and the
//! microsecond the step began. Whether the lesson exists here is not the link's business: a link from a
//! build with more lessons still opens its run, and the page says the lesson is not known.

use super::validate::MAX_SHARED_TIME;
use super::wire::{Reader, Writer};
use super::{ShareError, SharedLesson};
use quorumlab_sim::time::SimTime;

/// Longest lesson id, in bytes.
pub const MAX_LESSON_ID_BYTES: usize = 64;
/// Highest step number a link may name (no lesson comes near it).
pub const MAX_LESSON_STEP: u64 = 64;

pub fn write(writer: &mut Writer, lesson: Option<&SharedLesson>) {
    let Some(lesson) = lesson else {
        writer.flag(false);
        return;
    };
    writer.flag(true);
    writer.text(&lesson.id);
    writer.unsigned(lesson.step as u64);
    writer.unsigned(lesson.step_began.as_micros());
}

pub fn read(reader: &mut Reader<'_>) -> Result<Option<SharedLesson>, ShareError> {
    if !reader.flag("lesson")? {
        return Ok(None);
    }
    let id = reader.text("lesson id", MAX_LESSON_ID_BYTES)?;
    let step = reader.unsigned_at_most("lesson step", MAX_LESSON_STEP)? as usize;
    let step_began = SimTime(reader.unsigned("lesson step began")?);
    Ok(Some(SharedLesson {
        id,
        step,
        step_began,
    }))
}

/// The id is a lesson id's shape, the step in range, and the step began no later than the instant shown.
pub fn validate(lesson: &SharedLesson, position: SimTime) -> Result<(), ShareError> {
    let well_formed = !lesson.id.is_empty()
        && lesson.id.len() <= MAX_LESSON_ID_BYTES
        && lesson.id.chars().all(|character| {
            character.is_ascii_lowercase() || character.is_ascii_digit() || character == '-'
        });
    if !well_formed {
        return Err(ShareError::OutOfRange {
            field: "lesson id".into(),
            value: format!("`{}`", lesson.id.chars().take(40).collect::<String>()),
            expected: format!("1 to {MAX_LESSON_ID_BYTES} lowercase letters, digits and dashes"),
        });
    }
    if lesson.step as u64 > MAX_LESSON_STEP {
        return Err(ShareError::OutOfRange {
            field: "lesson step".into(),
            value: lesson.step.to_string(),
            expected: format!("0..={MAX_LESSON_STEP}"),
        });
    }
    if lesson.step_began > position || lesson.step_began > MAX_SHARED_TIME {
        return Err(ShareError::OutOfRange {
            field: "lesson step began".into(),
            value: lesson.step_began.to_string(),
            expected: format!("no later than the position shown ({position})"),
        });
    }
    Ok(())
}
