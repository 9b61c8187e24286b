//! A live SVG of the page turned into a standalone file: a deep copy whose every element carries its
//! computed presentation in a `style` attribute, on a background rectangle of the panel's colour, with
//! an explicit size and a title. Nothing in it points outside the file: the only references left are
//! the drawing's own `url(#marker)` and `url(#clip)` attributes.

use super::parse_view_box;
use wasm_bindgen::JsCast;
use web_sys::{Document, Element, Window};

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

/// The SVG matching `svg_selector`, self-contained, on the background of `backdrop_selector`.
pub fn export_svg(
    svg_selector: &str,
    backdrop_selector: &str,
    title: &str,
) -> Result<ExportedSvg, String> {
    let window = web_sys::window().ok_or("no window")?;
    let document = window.document().ok_or("no document")?;
    let svg = document
        .query_selector(svg_selector)
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
    inline_styles(&window, &svg, &copy)?;
    for attribute in ["width", "height"] {
        let value = if attribute == "width" { width } else { height };
        let _ = copy.set_attribute(attribute, &format!("{value}"));
    }
    let background = document
        .query_selector(backdrop_selector)
        .ok()
        .flatten()
        .and_then(|backdrop| computed(&window, &backdrop, "background-color"))
        .unwrap_or_else(|| "transparent".to_string());
    let rect = svg_element(&document, "rect")?;
    for (name, value) in [("x", x), ("y", y), ("width", width), ("height", height)] {
        let _ = rect.set_attribute(name, &format!("{value}"));
    }
    let _ = rect.set_attribute("fill", &background);
    let heading = svg_element(&document, "title")?;
    heading.set_text_content(Some(title));
    let first = copy.first_child();
    copy.insert_before(&rect, first.as_ref())
        .and_then(|_| copy.insert_before(&heading, Some(&rect)))
        .map_err(|_| "the browser could not build the picture")?;
    let text = web_sys::XmlSerializer::new()
        .and_then(|serializer| serializer.serialize_to_string(&copy))
        .map_err(|_| "the browser could not write the picture")?;
    Ok(ExportedSvg {
        text: format!("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n{text}\n"),
        width,
        height,
    })
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
