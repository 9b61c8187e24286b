//! Keyboard control for instructors: one window-wide listener that turns keys into the same actions
//! the buttons send, and the table of keys the shortcut sheet lists (so the two cannot drift apart).
//! A controller over `AppState`, not a component, so it sits beside the state it drives.

use crate::context::playback::Kiosk;
use crate::state::AppState;
use leptos::ev;
use leptos::prelude::*;
use quorumlab_sim::action::{Action, NodeTarget};
use quorumlab_sim::ids::NodeId;
use quorumlab_sim::world::NodeStatus;
use wasm_bindgen::JsCast;

/// Every shortcut and what it does, as the sheet shows them.
pub const SHORTCUTS: [(&str, &str); 21] = [
    ("Space", "play / pause (a focused node too)"),
    ("→", "step to the next event"),
    ("←", "step back to the previous event"),
    ("Home", "back to the start of the run (paused)"),
    ("End", "to the latest moment run so far (paused)"),
    ("− / +", "half / double speed"),
    ("K", "crash the leader"),
    ("P", "pause the leader"),
    ("I", "isolate the leader"),
    ("H", "heal every link"),
    ("R", "restart crashed nodes and resume paused ones"),
    ("W", "send a write to the leader"),
    ("1–9", "select node n1–n9 and focus it"),
    (
        "Enter",
        "on a focused node: its actions, beside it (arrows move, Esc closes)",
    ),
    (
        "Esc",
        "clear the selection / close this sheet / leave a slider or field",
    ),
    ("F", "presenter mode on / off"),
    (
        "PgDn / PgUp",
        "presenter mode: next / previous slide of the gallery or the lesson",
    ),
    (
        "B or .",
        "presenter mode: blank the screen (any key or a click brings it back)",
    ),
    ("L", "the lesson list"),
    ("?", "show this sheet"),
    ("G", "the scenario gallery"),
];

/// Who owns a key pressed with focus on a form control: a text field owns every key, a slider the keys
/// that move it; the rest are shortcuts. Before, any focused `<input>` swallowed every shortcut, so
/// after one drag of the speed slider Space, K and → did nothing until the learner clicked elsewhere.
fn control_owns_key(event: &web_sys::KeyboardEvent) -> bool {
    let Some(element) = event
        .target()
        .and_then(|target| target.dyn_into::<web_sys::Element>().ok())
    else {
        return false;
    };
    match element.tag_name().as_str() {
        "TEXTAREA" | "SELECT" => true,
        "INPUT" => match element.get_attribute("type").as_deref() {
            Some("range") => SLIDER_KEYS.contains(&event.key().as_str()),
            Some("checkbox" | "radio" | "button" | "submit" | "reset" | "file" | "color") => false,
            _ => true,
        },
        _ => false,
    }
}

/// The keys a focused slider moves itself with (its native behaviour, kept for keyboard users).
const SLIDER_KEYS: [&str; 8] = [
    "ArrowLeft",
    "ArrowRight",
    "ArrowUp",
    "ArrowDown",
    "Home",
    "End",
    "PageUp",
    "PageDown",
];

/// Esc lets go of a focused form control, so the next key is a shortcut again.
fn leave_control(event: &web_sys::KeyboardEvent) -> bool {
    let focused = event
        .target()
        .and_then(|target| target.dyn_into::<web_sys::HtmlElement>().ok())
        .filter(|element| matches!(element.tag_name().as_str(), "INPUT" | "TEXTAREA" | "SELECT"));
    match focused {
        Some(element) if event.key() == "Escape" => {
            _ = element.blur();
            true
        }
        _ => false,
    }
}

/// Multiplies the speed by `factor`, within the slider's limits.
fn scale_speed(state: &AppState, factor: f64) {
    let speed = state.parts().playback.speed.get_untracked();
    state.set_speed(speed * factor);
}

fn restart_everything(state: &AppState) {
    let nodes: Vec<(NodeId, NodeStatus)> = state.parts().run.view.with_untracked(|view| {
        view.nodes
            .iter()
            .map(|node| (node.id, node.status))
            .collect()
    });
    for (node, status) in nodes {
        let target = NodeTarget::Node(node);
        match status {
            NodeStatus::Crashed => state.apply(Action::Restart { target }),
            NodeStatus::Paused => state.apply(Action::Resume { target }),
            NodeStatus::Up => {}
        }
    }
}

