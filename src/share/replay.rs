//! From a live session to a [`SharedRun`] and back. Opening a run replays its log on a fresh world, so
//! the learner lands on exactly the state the sharer saw (same trace hash), paused at the same instant.

use super::validate::MAX_TITLE_BYTES;
use super::{ShareError, SharedRun};
use crate::session::Session;
use quorumlab_sim::replay::{replay_to, ReplayError};

/// The run `session` shows now, as a link would carry it (the page adds the lesson, if any). An imported scenario's title may be longer
/// than a link carries; it is shortened (it names the run, it does not change it).
pub fn capture(session: &Session) -> SharedRun {
    let mut scenario = session.scenario().clone();
    scenario.title = shortened(&scenario.title, MAX_TITLE_BYTES);
    SharedRun {
        scenario,
        actions: session.actions().to_vec(),
        position: session.now(),
        lesson: None,
    }
}

/// At most `max_bytes` of `text`, cut at a character boundary.
fn shortened(text: &str, max_bytes: usize) -> String {
    let mut end = text.len().min(max_bytes);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    text[..end].to_string()
}

/// A session replayed to the run's position. Refuses a log whose settings promise an absurd run before
/// replaying anything (the estimate below), then replays it once within the engine's event budget
/// (`quorumlab_sim::replay`), so neither a tampered link nor an honest but enormous run can keep the
/// tab busy without end: past the budget it stops and says so, and nothing changes.
pub fn open(run: SharedRun) -> Result<Session, ShareError> {
    let estimated_events = estimated_replay_events(&run);
    if estimated_events > MAX_ESTIMATED_EVENTS {
        return Err(ShareError::TooLongToReplay { estimated_events });
    }
    // The session opens on this replay and its log, not the link's: the log holds any scripted step
    // the link lacks where the replay applied it, so scrubbing replays exactly that run (and
    // `quorumlab replay` agrees).
    let replayed = replay_to(&run.scenario, &run.actions, run.position, MAX_REPLAY_EVENTS)
        .map_err(share_error)?;
    Session::replayed_to(run.scenario, replayed).map_err(|reason| ShareError::Refused { reason })
}

fn share_error(error: ReplayError) -> ShareError {
    match error {
        ReplayError::Refused(reason) => ShareError::Refused { reason },
        ReplayError::DoesNotFit {
            action,
            at,
            after_events,
            events_by_then,
        } => ShareError::DoesNotFit {
            action,
            at,
            after_events,
            events_by_then,
        },
        ReplayError::TooManyEvents { limit, stopped_at } => {
            ShareError::ReplayStopped { limit, stopped_at }
        }
    }
}

/// Most events a link may ask the browser to replay before showing anything (the engine's budget: about
/// a second of work natively at most, more in a browser); past it the replay stops and says so.
pub use quorumlab_sim::replay::MAX_REPLAY_EVENTS;

/// Most events a link's settings may promise before it is refused without replaying anything. The
/// estimate is rough (the examples run at 0.08 to 0.76 of it), so this stays far above the budget:
/// it turns away absurd settings (1 ms heartbeats for an hour) at once, as it did before the budget
/// existed, and leaves the rest to the budget. An hour of 51 nodes at default timing estimates
/// about 7 million.
pub const MAX_ESTIMATED_EVENTS: u64 = 10_000_000;

/// A rough upper estimate of the events replaying `run` processes: every heartbeat interval the leader
/// sends one message to each follower and gets one answer. Timing values are validated, so the
/// arithmetic cannot overflow (saturating regardless).
pub fn estimated_replay_events(run: &SharedRun) -> u64 {
    let furthest = run
        .actions
        .last()
        .map_or(run.position, |last| last.at.max(run.position));
    let heartbeat_us = run.scenario.timing.heartbeat_ms.max(1) * 1_000;
    let heartbeats = furthest.as_micros() / heartbeat_us + 1;
    // Workers and the store of a coordination world exchange messages too: count every actor.
    let followers = super::validate::actor_count(&run.scenario)
        .saturating_sub(1)
        .max(1) as u64;
    let raft = heartbeats.saturating_mul(followers).saturating_mul(2);
    raft.saturating_add(coordination_events(run, furthest.as_micros() / 1_000 + 1))
}

/// A rough upper estimate of the coordination workload's events over `millis`. Counted per worker:
/// each keep-alive (every `renew_ms`) is a request, an answer, a timer and the servers' replication
/// of it; each job (one per `think_ms + work_ms` plus a network round trip) is four round trips
/// (lock, read, write, release), their timers and the replication of the lock commands; for the
/// scheduler, each instance's run every minute counts as a job. A link whose settings would make
/// workers spin is refused before replaying, like one with 1 ms heartbeats.
fn coordination_events(run: &SharedRun, millis: u64) -> u64 {
    let coordination = &run.scenario.protocol;
    let Some(locks) = coordination.lock_options() else {
        return 0;
    };
    let servers = run.scenario.node_count as u64;
    // Doubled: the engine counts the timers and retries around each message too (measured on the
    // examples, which run at 0.08 to 0.76 of the whole estimate).
    let per_keep_alive = 2 * (4 + 2 * servers);
    let per_job = 2 * (16 + 4 * servers);
    let round_trip_ms = run.scenario.timing.network_delay_ms.0.saturating_mul(2);
    let job_ms = locks
        .think_ms
        .saturating_add(locks.work_ms)
        .saturating_add(round_trip_ms)
        .max(1);
    let mut per_worker = (millis / locks.renew_ms.max(1))
        .saturating_mul(per_keep_alive)
        .saturating_add((millis / job_ms).saturating_mul(per_job));
    if let Some((_, scheduler)) = coordination.scheduler() {
        let runs = millis / scheduler.minute_ms.max(1);
        per_worker = per_worker.saturating_add(runs.saturating_mul(per_job));
    }
    per_worker.saturating_mul(locks.workers as u64)
}
