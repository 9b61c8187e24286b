//! An experiment's result: the CDF of each line on a logarithmic time axis (plotters on a canvas,
//! labels in HTML), a table of each line's numbers with its median and worst trials one click
//! away, and the downloads (JSON, CSV, and the experiment file with its scenario for the CLI).
//! Clicking near a point of the chart opens that trial on the cluster.

use crate::components::charts::palette::{series_css, ChartPalette};
use crate::experiment::chart_axes::{nearest_point, ChartFrame};
use crate::experiment::outcome::{CdfPoint, Outcome};
use crate::experiment::sheet::{ExperimentSheetState, Finished, RunStatus};
use crate::web_io;
use leptos::prelude::*;
use plotters::prelude::{Color, DrawingBackend};
use plotters_canvas::CanvasBackend;
use std::sync::Arc;

const CHART_HEIGHT_PX: f64 = 260.0;
/// Room for the share labels on the left and the time labels below.
const MARGIN_LEFT_PX: f64 = 44.0;
const MARGIN_BOTTOM_PX: f64 = 26.0;
const MARGIN_TOP_PX: f64 = 10.0;
const MARGIN_RIGHT_PX: f64 = 14.0;
/// How far from a point a click still opens it.
const CLICK_REACH_PX: f64 = 24.0;

fn milliseconds(value: Option<f64>) -> String {
    match value {
        Some(ms) if ms >= 10_000.0 => format!("{:.1} s", ms / 1_000.0),
        Some(ms) if ms >= 100.0 => format!("{ms:.0} ms"),
        Some(ms) => format!("{ms:.1} ms"),
        None => "beyond the bound".into(),
    }
}

fn tick_text(ms: f64) -> String {
    if ms >= 1_000.0 {
        format!("{} s", ms / 1_000.0)
    } else {
        format!("{ms} ms")
    }
}

/// The frame for a canvas `width_px` wide (CSS pixels).
fn frame_for(outcome: &Outcome, width_px: f64) -> ChartFrame {
    let shortest_ms = outcome
        .rows
        .iter()
        .filter_map(|row| row.measured_us)
        .min()
        .map_or(1.0, |us| us as f64 / 1_000.0);
    ChartFrame::new(
        MARGIN_LEFT_PX,
        MARGIN_TOP_PX,
        width_px - MARGIN_LEFT_PX - MARGIN_RIGHT_PX,
        CHART_HEIGHT_PX - MARGIN_TOP_PX - MARGIN_BOTTOM_PX,
        shortest_ms,
        outcome.longest_ms(),
    )
}

/// Draws every line's CDF as a staircase. Errors (no 2D context) leave the canvas blank.
fn draw(
    canvas: &web_sys::HtmlCanvasElement,
    frame: &ChartFrame,
    lines: &[Vec<CdfPoint>],
    palette: &ChartPalette,
    ratio: f64,
) {
    let Some(mut backend) = CanvasBackend::with_canvas_object(canvas.clone()) else {
        return;
    };
    let scaled = |(x, y): (f64, f64)| ((x * ratio).round() as i32, (y * ratio).round() as i32);
    let (width, height) = backend.get_size();
    let _ = backend.draw_rect(
        (0, 0),
        (width as i32, height as i32),
        &palette.background.filled(),
        true,
    );
    for tick in frame.ticks_ms(usize::MAX) {
        let (x, _) = frame.pixel(tick, 0.0);
        let _ = backend.draw_line(
            scaled((x, frame.top)),
            scaled((x, frame.top + frame.height)),
            &palette.grid.filled(),
        );
    }
    for quarter in 0..=4 {
        let y = frame.top + frame.height * f64::from(quarter) / 4.0;
        let _ = backend.draw_line(
            scaled((frame.left, y)),
            scaled((frame.left + frame.width, y)),
            &palette.grid.filled(),
        );
    }
    for (line, points) in lines.iter().enumerate() {
        let colour = palette.series[line % palette.series.len()];
        let style = colour.stroke_width((2.0 * ratio).round() as u32);
        let mut path = vec![scaled(frame.pixel(frame.from_ms, 0.0))];
        let mut below = 0.0;
        for point in points {
            path.push(scaled(frame.pixel(point.measured_ms, below)));
            path.push(scaled(frame.pixel(point.measured_ms, point.fraction)));
            below = point.fraction;
        }
        path.push(scaled(frame.pixel(frame.to_ms, below)));
        let _ = backend.draw_path(path, &style);
    }
}

