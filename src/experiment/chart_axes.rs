//! Where a CDF chart puts things: a logarithmic time axis (as the Raft paper's Figure 16 draws it,
//! since one line's elections take 150 ms and another's seconds) or a linear count axis (messages
//! per commit vary by a few, never by decades), the share of trials upwards, the ticks to label,
//! and the way back from a pixel to the nearest trial.
//!
//! Plain numbers only, so it is tested natively; the component draws with plotters and writes the
//! labels as HTML beside the canvas.

use super::outcome::CdfPoint;

/// How values are laid across.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scale {
    /// Times: a decade takes the same width wherever it is.
    Log,
    /// Counts: equal differences take equal widths.
    Linear,
}

/// The chart's frame in canvas pixels: the plotting area inside the margins.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ChartFrame {
    pub left: f64,
    pub top: f64,
    pub width: f64,
    pub height: f64,
    /// The axis's ends in the shown unit (ms, or a count); above zero on a logarithmic axis.
    pub from: f64,
    pub to: f64,
    pub scale: Scale,
}

impl ChartFrame {
    /// A frame for values between `smallest` and `largest`, widened to round numbers: whole
    /// decades' 1-2-5 steps on a logarithmic axis, whole tick steps on a linear one.
    pub fn new(
        (left, top, width, height): (f64, f64, f64, f64),
        smallest: f64,
        largest: f64,
        scale: Scale,
    ) -> ChartFrame {
        let (from, to) = match scale {
            Scale::Log => {
                let smallest = smallest.max(0.01);
                let largest = largest.max(smallest * 1.5);
                (round_step_below(smallest), round_step_above(largest))
            }
            Scale::Linear => {
                let step = linear_step((largest - smallest).max(1.0) / 4.0);
                let from = (smallest / step).floor() * step;
                (from, ((largest / step).ceil() * step).max(from + step))
            }
        };
        ChartFrame {
            left,
            top,
            width: width.max(1.0),
            height: height.max(1.0),
            from,
            to,
            scale,
        }
    }

    /// Canvas pixel of a value and a share of trials.
    pub fn pixel(&self, value: f64, fraction: f64) -> (f64, f64) {
        let along = match self.scale {
            Scale::Log => (value.max(self.from) / self.from).ln() / (self.to / self.from).ln(),
            Scale::Linear => (value - self.from) / (self.to - self.from),
        };
        (
            self.left + along.clamp(0.0, 1.0) * self.width,
            self.top + (1.0 - fraction) * self.height,
        )
    }

    /// The values to label: round steps inside the axis, at most about `most` of them.
    pub fn ticks(&self, most: usize) -> Vec<f64> {
        match self.scale {
            Scale::Log => self.log_ticks(most),
            Scale::Linear => {
                let span = self.to - self.from;
                let mut step = linear_step(span / 4.0);
                while span / step > most.max(1) as f64 {
                    step *= 2.0;
                }
                let count = (span / step).floor() as usize;
                (0..=count.min(64))
                    .map(|index| self.from + step * index as f64)
                    .collect()
            }
        }
    }

    fn log_ticks(&self, most: usize) -> Vec<f64> {
        let mut ticks = Vec::new();
        let mut decade = 10f64.powf(self.from.log10().floor());
        while decade <= self.to && ticks.len() < 64 {
            for step in [1.0, 2.0, 5.0] {
                let tick = decade * step;
                if tick >= self.from * 0.999 && tick <= self.to * 1.001 {
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

/// The 1-2-5 step at or above `rough` (at least 1: a count's ticks are whole numbers).
fn linear_step(rough: f64) -> f64 {
    round_step_above(rough.max(1.0))
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
        let (px, py) = frame.pixel(point.value, point.fraction);
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
        ChartFrame::new((40.0, 10.0, 600.0, 200.0), 130.0, 11_000.0, Scale::Log)
    }

    #[test]
    fn the_axis_widens_to_round_steps_and_is_logarithmic() {
        let frame = frame();
        assert_eq!((frame.from, frame.to), (100.0, 20_000.0));
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
            frame.ticks(20),
            vec![100.0, 200.0, 500.0, 1_000.0, 2_000.0, 5_000.0, 10_000.0, 20_000.0]
        );
        assert_eq!(frame.ticks(4), vec![100.0, 1_000.0, 10_000.0]);
    }

    #[test]
    fn a_count_axis_is_linear_on_whole_steps() {
        let frame = ChartFrame::new((40.0, 10.0, 600.0, 200.0), 13.1, 16.4, Scale::Linear);
        assert_eq!((frame.from, frame.to), (13.0, 17.0));
        assert_eq!(frame.ticks(20), vec![13.0, 14.0, 15.0, 16.0, 17.0]);
        assert_eq!(frame.ticks(2), vec![13.0, 15.0, 17.0]);
        let (x13, _) = frame.pixel(13.0, 0.0);
        let (x15, _) = frame.pixel(15.0, 0.0);
        let (x17, _) = frame.pixel(17.0, 0.0);
        assert_eq!((x13, x17), (40.0, 640.0));
        assert!(
            ((x15 - x13) - (x17 - x15)).abs() < 1e-9,
            "equal steps, equal widths"
        );
        let wide = ChartFrame::new((0.0, 0.0, 100.0, 100.0), 8.0, 95.0, Scale::Linear);
        assert_eq!((wide.from, wide.to), (0.0, 100.0));
    }

    #[test]
    fn a_click_finds_the_nearest_trial_within_reach_only() {
        let frame = frame();
        let point = |value, fraction, trial| CdfPoint {
            value,
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
