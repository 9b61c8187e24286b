//! Time travel: seeking and branching a Timeline reproduce exactly what a straight run produces.

use quorumlab_sim::action::{Action, NodeTarget, RequestKind};
use quorumlab_sim::history::Timeline;
use quorumlab_sim::ids::NodeId;
use quorumlab_sim::time::SimTime;
use quorumlab_sim::{World, WorldConfig};

fn timeline() -> Timeline {
    let world = World::new(WorldConfig::raft(5, 99)).unwrap();
    let mut timeline = Timeline::new(world, 100, 16);
    timeline.run_until(SimTime::from_ms(400));
    timeline.apply(&Action::Request {
        count: 5,
        target: NodeTarget::Leader,
        kind: RequestKind::Put,
    });
    timeline.run_until(SimTime::from_ms(650));
    timeline.apply(&Action::Crash {
        target: NodeTarget::Leader,
    });
    // An action in the middle of an instant, after stepping single events.
    for _ in 0..3 {
        timeline.step();
    }
    timeline.apply(&Action::Isolate {
        target: NodeTarget::Node(NodeId(4)),
    });
    timeline.run_until(SimTime::from_ms(2_000));
    timeline
}

#[test]
fn seeking_back_then_forward_reproduces_the_same_state() {
    let mut timeline = timeline();
    let hash = timeline.world().trace_hash();
    let view = timeline.world().view();
    timeline.seek(SimTime::from_ms(500));
    assert_eq!(timeline.now(), SimTime::from_ms(500));
    assert_ne!(timeline.world().trace_hash(), hash);
    timeline.seek(SimTime::from_ms(2_000));
    assert_eq!(timeline.world().trace_hash(), hash);
    assert_eq!(timeline.world().view(), view);
}

#[test]
fn seeking_matches_a_straight_run_to_that_time() {
    let mut timeline = timeline();
    let mut straight = timeline.clone();
    timeline.seek(SimTime::from_ms(1_234));
    let mut fresh = World::new(WorldConfig::raft(5, 99)).unwrap();
    for recorded in timeline.actions() {
        fresh.fast_forward_to(recorded.after_events, recorded.at);
        fresh.apply(&recorded.action);
    }
    fresh.run_until(SimTime::from_ms(1_234));
    assert_eq!(timeline.world().trace_hash(), fresh.trace_hash());
    straight.seek(SimTime::from_ms(1_234));
    assert_eq!(straight.world().trace_hash(), fresh.trace_hash());
}

#[test]
fn branching_discards_the_old_future() {
    let mut timeline = timeline();
    let old_hash = timeline.world().trace_hash();
    timeline.branch_at(SimTime::from_ms(500));
    assert_eq!(
        timeline.actions().len(),
        1,
        "only the action before 500 ms survives"
    );
    timeline.apply(&Action::Partition {
        groups: vec![vec![NodeId(0)], vec![NodeId(1), NodeId(2)]],
    });
    timeline.run_until(SimTime::from_ms(2_000));
    assert_ne!(timeline.world().trace_hash(), old_hash);
    let new_hash = timeline.world().trace_hash();
    timeline.seek(SimTime::from_ms(100));
    timeline.seek(SimTime::from_ms(2_000));
    assert_eq!(timeline.world().trace_hash(), new_hash);
}

#[test]
fn applying_in_the_past_branches_implicitly_and_snapshots_stay_bounded() {
    let mut timeline = timeline();
    timeline.seek(SimTime::from_ms(300));
    timeline.apply(&Action::Heal);
    assert_eq!(timeline.actions().len(), 1);
    timeline.run_until(SimTime::from_ms(20_000));
    assert!(timeline.snapshot_count() <= 16);
}

#[test]
fn stepping_through_a_recorded_future_replays_actions_at_their_point() {
    let mut timeline = timeline();
    let hash = timeline.world().trace_hash();
    let events = timeline.world().events_processed();
    timeline.seek(SimTime::from_ms(300));
    while timeline.world().events_processed() < events {
        assert!(timeline.step());
    }
    timeline.run_until(SimTime::from_ms(2_000));
    assert_eq!(timeline.world().trace_hash(), hash);
}

#[test]
fn snapshots_keep_no_trace_records_and_a_seek_replays_enough_to_look_back_on() {
    use quorumlab_sim::history::SEEK_LOOKBACK_RECORDS;
    let config = WorldConfig::raft(5, 99);
    let mut timeline = Timeline::new(World::new(config.clone()).unwrap(), 100, 16);
    timeline.run_until(SimTime::from_ms(240_000));
    let straight_records = timeline.world().trace().records().count();
    assert!(
        straight_records > 4 * SEEK_LOOKBACK_RECORDS,
        "the run keeps more records than a seek replays ({straight_records})"
    );
    assert_eq!(timeline.snapshot_trace_records(), 0);
    // 128 001 ms is just after a snapshot (they fall on multiples of 25.6 s by the end).
    for target_ms in [239_000, 128_001, 123_456, 50] {
        let target = SimTime::from_ms(target_ms);
        let mut straight = World::new(config.clone()).unwrap();
        straight.run_until(target);
        timeline.seek(target);
        let world = timeline.world();
        assert_eq!(world.events_processed(), straight.events_processed());
        assert_eq!(world.trace_hash(), straight.trace_hash());
        let kept = world.trace().records().count();
        let available = straight.trace().records().count();
        assert!(
            kept >= SEEK_LOOKBACK_RECORDS.min(available),
            "at {target_ms} ms a seek leaves {kept} records to look back on"
        );
        // The lookback costs about one interval more than before, not the whole run.
        assert!(kept < straight_records, "at {target_ms} ms: {kept} records");
        let newest_kept = world
            .trace()
            .records()
            .next_back()
            .map(|record| record.at_us);
        let newest_straight = straight
            .trace()
            .records()
            .next_back()
            .map(|record| record.at_us);
        assert_eq!(newest_kept, newest_straight);
    }
    assert_eq!(timeline.snapshot_trace_records(), 0);
}

#[test]
fn one_long_run_keeps_the_snapshot_bound_without_doubling_the_interval_away() {
    // The app's settings: a snapshot every 250 ms, at most 400. One call running ten minutes used to
    // double the interval at every snapshot past the bound until it overflowed.
    let world = World::new(WorldConfig::raft(5, 7)).unwrap();
    let mut timeline = Timeline::new(world, 250, 400);
    timeline.run_until(SimTime::from_ms(600_000));
    assert!(timeline.snapshot_count() <= 400);
    assert!(
        timeline.snapshot_count() > 100,
        "snapshots still cover the run: {}",
        timeline.snapshot_count()
    );
    timeline.seek(SimTime::from_ms(590_000));
    assert_eq!(timeline.now(), SimTime::from_ms(590_000));
}
