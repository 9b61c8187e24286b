//! Compare mode in the engine: two runs of one scenario with options flipped, on one clock, every
//! action applied to both at the same instant, and the line saying how they differ.

use quorumlab_sim::action::{Action, NodeTarget};
use quorumlab_sim::compare::pair::ComparedRuns;
use quorumlab_sim::compare::variation::{side_labels, vary, watch_for, Variation};
use quorumlab_sim::ids::NodeId;
use quorumlab_sim::runner::ScenarioRun;
use quorumlab_sim::scenario::{parse_scenario, Scenario, EXAMPLES};
use quorumlab_sim::time::SimTime;

fn example(name: &str) -> Scenario {
    let (_, text) = EXAMPLES
        .iter()
        .find(|(file, _)| *file == name)
        .unwrap_or_else(|| panic!("{name} is an example"));
    parse_scenario(text, name).unwrap()
}

fn fencing_pair() -> ComparedRuns {
    let left = example("fencing-pause.toml");
    let right = vary(&left, &[Variation::Fencing]).unwrap();
    ComparedRuns::new(left, right).unwrap()
}

/// "The same pause, with and without fencing": the fenced store refuses the paused holder's stale
/// write, the unfenced one loses the next holder's update (Kleppmann, "How to do distributed
/// locking", 2016).
#[test]
fn fencing_on_and_off_part_at_the_stale_write() {
    let mut pair = fencing_pair();
    let before = pair.difference();
    assert!(before.is_none(), "{before:?}");
    pair.advance_to(SimTime::from_ms(6_000));
    let difference = pair.difference();
    assert!(
        difference.line.starts_with("left: StaleToken refused at "),
        "{}",
        difference.line
    );
    assert!(
        difference.line.contains(" · right: stale token accepted, ")
            && difference.line.contains("lost update at "),
        "{}",
        difference.line
    );
    assert!(difference
        .tallies
        .iter()
        .any(|tally| tally.starts_with("violations: 0 | ")));
    let parted = difference.parted_at_us.unwrap();
    assert!((950_000..6_000_000).contains(&parted), "{parted}");
}

/// "Lease reads with a skewed clock": the cut-off leader whose clock was set back answers reads alone
/// from stale state while lease reads are on; with them off its reads wait on a log it cannot commit,
/// and no checker fires.
#[test]
fn lease_reads_on_and_off_part_at_the_stale_read() {
    let left = example("lease-reads-skewed-clock.toml");
    let right = vary(&left, &[Variation::LeaseReads]).unwrap();
    let mut pair = ComparedRuns::new(left, right).unwrap();
    pair.advance_to(SimTime::from_ms(1_900));
    assert!(pair.difference().parted_at_us.is_none());
    pair.advance_to(SimTime::from_ms(5_000));
    let difference = pair.difference();
    assert!(
        difference
            .line
            .starts_with("left: stale read ×3 at 2.00 s · right: "),
        "{}",
        difference.line
    );
    let stale_reads = |run: &ScenarioRun| {
        run.world()
            .checkers()
            .violations()
            .iter()
            .filter(|violation| violation.invariant == "Linearizable Reads")
            .count()
    };
    assert_eq!(stale_reads(pair.left()), 3);
    assert_eq!(stale_reads(pair.right()), 0);
}

/// Each side is the very run its own scenario makes alone: compare mode adds nothing to either.
#[test]
fn each_side_is_the_run_its_scenario_makes_alone() {
    let mut pair = fencing_pair();
    pair.advance_to(SimTime::from_ms(6_000));
    let mut alone = ScenarioRun::new(example("no-fencing-pause.toml")).unwrap();
    alone.advance_to(SimTime::from_ms(6_000));
    assert_eq!(pair.trace_hashes()[1], alone.world().trace_hash());
    let mut fenced = ScenarioRun::new(example("fencing-pause.toml")).unwrap();
    fenced.advance_to(SimTime::from_ms(6_000));
    assert_eq!(pair.trace_hashes()[0], fenced.world().trace_hash());
    assert_ne!(pair.trace_hashes()[0], pair.trace_hashes()[1]);
}

fn run_with_actions() -> ComparedRuns {
    let mut pair = fencing_pair();
    pair.advance_to(SimTime::from_ms(1_200));
    pair.apply(&Action::Crash {
        target: NodeTarget::Leader,
    })
    .unwrap();
    pair.advance_to(SimTime::from_ms(2_000));
    pair.apply(&Action::Restart {
        target: NodeTarget::Node(NodeId(0)),
    })
    .unwrap();
    pair.advance_to(SimTime::from_ms(6_000));
    pair
}

#[test]
fn the_same_inputs_reproduce_both_sides_bit_for_bit() {
    let (first, second) = (run_with_actions(), run_with_actions());
    assert_eq!(first.trace_hashes(), second.trace_hashes());
    assert_ne!(first.trace_hashes(), fencing_pair_at_end().trace_hashes());
}

fn fencing_pair_at_end() -> ComparedRuns {
    let mut pair = fencing_pair();
    pair.advance_to(SimTime::from_ms(6_000));
    pair
}

#[test]
fn an_action_reaches_both_sides_at_the_same_instant() {
    let pair = run_with_actions();
    let left_log = pair.left().world().action_log();
    let right_log = pair.right().world().action_log();
    let crash_at = |log: &[(SimTime, Action)]| {
        log.iter()
            .find(|(_, action)| matches!(action, Action::Crash { .. }))
            .map(|(at, _)| *at)
    };
    assert_eq!(crash_at(left_log), Some(SimTime::from_ms(1_200)));
    assert_eq!(crash_at(left_log), crash_at(right_log));
    assert_eq!(left_log.len(), right_log.len());
    assert_eq!(pair.left().world().now(), pair.right().world().now());
}

