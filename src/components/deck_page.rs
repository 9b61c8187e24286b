//! The printable deck (`#/deck/gallery`, `#/deck/lesson/<id>`): every slide in order with its title,
//! what it shows, its full link and a QR code of that link, so a class can open each slide on their own
//! screens, and an instructor has the running order on paper. It covers the app on screen; printed,
//! only it shows (`style/deck.css`), one slide to a block that never breaks across pages.
//!
//! The links are built from this page's own address, so a deck printed from a copy served under
//! `/courses/ql/` links there; each opens its slide in presenter mode.

use crate::components::deck::DeckState;
use crate::context::generation::Part;
use crate::context::use_lesson;
use crate::deck::qr::qr_picture;
use crate::deck::{gallery_slides, lesson_slides, slide_link, DeckRoute, Slide};
use crate::web_io;
use leptos::prelude::*;
use quorumlab_sim::scenario::shown;

/// The deck's title and slides, or why there are none (yet).
fn deck_contents(route: &DeckRoute) -> Result<(String, Vec<Slide>), String> {
    match route {
        DeckRoute::Gallery => {
            let gallery = expect_context::<crate::components::gallery::GalleryState>();
            Ok((
                "Scenario gallery".to_string(),
                gallery_slides(&gallery.cards()),
            ))
        }
        DeckRoute::Lesson(id) => {
            let lessons = use_lesson();
            lessons.generation.of(Part::Course).track();
            if !lessons.course_settled() {
                return Err("Loading the lessons…".to_string());
            }
            lessons
                .with_course(|course| {
                    course
                        .iter()
                        .find(|lesson| lesson.id == *id)
                        .map(|lesson| {
                            (
                                format!("Lesson {}: {}", lesson.order, lesson.title),
                                lesson_slides(lesson),
                            )
                        })
                        .ok_or_else(|| format!("There is no lesson `{}`.", shown(id)))
                })
                .and_then(|found| found)
        }
    }
}

/// The printable deck: its code arrives the first time one is shown (`crate::lazy_part`).
#[component]
pub fn DeckPage() -> impl IntoView {
    let deck = expect_context::<DeckState>();
    view! {
        <Show when=move || deck.page.with(Option::is_some)>
            {crate::lazy_part::lazy_part("the printable deck", || crate::arrival!(deck_page_code()), |draw: fn() -> AnyView| draw())}
        </Show>
    }
}

#[cfg_attr(feature = "split", leptos::wasm_split::wasm_split(deck_page, wasm_split_path = ::leptos::wasm_split, fallible))]
fn deck_page_code() -> Result<fn() -> AnyView, crate::lazy_part::PartMissing> {
    Ok(|| view! { <DeckPageOpen /> }.into_any())
}

#[component]
fn DeckPageOpen() -> impl IntoView {
    let deck = expect_context::<DeckState>();
    // Like the app's sheets, a dialog: keyboard users land on its Print button, not behind it.
    Effect::new(move |_| {
        if deck.page.with(Option::is_some) {
            request_animation_frame(|| web_io::focus_element("[data-testid=deck-print-button]"));
        }
    });
    move || {
        let route = deck.page.get()?;
        let contents = route.and_then(|route| deck_contents(&route));
        let print = |_| {
            if let Some(window) = web_sys::window() {
                let _ = window.print();
            }
        };
        let body = match contents {
            Ok((title, slides)) => {
                let address = web_io::page_address().unwrap_or_default();
                let count = slides.len();
                view! {
                    <h2 data-testid="deck-title">{format!("Deck · {title}")}</h2>
                    <p class="deck-page-hint">{format!("{count} slides, in order. Each link (and its QR code) opens its slide in presenter mode; \
                        there PageDown and PageUp, or a presentation clicker, move between slides, and B blanks the screen.")}</p>
                    <ol class="deck-slides">
                        {slides.into_iter().enumerate().map(|(index, slide)| view! { <SlideBlock number=index + 1 link=slide_link(&address, &slide) slide=slide /> }).collect_view()}
                    </ol>
                }
                .into_any()
            }
            Err(reason) => view! {
                <h2 data-testid="deck-title">"Deck"</h2>
                <p class="deck-page-hint" data-testid="deck-problem" role="status">{format!("This deck cannot be shown: {reason}")}</p>
            }
            .into_any(),
        };
        Some(view! {
            <section class="deck-page" data-testid="deck-page" role="dialog" aria-modal="true" aria-label="Printable deck">
                <div class="deck-page-tools">
                    <button class="primary" data-testid="deck-print-button" on:click=print>"Print"</button>
                    <button data-testid="deck-page-close" on:click=move |_| deck.close_page()>"Back to the app"</button>
                </div>
                {body}
            </section>
        })
    }
}

#[component]
fn SlideBlock(number: usize, slide: Slide, link: String) -> impl IntoView {
    let code = match qr_picture(&link) {
        Ok(picture) => {
            let side = picture.side_modules;
            view! {
                <svg class="deck-qr" data-testid="deck-qr" viewBox=format!("0 0 {side} {side}") role="img"
                    aria-label=format!("QR code of the link to slide {number}") shape-rendering="crispEdges">
                    <rect width=side height=side fill="#fff"></rect>
                    <path d=picture.path fill="#000"></path>
                </svg>
            }
            .into_any()
        }
        Err(reason) => view! { <p class="deck-qr-missing">{reason}</p> }.into_any(),
    };
    view! {
        <li class="deck-slide" data-testid="deck-slide">
            {code}
            <div class="deck-slide-text">
                <h3>{format!("{number}. {}", slide.title)}</h3>
                <p>{slide.summary}</p>
                {slide.notes.into_iter().map(|(label, text)| view! { <p><strong>{format!("{label}: ")}</strong>{text}</p> }).collect_view()}
                <a class="deck-link" data-testid="deck-link" href=link.clone()>{link.clone()}</a>
            </div>
        </li>
    }
}
