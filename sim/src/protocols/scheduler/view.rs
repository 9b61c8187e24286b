//! The invoice scheduler's part of a frame: each instance's lock and belief on its own clock, and the
//! strip of invoiced minutes with who generated each (two names on one minute is a duplicate invoice).

use super::{LockState, SchedulerInstance};
use crate::base::ids::NodeId;
use crate::base::units::FencingToken;
use crate::contract::config::{ProtocolConfig, SchedulerMode};
use crate::contract::world_read::{actors_of, WorldRead};
use serde::Serialize;
use std::collections::BTreeMap;

/// Minutes shown in the scheduler strip.
pub const MAX_VIEW_MINUTES: usize = 120;

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct SchedulerView {
    pub mode: SchedulerMode,
    pub minute_ms: u64,
    pub instances: Vec<InstanceView>,
    /// The newest `MAX_VIEW_MINUTES` invoiced minutes and who generated each (two or more = duplicates).
    pub minutes: Vec<(u64, Vec<NodeId>)>,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct InstanceView {
    pub id: NodeId,
    pub lock: LockState,
    pub token: FencingToken,
    /// Leader modes: it holds the lease and its lease has not run out on its clock.
    pub believes_it_leads: bool,
    pub lease_until_local_us: u64,
    pub local_clock_us: i64,
    pub runs: u64,
}

/// The frame's scheduler part; `None` in any other world. `invoices` is the store's record of who
/// invoiced each minute: the store is the lock family's and imports this folder, so the registry reads
/// it and hands it over.
pub fn view(
    world: &dyn WorldRead,
    invoices: Option<&BTreeMap<u64, Vec<NodeId>>>,
) -> Option<SchedulerView> {
    let ProtocolConfig::Scheduler(_, options) = world.protocol() else {
        return None;
    };
    let now = world.now();
    let instances = actors_of::<SchedulerInstance>(world)
        .filter_map(|(id, instance)| {
            let clock = world.clock(id)?;
            Some(InstanceView {
                id,
                lock: instance.lock,
                token: instance.token,
                believes_it_leads: instance.believes_it_leads(clock.local_us(now)),
                lease_until_local_us: instance.client.lease_until_local_us,
                local_clock_us: clock.local_signed_us(now),
                runs: instance.runs,
            })
        })
        .collect();
    let minutes = invoices.map_or_else(Vec::new, |invoices| {
        let skip = invoices.len().saturating_sub(MAX_VIEW_MINUTES);
        invoices
            .iter()
            .skip(skip)
            .map(|(minute, by)| (*minute, by.clone()))
            .collect()
    });
    Some(SchedulerView {
        mode: options.mode,
        minute_ms: options.minute_ms,
        instances,
        minutes,
    })
}
