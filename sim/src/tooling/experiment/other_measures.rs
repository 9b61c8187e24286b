//! The measures that are not one election: how long a run goes without a leader in all, how long
//! one write takes from its submission to its acknowledgement, and how many messages a write costs.
//!
//! All run on the same scenario runner as the election measures and read the world event by event
//! (`trial::step_once`), so they have the engine's microsecond resolution. A `commit_latency` or
//! `messages_per_commit` trial's writes are a scenario step added after the first leader (as an
//! election trial's crash is), so `trial_scenario` gives a file that replays it exactly.
//!
//! `messages_per_commit` counts as the run report's price of agreement does (`MessagePrice`): every
//! message any node hands to the network (heartbeats, votes, replies included; a copy the network
//! duplicates not again), divided by the requests the world commits (`WorldParts::committed_requests`:
//! Raft writes committed, PBFT results taken). Its window opens just before the writes are submitted
//! and closes at the instant the last of them is answered (committed, refused or timed out); a trial
//! whose writes are not all answered within `bound_ms`, or none of which committed, is censored. The
//! value is kept in thousandths of a message, rounded down.

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

/// `scenario` with the trial's writes (one for `commit_latency`, `writes` for `messages_per_commit`)
/// sent to the leader [`COMMIT_SETTLE_MS`] after a first leader at `leader_at`, and its length cut to
/// the writes plus the bound; and the writes' instant (ms).
pub(super) fn with_writes(
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
        count: experiment.writes.max(1),
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
    let (scenario, write_ms) = with_writes(experiment, run.scenario(), leader_at);
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

/// Sends the writes and counts the messages until the last is answered: `(from_us, outcome,
/// thousandths of a message per committed write)`.
pub(super) fn messages_per_commit(
    experiment: &Experiment,
    run: &mut ScenarioRun,
    leader_at: SimTime,
) -> (u64, Outcome, Option<u64>) {
    let (scenario, write_ms) = with_writes(experiment, run.scenario(), leader_at);
    run.set_scenario(scenario);
    let write_at = SimTime::from_ms(write_ms);
    // Up to the instant before the writes, so the window holds every message they cause.
    run.advance_to(SimTime::ZERO.plus_micros(write_at.as_micros() - 1));
    let censored = (write_at.as_micros(), Outcome::NotAcknowledged, None);
    let known_before = highest_request_id(run);
    let (sent_before, _) = run.world().messages_sent();
    let committed_before = committed(run);
    run.advance_to(write_at);
    if highest_request_id(run) == known_before {
        return censored;
    }
    let until = run.end_time();
    let is_ours = |id| known_before.is_none_or(|before| id > before);
    while run
        .world()
        .clients()
        .pending()
        .any(|record| is_ours(record.id))
    {
        if !step_once(run, until) {
            return censored;
        }
    }
    let messages = run.world().messages_sent().0 - sent_before;
    match committed(run) - committed_before {
        0 => censored,
        writes => (
            write_at.as_micros(),
            Outcome::Measured,
            Some(messages * 1_000 / writes),
        ),
    }
}

/// Requests the world has committed so far, as its registry entry counts them (0 where it commits
/// none).
fn committed(run: &ScenarioRun) -> u64 {
    let world = run.world();
    let parts = world.config().protocol.entry().parts;
    parts
        .committed_requests(world)
        .map_or(0, |(_, count)| count)
}

/// The newest request the world knows of, waiting or finished.
fn highest_request_id(run: &ScenarioRun) -> Option<crate::contract::protocol::RequestId> {
    let clients = run.world().clients();
    let waiting = clients.pending().map(|record| record.id);
    waiting
        .chain(clients.recent.iter().map(|record| record.id))
        .max()
}
