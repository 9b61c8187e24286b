//! The actions on a node, beside the node: a click, a tap, or Enter on a focused node opens them here,
//! so breaking a node never means scrolling to the Inspector. The buttons are the Inspector's own rows
//! (`NodeActionRows`), applied through the same `AppState::apply`. It is placed off the other nodes of
//! the ring (`crate::placement`), so the node a learner clicks next is never under it. On a phone there
//! is no room beside a ring that fills the screen's width: the actions are a sheet along the bottom of
//! the screen (style/access.css), and the page scrolls, if it must, to show the ring above the sheet.
//!
//! Keyboard: focus moves into the popover when it opens; arrow keys and Tab move between its buttons
//! (Tab wraps, as in a dialog), Space or Enter presses the focused one; Escape closes it and puts focus
//! back on the node. Focus stays inside while it is open: a row redrawn under the focus (the run
//! resumed a paused node, a shortcut crashed it) hands it to the row's new first button rather than
//! dropping it on the page, where Escape and Space would fall through to the page's shortcuts. A
//! press anywhere outside closes it.

use crate::components::node_actions::{NodeActionRows, PauseForMs};
use crate::context::lesson::LessonContext;
use crate::context::playback::PlaybackContext;
use crate::context::selection::SelectionContext;
use crate::context::{use_lesson, use_playback, use_run, use_selection};
use crate::placement::{place_beside_keeping, Rect};
use crate::world_text::names::node_name;
use leptos::ev;
use leptos::prelude::*;
use quorumlab_sim::ids::NodeId;
use wasm_bindgen::JsCast;

/// The node whose popover is open, shared by the nodes (which open it) and the popover.
#[derive(Clone, Copy)]
pub struct NodePopoverTarget(pub RwSignal<Option<NodeId>>);

fn node_selector(node: NodeId) -> String {
    format!("[data-testid=cluster-view] [data-testid=node-{node}]")
}

fn query(selector: &str) -> Option<web_sys::Element> {
    document().query_selector(selector).ok().flatten()
}

fn rect_of(element: &web_sys::Element) -> Rect {
    let bounds = element.get_bounding_client_rect();
    Rect {
        left: bounds.left(),
        top: bounds.top(),
        width: bounds.width(),
        height: bounds.height(),
    }
}

fn viewport() -> Rect {
    let root = document().document_element();
    let (width, height) = root.map_or((0.0, 0.0), |root| {
        (root.client_width() as f64, root.client_height() as f64)
    });
    Rect {
        left: 0.0,
        top: 0.0,
        width,
        height,
    }
}

/// The popover's offset inside the stage, beside the node and on screen; `None` before both are drawn.
fn spot_for(node: NodeId, popover: &web_sys::HtmlElement) -> Option<(f64, f64)> {
    let anchor = rect_of(&query(&node_selector(node))?);
    let stage = rect_of(&popover.offset_parent()?);
    let size = rect_of(popover);
    let screen = viewport();
    let others: Vec<Rect> = document()
        .query_selector_all("[data-testid=cluster-view] .node")
        .map(|found| {
            (0..found.length())
                .filter_map(|index| found.item(index)?.dyn_into::<web_sys::Element>().ok())
                .map(|element| rect_of(&element))
                .filter(|other| *other != anchor)
                .collect()
        })
        .unwrap_or_default();
    // In a lesson, the step in hand (its instruction names the node to act on) stays readable too.
    let step: Vec<Rect> = query("[data-testid=current-step]")
        .map(|step| rect_of(&step))
        .into_iter()
        .collect();
    let (left, top) = place_beside_keeping(
        anchor,
        size.width,
        size.height,
        &[stage.intersect(screen), screen],
        &others,
        &step,
    );
    Some((left - stage.left, top - stage.top))
}

/// Where the popover is a sheet along the screen's foot rather than a box beside the node.
const SHEET_QUERY: &str = "(max-width: 600px)";
/// Room kept between the ring and the sheet's top edge.
const ABOVE_SHEET_PX: f64 = 8.0;

