//! The experiment sheet's state: whether it is open, the preset and form, and where a run is; and
//! what a run does — start a fresh worker, hear its answers, cancel it, open a trial on the cluster.
//! The views that draw it are `components::experiment_sheet`, `experiment_form` and
//! `experiment_chart`; they read this and never each other's state, so no view imports another.

use super::form::ExperimentForm;
use super::messages::{FromWorker, ToWorker};
use super::outcome::Outcome;
use super::presets::{preset, Preset, PRESETS};
use super::route::{experiment_fragment, is_experiment_fragment, parse_experiment_route};
use super::worker_link::WorkerLink;
use crate::context::notice::Notice;
use crate::lesson::live;
use crate::state::AppState;
use crate::transfer::import_scenario;
use crate::web_io;
use leptos::prelude::*;
use std::sync::Arc;

/// Where a run of the experiment is.
#[derive(Clone, Debug, PartialEq)]
pub enum RunStatus {
    Idle,
    /// The worker is loading or reading the experiment.
    Starting,
    Running {
        done: u64,
        total: u64,
    },
    Finished(Arc<Finished>),
    Cancelled {
        done: u64,
        total: u64,
    },
    Failed(String),
}

/// A finished experiment: what it returned and the files it can be saved as.
#[derive(Debug, PartialEq)]
pub struct Finished {
    pub outcome: Outcome,
    pub result_json: String,
    pub result_csv: String,
    pub experiment_toml: String,
    pub scenario_toml: String,
    pub wall_ms: f64,
}

/// The sheet's state, shared through context.
#[derive(Clone, Copy)]
pub struct ExperimentSheetState {
    pub open: RwSignal<bool>,
    pub preset_id: RwSignal<&'static str>,
    pub form: RwSignal<ExperimentForm>,
    pub status: RwSignal<RunStatus>,
    link: StoredValue<Option<WorkerLink>, LocalStorage>,
    /// The texts of the run in progress, kept for the finished result's downloads.
    running: StoredValue<Option<(String, String)>>,
}

impl ExperimentSheetState {
    /// Makes the state, provides it, and opens what the address names.
    pub fn install(state: AppState) -> ExperimentSheetState {
        let sheet = ExperimentSheetState {
            open: RwSignal::new(false),
            preset_id: RwSignal::new(PRESETS[0].id),
            form: RwSignal::new((PRESETS[0].form)()),
            status: RwSignal::new(RunStatus::Idle),
            link: StoredValue::new_local(None),
            running: StoredValue::new(None),
        };
        provide_context(sheet);
        sheet.open_from_address(state);
        let listener = window_event_listener(leptos::ev::hashchange, move |_| {
            sheet.open_from_address(state)
        });
        on_cleanup(move || listener.remove());
        sheet
    }

    fn open_from_address(self, state: AppState) {
        let fragment = web_io::location_hash();
        if !is_experiment_fragment(&fragment) {
            self.open.set(false);
            return;
        }
        match parse_experiment_route(&fragment) {
            Ok(preset) => {
                self.choose(state, preset);
                self.open.set(true);
            }
            Err(reason) => state.parts().notices.notice.set(Some(Notice {
                text: format!("This experiment address could not be opened: {reason}."),
                is_error: true,
            })),
        }
    }

    /// Fills the form from `preset` (for "this run's world", with the run's own timeout).
    pub fn choose(self, state: AppState, preset: &'static Preset) {
        let mut form = (preset.form)();
        if preset.scenario_toml.is_none() {
            let scenario = state.parts().run.scenario.get_untracked();
            let (min_ms, max_ms) = scenario.timing.election_timeout_ms;
            form.values_text = format!(
                "{min_ms}-{max_ms}, {min_ms}-{}",
                max_ms.max(min_ms) + (max_ms - min_ms).max(50)
            );
            form.title = format!("{} over many seeds", scenario.title);
        }
        self.preset_id.set(preset.id);
        self.form.set(form);
    }

