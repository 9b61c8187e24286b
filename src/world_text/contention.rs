//! Contention on the lock in words: how many grants the last second saw, and how many workers are
//! asking or queueing for the lock right now. One lock turns many workers into one line, so the grant
//! rate is the ceiling on their jobs, and a stalled holder shows as the rate falling while the waiting
//! count climbs.

use quorumlab_sim::view_coordination::CoordinationView;
use quorumlab_sim::worker::Phase;

/// Workers asking for the lock or queued behind its holder.
pub fn waiting_workers(coordination: &CoordinationView) -> usize {
    coordination
        .workers
        .iter()
        .filter(|worker| matches!(worker.phase, Phase::Acquiring | Phase::Waiting))
        .count()
}

/// "Lock: 9 grants in the last second · 3 of 8 workers waiting"; `None` where no worker takes a lock.
pub fn contention_sentence(coordination: &CoordinationView) -> Option<String> {
    if coordination.workers.is_empty() {
        return None;
    }
    let grants = match coordination.grants_last_second {
        Some(1) => "1 grant in the last second".to_string(),
        Some(count) => format!("{count} grants in the last second"),
        None => "grants no longer counted (record full)".to_string(),
    };
    Some(format!(
        "Lock: {grants} · {} of {} workers waiting",
        waiting_workers(coordination),
        coordination.workers.len()
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::world_text::bare_view;
    use quorumlab_sim::ids::NodeId;
    use quorumlab_sim::view_coordination::WorkerView;
    use quorumlab_sim::ProtocolKind;

    fn worker(index: u16, phase: Phase) -> WorkerView {
        WorkerView {
            id: NodeId(index),
            phase,
            belief: None,
            local_clock_us: 0,
            jobs_done: 0,
            jobs_abandoned: 0,
            fenced_off: 0,
        }
    }

    #[test]
    fn asking_and_queued_workers_count_as_waiting_and_the_rate_is_told() {
        let mut view = bare_view(ProtocolKind::LockService, &["n1", "A", "B", "C", "store"]);
        view.workers = vec![
            worker(1, Phase::Modifying),
            worker(2, Phase::Waiting),
            worker(3, Phase::Acquiring),
        ];
        view.grants_last_second = Some(7);
        assert_eq!(
            contention_sentence(&view).as_deref(),
            Some("Lock: 7 grants in the last second · 2 of 3 workers waiting")
        );
        view.grants_last_second = Some(1);
        view.workers[1].phase = Phase::Idle;
        assert_eq!(
            contention_sentence(&view).as_deref(),
            Some("Lock: 1 grant in the last second · 1 of 3 workers waiting")
        );
    }

    #[test]
    fn a_world_without_workers_says_nothing() {
        let view = bare_view(ProtocolKind::LockService, &["n1"]);
        assert_eq!(contention_sentence(&view), None);
    }
}
