//! A live SVG of the page turned into a standalone file: a deep copy whose every element carries its
//! computed presentation (in the export's theme) in a `style` attribute, on a background rectangle of
//! the panel's colour, with an explicit size and a title, framed by the page's words when asked. Nothing in it points outside the file: the only references left are
//! the drawing's own `url(#marker)` and `url(#clip)` attributes.

use super::draw_frame::{draw_frame, FramePaint};
use super::export_theme::under_theme;
use super::frame::{layout_frame, PictureContext};
use super::page_context::{read_context, tone_colours, ToneColours};
use super::{parse_view_box, ExportOptions, Picture};
use wasm_bindgen::JsCast;
use web_sys::js_sys::{Function, Reflect};
use web_sys::{CanvasRenderingContext2d, Document, Element, HtmlCanvasElement, Window};

const SVG_NAMESPACE: &str = "http://www.w3.org/2000/svg";

/// Presentation properties copied from each element's computed style. References (`marker-*`,
/// `clip-path`) are left out on purpose: their computed values are absolute addresses of this page,
/// while the attributes the drawing already has point inside the file.
const INLINED_PROPERTIES: [&str; 19] = [
    "fill",
    "fill-opacity",
    "stroke",
    "stroke-width",
    "stroke-opacity",
    "stroke-dasharray",
    "stroke-dashoffset",
    "stroke-linecap",
    "stroke-linejoin",
    "opacity",
    "font-family",
    "font-size",
    "font-weight",
    "font-style",
    "text-anchor",
    "dominant-baseline",
    "paint-order",
    "text-decoration-line",
    "visibility",
];

/// A standalone SVG document and its size in CSS pixels.
pub struct ExportedSvg {
    pub text: String,
    pub width: f64,
    pub height: f64,
}

/// `picture` as a self-contained SVG titled `title`, in the colours of `options.theme`, framed by the
/// page's words about the moment (`scenario_title` first) unless `options.context` is off.
pub fn export_svg(
    picture: Picture,
    title: &str,
    scenario_title: &str,
    options: ExportOptions,
) -> Result<ExportedSvg, String> {
    let window = web_sys::window().ok_or("no window")?;
    let document = window.document().ok_or("no document")?;
    let svg = document
        .query_selector(picture.svg_selector())
        .ok()
        .flatten()
        .ok_or("that drawing is not on the page")?;
    let backdrop = document
        .query_selector(picture.backdrop_selector())
        .ok()
        .flatten()
        .ok_or("that drawing is not on the page")?;
    let [x, y, width, height] = svg
        .get_attribute("viewBox")
        .as_deref()
        .and_then(parse_view_box)
        .ok_or("the drawing has no size yet")?;
    let copy = svg
        .clone_node_with_deep(true)
        .ok()
        .and_then(|node| node.dyn_into::<Element>().ok())
        .ok_or("the browser could not copy the drawing")?;
    let (background, framing) = under_theme(
        &window,
        &backdrop,
        options.theme,
        || -> Result<_, String> {
            inline_styles(&window, &svg, &copy)?;
            let background = computed(&window, &backdrop, "background-color")
                .unwrap_or_else(|| "transparent".to_string());
            let framing = options.context.then(|| {
                read_framing(&window, &document, &svg, &backdrop, picture, scenario_title)
            });
            Ok((background, framing))
        },
    )?;
    place_on_background(&document, &copy, [x, y, width, height], &background)?;
    let (root, size) = match framing {
        None => (copy, [width, height]),
        Some(framing) => framed(&document, copy, [width, height], &framing, &background)?,
    };
    let heading = svg_element(&document, "title")?;
    heading.set_text_content(Some(title));
    insert_first(&root, &heading)?;
    let text = web_sys::XmlSerializer::new()
        .and_then(|serializer| serializer.serialize_to_string(&root))
        .map_err(|_| "the browser could not write the picture")?;
    Ok(ExportedSvg {
        text: format!("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n{text}\n"),
        width: size[0],
        height: size[1],
    })
}

/// Gives the copy its size and a first rectangle of the panel's colour under everything.
fn place_on_background(
    document: &Document,
    copy: &Element,
    [x, y, width, height]: [f64; 4],
    background: &str,
) -> Result<(), String> {
    let _ = copy.set_attribute("width", &format!("{width}"));
    let _ = copy.set_attribute("height", &format!("{height}"));
    let rect = svg_element(document, "rect")?;
    for (name, value) in [("x", x), ("y", y), ("width", width), ("height", height)] {
        let _ = rect.set_attribute(name, &format!("{value}"));
    }
    let _ = rect.set_attribute("fill", background);
    insert_first(copy, &rect)
}

