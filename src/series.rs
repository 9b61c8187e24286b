//! What the charts plot, recorded as the run is watched: who led in which term, and how client requests
//! ended. Plain Rust, tested natively; the chart component only turns these into shapes on a canvas.
//!
//! Why recorded by the app and not read from the engine: the engine keeps when each leader was elected
//! but not when leadership ended (a crash, a pause, a step-down), and a paused node's timed resume is not
//! in the trace. So the app samples what every frame's view says, keeping only change points. Seeking
//! back cuts the record at the new moment (the past is unchanged, the future will be re-observed); a jump
//! forward that skipped frames (a seek) is kept as an explicit "not observed" span rather than invented.
//!
//! Bounds: [`MAX_LEADER_SAMPLES`] change points and [`MAX_OUTCOME_EVENTS`] outcomes; past that the oldest
//! half is forgotten.

use quorumlab_sim::ids::NodeId;
use quorumlab_sim::protocol::ClientOutcome;

pub const MAX_LEADER_SAMPLES: usize = 8_192;
pub const MAX_OUTCOME_EVENTS: usize = 50_000;
/// A step between two observations longer than this was not watched frame by frame (the longest frame
/// is 100 ms of wall time at 20×, i.e. 200 ms of simulated time).
pub const MAX_WATCHED_STEP_US: u64 = 250_000;

/// The leader (an up node that believes it leads) and the highest term any node has reached.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LeaderSample {
    pub at_us: u64,
    pub leader: Option<NodeId>,
    pub term: u64,
}

/// A stretch of time with one leader (or none) and one highest term.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LeaderSegment {
    pub start_us: u64,
    pub end_us: u64,
    pub leader: Option<NodeId>,
    pub term: u64,
}

#[derive(Clone, Debug, Default)]
pub struct LeaderSeries {
    /// Change points, in time order. Invariant: consecutive samples differ in leader or term.
    samples: Vec<LeaderSample>,
    /// Spans skipped by a jump forward, in time order.
    unobserved: Vec<(u64, u64)>,
    last_us: Option<u64>,
    /// Bumped on every change, so a chart knows when to redraw.
    pub revision: u64,
}

impl LeaderSeries {
    pub fn samples(&self) -> &[LeaderSample] {
        &self.samples
    }

    pub fn unobserved(&self) -> &[(u64, u64)] {
        &self.unobserved
    }

    /// Records what the view shows at `now_us`.
    pub fn observe(&mut self, now_us: u64, leader: Option<NodeId>, term: u64) {
        match self.last_us {
            Some(last_us) if now_us < last_us => self.rewind(now_us),
            Some(last_us) if now_us - last_us > MAX_WATCHED_STEP_US => {
                self.unobserved.push((last_us, now_us));
                self.revision += 1;
            }
            _ => {}
        }
        self.last_us = Some(now_us);
        let changed = self
            .samples
            .last()
            .is_none_or(|last| last.leader != leader || last.term != term);
        if changed {
            self.samples.push(LeaderSample {
                at_us: now_us,
                leader,
                term,
            });
            self.revision += 1;
        }
        if self.samples.len() > MAX_LEADER_SAMPLES {
            self.samples.drain(..MAX_LEADER_SAMPLES / 2);
        }
        if self.unobserved.len() > MAX_LEADER_SAMPLES {
            self.unobserved.drain(..MAX_LEADER_SAMPLES / 2);
        }
    }

    fn rewind(&mut self, now_us: u64) {
        self.samples.retain(|sample| sample.at_us <= now_us);
        self.unobserved.retain(|(start, _)| *start < now_us);
        if let Some(last) = self.unobserved.last_mut() {
            last.1 = last.1.min(now_us);
        }
        self.revision += 1;
    }

    /// The segments covering `[from_us, to_us]`, clipped to it, in time order.
    pub fn segments(&self, from_us: u64, to_us: u64) -> Vec<LeaderSegment> {
        let first = self
            .samples
            .partition_point(|sample| sample.at_us <= from_us)
            .saturating_sub(1);
        let mut segments = Vec::new();
        for (index, sample) in self.samples.iter().enumerate().skip(first) {
            if sample.at_us > to_us {
                break;
            }
            let next_us = self
                .samples
                .get(index + 1)
                .map_or(to_us, |next| next.at_us.min(to_us));
            let start_us = sample.at_us.max(from_us);
            if next_us > start_us {
                segments.push(LeaderSegment {
                    start_us,
                    end_us: next_us,
                    leader: sample.leader,
                    term: sample.term,
                });
            }
        }
        segments
    }
}