/// How far to scroll down (negative: up) so that `shown` lies between the window's top and `sheet_top`;
/// zero when it already does, or when it is too tall to (then its bottom edge is brought above the sheet).
pub fn scroll_to_clear(shown: Rect, sheet_top: f64) -> f64 {
    let room = sheet_top - ABOVE_SHEET_PX;
    if shown.bottom() > room {
        // Down far enough to lift its foot above the sheet, but not so far its head leaves the window.
        let lift = shown.bottom() - room;
        return if shown.height <= room {
            lift
        } else {
            lift.min(shown.top.max(0.0))
        };
    }
    if shown.top < 0.0 {
        return shown.top - ABOVE_SHEET_PX;
    }
    0.0
}

/// With the sheet open, scrolls the ring (else at least `node`) into the space above it.
fn show_ring_above_sheet(node: NodeId, sheet: &web_sys::HtmlElement) {
    let sheet_top = rect_of(sheet).top;
    let shown = query("[data-testid=cluster-view]")
        .map(|stage| rect_of(&stage))
        .filter(|ring| ring.height <= sheet_top - ABOVE_SHEET_PX)
        .or_else(|| query(&node_selector(node)).map(|anchor| rect_of(&anchor)));
    let Some(shown) = shown else {
        return;
    };
    let by = scroll_to_clear(shown, sheet_top);
    if by != 0.0 {
        window().scroll_by_with_x_and_y(0.0, by);
    }
}

fn buttons(popover: &web_sys::HtmlElement) -> Vec<web_sys::HtmlElement> {
    let Ok(found) = popover.query_selector_all("button, input") else {
        return Vec::new();
    };
    (0..found.length())
        .filter_map(|index| found.item(index))
        .filter_map(|node| node.dyn_into::<web_sys::HtmlElement>().ok())
        .collect()
}

fn focused_index(popover: &web_sys::HtmlElement) -> Option<usize> {
    let active = document().active_element()?;
    buttons(popover)
        .iter()
        .position(|button| button.unchecked_ref::<web_sys::Element>() == &active)
}

fn focus_button(popover: &web_sys::HtmlElement, index: usize) {
    let all = buttons(popover);
    if let Some(button) = all.get(index.min(all.len().saturating_sub(1))) {
        _ = button.focus();
    }
}

fn focus_node(node: NodeId) {
    if let Some(element) = query(&node_selector(node)) {
        _ = element.unchecked_into::<web_sys::SvgElement>().focus();
    }
}

/// Where a key moves focus among `count` buttons from `from`; `None` for a key that is not ours.
pub fn next_focus(key: &str, shift: bool, from: Option<usize>, count: usize) -> Option<usize> {
    if count == 0 {
        return None;
    }
    let last = count - 1;
    let from = from.unwrap_or(0);
    match (key, shift) {
        ("ArrowDown" | "ArrowRight", _) | ("Tab", false) => {
            Some(if from >= last { 0 } else { from + 1 })
        }
        ("ArrowUp" | "ArrowLeft", _) | ("Tab", true) => {
            Some(if from == 0 { last } else { from - 1 })
        }
        ("Home", _) => Some(0),
        ("End", _) => Some(last),
        _ => None,
    }
}

/// The popover's reactive parts, shared by its listeners and its view.
#[derive(Clone, Copy)]
struct Popover {
    open: RwSignal<Option<NodeId>>,
    /// Offset inside the stage; `None` while it is being measured.
    spot: RwSignal<Option<(f64, f64)>>,
    element: NodeRef<leptos::html::Div>,
    /// The row (`data-group`) and position of the control that last held focus inside it.
    last_focus: StoredValue<Option<(String, usize)>>,
}

impl Popover {
    fn close(self, return_focus: bool) {
        if let Some(node) = self.open.get_untracked() {
            self.open.set(None);
            if return_focus {
                focus_node(node);
            }
        }
    }

