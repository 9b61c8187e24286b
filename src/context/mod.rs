//! The app's state in narrow parts, each provided as a context of its own, so a component asks for
//! what it reads and nothing more.
//!
//! The parts are handles to the same signals the composition root (`crate::state::AppState`) owns and
//! changes: a component that only draws the run asks for [`run::RunContext`], one that follows the
//! pointer for [`hover::HoverContext`], and only the controls that act on the run (apply, seek, step,
//! restart) still ask for the root itself. The root provides every part next to itself
//! (`AppState::provide`), for the page and again for a comparison's right side, whose components then
//! read the right run through the very same contexts.
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
