//! Experiments in the page: one world run over many seeds, one timing swept over several values,
//! and the distribution of what was measured, drawn as a CDF with each trial one click away.
//!
//! The engine's experiment module (`quorumlab_sim::experiment`, the same one `quorumlab experiment`
//! runs) does the work in a Web Worker, a second small wasm binary (`src/experiment_worker.rs`,
//! built by Trunk beside the app), so a thousand trials never stall the page's frames and the
//! engine code for experiments is not in the page's own first load. The page and the worker speak
//! in `messages`; `work` is the worker's whole job as plain, natively tested Rust. The page side is
//! `form` (what the learner chooses, written as an experiment file), `presets` (the paper's setups
//! and "this run's world"), `outcome` (the result read back: CDFs), `chart_axes` (a log time axis and the trial behind a pixel),
//! `route` (the `#/experiment` address), `sheet` (the sheet's state and what a run does) and
//! `worker_link` (the page's end of the worker).

pub mod chart_axes;
pub mod form;
pub mod messages;
pub mod outcome;
pub mod presets;
pub mod route;
pub mod sheet;
pub mod work;
pub mod worker_link;
