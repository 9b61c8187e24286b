//! Two small charts drawn with plotters on a canvas: who led in which term over time (no-leader gaps
//! shaded), and how client requests ended over time (committed / failed / unknown, stacked per bucket),
//! with the newest writes' mean commit latency beside it (`crate::latency`).
//!
//! Every published view is observed into the series of `crate::series` (a few comparisons per frame);
//! the canvases are redrawn at most four times a second, and only when the time or the series changed
//! and the card is open. Text stays in HTML around the canvases, so plotters needs no font support.

mod draw;
pub mod palette;

use crate::components::on_screen::track_on_screen;
use crate::context::use_run;
use crate::format;
use crate::latency::latency_text;
use crate::series::{
    chart_span, leader_chart, outcome_bars, LeaderSeries, OutcomeKind, OutcomeSeries,
};
use crate::theme::{Theme, ThemeState};
use crate::world_text::capabilities::no_leader_chart;
use draw::{draw_leader_chart, draw_outcome_chart, outcome_color};
use leptos::prelude::*;
use palette::{series_css, ChartPalette};
use quorumlab_sim::ids::NodeId;
use std::time::Duration;

const REDRAW_EVERY: Duration = Duration::from_millis(250);
/// The charts show the whole run while it is short, then its newest 20 s (never less than 2 s wide).
const MIN_SPAN_US: u64 = 2_000_000;
const MAX_SPAN_US: u64 = 20_000_000;
const BUCKETS: usize = 40;
const CHART_HEIGHT_PX: f64 = 110.0;

/// Everything observed for one run (a new seed or size starts over).
#[derive(Default)]
struct ChartHistory {
    run: (u64, usize),
    leaders: LeaderSeries,
    outcomes: OutcomeSeries,
}

/// The HTML text around the canvases, refreshed with each redraw.
#[derive(Clone, Debug, Default, PartialEq)]
struct ChartLabels {
    from_us: u64,
    to_us: u64,
    max_term: u64,
    leaders: Vec<NodeId>,
    leaderless_us: u64,
    tallest: u32,
    totals: [u32; 3],
}

/// What a drawing depends on; the same key twice means nothing to redraw.
#[derive(Clone, Copy, Debug, PartialEq)]
struct DrawKey {
    now_us: u64,
    leader_revision: u64,
    outcome_revision: u64,
    width_px: u32,
}