/// The three ways a finished request can end, as the chart groups them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OutcomeKind {
    /// Committed writes and answered reads.
    Committed,
    /// Rejected (not the leader, node down).
    Failed,
    /// The client timed out: it may or may not have taken effect.
    Unknown,
}

impl OutcomeKind {
    pub const ALL: [OutcomeKind; 3] = [
        OutcomeKind::Committed,
        OutcomeKind::Failed,
        OutcomeKind::Unknown,
    ];

    pub fn of(outcome: &ClientOutcome) -> Option<OutcomeKind> {
        match outcome {
            ClientOutcome::Pending => None,
            ClientOutcome::Committed { .. } | ClientOutcome::Read { .. } => {
                Some(OutcomeKind::Committed)
            }
            ClientOutcome::Rejected(_) => Some(OutcomeKind::Failed),
            ClientOutcome::Unknown => Some(OutcomeKind::Unknown),
        }
    }

    fn index(self) -> usize {
        self as usize
    }
}

/// Outcome totals, indexed like [`OutcomeKind::ALL`].
pub type OutcomeCounts = [u64; 3];

#[derive(Clone, Debug, Default)]
pub struct OutcomeSeries {
    /// When each request finished, in time order.
    events: Vec<(u64, OutcomeKind)>,
    last_us: u64,
    last_counts: OutcomeCounts,
    pub revision: u64,
}

impl OutcomeSeries {
    pub fn events(&self) -> &[(u64, OutcomeKind)] {
        &self.events
    }

    /// Records the engine's running totals at `now_us`. Requests that finished since the previous
    /// observation are placed at their own finish time when `recent` (finish time, outcome) lists them,
    /// otherwise at `now_us`.
    pub fn observe(
        &mut self,
        now_us: u64,
        counts: OutcomeCounts,
        recent: impl Iterator<Item = (u64, OutcomeKind)>,
    ) {
        if now_us < self.last_us {
            self.events.retain(|(at_us, _)| *at_us <= now_us);
            self.last_us = now_us;
            self.last_counts = counts;
            self.revision += 1;
            return;
        }
        let mut missing: [u64; 3] = [0; 3];
        for kind in OutcomeKind::ALL {
            missing[kind.index()] =
                counts[kind.index()].saturating_sub(self.last_counts[kind.index()]);
        }
        if missing != [0; 3] {
            let mut found: Vec<(u64, OutcomeKind)> = recent
                .filter(|(at_us, _)| *at_us > self.last_us && *at_us <= now_us)
                .collect();
            found.sort_by_key(|(at_us, _)| *at_us);
            for (at_us, kind) in found {
                if missing[kind.index()] > 0 {
                    missing[kind.index()] -= 1;
                    self.events.push((at_us, kind));
                }
            }
            for kind in OutcomeKind::ALL {
                for _ in 0..missing[kind.index()].min(MAX_OUTCOME_EVENTS as u64) {
                    self.events.push((now_us, kind));
                }
            }
            self.revision += 1;
        }
        if self.events.len() > MAX_OUTCOME_EVENTS {
            self.events.drain(..MAX_OUTCOME_EVENTS / 2);
        }
        self.last_us = now_us;
        self.last_counts = counts;
    }

    /// Counts per kind in `bucket_count` equal buckets over `[from_us, to_us)`.
    pub fn buckets(&self, from_us: u64, to_us: u64, bucket_count: usize) -> Vec<[u32; 3]> {
        let mut buckets = vec![[0u32; 3]; bucket_count];
        if to_us <= from_us || bucket_count == 0 {
            return buckets;
        }
        let span_us = to_us - from_us;
        let first = self.events.partition_point(|(at_us, _)| *at_us < from_us);
        for (at_us, kind) in &self.events[first..] {
            if *at_us > to_us {
                break;
            }
            let offset = (*at_us - from_us) as u128 * bucket_count as u128 / span_us as u128;
            let bucket = (offset as usize).min(bucket_count - 1);
            buckets[bucket][kind.index()] += 1;
        }
        buckets
    }
}

