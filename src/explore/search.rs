//! The "Can it break?" panel's state and what its buttons do: Go starts a fresh worker with the
//! question asked of the run on screen, its progress is kept as it comes, Cancel terminates the worker
//! at once (keeping the last progress, said as how far it got), and "Play it" opens a found schedule
//! as an ordinary run. The words for a result are plain functions below, tested natively.

use super::messages::{FromSearch, ToSearch};
use super::question::{kinds_of, FaultKinds, Question};
use super::search_link::SearchLink;
use crate::format;
use crate::lesson::{completion_live, live};
use crate::state::AppState;
use leptos::prelude::*;
use quorumlab_sim::explore::search::merged;
use quorumlab_sim::explore::{Bound, ExploreReport, Outcome, Progress};
use quorumlab_sim::scenario::Scenario;
use quorumlab_sim::time::SimTime;
use std::sync::Arc;

/// Where a search is.
#[derive(Clone, Debug, PartialEq)]
pub enum SearchStatus {
    Idle,
    /// The worker is loading.
    Starting,
    Running {
        progress: Progress,
        elapsed_ms: f64,
    },
    Finished(Arc<Finished>),
    /// Cancelled: how far it had got.
    Cancelled {
        progress: Progress,
    },
    Failed(String),
}

/// A finished search: its report and the scenario it searched (a found schedule is added to it).
#[derive(Debug, PartialEq)]
pub struct Finished {
    pub report: ExploreReport,
    pub searched: Scenario,
    /// The request's depth and fault bounds, for the words of a bound reached.
    pub request_bounds: (u32, u32),
    /// The kinds of fault the search could use, said with its result.
    pub kinds: FaultKinds,
    pub elapsed_ms: f64,
}

impl Finished {
    /// The run that plays what was found, or `None` when nothing was.
    pub fn found_scenario(&self) -> Option<Scenario> {
        let schedule = self.report.outcome.schedule()?;
        let mut scenario = merged(&self.searched, schedule);
        scenario.title = format!("{} (found by the search)", self.searched.title);
        Some(scenario)
    }
}

/// What another part of the page asks the card to show ready (the gallery's "Can it break?"): the
/// invariant to look for (`None`: any) in a world of `kind`, and Go focused. The card takes it once
/// that world is on screen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Preset {
    pub kind: quorumlab_sim::ProtocolKind,
    pub invariant: Option<String>,
}

/// The panel's state, shared through context so a lesson step can read the last result.
#[derive(Clone, Copy)]
pub struct SearchState {
    pub open: RwSignal<bool>,
    pub status: RwSignal<SearchStatus>,
    /// A question to show ready, until the card takes it.
    pub preset: RwSignal<Option<Preset>>,
    link: StoredValue<Option<SearchLink>, LocalStorage>,
    searched: StoredValue<Option<Asked>>,
}

/// What the search under way was asked, for its result: the scenario searched, the depth and fault
/// bounds, and the kinds of fault it may use.
#[derive(Clone)]
struct Asked {
    scenario: Scenario,
    bounds: (u32, u32),
    kinds: FaultKinds,
}

impl SearchState {
    pub fn new() -> SearchState {
        SearchState {
            open: RwSignal::new(false),
            status: RwSignal::new(SearchStatus::Idle),
            preset: RwSignal::new(None),
            link: StoredValue::new_local(None),
            searched: StoredValue::new(None),
        }
    }

    /// Starts a search of `question` on the run on screen (any search under way is ended first).
    pub fn go(self, state: AppState, question: &Question) {
        self.link.set_value(None);
        let asked = state.with_session(|session| {
            question.ask(session.scenario(), session.actions(), session.now().as_ms())
        });
        let (scenario, request) = match asked {
            Ok(asked) => asked,
            Err(problem) => return self.status.set(SearchStatus::Failed(problem)),
        };
        match SearchLink::start(move |answer| self.hear(answer)) {
            Ok(link) => {
                link.send(&ToSearch::Run {
                    scenario: Box::new(scenario.clone()),
                    request: request.clone(),
                });
                self.link.set_value(Some(link));
                let bounds = (request.max_depth, request.max_faults);
                self.searched.set_value(Some(Asked {
                    scenario,
                    bounds,
                    kinds: kinds_of(&request),
                }));
                self.status.set(SearchStatus::Starting);
            }
            Err(problem) => self.status.set(SearchStatus::Failed(problem)),
        }
    }

