//! Header menus (Export, Embed) close when the reader presses anywhere outside them, as menus do.

use leptos::prelude::*;

/// Sets `open` to false on any press outside the element matching `menu_selector`, for as long as the
/// calling component lives.
pub fn close_on_press_outside(menu_selector: &'static str, open: RwSignal<bool>) {
    let listener = window_event_listener(leptos::ev::pointerdown, move |event| {
        let inside = event_target::<web_sys::Element>(&event)
            .closest(menu_selector)
            .ok()
            .flatten()
            .is_some();
        if !inside && open.get_untracked() {
            open.set(false);
        }
    });
    on_cleanup(move || listener.remove());
}
