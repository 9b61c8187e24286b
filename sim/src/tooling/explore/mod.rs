//! "Can it break?": a bounded, breadth-first search over a scenario's fault schedules for the
//! shortest one that breaks an invariant.
//!
//! Every transition the search takes is an ordinary scenario step (`Crash A at 950 ms`), applied by
//! the same runner `quorumlab run` uses, after every event due by then. So a schedule the search
//! reports is a scenario, and replaying it is the same run by construction: nothing in the engine
//! is reordered, the seed's draws stay as they are, and the search only adds steps.
//!
//! The search walks time in *choice points*, one every `grain_ms` (from the request's `from_ms`
//! on, a search from a moment: before it the run so far plays as it was). At each one it checks the goal,
//! hashes the world ([`World::state_digest`](crate::engine::world::World::state_digest), plus the
//! budget used) and, when the state is new and the depth allows, offers every fault the budget and
//! the nodes' status allow ([`choices`]). Level k of the search holds the schedules of k steps, so
//! the first violation found has the fewest steps; ties go to the earliest instant, then the
//! catalogue's order, which makes the result deterministic.
//!
//! What it covers and what it does not (also in the report's `covers` line and `sim/ENGINE.md`):
//! - covered: crash, restart, timed pauses of the request's sizes, resume, isolating a node and
//!   healing, clock drifts and jumps within the world's bounds ([`request::clock_bounds`]), dropping
//!   one message in flight, duplicating one, and holding one to the latest delivery its link's delay
//!   bound allows (which reorders it after what arrives meanwhile), making a node that can lie
//!   Byzantine in each requested mode (a budget of its own, `max_byzantine`), at choice points;
//! - not covered: faults between two choice points; a message arriving earlier than the seed drew
//!   it, or held to a point inside its window other than the latest; timers firing other than when
//!   due (they always fire when due, so time keeps its meaning; same-instant timers keep the queue's
//!   order); clock faults beyond the world's bounds; other seeds.
//!   States that differ only in the random generator are merged, so the search follows the first
//!   one's future (see `engine/world/digest.rs`).
//!
//! Asked for (`symmetry`), mirror images of a state are visited once where that is sound: a plain
//! Raft cluster's servers ([`symmetry`]).
//!
//! Each schedule is reached by branching a live run where it leaves its parent, not by replaying it
//! from the start (`walk.rs`), which visits the same states in the same order.
//!
//! The goal is a broken invariant or an example of a lesson checkpoint ([`goal`]); what is found is
//! shrunk ([`shrink`]) to the fewest faults, then the fewest steps, a replay at a time.
//!
//! "No counterexample" is never said to mean safe: the report names the bound that was reached.

pub mod choices;
pub mod goal;
pub mod progress;
pub mod report;
pub mod request;
pub mod search;
pub mod shrink;
pub mod symmetry;
mod walk;

pub use progress::Progress;
pub use report::{Bound, ExploreReport, Outcome};
pub use request::ExploreRequest;
pub use search::{explore, explore_prepared, explore_watched, Prepare};
