//! The fault-schedule lane under the timeline: the scenario's `[[step]]` list drawn as marks on a
//! track, the steps still to come editable. Drag a mark to move it, drag its right edge to change a
//! pause's or partition's length, or select it and use the keys (←/→ move by 100 ms, Shift for 1 s;
//! ↑/↓ lengthen or shorten; Delete removes). The form below places a new fault at a chosen time (a tap
//! on the track picks the time). Every edit goes through `crate::schedule::apply_edit` and
//! `Session::set_future_steps`, so the schedule exports as TOML and travels in share links.

mod add_fault;

use crate::context::generation::Part;
use crate::context::lesson::LessonContext;
use crate::context::run::RunContext;
use crate::context::{use_lesson, use_run};
use crate::format;
use crate::schedule::{apply_edit, lane_marks, Edit, LaneMark};
use crate::state::controls::{use_controls, Controls};
use add_fault::AddFault;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// Whether the lane is open (the gallery's demo flag opens it).
#[derive(Clone, Copy)]
pub struct ScheduleShown(pub RwSignal<bool>);

impl ScheduleShown {
    pub fn install() -> ScheduleShown {
        // Kept with the page's other ways of showing a run, so a share link can reopen it.
        let shown = ScheduleShown(crate::context::use_playback().schedule_open);
        provide_context(shown);
        shown
    }
}

/// Where the lane's edits go, and where their outcome shows (all signals, so it is `Copy`).
#[derive(Clone, Copy)]
pub(super) struct Editor {
    run: RunContext,
    lessons: LessonContext,
    controls: Controls,
    selected: RwSignal<Option<usize>>,
    error: RwSignal<Option<String>>,
}

impl Editor {
    fn new(
        run: RunContext,
        selected: RwSignal<Option<usize>>,
        error: RwSignal<Option<String>>,
    ) -> Editor {
        Editor {
            run,
            lessons: use_lesson(),
            controls: use_controls(),
            selected,
            error,
        }
    }

    pub(super) fn run(&self, edit: Edit) {
        match commit(self, &edit) {
            Ok(index) => {
                self.error.set(None);
                self.selected.set(index);
                if let Some(index) = index {
                    focus_mark(index);
                }
            }
            Err(reason) => self.error.set(Some(format!("Not changed: {reason}."))),
        }
    }
}

/// How far a key press moves or stretches a mark, in ms (with Shift: [`BIG_NUDGE_MS`]).
const NUDGE_MS: u64 = 100;
const BIG_NUDGE_MS: u64 = 1_000;
/// Where a drag lands is rounded to this many ms.
const DRAG_GRID_MS: u64 = 10;
/// A press that moves less than this many pixels is a click (select), not a drag.
const DRAG_THRESHOLD_PX: f64 = 3.0;

/// One mark as drawn: its place on the lane and its words.
#[derive(Clone, Debug, PartialEq)]
struct DrawnMark {
    mark: LaneMark,
    label: String,
    class: &'static str,
}

/// A drag in progress: which mark, whether it moves or stretches, and where the pointer started.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Drag {
    index: usize,
    resize: bool,
    start_x: f64,
    width_px: f64,
    span_ms: u64,
    at_ms: u64,
    end_ms: Option<u64>,
    delta_ms: i64,
}

impl Drag {
    fn edit(&self) -> Edit {
        let shifted = |ms: u64| (ms as i64 + self.delta_ms).max(0) as u64;
        if self.resize {
            let end_ms = shifted(self.end_ms.unwrap_or(self.at_ms));
            Edit::Resize {
                index: self.index,
                span_ms: end_ms.saturating_sub(self.at_ms),
            }
        } else {
            Edit::Move {
                index: self.index,
                to_ms: shifted(self.at_ms),
            }
        }
    }
}

/// A mark's words: the narration's, except a Byzantine step names its mode outright.
fn mark_label(
    action: &quorumlab_sim::action::Action,
    name: &dyn Fn(quorumlab_sim::ids::NodeId) -> String,
) -> String {
    use quorumlab_sim::action::{Action, NodeTarget};
    match action {
        Action::Byzantine {
            target: NodeTarget::Node(node),
            mode,
        } => format!("⚠ {} Byzantine: {}", name(*node), mode.name()),
        _ => format::describe_action_named(action, name),
    }
}

fn mark_class(action: &quorumlab_sim::action::Action) -> &'static str {
    use quorumlab_sim::action::Action::*;
    match action {
        Crash { .. } | Restart { .. } => "crash",
        Pause { .. } | Resume { .. } => "pause",
        Partition { .. } | Isolate { .. } | Cut { .. } | Heal | Regions { .. } => "partition",
        ClockJump { .. } | ClockDrift { .. } => "clock",
        Request { .. } => "request",
        Byzantine { .. } => "byzantine",
        _ => "other",
    }
}

