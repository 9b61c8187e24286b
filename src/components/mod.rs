//! The app's components, one per file. Each reads the shared `AppState` from context.

pub mod actor_names;
pub mod charts;
mod charts_draw;
pub mod checker_badges;
pub mod client_panel;
pub mod cluster;
pub mod cluster_links;
pub mod cluster_messages;
pub mod cluster_node;
pub mod coordination;
pub mod import_export;
pub mod inspector;
pub mod kv_servers;
pub mod lesson_live;
pub mod log_strips;
pub mod partition_panel;
pub mod playback;
pub mod protocol_picker;
pub mod resource_ledger;
pub mod scheduler_strip;
pub mod settings_panel;
pub mod share_button;
pub mod shortcuts;
pub mod spacetime;
pub mod timeline;
pub mod worker_lanes;
pub mod znode_tree;