    /// The scenario the chosen preset starts from, as scenario-file text.
    fn scenario_toml(self, state: AppState) -> String {
        match preset(self.preset_id.get_untracked()).and_then(|preset| preset.scenario_toml) {
            Some(text) => text.to_string(),
            None => {
                quorumlab_sim::scenario::to_toml_string(&state.parts().run.scenario.get_untracked())
            }
        }
    }

    /// Starts the experiment the form describes in a fresh worker.
    pub fn run(self, state: AppState) {
        let experiment_toml = match self.form.get_untracked().experiment_toml() {
            Ok(text) => text,
            Err(problem) => {
                self.status.set(RunStatus::Failed(problem));
                return;
            }
        };
        let scenario_toml = self.scenario_toml(state);
        self.link.set_value(None);
        let on_answer = move |answer: FromWorker| self.hear(state, answer);
        match WorkerLink::start(on_answer) {
            Ok(link) => {
                link.send(&ToWorker::Run {
                    experiment_toml: experiment_toml.clone(),
                    scenario_toml: scenario_toml.clone(),
                });
                self.link.set_value(Some(link));
                self.running
                    .set_value(Some((experiment_toml, scenario_toml)));
                self.status.set(RunStatus::Starting);
            }
            Err(problem) => self.status.set(RunStatus::Failed(problem)),
        }
    }

    /// Stops the run at once (the worker is terminated; what it did is dropped).
    pub fn cancel(self) {
        self.link.set_value(None);
        let status = self.status.get_untracked();
        self.status.set(match status {
            RunStatus::Running { done, total } => RunStatus::Cancelled { done, total },
            _ => RunStatus::Cancelled { done: 0, total: 0 },
        });
    }

    /// Asks the worker for trial `trial` of line `line`, to open it on the cluster.
    pub fn open_trial(self, line: usize, trial: u64) {
        self.link.with_value(|link| {
            if let Some(link) = link {
                link.send(&ToWorker::TrialScenario { line, trial });
            }
        });
    }

    fn hear(self, state: AppState, answer: FromWorker) {
        match answer {
            FromWorker::Ready => {}
            FromWorker::Started { total } => self.status.set(RunStatus::Running { done: 0, total }),
            FromWorker::Progress { done, total } => {
                self.status.set(RunStatus::Running { done, total })
            }
            FromWorker::Finished {
                result_json,
                result_csv,
                wall_ms,
            } => self.finish(result_json, result_csv, wall_ms),
            FromWorker::Failed { error } => self.status.set(RunStatus::Failed(error)),
            FromWorker::TrialScenario {
                line,
                trial,
                title,
                scenario_toml,
            } => self.show_trial(state, line, trial, &title, &scenario_toml),
        }
    }

    fn finish(self, result_json: String, result_csv: String, wall_ms: f64) {
        let (experiment_toml, scenario_toml) = self.running.get_value().unwrap_or_default();
        let status = match Outcome::from_json(&result_json) {
            Ok(outcome) => RunStatus::Finished(Arc::new(Finished {
                outcome,
                result_json,
                result_csv,
                experiment_toml,
                scenario_toml,
                wall_ms,
            })),
            Err(problem) => RunStatus::Failed(problem),
        };
        self.status.set(status);
    }

    /// Opens a trial's scenario on the cluster, paused just before the crash it measures.
    fn show_trial(
        self,
        state: AppState,
        line: usize,
        trial: u64,
        title: &str,
        scenario_toml: &str,
    ) {
        let scenario = match import_scenario(scenario_toml, "trial.toml") {
            Ok(scenario) => scenario,
            Err(problem) => {
                self.status.set(RunStatus::Failed(format!(
                    "the trial could not be opened: {problem}"
                )));
                return;
            }
        };
        let row = match self.status.get_untracked() {
            RunStatus::Finished(finished) => finished
                .outcome
                .rows
                .iter()
                .find(|row| row.line == line && row.seed == finished.outcome.first_seed + trial)
                .cloned(),
            _ => None,
        };
        if state.parts().lesson.active.with_untracked(Option::is_some) {
            live::close_lesson(state);
        }
        state.restart(scenario);
        let mut text = format!("Opened {title} (seed {}).", trial + 1);
        let moment = match self.status.get_untracked() {
            RunStatus::Finished(finished) => Moment::of(&finished.outcome),
            _ => Moment::Crash,
        };
        if let (Moment::Checkpoint(checkpoint), Some(ticked_us)) =
            (&moment, row.as_ref().and_then(|row| row.measured()))
        {
            let at = crate::format::sim_time(ticked_us);
            text.push_str(&format!(" The checkpoint {checkpoint} ticked at {at}."));
        }
        if let Some(row) = row.filter(|row| row.from_us > 0) {
            // Just before the moment measured, so pressing play shows it.
            state.seek_us(row.from_us.saturating_sub(200_000));
            state.parts().playback.playing.set(false);
            text.push_str(&trial_sentence(&moment, row.from_us, row.measured()));
        }
        self.open.set(false);
        if is_experiment_fragment(&web_io::location_hash()) {
            web_io::replace_fragment("");
        }
        state.parts().notices.notice.set(Some(Notice {
            text,
            is_error: false,
        }));
    }
}

