//! The grader: a learner's script in its role, run through hidden checks until a property breaks.
//!
//! Three kinds of check, cheapest first, each bounded: the role's scenario files run to their end; a
//! chaos sweep of [`GradeOptions::seeds`] seeds of the holder-aimed profile (`chaos::holders`), which
//! strikes holders while they hold; and the "Can it break?" search (`explore`) from the first scenario,
//! within [`GradeOptions::max_states`] states and two faults. Each run's world gets the script as its
//! role before its first event. A run fails when a judged checker fires, when the world did none of its
//! work (the sweeps' own progress rule), or when a call of the script failed. The first failure ends
//! the grading; the checks after it are reported as skipped.

use super::catalogue::{Proving, RoleKind};
use super::hints::{hints, SCRIPT_ERROR};
use super::script_role::ScriptRole;
use super::verdict::{Broken, Check, CheckStatus, Counterexample, Verdict};
use crate::contract::roles::Roles;
use crate::engine::world::World;
use crate::tooling::chaos::holders::holder_run_prepared;
use crate::tooling::chaos::locks::LockChaosOptions;
use crate::tooling::explore::search::merged;
use crate::tooling::explore::{explore_prepared, ExploreRequest, Outcome};
use crate::tooling::runner::ScenarioRun;
use crate::tooling::scenario::{parse_scenario, to_toml_string, Scenario};
use crate::tooling::sweep::judge_lock_run;
use crate::worlds::registry;
use std::collections::BTreeMap;
use std::sync::Arc;

/// How hard the grader looks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GradeOptions {
    /// Chaos seeds, from 1.
    pub seeds: u64,
    /// The search's state budget.
    pub max_states: u64,
    /// Where the search stops looking, in simulated ms.
    pub horizon_ms: u64,
}

impl Default for GradeOptions {
    fn default() -> Self {
        GradeOptions {
            seeds: 200,
            max_states: 40_000,
            horizon_ms: 5_000,
        }
    }
}

/// A property that broke, before it is told.
struct Failure {
    property: String,
    found_by: String,
    seed: Option<u64>,
    scenario: Scenario,
}

/// The script's role in every world the grader builds.
struct Grader {
    role: Arc<ScriptRole>,
    roles: Roles,
    proving: Proving,
    checks: Vec<Check>,
}

/// Grades `role` (already read) with `options`.
pub fn grade(role: ScriptRole, options: GradeOptions) -> Result<Verdict, String> {
    let kind = role.kind();
    let role = Arc::new(role);
    let roles = match kind {
        RoleKind::StoreWrite => Roles {
            store_write: Some(role.clone()),
            ..Roles::default()
        },
        RoleKind::Release => Roles {
            release: Some(role.clone()),
            ..Roles::default()
        },
        RoleKind::JobGuard => Roles {
            job_guard: Some(role.clone()),
            ..Roles::default()
        },
    };
    let mut grader = Grader {
        role,
        roles,
        proving: kind.proving(),
        checks: Vec::new(),
    };
    let failure = grader.run_checks(options)?;
    Ok(grader.verdict(kind, failure))
}

impl Grader {
    fn prepare(&self, world: &mut World) {
        world.install_roles(&self.roles);
    }

    fn run_checks(&mut self, options: GradeOptions) -> Result<Option<Failure>, String> {
        for (file, text) in self.proving.scenarios {
            let scenario = parse_scenario(text, file).map_err(|error| error.to_string())?;
            if let Some(failure) = self.scenario_check(file, scenario)? {
                return Ok(Some(failure));
            }
        }
        if let Some(failure) = self.chaos_check(options.seeds)? {
            return Ok(Some(failure));
        }
        self.search_check(options)
    }

    /// The judged properties a finished run broke (the first by name), or a script error.
    fn broken_in(&self, run: &ScenarioRun, heal_ms: u64, faults_before: u64) -> Option<String> {
        if self.role.faults().count > faults_before {
            return Some(SCRIPT_ERROR.to_string());
        }
        let outcome = judge_lock_run(run, heal_ms);
        let judged = |name: &String| {
            self.proving
                .judged
                .is_none_or(|list| list.contains(&name.as_str()))
        };
        let broken: BTreeMap<&String, &u64> = outcome
            .violations
            .iter()
            .filter(|(name, _)| judged(name))
            .collect();
        broken.keys().next().map(|name| name.to_string())
    }

    fn scenario_check(
        &mut self,
        file: &str,
        scenario: Scenario,
    ) -> Result<Option<Failure>, String> {
        let faults_before = self.role.faults().count;
        let mut run = ScenarioRun::new(scenario.clone())?;
        self.prepare(run.world_mut());
        run.run_to_end();
        let broken = self.broken_in(&run, 0, faults_before);
        let name = format!("scenario {file}");
        self.record(
            "scenario",
            &name,
            broken.is_some(),
            "ran to its end".to_string(),
        );
        Ok(broken.map(|property| Failure {
            property,
            found_by: name,
            seed: None,
            scenario,
        }))
    }

