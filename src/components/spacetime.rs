//! The space-time (Lamport) diagram: one lane per node, time running left to right over a sliding window,
//! each message an arrow from (sender, send time) to (receiver, arrival time). Dropped messages stop short
//! with a ✕; messages that reached a paused node wait on its lane (dashed) until it handles them.
//!
//! Cheap per frame: arrows are placed at fixed x positions in "absolute" time and a single group
//! transform slides them left as time passes; a clip at "now" hides the part of an in-flight arrow that
//! has not happened yet. The visible set is capped at `MAX_DRAWN_ARROWS` and keyed by message id, so a
//! frame adds the few new arrows and removes the few that left the window.
//!
//! Clusters of more than nine nodes show focus lanes (leader, selected node, candidates, lowest ids) and
//! one "others" lane for the rest; messages between two hidden nodes are left out.

use super::cluster::messages::message_style;
use super::on_screen::track_on_screen;
use super::recycle::recycled;
use crate::context::generation::Part;
use crate::context::playback::PlaybackContext;
use crate::context::{use_hover, use_lesson, use_playback, use_run, use_selection};
use crate::format;
use crate::spacetime::{
    choose_lanes, visible_arrows, ArrowEnd, Lanes, MessageLog, PlacedArrow, RunKey, DROP_AT_SHARE,
    MAX_DRAWN_ARROWS,
};
use crate::world_text::byzantine::liar_label;
use crate::world_text::names::node_name;
use leptos::prelude::*;
use quorumlab_sim::ids::NodeId;
use quorumlab_sim::lockservice::etcd::etcd_label;
use quorumlab_sim::protocol::RoleLabel;
use quorumlab_sim::registry::speaks_etcd;
use quorumlab_sim::world::NodeStatus;

/// The drawing is as wide in user units as the SVG is in CSS pixels (measured, this until then), so a
/// 12 px label stays 12 px on screen in a narrow lesson column instead of shrinking with the picture.
const DEFAULT_WIDTH_PX: u32 = 1000;
const LABEL_PX: f64 = 78.0;
const RIGHT_MARGIN_PX: f64 = 8.0;
/// Room a tick label ("12.250 s") needs right of its tick; labels without it are left out, not clipped.
const TICK_LABEL_PX: f64 = 60.0;
const AXIS_PX: f64 = 22.0;
const LANE_PX: f64 = 30.0;
/// Arrows are placed relative to an origin that moves on in steps this long, so coordinates stay small.
const REBASE_US: u64 = 30_000_000;
/// Windows a learner can choose, in simulated microseconds.
const WINDOWS_US: [u64; 4] = [250_000, 500_000, 1_000_000, 2_000_000];
const DEFAULT_WINDOW_US: u64 = 500_000;
const TICKS_PER_WINDOW: u64 = 5;
/// Wall-clock time between two updates of the diagram (25 per second).
const MIN_REDRAW_MS: f64 = 40.0;

/// How absolute time maps to x inside the sliding group.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Scale {
    window_us: u64,
    origin_us: u64,
    width_px: u32,
}

fn plot_right_px(width_px: u32) -> f64 {
    width_px as f64 - RIGHT_MARGIN_PX
}

impl Scale {
    fn plot_px(self) -> f64 {
        plot_right_px(self.width_px) - LABEL_PX
    }

    fn x(self, at_us: u64) -> f64 {
        (at_us as f64 - self.origin_us as f64) * self.plot_px() / self.window_us as f64
    }
}

/// The SVG's width on screen in whole pixels (`None` before it is laid out).
fn measured_width(svg: &web_sys::SvgElement) -> Option<u32> {
    let width = svg.get_bounding_client_rect().width().round();
    (width >= LABEL_PX * 2.0).then_some(width as u32)
}

/// The SVG's on-screen width, measured again whenever the column can change: the window, an opened
/// lesson, presenter mode.
fn track_width(playback: PlaybackContext, svg_ref: NodeRef<leptos::svg::Svg>) -> RwSignal<u32> {
    let width_px = RwSignal::new(DEFAULT_WIDTH_PX);
    let measure = move || {
        request_animation_frame(move || {
            if let Some(width) = svg_ref.get_untracked().as_ref().and_then(measured_width) {
                _ = width_px.try_set(width);
            }
        });
    };
    Effect::new(move |_| {
        use_lesson().active.track();
        playback.presenter.track();
        measure();
    });
    let resize = window_event_listener(leptos::ev::resize, move |_| measure());
    on_cleanup(move || resize.remove());
    width_px
}

