//! Run settings: cluster size, seed and timing, applied to a fresh run.

use crate::components::world_options_fields::WorldOptionsFields;
use crate::context::notice::Notice;
use crate::context::{use_notices, use_run};
use crate::experiment::sheet::go_to_experiment;
use crate::lesson::live;
use crate::settings_form::SettingsForm;
use crate::state::controls::use_controls;
use crate::world_text::capabilities::{reads_through_read_path, runs_raft};
use leptos::prelude::*;
use quorumlab_sim::config::ReadPath;

#[component]
pub fn SettingsPanel() -> impl IntoView {
    let run = use_run();
    let notices = use_notices();
    let controls = use_controls();
    let form = RwSignal::new(SettingsForm::from_scenario(&run.scenario.get_untracked()));
    let error = RwSignal::new(None::<String>);
    // A new run (share link, lesson, new seed) refreshes the form.
    Effect::new(move |_| form.set(SettingsForm::from_scenario(&run.scenario.get())));
    let start = move |_| match form
        .with_untracked(|form| form.to_scenario(&run.scenario.get_untracked()))
    {
        Ok(scenario) => {
            error.set(None);
            crate::lesson::completion_live::set_run_aside(controls.root());
            controls.restart(scenario.clone());
            live::follow_fresh_run(controls.root(), &scenario);
        }
        Err(message) => error.set(Some(message)),
    };
    let new_seed = move |_| {
        let mut scenario = run.scenario.get_untracked();
        // A new seed derived from the old one: deterministic, yet different every click.
        scenario.seed = scenario
            .seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407)
            >> 16;
        crate::lesson::completion_live::set_run_aside(controls.root());
        controls.restart(scenario.clone());
        live::follow_fresh_run(controls.root(), &scenario);
        notices.notice.set(Some(Notice {
            text: "Fresh run with a new seed".to_string(),
            is_error: false,
        }));
    };
    let text_field = move |label: &'static str,
                           testid: &'static str,
                           get: fn(&SettingsForm) -> String,
                           set: fn(&mut SettingsForm, String)| {
        view! {
            <label class="field">
                <span>{label}</span>
                <input type="text" inputmode="numeric" data-testid=testid
                    prop:value=move || form.with(get)
                    on:change=move |event| form.update(|form| set(form, event_target_value(&event))) />
            </label>
        }
    };
    // Raft's timeouts and options mean something only where the servers run Raft.
    let raft_world = move || {
        run.scenario
            .with(|scenario| runs_raft(scenario.protocol.kind()))
    };
    // The read path answers only the reads of a world whose clients read through one (plain Raft).
    let read_path_world = move || {
        run.scenario
            .with(|scenario| reads_through_read_path(scenario.protocol.kind()))
    };
    // An experiment measures elections, so it is offered where the world elects a leader.
    let elects_leader = move || {
        run.scenario
            .with(|scenario| scenario.protocol.entry().capabilities.elects_leader)
    };
    let check_field = move |label: &'static str,
                            get: fn(&SettingsForm) -> bool,
                            set: fn(&mut SettingsForm, bool)| {
        view! {
            <label class="check">
                <input type="checkbox" prop:checked=move || form.with(get)
                    on:change=move |event| form.update(|form| set(form, event_target_checked(&event))) />
                <span>{label}</span>
            </label>
        }
    };
    view! {
        <section class="card settings-panel" aria-label="Run settings" data-testid="settings-panel">
            <h2>"Run settings"</h2>
            <div class="fields">
                {text_field("Nodes (1–51)", "setting-nodes", |form| form.node_count.clone(), |form, value| form.node_count = value)}
                {text_field("Seed", "setting-seed", |form| form.seed.clone(), |form, value| form.seed = value)}
                <Show when=raft_world>
                {text_field("Election timeout min (ms)", "setting-election-min", |form| form.election_min_ms.clone(), |form, value| form.election_min_ms = value)}
                {text_field("Election timeout max (ms)", "setting-election-max", |form| form.election_max_ms.clone(), |form, value| form.election_max_ms = value)}
                {text_field("Heartbeat (ms)", "setting-heartbeat", |form| form.heartbeat_ms.clone(), |form, value| form.heartbeat_ms = value)}
                </Show>
                {text_field("Network delay min (ms)", "setting-delay-min", |form| form.delay_min_ms.clone(), |form, value| form.delay_min_ms = value)}
                {text_field("Network delay max (ms)", "setting-delay-max", |form| form.delay_max_ms.clone(), |form, value| form.delay_max_ms = value)}
                {text_field("Drop rate (%)", "setting-drop", |form| form.drop_percent.clone(), |form, value| form.drop_percent = value)}
            </div>
            <Show when=raft_world fallback=|| view! {
                <p class="muted" data-testid="settings-no-raft">"This world's servers run no Raft, so Raft's timeouts and options do not apply; its own options are below."</p>
            }>
            <div class="checks">
                {check_field("PreVote", |form| form.pre_vote, |form, value| form.pre_vote = value)}
                {check_field("CheckQuorum", |form| form.check_quorum, |form, value| form.check_quorum = value)}
            </div>
            <Show when=read_path_world>
                <ReadPathField form=form />
            </Show>
            </Show>
            <WorldOptionsFields form=form />
            <Show when=move || error.with(Option::is_some)>
                <p class="error" role="alert" data-testid="settings-error">{move || error.get().unwrap_or_default()}</p>
            </Show>
            <div class="row">
                <button class="primary apply-settings" data-testid="apply-settings" on:click=start>"Start fresh run"</button>
                <button on:click=new_seed data-testid="new-seed">"New seed"</button>
            </div>
            <Show when=elects_leader>
                <button class="link" data-testid="experiment-this-run" on:click=|_| go_to_experiment("this-run")
                    title="Run this world over many seeds and chart how long elections take">"Repeat this run over many seeds…"</button>
            </Show>
        </section>
    }
}

/// How reads are answered: one choice of four, each in a learner's words, with a line on what it
/// assumes. The option values are the scenario file's names (`read_path`).
#[component]
fn ReadPathField(form: RwSignal<SettingsForm>) -> impl IntoView {
    let chosen = move || form.with(|form| form.read_path);
    let choose = move |name: String| {
        if let Some(path) = ReadPath::from_name(&name) {
            form.update(|form| form.read_path = path);
        }
    };
    view! {
        <div class="world-option read-path" class:unsafe-option=move || !chosen().safe_under_any_clock()>
            <label class="field">
                <span>"Reads are answered"</span>
                <select data-testid="setting-read-path" prop:value=move || chosen().name()
                    on:change=move |event| choose(event_target_value(&event))>
                    {ReadPath::ALL.iter().map(|path| {
                        let path = *path;
                        view! { <option value=path.name() selected=move || chosen() == path>{path.label()}</option> }
                    }).collect_view()}
                </select>
            </label>
            <p class="hint" data-testid="read-path-hint">{move || read_path_hint(chosen())}</p>
        </div>
    }
}

/// What a read path costs and assumes, in one sentence.
fn read_path_hint(path: ReadPath) -> &'static str {
    match path {
        ReadPath::Log => "Every read is appended to the log like a write and answered once applied: always up to date, one replication round per read.",
        ReadPath::ReadIndex => "The leader notes its commit index, checks with one heartbeat round that a majority still follows it, then answers: up to date whatever the clocks do, no log entry.",
        ReadPath::Lease => "The leader answers at once while its lease holds on its own clock: up to date only while clocks drift less than the lease allows.",
        ReadPath::Follower => "Whichever server is asked answers from its own copy: fast, and stale by design when that server lags or is cut off.",
    }
}