#[component]
pub fn ExperimentChart() -> impl IntoView {
    let sheet = expect_context::<ExperimentSheetState>();
    let finished = move || match sheet.status.get() {
        RunStatus::Finished(finished) => Some(finished),
        _ => None,
    };
    view! {
        {move || finished().map(|finished| view! { <ResultView finished=finished /> })}
    }
}

#[component]
fn ResultView(finished: Arc<Finished>) -> impl IntoView {
    let sheet = expect_context::<ExperimentSheetState>();
    let canvas = NodeRef::<leptos::html::Canvas>::new();
    let probe = NodeRef::<leptos::html::Span>::new();
    let outcome = &finished.outcome;
    let lines: Arc<Vec<Vec<CdfPoint>>> = Arc::new(
        (0..outcome.lines.len())
            .map(|line| outcome.cdf(line))
            .collect(),
    );
    let shown_width = RwSignal::new(0.0);
    let (drawn_outcome, drawn_lines) = (finished.clone(), lines.clone());
    Effect::new(move |_| {
        let (Some(canvas), Some(probe)) = (canvas.get(), probe.get()) else {
            return;
        };
        let ratio = window().device_pixel_ratio().clamp(1.0, 3.0);
        let width = f64::from(canvas.client_width().max(200));
        canvas.set_width((width * ratio) as u32);
        canvas.set_height((CHART_HEIGHT_PX * ratio) as u32);
        let frame = frame_for(&drawn_outcome.outcome, width);
        draw(
            &canvas,
            &frame,
            &drawn_lines,
            &ChartPalette::read(&probe),
            ratio,
        );
        shown_width.set(width);
    });
    let (clicked_outcome, clicked_lines) = (finished.clone(), lines.clone());
    let on_click = move |event: leptos::ev::MouseEvent| {
        let width = shown_width.get_untracked();
        if width <= 0.0 {
            return;
        }
        let frame = frame_for(&clicked_outcome.outcome, width);
        let (x, y) = (f64::from(event.offset_x()), f64::from(event.offset_y()));
        if let Some((line, point)) = nearest_point(&frame, &clicked_lines, x, y, CLICK_REACH_PX) {
            sheet.open_trial(line, point.trial);
        }
    };
    let labels_outcome = finished.clone();
    let tick_labels = move || {
        let width = shown_width.get();
        if width <= 0.0 {
            return Vec::new();
        }
        let frame = frame_for(&labels_outcome.outcome, width);
        let most = (frame.width / 60.0) as usize;
        frame
            .ticks_ms(most.max(2))
            .into_iter()
            .map(|tick| {
                let (x, _) = frame.pixel(tick, 0.0);
                view! { <span class="experiment-tick" style=format!("left: {x:.0}px")>{tick_text(tick)}</span> }
            })
            .collect::<Vec<_>>()
    };
    let measure_words = match outcome.measure.as_str() {
        "first_election" => "time from the start to the first leader",
        "leaderless_time" => "time without a leader over the whole run",
        "commit_latency" => "time from a write to its acknowledgement",
        _ => "time from the leader's crash to the next leader",
    };
    view! {
        <div class="experiment-result" data-testid="experiment-result">
            <h3>{format!("{} — {measure_words}", outcome.title)}</h3>
            <div class="experiment-chart">
                <span class="chart-probe" node_ref=probe aria-hidden="true"></span>
                <span class="experiment-share top" aria-hidden="true">"all trials"</span>
                <span class="experiment-share middle" aria-hidden="true">"half"</span>
                <canvas node_ref=canvas class="experiment-canvas" data-testid="experiment-canvas" role="img" on:click=on_click
                    aria-label=format!("Share of trials (upwards) done within a time (across, logarithmic), one line per {}; the table below has the same numbers", outcome.key)></canvas>
                <div class="experiment-ticks" aria-hidden="true">{tick_labels}</div>
            </div>
            <p class="muted">"Each line climbs as more of its trials are done; further left is faster. Click a point to open that trial on the cluster."</p>
            <LineTable finished=finished.clone() />
            <Downloads finished=finished />
        </div>
    }
}

