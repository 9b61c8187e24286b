//! Node-symmetry reduction in the bounded search (`explore/symmetry.rs`): a plain Raft cluster's
//! mirror-image states share one canonical digest and states that are not mirror images do not;
//! with the reduction a search finds the same shortest counterexample, or nothing, in fewer
//! states; and where it would not be sound the search runs without it and says why.
//!
//! The worlds here fix the election timeout and the network delay (a range of one value), so the
//! random draws cannot tell servers apart and a fault on n2 and the same fault on n3 give exact
//! mirror images, which a world with random timeouts almost never has.

use quorumlab_sim::base::permutation::Permutation;
use quorumlab_sim::explore::search::merged;
use quorumlab_sim::explore::symmetry::{verdict, Reducer};
use quorumlab_sim::explore::{explore, Bound, ExploreReport, ExploreRequest, Outcome};
use quorumlab_sim::runner::{run_scenario, ScenarioRun};
use quorumlab_sim::scenario::{parse_scenario, Scenario};
use quorumlab_sim::time::SimTime;
use quorumlab_sim::World;

/// Three servers with fixed timing, no step.
const FIXED: &str = include_str!("fixtures/symmetry-fixed-timing.toml");

/// `FIXED` where n2 and n3 crash at 0 ms and restart at 100 ms (`fast` first), so n1 wins the first
/// election at 170 ms; n1's link to `fast` takes 5 ms, not 10, so `fast`'s answers arrive first
/// (with equal delays they would tie, and a tie goes by node number: n1 counts n2's vote and not
/// n3's, and no script makes the mirror image of that). Three requests at 600 ms fill the logs.
fn leads(fast: &str, slow: &str) -> String {
    let step = |at_ms: u64, what: &str, node: &str| {
        format!("[[step]]\nat_ms = {at_ms}\ndo = \"{what}\"\ntarget = \"{node}\"\n")
    };
    let link = format!(
        "[[step]]\nat_ms = 0\ndo = \"link\"\nbetween = [\"n1\", \"{fast}\"]\ndelay_ms = [5, 5]\n"
    );
    let steps = [
        link,
        step(0, "crash", fast),
        step(0, "crash", slow),
        step(100, "restart", fast),
        step(100, "restart", slow),
    ];
    let requests = "[[step]]\nat_ms = 600\ndo = \"request\"\ncount = 3\n";
    format!("{FIXED}\n{}{requests}", steps.join("\n"))
}

fn scenario(text: &str) -> Scenario {
    parse_scenario(text, "symmetry.toml").unwrap()
}

/// `FIXED` where n2 and n3 crash at 0 ms and restart at 100 ms, so n1 leads from 170 ms, and three
/// requests at 600 ms, with `extra` steps (TOML) appended. n2 and n3 are alike but for which vote
/// n1 counted (n2's: their answers tie, and a tie goes by node number).
fn leads_with(extra: &str) -> Scenario {
    let steps = ["crash", "crash", "restart", "restart"]
        .iter()
        .zip([(0, "n2"), (0, "n3"), (100, "n2"), (100, "n3")])
        .map(|(what, (at_ms, node))| {
            format!("[[step]]\nat_ms = {at_ms}\ndo = \"{what}\"\ntarget = \"{node}\"\n")
        })
        .collect::<Vec<_>>()
        .join("\n");
    let requests = "[[step]]\nat_ms = 600\ndo = \"request\"\ncount = 3\n";
    scenario(&format!("{FIXED}\n{steps}\n{requests}\n{extra}"))
}

fn world_at(scenario: &Scenario, at_ms: u64) -> World {
    let mut run = ScenarioRun::new(scenario.clone()).unwrap();
    run.advance_to(SimTime::from_ms(at_ms));
    run.world().clone()
}

/// `leads(other, node)`, then `node` paused for 400 ms at 1000 ms (two requests at 1200 ms leave
/// it behind) and crashed at 1800 ms: the
/// same script as `faults_on(other, node)` with the two names swapped.
fn faults_on(node: &str, other: &str) -> Scenario {
    scenario(&format!(
        "{}\n\
         [[step]]\nat_ms = 1000\ndo = \"pause\"\ntarget = \"{node}\"\nduration_ms = 400\n\n\
         [[step]]\nat_ms = 1200\ndo = \"request\"\ncount = 2\n\n\
         [[step]]\nat_ms = 1800\ndo = \"crash\"\ntarget = \"{node}\"\n",
        leads(other, node)
    ))
}

