//! Turns the pixel geometry from `crate::series` into plotters calls on a canvas. Only rectangles and
//! one path, straight on plotters' canvas backend (no chart builder, drawing area or text), so plotters
//! adds little to the download.

use super::palette::{ChartPalette, SERIES};
use crate::series::{Bar, LeaderChart, LeaderFill, OutcomeKind};
use plotters::prelude::{Color, DrawingBackend, RGBColor, ShapeStyle};
use plotters_canvas::CanvasBackend;
use web_sys::HtmlCanvasElement;

/// Name and CSS colour of each outcome, matching the client panel (the canvas paints the same
/// variables, resolved in the palette).
pub fn outcome_color(kind: OutcomeKind) -> (&'static str, &'static str) {
    match kind {
        OutcomeKind::Committed => ("var(--ok)", "committed"),
        OutcomeKind::Failed => ("var(--danger)", "failed"),
        OutcomeKind::Unknown => ("var(--warn)", "unknown"),
    }
}

fn outcome_rgb(kind: OutcomeKind, palette: &ChartPalette) -> RGBColor {
    match kind {
        OutcomeKind::Committed => palette.outcomes[0],
        OutcomeKind::Failed => palette.outcomes[1],
        OutcomeKind::Unknown => palette.outcomes[2],
    }
}

/// A filled rectangle, at least one pixel wide so a short gap still shows.
fn fill_bar<T>(backend: &mut CanvasBackend, bar: &Bar<T>, style: &ShapeStyle) {
    let left = bar.x0.round() as i32;
    let right = (bar.x1.round() as i32).max(left + 1);
    let top_left = (left, bar.y0.round() as i32);
    let _ = backend.draw_rect(top_left, (right, bar.y1.round() as i32), style, true);
}

/// Clears the canvas to the chart background with a baseline along the bottom.
fn clear(backend: &mut CanvasBackend, palette: &ChartPalette) {
    let (width, height) = backend.get_size();
    let (width, height) = (width as i32, height as i32);
    let _ = backend.draw_rect((0, 0), (width, height), &palette.background.filled(), true);
    let _ = backend.draw_line((0, height - 1), (width, height - 1), &palette.grid.filled());
}

/// Draws the leader chart. Drawing errors (a canvas without a 2D context) leave the canvas blank.
pub fn draw_leader_chart(
    canvas: &HtmlCanvasElement,
    chart: &LeaderChart,
    pixel_ratio: f64,
    palette: &ChartPalette,
) {
    let Some(mut backend) = CanvasBackend::with_canvas_object(canvas.clone()) else {
        return;
    };
    clear(&mut backend, palette);
    for bar in &chart.bars {
        let style = match bar.what {
            LeaderFill::Leader(node) => palette.series[node.index() % SERIES].filled(),
            LeaderFill::NoLeader => palette.no_leader.mix(0.28).filled(),
            LeaderFill::Unobserved => palette.unobserved.mix(0.35).filled(),
        };
        fill_bar(&mut backend, bar, &style);
    }
    let points = chart
        .term_line
        .iter()
        .map(|(x, y)| (x.round() as i32, y.round() as i32));
    let stroke = (2.0 * pixel_ratio).round().max(1.0) as u32;
    let _ = backend.draw_path(points, &palette.term_line.stroke_width(stroke));
}

/// Draws the stacked outcome bars.
pub fn draw_outcome_chart(
    canvas: &HtmlCanvasElement,
    bars: &[Bar<OutcomeKind>],
    palette: &ChartPalette,
) {
    let Some(mut backend) = CanvasBackend::with_canvas_object(canvas.clone()) else {
        return;
    };
    clear(&mut backend, palette);
    for bar in bars {
        fill_bar(&mut backend, bar, &outcome_rgb(bar.what, palette).filled());
    }
}