/// The copy inside its frame of words, and the frame's size.
fn framed(
    document: &Document,
    copy: Element,
    [width, height]: [f64; 2],
    framing: &Framing,
    background: &str,
) -> Result<(Element, [f64; 2]), String> {
    let layout = layout_frame(width, height, &framing.context, &text_measure(document));
    let paint = FramePaint {
        background,
        tones: &framing.tones,
        font_family: &framing.font_family,
    };
    let root = draw_frame(document, &layout, &copy, &framing.context.legend, &paint)?;
    Ok((root, [layout.width.ceil(), layout.height.ceil()]))
}

fn insert_first(parent: &Element, child: &Element) -> Result<(), String> {
    let first = parent.first_child();
    parent
        .insert_before(child, first.as_ref())
        .map(|_| ())
        .map_err(|_| "the browser could not build the picture".to_string())
}

/// What the frame needs from the page, read under the export's theme.
struct Framing {
    context: PictureContext,
    tones: ToneColours,
    font_family: String,
}

fn read_framing(
    window: &Window,
    document: &Document,
    svg: &Element,
    backdrop: &Element,
    picture: Picture,
    scenario_title: &str,
) -> Framing {
    Framing {
        context: read_context(window, document, svg, picture, scenario_title),
        tones: tone_colours(window, document, backdrop),
        font_family: computed(window, svg, "font-family")
            .unwrap_or_else(|| "sans-serif".to_string()),
    }
}

/// The width of a text at a size, as the browser draws it in the picture's font (bold, the widest the
/// frame uses, so nothing measured too narrow overflows); an estimate if the canvas will not say.
fn text_measure(document: &Document) -> impl Fn(&str, f64) -> f64 {
    let family = document
        .body()
        .and_then(|body| computed(&web_sys::window()?, &body, "font-family"))
        .unwrap_or_else(|| "sans-serif".to_string());
    let context = document
        .create_element("canvas")
        .ok()
        .and_then(|canvas| canvas.dyn_into::<HtmlCanvasElement>().ok())
        .and_then(|canvas| canvas.get_context("2d").ok().flatten())
        .and_then(|context| context.dyn_into::<CanvasRenderingContext2d>().ok());
    move |text: &str, size: f64| {
        let measured = context.as_ref().and_then(|context| {
            context.set_font(&format!("700 {size}px {family}"));
            // `measureText` through reflection: its result type needs a web-sys feature of its own.
            let measure = Reflect::get(context, &"measureText".into()).ok()?;
            let metrics = measure
                .dyn_ref::<Function>()?
                .call1(context, &text.into())
                .ok()?;
            Reflect::get(&metrics, &"width".into()).ok()?.as_f64()
        });
        measured.unwrap_or_else(|| text.chars().count() as f64 * size * 0.62)
    }
}

fn svg_element(document: &Document, name: &str) -> Result<Element, String> {
    document
        .create_element_ns(Some(SVG_NAMESPACE), name)
        .map_err(|_| format!("the browser could not make an SVG {name}"))
}

fn computed(window: &Window, element: &Element, property: &str) -> Option<String> {
    let style = window.get_computed_style(element).ok().flatten()?;
    style
        .get_property_value(property)
        .ok()
        .filter(|value| !value.is_empty())
}

/// Copies the computed style of `original` and each of its descendants onto the same element of `copy`
/// (a deep clone, so both lists are in the same document order).
fn inline_styles(window: &Window, original: &Element, copy: &Element) -> Result<(), String> {
    let originals = original
        .query_selector_all("*")
        .map_err(|_| "no elements")?;
    let copies = copy.query_selector_all("*").map_err(|_| "no elements")?;
    if originals.length() != copies.length() {
        return Err("the drawing changed while it was copied".to_string());
    }
    let pairs = (0..originals.length()).filter_map(|index| {
        let original = originals.item(index)?.dyn_into::<Element>().ok()?;
        let copy = copies.item(index)?.dyn_into::<Element>().ok()?;
        Some((original, copy))
    });
    for (original, copy) in std::iter::once((original.clone(), copy.clone())).chain(pairs) {
        let Some(style) = window.get_computed_style(&original).ok().flatten() else {
            continue;
        };
        let mut inline = String::new();
        for property in INLINED_PROPERTIES {
            if let Ok(value) = style.get_property_value(property) {
                if !value.is_empty() {
                    inline.push_str(&format!("{property}:{value};"));
                }
            }
        }
        // Hidden parts stay hidden (`display` is not inherited, so only "none" matters).
        if style.get_property_value("display").ok().as_deref() == Some("none") {
            inline.push_str("display:none;");
        }
        let _ = copy.set_attribute("style", &inline);
        let _ = copy.remove_attribute("tabindex");
    }
    Ok(())
}