/// The time span a chart shows at `now_us`: everything so far while that is short, then the newest
/// `max_span_us` (never less than `min_span_us`, so the first seconds are not stretched).
pub fn chart_span(now_us: u64, min_span_us: u64, max_span_us: u64) -> (u64, u64) {
    let span_us = now_us.clamp(min_span_us, max_span_us);
    (
        now_us.saturating_sub(span_us),
        now_us.saturating_sub(span_us) + span_us,
    )
}

/// A filled rectangle in canvas pixels, with what it stands for.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bar<T> {
    pub x0: f64,
    pub y0: f64,
    pub x1: f64,
    pub y1: f64,
    pub what: T,
}

/// What the leader chart draws.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LeaderFill {
    Leader(NodeId),
    NoLeader,
    Unobserved,
}

/// Pixel geometry of the leader chart: a band per leader along the top, the no-leader and unobserved
/// spans shaded over the whole height, and the highest term as a step line (its y scaled to `max_term`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LeaderChart {
    pub bars: Vec<Bar<LeaderFill>>,
    pub term_line: Vec<(f64, f64)>,
    pub max_term: u64,
}

/// Height of the leader band at the top of the leader chart, in pixels.
pub const LEADER_BAND_PX: f64 = 16.0;

pub fn leader_chart(
    series: &LeaderSeries,
    from_us: u64,
    to_us: u64,
    width: f64,
    height: f64,
) -> LeaderChart {
    let x = |at_us: u64| time_x(at_us, from_us, to_us, width);
    let segments = series.segments(from_us, to_us);
    let max_term = segments
        .iter()
        .map(|segment| segment.term)
        .max()
        .unwrap_or(0)
        .max(1);
    let line_top = LEADER_BAND_PX + 6.0;
    let line_bottom = height - 3.0;
    let term_y = |term: u64| line_bottom - (line_bottom - line_top) * term as f64 / max_term as f64;
    let mut chart = LeaderChart {
        max_term,
        ..LeaderChart::default()
    };
    for segment in &segments {
        let (x0, x1) = (x(segment.start_us), x(segment.end_us));
        let (y0, y1, what) = match segment.leader {
            Some(node) => (0.0, LEADER_BAND_PX, LeaderFill::Leader(node)),
            None => (0.0, height, LeaderFill::NoLeader),
        };
        chart.bars.push(Bar {
            x0,
            y0,
            x1,
            y1,
            what,
        });
        // Segments touch, so the previous segment's end and this start make the vertical step.
        let y = term_y(segment.term);
        chart.term_line.push((x0, y));
        chart.term_line.push((x1, y));
    }
    chart.term_line.dedup();
    for &(start_us, end_us) in series.unobserved() {
        if end_us > from_us && start_us < to_us {
            chart.bars.push(Bar {
                x0: x(start_us.max(from_us)),
                y0: 0.0,
                x1: x(end_us.min(to_us)),
                y1: height,
                what: LeaderFill::Unobserved,
            });
        }
    }
    chart
}

/// Stacked bars for the outcome chart: per bucket, committed at the bottom, then failed, then unknown.
/// Returns the bars and the tallest stack (the y scale).
pub fn outcome_bars(buckets: &[[u32; 3]], width: f64, height: f64) -> (Vec<Bar<OutcomeKind>>, u32) {
    let tallest = buckets
        .iter()
        .map(|bucket| bucket.iter().sum::<u32>())
        .max()
        .unwrap_or(0);
    let scale = height / tallest.max(1) as f64;
    let bucket_px = width / buckets.len().max(1) as f64;
    let gap_px = if bucket_px > 4.0 { 1.0 } else { 0.0 };
    let mut bars = Vec::new();
    for (index, bucket) in buckets.iter().enumerate() {
        let x0 = index as f64 * bucket_px;
        let mut bottom = height;
        for kind in OutcomeKind::ALL {
            let count = bucket[kind.index()];
            if count == 0 {
                continue;
            }
            let top = bottom - count as f64 * scale;
            bars.push(Bar {
                x0,
                y0: top,
                x1: x0 + bucket_px - gap_px,
                y1: bottom,
                what: kind,
            });
            bottom = top;
        }
    }
    (bars, tallest)
}

