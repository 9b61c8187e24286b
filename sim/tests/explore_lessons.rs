//! The lessons' "can it break?" steps ask the search about their own worlds with a stated budget and
//! say what it answers. These searches are the ones the steps describe: the page's worker runs the
//! same code, so a step's words stay true only while these pass.

use quorumlab_sim::explore::search::merged;
use quorumlab_sim::explore::{explore, Bound, ExploreReport, ExploreRequest, Outcome};
use quorumlab_sim::lesson::parse_lessons;
use quorumlab_sim::lesson_search::{answer_of, request_of};
use quorumlab_sim::runner::run_scenario;
use quorumlab_sim::scenario::{parse_scenario, Scenario};

/// A lesson world as the page searches it "from the start": its scripted steps left out.
fn lesson_world(file: &str) -> Scenario {
    let path = format!("{}/../lessons/scenarios/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap();
    let mut scenario = parse_scenario(&text, file).unwrap();
    scenario.steps.clear();
    scenario
}

/// The page's request for a budget (its other settings are the engine's defaults, as in the page).
fn page_request(
    invariant: Option<&str>,
    depth: u32,
    faults: u32,
    look_ahead_s: u64,
) -> ExploreRequest {
    ExploreRequest {
        invariant: invariant.map(str::to_string),
        max_depth: depth,
        max_faults: faults,
        max_states: 200_000,
        horizon_ms: Some(look_ahead_s * 1_000),
        ..ExploreRequest::default()
    }
}

fn found(report: &ExploreReport) -> (&str, usize, u32) {
    match &report.outcome {
        Outcome::Found {
            invariant,
            schedule,
            faults,
            ..
        } => (invariant, schedule.len(), *faults),
        other => panic!(
            "expected a counterexample, got {other:?}: {}",
            report.summary
        ),
    }
}

#[test]
fn lesson_5_the_redis_lock_loses_an_update_with_one_pause() {
    let world = lesson_world("redis-lock-calm.toml");
    let report = explore(&world, &page_request(Some("No Lost Updates"), 1, 1, 4)).unwrap();
    assert_eq!(found(&report), ("No Lost Updates", 1, 1));
    let schedule = report.outcome.schedule().unwrap();
    let replay = run_scenario(&merged(&world, schedule)).unwrap();
    assert!(replay
        .world
        .violation_counts
        .contains_key("No Lost Updates"));
}

#[test]
fn lesson_6_fencing_finds_no_lost_update_within_its_bound_but_finds_the_refusal() {
    let world = lesson_world("fencing-calm.toml");
    let report = explore(&world, &page_request(Some("No Lost Updates"), 1, 1, 4)).unwrap();
    assert!(
        matches!(
            report.outcome,
            Outcome::BoundReached {
                bound: Bound::Depth,
                ..
            }
        ),
        "{}",
        report.summary
    );
    let mut example = page_request(None, 1, 1, 4);
    example.example = Some("paused_holder_write_refused".to_string());
    let report = explore(&world, &example).unwrap();
    assert!(
        matches!(&report.outcome, Outcome::Example { schedule, faults: 1, .. } if schedule.len() == 1),
        "{}",
        report.summary
    );
}

#[test]
fn lesson_1_the_leased_scheduler_doubles_a_minute_or_misses_one_after_one_fault() {
    let world = lesson_world("scheduler-lease-calm.toml");
    let report = explore(&world, &page_request(Some("No Duplicate Invoice"), 1, 1, 5)).unwrap();
    assert_eq!(found(&report), ("No Duplicate Invoice", 1, 1));
    let mut example = page_request(None, 1, 1, 5);
    example.example = Some("missed_invoice".to_string());
    let report = explore(&world, &example).unwrap();
    assert!(
        matches!(&report.outcome, Outcome::Example { schedule, faults: 1, .. } if schedule.len() == 1),
        "{}",
        report.summary
    );
}

#[test]
fn lesson_13_the_hand_edited_switch_breaks_with_no_fault_once_two_servers_are_added() {
    let mut world = lesson_world("membership-direct.toml");
    // Without the operator's edits the search finds nothing: adding a server is not in its catalogue.
    let report = explore(&world, &page_request(None, 1, 1, 4)).unwrap();
    assert!(
        matches!(report.outcome, Outcome::BoundReached { .. }),
        "{}",
        report.summary
    );
    // From the moment two servers were added, nothing more is needed.
    let add = parse_scenario(
        "title = \"t\"\nprotocol = \"raft\"\nnodes = 3\nduration_ms = 5000\n[raft]\nmembership = \"direct\"\n\
         [[step]]\nat_ms = 1000\ndo = \"add-server\"\n[[step]]\nat_ms = 1000\ndo = \"add-server\"\n",
        "add.toml",
    )
    .unwrap();
    world.steps = add.steps;
    let report = explore(&world, &page_request(None, 1, 1, 5)).unwrap();
    let (_, steps, faults) = found(&report);
    assert_eq!((steps, faults), (0, 0), "{}", report.summary);
}

/// Lesson 11's last step: the forgetful acceptors' break, found with crashes and one-link cuts only,
/// within the step's 0.3 s and 400,000 states (about 276,000 are needed, a few seconds in a tab), and
/// played as an ordinary run it chooses two values.
#[test]
fn lesson_11_forgetful_acceptors_break_agreement_with_two_one_link_cuts() {
    use quorumlab_sim::action::Action;
    let lesson = parse_lessons()
        .unwrap()
        .into_iter()
        .find(|lesson| lesson.id == "paxos")
        .unwrap();
    let (index, search) = lesson
        .steps
        .iter()
        .enumerate()
        .find_map(|(index, step)| step.search.clone().map(|search| (index, search)))
        .expect("a can-it-break step");
    let mut world = lesson.world_of_step(index).1.clone();
    world.steps.clear();
    let request = request_of(&search);
    assert!(request.cut_links && request.pause_ms.is_empty() && !request.isolate);
    let report = explore(&world, &request).unwrap();
    assert_eq!(found(&report), ("Agreement", 4, 4));
    assert!(report.states <= search.states, "{}", report.summary);
    let schedule = report.outcome.schedule().unwrap();
    let cuts = schedule
        .iter()
        .filter(|step| matches!(step.action, Action::Cut { both: true, .. }))
        .count();
    assert_eq!(cuts, 2, "{schedule:?}");
    let replay = run_scenario(&merged(&world, schedule)).unwrap();
    assert!(replay.world.violation_counts.contains_key("Agreement"));
}

/// Every "can it break?" step's own search (`search = {...}` in its lesson), run as the page runs it
/// on the step's world from the start, gives an answer that completes the step: a step cannot promise
/// a tick the search never gives. Five lessons have one (issue 32).
#[test]
fn every_search_step_is_completed_by_the_answer_its_own_search_gives() {
    let mut asked = Vec::new();
    for lesson in parse_lessons().unwrap() {
        for (index, step) in lesson.steps.iter().enumerate() {
            let Some(search) = &step.search else {
                continue;
            };
            let mut world = lesson.world_of_step(index).1.clone();
            world.steps.clear();
            let report = explore(&world, &request_of(search)).unwrap();
            let answer = answer_of(&report.outcome);
            assert!(
                search.accepts(answer),
                "{} step {}: the search answered {} ({})",
                lesson.id,
                index + 1,
                answer.name(),
                report.summary
            );
            asked.push(format!("{} {}", lesson.id, answer.name()));
        }
    }
    asked.sort();
    assert_eq!(
        asked,
        [
            "distributed-locks found",
            "exactly-once found",
            "fencing-tokens none_within_bound",
            "membership none_within_bound",
            "paxos found",
        ]
    );
}
