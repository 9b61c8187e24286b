//! How the run is being played: running or paused, how fast, what the last single step did, and how
//! the page is shown (presenter mode, the schedule's lane open, embedded in another page, how much of it
//! a viewer may use, reduced motion).

use leptos::prelude::*;

/// How much of the page a viewer may use. An instructor embedding a run in a slide or a course page
/// can lock it (a kiosk: play, pause, step, scrub and change speed, but nothing that changes the world)
/// or hide the controls altogether.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kiosk {
    Full,
    Locked,
    Hidden,
}

#[derive(Clone, Copy)]
pub struct PlaybackContext {
    pub playing: RwSignal<bool>,
    pub speed: RwSignal<f64>,
    /// What the last single step (forward or back) did, in words; cleared when the run moves on.
    pub stepped: RwSignal<Option<String>>,
    pub presenter: RwSignal<bool>,
    /// Whether the fault schedule's lane is open (the gallery's demos and share links open it).
    pub schedule_open: RwSignal<bool>,
    /// Shown inside another page (an iframe): the cluster and its caption alone, no header or panels.
    pub embedded: RwSignal<bool>,
    pub kiosk: RwSignal<Kiosk>,
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
            schedule_open: RwSignal::new(false),
            embedded: RwSignal::new(false),
            kiosk: RwSignal::new(Kiosk::Full),
            reduced_motion,
        }
    }
}
