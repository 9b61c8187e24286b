//! The app's state in narrow parts, so a component asks for what it reads and nothing more.
//!
//! The parts are handles to the same signals the composition root (`crate::state::AppState`) owns and
//! changes: a component that only draws the run asks for [`run::RunContext`] ([`use_run`]), one that
//! follows the pointer for [`hover::HoverContext`] ([`use_hover`]), and one that acts on the run
//! (apply, seek, step, restart) for its controls (`crate::state::controls::use_controls`), a handle
//! with methods and no signals. No component asks for the root itself (but `pbft_panel`, not yet
//! moved). The root provides its parts next to itself (`AppState::provide`), for the page and again
//! for a comparison's right side, whose components then read the right run through the same calls.
//!
//! The parts travel as one [`Parts`] value, read through the `use_*` functions: each type looked up in
//! the context costs its own copy of the lookup in the wasm (about 0.7 kB apiece), and a lookup per
//! part made the app larger than the hub it replaced. The `use_*` functions are never inlined, for the
//! same reason: once components asked for two or three parts each, a lookup copied into every call
//! site cost more than one shared function per part (measured 2026-12-06, in builds a few small edits
//! apart: inlined, the release wasm was about 1.8 kB larger).
//!
//! Nothing here imports the root or the drivers (lesson, compare): a part is a bundle of signals with
//! the few reads that belong to it.

pub mod generation;
pub mod hover;
pub mod lesson;
pub mod notice;
pub mod playback;
pub mod run;
pub mod selection;
pub mod story;

use hover::HoverContext;
use leptos::prelude::expect_context;
use lesson::LessonContext;
use notice::NoticeContext;
use playback::PlaybackContext;
use run::RunContext;
use selection::SelectionContext;
use story::StoryContext;

/// Every narrow part of one run's state, provided together (see the module's words on size).
#[derive(Clone, Copy)]
pub struct Parts {
    pub run: RunContext,
    pub playback: PlaybackContext,
    pub selection: SelectionContext,
    pub hover: HoverContext,
    pub notices: NoticeContext,
    pub story: StoryContext,
    pub lesson: LessonContext,
}

#[inline(never)]
/// The run as the components above this one see it (the page's, or a comparison side's).
pub fn use_run() -> RunContext {
    expect_context::<Parts>().run
}

#[inline(never)]
pub fn use_playback() -> PlaybackContext {
    expect_context::<Parts>().playback
}

#[inline(never)]
pub fn use_selection() -> SelectionContext {
    expect_context::<Parts>().selection
}

#[inline(never)]
pub fn use_hover() -> HoverContext {
    expect_context::<Parts>().hover
}

#[inline(never)]
pub fn use_notices() -> NoticeContext {
    expect_context::<Parts>().notices
}

#[inline(never)]
pub fn use_story() -> StoryContext {
    expect_context::<Parts>().story
}

#[inline(never)]
pub fn use_lesson() -> LessonContext {
    expect_context::<Parts>().lesson
}
