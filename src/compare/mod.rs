//! Compare mode: the run shown (the left side) paired with a second run of the same scenario and seed
//! whose named options differ (the right side). The right side is a second [`AppState`] that follows
//! the left one: it is brought to the same instant whenever the left one publishes, every action is
//! applied to both at that instant, and controls used on the right are handed to the left, so the two
//! share one clock and one timeline. The engine's `compare` and `difference` modules say which
//! options may differ and how the two runs differ so far.
//!
//! [`AppState`]: crate::state::AppState

pub mod address;
pub mod hook;
pub mod link;
pub mod lockstep;
pub mod open;