/// The lane's length in ms: the whole run when it is short, else enough to show what is scheduled.
fn lane_span_ms(duration_ms: u64, now_ms: u64, last_ms: u64) -> u64 {
    let wanted = (now_ms.max(last_ms) * 5 / 4).div_ceil(1_000) * 1_000;
    duration_ms.min(wanted.max(10_000)).max(1)
}

/// Applies `edit` to the running session's schedule; the error says why it was refused.
fn commit(editor: &Editor, edit: &Edit) -> Result<Option<usize>, String> {
    if editor.lessons.active.with_untracked(Option::is_some) {
        return Err(
            "a lesson's schedule is part of the lesson; close the lesson to edit it".into(),
        );
    }
    let (steps, now_us, duration_ms) = editor.run.with_session(|session| {
        (
            session.scenario().steps.clone(),
            session.now().as_micros(),
            session.scenario().duration_ms,
        )
    });
    let (steps, index) = apply_edit(&steps, edit, now_us, duration_ms)?;
    editor.controls.set_future_steps(steps)?;
    Ok(index)
}

fn focus_mark(index: usize) {
    request_animation_frame(move || {
        crate::web_io::focus_element(&format!(
            "[data-testid=schedule-mark][data-index=\"{index}\"]"
        ));
    });
}

#[component]
pub fn ScheduleLane() -> impl IntoView {
    let run = use_run();
    let shown = expect_context::<ScheduleShown>().0;
    let selected = RwSignal::new(None::<usize>);
    let error = RwSignal::new(None::<String>);
    let drag = RwSignal::new(None::<Drag>);
    let place_at_ms = RwSignal::new(None::<u64>);
    let now_us = move || run.panel_view.with(|view| view.now_us);
    let drawn = Memo::new(move |_| {
        run.generation.of(Part::History).track();
        let now_us = now_us();
        run.scenario.with(|scenario| {
            run.with_session(|session| {
                let name = |node| session.node_label(node);
                lane_marks(&scenario.steps, now_us)
                    .into_iter()
                    .map(|mark| {
                        let step = &scenario.steps[mark.index];
                        DrawnMark {
                            label: mark_label(&step.action, &name),
                            class: mark_class(&step.action),
                            mark,
                        }
                    })
                    .collect::<Vec<_>>()
            })
        })
    });
    let span_ms = Memo::new(move |_| {
        let now_ms = now_us() / 1_000;
        let last_ms = drawn.with(|marks| {
            marks
                .iter()
                .map(|drawn| drawn.mark.end_ms.unwrap_or(drawn.mark.at_ms))
                .max()
                .unwrap_or(0)
        });
        let duration_ms = run.scenario.with(|scenario| scenario.duration_ms);
        lane_span_ms(duration_ms, now_ms, last_ms)
    });
    let run_edit = Editor::new(run, selected, error);
    let count = move || run.scenario.with(|scenario| scenario.steps.len());
    view! {
        <section class="schedule-lane-card" aria-label="Fault schedule">
            <button class="schedule-toggle" data-testid="schedule-toggle" aria-expanded=move || shown.get().to_string()
                on:click=move |_| shown.update(|open| *open = !*open)>
                {move || {
                    let count = count();
                    format!("{} Fault schedule ({count} step{})", if shown.get() { "▾" } else { "▸" }, if count == 1 { "" } else { "s" })
                }}
            </button>
            <Show when=move || shown.get()>
                <div class="schedule-lane" data-testid="schedule-lane">
                    <LaneTrack drawn=drawn span_ms=span_ms selected=selected drag=drag place_at_ms=place_at_ms run_edit=run_edit />
                    <SelectedMark drawn=drawn selected=selected run_edit=run_edit />
                    <AddFault place_at_ms=place_at_ms run_edit=run_edit />
                    <Show when=move || error.with(Option::is_some)>
                        <p class="error" role="alert" data-testid="schedule-error">{move || error.get().unwrap_or_default()}</p>
                    </Show>
                    <p class="hint">"Drag a mark to move it, drag its right edge to change how long it lasts. Or select it: ←/→ move it by 100 ms (Shift: 1 s), ↑/↓ make it longer or shorter, Delete removes it. Only what is still to come can change."</p>
                </div>
            </Show>
        </section>
    }
}