    fn chaos_check(&mut self, seeds: u64) -> Result<Option<Failure>, String> {
        let entry =
            registry::by_name(self.proving.world).ok_or("the role's world is not registered")?;
        let options = LockChaosOptions::new(entry.kind, self.proving.variant)
            .ok_or("the role's chaos variant is not in its world's sweep plan")?;
        let name = format!(
            "chaos: {seeds} seeds, holder-aimed, {}/{}",
            options.entry().name,
            options.variant
        );
        for seed in 1..=seeds {
            let faults_before = self.role.faults().count;
            let finished = holder_run_prepared(seed, &options, &|world| self.prepare(world))?;
            if let Some(property) =
                self.broken_in(&finished.run, options.fault_window_ms, faults_before)
            {
                self.record("chaos", &name, true, format!("seed {seed} broke it"));
                return Ok(Some(Failure {
                    property,
                    found_by: format!("seed {seed} ({name})"),
                    seed: Some(seed),
                    scenario: finished.scenario,
                }));
            }
        }
        self.record("chaos", &name, false, format!("all {seeds} seeds held"));
        Ok(None)
    }

    fn search_check(&mut self, options: GradeOptions) -> Result<Option<Failure>, String> {
        let (file, text) = self.proving.scenarios[0];
        let scenario = parse_scenario(text, file).map_err(|error| error.to_string())?;
        let request = ExploreRequest {
            invariant: self
                .proving
                .judged
                .and_then(|list| list.first().map(|name| name.to_string())),
            max_states: options.max_states,
            horizon_ms: Some(options.horizon_ms),
            max_shrink_attempts: 60,
            ..ExploreRequest::default()
        };
        let faults_before = self.role.faults().count;
        let report = explore_prepared(
            &scenario,
            &request,
            &|world| self.prepare(world),
            &mut |_| {},
        )?;
        let name = format!("search from {file}");
        if self.role.faults().count > faults_before {
            self.record(
                "search",
                &name,
                true,
                "a call of the script failed".to_string(),
            );
            return Ok(Some(Failure {
                property: SCRIPT_ERROR.to_string(),
                found_by: name,
                seed: None,
                scenario,
            }));
        }
        match report.outcome {
            Outcome::Found {
                invariant,
                schedule,
                ..
            } => {
                self.record("search", &name, true, report.summary.clone());
                let found_by = format!("search path of {} step(s) from {file}", schedule.len());
                Ok(Some(Failure {
                    property: invariant,
                    found_by,
                    seed: None,
                    scenario: merged(&scenario, &schedule),
                }))
            }
            _ => {
                self.checks.push(Check {
                    kind: "search",
                    name,
                    status: CheckStatus::BoundReached,
                    detail: report.summary,
                });
                Ok(None)
            }
        }
    }

    fn record(&mut self, kind: &'static str, name: &str, broken: bool, detail: String) {
        let status = match broken {
            true => CheckStatus::Broken,
            false => CheckStatus::Held,
        };
        self.checks.push(Check {
            kind,
            name: name.to_string(),
            status,
            detail,
        });
    }

    fn verdict(mut self, kind: RoleKind, failure: Option<Failure>) -> Verdict {
        let planned = ["scenario", "chaos", "search"];
        for planned_kind in planned {
            if !self.checks.iter().any(|check| check.kind == planned_kind) {
                self.checks.push(Check {
                    kind: planned_kind,
                    name: planned_kind.to_string(),
                    status: CheckStatus::Skipped,
                    detail: "not run: an earlier check already broke".to_string(),
                });
            }
        }
        let faults = self.role.faults();
        let broken = failure.map(|failure| Broken {
            hints: hints(kind, &failure.property),
            script_error: (failure.property == SCRIPT_ERROR)
                .then(|| faults.first.first().cloned())
                .flatten(),
            property: failure.property,
            check: failure.found_by.clone(),
            counterexample: Counterexample {
                found_by: failure.found_by,
                seed: failure.seed,
                scenario_toml: to_toml_string(&failure.scenario),
            },
        });
        let summary = match &broken {
            Some(broken) => format!("{} broke ({})", broken.property, broken.check),
            None => "no judged property broke in any check; the search stopped at its bounds"
                .to_string(),
        };
        Verdict {
            role: kind.name(),
            passed: broken.is_none(),
            summary,
            broken,
            checks: self.checks,
            script_errors: faults.count,
        }
    }
}
