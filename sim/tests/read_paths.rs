//! The four read paths against what the clients saw: under the same faults, reads through the log and
//! by read index stay linearizable, a lease read on a slowed clock does not, and a follower read from a
//! cut-off server does not either. Each claim is judged by the history checker and cross-checked by
//! the omniscient "Linearizable Reads" check.

use quorumlab_sim::chaos::{chaos_scenario, ChaosOptions, ChaosProfile};
use quorumlab_sim::checker::LINEARIZABLE_READS;
use quorumlab_sim::client_history::{OpCall, OpEnd, OpReturn};
use quorumlab_sim::compare::variation::{side_labels, vary, Variation};
use quorumlab_sim::config::ReadPath;
use quorumlab_sim::linearizable::models::HistoryVerdict;
use quorumlab_sim::linearizable::Budget;
use quorumlab_sim::protocol::ClientCommand;
use quorumlab_sim::runner::ScenarioRun;
use quorumlab_sim::scenario::{parse_scenario, to_toml_string, Scenario};
use quorumlab_sim::sweep::judge_scenario_with_history;
use quorumlab_sim::sweep_history::{SeedHistory, SWEEP_BUDGET};
use quorumlab_sim::World;

const STALE_LEASE_READ: &str = include_str!("../scenarios/stale-lease-read.toml");

fn stale_lease_story(read_path: ReadPath) -> Scenario {
    let mut scenario = parse_scenario(STALE_LEASE_READ, "stale-lease-read.toml").unwrap();
    scenario.raft.read_path = read_path;
    scenario
}

fn run(scenario: Scenario) -> World {
    let mut run = ScenarioRun::new(scenario).unwrap();
    run.run_to_end();
    run.world().clone()
}

fn verdict(world: &World) -> HistoryVerdict {
    world.linearizability(Budget::NATIVE).unwrap().verdict()
}

fn stale_reads(world: &World) -> u64 {
    let counts = world.report().violation_counts;
    counts.get(LINEARIZABLE_READS).copied().unwrap_or(0)
}

/// The one read of the story (key 1, sent to the cut-off old leader n5) and how it ended.
fn the_read(world: &World) -> OpEnd {
    let ops = world.client_log().ops();
    let read = ops
        .iter()
        .find(|op| op.call == OpCall::Kv(ClientCommand::Get { key: 1 }))
        .expect("the story reads key 1");
    read.end
}

#[test]
fn under_drift_beyond_the_lease_s_bound_a_lease_read_fails_the_check() {
    let world = run(stale_lease_story(ReadPath::Lease));
    assert!(matches!(verdict(&world), HistoryVerdict::Refused { .. }));
    assert_eq!(the_read(&world), OpEnd::Ok(OpReturn::Read(Some(1))));
    assert_eq!(stale_reads(&world), 1);
}

#[test]
fn under_the_same_faults_read_index_and_log_reads_pass() {
    for read_path in [ReadPath::ReadIndex, ReadPath::Log] {
        let world = run(stale_lease_story(read_path));
        assert_eq!(
            verdict(&world),
            HistoryVerdict::Linearizable,
            "{read_path:?}"
        );
        assert_eq!(stale_reads(&world), 0, "{read_path:?}");
        // The cut-off old leader cannot confirm it leads, so the read is never answered with 1.
        assert_ne!(
            the_read(&world),
            OpEnd::Ok(OpReturn::Read(Some(1))),
            "{read_path:?}"
        );
    }
}

#[test]
fn a_follower_read_from_a_cut_off_server_is_stale() {
    let world = run(stale_lease_story(ReadPath::Follower));
    assert!(matches!(verdict(&world), HistoryVerdict::Refused { .. }));
    assert_eq!(the_read(&world), OpEnd::Ok(OpReturn::Read(Some(1))));
    assert_eq!(stale_reads(&world), 1);
}

