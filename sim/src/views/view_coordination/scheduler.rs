//! The invoice scheduler's part of a frame: each instance's lock and belief, and the minute strip.

use super::*;
use crate::base::time::SimTime;
use crate::contract::config::ProtocolConfig;
use crate::worlds::coordination::Layout;

impl World {
    pub(super) fn scheduler_view(&self, layout: &Layout, now: SimTime) -> Option<SchedulerView> {
        match &self.config().protocol {
            ProtocolConfig::Scheduler(_, options) => {
                let instances = (0..layout.workers)
                    .filter_map(|index| {
                        let node = layout.worker(index);
                        let slot = &self.nodes()[node.index()];
                        let instance = slot.actor.as_scheduler()?;
                        let local_us = slot.clock.local_us(now);
                        Some(InstanceView {
                            id: node,
                            lock: instance.lock,
                            token: instance.token,
                            believes_it_leads: instance.believes_it_leads(local_us),
                            lease_until_local_us: instance.client.lease_until_local_us,
                            local_clock_us: slot.clock.local_signed_us(now),
                            runs: instance.runs,
                        })
                    })
                    .collect();
                let store = self
                    .nodes()
                    .get(layout.store().index())
                    .and_then(|slot| slot.actor.as_resource());
                let minutes = store.map_or_else(Vec::new, |store| {
                    let skip = store.invoices.len().saturating_sub(MAX_VIEW_MINUTES);
                    store
                        .invoices
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
            _ => None,
        }
    }
}