    /// Places it by its real size once drawn (the frame after a change), optionally focusing its first action.
    fn place(self, focus_first: bool) {
        // The frame may come after the stage is gone (compare mode opened and closed within it), and its
        // signals with it: then there is nothing to place.
        request_animation_frame(move || {
            let (Some(node), Some(popover)) = (
                self.open.try_get_untracked().flatten(),
                self.element.try_get_untracked().flatten(),
            ) else {
                return;
            };
            if crate::web_io::matches_media(SHEET_QUERY) {
                // The stylesheet pins the sheet to the screen's foot; the offset only marks it placed.
                self.spot.set(Some((0.0, 0.0)));
                show_ring_above_sheet(node, &popover);
            } else if let Some(found) = spot_for(node, &popover) {
                self.spot.set(Some(found));
            }
            if focus_first {
                focus_button(&popover, 0);
            }
        });
    }

    fn on_key(self, event: ev::KeyboardEvent) {
        let Some(popover) = self.element.get_untracked() else {
            return;
        };
        if event.key() == "Escape" {
            event.prevent_default();
            self.close(true);
            return;
        }
        // In the pause-length field the sideways keys move the caret, not the focus.
        let in_field = document()
            .active_element()
            .is_some_and(|active| active.tag_name().eq_ignore_ascii_case("input"));
        if in_field
            && matches!(
                event.key().as_str(),
                "ArrowLeft" | "ArrowRight" | "Home" | "End"
            )
        {
            return;
        }
        let count = buttons(&popover).len();
        let from = focused_index(&popover);
        if let Some(index) = next_focus(&event.key(), event.shift_key(), from, count) {
            event.prevent_default();
            focus_button(&popover, index);
        }
    }

    /// Remembers where focus is inside, so a redrawn row can hand it back.
    fn note_focus(self) {
        let Some(popover) = self.element.get_untracked() else {
            return;
        };
        let row = document()
            .active_element()
            .and_then(|active| active.closest(".action-row").ok().flatten())
            .and_then(|row| row.get_attribute("data-group"));
        let index = focused_index(&popover).unwrap_or(0);
        self.last_focus
            .set_value(Some((row.unwrap_or_default(), index)));
    }

    /// After its rows changed (a choice, or the run: Pause 200 ms became Resume and back), a row drawn
    /// anew has dropped the focus on the page: it goes to that row's first button, where the undo now
    /// sits (else to the same place in the list), and the box, maybe another size now, is placed again.
    fn rows_changed(self) {
        // Two frames on: by then the rows are drawn anew whichever of the app's updates ran first.
        request_animation_frame(move || {
            request_animation_frame(move || {
                let Some(popover) = self.element.try_get_untracked().flatten() else {
                    return;
                };
                let active = document().active_element();
                let dropped = active
                    .as_ref()
                    .is_none_or(|active| active.tag_name().eq_ignore_ascii_case("body"));
                if !dropped || popover.contains(active.as_deref()) {
                    return;
                }
                let Some((group, index)) = self.last_focus.try_get_value().flatten() else {
                    return;
                };
                let selector = format!(".action-row[data-group=\"{group}\"] button");
                let first_in_row = popover.query_selector(&selector).ok().flatten();
                match first_in_row.and_then(|button| button.dyn_into::<web_sys::HtmlElement>().ok())
                {
                    Some(button) => _ = button.focus(),
                    None => focus_button(&popover, index),
                }
            })
        });
        self.place(false);
    }

    fn style(self) -> String {
        match self.spot.get() {
            Some((left, top)) => format!("left: {left:.0}px; top: {top:.0}px"),
            // Transparent rather than hidden while it is measured: a hidden button cannot take focus.
            None => "left: 0; top: 0; opacity: 0; pointer-events: none".to_string(),
        }
    }
}

/// Opening measures and places it; the page reflowing (presenter mode, a lesson, a resize) moves it.
fn follow_layout(playback: PlaybackContext, lessons: LessonContext, popover: Popover) {
    Effect::new(move |previous: Option<Option<NodeId>>| {
        let now_open = popover.open.get();
        if now_open.is_some() && previous != Some(now_open) {
            popover.spot.set(None);
            popover.place(true);
        }
        now_open
    });
    Effect::new(move |_| {
        playback.presenter.track();
        lessons.active.track();
        popover.place(false);
    });
    let resize = window_event_listener(ev::resize, move |_| popover.place(false));
    on_cleanup(move || resize.remove());
}

