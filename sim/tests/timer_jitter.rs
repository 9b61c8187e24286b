//! `[timing] timer_jitter_us`: timers fire up to that late, which is what lets identical election
//! timeouts elect at all; with none, they fire exactly, and a cluster whose servers all start at once
//! with identical timeouts splits its vote for ever.

use quorumlab_sim::time::SimTime;
use quorumlab_sim::trace::TraceEvent;
use quorumlab_sim::{World, WorldConfig};

fn identical_timeouts(timer_jitter_us: u64, seed: u64) -> World {
    let mut config = WorldConfig::raft(5, seed);
    config.timing.election_timeout_ms = (150, 150);
    config.timing.heartbeat_ms = 75;
    config.timing.network_delay_ms = (1, 2);
    config.timing.timer_jitter_us = timer_jitter_us;
    World::new(config).expect("a valid world")
}

#[test]
fn without_jitter_identical_timeouts_never_elect_and_with_it_they_do() {
    let mut exact = identical_timeouts(0, 4);
    exact.run_until(SimTime::from_ms(20_000));
    assert!(
        exact.checkers().leaders().is_empty(),
        "split votes for ever"
    );
    let elected = (1..=5).filter(|seed| {
        let mut jittered = identical_timeouts(2_000, *seed);
        jittered.run_until(SimTime::from_ms(60_000));
        !jittered.checkers().leaders().is_empty()
    });
    assert!(elected.count() >= 3, "most seeds elect within a minute");
}

#[test]
fn a_timer_fires_no_earlier_than_due_and_at_most_the_jitter_late() {
    let mut world = identical_timeouts(3_000, 9);
    world.run_until(SimTime::from_ms(149));
    let due: Vec<_> = world
        .nodes()
        .iter()
        .map(|slot| {
            slot.timers
                .values()
                .next()
                .expect("an election timer")
                .due_at
        })
        .collect();
    for at in &due {
        let late_us = at.as_micros() - 150_000;
        assert!(late_us <= 3_000, "{late_us} µs late");
    }
    assert!(due.windows(2).any(|pair| pair[0] != pair[1]), "{due:?}");
    world.run_until(SimTime::from_ms(154));
    let fired: Vec<u64> = world
        .trace()
        .records()
        .filter(|record| matches!(record.event, TraceEvent::Timer { .. }))
        .map(|record| record.at_us)
        .collect();
    // The first to fire starts an election; a server it reaches first votes and starts again.
    assert!(!fired.is_empty());
    assert!(
        fired
            .iter()
            .all(|at_us| (150_000..=153_000).contains(at_us)),
        "{fired:?}"
    );
}
