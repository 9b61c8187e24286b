//! A [`FrameLayout`] made into SVG: an outer `<svg>` on the panel's background, holding the styled
//! drawing as a nested `<svg>` and the words and swatches around it. Every text says what it is in a
//! `data-role` attribute (and an invariant its name and state), so the file can be checked by what it
//! means rather than by where its words fall.

use super::frame::{FrameLayout, LegendItem, Placed, Swatch, TextRole};
use super::page_context::ToneColours;
use web_sys::{Document, Element};

const SVG_NAMESPACE: &str = "http://www.w3.org/2000/svg";

/// How the frame is painted: the panel's background, the tones' colours and the page's font.
pub struct FramePaint<'a> {
    pub background: &'a str,
    pub tones: &'a ToneColours,
    pub font_family: &'a str,
}

/// The outer SVG: background, `drawing` placed as the layout says, and the placed words and swatches.
pub fn draw_frame(
    document: &Document,
    layout: &FrameLayout,
    drawing: &Element,
    legend: &[LegendItem],
    paint: &FramePaint,
) -> Result<Element, String> {
    let root = element(document, "svg")?;
    let (width, height) = (layout.width.ceil(), layout.height.ceil());
    for (name, value) in [
        ("width", format!("{width}")),
        ("height", format!("{height}")),
        ("viewBox", format!("0 0 {width} {height}")),
    ] {
        let _ = root.set_attribute(name, &value);
    }
    let background = element(document, "rect")?;
    set_all(
        &background,
        &[
            ("width", format!("{width}")),
            ("height", format!("{height}")),
            ("fill", paint.background.to_string()),
        ],
    );
    append(&root, &background)?;
    let _ = drawing.set_attribute("x", &format!("{:.1}", layout.drawing_x));
    let _ = drawing.set_attribute("y", &format!("{:.1}", layout.drawing_y));
    append(&root, drawing)?;
    for item in &layout.items {
        let drawn = match item {
            Placed::Text { .. } => text(document, item, paint)?,
            Placed::Bar {
                x,
                y,
                width,
                height,
                tone,
            } => {
                let bar = element(document, "rect")?;
                set_all(
                    &bar,
                    &[
                        ("x", format!("{x:.1}")),
                        ("y", format!("{y:.1}")),
                        ("width", format!("{width:.1}")),
                        ("height", format!("{height:.1}")),
                        ("fill", paint.tones.of(*tone).to_string()),
                    ],
                );
                bar
            }
            Placed::Swatch { x, y, size, index } => match legend.get(*index) {
                Some(entry) => swatch(document, entry, *x, *y, *size)?,
                None => continue,
            },
        };
        append(&root, &drawn)?;
    }
    Ok(root)
}

fn text(document: &Document, item: &Placed, paint: &FramePaint) -> Result<Element, String> {
    let Placed::Text {
        x,
        y,
        size,
        bold,
        tone,
        role,
        text,
    } = item
    else {
        return Err("not a text".to_string());
    };
    let drawn = element(document, "text")?;
    let role_word = match role {
        TextRole::Title => "title",
        TextRole::Meta => "time",
        TextRole::Caption => "caption",
        TextRole::Heading => "heading",
        TextRole::Invariant { name, holds } => {
            let _ = drawn.set_attribute("data-invariant", name);
            let state = if *holds { "holds" } else { "violated" };
            let _ = drawn.set_attribute("data-state", state);
            "invariant"
        }
        TextRole::Legend => "legend",
    };
    set_all(
        &drawn,
        &[
            ("x", format!("{x:.1}")),
            ("y", format!("{y:.1}")),
            ("data-role", role_word.to_string()),
            (
                "style",
                format!(
                    "fill:{};font-family:{};font-size:{size:.1}px;font-weight:{}",
                    paint.tones.of(*tone),
                    paint.font_family,
                    if *bold { 700 } else { 400 }
                ),
            ),
        ],
    );
    drawn.set_text_content(Some(text));
    Ok(drawn)
}

