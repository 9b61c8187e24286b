//! Defaults, and bounds on what a scenario may ask for. Each one is documented in `sim/SCENARIOS.md`; a value outside
//! them is a validation error, never a silent clamp.

/// Title used when a file gives none.
pub const DEFAULT_TITLE: &str = "Untitled scenario";
/// Seed used when a file gives none.
pub const DEFAULT_SEED: u64 = 1;
/// Longest run a file may ask for: one simulated hour.
pub const MAX_DURATION_MS: u64 = 3_600_000;
/// Most `[[step]]` entries in one file.
pub const MAX_STEPS: usize = 10_000;
/// Most client requests one `request` step may submit.
pub const MAX_REQUEST_COUNT: u32 = 10_000;
/// Largest timeout, heartbeat or delay a `[timing]` key may hold.
pub const MAX_TIMING_MS: u64 = 600_000;
/// Longest disk write (`[timing] persist_ms`, a `slow_disk` step's `persist_ms`).
pub use crate::contract::config::MAX_PERSIST_MS;
/// Largest `[timing] timer_jitter_us`.
pub use crate::contract::config::MAX_TIMER_JITTER_US;
/// Largest `initial_count` (`[locks]`).
pub const MAX_INITIAL_COUNT: u64 = 1_000_000_000;
/// Most accounts a work queue may have (`[queue] accounts`); the work queue's folder owns it.
pub use crate::protocols::work_queue::options::MAX_ACCOUNTS;
/// Largest clock jump, either direction.
pub const MAX_CLOCK_JUMP_MS: i64 = 3_600_000;
/// Slowest drift: a clock must keep moving forward, so it may not lose a full second per second.
pub const MIN_CLOCK_DRIFT_PPM: i64 = -999_999;
/// Fastest drift: a clock may run at most twice as fast as true time.
pub const MAX_CLOCK_DRIFT_PPM: i64 = 1_000_000;