#[component]
fn LaneTrack(
    drawn: Memo<Vec<DrawnMark>>,
    span_ms: Memo<u64>,
    selected: RwSignal<Option<usize>>,
    drag: RwSignal<Option<Drag>>,
    place_at_ms: RwSignal<Option<u64>>,
    run_edit: Editor,
) -> impl IntoView {
    let run = use_run();
    let percent = move |ms: u64| 100.0 * ms as f64 / span_ms.get() as f64;
    let now_percent = move || percent(run.panel_view.with(|view| view.now_us) / 1_000).min(100.0);
    let pick_time = move |event: leptos::ev::PointerEvent| {
        let Some(track) = event
            .current_target()
            .and_then(|target| target.dyn_into::<web_sys::Element>().ok())
        else {
            return;
        };
        let bounds = track.get_bounding_client_rect();
        let share =
            ((event.client_x() as f64 - bounds.left()) / bounds.width().max(1.0)).clamp(0.0, 1.0);
        let at_ms = (share * span_ms.get_untracked() as f64 / 100.0).round() as u64 * 100;
        place_at_ms.set(Some(at_ms));
    };
    view! {
        <div class="schedule-track" data-testid="schedule-track" data-span-ms=move || span_ms.get().to_string()
            on:pointerdown=pick_time>
            <div class="schedule-past" style=move || format!("width: {:.3}%", now_percent())></div>
            <div class="schedule-now" style=move || format!("left: {:.3}%", now_percent())></div>
            <For each=move || drawn.get() key=|drawn| (drawn.mark.clone(), drawn.label.clone()) let:drawn>
                <LaneMarkButton drawn=drawn percent=percent selected=selected drag=drag span_ms=span_ms run_edit=run_edit />
            </For>
            {move || place_at_ms.get().map(|at_ms| view! {
                <div class="schedule-place" style=format!("left: {:.3}%", percent(at_ms)) aria-hidden="true"></div>
            })}
            <span class="schedule-scale muted" aria-hidden="true">{move || format::sim_time(span_ms.get() * 1_000)}</span>
        </div>
    }
}

