//! Striking the leader: the steps an `election_after_crash` or `election_after_action` trial gains
//! once its first leader is known, and the wait for the leader after.
//!
//! The action falls at an instant the trial's seed draws in the window after the first leader
//! (`CrashPlan`). A crash is final. A pause freezes the leader; with `resume_after_ms` the same step
//! wakes it that much later (`Pause { duration_ms }`), otherwise it stays frozen for the trial. An
//! isolation cuts every link of the leader; with `resume_after_ms` a `heal` step that much later
//! restores every link (the scenario's own cuts too: a heal has no narrower form), otherwise it stays
//! cut off. Paused or cut off, the old leader may still believe it leads, so what is measured is the
//! first instant an up node leads in a term *later* than every leader's term at the action: a new
//! leader, never the old one waking up. After a crash no old leader is up, and the measure is the
//! first instant any up node leads, exactly as it always was.
//!
//! A slow disk on the leader is not offered: in this model a leader persists only its own new
//! entries and its followers' replies do not wait on its disk, so heartbeats keep coming and no
//! election follows; every trial would be censored (`docs/raft-election-experiments.md`).

use super::trial::{spread_ms, step_once, wait_for_leader};
use super::{CrashPlan, Experiment, LeaderAction};
use crate::base::rng::Rng;
use crate::base::time::SimTime;
use crate::base::units::Term;
use crate::contract::action::{Action, NodeTarget, RequestKind};
use crate::contract::protocol::{Protocol, RoleLabel};
use crate::tooling::runner::ScenarioRun;
use crate::tooling::scenario::{Scenario, Step};

/// Mixed into a trial's seed for the draw of its action's instant, so that draw is not the world's.
const CRASH_DRAW_SALT: u64 = 0x9e37_79b9_7f4a_7c15;

/// The step that strikes the leader.
fn strike_action(plan: CrashPlan) -> Action {
    let target = NodeTarget::Leader;
    match plan.action {
        LeaderAction::Crash => Action::Crash { target },
        LeaderAction::Pause => Action::Pause {
            target,
            duration_ms: plan.resume_after_ms,
        },
        LeaderAction::Isolate => Action::Isolate { target },
    }
}

/// `scenario` with the writes and the action added after a first leader at `leader_at` (and, for
/// an isolation lifted within the trial, the heal), and the action's instant (ms).
pub(super) fn with_action(
    experiment: &Experiment,
    plan: CrashPlan,
    line: usize,
    scenario: &Scenario,
    leader_at: SimTime,
) -> (Scenario, u64) {
    let window_ms = leader_at.as_micros().div_ceil(1_000) + plan.settle_ms;
    let mut draw = Rng::new(scenario.seed ^ CRASH_DRAW_SALT);
    let action_ms = window_ms + draw.range_inclusive(0, spread_ms(experiment, plan, line) - 1);
    let mut scenario = scenario.clone();
    scenario.duration_ms = action_ms + experiment.bound_ms;
    let mut add = |at_ms: u64, action: Action| {
        let after = scenario.steps.partition_point(|step| step.at_ms <= at_ms);
        scenario.steps.insert(after, Step { at_ms, action });
    };
    if plan.writes > 0 {
        let write = Action::Request {
            count: plan.writes,
            target: NodeTarget::Leader,
            kind: RequestKind::Put,
        };
        add(window_ms, write);
    }
    add(action_ms, strike_action(plan));
    if let (LeaderAction::Isolate, Some(resume_ms)) = (plan.action, plan.resume_after_ms) {
        if resume_ms < experiment.bound_ms {
            add(action_ms + resume_ms, Action::Heal);
        }
    }
    (scenario, action_ms)
}

/// Strikes the leader of a run whose first leader came at `leader_at` and waits for the next:
/// `(action instant µs, the next leader's instant)`, or `None` when no leader was there to strike.
pub(super) fn strike(
    experiment: &Experiment,
    plan: CrashPlan,
    line: usize,
    run: &mut ScenarioRun,
    leader_at: SimTime,
) -> Option<(u64, Option<SimTime>)> {
    let (scenario, action_ms) = with_action(experiment, plan, line, run.scenario(), leader_at);
    let action = strike_action(plan);
    let action_step = scenario
        .steps
        .iter()
        .rposition(|step| step.at_ms == action_ms && step.action == action)
        .expect("the action was just added");
    run.set_scenario(scenario);
    let action_at = SimTime::from_ms(action_ms);
    run.advance_to(action_at);
    if run
        .skipped_steps()
        .iter()
        .any(|skipped| skipped.step == action_step + 1)
    {
        return None;
    }
    let end = run.end_time();
    let next_leader = match plan.action {
        LeaderAction::Crash => wait_for_leader(run, end),
        LeaderAction::Pause | LeaderAction::Isolate => {
            let struck_term = leaders_term(run);
            wait_for_leader_after(run, struck_term, end)
        }
    };
    Some((action_at.as_micros(), next_leader))
}

/// The highest term any node believing it leads holds, up or not (a paused or cut-off leader too).
fn leaders_term(run: &ScenarioRun) -> Option<Term> {
    run.world()
        .nodes()
        .iter()
        .map(|slot| slot.actor.summary())
        .filter(|summary| summary.role == RoleLabel::Leader)
        .map(|summary| summary.term)
        .max()
}

/// Runs on until an up node leads in a term later than `struck_term` (the instant), or `until`.
fn wait_for_leader_after(
    run: &mut ScenarioRun,
    struck_term: Option<Term>,
    until: SimTime,
) -> Option<SimTime> {
    loop {
        let world = run.world();
        let leader_term = world
            .current_leader()
            .map(|leader| world.nodes()[leader.0 as usize].actor.summary().term);
        if leader_term.is_some_and(|term| Some(term) > struck_term) {
            return Some(world.now());
        }
        if !step_once(run, until) {
            return None;
        }
    }
}
