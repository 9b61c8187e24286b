//! The panels that arrive just after the cluster is drawn: everything below the playback bar and in
//! the side column under the invariants, the fault schedule's editor, and the panels only the
//! coordination worlds draw.
//!
//! The first module holds what the playground needs to draw a running cluster: the stage, the
//! caption, the timeline, the playback bar and the invariant badges. The panels here are a large part
//! of the app's code, and a learner reads the running cluster before any of them, so they come in a
//! part of their own (`crate::lazy_part`), fetched the moment the page mounts. Each group is still
//! drawn where it always was; until its code is in, a one-line "Loading …" holds its place, and if it
//! cannot arrive the place says so and offers to try again.
//!
//! The coordination worlds' panels (lock holders, Redis servers, the world's own card, PBFT's phases, the scheduler,
//! ZooKeeper's tree) are a second part, fetched only when such a world is open: the default Raft
//! playground never needs them.
//!
//! The service worker, which fetches every file of the app for offline use, waits until the panels'
//! part is in (`web_io::announce_first_parts_arrived`): started earlier, on a slow connection it would
//! compete with the very part the learner is waiting for.

use crate::components::can_it_break::CanItBreak;
use crate::components::charts::Charts;
use crate::components::client_panel::ClientPanel;
use crate::components::compare_details::CompareDetails;
use crate::components::history_lanes::HistoryLanes;
use crate::components::import_export::ImportExport;
use crate::components::inspector::Inspector;
use crate::components::kv_servers::KvServers;
use crate::components::log_strips::LogStrips;
use crate::components::narration::NarrationLog;
use crate::components::partition_panel::PartitionPanel;
use crate::components::pbft_panel::PbftPanel;
use crate::components::queue_compare::QueueCompare;
use crate::components::resource_ledger::ResourceLedger;
use crate::components::schedule_lane::ScheduleLane;
use crate::components::scheduler_strip::SchedulerStrip;
use crate::components::settings_panel::SettingsPanel;
use crate::components::spacetime::SpaceTime;
use crate::components::worker_lanes::WorkerLanes;
use crate::components::world_panel::WorldPanel;
use crate::components::znode_tree::ZnodeTree;
use crate::context::use_run;
use crate::lazy_part::{lazy_part, PartMissing};
use leptos::prelude::*;

/// The fault schedule's lane and editor, under the timeline.
#[component]
pub fn ScheduleEditor() -> impl IntoView {
    lazy_part(
        "the fault schedule",
        || crate::arrival!(schedule_editor_code()),
        |draw: fn() -> AnyView| draw(),
    )
}

/// What happened, the space-time diagram, what the clients saw and the charts.
#[component]
pub fn RunDetails() -> impl IntoView {
    lazy_part(
        "the run's details",
        || crate::arrival!(run_details_code()),
        |draw: fn() -> AnyView| draw(),
    )
}

/// The side column under the invariants: the search, the inspector and client, the partition, the
/// logs, the settings and the files.
#[component]
pub fn SideDetails() -> impl IntoView {
    lazy_part(
        "the side panels",
        || crate::arrival!(side_details_code()),
        |draw: fn() -> AnyView| draw(),
    )
}

/// The panels of a coordination world, fetched the first time such a world is open.
#[component]
pub fn WorldPanels() -> impl IntoView {
    let run = use_run();
    let coordination = Memo::new(move |_| run.panel_view.with(|view| view.coordination.is_some()));
    view! {
        <Show when=move || coordination.get()>
            {lazy_part("this world's panels", || crate::arrival!(world_panels_code()), |draw: fn() -> AnyView| draw())}
        </Show>
    }
}

#[cfg_attr(feature = "split", leptos::wasm_split::wasm_split(page_panels, wasm_split_path = ::leptos::wasm_split, fallible))]
fn schedule_editor_code() -> Result<fn() -> AnyView, PartMissing> {
    Ok(|| view! { <ScheduleLane /> }.into_any())
}

#[cfg_attr(feature = "split", leptos::wasm_split::wasm_split(page_panels, wasm_split_path = ::leptos::wasm_split, fallible))]
fn run_details_code() -> Result<fn() -> AnyView, PartMissing> {
    Ok(|| {
        view! {
            <NarrationLog />
            <SpaceTime />
            <HistoryLanes />
            <Charts />
        }
        .into_any()
    })
}

#[cfg_attr(feature = "split", leptos::wasm_split::wasm_split(page_panels, wasm_split_path = ::leptos::wasm_split, fallible))]
fn side_details_code() -> Result<fn() -> AnyView, PartMissing> {
    crate::web_io::announce_first_parts_arrived();
    Ok(|| {
        view! {
            <CanItBreak />
            <CompareDetails>
                <ResourceLedger />
                <QueueCompare />
                <Inspector />
                <ClientPanel />
            </CompareDetails>
            <PartitionPanel />
            <LogStrips />
            <SettingsPanel />
            <ImportExport />
        }
        .into_any()
    })
}

#[cfg_attr(feature = "split", leptos::wasm_split::wasm_split(world_panels, wasm_split_path = ::leptos::wasm_split, fallible))]
fn world_panels_code() -> Result<fn() -> AnyView, PartMissing> {
    Ok(|| {
        view! {
            <WorkerLanes />
            <KvServers />
            <WorldPanel />
            <PbftPanel />
            <SchedulerStrip />
            <ZnodeTree />
        }
        .into_any()
    })
}
