//! Per-node local clocks: true time scaled by a drift rate, plus an offset. Integer math only.
//!
//! `local(t) = anchor_local + (t - anchor_true) * (1_000_000 + drift_ppm) / 1_000_000`.
//! A jump or a drift change re-anchors at the current instant, so the clock never jumps by accident.

use crate::base::time::SimTime;
use serde::{Deserialize, Serialize};

const PPM_ONE: i128 = 1_000_000;
/// Drift is clamped so a clock always moves forward: at least 10% of true speed, at most 10x.
pub const MIN_DRIFT_PPM: i64 = -900_000;
pub const MAX_DRIFT_PPM: i64 = 9_000_000;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct LocalClock {
    anchor_true_us: u64,
    anchor_local_us: i64,
    drift_ppm: i64,
}

impl LocalClock {
    /// Local reading in microseconds; may be negative after a backwards jump near the start.
    pub fn local_signed_us(&self, now: SimTime) -> i64 {
        let elapsed = now.as_micros().saturating_sub(self.anchor_true_us) as i128;
        // The engine reads a clock on every input; a 128-bit division there showed in its profile, and
        // without drift the scaling is the identity.
        let scaled = if self.drift_ppm == 0 {
            elapsed
        } else {
            elapsed * (PPM_ONE + self.drift_ppm as i128) / PPM_ONE
        };
        (self.anchor_local_us as i128 + scaled).clamp(i64::MIN as i128, i64::MAX as i128) as i64
    }

    /// What the node's own clock reads (never below zero).
    pub fn local_us(&self, now: SimTime) -> u64 {
        self.local_signed_us(now).max(0) as u64
    }

    /// The earliest true time at which the local clock reads at least `local_us`, never before `now`.
    pub fn true_time_at(&self, local_us: i64, now: SimTime) -> SimTime {
        let ahead = local_us as i128 - self.anchor_local_us as i128;
        if ahead <= 0 {
            return now;
        }
        let rate = PPM_ONE + self.drift_ppm as i128;
        let true_delta = if self.drift_ppm == 0 {
            ahead
        } else {
            (ahead * PPM_ONE + rate - 1) / rate
        };
        let due = (self.anchor_true_us as i128 + true_delta).min(u64::MAX as i128) as u64;
        SimTime(due).max(now)
    }

    pub fn jump(&mut self, now: SimTime, by_us: i64) {
        let local = self.local_signed_us(now);
        self.anchor_true_us = now.as_micros();
        self.anchor_local_us = local.saturating_add(by_us);
    }

    pub fn set_drift(&mut self, now: SimTime, drift_ppm: i64) {
        let local = self.local_signed_us(now);
        self.anchor_true_us = now.as_micros();
        self.anchor_local_us = local;
        self.drift_ppm = drift_ppm.clamp(MIN_DRIFT_PPM, MAX_DRIFT_PPM);
    }

    pub fn drift_ppm(&self) -> i64 {
        self.drift_ppm
    }

    /// Local minus true, in microseconds, at `now`.
    pub fn offset_us(&self, now: SimTime) -> i64 {
        self.local_signed_us(now) - now.as_micros() as i64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn drift_scales_and_true_time_inverts() {
        let mut clock = LocalClock::default();
        clock.set_drift(SimTime(0), 100_000);
        assert_eq!(clock.local_us(SimTime(1_000_000)), 1_100_000);
        assert_eq!(
            clock.true_time_at(1_100_000, SimTime(0)),
            SimTime(1_000_000)
        );
    }

    #[test]
    fn drift_change_does_not_jump_and_jump_moves_forward() {
        let mut clock = LocalClock::default();
        clock.set_drift(SimTime(0), 200_000);
        let before = clock.local_us(SimTime(500_000));
        clock.set_drift(SimTime(500_000), -100_000);
        assert_eq!(clock.local_us(SimTime(500_000)), before);
        clock.jump(SimTime(500_000), 1_000);
        assert_eq!(clock.local_us(SimTime(500_000)), before + 1_000);
    }

    /// The drift-free shortcut must read exactly what the scaling formula gives.
    #[test]
    fn a_clock_without_drift_reads_what_the_formula_gives() {
        for (anchor_true_us, anchor_local_us) in [(0, 0), (7, -5_000), (1_000_000, 3_999_999)] {
            let clock = LocalClock {
                anchor_true_us,
                anchor_local_us,
                drift_ppm: 0,
            };
            for now_us in [0_u64, 6, 7, 8, 999_999, 1_000_001, 86_400_000_000] {
                let elapsed = now_us.saturating_sub(anchor_true_us) as i128;
                let formula = anchor_local_us as i128 + elapsed * PPM_ONE / PPM_ONE;
                assert_eq!(clock.local_signed_us(SimTime(now_us)) as i128, formula);
                let target = anchor_local_us + 12_345;
                let rate = PPM_ONE;
                let ahead = (target - anchor_local_us) as i128;
                let due = anchor_true_us as i128 + (ahead * PPM_ONE + rate - 1) / rate;
                let expected = SimTime(due as u64).max(SimTime(now_us));
                assert_eq!(clock.true_time_at(target, SimTime(now_us)), expected);
            }
        }
    }
}