#[test]
fn mirrored_faults_give_mirror_images_with_one_canonical_digest() {
    let (on_n2, on_n3) = (faults_on("n2", "n3"), faults_on("n3", "n2"));
    let swap_n2_n3 = Permutation::from_images(vec![0, 2, 1]).unwrap();
    let swap_n1_n2 = Permutation::from_images(vec![1, 0, 2]).unwrap();
    let identity = Permutation::identity(3);
    let reducer = Reducer::over(3);
    for at_ms in [1_000, 1_005, 1_210, 1_300, 1_450, 1_800, 2_300, 3_000] {
        let (first, second) = (world_at(&on_n2, at_ms), world_at(&on_n3, at_ms));
        assert_ne!(
            first.state_digest(),
            second.state_digest(),
            "at {at_ms} ms the plain digests tell n2's fault from n3's"
        );
        assert_eq!(
            first.digest_under(&swap_n2_n3),
            second.digest_under(&identity),
            "at {at_ms} ms renaming n2 and n3 gives the other world"
        );
        assert_ne!(
            first.digest_under(&swap_n1_n2),
            second.digest_under(&identity),
            "at {at_ms} ms renaming n1 and n2 does not"
        );
        assert_eq!(reducer.canonical(&first), reducer.canonical(&second));
    }
}

#[test]
fn states_that_are_not_mirror_images_keep_different_canonical_digests() {
    let reducer = Reducer::over(3);
    let early = faults_on("n2", "n3");
    let later =
        leads_with("[[step]]\nat_ms = 1050\ndo = \"pause\"\ntarget = \"n3\"\nduration_ms = 400\n");
    let crashed = leads_with("[[step]]\nat_ms = 1000\ndo = \"crash\"\ntarget = \"n3\"\n");
    let at_ms = 1_300;
    let digests = [&early, &later, &crashed, &leads_with("")]
        .map(|scenario| reducer.canonical(&world_at(scenario, at_ms)));
    for (index, digest) in digests.iter().enumerate() {
        assert!(
            !digests[index + 1..].contains(digest),
            "world {index} at {at_ms} ms shares a canonical digest: {digests:?}"
        );
    }
    // Two terms: a leader elected again after n1 is paused past the election timeout.
    let paused_leader =
        leads_with("[[step]]\nat_ms = 1000\ndo = \"pause\"\ntarget = \"n1\"\nduration_ms = 500\n");
    let term_two = world_at(&paused_leader, 1_400);
    let term_one = world_at(&leads_with(""), 1_400);
    assert_ne!(reducer.canonical(&term_two), reducer.canonical(&term_one));
}

/// With and without the reduction, printed side by side.
fn both(scenario: &Scenario, request: ExploreRequest) -> (ExploreReport, ExploreReport) {
    let plain = explore(scenario, &request).unwrap();
    let reduced_request = ExploreRequest {
        symmetry: true,
        ..request
    };
    let reduced = explore(scenario, &reduced_request).unwrap();
    println!(
        "states without symmetry: {}, with: {} ({})",
        plain.states, reduced.states, reduced.summary
    );
    assert!(reduced
        .summary
        .contains("node symmetry reduced over 3 servers"));
    assert!(reduced.covers.contains("mirror images of a state merged"));
    (plain, reduced)
}

#[test]
fn a_counterexample_is_still_found_as_short_and_in_fewer_states() {
    // An equivocating n1 paused past the others' timeouts grants both of them its vote in one term.
    let request = ExploreRequest {
        max_depth: 2,
        max_faults: 1,
        max_byzantine: 1,
        byzantine_modes: vec![quorumlab_sim::action::ByzantineMode::Equivocate],
        pause_ms: vec![250],
        isolate: false,
        max_states: 1_000_000,
        from_ms: 300,
        ..ExploreRequest::default()
    };
    let scenario = leads_with("");
    let (plain, reduced) = both(&scenario, request);
    let (
        Outcome::Found { schedule: one, .. },
        Outcome::Found {
            schedule: other, ..
        },
    ) = (&plain.outcome, &reduced.outcome)
    else {
        panic!("both must find it: {} / {}", plain.summary, reduced.summary);
    };
    assert_eq!((one.len(), other.len()), (2, 2));
    assert!(reduced.states < plain.states);
    let replay = run_scenario(&merged(&scenario, other)).unwrap();
    assert!(
        replay.world.violation_counts.get("Election Safety") > Some(&0),
        "the reduced search's schedule replays to the violation"
    );
}

