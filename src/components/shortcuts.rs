//! The sheet that lists the keyboard shortcuts (press ?); the keys themselves are `crate::keyboard`.
//!
//! A dialog: opening it moves focus to its Close button, and closing it (Escape, Close, a press on
//! the backdrop) hands focus back to what held it before. Without that, focus stayed on the header's
//! "?" button behind the sheet, and the next Enter (meant for a node chosen with 1–9) opened the sheet
//! again.

use crate::context::notice::NoticeContext;
use crate::context::use_notices;
use crate::keyboard::SHORTCUTS;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

const CLOSE_SELECTOR: &str = "[data-testid=shortcut-sheet] [data-testid=shortcut-sheet-close]";

fn focused_element() -> Option<web_sys::HtmlElement> {
    document()
        .active_element()
        .and_then(|active| active.dyn_into::<web_sys::HtmlElement>().ok())
}

/// Moves focus in when the sheet opens and back out when it closes.
fn hand_focus_over(notices: NoticeContext) {
    let opener = StoredValue::new_local(None::<web_sys::HtmlElement>);
    Effect::new(move |was_open: Option<bool>| {
        let open = notices.help_open.get();
        match (was_open.unwrap_or(false), open) {
            (false, true) => {
                opener.set_value(focused_element());
                // The sheet is drawn by the time the next frame runs.
                request_animation_frame(|| {
                    if let Some(close) = document().query_selector(CLOSE_SELECTOR).ok().flatten() {
                        _ = close.unchecked_into::<web_sys::HtmlElement>().focus();
                    }
                });
            }
            (true, false) => {
                let back = opener.try_update_value(Option::take).flatten();
                if let Some(back) = back.filter(|back| back.is_connected()) {
                    _ = back.focus();
                }
            }
            _ => {}
        }
        open
    });
}

#[component]
pub fn ShortcutSheet() -> impl IntoView {
    let notices = use_notices();
    hand_focus_over(notices);
    view! {
        <Show when=move || notices.help_open.get()>
            <div class="sheet-backdrop" on:click=move |_| notices.help_open.set(false)>
                <div class="sheet" role="dialog" aria-modal="true" aria-label="Keyboard shortcuts" data-testid="shortcut-sheet"
                    on:click=|event| event.stop_propagation()>
                    <h2>"Keyboard shortcuts"</h2>
                    <dl class="shortcut-list">
                        {SHORTCUTS.iter().map(|(key, what)| view! { <div class="shortcut"><dt><kbd>{*key}</kbd></dt><dd>{*what}</dd></div> }).collect_view()}
                    </dl>
                    <button class="primary" data-testid="shortcut-sheet-close" on:click=move |_| notices.help_open.set(false)>"Close"</button>
                </div>
            </div>
        </Show>
    }
}