/// The reads profile's seeds, every one forced onto `read_path`: how many histories the checker
/// refused, and how many were undecided.
fn reads_profile(read_path: ReadPath, seeds: u64) -> (u64, u64) {
    let options = ChaosOptions {
        profile: ChaosProfile::Reads,
        read_path: Some(read_path),
        ..ChaosOptions::default()
    };
    let (mut refused, mut undecided) = (0, 0);
    for seed in 1..=seeds {
        let outcome =
            judge_scenario_with_history(chaos_scenario(seed, &options), SWEEP_BUDGET).unwrap();
        let histories = outcome.history.clone().unwrap();
        assert_eq!(histories.read_path, Some(read_path));
        let history = histories.verdict;
        refused += u64::from(history == SeedHistory::NotLinearizable);
        undecided += u64::from(history == SeedHistory::Undecided);
        let safe = read_path.safe_under_any_clock();
        assert_eq!(
            outcome.failed(),
            !safe && history == SeedHistory::NotLinearizable
                || outcome.violations.contains_key(LINEARIZABLE_READS),
            "seed {seed}: {:?}",
            outcome.violations
        );
    }
    (refused, undecided)
}

#[test]
fn the_reads_profile_catches_the_unsafe_paths_and_never_the_safe_ones() {
    assert_eq!(reads_profile(ReadPath::Log, 25), (0, 0));
    assert_eq!(reads_profile(ReadPath::ReadIndex, 25), (0, 0));
    let (lease_refused, _) = reads_profile(ReadPath::Lease, 25);
    let (follower_refused, _) = reads_profile(ReadPath::Follower, 25);
    assert!(
        lease_refused >= 15,
        "{lease_refused} of 25 lease seeds caught"
    );
    assert!(
        follower_refused >= 15,
        "{follower_refused} of 25 follower seeds caught"
    );
}

#[test]
fn the_old_spelling_still_means_the_lease_and_the_new_paths_read_back() {
    let old = parse_scenario(STALE_LEASE_READ, "old").unwrap();
    assert_eq!(old.raft.read_path, ReadPath::Lease);
    let exported = to_toml_string(&old);
    assert!(exported.contains("lease_reads = true") && !exported.contains("read_path"));
    for read_path in [ReadPath::ReadIndex, ReadPath::Follower] {
        let text = to_toml_string(&stale_lease_story(read_path));
        assert!(text.contains(&format!("read_path = \"{}\"", read_path.name())));
        assert_eq!(
            parse_scenario(&text, "new").unwrap().raft.read_path,
            read_path
        );
    }
    let both = STALE_LEASE_READ.to_string() + "\n[raft]\nread_path = \"follower\"\n";
    let error = parse_scenario(&both, "both").unwrap_err().to_string();
    assert!(error.contains("lease_reads = true"), "{error}");
    let same = STALE_LEASE_READ.to_string() + "\n[raft]\nread_path = \"lease\"\n";
    assert_eq!(
        parse_scenario(&same, "same").unwrap().raft.read_path,
        ReadPath::Lease
    );
    let unknown =
        STALE_LEASE_READ.replace("lease_reads = true", "") + "\n[raft]\nread_path = \"quorum\"\n";
    let error = parse_scenario(&unknown, "unknown").unwrap_err().to_string();
    assert!(error.contains("read_index"), "{error}");
}

#[test]
fn a_stale_lease_read_is_a_compare_away_from_a_linearizable_one() {
    let base = stale_lease_story(ReadPath::Lease);
    let varied = vary(&base, &[Variation::ReadIndex]).unwrap();
    assert_eq!(varied.raft.read_path, ReadPath::ReadIndex);
    let (left, right) = side_labels(&base, &varied);
    assert_eq!(left, "lease reads on, read-index reads off");
    assert_eq!(right, "lease reads off, read-index reads on");
    assert!(matches!(
        verdict(&run(base.clone())),
        HistoryVerdict::Refused { .. }
    ));
    assert_eq!(verdict(&run(varied.clone())), HistoryVerdict::Linearizable);
    // Flipping back goes through the log; the old lease flip is unchanged.
    let back = vary(&varied, &[Variation::ReadIndex]).unwrap();
    assert_eq!(back.raft.read_path, ReadPath::Log);
    assert_eq!(
        vary(&back, &[Variation::LeaseReads])
            .unwrap()
            .raft
            .read_path,
        ReadPath::Lease
    );
    let followers = vary(&back, &[Variation::FollowerReads]).unwrap();
    assert_eq!(followers.raft.read_path, ReadPath::Follower);
}
