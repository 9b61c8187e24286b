//! Virtual time. Nothing in the engine reads the host clock: the world advances `SimTime` itself.

use serde::{Deserialize, Serialize};
use std::fmt;

/// True (simulated) time in microseconds since the start of the run.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
pub struct SimTime(pub u64);

impl SimTime {
    pub const ZERO: SimTime = SimTime(0);

    pub fn from_ms(ms: u64) -> SimTime {
        SimTime(ms.saturating_mul(1_000))
    }

    pub fn as_micros(self) -> u64 {
        self.0
    }

    /// Whole milliseconds, rounded down.
    pub fn as_ms(self) -> u64 {
        self.0 / 1_000
    }

    pub fn plus_micros(self, micros: u64) -> SimTime {
        SimTime(self.0.saturating_add(micros))
    }

    pub fn plus_ms(self, ms: u64) -> SimTime {
        self.plus_micros(ms.saturating_mul(1_000))
    }

    pub fn saturating_since(self, earlier: SimTime) -> u64 {
        self.0.saturating_sub(earlier.0)
    }
}

impl fmt::Display for SimTime {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(formatter, "{}.{:03} ms", self.0 / 1_000, self.0 % 1_000)
    }
}
