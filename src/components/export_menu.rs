//! The header's "Export" button: the cluster view or the space-time diagram as an SVG or a PNG file,
//! named after the scenario and the moment shown. It stays in the header in presenter mode, where
//! instructors make their slides (the space-time diagram is hidden there but still drawn, so it can still
//! be saved). Two visible options shape the picture — the words around it (title, time, caption,
//! invariants, legend) or the drawing only, and light colours or those on screen — and are kept for the
//! browser tab's session, so a series of slides comes out alike.

use super::press_outside::close_on_press_outside;
use crate::context::notice::{Notice, NoticeContext};
use crate::context::run::RunContext;
use crate::context::{use_notices, use_run};
use crate::export::inline_svg::export_svg;
use crate::export::{
    context_as_stored, context_from_stored, file_name, png, ExportOptions, ExportTheme, Format,
    Picture, PNG_SCALE,
};
use crate::format;
use crate::lazy_part::PartMissing;
use crate::web_io;
use leptos::prelude::*;

/// Builds the picture and offers it as a download; the notice bar says what was saved or why not.
/// Lazy (`crate::lazy_part`): the picture-drawing code arrives with the first export.
#[cfg_attr(feature = "split", leptos::wasm_split::wasm_split(export_picture, wasm_split_path = ::leptos::wasm_split, fallible))]
fn save(
    run: RunContext,
    notices: NoticeContext,
    picture: Picture,
    format: Format,
    options: ExportOptions,
) -> Result<(), PartMissing> {
    let title = run
        .scenario
        .with_untracked(|scenario| scenario.title.clone());
    let now_us = run.view.with_untracked(|view| view.now_us);
    let name = file_name(&title, picture, now_us, format);
    let caption = format!(
        "Quorum Lab: {title}, {} at {}",
        picture.title().to_lowercase(),
        format::sim_time(now_us)
    );
    let svg = match export_svg(picture, &caption, &title, options) {
        Ok(svg) => svg,
        Err(reason) => {
            report(notices, &name, Err(reason));
            return Ok(());
        }
    };
    match format {
        Format::Svg => {
            let saved = web_io::download_text(&name, "image/svg+xml", &svg.text);
            report(notices, &name, saved);
        }
        Format::Png => png::svg_to_png(&svg, PNG_SCALE, move |drawn| {
            let saved = drawn.and_then(|blob| web_io::download_blob(&name, &blob));
            report(notices, &name, saved);
        }),
    }
    Ok(())
}

/// Starts [`save`]; if the picture-drawing code cannot be fetched, the notice bar says so.
fn start_saving(
    run: RunContext,
    notices: NoticeContext,
    picture: Picture,
    format: Format,
    options: ExportOptions,
) {
    leptos::task::spawn_local(async move {
        if crate::arrival!(save(run, notices, picture, format, options))
            .await
            .is_err()
        {
            let notice = Notice {
                text: "Could not export: the page could not fetch the picture-drawing code. If you are \
                       offline, reconnect and try again."
                    .to_string(),
                is_error: true,
            };
            _ = notices.notice.try_set(Some(notice));
        }
    });
}

fn report(notices: NoticeContext, name: &str, saved: Result<(), String>) {
    let notice = match saved {
        Ok(()) => Notice {
            text: format!("Saved {name}"),
            is_error: false,
        },
        Err(reason) => Notice {
            text: format!("Could not export {name}: {reason}"),
            is_error: true,
        },
    };
    _ = notices.notice.try_set(Some(notice));
}

/// sessionStorage keys of the two options.
const CONTEXT_KEY: &str = "quorumlab-export-context";
const THEME_KEY: &str = "quorumlab-export-theme";

fn session_storage() -> Option<web_sys::Storage> {
    web_sys::window()?.session_storage().ok().flatten()
}

fn stored(key: &str) -> Option<String> {
    session_storage()?.get_item(key).ok().flatten()
}