/// A legend entry's swatch centred on (x, y): its shape, in the paint of the element it stands for.
fn swatch(
    document: &Document,
    entry: &LegendItem,
    x: f64,
    y: f64,
    size: f64,
) -> Result<Element, String> {
    let half = size / 2.0;
    let line_px = (size / 8.0).max(1.5);
    let (name, shape): (&str, Vec<(&str, String)>) = match entry.swatch {
        Swatch::Circle | Swatch::Ring => ("circle", vec![("r", format!("{:.1}", half - line_px))]),
        Swatch::Dot => ("circle", vec![("r", format!("{:.1}", half * 0.55))]),
        Swatch::Square => (
            "rect",
            vec![
                ("x", format!("{:.1}", -half + line_px)),
                ("y", format!("{:.1}", -half + line_px)),
                ("width", format!("{:.1}", size - 2.0 * line_px)),
                ("height", format!("{:.1}", size - 2.0 * line_px)),
            ],
        ),
        Swatch::Diamond => ("polygon", vec![("points", polygon(4, half - line_px, 0.0))]),
        Swatch::Hexagon => (
            "polygon",
            vec![("points", polygon(6, half - line_px, 30.0))],
        ),
        Swatch::Stroke => ("path", vec![("d", format!("M{:.1} 0H{half:.1}", -half))]),
        Swatch::Cross => (
            "path",
            vec![(
                "d",
                format!(
                    "M{a:.1} {a:.1}L{b:.1} {b:.1}M{a:.1} {b:.1}L{b:.1} {a:.1}",
                    a = -half * 0.7,
                    b = half * 0.7
                ),
            )],
        ),
    };
    let drawn = element(document, name)?;
    set_all(&drawn, &shape);
    let _ = drawn.set_attribute("transform", &format!("translate({x:.1} {y:.1})"));
    let _ = drawn.set_attribute("style", &swatch_style(entry, line_px));
    Ok(drawn)
}

/// Lines and rings show the element's stroke; a cross its stroke or, for a ✕ written as text, its fill;
/// shapes their fill and outline as drawn.
fn swatch_style(entry: &LegendItem, line_px: f64) -> String {
    let painted = |value: &str| !value.is_empty() && value != "none";
    let ink = if painted(&entry.stroke) {
        entry.stroke.as_str()
    } else {
        entry.fill.as_str()
    };
    let dash = if painted(&entry.dash) {
        format!("stroke-dasharray:{};", entry.dash)
    } else {
        String::new()
    };
    let opacity = format!(
        "opacity:{};",
        if entry.opacity.is_empty() {
            "1"
        } else {
            &entry.opacity
        }
    );
    match entry.swatch {
        Swatch::Stroke | Swatch::Ring => {
            format!(
                "fill:none;stroke:{ink};stroke-width:{:.1};{dash}{opacity}",
                line_px * 1.6
            )
        }
        Swatch::Cross => format!(
            "fill:none;stroke:{ink};stroke-width:{:.1};{opacity}",
            line_px * 1.6
        ),
        Swatch::Dot => format!("fill:{};stroke:none;{opacity}", entry.fill),
        _ => format!(
            "fill:{};stroke:{};stroke-width:{line_px:.1};{dash}{opacity}",
            entry.fill, entry.stroke
        ),
    }
}

/// The points of a regular polygon of `corners` around the origin, turned by `turn_degrees`.
fn polygon(corners: u32, radius: f64, turn_degrees: f64) -> String {
    (0..corners)
        .map(|corner| {
            let angle = (turn_degrees + 360.0 * corner as f64 / corners as f64).to_radians();
            format!("{:.1},{:.1}", radius * angle.sin(), -radius * angle.cos())
        })
        .collect::<Vec<_>>()
        .join(" ")
}

fn element(document: &Document, name: &str) -> Result<Element, String> {
    document
        .create_element_ns(Some(SVG_NAMESPACE), name)
        .map_err(|_| format!("the browser could not make an SVG {name}"))
}

fn set_all(element: &Element, attributes: &[(&str, String)]) {
    for (name, value) in attributes {
        let _ = element.set_attribute(name, value);
    }
}

fn append(parent: &Element, child: &Element) -> Result<(), String> {
    parent
        .append_child(child)
        .map(|_| ())
        .map_err(|_| "the browser could not build the picture".to_string())
}