#[test]
fn no_counterexample_stays_none_in_fewer_states() {
    let request = ExploreRequest {
        max_depth: 2,
        max_faults: 2,
        pause_ms: Vec::new(),
        isolate: false,
        max_states: 1_000_000,
        horizon_ms: Some(2_000),
        ..ExploreRequest::default()
    };
    let symmetric_start = scenario(FIXED);
    let (plain, reduced) = both(&symmetric_start, request);
    let within = Outcome::BoundReached {
        bound: Bound::Depth,
        complete_depth: Some(2),
    };
    assert_eq!((&plain.outcome, &reduced.outcome), (&within, &within));
    assert!(reduced.states * 2 < plain.states, "at least half saved");
}

fn refusal(scenario: &Scenario, request: ExploreRequest) -> String {
    let request = ExploreRequest {
        symmetry: true,
        ..request
    };
    let said = verdict(scenario, &request).expect("asked for");
    assert!(!said.applied);
    let plain = explore(
        scenario,
        &ExploreRequest {
            symmetry: false,
            max_states: 2_000,
            ..request.clone()
        },
    )
    .unwrap();
    let refused = explore(
        scenario,
        &ExploreRequest {
            max_states: 2_000,
            ..request
        },
    )
    .unwrap();
    assert_eq!(
        refused.states, plain.states,
        "refused means searched as before"
    );
    let why = said.why.expect("a reason");
    let said_so = format!("node symmetry not reduced: {why}");
    assert!(refused.summary.contains(&said_so), "{}", refused.summary);
    why
}

#[test]
fn where_it_would_not_be_sound_it_is_refused_with_the_reason() {
    let shipped = |file: &str| {
        let path = format!("{}/scenarios/{file}", env!("CARGO_MANIFEST_DIR"));
        scenario(&std::fs::read_to_string(path).unwrap())
    };
    let any = ExploreRequest {
        from_ms: 300,
        ..ExploreRequest::default()
    };
    let why = refusal(&shipped("fencing-pause.toml"), any.clone());
    assert!(why.contains("plain Raft"), "{why}");
    let names_a_node = leads_with("[[step]]\nat_ms = 900\ndo = \"crash\"\ntarget = \"n2\"\n");
    let why = refusal(&names_a_node, any.clone());
    assert!(why.contains("900 ms names n2"), "{why}");
    let one_invariant = ExploreRequest {
        invariant: Some("State Machine Safety".to_string()),
        ..any.clone()
    };
    let why = refusal(&leads_with(""), one_invariant);
    assert!(why.contains("aims at the leader"), "{why}");
    let example = ExploreRequest {
        example: Some("leader_changed".to_string()),
        ..any.clone()
    };
    let why = refusal(&leads_with(""), example);
    assert!(why.contains("example"), "{why}");
    let selective = ExploreRequest {
        max_byzantine: 1,
        ..any.clone()
    };
    let why = refusal(&leads_with(""), selective);
    assert!(why.contains("selective"), "{why}");
    let six = scenario("title = \"t\"\nprotocol = \"raft\"\nnodes = 6\nduration_ms = 1000\n");
    let why = refusal(&six, any.clone());
    assert!(why.contains("6 servers"), "{why}");
    let why = refusal(&shipped("raft-add-server.toml"), any.clone());
    assert!(why.contains("membership"), "{why}");
    assert_eq!(
        verdict(&leads_with(""), &any),
        None,
        "not asked, nothing said"
    );
}

#[test]
fn off_by_default_the_request_and_report_read_as_before() {
    let request = ExploreRequest::default();
    assert!(!request.symmetry);
    let json = serde_json::to_string(&request).unwrap();
    assert!(!json.contains("symmetry"), "{json}");
    let report = explore(
        &leads_with(""),
        &ExploreRequest {
            max_states: 500,
            ..request
        },
    )
    .unwrap();
    assert!(!report.summary.contains("symmetry"), "{}", report.summary);
    assert!(report.covers.contains("other seeds, node symmetry;"));
}
