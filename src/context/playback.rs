//! How the run is being played: running or paused, how fast, what the last single step did, and how
//! the page is shown (presenter mode, reduced motion).

use leptos::prelude::*;

#[derive(Clone, Copy)]
pub struct PlaybackContext {
    pub playing: RwSignal<bool>,
    pub speed: RwSignal<f64>,
    /// What the last single step (forward or back) did, in words; cleared when the run moves on.
    pub stepped: RwSignal<Option<String>>,
    pub presenter: RwSignal<bool>,
    /// The reader asked the system for less motion: messages step along their line instead of gliding.
    pub reduced_motion: bool,
}

impl PlaybackContext {
    pub fn new(reduced_motion: bool) -> PlaybackContext {
        PlaybackContext {
            playing: RwSignal::new(true),
            speed: RwSignal::new(1.0),
            stepped: RwSignal::new(None),
            presenter: RwSignal::new(false),
            reduced_motion,
        }
    }
}
