//! A deck: the slides an instructor walks through on a projector, in order. A slide is one gallery
//! scenario (the gallery's own order, built-in cards first, then this browser's imports) or one step of
//! a lesson. In presenter mode PageDown and PageUp (what a presentation clicker sends) open the next and
//! the previous slide; the printable page (`#/deck/gallery`, `#/deck/lesson/<id>`) lists every slide
//! with its link and a QR code of it, so the class can follow along on their own screens.
//!
//! Everything here is plain Rust, tested natively: which slides a deck has, their addresses, and the
//! words of the indicator. The components (`components::deck`, `components::deck_page`) only draw it.
//!
//! A slide's link is the page's own address (`web_io::page_address`, whatever path the app is served
//! from) with the slide's fragment and `?presenter=on`, the view query share links already carry, so
//! the link opens the slide the way it is shown on the projector.

pub mod qr;

use crate::gallery::route::{gallery_fragment, GalleryRoute};
use crate::gallery::GalleryItem;
use crate::lesson::markdown::{parse_inlines, plain_text};
use crate::lesson::route::lesson_fragment;
use crate::share::view_options::ViewOptions;
use quorumlab_sim::lesson::Lesson;
use quorumlab_sim::scenario::shown;

pub const DECK_PREFIX: &str = "#/deck/";
/// The view query a slide's link carries: it opens in presenter mode.
pub const PRESENTER_QUERY: &str = "?presenter=on";
/// Longest title the indicator and a lesson slide show, in characters (the rest becomes "…").
const MAX_TITLE_CHARS: usize = 72;

/// Which deck a printable page lists.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DeckRoute {
    Gallery,
    Lesson(String),
}

