//! The app's components, one per file, or one folder for a component drawn in layers (the cluster
//! stage, the charts). Each reads the narrow parts of the state it draws (`crate::context::use_*`)
//! and acts on the run through its controls (`crate::state::controls`), never the state whole; the
//! controllers and sentence helpers they call live beside their state (`crate::lesson::live`,
//! `crate::world_text`), so this folder stays components.

pub mod after_first_paint;
pub mod can_it_break;
pub mod can_it_break_budget;
pub mod can_it_break_result;
pub mod charts;
pub mod checker_badges;
pub mod client_panel;
pub mod cluster;
pub mod compare_actions;
pub mod compare_details;
pub mod compare_picker;
pub mod compare_stage;
pub mod completion_code;
pub mod deck;
pub mod deck_page;
pub mod embed_button;
pub mod experiment_chart;
pub mod experiment_form;
pub mod experiment_sheet;
pub mod export_menu;
pub mod gallery;
pub mod history_jump;
pub mod history_lanes;
pub mod history_transfer;
pub mod import_export;
pub mod inspector;
pub mod kv_servers;
pub mod lesson_list;
pub mod lesson_markdown;
pub mod lesson_panel;
pub mod lesson_step;
pub mod lesson_toast;
pub mod log_strips;
pub mod malformed_write;
pub mod narration;
pub mod node_actions;
pub mod on_screen;
pub mod partition_panel;
pub mod pbft_panel;
pub mod playback;
pub mod press_outside;
pub mod protocol_picker;
pub mod queue_compare;
pub mod recycle;
pub mod regions_control;
pub mod resource_ledger;
pub mod schedule_lane;
pub mod scheduler_strip;
pub mod settings_panel;
pub mod share_button;
pub mod shortcuts;
pub mod spacetime;
pub mod theme_toggle;
pub mod timeline;
pub mod verify_codes;
pub mod worker_lanes;
pub mod world_options_fields;
pub mod world_panel;
pub mod znode_tree;
