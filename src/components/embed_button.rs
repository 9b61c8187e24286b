//! The header's Embed action, beside Share: an `<iframe>` snippet that shows this run, from the moment on
//! screen, inside a slide or a course page (`share::embed_snippet`). The instructor chooses how much the
//! viewers may do there — play and scrub only (a kiosk, the default: nobody changes the world under the
//! class), everything, or nothing (the run plays by itself) — whether it plays at once, and its theme.
//! The link inside is an ordinary share link with view options (`share::view_options`), so it opens
//! offline and from any path like every other link.

use super::press_outside::close_on_press_outside;
use super::share_button::{moment_on_screen, Moment};
use crate::context::notice::Notice;
use crate::context::playback::Kiosk;
use crate::context::{use_notices, use_playback, use_run};
use crate::share::embed_snippet::iframe_snippet;
use crate::share::view_options::ViewOptions;
use crate::state::controls::use_controls;
use crate::theme::ThemeChoice;
use crate::web_io;
use leptos::prelude::*;

const KIOSK_CHOICES: [(Kiosk, &str, &str); 3] = [
    (Kiosk::Locked, "locked", "play and scrub only"),
    (
        Kiosk::Full,
        "full",
        "everything (viewers can change the run)",
    ),
    (Kiosk::Hidden, "hidden", "none: it plays by itself"),
];
const THEME_CHOICES: [(ThemeChoice, &str); 3] = [
    (ThemeChoice::Light, "light"),
    (ThemeChoice::Dark, "dark"),
    (ThemeChoice::System, "the viewer's own"),
];

#[component]
pub fn EmbedButton() -> impl IntoView {
    let run = use_run();
    let playback = use_playback();
    let notices = use_notices();
    let controls = use_controls();
    let open = RwSignal::new(false);
    let kiosk = RwSignal::new(Kiosk::Locked);
    let autoplay = RwSignal::new(false);
    let theme = RwSignal::new(ThemeChoice::Light);
    // The run's part of the link, taken when the panel opens: the moment on screen then.
    let moment = RwSignal::new(None::<Moment>);
    close_on_press_outside(".embed-menu", open);
    let toggle = move |_| {
        if open.get_untracked() {
            open.set(false);
            return;
        }
        match moment_on_screen(run, controls) {
            Ok(made) => {
                moment.set(Some(made));
                open.set(true);
            }
            Err(error) => notices.notice.set(Some(Notice {
                text: error.refusal_text().replacen("shared", "embedded", 1),
                is_error: true,
            })),
        }
    };
    let snippet = move || {
        let view = ViewOptions {
            embedded: Some(true),
            kiosk: Some(kiosk.get()),
            autoplay: autoplay.get().then_some(true),
            theme: Some(theme.get()),
            ..ViewOptions::of_page(playback.speed.get_untracked(), false, false)
        };
        let fragment =
            moment.with(|moment| moment.as_ref().map(|moment| moment.with_view(view)))?;
        let address = format!("{}{fragment}", web_io::page_address()?);
        let title = run
            .scenario
            .with_untracked(|scenario| scenario.title.clone());
        Some(iframe_snippet(&address, &title))
    };
    let copy = move |_| {
        let Some(text) = snippet() else { return };
        web_io::copy_text(&text, move |copied| {
            let text = if copied {
                "Embed code copied: paste it into your slide or page"
            } else {
                "Select the embed code and copy it (the browser did not allow copying)"
            };
            _ = notices.notice.try_set(Some(Notice {
                text: text.to_string(),
                is_error: false,
            }));
        });
    };
    view! {
        <div class="embed-menu" on:keydown=move |event| {
            if event.key() == "Escape" && open.get_untracked() {
                event.stop_propagation();
                open.set(false);
            }
        }>
            <button data-testid="embed-button" aria-expanded=move || open.get().to_string() aria-controls="embed-choices"
                on:click=toggle title="Show this run, from this moment, inside a slide or a course page">"Embed"</button>
            <Show when=move || open.get()>
                <div class="embed-choices" id="embed-choices" role="group" aria-label="Embed this run" data-testid="embed-choices">
                    <label>"Viewers' controls "
                        <select data-testid="embed-controls" on:change=move |event| {
                            let word = event_target_value(&event);
                            if let Some((choice, _, _)) = KIOSK_CHOICES.iter().find(|(_, value, _)| *value == word) {
                                kiosk.set(*choice);
                            }
                        }>
                            {KIOSK_CHOICES.iter().map(|(choice, value, words)| view! {
                                <option value=*value selected=kiosk.get_untracked() == *choice>{*words}</option>
                            }).collect_view()}
                        </select>
                    </label>
                    <label><input type="checkbox" data-testid="embed-autoplay" prop:checked=move || autoplay.get()
                        on:change=move |event| autoplay.set(event_target_checked(&event)) />" Play at once"</label>
                    <label>"Theme "
                        <select data-testid="embed-theme" on:change=move |event| {
                            let word = event_target_value(&event);
                            if let Some((choice, _)) = THEME_CHOICES.iter().find(|(choice, _)| choice.as_str() == word) {
                                theme.set(*choice);
                            }
                        }>
                            {THEME_CHOICES.iter().map(|(choice, words)| view! {
                                <option value=choice.as_str() selected=theme.get_untracked() == *choice>{*words}</option>
                            }).collect_view()}
                        </select>
                    </label>
                    <textarea readonly rows="4" aria-label="Embed code" data-testid="embed-snippet"
                        prop:value=move || snippet().unwrap_or_default()></textarea>
                    <button class="primary" data-testid="embed-copy" on:click=copy>"Copy embed code"</button>
                    <p class="hint">"A 960 × 540 frame (a 16:9 slide) showing this run from this moment. Paste it into any page that takes HTML."</p>
                </div>
            </Show>
        </div>
    }
}