/// Ticks in the window, each with whether its label fits wholly between the lane names and "now".
fn window_ticks(now_us: u64, window_us: u64, plot_px: f64) -> Vec<(u64, bool)> {
    let step = (window_us / TICKS_PER_WINDOW).max(1);
    let first = now_us.saturating_sub(window_us) / step * step;
    let label_us = (TICK_LABEL_PX / plot_px.max(1.0) * window_us as f64) as u64;
    (0..=TICKS_PER_WINDOW + 1)
        .map(|index| first + index * step)
        .filter(|tick| *tick <= now_us)
        .map(|tick| {
            let age_us = now_us - tick;
            (tick, age_us <= window_us && age_us >= label_us)
        })
        .collect()
}

fn lane_y(lane: usize) -> f64 {
    AXIS_PX + LANE_PX * lane as f64 + LANE_PX / 2.0
}

#[component]
pub fn SpaceTime() -> impl IntoView {
    let run = use_run();
    let selection = use_selection();
    let hover = use_hover();
    let window_us = RwSignal::new(DEFAULT_WINDOW_US);
    let log = StoredValue::new_local(MessageLog::default());
    let lanes = Memo::new(move |_| {
        let selected = selection.selected.get();
        run.view.with(|view| {
            let candidates: Vec<NodeId> = view
                .nodes
                .iter()
                .filter(|node| node.role == RoleLabel::Candidate)
                .map(|node| node.id)
                .collect();
            choose_lanes(view.nodes.len(), view.leader, selected, &candidates)
        })
    });
    // The diagram follows the cluster at most every `MIN_REDRAW_MS` of wall time: each update repaints
    // the whole SVG, and 25 updates a second still look smooth for arrows that move a few pixels.
    let now_us = RwSignal::new(run.view.with_untracked(|view| view.now_us));
    let last_update_ms = StoredValue::new(f64::NEG_INFINITY);
    let catch_up_pending = StoredValue::new(false);
    // Scrolled out of sight the diagram stops following the run, and catches up (from the kept trace)
    // when it comes back.
    let section_ref = NodeRef::<leptos::html::Section>::new();
    let on_screen = track_on_screen(section_ref);
    // It follows the run out of sight while the Export menu is open, so a saved picture is up to date.
    let exporting = crate::export::menu_open();
    let exporting_now = exporting.clone();
    Effect::new(move |_| {
        if on_screen.get() || exporting_now.get() {
            now_us.set(run.view.with_untracked(|view| view.now_us));
        }
    });
    Effect::new(move |_| {
        let now = run.view.with(|view| view.now_us);
        if !on_screen.get_untracked() && !exporting.get_untracked() {
            return;
        }
        let wall_ms = window().performance().map_or(0.0, |clock| clock.now());
        let moved_back = now < now_us.get_untracked();
        if moved_back || wall_ms - last_update_ms.get_value() >= MIN_REDRAW_MS {
            last_update_ms.set_value(wall_ms);
            now_us.set(now);
        } else if !catch_up_pending.get_value() {
            // A skipped update may be the last one (a pause, a single step): catch up shortly after.
            catch_up_pending.set_value(true);
            set_timeout(
                move || {
                    _ = catch_up_pending.try_set_value(false);
                    if let Some(latest) = run.view.try_with_untracked(|view| view.now_us) {
                        _ = now_us.try_set(latest);
                    }
                },
                std::time::Duration::from_millis(MIN_REDRAW_MS as u64),
            );
        }
    });
    let svg_ref = NodeRef::<leptos::svg::Svg>::new();
    let width_px = track_width(use_playback(), svg_ref);
    let scale = Memo::new(move |_| Scale {
        window_us: window_us.get(),
        origin_us: now_us.get() / REBASE_US * REBASE_US,
        width_px: width_px.get(),
    });
    let arrows = Memo::new(move |_| {
        let now = now_us.get();
        let key = RunKey {
            node_count: run.view.with(|view| view.nodes.len()),
            seed: run.scenario.with(|scenario| scenario.seed),
            history_generation: run.generation.of(Part::History).get(),
        };
        let window = window_us.get();
        // The trace keeps the wire labels; an etcd-like service's arrows are named as etcd calls.
        let etcd = run
            .scenario
            .with(|scenario| speaks_etcd(scenario.protocol.kind()));
        lanes.with(|lanes| {
            run.with_session(|session| {
                log.try_update_value(|log| {
                    log.sync(session.trace(), now, key);
                    let mut placed =
                        visible_arrows(log.arrows(), lanes, now, window, MAX_DRAWN_ARROWS);
                    if etcd {
                        for arrow in &mut placed {
                            arrow.kind = etcd_label(arrow.kind);
                        }
                    }
                    placed
                })
                .unwrap_or_default()
            })
        })
    });
    // A hovered dot that arrives (and disappears) never reports the pointer leaving: once the message is
    // in neither view, forget it so the diagram does not stay dimmed.
    Effect::new(move |_| {
        let Some(id) = hover.hovered_message.get() else {
            return;
        };
        let shown = arrows.with(|arrows| arrows.iter().any(|arrow| arrow.id == id))
            || run
                .view
                .with_untracked(|view| view.messages.iter().any(|message| message.id == id));
        if !shown {
            hover.hovered_message.set(None);
        }
    });
    let slide = move || {
        let scale = scale.get();
        format!(
            "translate({:.2} 0)",
            plot_right_px(scale.width_px) - scale.x(now_us.get())
        )
    };
    let height = Memo::new(move |_| AXIS_PX + LANE_PX * lanes.with(Lanes::count) as f64 + 6.0);
    let ticks =
        Memo::new(move |_| window_ticks(now_us.get(), window_us.get(), scale.get().plot_px()));
    let root_class = move || {
        if hover.hovered_message.with(Option::is_some) {
            "spacetime has-hover"
        } else {
            "spacetime"
        }
    };
    let hovered_caption = move || {
        let id = hover.hovered_message.get()?;
        log.with_value(|log| {
            let arrows = log.arrows();
            let index = arrows.binary_search_by_key(&id, |arrow| arrow.id).ok()?;
            let arrow = &arrows[index];
            let fate = match arrow.end {
                ArrowEnd::Arrives => format!("arrives {}", format::sim_time(arrow.deliver_us)),
                ArrowEnd::Dropped => "lost".to_string(),
                ArrowEnd::Queued { handled_us: None } => "waiting at a paused node".to_string(),
                ArrowEnd::Queued {
                    handled_us: Some(at_us),
                } => format!("handled late, at {}", format::sim_time(at_us)),
            };
            let (from, to, says) = run.view.with_untracked(|view| {
                let coordination = view.coordination.as_ref();
                // What it carries, while it is still in flight (the arrow log keeps kinds only).
                let content = view.messages.iter().find(|message| message.id == id);
                let says = content
                    .and_then(|message| message.content.as_ref())
                    .map(|content| format!(" · says “{content}”"))
                    .unwrap_or_default();
                (
                    node_name(coordination, arrow.from),
                    node_name(coordination, arrow.to),
                    says,
                )
            });
            Some(format!(
                "{} {from} → {to}{says} · sent {} · {fate}",
                arrow.kind,
                format::sim_time(arrow.sent_us)
            ))
        })
    };

    view! {
        <section class="card spacetime-card" aria-label="Space-time diagram" data-testid="spacetime" node_ref=section_ref>
            <div class="spacetime-head">
                <h2>"Space-time diagram"</h2>
                <span class="hint">{move || lanes.with(|lanes| if lanes.others > 0 {
                    format!("focus lanes: leader, selected, candidates; {} more nodes share the last lane", lanes.others)
                } else {
                    "each line is a node; each arrow a message".to_string()
                })}</span>
                <span class="spacer"></span>
                <label class="spacetime-window">"window "
                    <select aria-label="Space-time window" data-testid="spacetime-window"
                        on:change=move |event| {
                            if let Ok(value) = event_target_value(&event).parse::<u64>() {
                                window_us.set(value);
                            }
                        }>
                        {WINDOWS_US.iter().map(|window| view! {
                            <option value=window.to_string() selected=*window == DEFAULT_WINDOW_US>{format::sim_time(*window)}</option>
                        }).collect_view()}
                    </select>
                </label>
            </div>
            <svg class=root_class node_ref=svg_ref viewBox=move || format!("0 0 {} {:.0}", width_px.get(), height.get())
                role="img" aria-label="Recent messages between nodes over time">
                <defs>
                    <clipPath id="spacetime-clip">
                        <rect x=LABEL_PX y="0" width=move || scale.get().plot_px() height=height></rect>
                    </clipPath>
                </defs>
                <LaneLabels lanes=lanes width_px=width_px />
                <g clip-path="url(#spacetime-clip)">
                    <g transform=slide
                        on:mouseover=move |event| {
                            if let Some(id) = message_id_at(&event) {
                                hover.hovered_message.set(Some(id));
                            }
                        }
                        on:mouseout=move |_| hover.hovered_message.set(None)
                        on:click=move |event| {
                            // A tap: what a hover does with a mouse.
                            if let Some(id) = message_id_at(&event) {
                                hover.hovered_message.set(Some(id));
                            }
                        }>
                        {recycled(move || {
                            // Ticks and arrows come and go all the time: they read these copies, never
                            // the app's signals (`components::recycle` says why).
                            let row_height = Memo::new(move |_| height.get());
                            let hovered = Memo::new(move |_| hover.hovered_message.get());
                            view! {
                                <For each=move || ticks.get() key=move |tick| (*tick, scale.get()) let:tick>
                                    <Tick tick=tick.0 labelled=tick.1 scale=scale.get_untracked() height=row_height />
                                </For>
                                <For each=move || arrows.get()
                                    key=move |arrow| (arrow.clone(), scale.get())
                                    let:arrow>
                                    <ArrowMark arrow=arrow scale=scale.get_untracked() hovered=hovered />
                                </For>
                            }
                        })}
                    </g>
                </g>
                <line class="st-now" x1=move || plot_right_px(width_px.get()) x2=move || plot_right_px(width_px.get()) y1=AXIS_PX - 4.0 y2=height></line>
            </svg>
            <p class="spacetime-caption" aria-live="polite">{move || hovered_caption().unwrap_or_else(|| "Hover or tap an arrow (or a message dot in the cluster) to follow it in both views.".to_string())}</p>
        </section>
    }
}