/// A press outside it, or choosing another node some other way (1–9, Escape, a fresh run), closes it.
fn close_when_left(selection: SelectionContext, popover: Popover) {
    Effect::new(move |_| {
        let selected = selection.selected.get();
        let open = popover.open.get_untracked();
        if open.is_some_and(|node| Some(node) != selected) {
            popover.open.set(None);
        }
    });
    let outside = window_event_listener(ev::pointerdown, move |event| {
        let Some(node) = popover.open.get_untracked() else {
            return;
        };
        let Some(target) = event
            .target()
            .and_then(|target| target.dyn_into::<web_sys::Element>().ok())
        else {
            return;
        };
        let inside = |selector: &str| target.closest(selector).ok().flatten().is_some();
        if !inside(".node-popover") && !inside(&node_selector(node)) {
            popover.close(false);
        }
    });
    on_cleanup(move || outside.remove());
}

#[component]
pub fn NodePopover() -> impl IntoView {
    let run = use_run();
    let playback = use_playback();
    let selection = use_selection();
    let popover = Popover {
        open: expect_context::<NodePopoverTarget>().0,
        spot: RwSignal::new(None),
        element: NodeRef::new(),
        last_focus: StoredValue::new(None),
    };
    follow_layout(playback, use_lesson(), popover);
    close_when_left(selection, popover);
    let after = Callback::new(move |()| popover.rows_changed());
    move || {
        popover.open.get().map(|node| {
            let name = move || run.panel_view.with(|view| node_name(view.coordination.as_ref(), node));
            let status = move || {
                run.panel_view.with(|view| {
                    view.nodes
                        .get(node.index())
                        .map_or("gone", |shown| shown.status.as_str())
                })
            };
            view! {
                // tabindex -1: a press on its words keeps focus inside, so Escape still reaches it.
                <div class="node-popover" node_ref=popover.element role="dialog" data-testid="node-popover" tabindex="-1"
                    aria-label=move || format!("Actions on {}", name()) style=move || popover.style()
                    on:keydown=move |event| popover.on_key(event) on:focusin=move |_| popover.note_focus()>
                    <div class="popover-head">
                        <strong>{name}</strong>
                        <span class="muted" data-testid="popover-status">{status}</span>
                    </div>
                    <NodeActionRows node=node named=true after=after />
                    <Show when=move || status() == "up">
                        <PauseForMs node=node named=true after=after />
                    </Show>
                    // Last in the focus order, so focus starts on the first action; drawn top right.
                    <button class="link popover-close" aria-label=move || format!("Close the actions on {}", name())
                        on:click=move |_| popover.close(true)>"✕"</button>
                </div>
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arrows_and_tab_cycle_through_the_buttons() {
        assert_eq!(next_focus("ArrowDown", false, Some(0), 3), Some(1));
        assert_eq!(next_focus("Tab", false, Some(2), 3), Some(0));
        assert_eq!(next_focus("Tab", true, Some(0), 3), Some(2));
        assert_eq!(next_focus("ArrowLeft", false, Some(1), 3), Some(0));
        assert_eq!(next_focus("End", false, None, 3), Some(2));
        assert_eq!(next_focus("Enter", false, Some(1), 3), None);
        assert_eq!(next_focus("Tab", false, None, 0), None);
    }

    fn rect(top: f64, height: f64) -> Rect {
        Rect {
            left: 0.0,
            top,
            width: 370.0,
            height,
        }
    }

    #[test]
    fn the_ring_is_scrolled_into_the_room_above_the_sheet() {
        // Under the sheet's top (456): scroll down until its foot clears it.
        assert_eq!(scroll_to_clear(rect(250.0, 300.0), 456.0), 102.0);
        // Already above it: no scroll.
        assert_eq!(scroll_to_clear(rect(100.0, 300.0), 456.0), 0.0);
        // Its head above the window: scroll up to show it.
        assert_eq!(scroll_to_clear(rect(-50.0, 300.0), 456.0), -58.0);
        // Taller than the room: its foot comes up only as far as its head stays on screen.
        assert_eq!(scroll_to_clear(rect(40.0, 600.0), 456.0), 40.0);
    }
}
