//! Where a CDF chart puts things: a logarithmic time axis (as the Raft paper's Figure 16 draws it,
//! since one line's elections take 150 ms and another's seconds), the share of trials upwards,
//! the ticks to label, and the way back from a pixel to the nearest trial.
//!
//! Plain numbers only, so it is tested natively; the component draws with plotters and writes the
//! labels as HTML beside the canvas.

use super::outcome::CdfPoint;

/// The chart's frame in canvas pixels: the plotting area inside the margins.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ChartFrame {
    pub left: f64,
    pub top: f64,
    pub width: f64,
    pub height: f64,
    /// The time axis's ends, ms (both above zero).
    pub from_ms: f64,
    pub to_ms: f64,
}

impl ChartFrame {
    /// A frame for times between `shortest_ms` and `longest_ms`, widened to whole decades' 1-2-5
    /// steps so the ticks fall on round numbers.
    pub fn new(
        left: f64,
        top: f64,
        width: f64,
        height: f64,
        shortest_ms: f64,
        longest_ms: f64,
    ) -> ChartFrame {
        let shortest_ms = shortest_ms.max(0.01);
        let longest_ms = longest_ms.max(shortest_ms * 1.5);
        ChartFrame {
            left,
            top,
            width: width.max(1.0),
            height: height.max(1.0),
            from_ms: round_step_below(shortest_ms),
            to_ms: round_step_above(longest_ms),
        }
    }

    /// Canvas pixel of a time and a share of trials.
    pub fn pixel(&self, measured_ms: f64, fraction: f64) -> (f64, f64) {
        let span = (self.to_ms / self.from_ms).ln();
        let along = (measured_ms.max(self.from_ms) / self.from_ms).ln() / span;
        (
            self.left + along.clamp(0.0, 1.0) * self.width,
            self.top + (1.0 - fraction) * self.height,
        )
    }

    /// The times to label: 1-2-5 steps inside the axis, at most about `most` of them.
    pub fn ticks_ms(&self, most: usize) -> Vec<f64> {
        let mut ticks = Vec::new();
        let mut decade = 10f64.powf(self.from_ms.log10().floor());
        while decade <= self.to_ms && ticks.len() < 64 {
            for step in [1.0, 2.0, 5.0] {
                let tick = decade * step;
                if tick >= self.from_ms * 0.999 && tick <= self.to_ms * 1.001 {
                    ticks.push(tick);
                }
            }
            decade *= 10.0;
        }
        if ticks.len() > most {
            // Too many for the width: keep the decades (and the ends).
            ticks.retain(|tick| (tick.log10() - tick.log10().round()).abs() < 1e-9);
        }
        ticks
    }
}

/// The 1-2-5 step at or below `value`.
fn round_step_below(value: f64) -> f64 {
    let decade = 10f64.powf(value.log10().floor());
    [5.0, 2.0, 1.0]
        .into_iter()
        .map(|step| decade * step)
        .find(|step| *step <= value)
        .unwrap_or(decade)
}

/// The 1-2-5 step at or above `value`.
fn round_step_above(value: f64) -> f64 {
    let decade = 10f64.powf(value.log10().floor());
    [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|step| decade * step)
        .find(|step| *step >= value)
        .unwrap_or(decade * 10.0)
}

/// The trial whose point is nearest the pixel (`x`, `y`), with its line; `None` when nothing is
/// within `reach_px`.
pub fn nearest_point(
    frame: &ChartFrame,
    lines: &[Vec<CdfPoint>],
    x: f64,
    y: f64,
    reach_px: f64,
) -> Option<(usize, CdfPoint)> {
    let distance = |point: &CdfPoint| {
        let (px, py) = frame.pixel(point.measured_ms, point.fraction);
        (px - x).powi(2) + (py - y).powi(2)
    };
    lines
        .iter()
        .enumerate()
        .flat_map(|(line, points)| points.iter().map(move |point| (line, *point)))
        .min_by(|a, b| distance(&a.1).total_cmp(&distance(&b.1)))
        .filter(|(_, point)| distance(point) <= reach_px * reach_px)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame() -> ChartFrame {
        ChartFrame::new(40.0, 10.0, 600.0, 200.0, 130.0, 11_000.0)
    }

    #[test]
    fn the_axis_widens_to_round_steps_and_is_logarithmic() {
        let frame = frame();
        assert_eq!((frame.from_ms, frame.to_ms), (100.0, 20_000.0));
        let (left, bottom) = frame.pixel(100.0, 0.0);
        assert_eq!((left, bottom), (40.0, 210.0));
        let (right, top) = frame.pixel(20_000.0, 1.0);
        assert_eq!((right, top), (640.0, 10.0));
        // A decade takes the same width wherever it is.
        let (x100, _) = frame.pixel(100.0, 0.5);
        let (x1000, _) = frame.pixel(1_000.0, 0.5);
        let (x10000, _) = frame.pixel(10_000.0, 0.5);
        assert!(((x1000 - x100) - (x10000 - x1000)).abs() < 1e-9);
    }

    #[test]
    fn ticks_are_round_and_thinned_when_crowded() {
        let frame = frame();
        assert_eq!(
            frame.ticks_ms(20),
            vec![100.0, 200.0, 500.0, 1_000.0, 2_000.0, 5_000.0, 10_000.0, 20_000.0]
        );
        assert_eq!(frame.ticks_ms(4), vec![100.0, 1_000.0, 10_000.0]);
    }

    #[test]
    fn a_click_finds_the_nearest_trial_within_reach_only() {
        let frame = frame();
        let point = |measured_ms, fraction, trial| CdfPoint {
            measured_ms,
            fraction,
            trial,
        };
        let lines = vec![
            vec![point(150.0, 0.5, 3), point(300.0, 1.0, 7)],
            vec![point(2_000.0, 0.5, 9)],
        ];
        let (x, y) = frame.pixel(2_100.0, 0.52);
        assert_eq!(
            nearest_point(&frame, &lines, x, y, 20.0).map(|(line, point)| (line, point.trial)),
            Some((1, 9))
        );
        let (x, y) = frame.pixel(600.0, 0.1);
        assert_eq!(nearest_point(&frame, &lines, x, y, 20.0), None);
    }
}