#[test]
fn an_action_on_a_missing_node_is_refused_for_both_and_changes_nothing() {
    let mut pair = fencing_pair();
    pair.advance_to(SimTime::from_ms(500));
    let hashes = pair.trace_hashes();
    let refused = pair.apply(&Action::Crash {
        target: NodeTarget::Node(NodeId(40)),
    });
    let reason = refused.unwrap_err();
    assert!(reason.contains("left side"), "{reason}");
    assert_eq!(pair.trace_hashes(), hashes);
    assert!(pair
        .left()
        .world()
        .action_log()
        .iter()
        .all(|(_, action)| !matches!(action, Action::Crash { .. })));
}

#[test]
fn scenarios_that_cannot_share_a_clock_are_refused() {
    let left = example("fencing-pause.toml");
    let mut right = vary(&left, &[Variation::Fencing]).unwrap();
    right.seed += 1;
    let reason = ComparedRuns::new(left.clone(), right).unwrap_err();
    assert!(reason.contains("different seeds"), "{reason}");
    let reason = vary(&left, &[]).unwrap_err();
    assert!(reason.contains("at least one"), "{reason}");
    let reason = Variation::ZkRecipe.apply(&left).unwrap_err();
    assert!(reason.contains("cannot be compared"), "{reason}");
}

/// Every variation flips its option on the example it is offered with, into a valid scenario, and the
/// side labels name exactly that option.
#[test]
fn every_variation_flips_its_option_on_its_example() {
    let cases = [
        (
            Variation::Fencing,
            "fencing-pause.toml",
            "fencing on",
            "fencing off",
        ),
        (
            Variation::Redlock,
            "fencing-pause.toml",
            "fenced lock service",
            "Redlock",
        ),
        (
            Variation::ZkRecipe,
            "zk-herd.toml",
            "herd recipe",
            "sequential recipe",
        ),
        (
            Variation::PreVote,
            "prevote-rejoin.toml",
            "PreVote on",
            "PreVote off",
        ),
        (
            Variation::CheckQuorum,
            "lease-reads.toml",
            "CheckQuorum on",
            "CheckQuorum off",
        ),
        (
            Variation::LeaseReads,
            "lease-reads-skewed-clock.toml",
            "lease reads on",
            "lease reads off",
        ),
        (
            Variation::SchedulerLeader,
            "scheduler-lock-every-run.toml",
            "lock-every-run",
            "leader-election",
        ),
        (
            Variation::QueuePartitioned,
            "queue-partitioned.toml",
            "partitioned queue",
            "global lock",
        ),
        (
            Variation::LockDelay,
            "lock-delay-pause.toml",
            "lock-delay 2000 ms",
            "lock-delay off",
        ),
        (
            Variation::ReadIndex,
            "leader-crash.toml",
            "read-index reads off",
            "read-index reads on",
        ),
        (
            Variation::FollowerReads,
            "leader-crash.toml",
            "follower reads off",
            "follower reads on",
        ),
    ];
    assert_eq!(cases.len(), Variation::ALL.len());
    for (variation, file, left_words, right_words) in cases {
        let left = example(file);
        let right = vary(&left, &[variation]).unwrap_or_else(|reason| panic!("{file}: {reason}"));
        assert_eq!(
            side_labels(&left, &right),
            (left_words.to_string(), right_words.to_string())
        );
        assert_eq!(Variation::by_name(variation.name()), Some(variation));
        assert_eq!(
            watch_for(&left, &right).as_deref(),
            Some(variation.watch_for()),
            "{file}"
        );
        assert_eq!(watch_for(&left, &left), None);
        let mut pair = ComparedRuns::new(left, right).unwrap();
        pair.advance_to(SimTime::from_ms(1_000));
        assert_eq!(pair.left().world().now(), pair.right().world().now());
    }
}

#[test]
fn two_options_can_differ_at_once() {
    let left = example("lease-reads.toml");
    let right = vary(&left, &[Variation::PreVote, Variation::CheckQuorum]).unwrap();
    let (left_words, right_words) = side_labels(&left, &right);
    assert_eq!(left_words, "PreVote off, CheckQuorum on");
    assert_eq!(right_words, "PreVote on, CheckQuorum off");
}

/// After a rewind (a shorter trace) the moment log reads the run again, so it never keeps a future the
/// run shown no longer has.
#[test]
fn the_moment_log_starts_again_after_a_rewind() {
    use quorumlab_sim::difference::moments::MomentLog;
    let mut long = ScenarioRun::new(example("no-fencing-pause.toml")).unwrap();
    long.advance_to(SimTime::from_ms(6_000));
    let mut log = MomentLog::new();
    log.catch_up(long.world());
    assert!(log.tally().violations > 0);
    let mut short = ScenarioRun::new(example("no-fencing-pause.toml")).unwrap();
    short.advance_to(SimTime::from_ms(900));
    log.catch_up(short.world());
    assert_eq!(log.tally().violations, 0);
    let mut fresh = MomentLog::new();
    fresh.catch_up(short.world());
    assert_eq!(log.moments(), fresh.moments());
    assert_eq!(log.tally(), fresh.tally());
}
