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
//!
//! A step's "look now" moment brings the part of the page it names into view, and "in view" means
//! the part of the window nothing covers: the playback bar sticks to the window's foot (or top) when
//! its own place is scrolled away, and on a phone that is exactly over the cluster's foot, where a
//! node the step points at can be. It is measured after the page has drawn the moment's note, which
//! on one column sits right above the cluster and pushes it down.

use crate::lesson::markdown::PageControl;
use leptos::prelude::request_animation_frame;
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

/// Brings an opened lesson into view once the page has drawn it: the page scrolled to its top, the
/// lesson panel to its start (step 1) or to the open step (a lesson opened further on). With the
/// lesson above the cluster (one column: a phone), the page scrolls to the step in hand instead, which
/// sits just above the cluster, so the instruction and the nodes it names are on screen together.
pub fn show_lesson_step(step_number: usize) {
    if query("[data-testid=lesson-panel]").is_some() {
        show_lesson_step_soon(step_number);
    } else {
        // The panel's code arrives as a part the first time (`crate::lazy_part`), on a slow
        // connection after seconds: the panel brings the step into view once it is drawn.
        STEP_TO_SHOW.with(|waiting| waiting.set(Some(step_number)));
    }
}

thread_local! {
    static STEP_TO_SHOW: std::cell::Cell<Option<usize>> = const { std::cell::Cell::new(None) };
}

/// Called by the lesson panel once it is in the page: shows the step a lesson opened at while the
/// panel was still on its way.
pub fn lesson_panel_drawn() {
    if let Some(step_number) = STEP_TO_SHOW.with(std::cell::Cell::take) {
        show_lesson_step_soon(step_number);
    }
}

fn show_lesson_step_soon(step_number: usize) {
    // After this turn, once the page has laid out what was just drawn.
    gloo_timers::callback::Timeout::new(0, move || {
        let Some(window) = web_sys::window() else {
            return;
        };
        window.scroll_to_with_x_and_y(0.0, 0.0);
        let Some(document) = window.document() else {
            return;
        };
        if is_single_column() {
            show_current_step();
            return;
        }
        if let Ok(Some(panel)) = document.query_selector("[data-testid=lesson-panel]") {
            panel.set_scroll_top(0);
        }
        if step_number > 1 {
            let selector = format!("[data-testid=lesson-step-{step_number}]");
            if let Ok(Some(step)) = document.query_selector(&selector) {
                step.scroll_into_view();
            }
        }
    })
    .forget();
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

/// The band of the window nothing covers, as (top, bottom) in window pixels: the whole window, less
/// the playback bar where it is stuck to the window's foot or top (`style/main.css`).
fn uncovered_band(window: &web_sys::Window) -> (f64, f64) {
    let height = window
        .inner_height()
        .ok()
        .and_then(|height| height.as_f64())
        .unwrap_or(0.0);
    let Some(bar) = query(".playback") else {
        return (0.0, height);
    };
    let bar = bar.get_bounding_client_rect();
    if bar.bottom() >= height - 1.0 && bar.top() > height / 2.0 {
        (0.0, bar.top())
    } else if bar.top() <= 1.0 && bar.bottom() < height / 2.0 {
        (bar.bottom(), height)
    } else {
        (0.0, height)
    }
}

/// How far to scroll down (negative: up) for the span `top..bottom` to lie within the band
/// `band_top..band_bottom` (all in window pixels). A span taller than the band is shown from its top.
pub fn scroll_to_fit(top: f64, bottom: f64, band_top: f64, band_bottom: f64) -> f64 {
    if bottom - top > band_bottom - band_top || top < band_top {
        top - band_top
    } else if bottom > band_bottom {
        bottom - band_bottom
    } else {
        0.0
    }
}

/// Scrolls the page by `by` pixels at once. An instant scroll also ends a smooth one still under way
/// (the page glides to the step in hand when a lesson opens), which would otherwise carry on to its
/// own end and leave the view it was asked for.
fn scroll_page_by(window: &web_sys::Window, by: f64) {
    let top = window.scroll_y().unwrap_or(0.0) + by;
    let options = Object::new();
    let _ = Reflect::set(&options, &"top".into(), &top.into());
    let _ = Reflect::set(&options, &"behavior".into(), &"instant".into());
    let scroll = Reflect::get(window, &"scrollTo".into())
        .ok()
        .and_then(|function| function.dyn_into::<web_sys::js_sys::Function>().ok());
    if let Some(scroll) = scroll {
        let _ = scroll.call1(window, &options);
    }
}

/// Brings the element `selector` names whole into the uncovered part of the window (or from its top,
/// if it is taller), once the page has drawn what the caller just changed. Nothing if it is missing
/// or already there.
pub fn bring_into_view(selector: &'static str) {
    request_animation_frame(move || {
        let Some(window) = web_sys::window() else {
            return;
        };
        let Some(element) = query(selector) else {
            return;
        };
        let (band_top, band_bottom) = uncovered_band(&window);
        let rect = element.get_bounding_client_rect();
        // Whole pixels, rounded away from zero: a page scrolls by whole pixels, and a fraction short
        // would leave the edge a fraction outside.
        let by = scroll_to_fit(rect.top(), rect.bottom(), band_top, band_bottom);
        let whole = if by < 0.0 { by.floor() } else { by.ceil() };
        if whole != 0.0 {
            scroll_page_by(&window, whole);
        }
    });
}

#[cfg(test)]
mod tests {
    use super::scroll_to_fit;

    #[test]
    fn a_view_below_the_band_comes_up_to_its_foot() {
        // A phone: 844 px high, the playback bar stuck over its last 110 px.
        assert_eq!(scroll_to_fit(600.0, 1000.0, 0.0, 734.0), 266.0);
    }

    #[test]
    fn a_view_in_the_band_stays_and_one_above_it_comes_down() {
        assert_eq!(scroll_to_fit(100.0, 700.0, 0.0, 734.0), 0.0);
        assert_eq!(scroll_to_fit(-50.0, 300.0, 0.0, 900.0), -50.0);
        // Under a bar stuck at the top: shown just below it.
        assert_eq!(scroll_to_fit(20.0, 300.0, 60.0, 900.0), -40.0);
    }

    #[test]
    fn a_view_taller_than_the_band_is_shown_from_its_top() {
        assert_eq!(scroll_to_fit(300.0, 1400.0, 0.0, 734.0), 300.0);
        assert_eq!(scroll_to_fit(-300.0, 1400.0, 0.0, 734.0), -300.0);
    }
}