/// Keeps `value` for the tab's session; a refused write (private mode) only loses the memory.
fn store(key: &str, value: &str) {
    if let Some(storage) = session_storage() {
        let _ = storage.set_item(key, value);
    }
}

/// The two options as visible controls: a checkbox for the words around the picture, a select for
/// its colours.
#[component]
fn ExportOptionsFields(context: RwSignal<bool>, theme: RwSignal<ExportTheme>) -> impl IntoView {
    view! {
        <label class="export-option">
            // Space ticks the box here: left to bubble, the page's shortcuts would take it for play/pause
            // (they treat a checkbox as no owner of keys) and cancel the tick.
            <input type="checkbox" data-testid="export-context" prop:checked=move || context.get()
                on:keydown=move |event| {
                    if event.key() == " " {
                        event.stop_propagation();
                    }
                }
                on:change=move |event| {
                    let include = event_target_checked(&event);
                    context.set(include);
                    store(CONTEXT_KEY, context_as_stored(include));
                } />
            " Title, time, caption, invariants and legend"
        </label>
        <label class="export-option">
            "Colours "
            <select data-testid="export-theme" on:change=move |event| {
                let chosen = ExportTheme::from_stored(Some(&event_target_value(&event)));
                theme.set(chosen);
                store(THEME_KEY, chosen.as_str());
            }>
                {ExportTheme::ALL.iter().map(|choice| view! {
                    <option value=choice.as_str() selected=move || theme.get() == *choice>{choice.label()}</option>
                }).collect_view()}
            </select>
        </label>
    }
}

#[component]
pub fn ExportMenu() -> impl IntoView {
    let run = use_run();
    let notices = use_notices();
    let open = RwSignal::new(false);
    Effect::new(move |_| crate::export::menu_open().set(open.get()));
    let context = RwSignal::new(context_from_stored(stored(CONTEXT_KEY).as_deref()));
    let theme = RwSignal::new(ExportTheme::from_stored(stored(THEME_KEY).as_deref()));
    let button = NodeRef::<leptos::html::Button>::new();
    close_on_press_outside(".export-menu", open);
    let close_and_refocus = move || {
        open.set(false);
        if let Some(button) = button.get_untracked() {
            let _ = button.focus();
        }
    };
    let choice = move |picture: Picture, format: Format| {
        let label = format!(
            "{} as {}",
            picture.title(),
            format.extension().to_uppercase()
        );
        let testid = format!("export-{}-{}", picture.slug(), format.extension());
        view! {
            <button aria-label=label data-testid=testid on:click=move |_| {
                close_and_refocus();
                let options = ExportOptions {
                    context: context.get_untracked(),
                    theme: theme.get_untracked(),
                };
                start_saving(run, notices, picture, format, options);
            }>{format.extension().to_uppercase()}</button>
        }
    };
    view! {
        <div class="export-menu" on:keydown=move |event| {
            if event.key() == "Escape" && open.get_untracked() {
                event.stop_propagation();
                close_and_refocus();
            }
        }>
            <button node_ref=button data-testid="export-button" aria-expanded=move || open.get().to_string()
                aria-controls="export-choices" on:click=move |_| open.update(|open| *open = !*open)
                title="Save the cluster view or the space-time diagram as a picture for slides">"Export"</button>
            <Show when=move || open.get()>
                <div class="export-choices" id="export-choices" role="group" aria-label="Export a picture" data-testid="export-choices">
                    {Picture::ALL.iter().map(|picture| view! {
                        <div class="export-row">
                            <span class="export-what">{picture.title()}</span>
                            {choice(*picture, Format::Svg)}
                            {choice(*picture, Format::Png)}
                        </div>
                    }).collect_view()}
                    <ExportOptionsFields context=context theme=theme />
                    <p class="hint">"The PNG is drawn at twice the size."</p>
                </div>
            </Show>
        </div>
    }
}
