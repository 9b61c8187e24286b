//! The scripted steps and recorded actions of a v1–v3 body. Times are read as the differences they
//! were written as (the link's own types keep them so). Node numbers are checked only against the
//! largest cluster here; whether they exist in this run is validation's business.

use super::reader::Reader;
use crate::share::body::{
    ActionsLimit, GroupSizeLimit, GroupsLimit, LinkAction, LinkRecordedAction, LinkRequestKind,
    LinkStep, LinkTarget, StepsLimit,
};
use crate::share::bounded::{Bounded, Limit};
use crate::share::ShareError;
use quorumlab_sim::ids::MAX_NODES;
use quorumlab_sim::scenario::Invalid;

/// Action codes, in the order the scenario format lists the actions.
const CRASH: u64 = 0;
const RESTART: u64 = 1;
const PAUSE: u64 = 2;
const RESUME: u64 = 3;
const PARTITION: u64 = 4;
const ISOLATE: u64 = 5;
const CUT: u64 = 6;
const HEAL: u64 = 7;
const DROP_RATE: u64 = 8;
const CLOCK_JUMP: u64 = 9;
const CLOCK_DRIFT: u64 = 10;
const REQUEST: u64 = 11;

pub fn read_steps(reader: &mut Reader<'_>) -> Result<Bounded<LinkStep, StepsLimit>, ShareError> {
    reader.place.clear();
    let count = reader.count(StepsLimit::FIELD, StepsLimit::MAX)?;
    let mut steps = Vec::with_capacity(count);
    for index in 0..count {
        reader.place = format!("step {} ", index + 1);
        let since_previous_ms = reader.unsigned("at_ms")?;
        let action = read_action(reader)?;
        steps.push(LinkStep {
            since_previous_ms,
            action,
        });
    }
    Ok(Bounded::new(steps))
}

pub fn read_actions(
    reader: &mut Reader<'_>,
) -> Result<Bounded<LinkRecordedAction, ActionsLimit>, ShareError> {
    reader.place.clear();
    let count = reader.count(ActionsLimit::FIELD, ActionsLimit::MAX)?;
    let mut actions = Vec::with_capacity(count);
    for index in 0..count {
        reader.place = format!("action {} ", index + 1);
        let since_previous_us = reader.unsigned("time")?;
        let events_since_previous = reader.unsigned("event count")?;
        let action = read_action(reader)?;
        actions.push(LinkRecordedAction {
            since_previous_us,
            events_since_previous,
            action,
        });
    }
    reader.place.clear();
    Ok(Bounded::new(actions))
}

fn read_action(reader: &mut Reader<'_>) -> Result<LinkAction, ShareError> {
    let code = reader.unsigned("kind")?;
    let action = match code {
        CRASH => LinkAction::Crash {
            target: read_target(reader, "target")?,
        },
        RESTART => LinkAction::Restart {
            target: read_target(reader, "target")?,
        },
        PAUSE => LinkAction::Pause {
            target: read_target(reader, "target")?,
            // 0 meant "until resumed".
            duration_ms: Some(reader.unsigned("duration_ms")?).filter(|&ms| ms > 0),
        },
        RESUME => LinkAction::Resume {
            target: read_target(reader, "target")?,
        },
        PARTITION => LinkAction::Partition {
            groups: read_groups(reader)?,
        },
        ISOLATE => LinkAction::Isolate {
            target: read_target(reader, "target")?,
        },
        CUT => LinkAction::Cut {
            from: read_target(reader, "from")?,
            to: read_target(reader, "to")?,
            both: reader.flag("both")?,
        },
        HEAL => LinkAction::Heal,
        DROP_RATE => LinkAction::DropRate {
            ppm: reader.unsigned_at_most("rate", u64::from(u32::MAX))? as u32,
        },
        CLOCK_JUMP => LinkAction::ClockJump {
            target: read_target(reader, "target")?,
            by_ms: reader.signed("by_ms")?,
        },
        CLOCK_DRIFT => LinkAction::ClockDrift {
            target: read_target(reader, "target")?,
            ppm: reader.signed("ppm")?,
        },
        REQUEST => read_request(reader)?,
        code => {
            return Err(ShareError::UnknownCode {
                field: reader.field_name("kind"),
                code,
            })
        }
    };
    Ok(action)
}

fn read_request(reader: &mut Reader<'_>) -> Result<LinkAction, ShareError> {
    let target = read_target(reader, "target")?;
    let count = reader.unsigned_at_most("count", u64::from(u32::MAX))? as u32;
    let kind = match reader.unsigned("request kind")? {
        0 => LinkRequestKind::Put,
        1 => LinkRequestKind::Get,
        code => {
            return Err(ShareError::UnknownCode {
                field: reader.field_name("request kind"),
                code,
            })
        }
    };
    Ok(LinkAction::Request {
        count,
        target,
        kind,
    })
}

/// 0 is "the leader"; k is node k (one-based).
fn read_target(reader: &mut Reader<'_>, field: &str) -> Result<LinkTarget, ShareError> {
    match reader.unsigned(field)? {
        0 => Ok(LinkTarget::Leader),
        number => Ok(LinkTarget::Node(node_index(reader, field, number - 1)?)),
    }
}

/// A zero-based index that some cluster could have; the run's own size is checked by validation.
fn node_index(reader: &Reader<'_>, field: &str, index: u64) -> Result<u16, ShareError> {
    if index >= MAX_NODES as u64 {
        return Err(ShareError::Invalid(Invalid::OutOfRange {
            field: reader.field_name(field),
            value: format!("n{}", index.saturating_add(1)),
            expected: format!("a node of at most n{MAX_NODES}"),
        }));
    }
    Ok(index as u16)
}

type Groups = Bounded<Bounded<u16, GroupSizeLimit>, GroupsLimit>;

fn read_groups(reader: &mut Reader<'_>) -> Result<Groups, ShareError> {
    let group_count = reader.count("groups", GroupsLimit::MAX)?;
    let mut groups = Vec::with_capacity(group_count);
    for _ in 0..group_count {
        let member_count = reader.count("group size", GroupSizeLimit::MAX)?;
        let mut group = Vec::with_capacity(member_count);
        for _ in 0..member_count {
            let index = reader.unsigned("group member")?;
            group.push(node_index(reader, "group member", index)?);
        }
        groups.push(Bounded::new(group));
    }
    Ok(Bounded::new(groups))
}