#[component]
fn LaneMarkButton(
    drawn: DrawnMark,
    percent: impl Fn(u64) -> f64 + Copy + Send + Sync + 'static,
    selected: RwSignal<Option<usize>>,
    drag: RwSignal<Option<Drag>>,
    span_ms: Memo<u64>,
    run_edit: Editor,
) -> impl IntoView {
    let mark = drawn.mark.clone();
    let index = mark.index;
    let dragged = move || drag.get().filter(|drag| drag.index == index);
    let place = {
        let mark = mark.clone();
        move || {
            let (mut at_ms, mut end_ms) = (mark.at_ms, mark.end_ms);
            if let Some(drag) = dragged() {
                let shifted = |ms: u64| (ms as i64 + drag.delta_ms).max(0) as u64;
                if drag.resize {
                    end_ms = end_ms.map(shifted);
                } else {
                    at_ms = shifted(at_ms);
                    end_ms = end_ms.map(shifted);
                }
            }
            let width = end_ms.map_or(0.0, |end_ms| percent(end_ms) - percent(at_ms));
            format!(
                "left: {:.3}%; width: max(14px, {:.3}%)",
                percent(at_ms),
                width.max(0.0)
            )
        }
    };
    let start_drag = {
        let mark = mark.clone();
        move |event: leptos::ev::PointerEvent, resize: bool| {
            event.stop_propagation();
            selected.set(Some(index));
            if !mark.editable || (resize && !mark.resizable()) {
                return;
            }
            let Some(element) = event
                .current_target()
                .and_then(|target| target.dyn_into::<web_sys::Element>().ok())
            else {
                return;
            };
            let track = element
                .closest(".schedule-track")
                .ok()
                .flatten()
                .unwrap_or(element.clone());
            let _ = element.set_pointer_capture(event.pointer_id());
            drag.set(Some(Drag {
                index,
                resize,
                start_x: event.client_x() as f64,
                width_px: track.get_bounding_client_rect().width().max(1.0),
                span_ms: span_ms.get_untracked(),
                at_ms: mark.at_ms,
                end_ms: mark.end_ms,
                delta_ms: 0,
            }));
        }
    };
    let follow = move |event: leptos::ev::PointerEvent| {
        drag.update(|drag| {
            if let Some(drag) = drag.as_mut().filter(|drag| drag.index == index) {
                let moved_px = event.client_x() as f64 - drag.start_x;
                let delta = moved_px / drag.width_px * drag.span_ms as f64;
                drag.delta_ms = (delta / DRAG_GRID_MS as f64).round() as i64 * DRAG_GRID_MS as i64;
            }
        });
    };
    let finish = move |event: leptos::ev::PointerEvent| {
        let Some(ended) = drag.get_untracked().filter(|drag| drag.index == index) else {
            return;
        };
        drag.set(None);
        if (event.client_x() as f64 - ended.start_x).abs() >= DRAG_THRESHOLD_PX
            && ended.delta_ms != 0
        {
            run_edit.run(ended.edit());
        } else {
            focus_mark(index);
        }
    };
    let keys = {
        let mark = mark.clone();
        move |event: leptos::ev::KeyboardEvent| {
            let step = if event.shift_key() {
                BIG_NUDGE_MS
            } else {
                NUDGE_MS
            };
            let span = mark.end_ms.map(|end_ms| end_ms - mark.at_ms);
            let edit = match event.key().as_str() {
                "ArrowLeft" => Edit::Move {
                    index,
                    to_ms: mark.at_ms.saturating_sub(step),
                },
                "ArrowRight" => Edit::Move {
                    index,
                    to_ms: mark.at_ms + step,
                },
                "ArrowUp" => Edit::Resize {
                    index,
                    span_ms: span.unwrap_or(0) + step,
                },
                "ArrowDown" => Edit::Resize {
                    index,
                    span_ms: span.unwrap_or(0).saturating_sub(step),
                },
                "Delete" | "Backspace" => Edit::Delete { index },
                _ => return,
            };
            // The window's shortcuts (arrows step the run) see the key as handled.
            event.prevent_default();
            event.stop_propagation();
            selected.set(Some(index));
            run_edit.run(edit);
        }
    };
    let class = {
        let mark = mark.clone();
        let kind = drawn.class;
        move || {
            format!(
                "schedule-mark schedule-{kind}{}{}{}{}",
                if mark.end_ms.is_some() {
                    " has-span"
                } else {
                    ""
                },
                if mark.editable { "" } else { " past" },
                if selected.get() == Some(index) {
                    " selected"
                } else {
                    ""
                },
                if dragged().is_some() { " dragging" } else { "" }
            )
        }
    };
    let label = format!(
        "{} at {}{}",
        drawn.label,
        format::sim_time(mark.at_ms * 1_000),
        mark.end_ms
            .map(|end_ms| format!(" until {}", format::sim_time(end_ms * 1_000)))
            .unwrap_or_default()
    );
    let resizable = mark.resizable();
    let start_move = start_drag.clone();
    view! {
        <button class=class style=place data-testid="schedule-mark" data-index=index.to_string()
            data-at-ms=mark.at_ms.to_string() data-end-ms=mark.end_ms.map(|end| end.to_string()).unwrap_or_default()
            data-editable=mark.editable.to_string() aria-pressed=move || (selected.get() == Some(index)).to_string()
            aria-label=label.clone() title=label
            on:pointerdown=move |event| start_move(event, false)
            on:pointermove=follow on:pointerup=finish on:pointercancel=move |_| drag.set(None)
            on:keydown=keys>
            <span class="schedule-mark-text" aria-hidden="true">{drawn.label.clone()}</span>
            {resizable.then(|| view! {
                <span class="schedule-resize" data-testid="schedule-resize" aria-hidden="true"
                    on:pointerdown=move |event| start_drag(event, true)
                    on:pointermove=follow on:pointerup=finish></span>
            })}
        </button>
    }
}

/// The selected mark in words, with a Delete button for touch screens.
#[component]
fn SelectedMark(
    drawn: Memo<Vec<DrawnMark>>,
    selected: RwSignal<Option<usize>>,
    run_edit: Editor,
) -> impl IntoView {
    let chosen = move || {
        let index = selected.get()?;
        drawn.with(|marks| {
            marks
                .iter()
                .find(|drawn| drawn.mark.index == index)
                .cloned()
        })
    };
    view! {
        {move || chosen().map(|drawn| {
            let index = drawn.mark.index;
            let when = format!(
                "{} at {}{}",
                drawn.label,
                format::sim_time(drawn.mark.at_ms * 1_000),
                drawn.mark.end_ms.map(|end_ms| format!(", until {}", format::sim_time(end_ms * 1_000))).unwrap_or_default()
            );
            view! {
                <p class="schedule-selected" data-testid="schedule-selected">
                    <span>{when}</span>
                    {if drawn.mark.editable {
                        view! { <button data-testid="schedule-delete" on:click=move |_| run_edit.run(Edit::Delete { index })>"Delete"</button> }.into_any()
                    } else {
                        view! { <span class="muted">" (in the past: fixed)"</span> }.into_any()
                    }}
                </p>
            }
        })}
    }
}