    /// Stops the search at once; what it had reached stays on screen.
    pub fn cancel(self) {
        self.link.set_value(None);
        let progress = match self.status.get_untracked() {
            SearchStatus::Running { progress, .. } => progress,
            _ => Progress::default(),
        };
        self.status.set(SearchStatus::Cancelled { progress });
    }

    /// Ends any search when the panel goes away.
    pub fn end(self) {
        self.link.set_value(None);
    }

    fn hear(self, answer: FromSearch) {
        match answer {
            FromSearch::Ready => {}
            FromSearch::Progress {
                progress,
                elapsed_ms,
            } => self.status.set(SearchStatus::Running {
                progress,
                elapsed_ms,
            }),
            FromSearch::Finished { report, elapsed_ms } => {
                self.link.set_value(None);
                let Some(asked) = self.searched.get_value() else {
                    return;
                };
                self.status.set(SearchStatus::Finished(Arc::new(Finished {
                    report: *report,
                    searched: asked.scenario,
                    request_bounds: asked.bounds,
                    kinds: asked.kinds,
                    elapsed_ms,
                })));
            }
            FromSearch::Failed { error } => {
                self.link.set_value(None);
                self.status.set(SearchStatus::Failed(error));
            }
        }
    }

    /// Opens what was found as an ordinary run, just before its first found step, playing. An open
    /// lesson stays and follows it, as after a fresh run from the run settings.
    pub fn play_it(self, state: AppState) {
        let SearchStatus::Finished(finished) = self.status.get_untracked() else {
            return;
        };
        let Some(scenario) = finished.found_scenario() else {
            return;
        };
        let first_ms = finished
            .report
            .outcome
            .schedule()
            .and_then(|schedule| schedule.first())
            .map_or(0, |step| step.at_ms);
        completion_live::set_run_aside(state);
        state.restart(scenario.clone());
        live::follow_fresh_run(state, &scenario);
        state.seek_us(SimTime::from_ms(first_ms.saturating_sub(200)).as_micros());
        state.parts().playback.playing.set(true);
    }
}

impl Default for SearchState {
    fn default() -> Self {
        SearchState::new()
    }
}

/// Progress as one line: "12,345 states · 4,100 states/s · depth 1 · …".
pub fn progress_words(progress: &Progress, elapsed_ms: f64) -> String {
    let rate = if elapsed_ms > 0.0 {
        (progress.states as f64 * 1_000.0 / elapsed_ms).round() as u64
    } else {
        0
    };
    format!(
        "{} states · {} states/s · depth {} · frontier {} · {} duplicates · {} in use",
        format::thousands(progress.states),
        format::thousands(rate),
        progress.depth,
        format::thousands(progress.frontier),
        format::thousands(progress.duplicates),
        counted_faults(progress.faults_in_use),
    )
}

