//! What a search has done so far, told while it runs, so a page can show it moving and a learner can
//! decide to wait or cancel.
//!
//! The search calls an observer after every schedule it walks (a walk replays one schedule from the
//! scenario's start, a few milliseconds at most in the worlds here); the observer decides how often to
//! pass it on. Nothing the observer does changes the search, so a watched search and an unwatched one
//! return the same report.

use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Progress {
    /// Distinct states visited so far.
    pub states: u64,
    /// States reached again and cut off.
    pub duplicates: u64,
    /// The level being walked: schedules of this many steps.
    pub depth: u32,
    /// Schedules waiting to be walked: the rest of this level and the next level so far.
    pub frontier: u64,
    /// The most faults (of every kind) any schedule walked so far has used.
    pub faults_in_use: u32,
}