#[component]
fn LaneLabels(lanes: Memo<Lanes>, width_px: RwSignal<u32>) -> impl IntoView {
    let run = use_run();
    let lane_class = move |node: Option<NodeId>| {
        let Some(node) = node else {
            return "st-lane others";
        };
        run.view.with(|view| match view.nodes.get(node.index()) {
            Some(shown) if shown.status == NodeStatus::Crashed => "st-lane crashed",
            // A paused leader still believes it leads: its lane keeps the leader's star.
            Some(shown)
                if shown.status == NodeStatus::Paused && shown.role == RoleLabel::Leader =>
            {
                "st-lane leader paused"
            }
            Some(shown) if shown.status == NodeStatus::Paused => "st-lane paused",
            Some(shown) if shown.role == RoleLabel::Leader => "st-lane leader",
            _ => "st-lane",
        })
    };
    // Coordination worlds name their actors (`A`, `store`); a memo, so a new frame with the same names
    // does not redraw the labels.
    let labels = Memo::new(move |_| {
        run.view.with(|view| {
            view.coordination
                .as_ref()
                .map(|coordination| coordination.labels.clone())
        })
    });
    // A lying node's lane says so in words, as its node on the ring does.
    let liars = Memo::new(move |_| {
        run.view.with(|view| {
            view.nodes
                .iter()
                .map(|node| node.lying_now())
                .collect::<Vec<_>>()
        })
    });
    move || {
        lanes.with(|lanes| {
            let others = (lanes.others > 0).then_some(None);
            lanes
                .nodes
                .iter()
                .map(|node| Some(*node))
                .chain(others)
                .enumerate()
                .map(|(lane, node)| {
                    let label = match node {
                        Some(node) => labels.with(|labels| match labels {
                            Some(labels) => labels
                                .get(node.index())
                                .cloned()
                                .unwrap_or_else(|| node.to_string()),
                            None => node.to_string(),
                        }),
                        None => format!("{} others", lanes.others),
                    };
                    let liar = node.and_then(|node| liars.with(|liars| liars.get(node.index()).copied().flatten()));
                    let label = match liar {
                        Some(_) => format!("⚠ {label}"),
                        None => label,
                    };
                    let liar_words = liar.map(liar_label).unwrap_or_default();
                    let y = lane_y(lane);
                    view! {
                        <g class=move || lane_class(node)>
                            <line class="st-lane-line" x1=LABEL_PX x2=move || plot_right_px(width_px.get()) y1=y y2=y></line>
                            <text class="st-lane-label" x=LABEL_PX - 8.0 y=y + 5.0>{label}</text>
                            <text class="st-lane-liar" x=LABEL_PX + 4.0 y=y - 5.0>{liar_words}</text>
                            // Shown on the leader's lane only (CSS): the leader is marked by shape too.
                            <text class="st-lane-star" x="6" y=y + 5.0>"★"</text>
                        </g>
                    }
                })
                .collect_view()
        })
    }
}

