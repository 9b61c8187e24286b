//! The one place where a link's own types ([`super::body`]) meet the engine's (`Scenario`, `Action`,
//! `RecordedAction`, the coordination options). When an engine type is reshaped, this file changes
//! and the link format does not: every version of link (v4, and v1–v3 through `legacy`) is read into
//! a [`LinkBody`] and converted here.

mod action;
mod protocol;

use super::body::{
    LinkBody, LinkLesson, LinkRaftOptions, LinkRecordedAction, LinkStep, LinkTiming,
};
use super::bounded::Bounded;
use super::{ShareError, SharedLesson, SharedRun};
use action::{action_from, action_into};
#[cfg(test)]
pub(super) use protocol::{locks_from, locks_into, registered_from};
use protocol::{protocol_from, protocol_into, read_path_from, read_path_into};
use quorumlab_sim::config::{RaftOptions, Timing};
use quorumlab_sim::history::RecordedAction;
use quorumlab_sim::scenario::{Scenario, Step};
use quorumlab_sim::time::SimTime;

/// The body of `run`. Values are copied as they are (validation decides what may be shared).
pub fn from_run(run: &SharedRun) -> LinkBody {
    let scenario = &run.scenario;
    LinkBody {
        title: scenario.title.clone(),
        protocol: protocol_from(&scenario.protocol),
        nodes: scenario.node_count as u64,
        seed: scenario.seed,
        duration_ms: scenario.duration_ms,
        timing: timing_from(&scenario.timing),
        options: LinkRaftOptions {
            pre_vote: scenario.raft.pre_vote,
            check_quorum: scenario.raft.check_quorum,
            read_path: read_path_from(scenario.raft.read_path),
        },
        steps: Bounded::new(steps_from(&scenario.steps)),
        actions: Bounded::new(actions_from(&run.actions)),
        position_us: run.position.as_micros(),
        lesson: run.lesson.as_ref().map(|lesson| LinkLesson {
            id: lesson.id.clone(),
            step: lesson.step as u64,
            step_began_us: lesson.step_began.as_micros(),
        }),
    }
}

/// The run `body` describes. Fails only where a sum of time differences passes u64 (a damaged
/// link); everything else is for validation to judge.
pub fn into_run(body: LinkBody) -> Result<SharedRun, ShareError> {
    let scenario = Scenario {
        title: body.title,
        protocol: protocol_into(&body.protocol)?,
        node_count: saturating_usize(body.nodes),
        seed: body.seed,
        duration_ms: body.duration_ms,
        timing: timing_into(&body.timing),
        raft: RaftOptions {
            pre_vote: body.options.pre_vote,
            check_quorum: body.options.check_quorum,
            read_path: read_path_into(body.options.read_path),
            unsafe_commit_previous_term: false,
            // A v4 link cannot carry the unsafe direct mode (refused when sharing).
            membership: Default::default(),
        },
        steps: steps_into(body.steps.items)?,
    };
    Ok(SharedRun {
        scenario,
        actions: actions_into(body.actions.items)?,
        position: SimTime(body.position_us),
        lesson: body.lesson.map(|lesson| SharedLesson {
            id: lesson.id,
            step: saturating_usize(lesson.step),
            step_began: SimTime(lesson.step_began_us),
        }),
    })
}

/// Too large for this platform is out of every range anyway: validation names it.
pub(super) fn saturating_usize(value: u64) -> usize {
    usize::try_from(value).unwrap_or(usize::MAX)
}

fn timing_from(timing: &Timing) -> LinkTiming {
    LinkTiming {
        election_timeout_min_ms: timing.election_timeout_ms.0,
        election_timeout_max_ms: timing.election_timeout_ms.1,
        heartbeat_ms: timing.heartbeat_ms,
        network_delay_min_ms: timing.network_delay_ms.0,
        network_delay_max_ms: timing.network_delay_ms.1,
        drop_ppm: timing.drop_ppm,
        duplicate_ppm: timing.duplicate_ppm,
        client_timeout_ms: timing.client_timeout_ms,
    }
}

fn timing_into(timing: &LinkTiming) -> Timing {
    Timing {
        election_timeout_ms: (
            timing.election_timeout_min_ms,
            timing.election_timeout_max_ms,
        ),
        heartbeat_ms: timing.heartbeat_ms,
        network_delay_ms: (timing.network_delay_min_ms, timing.network_delay_max_ms),
        drop_ppm: timing.drop_ppm,
        duplicate_ppm: timing.duplicate_ppm,
        client_timeout_ms: timing.client_timeout_ms,
        // A v4 link has no room for a disk's write time or timer jitter: `linkable` refuses a run
        // that sets either.
        persist_ms: (0, 0),
        timer_jitter_us: 0,
    }
}

fn steps_from(steps: &[Step]) -> Vec<LinkStep> {
    let mut previous_ms = 0;
    steps
        .iter()
        .map(|step| {
            let since_previous_ms = step.at_ms.saturating_sub(previous_ms);
            previous_ms = step.at_ms;
            LinkStep {
                since_previous_ms,
                action: action_from(&step.action),
            }
        })
        .collect()
}

fn steps_into(steps: Vec<LinkStep>) -> Result<Vec<Step>, ShareError> {
    let mut at_ms: u64 = 0;
    let mut converted = Vec::with_capacity(steps.len());
    for (index, step) in steps.into_iter().enumerate() {
        at_ms = added(at_ms, step.since_previous_ms, || {
            format!("step {} at_ms", index + 1)
        })?;
        converted.push(Step {
            at_ms,
            action: action_into(step.action),
        });
    }
    Ok(converted)
}

fn actions_from(actions: &[RecordedAction]) -> Vec<LinkRecordedAction> {
    let (mut previous_us, mut previous_events) = (0, 0);
    actions
        .iter()
        .map(|recorded| {
            let link = LinkRecordedAction {
                since_previous_us: recorded.at.as_micros().saturating_sub(previous_us),
                events_since_previous: recorded.after_events.saturating_sub(previous_events),
                action: action_from(&recorded.action),
            };
            previous_us = recorded.at.as_micros();
            previous_events = recorded.after_events;
            link
        })
        .collect()
}

fn actions_into(actions: Vec<LinkRecordedAction>) -> Result<Vec<RecordedAction>, ShareError> {
    let (mut at_us, mut after_events) = (0u64, 0u64);
    let mut converted = Vec::with_capacity(actions.len());
    for (index, recorded) in actions.into_iter().enumerate() {
        let place = index + 1;
        at_us = added(at_us, recorded.since_previous_us, || {
            format!("action {place} time")
        })?;
        after_events = added(after_events, recorded.events_since_previous, || {
            format!("action {place} event count")
        })?;
        converted.push(RecordedAction {
            at: SimTime(at_us),
            after_events,
            action: action_into(recorded.action),
        });
    }
    Ok(converted)
}

/// A sum past u64 is a damaged link, not a wrap.
fn added(
    previous: u64,
    difference: u64,
    field: impl FnOnce() -> String,
) -> Result<u64, ShareError> {
    previous
        .checked_add(difference)
        .ok_or_else(|| ShareError::BadNumber { field: field() })
}
