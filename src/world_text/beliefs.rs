//! What a lock client believes, in its own words and on its own clock, and who believes they hold the
//! lock right now: a belief can outlive the lease it rests on, which is the failure the lanes show.

use crate::format;
use quorumlab_sim::view_coordination::{CoordinationView, WorkerView};

/// A worker's belief in its own words, on its own clock. `tokens` is false for Redis-style locks, whose
/// hold values are random, not fencing tokens, and not worth reading.
pub fn belief_sentence(worker: &WorkerView, paused: bool, tokens: bool) -> String {
    let local_us = worker.local_clock_us;
    match worker.belief {
        Some(belief) => {
            let expired = (belief.lease_until_local_us as i64) <= local_us;
            let until = format::sim_time(belief.lease_until_local_us);
            let holds = if tokens {
                format!(
                    "holds lock, token {}, lease until {until} on its clock",
                    belief.token
                )
            } else {
                format!("holds lock, valid until {until} on its clock")
            };
            // What it is doing with the lock: a pause while modifying is the one that ends in a late
            // write, and the fencing lessons ask for exactly that pause.
            let phase = phase_word(worker);
            match (paused, expired) {
                (true, _) => format!("paused — still believes it {holds} (stopped while {phase})"),
                (false, true) => {
                    format!("thinks it {holds} (already past, by its clock) — {phase}")
                }
                (false, false) => format!("{holds} — {phase}"),
            }
        }
        None if paused => "paused — holds nothing".to_string(),
        None => phase_word(worker).to_string(),
    }
}

fn phase_word(worker: &WorkerView) -> &'static str {
    use quorumlab_sim::worker::Phase;
    match worker.phase {
        Phase::Idle => "idle",
        Phase::Acquiring => "asking for the lock",
        Phase::Waiting => "waiting in the queue",
        Phase::Reading => "reading",
        Phase::Modifying => "modifying",
        Phase::Writing => "writing",
        Phase::Releasing => "releasing",
    }
}

/// The banner's sentence when two or more clients believe they hold the lock at once.
pub fn double_holder_sentence(holders: &[String]) -> String {
    match holders {
        [] | [_] => String::new(),
        [first, second] => {
            format!("{first} and {second} both believe they hold the lock right now")
        }
        [rest @ .., last] => format!(
            "{} and {last} all believe they hold the lock right now",
            rest.join(", ")
        ),
    }
}

/// Workers that, right now and by their own clocks, believe they hold the lock.
pub fn believed_holders(coordination: &CoordinationView) -> Vec<&str> {
    coordination
        .workers
        .iter()
        .filter(|worker| {
            worker
                .belief
                .is_some_and(|belief| belief.lease_until_local_us as i64 > worker.local_clock_us)
        })
        .filter_map(|worker| {
            coordination
                .labels
                .get(worker.id.index())
                .map(String::as_str)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use quorumlab_sim::ids::NodeId;
    use quorumlab_sim::units::FencingToken;
    use quorumlab_sim::worker::{Belief, Phase};

    fn worker(belief: Option<Belief>, local_clock_us: i64) -> WorkerView {
        WorkerView {
            id: NodeId(3),
            phase: Phase::Writing,
            belief,
            local_clock_us,
            jobs_done: 0,
            jobs_abandoned: 0,
            fenced_off: 0,
        }
    }

    #[test]
    fn belief_reads_like_the_worker_thinks() {
        let belief = Belief {
            lease: 1,
            token: FencingToken(34),
            lease_until_local_us: 1_240_000,
        };
        assert_eq!(
            belief_sentence(&worker(Some(belief), 1_000_000), false, true),
            "holds lock, token 34, lease until 1.240 s on its clock — writing"
        );
        assert!(
            belief_sentence(&worker(Some(belief), 1_000_000), true, true)
                .starts_with("paused — still believes it holds lock, token 34")
        );
        assert!(
            belief_sentence(&worker(Some(belief), 1_000_000), true, true)
                .ends_with("(stopped while writing)")
        );
        assert_eq!(belief_sentence(&worker(None, 0), false, true), "writing");
        assert_eq!(
            belief_sentence(&worker(Some(belief), 1_000_000), false, false),
            "holds lock, valid until 1.240 s on its clock — writing"
        );
    }

    #[test]
    fn the_banner_names_every_believer() {
        let names = |list: &[&str]| list.iter().map(|name| name.to_string()).collect::<Vec<_>>();
        assert_eq!(double_holder_sentence(&names(&["A"])), "");
        assert_eq!(
            double_holder_sentence(&names(&["A", "B"])),
            "A and B both believe they hold the lock right now"
        );
        assert_eq!(
            double_holder_sentence(&names(&["A", "B", "C"])),
            "A, B and C all believe they hold the lock right now"
        );
    }
}
