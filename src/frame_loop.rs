//! Drives the simulation from `requestAnimationFrame`: each frame advances simulated time by the wall
//! time since the last one (scaled by the playback speed) and republishes the view.
//!
//! This is where the frame's drivers are composed: an open lesson drives the run itself (stopping at
//! its checks and "show me" moments), and otherwise the run plays on its own. The state knows neither
//! driver; the lesson knows the state.

use crate::lesson::live;
use crate::state::AppState;
use leptos::prelude::*;

/// Wall-clock milliseconds since the page opened (0 where there is no window, as in native tests).
pub fn now_ms() -> f64 {
    web_sys::window()
        .and_then(|window| window.performance())
        .map_or(0.0, |performance| performance.now())
}

pub fn start(state: AppState) {
    schedule(state, now_ms());
}

fn schedule(state: AppState, previous_ms: f64) {
    request_animation_frame(move || {
        let current_ms = now_ms();
        // An open lesson advances the run itself, stopping at its checks and "show me" moments.
        if state.on_frame(current_ms - previous_ms, live::drive_frame) {
            schedule(state, current_ms);
        }
    });
}
