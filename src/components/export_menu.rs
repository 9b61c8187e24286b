//! The header's "Export" button: the cluster view or the space-time diagram as an SVG or a PNG file,
//! named after the scenario and the moment shown, in the colours of the theme in effect. It stays in
//! the header in presenter mode, where instructors make their slides (the space-time diagram is hidden
//! there but still drawn, so it can still be saved).

use crate::context::notice::{Notice, NoticeContext};
use crate::context::run::RunContext;
use crate::context::{use_notices, use_run};
use crate::export::inline_svg::export_svg;
use crate::export::{file_name, png, Format, Picture, PNG_SCALE};
use crate::format;
use crate::web_io;
use leptos::prelude::*;

/// Builds the picture and offers it as a download; the notice bar says what was saved or why not.
fn save(run: RunContext, notices: NoticeContext, picture: Picture, format: Format) {
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
    let svg = match export_svg(
        picture.svg_selector(),
        picture.backdrop_selector(),
        &caption,
    ) {
        Ok(svg) => svg,
        Err(reason) => return report(notices, &name, Err(reason)),
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

#[component]
pub fn ExportMenu() -> impl IntoView {
    let run = use_run();
    let notices = use_notices();
    let open = RwSignal::new(false);
    let button = NodeRef::<leptos::html::Button>::new();
    // A press anywhere outside the menu closes it, as a menu would.
    let outside = window_event_listener(leptos::ev::pointerdown, move |event| {
        let inside = event_target::<web_sys::Element>(&event)
            .closest(".export-menu")
            .ok()
            .flatten()
            .is_some();
        if !inside && open.get_untracked() {
            open.set(false);
        }
    });
    on_cleanup(move || outside.remove());
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
                save(run, notices, picture, format);
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
                    <p class="hint">"In the colours shown now; the PNG is drawn at twice the size."</p>
                </div>
            </Show>
        </div>
    }
}
