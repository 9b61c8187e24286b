//! The view layer: read-only snapshots of a world for the UI (one per animation frame, with the
//! coordination worlds' own part) the narration that retells a trace in plain words, and a history check's summary. It may import
//! the engine layer and below; nothing here changes a run.

pub mod difference;
pub mod history_cause;
pub mod history_summary;
pub mod history_words;
pub mod message_content;
pub mod narration;
pub mod price;
pub mod upkeep;
pub mod view;
pub mod view_coordination;