/// Where `at_us` falls on a chart `width` pixels wide showing `[from_us, to_us]`.
pub fn time_x(at_us: u64, from_us: u64, to_us: u64, width: f64) -> f64 {
    if to_us <= from_us {
        return 0.0;
    }
    let share = at_us.saturating_sub(from_us) as f64 / (to_us - from_us) as f64;
    share.clamp(0.0, 1.0) * width
}

#[cfg(test)]
mod tests {
    use super::*;

    fn n(index: u16) -> Option<NodeId> {
        Some(NodeId(index))
    }

    #[test]
    fn only_changes_are_kept() {
        let mut series = LeaderSeries::default();
        for frame in 0..100 {
            series.observe(frame * 16_000, n(1), 2);
        }
        assert_eq!(series.samples().len(), 1);
        series.observe(1_700_000, None, 2);
        series.observe(1_716_000, None, 3);
        assert_eq!(series.samples().len(), 3);
    }

    #[test]
    fn no_leader_gaps_become_their_own_segments() {
        // Raft §5.2: when a follower hears nothing it becomes a candidate, increments its term and
        // starts an election; until one wins, the cluster has no leader.
        let mut series = LeaderSeries::default();
        series.observe(0, None, 0);
        series.observe(200_000, n(0), 1);
        series.observe(500_000, None, 1);
        series.observe(650_000, None, 2);
        series.observe(700_000, n(2), 2);
        series.observe(900_000, n(2), 2);
        let segments = series.segments(100_000, 900_000);
        let leaders: Vec<Option<NodeId>> = segments.iter().map(|segment| segment.leader).collect();
        assert_eq!(leaders, vec![None, n(0), None, None, n(2)]);
        assert_eq!(segments[0].start_us, 100_000, "clipped to the window");
        assert_eq!(segments.last().unwrap().end_us, 900_000);
        let gap_us: u64 = segments
            .iter()
            .filter(|segment| segment.leader.is_none())
            .map(|segment| segment.end_us - segment.start_us)
            .sum();
        assert_eq!(gap_us, 100_000 + 200_000);
    }

    #[test]
    fn seeking_back_forgets_the_future_and_a_jump_forward_is_marked_unobserved() {
        let mut series = LeaderSeries::default();
        series.observe(0, None, 0);
        for frame in 1..=9 {
            series.observe(frame * 100_000, n(1), 1);
        }
        assert!(series.unobserved().is_empty(), "watched frame by frame");
        series.observe(50_000, None, 0);
        assert_eq!(series.samples().len(), 1, "the leader from 100 ms is gone");
        series.observe(200_000, None, 0);
        series.observe(216_000, None, 0);
        series.observe(5_000_000, n(3), 4);
        assert_eq!(series.unobserved(), &[(216_000, 5_000_000)]);
        let chart = leader_chart(&series, 0, 5_000_000, 500.0, 100.0);
        assert!(chart
            .bars
            .iter()
            .any(|bar| bar.what == LeaderFill::Unobserved && bar.x0 > 21.0 && bar.x1 == 500.0));
        series.observe(1_000_000, n(3), 4);
        assert_eq!(series.unobserved(), &[(216_000, 1_000_000)], "clipped");
    }