#[component]
fn LineTable(finished: Arc<Finished>) -> impl IntoView {
    let sheet = expect_context::<ExperimentSheetState>();
    let outcome = &finished.outcome;
    let rows = outcome
        .lines
        .iter()
        .enumerate()
        .map(|(line, shown)| {
            let summary = &shown.summary;
            let median = outcome.trial_near(line, summary.median_ms.unwrap_or(f64::MAX));
            let worst = outcome.trial_near(line, summary.worst_elected_ms.unwrap_or(f64::MAX));
            let not_elected = summary.censored + summary.no_leader_to_crash;
            view! {
                <tr data-testid="experiment-line">
                    <th scope="row"><span class="swatch" style=format!("background: {}", series_css(line))></span>{shown.value.clone()}</th>
                    <td>{summary.trials}</td>
                    <td>{if not_elected == 0 { "none".to_string() } else { not_elected.to_string() }}</td>
                    <td data-testid="experiment-median">{milliseconds(summary.median_ms)}</td>
                    <td>{milliseconds(summary.p90_ms)}</td>
                    <td>{milliseconds(summary.mean_elected_ms)}</td>
                    <td>{milliseconds(summary.worst_elected_ms)}</td>
                    <td class="experiment-open">
                        {median.map(|point| view! { <button class="link" data-testid="experiment-open-median"
                            aria-label=format!("Open the median trial of {}", shown.value) on:click=move |_| sheet.open_trial(line, point.trial)>"median"</button> })}
                        {worst.map(|point| view! { <button class="link" data-testid="experiment-open-worst"
                            aria-label=format!("Open the worst trial of {}", shown.value) on:click=move |_| sheet.open_trial(line, point.trial)>"worst"</button> })}
                    </td>
                </tr>
            }
        })
        .collect_view();
    view! {
        <div class="experiment-table-wrap">
            <table class="experiment-table">
                <thead><tr>
                    <th scope="col">{outcome.key.replace('_', " ")}</th><th scope="col">"trials"</th><th scope="col">{if outcome.measure == "commit_latency" { "not acknowledged" } else { "no leader" }}</th>
                    <th scope="col">"median"</th><th scope="col">"90%"</th><th scope="col">"mean"</th><th scope="col">"worst"</th><th scope="col">"open a run"</th>
                </tr></thead>
                <tbody>{rows}</tbody>
            </table>
        </div>
    }
}

#[component]
fn Downloads(finished: Arc<Finished>) -> impl IntoView {
    let say = move |result: Result<(), String>| {
        if let Err(problem) = result {
            expect_context::<ExperimentSheetState>()
                .status
                .set(RunStatus::Failed(problem));
        }
    };
    let (json, csv, files) = (finished.clone(), finished.clone(), finished);
    view! {
        <div class="experiment-downloads">
            <button class="button" data-testid="experiment-json" on:click=move |_| say(web_io::download_text("experiment.json", "application/json", &json.result_json))>"Results (JSON)"</button>
            <button class="button" data-testid="experiment-csv" on:click=move |_| say(web_io::download_text("experiment.csv", "text/csv", &csv.result_csv))>"Results (CSV)"</button>
            <button class="button" data-testid="experiment-file" on:click=move |_| {
                say(web_io::download_text("experiment.toml", "application/toml", &files.experiment_toml));
                say(web_io::download_text("scenario.toml", "application/toml", &files.scenario_toml));
            }>"Experiment file + scenario (for the CLI)"</button>
        </div>
    }
}
