//! The experiment worker's whole job, as plain Rust: read an experiment, run its trials one by one
//! telling the page how far it got, and answer for any trial with the scenario it ran.
//!
//! It lives in the library (not in the worker's `main`) so native tests run exactly what the worker
//! runs: the same `quorumlab_sim::experiment` code as `quorumlab experiment`, which is why a result in
//! the browser equals the CLI's for the same files. The worker binary only moves strings between this
//! and `postMessage`. Cancelling is the page's: it terminates the worker, so no check is needed here.

use super::messages::{FromWorker, ToWorker, MAX_BROWSER_TRIALS};
use quorumlab_sim::experiment::{parse_experiment, to_csv, trial_scenario, Experiment};
use quorumlab_sim::scenario::{parse_scenario, to_toml_string};

/// How many progress messages a run sends at most (one per percent), so a thousand fast trials do
/// not flood the page with a thousand messages.
const PROGRESS_STEPS: u64 = 100;

/// The worker's memory between messages: the last experiment it ran, for `TrialScenario`.
#[derive(Default)]
pub struct Workbench {
    experiment: Option<Experiment>,
}

impl Workbench {
    /// Answers `request`, handing each message for the page to `post` as it is ready.
    pub fn handle(
        &mut self,
        request: ToWorker,
        post: &mut dyn FnMut(FromWorker),
        clock_ms: &dyn Fn() -> f64,
    ) {
        match request {
            ToWorker::Run {
                experiment_toml,
                scenario_toml,
            } => match read(&experiment_toml, &scenario_toml) {
                Ok(experiment) => self.run(experiment, post, clock_ms),
                Err(error) => post(FromWorker::Failed { error }),
            },
            ToWorker::TrialScenario { line, trial } => post(self.trial(line, trial)),
        }
    }

    fn run(
        &mut self,
        experiment: Experiment,
        post: &mut dyn FnMut(FromWorker),
        clock_ms: &dyn Fn() -> f64,
    ) {
        let total = experiment.trials * experiment.values.len() as u64;
        post(FromWorker::Started { total });
        let every = total.div_ceil(PROGRESS_STEPS).max(1);
        let mut done = 0;
        let started_ms = clock_ms();
        let result = experiment.run(|_| {
            done += 1;
            if done % every == 0 && done < total {
                post(FromWorker::Progress { done, total });
            }
        });
        let wall_ms = clock_ms() - started_ms;
        let written = result.and_then(|result| {
            let json = serde_json::to_string(&result).map_err(|error| error.to_string())?;
            Ok((json, to_csv(&result)))
        });
        match written {
            Ok((result_json, result_csv)) => {
                post(FromWorker::Finished {
                    result_json,
                    result_csv,
                    wall_ms,
                });
                self.experiment = Some(experiment);
            }
            Err(error) => post(FromWorker::Failed { error }),
        }
    }

    fn trial(&self, line: usize, trial: u64) -> FromWorker {
        let Some(experiment) = &self.experiment else {
            return FromWorker::Failed {
                error: "no experiment has run in this worker yet".into(),
            };
        };
        if line >= experiment.values.len() || trial >= experiment.trials {
            return FromWorker::Failed {
                error: format!(
                    "the experiment has no trial {} on line {}",
                    trial + 1,
                    line + 1
                ),
            };
        }
        match trial_scenario(experiment, line, trial) {
            Ok(scenario) => FromWorker::TrialScenario {
                line,
                trial,
                title: scenario.title.clone(),
                scenario_toml: to_toml_string(&scenario),
            },
            Err(error) => FromWorker::Failed { error },
        }
    }
}