#[component]
pub fn Charts() -> impl IntoView {
    let shown = use_run();
    let history = StoredValue::new_local(ChartHistory::default());
    let open = RwSignal::new(true);
    let labels = RwSignal::new(ChartLabels::default());
    let leader_canvas = NodeRef::<leptos::html::Canvas>::new();
    let outcome_canvas = NodeRef::<leptos::html::Canvas>::new();
    let probe = NodeRef::<leptos::html::Span>::new();
    let theme = expect_context::<ThemeState>();
    // The palette of the theme it was read in; a new theme reads it again and repaints.
    let palette = StoredValue::new_local(None::<(Theme, ChartPalette)>);

    Effect::new(move |_| {
        let run = shown
            .scenario
            .with(|scenario| (scenario.seed, scenario.node_count));
        let counts = shown.with_session(|session| {
            let counts = session.request_counts();
            [counts.committed, counts.failed, counts.unknown]
        });
        shown.view.with(|view| {
            let term = view.nodes.iter().map(|node| node.term.0).max().unwrap_or(0);
            let recent = view.recent_requests.iter().filter_map(|record| {
                Some((record.finished_at_us?, OutcomeKind::of(&record.outcome)?))
            });
            history.update_value(|history| {
                if history.run != run {
                    *history = ChartHistory {
                        run,
                        ..ChartHistory::default()
                    };
                }
                history.leaders.observe(view.now_us, view.leader, term);
                history.outcomes.observe(view.now_us, counts, recent);
            });
        });
    });

    let last_drawn = StoredValue::new_local(None::<DrawKey>);
    Effect::new(move |_| {
        theme.resolved();
        last_drawn.set_value(None);
    });
    // Nobody sees a chart scrolled out of sight: it is drawn again as it comes back.
    let card = NodeRef::<leptos::html::Details>::new();
    let on_screen = track_on_screen(card);
    let redraw = move || {
        if !open.try_get_untracked().unwrap_or(false)
            || !on_screen.try_get_untracked().unwrap_or(false)
        {
            return;
        }
        let (Some(leader_canvas), Some(outcome_canvas), Some(probe)) = (
            leader_canvas.get_untracked(),
            outcome_canvas.get_untracked(),
            probe.get_untracked(),
        ) else {
            return;
        };
        // A chart built in a part that has just arrived exists a moment before it is on the page; the
        // stylesheet's colours cannot be read off it until it is.
        if !probe.is_connected() {
            return;
        }
        let Some(now_us) = shown.view.try_with_untracked(|view| view.now_us) else {
            return;
        };
        let ratio = window().device_pixel_ratio().clamp(1.0, 3.0);
        // The leader chart is hidden in worlds that elect no leader: the outcome chart's width serves.
        let shown_width = leader_canvas
            .client_width()
            .max(outcome_canvas.client_width());
        let width_px = (shown_width.max(40) as f64 * ratio) as u32;
        let height_px = (CHART_HEIGHT_PX * ratio) as u32;
        let Some(Some(key)) = history.try_with_value(|history| {
            Some(DrawKey {
                now_us,
                leader_revision: history.leaders.revision,
                outcome_revision: history.outcomes.revision,
                width_px,
            })
        }) else {
            return;
        };
        // A palette read in the instant between a theme change and the page's styles following it
        // keeps the old colours; the background as the styles give it now says so, and forces a repaint.
        let stale_palette = palette.with_value(|palette| {
            palette.as_ref().is_some_and(|(_, colors)| {
                palette::background_now(&probe).is_some_and(|now| now != colors.background)
            })
        });
        if stale_palette {
            palette.set_value(None);
            last_drawn.set_value(None);
        }
        if last_drawn.get_value() == Some(key) {
            return;
        }
        last_drawn.set_value(Some(key));
        for canvas in [&leader_canvas, &outcome_canvas] {
            if canvas.width() != width_px || canvas.height() != height_px {
                canvas.set_width(width_px);
                canvas.set_height(height_px);
            }
        }
        let in_effect = theme
            .choice
            .get_untracked()
            .resolve(theme.system_light.get_untracked());
        if palette.with_value(|palette| palette.as_ref().map(|(read_in, _)| *read_in))
            != Some(in_effect)
        {
            palette.set_value(Some((in_effect, ChartPalette::read(&probe))));
        }
        let Some(colors) =
            palette.with_value(|palette| palette.as_ref().map(|(_, colors)| colors.clone()))
        else {
            return;
        };
        let (from_us, to_us) = chart_span(now_us, MIN_SPAN_US, MAX_SPAN_US);
        let (width, height) = (width_px as f64, height_px as f64);
        let new_labels = history.with_value(|history| {
            let chart = leader_chart(&history.leaders, from_us, to_us, width, height);
            draw_leader_chart(&leader_canvas, &chart, ratio, &colors);
            let buckets = history.outcomes.buckets(from_us, to_us, BUCKETS);
            let (bars, tallest) = outcome_bars(&buckets, width, height);
            draw_outcome_chart(&outcome_canvas, &bars, &colors);
            let mut leaders: Vec<NodeId> = Vec::new();
            let mut leaderless_us = 0;
            for segment in history.leaders.segments(from_us, now_us) {
                match segment.leader {
                    Some(node) if !leaders.contains(&node) => leaders.push(node),
                    Some(_) => {}
                    None => leaderless_us += segment.end_us - segment.start_us,
                }
            }
            let mut totals = [0u32; 3];
            for bucket in &buckets {
                for (total, count) in totals.iter_mut().zip(bucket) {
                    *total += count;
                }
            }
            ChartLabels {
                from_us,
                to_us,
                max_term: chart.max_term,
                leaders,
                leaderless_us,
                tallest,
                totals,
            }
        });
        if labels.try_with_untracked(|labels| *labels != new_labels) == Some(true) {
            labels.set(new_labels);
        }
    };
    Effect::new(move |_| {
        if on_screen.get() {
            redraw();
        }
    });
    if let Ok(handle) = set_interval_with_handle(redraw, REDRAW_EVERY) {
        on_cleanup(move || handle.clear());
    }

    let span_start = move || labels.with(|labels| format::sim_time(labels.from_us));
    let span_end = move || labels.with(|labels| format::sim_time(labels.to_us));
    let leader_legend = move || {
        labels.with(|labels| {
            labels
                .leaders
                .iter()
                .map(|node| {
                    let style = format!("background:{}", series_css(node.index()));
                    view! { <span class="legend-item"><span class="swatch" style=style></span>{node.to_string()}</span> }
                })
                .collect_view()
        })
    };
    let outcome_legend = move || {
        labels.with(|labels| {
            OutcomeKind::ALL
                .iter()
                .zip(labels.totals)
                .map(|(kind, total)| {
                    let (css, name) = outcome_color(*kind);
                    let style = format!("background:{css}");
                    view! { <span class="legend-item"><span class="swatch" style=style></span>{format!("{name} {total}")}</span> }
                })
                .collect_view()
        })
    };

    let commit_latency =
        Memo::new(move |_| shown.view.with(|view| latency_text(&view.recent_requests)));
    // A world that elects no leader gets a sentence saying so instead of a chart of a leader that never
    // exists (Paxos drew a solid "no leader" band under "term 1").
    let no_leader = Memo::new(move |_| {
        shown
            .scenario
            .with(|scenario| no_leader_chart(scenario.protocol.kind()))
    });
    let elects_no_leader = move || no_leader.with(Option::is_some);

    view! {
        <details class="card charts-card" open=true data-testid="charts" node_ref=card
            on:toggle=move |event| {
                open.set(event_target::<web_sys::Element>(&event).has_attribute("open"));
                last_drawn.set_value(None);
            }>
            <summary><h2>"Charts"</h2></summary>
            <span class="chart-probe" node_ref=probe aria-hidden="true"></span>
            <p class="muted chart-none" data-testid="chart-no-leader" hidden=move || !elects_no_leader()>
                {move || no_leader.get().unwrap_or_default()}
            </p>
            <figure class="chart" data-testid="chart-leader" hidden=elects_no_leader>
                <figcaption>
                    <span class="chart-title">"Leader and term"</span>
                    {leader_legend}
                    <span class="legend-item"><span class="swatch swatch-gap"></span>
                        {move || labels.with(|labels| format!("no leader {}", format::sim_time(labels.leaderless_us)))}</span>
                    <span class="legend-item"><span class="swatch swatch-term"></span>"highest term"</span>
                </figcaption>
                <div class="chart-body">
                    <span class="chart-y">{move || labels.with(|labels| format!("term {}", labels.max_term))}</span>
                    <canvas node_ref=leader_canvas class="chart-canvas" role="img"
                        aria-label="Leader over time as coloured bands, no-leader gaps shaded, highest term as a step line"></canvas>
                </div>
                <div class="chart-x"><span>{span_start}</span><span>{span_end}</span></div>
            </figure>
            <figure class="chart" data-testid="chart-outcomes">
                <figcaption>
                    <span class="chart-title">"Client requests"</span>
                    {outcome_legend}
                    <span class="legend-item chart-latency" data-testid="commit-latency">{commit_latency}</span>
                </figcaption>
                <div class="chart-body">
                    <span class="chart-y">{move || labels.with(|labels| format!("{} per bar", labels.tallest))}</span>
                    <canvas node_ref=outcome_canvas class="chart-canvas" role="img"
                        aria-label="Client request outcomes over time, stacked per time bucket"></canvas>
                </div>
                <div class="chart-x"><span>{span_start}</span><span>{span_end}</span></div>
            </figure>
        </details>
    }
}
