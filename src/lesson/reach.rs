//! Keeping what the step in hand needs within reach: a control far from the lesson that a step asks
//! for (the Run settings card, at the foot of the side column) is brought on screen by a link in the
//! step's own text, with the keyboard moved into it.

use crate::lesson::markdown::PageControl;
use wasm_bindgen::JsCast;
use wasm_bindgen::JsValue;
use web_sys::js_sys::{Object, Reflect};

fn query(selector: &str) -> Option<web_sys::Element> {
    web_sys::window()?
        .document()?
        .query_selector(selector)
        .ok()
        .flatten()
}

/// Scrolls `element` into view at `block` (`start`, `center`, `nearest`), smoothly unless the
/// reader asked for less motion.
fn scroll_to(element: &web_sys::Element, block: &str) {
    let options = Object::new();
    let behavior = if crate::web_io::prefers_reduced_motion() {
        "auto"
    } else {
        "smooth"
    };
    let _ = Reflect::set(&options, &"block".into(), &block.into());
    let _ = Reflect::set(&options, &"behavior".into(), &behavior.into());
    let scroll = Reflect::get(element, &"scrollIntoView".into())
        .ok()
        .and_then(|function| function.dyn_into::<web_sys::js_sys::Function>().ok());
    if let Some(scroll) = scroll {
        let _ = scroll.call1(element, &options);
    }
}

/// Brings a control the lesson names on screen, for a step that needs it; focus moves into it, so the
/// keyboard is there too. The Run settings card is scrolled so that its last button ("Start fresh
/// run") is at the window's foot: the world's options, which the steps ask for, sit just above it.
pub fn show_control(control: PageControl) {
    let (bottom, field) = match control {
        PageControl::RunSettings => (
            "[data-testid=settings-panel] [data-testid=apply-settings]",
            "[data-testid=settings-panel] [data-testid=world-options] select, \
             [data-testid=settings-panel] [data-testid=world-options] input",
        ),
    };
    let Some(element) = query(bottom) else {
        return;
    };
    scroll_to(&element, "end");
    let field = query(field).and_then(|field| field.dyn_into::<web_sys::HtmlElement>().ok());
    if let Some(field) = field {
        let options = Object::new();
        let _ = Reflect::set(&options, &"preventScroll".into(), &JsValue::TRUE);
        let focus = Reflect::get(&field, &"focus".into())
            .ok()
            .and_then(|function| function.dyn_into::<web_sys::js_sys::Function>().ok());
        if let Some(focus) = focus {
            let _ = focus.call1(&field, &options);
        }
    }
}
