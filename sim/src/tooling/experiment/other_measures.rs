//! The measures that are not one election: how long a run goes without a leader in all, and how long
//! one write takes from its submission to its acknowledgement.
//!
//! Both run on the same scenario runner as the election measures and read the world event by event
//! (`trial::step_once`), so they have the engine's microsecond resolution. A `commit_latency` trial's
//! write is a scenario step added after the first leader (as an election trial's crash is), so
//! `trial_scenario` gives a file that replays it exactly.

use super::trial::{step_once, Outcome};
use super::{Experiment, COMMIT_SETTLE_MS};
use crate::base::time::SimTime;
use crate::contract::action::{Action, NodeTarget, RequestKind};
use crate::contract::protocol::ClientOutcome;
use crate::tooling::runner::ScenarioRun;
use crate::tooling::scenario::{Scenario, Step};

/// From time zero to `until`, the total time no up node led: `(Measured, Some(µs))`.
pub(super) fn leaderless(run: &mut ScenarioRun, until: SimTime) -> (Outcome, Option<u64>) {
    let mut leaderless_us = 0;
    let mut without_since = Some(SimTime::ZERO);
    loop {
        let now = run.world().now();
        match (run.world().current_leader().is_some(), without_since) {
            (true, Some(since)) => {
                leaderless_us += now.as_micros() - since.as_micros();
                without_since = None;
            }
            (false, None) => without_since = Some(now),
            _ => {}
        }
        if !step_once(run, until) {
            break;
        }
    }
    if let Some(since) = without_since {
        leaderless_us += until.as_micros().saturating_sub(since.as_micros());
    }
    (Outcome::Measured, Some(leaderless_us))
}

/// `scenario` with one write to the leader [`COMMIT_SETTLE_MS`] after a first leader at `leader_at`,
/// and its length cut to the write plus the bound; and the write's instant (ms).
pub(super) fn with_write(
    experiment: &Experiment,
    scenario: &Scenario,
    leader_at: SimTime,
) -> (Scenario, u64) {
    let write_ms = leader_at.as_micros().div_ceil(1_000) + COMMIT_SETTLE_MS;
    let mut scenario = scenario.clone();
    let after = scenario
        .steps
        .partition_point(|step| step.at_ms <= write_ms);
    let write = Action::Request {
        count: 1,
        target: NodeTarget::Leader,
        kind: RequestKind::Put,
    };
    scenario.steps.insert(
        after,
        Step {
            at_ms: write_ms,
            action: write,
        },
    );
    scenario.duration_ms = write_ms + experiment.bound_ms;
    (scenario, write_ms)
}

/// Sends the write and follows it: `(from_us, outcome, measured_us)`, the latency measured from the
/// write's submission when it was acknowledged (committed) within the bound.
pub(super) fn commit_latency(
    experiment: &Experiment,
    run: &mut ScenarioRun,
    leader_at: SimTime,
) -> (u64, Outcome, Option<u64>) {
    let (scenario, write_ms) = with_write(experiment, run.scenario(), leader_at);
    run.set_scenario(scenario);
    let write_at = SimTime::from_ms(write_ms);
    let known_before = highest_request_id(run);
    run.advance_to(write_at);
    let Some(id) = highest_request_id(run).filter(|id| Some(*id) != known_before) else {
        return (write_at.as_micros(), Outcome::NotAcknowledged, None);
    };
    let until = run.end_time();
    while run
        .world()
        .clients()
        .pending()
        .any(|record| record.id == id)
    {
        if !step_once(run, until) {
            return (write_at.as_micros(), Outcome::NotAcknowledged, None);
        }
    }
    let finished = run
        .world()
        .clients()
        .recent
        .iter()
        .find(|record| record.id == id)
        .filter(|record| matches!(record.outcome, ClientOutcome::Committed { .. }))
        .and_then(|record| Some(record.finished_at_us? - record.submitted_at_us));
    match finished {
        Some(latency_us) => (
            write_at.as_micros(),
            Outcome::Acknowledged,
            Some(latency_us),
        ),
        None => (write_at.as_micros(), Outcome::NotAcknowledged, None),
    }
}

/// The newest request the world knows of, waiting or finished.
fn highest_request_id(run: &ScenarioRun) -> Option<crate::contract::protocol::RequestId> {
    let clients = run.world().clients();
    let waiting = clients.pending().map(|record| record.id);
    waiting
        .chain(clients.recent.iter().map(|record| record.id))
        .max()
}
