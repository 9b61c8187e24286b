//! Turns the pixel geometry from `crate::series` into plotters calls on a canvas. Only rectangles and
//! one path, straight on plotters' canvas backend (no chart builder, drawing area or text), so plotters
//! adds little to the download.

use crate::series::{Bar, LeaderChart, LeaderFill, OutcomeKind};
use plotters::prelude::{Color, DrawingBackend, RGBColor, ShapeStyle};
use plotters_canvas::CanvasBackend;
use quorumlab_sim::ids::NodeId;
use web_sys::HtmlCanvasElement;

const BACKGROUND: RGBColor = RGBColor(0x12, 0x18, 0x1f);
const GRID: RGBColor = RGBColor(0x2a, 0x36, 0x44);
const TERM_LINE: RGBColor = RGBColor(0xe6, 0xed, 0xf3);
const NO_LEADER: RGBColor = RGBColor(0xff, 0x5d, 0x5d);
const UNOBSERVED: RGBColor = RGBColor(0x6c, 0x7a, 0x89);

/// A colour per node for the leader bands, as CSS text and as RGB.
pub fn node_color(node: NodeId) -> (&'static str, RGBColor) {
    const PALETTE: [(&str, RGBColor); 10] = [
        ("#f5b942", RGBColor(0xf5, 0xb9, 0x42)),
        ("#4fb3ff", RGBColor(0x4f, 0xb3, 0xff)),
        ("#3ecf8e", RGBColor(0x3e, 0xcf, 0x8e)),
        ("#b98cff", RGBColor(0xb9, 0x8c, 0xff)),
        ("#ffa05c", RGBColor(0xff, 0xa0, 0x5c)),
        ("#5ce0d8", RGBColor(0x5c, 0xe0, 0xd8)),
        ("#d4e157", RGBColor(0xd4, 0xe1, 0x57)),
        ("#ff7ac6", RGBColor(0xff, 0x7a, 0xc6)),
        ("#8fa3ff", RGBColor(0x8f, 0xa3, 0xff)),
        ("#c9a26b", RGBColor(0xc9, 0xa2, 0x6b)),
    ];
    PALETTE[node.index() % PALETTE.len()]
}

/// Colour (CSS and RGB) and name of each outcome, matching the client panel.
pub fn outcome_color(kind: OutcomeKind) -> (&'static str, &'static str) {
    match kind {
        OutcomeKind::Committed => ("#3ecf8e", "committed"),
        OutcomeKind::Failed => ("#ff5d5d", "failed"),
        OutcomeKind::Unknown => ("#ffb347", "unknown"),
    }
}

fn outcome_rgb(kind: OutcomeKind) -> RGBColor {
    match kind {
        OutcomeKind::Committed => RGBColor(0x3e, 0xcf, 0x8e),
        OutcomeKind::Failed => RGBColor(0xff, 0x5d, 0x5d),
        OutcomeKind::Unknown => RGBColor(0xff, 0xb3, 0x47),
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
fn clear(backend: &mut CanvasBackend) {
    let (width, height) = backend.get_size();
    let (width, height) = (width as i32, height as i32);
    let _ = backend.draw_rect((0, 0), (width, height), &BACKGROUND.filled(), true);
    let _ = backend.draw_line((0, height - 1), (width, height - 1), &GRID.filled());
}

/// Draws the leader chart. Drawing errors (a canvas without a 2D context) leave the canvas blank.
pub fn draw_leader_chart(canvas: &HtmlCanvasElement, chart: &LeaderChart, pixel_ratio: f64) {
    let Some(mut backend) = CanvasBackend::with_canvas_object(canvas.clone()) else {
        return;
    };
    clear(&mut backend);
    for bar in &chart.bars {
        let style = match bar.what {
            LeaderFill::Leader(node) => node_color(node).1.filled(),
            LeaderFill::NoLeader => NO_LEADER.mix(0.28).filled(),
            LeaderFill::Unobserved => UNOBSERVED.mix(0.35).filled(),
        };
        fill_bar(&mut backend, bar, &style);
    }
    let points = chart
        .term_line
        .iter()
        .map(|(x, y)| (x.round() as i32, y.round() as i32));
    let stroke = (2.0 * pixel_ratio).round().max(1.0) as u32;
    let _ = backend.draw_path(points, &TERM_LINE.stroke_width(stroke));
}

/// Draws the stacked outcome bars.
pub fn draw_outcome_chart(canvas: &HtmlCanvasElement, bars: &[Bar<OutcomeKind>]) {
    let Some(mut backend) = CanvasBackend::with_canvas_object(canvas.clone()) else {
        return;
    };
    clear(&mut backend);
    for bar in bars {
        fill_bar(&mut backend, bar, &outcome_rgb(bar.what).filled());
    }
}
