//! Acting in the past starts a new future: nothing of the old one may leak into it.

use quorumlab_sim::action::{Action, NodeTarget};
use quorumlab_sim::history::Timeline;
use quorumlab_sim::time::SimTime;
use quorumlab_sim::{World, WorldConfig};

fn timeline(seed: u64) -> Timeline {
    Timeline::new(
        World::new(WorldConfig::raft(5, seed)).expect("valid"),
        100,
        64,
    )
}

#[test]
fn acting_in_the_past_forgets_the_old_futures_snapshots() {
    let mut played = timeline(4);
    played.run_until(SimTime::from_ms(2_000));
    played.seek(SimTime::from_ms(730));
    played.apply(&Action::Crash {
        target: NodeTarget::Leader,
    });
    played.run_until(SimTime::from_ms(1_500));
    // Seeking back inside the new future must use its own snapshots, not the old future's.
    played.seek(SimTime::from_ms(1_200));
    played.run_until(SimTime::from_ms(1_500));

    let mut straight = timeline(4);
    straight.run_until(SimTime::from_ms(730));
    straight.apply(&Action::Crash {
        target: NodeTarget::Leader,
    });
    straight.run_until(SimTime::from_ms(1_500));
    assert_eq!(played.world().trace_hash(), straight.world().trace_hash());
}

#[test]
fn the_horizon_remembers_where_playback_stopped_until_a_new_future_begins() {
    let mut line = timeline(9);
    line.run_until(SimTime::from_ms(1_337));
    line.seek(SimTime::from_ms(400));
    assert_eq!(line.horizon(), SimTime::from_ms(1_337));
    line.apply(&Action::Heal);
    assert_eq!(line.horizon(), SimTime::from_ms(400));
}