#[component]
fn Tick(tick: u64, labelled: bool, scale: Scale, height: Memo<f64>) -> impl IntoView {
    let x = scale.x(tick);
    view! {
        <g class="st-tick">
            <line x1=x x2=x y1=AXIS_PX - 4.0 y2=height></line>
            {labelled.then(|| view! { <text x=x + 3.0 y=AXIS_PX - 8.0>{format::sim_time(tick)}</text> })}
        </g>
    }
}

/// The SVG path data of one arrow: its line, and the mark at its end with that mark's class.
fn arrow_paths(arrow: &PlacedArrow, scale: Scale) -> (String, String, &'static str) {
    let (x0, y0) = (scale.x(arrow.sent_us), lane_y(arrow.from_lane));
    let (x1, y1) = (scale.x(arrow.deliver_us), lane_y(arrow.to_lane));
    match arrow.end {
        ArrowEnd::Arrives => (
            format!("M{x0:.1} {y0:.1}L{x1:.1} {y1:.1}"),
            // A dot where it arrives.
            format!(
                "M{:.1} {y1:.1}a3.5 3.5 0 1 0 7 0a3.5 3.5 0 1 0 -7 0",
                x1 - 3.5
            ),
            "st-end",
        ),
        ArrowEnd::Dropped => {
            let x = x0 + (x1 - x0) * DROP_AT_SHARE;
            let y = y0 + (y1 - y0) * DROP_AT_SHARE;
            (
                format!("M{x0:.1} {y0:.1}L{x:.1} {y:.1}"),
                // A ✕ where it was lost.
                format!("M{:.1} {:.1}l10 10m0 -10l-10 10", x - 5.0, y - 5.0),
                "st-drop",
            )
        }
        ArrowEnd::Queued { handled_us } => {
            // A ring where it reached the paused node, then a wait along its lane; an unhandled one
            // runs on past "now" and is clipped there.
            let wait_x = handled_us.map_or(x1 + scale.plot_px() * 4.0, |at_us| scale.x(at_us));
            (
                format!("M{x0:.1} {y0:.1}L{x1:.1} {y1:.1}"),
                format!(
                    "M{:.1} {y1:.1}a4.5 4.5 0 1 0 9 0a4.5 4.5 0 1 0 -9 0M{x1:.1} {y1:.1}H{wait_x:.1}",
                    x1 - 4.5
                ),
                "st-queued",
            )
        }
    }
}

