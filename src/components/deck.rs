//! The deck in presenter mode: which slide is on screen, the keys and buttons that move between slides,
//! and the blank screen. The slides themselves and their order are `crate::deck`.
//!
//! A deck is active while presenter mode is on and the run on screen is a slide: an open lesson (its
//! steps are the slides, its open step the current one), or the gallery card last opened, for as long
//! as its run is the one shown (any other run, from the picker or a share link, ends the deck).
//!
//! Keys: the arrows already step the run's events, so the deck takes what a presentation clicker sends:
//! PageDown / PageUp for the next / previous slide, and B or "." to blank the screen. While blank the
//! run is paused, so nothing happens unseen; any key or a click brings the picture back, and the run
//! plays on if it was playing (that key does nothing else, so a clicker's PageDown only unblanks).
//! An embed (`Kiosk` locked or hidden, or `embedded`) gets neither the keys nor the bar.

use crate::components::gallery::GalleryState;
use crate::context::generation::Part;
use crate::context::playback::Kiosk;
use crate::deck::{
    deck_fragment, gallery_slides, indicator_text, is_deck_fragment, lesson_slides, neighbour,
    parse_deck_route, DeckRoute, Slide,
};
use crate::gallery::route::{go_to, GalleryRoute};
use crate::lesson::live;
use crate::state::AppState;
use crate::web_io;
use leptos::prelude::*;

/// Where the deck is: the printable page the address names, and the blank screen.
#[derive(Clone, Copy)]
pub struct DeckState {
    state: AppState,
    gallery: GalleryState,
    /// While the screen is blank: whether the run was playing when it went blank.
    pub blank: RwSignal<Option<bool>>,
    /// The printable page the address names (`#/deck/…`), or the reason it cannot be shown.
    pub page: RwSignal<Option<Result<DeckRoute, String>>>,
}

/// The slides of the deck on screen, which is current, and how to open another.
#[derive(Clone, Debug, PartialEq)]
pub struct ActiveDeck {
    pub slides: Vec<Slide>,
    pub current: usize,
    /// The open lesson's place in the course; none for the gallery.
    lesson_index: Option<usize>,
    /// The gallery's card ids, in the slides' order (empty for a lesson).
    card_ids: Vec<String>,
    /// The printable page of this deck.
    pub page: DeckRoute,
}

impl DeckState {
    /// Makes the deck's state, provides it, and follows `#/deck/…` addresses.
    pub fn install(state: AppState, gallery: GalleryState) -> DeckState {
        let deck = DeckState {
            state,
            gallery,
            blank: RwSignal::new(None),
            page: RwSignal::new(None),
        };
        provide_context(deck);
        deck.read_address();
        let listener = window_event_listener(leptos::ev::hashchange, move |_| deck.read_address());
        on_cleanup(move || listener.remove());
        deck
    }

    fn read_address(self) {
        let fragment = web_io::location_hash();
        let page = is_deck_fragment(&fragment).then(|| parse_deck_route(&fragment));
        if matches!(page, Some(Ok(DeckRoute::Lesson(_)))) {
            live::when_course_loaded(self.state, |_| ());
        }
        self.page.set(page);
    }

    /// Whether the printable page covers the app (its keys are then the browser's, not shortcuts).
    pub fn page_shown(self) -> bool {
        self.page.with_untracked(Option::is_some)
    }

    /// Leaves the printable page for the app as it was.
    pub fn close_page(self) {
        web_io::replace_fragment("");
        self.page.set(None);
    }

    /// The deck on screen, if presenter mode walks one now (tracked: the bar redraws as it changes).
    pub fn active(self) -> Option<ActiveDeck> {
        let lessons = self.state.parts().lesson;
        lessons.generation.of(Part::Lesson).track();
        lessons.generation.of(Part::Course).track();
        if let Some(index) = lessons.active.get() {
            let lesson = lessons
                .with_course(|course| course.get(index).cloned())
                .ok()
                .flatten()?;
            let slides = lesson_slides(&lesson);
            let current = lessons
                .with_tracker(|tracker| tracker.current_step())
                .unwrap_or(0)
                .min(slides.len().checked_sub(1)?);
            return Some(ActiveDeck {
                slides,
                current,
                lesson_index: Some(index),
                card_ids: Vec::new(),
                page: DeckRoute::Lesson(lesson.id),
            });
        }
        let opened = self.gallery.opened.get()?;
        let cards = self.gallery.cards();
        let current = cards.iter().position(|card| card.id == opened)?;
        let shown = self.state.parts().run.scenario;
        if !shown.with(|scenario| *scenario == cards[current].scenario) {
            return None;
        }
        Some(ActiveDeck {
            slides: gallery_slides(&cards),
            current,
            lesson_index: None,
            card_ids: cards.into_iter().map(|card| card.id).collect(),
            page: DeckRoute::Gallery,
        })
    }

