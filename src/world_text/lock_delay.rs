//! The service's lock-delay, in one line per held-back lock: while a lock is kept from everyone after
//! its holder's lease expired, the panel says until when and why ("lock /lock/jobs held back until
//! 3.731 s: the old session's holder may still be acting"). The time is the service leader's clock,
//! the clock the delay is measured on, like the rest of the service's side of the panel.

use crate::format;
use quorumlab_sim::lockservice::etcd::lock_name;
use quorumlab_sim::view_coordination::CoordinationView;

/// One sentence per lock the service holds back now; empty when none is (or there is no service).
pub fn lock_delay_lines(coordination: &CoordinationView) -> Vec<String> {
    let Some(service) = &coordination.service else {
        return Vec::new();
    };
    service
        .lock_delays
        .iter()
        .map(|delay| {
            let lock = lock_name(delay.key);
            match delay.until_us {
                Some(until_us) => format!(
                    "lock {lock} held back until {}: the old session's holder may still be acting",
                    format::sim_time(until_us)
                ),
                // A leader elected mid-delay times a full delay of its own from its next check.
                None => format!(
                    "lock {lock} held back: the new leader is starting a full lock-delay of its own"
                ),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use quorumlab_sim::ids::NodeId;
    use quorumlab_sim::view_coordination::{LockDelayView, ServiceView};

    fn with_delays(lock_delays: Vec<LockDelayView>) -> CoordinationView {
        CoordinationView {
            service: Some(ServiceView {
                leader: NodeId(0),
                leader_clock_us: 2_000_000,
                revision: 4,
                leases: Vec::new(),
                locks: Vec::new(),
                znodes: Vec::new(),
                watches: Vec::new(),
                lock_delays,
            }),
            ..crate::world_text::bare_view(
                quorumlab_sim::ProtocolKind::LockService,
                &["n1", "n2", "n3", "A", "B", "store"],
            )
        }
    }

    #[test]
    fn a_held_back_lock_says_until_when_and_why() {
        let view = with_delays(vec![LockDelayView {
            key: 0,
            until_us: Some(3_731_000),
        }]);
        assert_eq!(
            lock_delay_lines(&view),
            vec![
                "lock /lock/jobs held back until 3.731 s: the old session's holder may still be acting"
            ]
        );
    }

    #[test]
    fn a_delay_not_yet_timed_says_a_full_one_is_starting() {
        let view = with_delays(vec![LockDelayView {
            key: 0,
            until_us: None,
        }]);
        let lines = lock_delay_lines(&view);
        assert_eq!(lines.len(), 1);
        assert!(lines[0].contains("full lock-delay"), "{lines:?}");
    }

    #[test]
    fn no_delay_no_line() {
        assert!(lock_delay_lines(&with_delays(Vec::new())).is_empty());
        let bare = crate::world_text::bare_view(quorumlab_sim::ProtocolKind::LockService, &["n1"]);
        assert!(lock_delay_lines(&bare).is_empty());
    }
}