/// The message id of the arrow (or message dot) under the pointer, if any.
fn message_id_at(event: &leptos::ev::MouseEvent) -> Option<u64> {
    event_target::<web_sys::Element>(event)
        .closest("[data-message-id]")
        .ok()
        .flatten()?
        .get_attribute("data-message-id")?
        .parse()
        .ok()
}

#[component]
fn ArrowMark(arrow: PlacedArrow, scale: Scale, hovered: Memo<Option<u64>>) -> impl IntoView {
    let id = arrow.id;
    let (line, end, end_class) = arrow_paths(&arrow, scale);
    let (kind_class, _) = message_style(arrow.kind);
    let dropped = if arrow.end == ArrowEnd::Dropped {
        " dropped"
    } else {
        ""
    };
    let class = move || {
        let hovered = hovered.get() == Some(id);
        format!(
            "st-arrow {kind_class}{dropped}{}",
            if hovered { " hovered" } else { "" }
        )
    };
    view! {
        <g class=class data-kind=arrow.kind data-message-id=id.to_string()>
            <path class="st-hit" d=line.clone()></path>
            <path class="st-line" d=line></path>
            <path class=end_class d=end></path>
        </g>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_tick_labels_with_room_are_shown() {
        // 500 ms over 500 px: a label needs 60 ms of room left of "now", and none may start before the window.
        let ticks = window_ticks(1_230_000, 500_000, 500.0);
        let labelled: Vec<u64> = ticks
            .iter()
            .filter(|(_, shown)| *shown)
            .map(|(tick, _)| *tick)
            .collect();
        assert_eq!(ticks.first().map(|(tick, _)| *tick), Some(700_000));
        assert_eq!(labelled, [800_000, 900_000, 1_000_000, 1_100_000]);
    }
}