/// Moves keyboard focus to `node` on the stage, so Enter next opens its actions (as the sheet says)
/// instead of pressing whatever button last held focus (the "?" that opened the sheet, say).
fn focus_node(node: NodeId) {
    let selector = format!("[data-testid=cluster-view] [data-testid=node-{node}]");
    if let Some(element) = document().query_selector(&selector).ok().flatten() {
        _ = element.unchecked_into::<web_sys::SvgElement>().focus();
    }
}

/// The keys a locked page (an embed's kiosk) still obeys: watching, never changing the world.
const WATCHING_KEYS: &[&str] = &[
    " ",
    "ArrowRight",
    "ArrowLeft",
    "Home",
    "End",
    "-",
    "_",
    "+",
    "=",
    "Escape",
    "?",
];

/// Performs the shortcut for `key`; false when the key is not one (so the browser keeps it).
pub fn handle_key(state: &AppState, key: &str) -> bool {
    let parts = state.parts();
    let locked = parts.playback.kiosk.get_untracked() != Kiosk::Full;
    if locked && !WATCHING_KEYS.contains(&key) {
        return false;
    }
    match key {
        " " => state.toggle_playing(),
        "ArrowRight" => state.step_once(),
        "ArrowLeft" => state.step_back(),
        "Home" => state.seek_us(0),
        "End" => {
            let latest = state.with_session(|session| session.horizon().as_micros());
            state.seek_us(latest);
        }
        "-" | "_" => scale_speed(state, 0.5),
        "+" | "=" => scale_speed(state, 2.0),
        "k" | "K" => state.apply_to_leader(|target| Action::Crash { target }),
        "p" | "P" => state.apply_to_leader(|target| Action::Pause {
            target,
            duration_ms: None,
        }),
        "i" | "I" => state.apply_to_leader(|target| Action::Isolate { target }),
        "h" | "H" => state.apply(Action::Heal),
        "r" | "R" => restart_everything(state),
        "w" | "W" => state.apply_to_leader(|target| Action::Request {
            count: 1,
            target,
            kind: quorumlab_sim::action::RequestKind::Put,
        }),
        "f" | "F" => parts
            .playback
            .presenter
            .update(|presenter| *presenter = !*presenter),
        "l" | "L" => parts.lesson.list_open.update(|open| *open = !*open),
        "?" => parts.notices.help_open.update(|open| *open = !*open),
        "g" | "G" => crate::gallery::route::open_gallery(),
        // One press closes one thing, the one on top: a second press is never needed to get past a
        // sheet, and a sheet's Escape does not also drop the selection underneath.
        "Escape" => {
            if parts.notices.help_open.get_untracked() {
                parts.notices.help_open.set(false);
            } else if parts.lesson.list_open.get_untracked() {
                parts.lesson.list_open.set(false);
            } else {
                parts.selection.selected.set(None);
            }
        }
        digit if digit.len() == 1 && ("1"..="9").contains(&digit) => {
            let index = digit.parse::<usize>().unwrap_or(1) - 1;
            if index < parts.run.view.with_untracked(|view| view.nodes.len()) {
                let node = NodeId(index as u16);
                parts.selection.selected.set(Some(node));
                focus_node(node);
            }
        }
        _ => return false,
    }
    true
}

/// Installs the window-wide key listener for the lifetime of the app.
pub fn install(state: AppState) {
    let deck = crate::components::deck::DeckState::here();
    let handle = window_event_listener(ev::keydown, move |event| {
        // A focused node or link already handled its own Enter (and a link its Space).
        if event.default_prevented() || event.ctrl_key() || event.meta_key() || event.alt_key() {
            return;
        }
        // On a blank screen any key only brings the picture back (see `components::deck`).
        if deck.is_some_and(|deck| deck.restore()) {
            event.prevent_default();
            return;
        }
        if deck.is_some_and(|deck| deck.page_shown()) {
            return;
        }
        if leave_control(&event) {
            event.prevent_default();
            return;
        }
        if control_owns_key(&event) {
            return;
        }
        // Space on a focused button would click it as well as toggle playback.
        let key = event.key();
        if key == " "
            && event
                .target()
                .and_then(|target| target.dyn_into::<web_sys::HtmlButtonElement>().ok())
                .is_some()
        {
            return;
        }
        if deck.is_some_and(|deck| deck.handle_key(&key)) || handle_key(&state, &key) {
            event.prevent_default();
        }
    });
    on_cleanup(move || handle.remove());
}
