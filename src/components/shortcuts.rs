//! The sheet that lists the keyboard shortcuts (press ?); the keys themselves are `crate::keyboard`.

use crate::keyboard::SHORTCUTS;
use crate::state::AppState;
use leptos::prelude::*;

#[component]
pub fn ShortcutSheet() -> impl IntoView {
    let state = expect_context::<AppState>();
    view! {
        <Show when=move || state.help_open.get()>
            <div class="sheet-backdrop" on:click=move |_| state.help_open.set(false)>
                <div class="sheet" role="dialog" aria-modal="true" aria-label="Keyboard shortcuts" data-testid="shortcut-sheet"
                    on:click=|event| event.stop_propagation()>
                    <h2>"Keyboard shortcuts"</h2>
                    <dl class="shortcut-list">
                        {SHORTCUTS.iter().map(|(key, what)| view! { <div class="shortcut"><dt><kbd>{*key}</kbd></dt><dd>{*what}</dd></div> }).collect_view()}
                    </dl>
                    <button class="primary" on:click=move |_| state.help_open.set(false)>"Close"</button>
                </div>
            </div>
        </Show>
    }
}