/// The moment a reopened trial's measure starts from.
#[derive(Clone, Debug, PartialEq)]
enum Moment {
    /// Measured from the start to the named checkpoint's tick.
    Checkpoint(String),
    Crash,
    /// The leader is paused or cut off (`pause`, `isolate`).
    Action(&'static str),
    Write,
    Writes,
}

impl Moment {
    fn of(outcome: &super::outcome::Outcome) -> Moment {
        match (outcome.measure.as_str(), outcome.action.as_deref()) {
            ("checkpoint_time", _) => {
                Moment::Checkpoint(outcome.checkpoint.clone().unwrap_or_default())
            }
            ("commit_latency", _) => Moment::Write,
            ("messages_per_commit", _) => Moment::Writes,
            (_, Some("pause")) => Moment::Action("is paused"),
            (_, Some("isolate")) => Moment::Action("is cut off"),
            _ => Moment::Crash,
        }
    }
}

/// What a reopened trial's notice says of the moment it measured.
fn trial_sentence(moment: &Moment, from_us: u64, measured: Option<u64>) -> String {
    let at = crate::format::sim_time(from_us);
    let took = measured.map(crate::format::sim_time);
    let said = match (moment, took) {
        (Moment::Write, Some(took)) => {
            format!(" The write is sent at {at}; it was acknowledged {took} later.")
        }
        (Moment::Write, None) => {
            format!(" The write is sent at {at}; it was not acknowledged within the bound.")
        }
        (Moment::Writes, _) => match measured {
            Some(thousandths) => format!(
                " The writes are sent at {at}; until the last was answered the nodes sent {:.1} messages per committed write.",
                thousandths as f64 / 1_000.0
            ),
            None => format!(" The writes are sent at {at}; not all were answered within the bound."),
        },
        (Moment::Action(done), Some(took)) => {
            format!(" The leader {done} at {at}; a new leader took {took}.")
        }
        (Moment::Action(done), None) => {
            format!(" The leader {done} at {at}; no new leader within the bound.")
        }
        (Moment::Crash | Moment::Checkpoint(_), Some(took)) => {
            format!(" The leader crashes at {at}; the next leader took {took}.")
        }
        (Moment::Crash | Moment::Checkpoint(_), None) => {
            format!(" The leader crashes at {at}; no leader followed within the bound.")
        }
    };
    format!("{said} Press Play (Space) to watch.")
}

/// Opens the sheet on a preset (a new history entry, so Back closes it).
pub fn go_to_experiment(preset_id: &str) {
    if let Some(window) = web_sys::window() {
        let _ = window.location().set_hash(&experiment_fragment(preset_id));
    }
}

/// Opens the sheet on a preset without leaving the page's address, so an open lesson stays open
/// behind it (a lesson step's `experiment:` link).
pub fn open_over_lesson(sheet: ExperimentSheetState, state: AppState, preset_id: &str) {
    let Some(preset) = preset(preset_id) else {
        return;
    };
    if !matches!(
        sheet.status.get_untracked(),
        RunStatus::Starting | RunStatus::Running { .. }
    ) {
        sheet.choose(state, preset);
        sheet.status.set(RunStatus::Idle);
    }
    sheet.open.set(true);
}