    #[test]
    fn the_term_line_steps_up_and_the_gaps_cover_the_full_height() {
        let mut series = LeaderSeries::default();
        series.observe(0, None, 0);
        series.observe(250_000, n(0), 1);
        series.observe(500_000, None, 2);
        series.observe(750_000, n(4), 2);
        series.observe(1_000_000, n(4), 2);
        let chart = leader_chart(&series, 0, 1_000_000, 400.0, 100.0);
        assert_eq!(chart.max_term, 2);
        let ys: Vec<f64> = chart.term_line.iter().map(|point| point.1).collect();
        assert!(
            ys.windows(2).all(|pair| pair[1] <= pair[0]),
            "terms never go down: {ys:?}"
        );
        assert_eq!(chart.term_line.first().unwrap().0, 0.0);
        assert_eq!(chart.term_line.last().unwrap().0, 400.0);
        let gaps: Vec<&Bar<LeaderFill>> = chart
            .bars
            .iter()
            .filter(|bar| bar.what == LeaderFill::NoLeader)
            .collect();
        assert_eq!(gaps.len(), 2);
        assert!(gaps.iter().all(|bar| bar.y0 == 0.0 && bar.y1 == 100.0));
        assert_eq!((gaps[1].x0, gaps[1].x1), (200.0, 300.0));
        let bands: Vec<&Bar<LeaderFill>> = chart
            .bars
            .iter()
            .filter(|bar| matches!(bar.what, LeaderFill::Leader(_)))
            .collect();
        assert_eq!(bands.len(), 2);
        assert!(bands.iter().all(|bar| bar.y1 == LEADER_BAND_PX));
    }

    #[test]
    fn outcomes_land_at_their_finish_time_when_known() {
        let mut series = OutcomeSeries::default();
        series.observe(0, [0, 0, 0], std::iter::empty());
        let recent = [
            (40_000, OutcomeKind::Committed),
            (90_000, OutcomeKind::Unknown),
        ];
        series.observe(100_000, [1, 1, 1], recent.into_iter());
        let mut events = series.events().to_vec();
        events.sort_by_key(|event| event.0);
        assert_eq!(
            events,
            vec![
                (40_000, OutcomeKind::Committed),
                (90_000, OutcomeKind::Unknown),
                (100_000, OutcomeKind::Failed),
            ]
        );
        series.observe(150_000, [1, 1, 1], recent.into_iter());
        assert_eq!(series.events().len(), 3, "nothing counted twice");
    }

    #[test]
    fn outcomes_bucket_by_time_and_forget_the_future_on_seek_back() {
        let mut series = OutcomeSeries::default();
        series.observe(100_000, [2, 0, 0], std::iter::empty());
        series.observe(600_000, [2, 3, 0], std::iter::empty());
        series.observe(950_000, [3, 3, 1], std::iter::empty());
        let buckets = series.buckets(0, 1_000_000, 4);
        assert_eq!(buckets, vec![[2, 0, 0], [0, 0, 0], [0, 3, 0], [1, 0, 1]]);
        series.observe(500_000, [2, 0, 0], std::iter::empty());
        assert_eq!(series.events().len(), 2);
        series.observe(700_000, [2, 1, 0], std::iter::empty());
        assert_eq!(series.buckets(0, 1_000_000, 2), vec![[2, 0, 0], [0, 1, 0]]);
    }

    #[test]
    fn stacked_bars_fill_the_height_for_the_tallest_bucket() {
        let (bars, tallest) = outcome_bars(&[[1, 1, 0], [0, 0, 0], [4, 0, 0]], 300.0, 80.0);
        assert_eq!(tallest, 4);
        assert_eq!(bars.len(), 3);
        let committed_then_failed: Vec<OutcomeKind> =
            bars[..2].iter().map(|bar| bar.what).collect();
        assert_eq!(
            committed_then_failed,
            vec![OutcomeKind::Committed, OutcomeKind::Failed]
        );
        assert_eq!(bars[0].y1, 80.0);
        assert_eq!(bars[1].y1, bars[0].y0, "stacked");
        assert_eq!((bars[2].x0, bars[2].y0, bars[2].y1), (200.0, 0.0, 80.0));
    }

    #[test]
    fn the_span_grows_then_slides() {
        assert_eq!(chart_span(500_000, 2_000_000, 20_000_000), (0, 2_000_000));
        assert_eq!(chart_span(5_000_000, 2_000_000, 20_000_000), (0, 5_000_000));
        assert_eq!(
            chart_span(30_000_000, 2_000_000, 20_000_000),
            (10_000_000, 30_000_000)
        );
    }

    #[test]
    fn time_maps_linearly_and_clamps() {
        assert_eq!(time_x(50, 0, 100, 200.0), 100.0);
        assert_eq!(time_x(500, 0, 100, 200.0), 200.0);
        assert_eq!(time_x(5, 10, 10, 200.0), 0.0);
    }
}
