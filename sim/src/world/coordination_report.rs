//! The coordination parts of the report: names, lock grants and expiries, the resource's ledger.

use super::World;
use crate::protocol::AccessOutcome;
use crate::report::{AccessReport, LockRecord, LocksReport, Report, ResourceReport};

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
        let record = |record: &crate::checker::locks::GrantRecord| LockRecord {
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
        let resource = world.nodes()[layout.store().index()].actor.as_resource();
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
                    AccessOutcome::Duplicate => {}
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
        self
    }
}
