//! Reading the trace a little at a time, the way the checkpoints that need exact moments do.
//!
//! A check comes every few simulated milliseconds (every frame in the app), and several things can
//! happen between two checks: a pause and its end, a heartbeat sent and answered, a write refused. The
//! trace has them all, in order, so these checkpoints read what it gained since the last check rather
//! than sampling the world. A record the trace already forgot (it keeps the newest 100 000) cannot be
//! read and is skipped; a trace shorter than last time means the run was rewound, and the caller starts
//! its watch again from there.

use crate::engine::trace::{TraceEvent, TraceRecord};
use crate::engine::world::World;
use crate::protocols::resource::ResourceFact;
use crate::worlds::actor::Fact;

#[derive(Clone, Debug)]
pub(super) struct TraceCursor {
    records_read: u64,
}

impl TraceCursor {
    /// A cursor that reads only what the trace records from now on.
    pub(super) fn at_end(world: &World) -> TraceCursor {
        TraceCursor {
            records_read: world.trace().total(),
        }
    }

    /// The records added since the last call, oldest first; `None` when the run was rewound.
    pub(super) fn unread<'w>(
        &mut self,
        world: &'w World,
    ) -> Option<impl Iterator<Item = &'w TraceRecord>> {
        let trace = world.trace();
        if trace.total() < self.records_read {
            return None;
        }
        let skip = self.records_read.saturating_sub(trace.dropped_records()) as usize;
        self.records_read = trace.total();
        Some(trace.records().skip(skip))
    }
}

/// The shared resource's observations among `records`: the store's answers, in trace order.
pub(super) fn resource_facts<'w>(
    records: impl Iterator<Item = &'w TraceRecord>,
) -> impl Iterator<Item = &'w ResourceFact> {
    records.filter_map(|record| match &record.event {
        TraceEvent::Observe {
            fact: Fact::Resource(fact),
            ..
        } => Some(fact),
        _ => None,
    })
}
