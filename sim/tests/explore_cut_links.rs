//! Cutting the link of one pair of nodes as a search fault (`cut_links`). Paxos with acceptors that
//! forget breaks Agreement when one proposer cannot hear one acceptor and the other proposer another,
//! and an acceptor that accepted crashes and restarts: four steps, two of them one-link cuts. The
//! search must find that (and the schedule replays), must not find it without the cuts (isolating a
//! whole node is too much), and must not find anything when the acceptors keep their promises.

use quorumlab_sim::action::Action;
use quorumlab_sim::explore::goal::replay_goal;
use quorumlab_sim::explore::{explore, Bound, ExploreRequest, Outcome};
use quorumlab_sim::scenario::{parse_scenario, Scenario};

fn forgetful(durable: bool) -> Scenario {
    let file = "paxos-forgetful-acceptor.toml";
    let path = format!("{}/scenarios/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap();
    let text = text.replace(
        "durable_acceptors = false",
        &format!("durable_acceptors = {durable}"),
    );
    let mut scenario = parse_scenario(&text, file).unwrap();
    scenario.steps.clear();
    scenario
}

/// Crashes, restarts and one-link cuts only, four of them, in the first half second.
fn cuts_and_crashes(cut_links: bool) -> ExploreRequest {
    ExploreRequest {
        max_depth: 4,
        max_faults: 4,
        max_states: 2_000_000,
        pause_ms: vec![],
        isolate: false,
        cut_links,
        horizon_ms: Some(500),
        ..ExploreRequest::default()
    }
}

#[test]
fn forgetful_acceptors_break_agreement_with_two_one_link_cuts() {
    let scenario = forgetful(false);
    let request = cuts_and_crashes(true);
    let report = explore(&scenario, &request).unwrap();
    let Outcome::Found {
        invariant,
        seen_by_ms,
        schedule,
        faults,
    } = &report.outcome
    else {
        panic!("expected two values chosen: {}", report.summary);
    };
    assert_eq!((invariant.as_str(), *faults), ("Agreement", 4));
    let cuts = schedule
        .iter()
        .filter(|step| matches!(step.action, Action::Cut { both: true, .. }))
        .count();
    assert_eq!(cuts, 2, "{schedule:?}");
    let goal = request.goal(&scenario).unwrap();
    let replayed = replay_goal(&scenario, schedule, &goal, request.grain_ms, 500).unwrap();
    let (met, replay_ms) = replayed.expect("the schedule replays to two values chosen");
    assert_eq!((met.name.as_str(), replay_ms), ("Agreement", *seen_by_ms));
}

#[test]
fn without_one_link_cuts_or_with_durable_acceptors_nothing_is_found() {
    let without_cuts = explore(&forgetful(false), &cuts_and_crashes(false)).unwrap();
    let durable = explore(&forgetful(true), &cuts_and_crashes(true)).unwrap();
    for report in [without_cuts, durable] {
        assert_eq!(
            report.outcome,
            Outcome::BoundReached {
                bound: Bound::Depth,
                complete_depth: Some(4),
            },
            "{}",
            report.summary
        );
    }
}
