//! Drives the simulation from `requestAnimationFrame`: each frame advances simulated time by the wall
//! time since the last one (scaled by the playback speed) and republishes the view.
//!
//! This is where the frame's drivers are composed: an open lesson drives the run itself (stopping at
//! its checks and "show me" moments), and otherwise the run plays on its own. The state knows neither
//! driver; the lesson knows the state.

use crate::lesson::live;
use crate::state::{AppState, Frame};
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
        if on_frame(state, current_ms - previous_ms) {
            schedule(state, current_ms);
        }
    });
}

/// One frame of `wall_ms` of wall-clock time. Returns false once the app has been unmounted, which
/// ends the frame loop.
fn on_frame(state: AppState, wall_ms: f64) -> bool {
    match state.begin_frame() {
        Frame::Gone => false,
        Frame::Paused => true,
        Frame::Playing { speed } => {
            if !live::drive_frame(state, wall_ms, speed) {
                state.advance_frame(wall_ms, speed);
            }
            true
        }
    }
}