/// The kinds of fault a search could use, in words: "crash and restart, one-link cuts; not pauses or
/// isolation".
pub fn kinds_words(kinds: FaultKinds) -> String {
    let named = [
        (kinds.crash, "crash and restart"),
        (kinds.pauses, "pauses"),
        (kinds.isolate, "isolation"),
        (kinds.cut_links, "one-link cuts"),
    ];
    let names = |on: bool| -> Vec<&str> {
        named
            .iter()
            .filter(|(used, _)| *used == on)
            .map(|(_, name)| *name)
            .collect()
    };
    let used = names(true).join(", ");
    let unused = match names(false).as_slice() {
        [] => String::new(),
        [one] => one.to_string(),
        [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
    };
    match unused {
        unused if unused.is_empty() => format!("Faults it could use: {used}."),
        unused => format!("Faults it could use: {used}; not {unused}."),
    }
}

fn counted_faults(count: u32) -> String {
    match count {
        1 => "1 fault".to_string(),
        _ => format!("{count} faults"),
    }
}

/// The headline of a finished search, in plain words.
pub fn headline(report: &ExploreReport, max_depth: u32, max_faults: u32) -> String {
    let states = format::thousands(report.states);
    match &report.outcome {
        Outcome::Found {
            invariant,
            schedule,
            faults,
            ..
        } => format!(
            "Broken: {invariant}, with {} and {} ({states} states searched).",
            counted_steps(schedule.len()),
            counted_faults(*faults)
        ),
        Outcome::Example {
            checkpoint,
            schedule,
            faults,
            ..
        } => format!(
            "Example found: {checkpoint}, with {} and {} ({states} states searched).",
            counted_steps(schedule.len()),
            counted_faults(*faults)
        ),
        Outcome::BoundReached {
            bound: Bound::Depth,
            ..
        } => format!(
            "No counterexample within depth {max_depth} and {} ({states} states).",
            counted_faults(max_faults)
        ),
        Outcome::BoundReached {
            bound: Bound::States | Bound::Frontier,
            complete_depth,
        } => format!(
            "Bound reached: the state budget ran out after {states} states, complete only to depth {}. \
             No counterexample so far, which proves nothing.",
            complete_depth.map_or("none".to_string(), |depth| depth.to_string())
        ),
    }
}

fn counted_steps(count: usize) -> String {
    match count {
        1 => "1 step".to_string(),
        _ => format!("{count} steps"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use quorumlab_sim::explore::ExploreReport;

    fn report(outcome: Outcome) -> ExploreReport {
        ExploreReport {
            outcome,
            states: 12_345,
            duplicates: 10,
            memory_bytes: 1_000_000,
            horizon_ms: 4_000,
            grain_ms: 50,
            shrink: None,
            summary: String::new(),
            covers: String::new(),
        }
    }

    #[test]
    fn a_bound_is_said_as_a_bound_and_never_as_safe() {
        let depth = report(Outcome::BoundReached {
            bound: Bound::Depth,
            complete_depth: Some(2),
        });
        assert_eq!(
            headline(&depth, 2, 1),
            "No counterexample within depth 2 and 1 fault (12,345 states)."
        );
        let states = report(Outcome::BoundReached {
            bound: Bound::States,
            complete_depth: Some(1),
        });
        let said = headline(&states, 3, 2);
        assert!(said.starts_with("Bound reached"), "{said}");
        assert!(said.contains("complete only to depth 1"), "{said}");
        assert!(!said.to_lowercase().contains("safe"), "{said}");
    }

    #[test]
    fn the_kinds_of_fault_are_said_with_those_left_out() {
        assert_eq!(
            kinds_words(FaultKinds::default()),
            "Faults it could use: crash and restart, pauses, isolation; not one-link cuts."
        );
        let cuts = FaultKinds {
            crash: true,
            pauses: false,
            isolate: false,
            cut_links: true,
        };
        assert_eq!(
            kinds_words(cuts),
            "Faults it could use: crash and restart, one-link cuts; not pauses or isolation."
        );
        let every = FaultKinds {
            cut_links: true,
            ..FaultKinds::default()
        };
        assert!(kinds_words(every).ends_with("one-link cuts."));
    }

    #[test]
    fn progress_reads_as_one_line_with_a_rate() {
        let progress = Progress {
            states: 4_000,
            duplicates: 12,
            depth: 1,
            frontier: 2_500,
            faults_in_use: 1,
        };
        assert_eq!(
            progress_words(&progress, 2_000.0),
            "4,000 states · 2,000 states/s · depth 1 · frontier 2,500 · 12 duplicates · 1 fault in use"
        );
    }
}
