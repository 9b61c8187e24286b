//! The coordination parts of the report: names, lock grants and expiries, the resource's ledger.

use super::World;
use crate::contract::report::{
    AccessReport, InvoicesReport, LockRecord, LocksReport, Report, ResourceReport, ThroughputReport,
};
use crate::protocols::resource::AccessOutcome;
use std::collections::BTreeSet;

impl Report {
    pub(super) fn with_coordination(mut self, world: &World) -> Report {
        let Some(layout) = world.layout() else {
            return self;
        };
        self.labels = layout
            .extra_names()
            .into_iter()
            .map(|(name, node)| (node.to_string(), name))
            .collect();
        let locks = world.checkers().locks();
        let record = |record: &crate::engine::checker::locks::GrantRecord| LockRecord {
            client: layout.label(record.client),
            token: record.token,
            at_ms: record.at_ms,
        };
        self.locks = Some(LocksReport {
            grants: locks.grants.iter().map(record).collect(),
            expired: locks.expired.iter().map(record).collect(),
            released: locks.releases,
        });
        self.contention = Some(locks.requests_per_minute.clone());
        let resource = world
            .nodes()
            .get(layout.store().index())
            .and_then(|slot| slot.actor.as_resource());
        if let Some(resource) = resource {
            let mut accepted = Vec::new();
            let mut rejected = Vec::new();
            for access in &locks.accesses {
                let mut entry = AccessReport {
                    client: layout.label(access.client),
                    token: access.token,
                    at_ms: access.at_ms,
                    write: access.write.then_some(access.value),
                    presented: None,
                    highest_seen: None,
                };
                match access.outcome {
                    AccessOutcome::StaleToken => {
                        entry.write = None;
                        entry.presented = Some(access.token);
                        entry.highest_seen = Some(access.highest_seen);
                        rejected.push(entry);
                    }
                    AccessOutcome::Accepted => accepted.push(entry),
                    AccessOutcome::Duplicate | AccessOutcome::Malformed(_) => {}
                }
            }
            self.resource = Some(ResourceReport {
                fencing: resource.fencing,
                value: resource.value,
                accepted,
                rejected,
                duplicates: locks.duplicates,
            });
        }
        self.invoices = invoices_report(world, layout);
        let entry = world.config().protocol.entry();
        if entry.story.election_recipe {
            self.notifications = Some(locks.notifications);
        }
        if let Some(mode) = entry.parts.queue_mode(&world.config().protocol) {
            let jobs = locks.jobs_written();
            let elapsed_ms = world.now().as_ms().max(1);
            self.throughput = Some(ThroughputReport {
                mode: mode.to_string(),
                jobs,
                jobs_per_second: jobs * 1_000 / elapsed_ms,
                jobs_per_1000_seconds: jobs * 1_000_000 / elapsed_ms,
            });
        }
        self
    }
}

fn invoices_report(
    world: &World,
    layout: crate::worlds::coordination::Layout,
) -> Option<InvoicesReport> {
    let invoicing = world.config().protocol.invoicing()?;
    let (minute_ms, leader_mode) = (invoicing.minute_ms, invoicing.one_leader);
    let locks = world.checkers().locks();
    let mut minutes = BTreeSet::new();
    let (mut duplicates, mut refused) = (0, 0);
    for record in &locks.invoices {
        if record.refused {
            refused += 1;
        } else if record.duplicate {
            duplicates += 1;
        } else {
            minutes.insert(record.minute);
        }
    }
    let last_minute = world.now().as_ms() / minute_ms;
    let missed_minutes = (1..last_minute)
        .filter(|minute| !minutes.contains(minute))
        .collect();
    let lock_round_trips = (0..layout.workers)
        .filter_map(|index| {
            world.nodes()[layout.worker(index).index()]
                .actor
                .as_scheduler()
        })
        .map(|instance| instance.lock_round_trips)
        .sum();
    let mut failover_gaps_ms = Vec::new();
    for pair in locks.grants.windows(2) {
        let (old, new) = (pair[0], pair[1]);
        let last_invoice = locks
            .invoices
            .iter()
            .filter(|record| record.token == old.token && !record.refused)
            .filter(|record| record.at_ms <= new.at_ms)
            .map(|record| record.at_ms)
            .max()
            .unwrap_or(old.at_ms);
        if leader_mode && new.client != old.client {
            failover_gaps_ms.push(new.at_ms.saturating_sub(last_invoice));
        }
    }
    Some(InvoicesReport {
        mode: invoicing.mode.to_string(),
        generated: minutes.len() as u64,
        duplicates,
        refused,
        missed_minutes,
        lock_round_trips,
        failover_gaps_ms,
    })
}