    /// Opens the next (`forward`) or previous slide; false when there is no deck or no slide there.
    pub fn step(self, forward: bool) -> bool {
        let Some(deck) = self.active() else {
            return false;
        };
        let Some(next) = neighbour(deck.current, deck.slides.len(), forward) else {
            return false;
        };
        match deck.lesson_index {
            Some(index) => live::open_lesson(self.state, index, next),
            None => go_to(&GalleryRoute::Open {
                id: deck.card_ids[next].clone(),
                demo: false,
            }),
        }
        true
    }

    /// Blacks the screen out and pauses the run (remembering whether it played).
    pub fn blank_screen(self) {
        let playing = self.state.parts().playback.playing;
        self.blank.set(Some(playing.get_untracked()));
        playing.set(false);
    }

    /// Brings the picture back, and the run plays on if it was playing; false when it was not blank.
    pub fn restore(self) -> bool {
        let Some(was_playing) = self.blank.get_untracked() else {
            return false;
        };
        self.blank.set(None);
        if was_playing {
            self.state.parts().playback.playing.set(true);
        }
        true
    }

    /// Whether the deck's keys and bar are on offer: presenter mode in a page the viewer may change.
    fn offered(self) -> bool {
        let playback = self.state.parts().playback;
        playback.presenter.get() && playback.kiosk.get() == Kiosk::Full && !playback.embedded.get()
    }

    /// Performs the deck's shortcut for `key` (PageDown, PageUp, B, "."); false when it is none, or
    /// when presenter mode is off (PageDown then scrolls the page, as it always did).
    pub fn handle_key(self, key: &str) -> bool {
        if !self.offered() {
            return false;
        }
        match key {
            "PageDown" => self.step(true) || self.active().is_some(),
            "PageUp" => self.step(false) || self.active().is_some(),
            "b" | "B" | "." => {
                self.blank_screen();
                true
            }
            _ => false,
        }
    }

    /// The deck's state, if the app provided it (tests mount components without it).
    pub fn here() -> Option<DeckState> {
        use_context::<DeckState>()
    }
}

/// "Slide 3 of 9 — <title>" with previous and next buttons, in presenter mode while a deck is active.
#[component]
pub fn DeckBar() -> impl IntoView {
    let deck = expect_context::<DeckState>();
    let active = Memo::new(move |_| deck.offered().then(|| deck.active()).flatten());
    move || {
        let shown = active.get()?;
        let count = shown.slides.len();
        let current = shown.current;
        let words = indicator_text(current, count, &shown.slides[current].title);
        let print = deck_fragment(&shown.page);
        Some(view! {
            <nav class="deck-bar" aria-label="Deck" data-testid="deck-bar">
                <button data-testid="deck-previous" aria-label="Previous slide (PageUp)" title="Previous slide (PageUp)"
                    disabled=neighbour(current, count, false).is_none() on:click=move |_| { deck.step(false); }>"◀ Previous"</button>
                <span class="deck-position" data-testid="deck-position" role="status">{words}</span>
                <button data-testid="deck-next" aria-label="Next slide (PageDown)" title="Next slide (PageDown)"
                    disabled=neighbour(current, count, true).is_none() on:click=move |_| { deck.step(true); }>"Next ▶"</button>
                <button data-testid="deck-blank-button" title="Blank the screen (B); any key or a click brings it back"
                    on:click=move |_| deck.blank_screen()>"Blank"</button>
                <a class="button" href=print data-testid="deck-print">"Print deck"</a>
            </nav>
        })
    }
}

/// The black screen an instructor turns to while talking (B or "."); a click or any key ends it.
#[component]
pub fn DeckBlank() -> impl IntoView {
    let deck = expect_context::<DeckState>();
    view! {
        <Show when=move || deck.blank.with(Option::is_some)>
            <div class="deck-blank" data-testid="deck-blank" role="button" tabindex="0"
                aria-label="The screen is blank: press any key or click to show the cluster again"
                on:click=move |_| { deck.restore(); }></div>
        </Show>
    }
}