/// One slide: what the printed page and the indicator say about it, and where it opens.
#[derive(Clone, Debug, PartialEq)]
pub struct Slide {
    pub title: String,
    /// One line on what it shows (a gallery card's summary, a step's instruction).
    pub summary: String,
    /// Notes with their labels, such as ("Try", …) and ("The class should see", …); only those given.
    pub notes: Vec<(&'static str, String)>,
    /// The slide's address inside the app, without the presenter query.
    pub fragment: String,
}

/// Whether `fragment` is meant as a deck page's address at all.
pub fn is_deck_fragment(fragment: &str) -> bool {
    fragment == "#/deck" || fragment.starts_with(DECK_PREFIX)
}

/// The address of a deck's printable page.
pub fn deck_fragment(route: &DeckRoute) -> String {
    match route {
        DeckRoute::Gallery => format!("{DECK_PREFIX}gallery"),
        DeckRoute::Lesson(id) => format!("{DECK_PREFIX}lesson/{id}"),
    }
}

/// Reads `#/deck/gallery` or `#/deck/lesson/<id>`; the error says what is wrong with it.
pub fn parse_deck_route(fragment: &str) -> Result<DeckRoute, String> {
    let rest = fragment
        .strip_prefix(DECK_PREFIX)
        .ok_or_else(|| format!("a deck's address starts with `{DECK_PREFIX}`"))?;
    let rest = rest.trim_end_matches('/');
    if rest == "gallery" {
        return Ok(DeckRoute::Gallery);
    }
    let id = rest
        .strip_prefix("lesson")
        .filter(|id| id.is_empty() || id.starts_with('/'))
        .map(|id| id.trim_start_matches('/'))
        .ok_or_else(|| {
            format!(
                "`{}` is not a deck (`gallery` or `lesson/<id>`)",
                shown(rest)
            )
        })?;
    let well_formed = !id.is_empty()
        && id.len() <= 64
        && id.chars().all(|character| {
            character.is_ascii_lowercase() || character.is_ascii_digit() || character == '-'
        });
    if !well_formed {
        return Err(format!(
            "`{}` is not a lesson id (lowercase letters, digits and dashes)",
            shown(id)
        ));
    }
    Ok(DeckRoute::Lesson(id.to_string()))
}

/// The gallery's cards as slides, in the gallery's order. A card opens the way its main button does
/// (paused with its schedule showing when its note suggests a demo).
pub fn gallery_slides(cards: &[GalleryItem]) -> Vec<Slide> {
    cards
        .iter()
        .map(|card| {
            let notes = [("Try", &card.try_this), ("The class should see", &card.see)]
                .into_iter()
                .filter(|(_, text)| !text.is_empty())
                .map(|(label, text)| (label, text.clone()))
                .collect();
            Slide {
                title: card.title.clone(),
                summary: card.summary.clone(),
                notes,
                fragment: gallery_fragment(&GalleryRoute::Open {
                    id: card.id.clone(),
                    demo: false,
                }),
            }
        })
        .collect()
}

/// A lesson's steps as slides: each titled by its first sentence, with the whole instruction as its line.
pub fn lesson_slides(lesson: &Lesson) -> Vec<Slide> {
    lesson
        .steps
        .iter()
        .enumerate()
        .map(|(index, step)| {
            let instruction = plain_text(&parse_inlines(&one_line(&step.instruction)));
            Slide {
                title: shortened(first_sentence(&instruction)),
                summary: instruction,
                notes: Vec::new(),
                fragment: lesson_fragment(&lesson.id, index + 1),
            }
        })
        .collect()
}

/// The words up to the first full stop, question mark or colon that ends a sentence (one followed by
/// a space, so "1.5 seconds" stays whole).
fn first_sentence(text: &str) -> &str {
    let end = [". ", "? ", "! ", ": "]
        .iter()
        .filter_map(|mark| {
            text.find(mark)
                .map(|at| at + usize::from(*mark != ". " && *mark != ": "))
        })
        .min()
        .unwrap_or(text.len());
    text[..end].trim_end_matches('.')
}

/// Markdown over several lines as one line of words.
fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// `text` cut at a word to at most [`MAX_TITLE_CHARS`] characters, "…" marking the cut.
pub fn shortened(text: &str) -> String {
    if text.chars().count() <= MAX_TITLE_CHARS {
        return text.to_string();
    }
    let mut kept = String::new();
    for word in text.split(' ') {
        if kept.chars().count() + word.chars().count() + 1 > MAX_TITLE_CHARS - 1 {
            break;
        }
        if !kept.is_empty() {
            kept.push(' ');
        }
        kept.push_str(word);
    }
    format!("{kept}…")
}

/// The link that opens `slide` in presenter mode, from the page's address (its fragment dropped).
pub fn slide_link(page_address: &str, slide: &Slide) -> String {
    let base = page_address.split('#').next().unwrap_or_default();
    format!("{base}{}{PRESENTER_QUERY}", slide.fragment)
}

/// Whether an address's view query (after its `?`) asks for presenter mode. Gallery and lesson
/// addresses honour only that option of the ones share links carry; a query that cannot be read is
/// refused whole, with the reason.
pub fn presenter_asked(query: Option<&str>) -> Result<bool, String> {
    let Some(query) = query else {
        return Ok(false);
    };
    ViewOptions::parse(query)
        .map(|options| options.presenter == Some(true))
        .map_err(|error| error.to_string())
}

/// The slide after (`forward`) or before `current` among `count`; none past either end.
pub fn neighbour(current: usize, count: usize, forward: bool) -> Option<usize> {
    if forward {
        (current + 1 < count).then_some(current + 1)
    } else {
        current.checked_sub(1).filter(|_| current < count)
    }
}

/// The indicator's words: "Slide 3 of 9 — <title>" (counted from 1).
pub fn indicator_text(current: usize, count: usize, title: &str) -> String {
    format!("Slide {} of {count} — {}", current + 1, shortened(title))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gallery::built_in;

    #[test]
    fn deck_addresses_round_trip_and_refuse_what_they_cannot_read() {
        for route in [
            DeckRoute::Gallery,
            DeckRoute::Lesson("fencing-tokens".into()),
        ] {
            assert_eq!(parse_deck_route(&deck_fragment(&route)), Ok(route));
        }
        assert_eq!(parse_deck_route("#/deck/gallery/"), Ok(DeckRoute::Gallery));
        let error = |fragment| parse_deck_route(fragment).unwrap_err();
        assert!(error("#/deck/slides").contains("`slides` is not a deck"));
        assert!(error("#/deck/lesson/").contains("is not a lesson id"));
        assert!(error("#/deck/lesson/Fencing").contains("`Fencing` is not a lesson id"));
        assert!(!error("#/deck/lesson/a\u{7}").chars().any(char::is_control));
        assert!(error("#/gallery").contains("starts with"));
        assert!(is_deck_fragment("#/deck/gallery") && !is_deck_fragment("#/gallery"));
    }

    #[test]
    fn the_gallery_deck_keeps_the_gallerys_order_and_notes() {
        let cards = built_in();
        let slides = gallery_slides(&cards);
        assert_eq!(slides.len(), cards.len());
        for (slide, card) in slides.iter().zip(&cards) {
            assert_eq!(slide.title, card.title);
            assert_eq!(slide.fragment, format!("#/gallery/{}", card.id));
        }
        let split_vote = slides
            .iter()
            .zip(&cards)
            .find(|(_, card)| card.id == "split-vote")
            .map(|(slide, _)| slide)
            .expect("the split-vote card");
        let labels: Vec<&str> = split_vote.notes.iter().map(|(label, _)| *label).collect();
        assert_eq!(labels, ["Try", "The class should see"]);
    }

    #[test]
    fn a_lesson_deck_has_a_slide_per_step_that_opens_it() {
        let lessons = crate::lesson::course().unwrap();
        for lesson in &lessons {
            let slides = lesson_slides(lesson);
            assert_eq!(slides.len(), lesson.steps.len(), "{}", lesson.id);
            assert_eq!(slides[0].fragment, format!("#/lesson/{}", lesson.id));
            for (index, slide) in slides.iter().enumerate() {
                assert!(
                    !slide.title.is_empty()
                        && slide.summary.starts_with(slide.title.trim_end_matches('…'))
                );
                assert!(slide.title.chars().count() <= MAX_TITLE_CHARS);
                assert!(!slide.summary.contains('\n') && !slide.summary.contains("**"));
                let route = crate::lesson::route::parse_route(&slide.fragment).unwrap();
                assert_eq!(route.resolve(&lessons).unwrap().1, index);
            }
        }
    }

    #[test]
    fn links_keep_the_pages_path_and_open_in_presenter_mode() {
        let slide = &gallery_slides(&built_in())[0];
        let link = slide_link("https://host/courses/ql/#/run/v4/abc", slide);
        assert_eq!(
            link,
            format!("https://host/courses/ql/{}?presenter=on", slide.fragment)
        );
        let (run_part, query) = crate::share::view_options::split(&link);
        assert!(run_part.ends_with(&slide.fragment));
        let options = crate::share::view_options::ViewOptions::parse(query.unwrap()).unwrap();
        assert_eq!(options.presenter, Some(true));
    }

    #[test]
    fn only_a_readable_query_turns_presenter_mode_on() {
        assert_eq!(presenter_asked(None), Ok(false));
        assert_eq!(presenter_asked(Some("presenter=on")), Ok(true));
        assert_eq!(presenter_asked(Some("presenter=off")), Ok(false));
        assert!(presenter_asked(Some("presenter=maybe")).is_err());
        assert!(presenter_asked(Some("slides=9")).is_err());
    }

    #[test]
    fn stepping_stops_at_either_end() {
        assert_eq!(neighbour(0, 3, true), Some(1));
        assert_eq!(neighbour(2, 3, true), None);
        assert_eq!(neighbour(2, 3, false), Some(1));
        assert_eq!(neighbour(0, 3, false), None);
        assert_eq!(neighbour(0, 0, true), None);
        assert_eq!(neighbour(5, 3, false), None);
        assert_eq!(
            indicator_text(2, 9, "Split vote"),
            "Slide 3 of 9 — Split vote"
        );
    }

    #[test]
    fn a_steps_title_is_its_first_sentence_numbers_kept_whole() {
        assert_eq!(
            first_sentence("Pause the new leader for 1.5 seconds. A pause is long."),
            "Pause the new leader for 1.5 seconds"
        );
        assert_eq!(first_sentence("Why? Because."), "Why?");
        assert_eq!(first_sentence("Heal: then watch."), "Heal");
        assert_eq!(first_sentence("No stop at all"), "No stop at all");
        assert_eq!(first_sentence("Ends here."), "Ends here");
    }

    #[test]
    fn long_titles_are_cut_at_a_word() {
        let long = "word ".repeat(40);
        let cut = shortened(long.trim());
        assert!(cut.ends_with("word…"), "{cut}");
        assert!(cut.chars().count() <= MAX_TITLE_CHARS);
        assert_eq!(shortened("short"), "short");
    }
}
