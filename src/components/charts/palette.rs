//! The charts' colours, read from the stylesheet's variables (`--chart-*`, `--series-*`, `--ok`...) so
//! the canvases follow the theme like everything else. A canvas cannot use CSS colours itself: each
//! variable is resolved once per theme through a hidden probe element's computed `color`.

use plotters::prelude::RGBColor;
use wasm_bindgen::JsCast;

/// How many node colours the leader bands cycle through (`--series-0` … `--series-9`).
pub const SERIES: usize = 10;

/// Every colour the two charts paint.
#[derive(Clone, Debug, PartialEq)]
pub struct ChartPalette {
    pub background: RGBColor,
    pub grid: RGBColor,
    pub term_line: RGBColor,
    pub no_leader: RGBColor,
    pub unobserved: RGBColor,
    pub series: [RGBColor; SERIES],
    /// Committed, failed, unknown.
    pub outcomes: [RGBColor; 3],
}

/// The CSS colour of node colour `index` (for the HTML legend beside the canvas).
pub fn series_css(index: usize) -> String {
    format!("var(--series-{})", index % SERIES)
}

/// `rgb(r, g, b)` or `rgba(r, g, b, a)` as computed styles write them; the alpha is dropped (the
/// charts mix their own).
pub fn parse_rgb(text: &str) -> Option<RGBColor> {
    let inner = text
        .trim()
        .strip_prefix("rgba(")
        .or_else(|| text.trim().strip_prefix("rgb("))?
        .strip_suffix(')')?;
    let channels: Vec<u8> = inner
        .split(',')
        .take(3)
        .map(|channel| channel.trim().parse::<f64>().ok())
        .map(|channel| channel.filter(|value| (0.0..=255.0).contains(value)))
        .map(|channel| channel.map(|value| value.round() as u8))
        .collect::<Option<_>>()?;
    match channels[..] {
        [red, green, blue] => Some(RGBColor(red, green, blue)),
        _ => None,
    }
}

/// The chart background the stylesheet gives right now: a palette read while the page's styles were
/// still those of the old theme no longer matches it, and is read again.
pub fn background_now(probe: &web_sys::HtmlElement) -> Option<RGBColor> {
    let window = web_sys::window()?;
    let _ = probe.style().set_property("color", "var(--chart-bg)");
    let style = window.get_computed_style(probe.unchecked_ref()).ok()??;
    parse_rgb(&style.get_property_value("color").ok()?)
}

impl ChartPalette {
    /// The palette in effect, resolved through `probe` (an element on the page). A variable that does
    /// not resolve keeps the dark theme's colour, so a chart is never left unpainted.
    pub fn read(probe: &web_sys::HtmlElement) -> ChartPalette {
        let fallback = ChartPalette::dark();
        let Some(window) = web_sys::window() else {
            return fallback;
        };
        let resolve = |name: &str, fallback: RGBColor| {
            let _ = probe.style().set_property("color", &format!("var({name})"));
            window
                .get_computed_style(probe.unchecked_ref())
                .ok()
                .flatten()
                .and_then(|style| style.get_property_value("color").ok())
                .and_then(|value| parse_rgb(&value))
                .unwrap_or(fallback)
        };
        let mut series = fallback.series;
        for (index, colour) in series.iter_mut().enumerate() {
            *colour = resolve(&format!("--series-{index}"), *colour);
        }
        let [committed, failed, unknown] = fallback.outcomes;
        ChartPalette {
            background: resolve("--chart-bg", fallback.background),
            grid: resolve("--chart-grid", fallback.grid),
            term_line: resolve("--chart-term", fallback.term_line),
            no_leader: resolve("--chart-no-leader", fallback.no_leader),
            unobserved: resolve("--chart-unobserved", fallback.unobserved),
            series,
            outcomes: [
                resolve("--ok", committed),
                resolve("--danger", failed),
                resolve("--warn", unknown),
            ],
        }
    }

    /// The dark theme's colours (as in style/main.css), used where a variable cannot be read.
    fn dark() -> ChartPalette {
        ChartPalette {
            background: RGBColor(0x12, 0x18, 0x1f),
            grid: RGBColor(0x2a, 0x36, 0x44),
            term_line: RGBColor(0xe6, 0xed, 0xf3),
            no_leader: RGBColor(0xff, 0x5d, 0x5d),
            unobserved: RGBColor(0x6c, 0x7a, 0x89),
            series: [
                RGBColor(0xf5, 0xb9, 0x42),
                RGBColor(0x4f, 0xb3, 0xff),
                RGBColor(0x3e, 0xcf, 0x8e),
                RGBColor(0xb9, 0x8c, 0xff),
                RGBColor(0xff, 0xa0, 0x5c),
                RGBColor(0x5c, 0xe0, 0xd8),
                RGBColor(0xd4, 0xe1, 0x57),
                RGBColor(0xff, 0x7a, 0xc6),
                RGBColor(0x8f, 0xa3, 0xff),
                RGBColor(0xc9, 0xa2, 0x6b),
            ],
            outcomes: [
                RGBColor(0x3e, 0xcf, 0x8e),
                RGBColor(0xff, 0x5d, 0x5d),
                RGBColor(0xff, 0xb3, 0x47),
            ],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn computed_colours_parse_and_anything_else_does_not() {
        assert_eq!(parse_rgb("rgb(18, 24, 31)"), Some(RGBColor(18, 24, 31)));
        assert_eq!(
            parse_rgb(" rgba(196, 43, 43, 0.3) "),
            Some(RGBColor(196, 43, 43))
        );
        assert_eq!(parse_rgb("rgb(300, 0, 0)"), None);
        assert_eq!(parse_rgb("rgb(1, 2)"), None);
        assert_eq!(parse_rgb("#ffffff"), None);
        assert_eq!(parse_rgb("color(srgb 1 0 0)"), None);
    }
}
