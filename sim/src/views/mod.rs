//! The view layer: read-only snapshots of a world for the UI (one per animation frame, with the
//! coordination worlds' own part) and the narration that retells a trace in plain words. It may import
//! the engine layer and below; nothing here changes a run.

pub mod difference;
pub mod message_content;
pub mod narration;
pub mod price;
pub mod upkeep;
pub mod view;
pub mod view_coordination;
