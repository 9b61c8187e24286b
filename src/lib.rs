//! Quorum Lab's browser front end: a thin Leptos layer over the `quorumlab-sim` engine.
//!
//! Pure helpers (layout, formatting, settings, the session) are plain Rust and unit-tested natively;
//! components only read view snapshots from the engine and send user actions back to it.

pub mod app;
pub mod branch;
pub mod caption;
pub mod caption_fit;
pub mod compare;
pub mod components;
pub mod context;
pub mod deck;
pub mod experiment;
pub mod explore;
pub mod export;
pub mod format;
pub mod frame_loop;
pub mod gallery;
pub mod history_view;
pub mod keyboard;
pub mod latency;
pub mod layout;
pub mod lazy_part;
pub mod lesson;
pub mod link_readers;
pub mod narration;
pub mod node_actions;
pub mod placement;
pub mod scenario_reader;
pub mod schedule;
pub mod series;
pub mod session;
pub mod settings_form;
pub mod share;
pub mod spacetime;
pub mod state;
pub mod theme;
pub mod transfer;
pub mod web_io;
pub mod world_text;

/// Entry point used by `main.rs` (and by nothing else: tests mount components directly).
pub fn start() {
    console_error_panic_hook::set_once();
    leptos::mount::mount_to_body(app::App);
}
