//! What PBFT promises and what it does not: "up to f of n = 3f + 1 replicas may be faulty" (Castro
//! and Liskov 1999, section 2). The example `pbft-normal` with its primary n1 crashed and the backup
//! n3 made to lie has two faulty replicas of four, one more than f = 1: the two honest ones cannot
//! make the 2f + 1 = 3 matching votes a request needs, so the client waits as long as both faults
//! last. These tests pin that down as the model's rule rather than a stall: each fault alone is
//! survived, the pair is not, and ending either fault lets requests flow again. They also pin the
//! rule for a liar that crashes: down, it lies to no one; restarted, it lies as before.

use quorumlab_sim::action::ByzantineMode;
use quorumlab_sim::ids::NodeId;
use quorumlab_sim::pbft::digest_text;
use quorumlab_sim::runner::ScenarioRun;
use quorumlab_sim::scenario::parse_scenario;
use quorumlab_sim::time::SimTime;
use quorumlab_sim::view_coordination::PbftView;
use quorumlab_sim::world::NodeStatus;

/// `pbft-normal` (four replicas, client A, seed 7) with its crash of n1 at 1.5 s or not, and `steps`.
fn normal_with(crash_primary: bool, steps: &str, duration_ms: u64) -> ScenarioRun {
    let crash = match crash_primary {
        true => "[[step]]\nat_ms = 1500\ndo = \"crash\"\ntarget = \"n1\"\n",
        false => "",
    };
    let text = format!(
        "title = \"pbft tolerance\"\nprotocol = \"pbft\"\nnodes = 4\nseed = 7\nduration_ms = {duration_ms}\n\
         [locks]\nworkers = 1\n{crash}{steps}"
    );
    let scenario = parse_scenario(&text, "test").expect("the test scenario parses");
    ScenarioRun::new(scenario).expect("the test scenario runs")
}

fn step(at_ms: u64, what: &str, node: u16) -> String {
    format!("[[step]]\nat_ms = {at_ms}\n{what}\ntarget = \"n{node}\"\n")
}

fn lie(at_ms: u64, node: u16) -> String {
    step(at_ms, "do = \"byzantine\"\nmode = \"lie\"", node)
}

fn pbft(run: &ScenarioRun) -> PbftView {
    let view = run.world().view();
    let coordination = view.coordination.expect("a PBFT world");
    coordination.pbft().cloned().expect("a PBFT view")
}

/// Results client A took by `at_ms`.
fn results_at(run: &mut ScenarioRun, at_ms: u64) -> u64 {
    run.advance_to(SimTime::from_ms(at_ms));
    pbft(run).clients[0].accepted
}

#[test]
fn a_crashed_primary_and_a_lying_backup_are_two_faults_and_nothing_commits() {
    let mut run = normal_with(true, &lie(2_000, 3), 20_000);
    let at_crash = results_at(&mut run, 1_500);
    let stalled = results_at(&mut run, 2_500);
    assert!(stalled >= at_crash, "{stalled} {at_crash}");
    // Many view timeouts later (each view change waits at most four times 500 ms), still nothing.
    let much_later = results_at(&mut run, 20_000);
    assert_eq!(much_later, stalled, "no result with two faulty of four");
    let view = pbft(&run);
    assert_eq!(view.faulty, vec![NodeId(0), NodeId(2)]);
    assert!(view.beyond_tolerance() && view.faults_tolerated == 1);
    assert!(
        view.clients[0].waiting_on.is_some(),
        "{:?}",
        view.clients[0]
    );
    // Nothing unsafe happened, only nothing at all.
    let report = run.report();
    assert!(
        report.world.violations.is_empty(),
        "{:?}",
        report.world.violations
    );
}

#[test]
fn each_fault_alone_is_within_f_and_requests_go_on() {
    // The crash alone (the example as shipped): a view change and on.
    let mut crash_only = normal_with(true, "", 8_000);
    let early = results_at(&mut crash_only, 2_500);
    assert!(results_at(&mut crash_only, 8_000) > early + 3);
    assert!(!pbft(&crash_only).beyond_tolerance());
    assert_eq!(pbft(&crash_only).faulty, vec![NodeId(0)]);
    // The lie alone: three honest replicas make the quorum.
    let mut lie_only = normal_with(false, &lie(2_000, 3), 8_000);
    let early = results_at(&mut lie_only, 2_500);
    assert!(results_at(&mut lie_only, 8_000) > early + 3);
    assert_eq!(pbft(&lie_only).faulty, vec![NodeId(2)]);
    assert!(!pbft(&lie_only).beyond_tolerance());
}