/// The experiment file and its scenario, checked, within the browser's bound on trials.
pub fn read(experiment_toml: &str, scenario_toml: &str) -> Result<Experiment, String> {
    let file = parse_experiment(experiment_toml, "experiment")?;
    let scenario = parse_scenario(scenario_toml, "scenario").map_err(|error| error.to_string())?;
    let experiment = file.with_scenario(scenario)?;
    let total = experiment.trials * experiment.values.len() as u64;
    if total > MAX_BROWSER_TRIALS {
        return Err(format!(
            "{total} trials in all: the page runs at most {MAX_BROWSER_TRIALS} (the CLI, `quorumlab experiment`, runs more)"
        ));
    }
    Ok(experiment)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::experiment::form::{ExperimentForm, MeasureChoice};
    use crate::experiment::presets::PAPER_CLUSTER_TOML;
    use quorumlab_sim::experiment::SweepKey;

    fn experiment_toml(trials: u64) -> String {
        let form = ExperimentForm {
            title: "test".into(),
            measure: MeasureChoice::ElectionAfterCrash,
            key: SweepKey::ElectionTimeout,
            values_text: "150-155, 150-200".into(),
            trials,
            bound_ms: 30_000,
            first_seed: 1,
            checkpoint: String::new(),
        };
        form.experiment_toml().unwrap()
    }

    fn answers(workbench: &mut Workbench, request: ToWorker) -> Vec<FromWorker> {
        let mut said = Vec::new();
        workbench.handle(request, &mut |answer| said.push(answer), &|| 0.0);
        said
    }

    #[test]
    fn a_run_reports_progress_then_the_same_result_as_the_engine_run_directly() {
        let mut workbench = Workbench::default();
        let request = ToWorker::Run {
            experiment_toml: experiment_toml(60),
            scenario_toml: PAPER_CLUSTER_TOML.into(),
        };
        let said = answers(&mut workbench, request);
        assert_eq!(said[0], FromWorker::Started { total: 120 });
        let progress = said
            .iter()
            .filter(|answer| matches!(answer, FromWorker::Progress { .. }))
            .count();
        assert!(
            (50..=100).contains(&progress),
            "{progress} progress messages"
        );
        let Some(FromWorker::Finished {
            result_json,
            result_csv,
            ..
        }) = said.last()
        else {
            panic!("no result: {:?}", said.last());
        };
        let direct = read(&experiment_toml(60), PAPER_CLUSTER_TOML)
            .unwrap()
            .run(|_| {})
            .unwrap();
        assert_eq!(*result_json, serde_json::to_string(&direct).unwrap());
        assert_eq!(result_csv.lines().count(), 121);
    }

    #[test]
    fn any_trial_reopens_as_the_scenario_it_ran() {
        let mut workbench = Workbench::default();
        let before = answers(
            &mut workbench,
            ToWorker::TrialScenario { line: 0, trial: 0 },
        );
        assert!(
            matches!(&before[0], FromWorker::Failed { error } if error.contains("no experiment has run"))
        );
        let request = ToWorker::Run {
            experiment_toml: experiment_toml(5),
            scenario_toml: PAPER_CLUSTER_TOML.into(),
        };
        answers(&mut workbench, request);
        let said = answers(
            &mut workbench,
            ToWorker::TrialScenario { line: 1, trial: 3 },
        );
        let FromWorker::TrialScenario {
            scenario_toml,
            title,
            ..
        } = &said[0]
        else {
            panic!("{said:?}");
        };
        assert!(
            title.contains("150-200") && title.contains("trial 4"),
            "{title}"
        );
        let scenario = quorumlab_sim::scenario::parse_scenario(scenario_toml, "trial").unwrap();
        assert_eq!(scenario.seed, 4);
        assert!(scenario
            .steps
            .iter()
            .any(|step| matches!(step.action, quorumlab_sim::action::Action::Crash { .. })));
        let missing = answers(
            &mut workbench,
            ToWorker::TrialScenario { line: 2, trial: 0 },
        );
        assert!(
            matches!(&missing[0], FromWorker::Failed { error } if error.contains("no trial 1 on line 3"))
        );
    }

    #[test]
    fn a_bad_experiment_or_too_many_trials_is_refused_with_its_reason() {
        let mut workbench = Workbench::default();
        let bad = answers(
            &mut workbench,
            ToWorker::Run {
                experiment_toml: "trails = 3".into(),
                scenario_toml: PAPER_CLUSTER_TOML.into(),
            },
        );
        assert!(
            matches!(&bad[0], FromWorker::Failed { error } if error.contains("trails")),
            "{bad:?}"
        );
        let huge = answers(
            &mut workbench,
            ToWorker::Run {
                experiment_toml: experiment_toml(6_000),
                scenario_toml: PAPER_CLUSTER_TOML.into(),
            },
        );
        let refused = matches!(&huge[0], FromWorker::Failed { error } if error.contains("12000 trials in all: the page runs at most 10000"));
        assert!(refused && huge.len() == 1, "{:?}", huge.first());
        let messages = ToWorker::from_json("{\"Run\":1}").unwrap_err();
        assert!(messages.starts_with("not a request the worker knows"));
    }
}
