//! The lesson block of a v3 body: where in a lesson the sharer was. It follows the position, so every
//! field before it reads exactly as in v2.
//!
//! Layout: 0 (no lesson) or 1, then the lesson id (length + UTF-8), the open step (0-based) and the
//! microsecond the step began.

use super::reader::Reader;
use crate::share::body::LinkLesson;
use crate::share::validate::{MAX_LESSON_ID_BYTES, MAX_LESSON_STEP};
use crate::share::ShareError;

pub fn read(reader: &mut Reader<'_>) -> Result<Option<LinkLesson>, ShareError> {
    if !reader.flag("lesson")? {
        return Ok(None);
    }
    let id = reader.text("lesson id", MAX_LESSON_ID_BYTES)?;
    let step = reader.unsigned_at_most("lesson step", MAX_LESSON_STEP)?;
    let step_began_us = reader.unsigned("lesson step began")?;
    Ok(Some(LinkLesson {
        id,
        step,
        step_began_us,
    }))
}
