//! What the page says about the moment a picture shows, read from the page itself: the clock as the
//! playback bar writes it, the caption under the cluster as it reads now, and each invariant's badge
//! (holds or violated). Reading what is on screen, rather than recomputing it, keeps the picture and the
//! page in agreement: the caption held for reading, a step's own caption, the badges a world shows.

use super::frame::{InvariantState, PictureContext, Tone};
use super::legend::{legend_lead, read_legend};
use super::Picture;
use wasm_bindgen::JsCast;
use web_sys::{Document, Element, Window};

const CLOCK_SELECTOR: &str = "[data-testid=sim-time]";
const CAPTION_SELECTOR: &str = "[data-testid=narration-caption]";
const BADGE_SELECTOR: &str = "[data-testid=checker-badges] li[data-invariant]";

/// The words around `picture`'s drawing `svg`, titled `title`; colours are read as styles compute now
/// (call it under the export's theme).
pub fn read_context(
    window: &Window,
    document: &Document,
    svg: &Element,
    picture: Picture,
    title: &str,
) -> PictureContext {
    let clock = text_of(document, CLOCK_SELECTOR).unwrap_or_default();
    let meta = if clock.is_empty() {
        picture.title().to_string()
    } else {
        format!("{} at {clock} (simulated time)", picture.title())
    };
    PictureContext {
        title: title.to_string(),
        meta,
        caption: caption(document),
        invariants: invariants(document),
        legend_lead: legend_lead(picture).map(str::to_string),
        legend: read_legend(window, svg, picture),
    }
}

fn text_of(document: &Document, selector: &str) -> Option<String> {
    let element = document.query_selector(selector).ok().flatten()?;
    let text = element.text_content()?;
    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    (!text.is_empty()).then_some(text)
}

/// The caption and whether it is an alarm; none while nothing has happened (that caption invites the
/// reader to press play, which means nothing on a slide).
fn caption(document: &Document) -> Option<(String, bool)> {
    let element = document.query_selector(CAPTION_SELECTOR).ok().flatten()?;
    if element.matches(".empty").unwrap_or(false) {
        return None;
    }
    let alarm = element.matches(".alarm").unwrap_or(false);
    Some((text_of(document, CAPTION_SELECTOR)?, alarm))
}

fn invariants(document: &Document) -> Vec<InvariantState> {
    let Ok(list) = document.query_selector_all(BADGE_SELECTOR) else {
        return Vec::new();
    };
    (0..list.length())
        .filter_map(|index| list.item(index)?.dyn_into::<Element>().ok())
        .filter_map(|badge| {
            Some(InvariantState {
                name: badge.get_attribute("data-invariant")?,
                holds: !badge.matches(".violated").unwrap_or(false),
            })
        })
        .collect()
}

/// The theme variable each tone is painted with.
fn tone_variable(tone: Tone) -> &'static str {
    match tone {
        Tone::Text => "--text",
        Tone::Muted => "--text-muted",
        Tone::Danger => "--danger-text",
        Tone::Ok => "--ok",
        Tone::Accent => "--leader",
    }
}

/// The colours of the tones, as they compute inside `backdrop` now: a probe element takes each
/// variable as its `color` and is removed again. Falls back to black text if the page will not say.
pub fn tone_colours(window: &Window, document: &Document, backdrop: &Element) -> ToneColours {
    let probe = document.create_element("span").ok();
    let colour = |tone: Tone| -> String {
        let read = || {
            let probe = probe.as_ref()?;
            probe
                .set_attribute(
                    "style",
                    &format!("position:absolute;color:var({})", tone_variable(tone)),
                )
                .ok()?;
            let style = window.get_computed_style(probe).ok().flatten()?;
            style.get_property_value("color").ok()
        };
        read().unwrap_or_else(|| "rgb(0, 0, 0)".to_string())
    };
    if let Some(probe) = &probe {
        let _ = backdrop.append_child(probe);
    }
    let colours = ToneColours {
        text: colour(Tone::Text),
        muted: colour(Tone::Muted),
        danger: colour(Tone::Danger),
        ok: colour(Tone::Ok),
        accent: colour(Tone::Accent),
    };
    if let Some(probe) = probe {
        probe.remove();
    }
    colours
}

/// The resolved colour of each tone.
#[derive(Clone, Debug)]
pub struct ToneColours {
    text: String,
    muted: String,
    danger: String,
    ok: String,
    accent: String,
}

impl ToneColours {
    pub fn of(&self, tone: Tone) -> &str {
        match tone {
            Tone::Text => &self.text,
            Tone::Muted => &self.muted,
            Tone::Danger => &self.danger,
            Tone::Ok => &self.ok,
            Tone::Accent => &self.accent,
        }
    }
}
