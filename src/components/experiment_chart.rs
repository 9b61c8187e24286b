//! An experiment's result: the CDF of each line on a logarithmic time axis, or a linear axis for a
//! count (plotters on a canvas, labels in HTML), a table of each line's numbers with its median and worst trials one click
//! away, and the downloads (JSON, CSV, and the experiment file with its scenario for the CLI).
//! Clicking near a point of the chart opens that trial on the cluster.

use crate::components::charts::palette::{series_css, ChartPalette};
use crate::experiment::chart_axes::{nearest_point, ChartFrame, Scale};
use crate::experiment::outcome::{CdfPoint, Outcome, Unit};
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

/// A line's number in its unit: a time in ms or s, a count with one decimal.
fn value_text(unit: Unit, value: Option<f64>) -> String {
    match (unit, value) {
        (Unit::Count, Some(count)) => format!("{count:.1}"),
        (Unit::Time, Some(ms)) if ms >= 10_000.0 => format!("{:.1} s", ms / 1_000.0),
        (Unit::Time, Some(ms)) if ms >= 100.0 => format!("{ms:.0} ms"),
        (Unit::Time, Some(ms)) => format!("{ms:.1} ms"),
        (Unit::Time, None) => "beyond the bound".into(),
        (Unit::Count, None) => "censored".into(),
    }
}

fn tick_text(unit: Unit, value: f64) -> String {
    match unit {
        Unit::Count => format!("{value}"),
        Unit::Time if value >= 1_000.0 => format!("{} s", value / 1_000.0),
        Unit::Time => format!("{value} ms"),
    }
}

/// The frame for a canvas `width_px` wide (CSS pixels).
fn frame_for(outcome: &Outcome, width_px: f64) -> ChartFrame {
    let (smallest, largest) = outcome.value_range();
    let scale = match outcome.unit {
        Unit::Time => Scale::Log,
        Unit::Count => Scale::Linear,
    };
    let area = (
        MARGIN_LEFT_PX,
        MARGIN_TOP_PX,
        width_px - MARGIN_LEFT_PX - MARGIN_RIGHT_PX,
        CHART_HEIGHT_PX - MARGIN_TOP_PX - MARGIN_BOTTOM_PX,
    );
    ChartFrame::new(area, smallest, largest, scale)
}

/// What the chart's values are, after the title.
fn measure_words(outcome: &Outcome) -> String {
    match outcome.measure.as_str() {
        "first_election" => "time from the start to the first leader".into(),
        "leaderless_time" => "time without a leader over the whole run".into(),
        "commit_latency" => "time from a write to its acknowledgement".into(),
        "election_after_action" => match outcome.action.as_deref() {
            Some("pause") => "time from pausing the leader to a new leader".into(),
            Some("isolate") => "time from cutting the leader off to a new leader".into(),
            _ => "time from the leader's crash to the next leader".into(),
        },
        "messages_per_commit" => "messages sent per committed entry".into(),
        "checkpoint_time" => format!(
            "time until the checkpoint {} ticks",
            outcome.checkpoint.as_deref().unwrap_or("?")
        ),
        _ => "time from the leader's crash to the next leader".into(),
    }
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
    for tick in frame.ticks(usize::MAX) {
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
        let mut path = vec![scaled(frame.pixel(frame.from, 0.0))];
        let mut below = 0.0;
        for point in points {
            path.push(scaled(frame.pixel(point.value, below)));
            path.push(scaled(frame.pixel(point.value, point.fraction)));
            below = point.fraction;
        }
        path.push(scaled(frame.pixel(frame.to, below)));
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
    let unit = outcome.unit;
    let tick_labels = move || {
        let width = shown_width.get();
        if width <= 0.0 {
            return Vec::new();
        }
        let frame = frame_for(&labels_outcome.outcome, width);
        let most = (frame.width / 60.0) as usize;
        frame
            .ticks(most.max(2))
            .into_iter()
            .map(|tick| {
                let (x, _) = frame.pixel(tick, 0.0);
                view! { <span class="experiment-tick" style=format!("left: {x:.0}px")>{tick_text(unit, tick)}</span> }
            })
            .collect::<Vec<_>>()
    };
    let measure_words = measure_words(outcome);
    let (across, reading) = match unit {
        Unit::Time => ("a time (across, logarithmic)", "further left is faster"),
        Unit::Count => (
            "a number of messages per committed entry (across, linear)",
            "further left is cheaper",
        ),
    };
    view! {
        <div class="experiment-result" data-testid="experiment-result">
            <h3>{format!("{} — {measure_words}", outcome.title)}</h3>
            <div class="experiment-chart">
                <span class="chart-probe" node_ref=probe aria-hidden="true"></span>
                <span class="experiment-share top" aria-hidden="true">"all trials"</span>
                <span class="experiment-share middle" aria-hidden="true">"half"</span>
                <canvas node_ref=canvas class="experiment-canvas" data-testid="experiment-canvas" role="img" on:click=on_click
                    aria-label=format!("Share of trials (upwards) done within {across}, one line per {}; the table below has the same numbers", outcome.key)></canvas>
                <div class="experiment-ticks" aria-hidden="true">{tick_labels}</div>
            </div>
            {(unit == Unit::Count).then(|| view! { <p class="experiment-axis-name" data-testid="experiment-axis-name">"messages per committed entry →"</p> })}
            <p class="muted">{format!("Each line climbs as more of its trials are done; {reading}. Click a point to open that trial on the cluster.")}</p>
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
            let median = outcome.trial_near(line, summary.median.unwrap_or(f64::MAX));
            let worst = outcome.trial_near(line, summary.worst.unwrap_or(f64::MAX));
            let unit = outcome.unit;
            let not_elected = summary.censored + summary.no_leader_to_crash;
            view! {
                <tr data-testid="experiment-line">
                    <th scope="row"><span class="swatch" style=format!("background: {}", series_css(line))></span>{shown.value.clone()}</th>
                    <td>{summary.trials}</td>
                    <td>{if not_elected == 0 { "none".to_string() } else { not_elected.to_string() }}</td>
                    <td data-testid="experiment-median">{value_text(unit, summary.median)}</td>
                    <td>{value_text(unit, summary.p90)}</td>
                    <td>{value_text(unit, summary.mean)}</td>
                    <td>{value_text(unit, summary.worst)}</td>
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
                    <th scope="col">{outcome.key.replace('_', " ")}</th><th scope="col">"trials"</th><th scope="col">{not_measured_heading(&outcome.measure)}</th>
                    <th scope="col">"median"</th><th scope="col">"90%"</th><th scope="col">"mean"</th><th scope="col">"worst"</th><th scope="col">"open a run"</th>
                </tr></thead>
                <tbody>{rows}</tbody>
            </table>
        </div>
    }
}

/// The table's column of trials that measured nothing or were censored.
fn not_measured_heading(measure: &str) -> &'static str {
    match measure {
        "commit_latency" => "not acknowledged",
        "messages_per_commit" => "not all answered",
        "checkpoint_time" => "never ticked",
        _ => "no leader",
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