#[test]
fn ending_either_fault_brings_the_replicas_back_within_f_and_requests_flow() {
    let restart_n1 = format!("{}{}", lie(2_000, 3), step(6_000, "do = \"restart\"", 1));
    let mut restarted = normal_with(true, &restart_n1, 16_000);
    let stalled = results_at(&mut restarted, 5_900);
    assert!(pbft(&restarted).beyond_tolerance());
    assert!(
        results_at(&mut restarted, 16_000) > stalled,
        "a restart ends the stall"
    );
    assert!(!pbft(&restarted).beyond_tolerance());

    let honest_again = format!(
        "{}{}",
        lie(2_000, 3),
        step(6_000, "do = \"byzantine\"\nmode = \"honest\"", 3)
    );
    let mut cured = normal_with(true, &honest_again, 16_000);
    let stalled = results_at(&mut cured, 5_900);
    assert!(
        results_at(&mut cured, 16_000) > stalled,
        "an honest n3 ends it too"
    );
    assert!(cured.report().world.violations.is_empty());
}

#[test]
fn a_crashed_liar_lies_to_no_one_while_down_and_lies_again_once_restarted() {
    let steps = format!(
        "{}{}{}",
        lie(500, 3),
        step(1_000, "do = \"crash\"", 3),
        step(2_000, "do = \"restart\"", 3)
    );
    let mut run = normal_with(false, &steps, 3_000);
    run.advance_to(SimTime::from_ms(700));
    let node = run.world().view().nodes[2].clone();
    assert_eq!(node.lying_now(), Some(ByzantineMode::Lie));
    assert_eq!(node.lies_after_restart(), None);

    run.advance_to(SimTime::from_ms(1_500));
    let node = run.world().view().nodes[2].clone();
    assert_eq!(node.status, NodeStatus::Crashed);
    assert_eq!(node.lying, Some(ByzantineMode::Lie), "the mode is kept");
    assert_eq!(node.lying_now(), None, "down, it sends nothing to lie with");
    assert_eq!(node.lies_after_restart(), Some(ByzantineMode::Lie));
    let replica = pbft(&run).replicas[2].clone();
    assert_eq!(replica.status, NodeStatus::Crashed);
    // A crashed replica is one faulty replica, liar or not.
    assert_eq!(pbft(&run).faulty, vec![NodeId(2)]);

    // Restarted, the engine runs it as the liar it was: its votes name a digest its own slot does
    // not hold, where an honest replica's votes name the one it holds.
    let (mut liar_votes, mut honest_votes) = ((0, 0), (0, 0));
    for ms in 2_001..3_000 {
        run.advance_to(SimTime::from_ms(ms));
        let view = run.world().view();
        assert_eq!(view.nodes[2].lying_now(), Some(ByzantineMode::Lie));
        let tally = |votes: (u64, u64), node: NodeId| {
            let (matching, differing) = vote_digests(&run, node);
            (votes.0 + matching, votes.1 + differing)
        };
        liar_votes = tally(liar_votes, NodeId(2));
        honest_votes = tally(honest_votes, NodeId(1));
    }
    assert!(
        liar_votes.1 > 0 && liar_votes.0 == 0,
        "n3's votes: {liar_votes:?}"
    );
    assert!(
        honest_votes.0 > 0 && honest_votes.1 == 0,
        "n2's votes: {honest_votes:?}"
    );
}

/// Of `node`'s prepares and commits in flight: how many name the digest its own slot holds, and how
/// many another. A vote reads `view V, #S: digest D`.
fn vote_digests(run: &ScenarioRun, node: NodeId) -> (u64, u64) {
    let view = run.world().view();
    let replica = &pbft(run).replicas[node.index()];
    let (mut matching, mut differing) = (0, 0);
    let votes = view.messages.iter().filter(|message| {
        message.from == node && (message.kind == "Prepare" || message.kind == "Commit")
    });
    for content in votes.filter_map(|message| message.content.as_deref()) {
        let Some((head, digest)) = content.split_once(": digest ") else {
            continue;
        };
        let Some(sequence) = head
            .split('#')
            .nth(1)
            .and_then(|text| text.parse::<u64>().ok())
        else {
            continue;
        };
        let held = replica.slots.iter().find(|slot| slot.sequence == sequence);
        match held.and_then(|slot| slot.digest).map(digest_text) {
            Some(held) if held == digest => matching += 1,
            Some(_) => differing += 1,
            None => {}
        }
    }
    (matching, differing)
}
