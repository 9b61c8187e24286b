//! Keeping the step in hand within reach of the cluster.
//!
//! On a wide screen the lesson is a column of its own beside the cluster, and the step in hand sits at
//! its top. On a narrow one (a phone) there is one column, the lesson above the cluster; with all of
//! its text written out, the cluster was thousands of pixels below the instruction, and every step
//! meant swiping down to act and back up to read whether it ticked. So on one column the lesson's text
//! folds away (`details` the learner opens), the step in hand comes last in the panel, right above the
//! nodes, and the page scrolls to it. These are the browser calls that arrangement needs: whether the
//! page is one column, scrolling to the step in hand or to its predictions, and reaching a node named
//! in the text (scrolled to and selected, as a tap on it would). A control far from the lesson that a
//! step needs (the Run settings card) is brought on screen by a link in the step's text.

use crate::lesson::markdown::PageControl;
use quorumlab_sim::ids::NodeId;
use wasm_bindgen::JsCast;
use wasm_bindgen::JsValue;
use web_sys::js_sys::{Object, Reflect};

/// The width at and below which the lesson stacks above the cluster (`style/main.css`).
const SINGLE_COLUMN_QUERY: &str = "(max-width: 1100px)";

/// Whether the lesson sits above the cluster rather than beside it.
pub fn is_single_column() -> bool {
    crate::web_io::matches_media(SINGLE_COLUMN_QUERY)
}

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

/// Scrolls the page so the step in hand is at the top, with the cluster under it.
pub fn show_current_step() {
    if let Some(card) = query("[data-testid=current-step]") {
        scroll_to(&card, "start");
    }
}

/// Opens the folded list of steps and scrolls to step `step_number`'s predictions.
pub fn show_predictions(step_number: usize) {
    if let Some(fold) = query("[data-testid=lesson-steps-fold]") {
        let _ = fold.set_attribute("open", "");
    }
    let selector = format!("[data-testid=lesson-step-{step_number}] [data-testid=predict]");
    if let Some(question) = query(&selector) {
        scroll_to(&question, "center");
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

/// Brings node `node` of the cluster on screen and selects it, through the node's own click (so its
/// actions open beside it exactly as after a tap). In a comparison the left run's node is meant.
pub fn reach_node(node: NodeId) {
    let selector = format!("[data-testid=cluster-view] [data-testid=node-{node}]");
    let Some(element) = query(&selector) else {
        return;
    };
    scroll_to(&element, "center");
    let init = Object::new();
    let _ = Reflect::set(&init, &"bubbles".into(), &JsValue::TRUE);
    let click = web_sys::window()
        .and_then(|window| Reflect::get(&window, &"MouseEvent".into()).ok())
        .and_then(|constructor| constructor.dyn_into::<web_sys::js_sys::Function>().ok())
        .and_then(|constructor| {
            let arguments = web_sys::js_sys::Array::of2(&"click".into(), &init);
            Reflect::construct(&constructor, &arguments).ok()
        })
        .and_then(|event| event.dyn_into::<web_sys::Event>().ok());
    if let Some(click) = click {
        let _ = element.dispatch_event(&click);
    }
}
