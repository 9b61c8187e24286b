//! Codes made as the page makes them (a lesson followed on a timeline, by hand or by "show me"),
//! written, read and checked; and codes altered to claim what their runs did not do.

use super::*;
use crate::base::ids::NodeId;
use crate::base::time::SimTime;
use crate::contract::action::{Action, NodeTarget};
use crate::engine::history::Timeline;
use crate::engine::world::World;
use crate::tooling::lesson::{parse_lessons, Lesson, LessonDriver};
use crate::tooling::runner::{world_config, ScenarioRun};

fn lesson(id: &str) -> Lesson {
    parse_lessons()
        .unwrap()
        .into_iter()
        .find(|lesson| lesson.id == id)
        .unwrap()
}

/// A lesson's first world on a timeline, as the page opens it, with its driver at step 0.
fn page_run(lesson: &Lesson, seed: u64) -> (ScenarioRun<Timeline>, LessonDriver, SimTime) {
    let mut scenario = lesson.scenario.clone();
    scenario.seed = seed;
    let world = World::new(world_config(&scenario)).unwrap();
    let mut run = ScenarioRun::on(scenario, Timeline::new(world, 250, 64));
    run.advance_to(SimTime::from_ms(lesson.start_ms));
    let driver = LessonDriver::start(lesson.clone(), run.world());
    let began = run.world().now();
    (run, driver, began)
}

fn code_of(
    lesson: &Lesson,
    run: &ScenarioRun<Timeline>,
    driver: &LessonDriver,
    seed: u64,
    began: SimTime,
    show_me: bool,
) -> CompletionCode {
    let steps = (0..lesson.steps.len())
        .map(|step| StepRecord {
            show_me: show_me && driver.done(step).is_some(),
            claimed_met: driver.done(step).is_some(),
            ticked_us: None,
        })
        .collect();
    let record = LessonRunRecord::new(0, seed, began, run.world().now(), run.run().actions());
    CompletionCode::new(lesson, steps, vec![record])
}

/// The leader at `run`'s now, crashed by a click on it (a concrete node, as the page records it),
/// then watched until the first step ticks.
fn crash_leader_by_hand(lesson: &Lesson, seed: u64) -> (CompletionCode, NodeId) {
    let (mut run, mut driver, began) = page_run(lesson, seed);
    run.advance_past_end_to(began.plus_ms(230));
    let leader = run.world().current_leader().unwrap();
    run.run_mut().apply(&Action::Crash {
        target: NodeTarget::Node(leader),
    });
    driver.observe(run.world());
    let deadline = run.world().now().plus_ms(5_000);
    assert!(driver.watch(&mut run, deadline).satisfied);
    let mut code = code_of(lesson, &run, &driver, seed, began, false);
    // As the page records it: when the step ticked (the next one began then).
    code.steps[0].ticked_us = Some(driver.step_began().as_micros());
    (code, leader)
}

fn checked(code: &CompletionCode) -> CodeReport {
    let text = encode(code);
    check_one(1, &text, &parse_lessons().unwrap())
}

#[test]
fn a_code_round_trips_and_every_shown_step_is_met_with_show_me() {
    // One run for the whole lesson: a lesson none of whose steps has a world of its own.
    let lesson = lesson("zookeeper-election");
    assert!(lesson.steps.iter().all(|step| step.own_world.is_none()));
    let seed = lesson.scenario.seed;
    let (mut run, mut driver, began) = page_run(&lesson, seed);
    for _ in 0..lesson.steps.len() {
        assert!(driver.play_solution(&mut run).satisfied);
    }
    let code = code_of(&lesson, &run, &driver, seed, began, true);
    let text = encode(&code);
    assert!(text.starts_with(CODE_PREFIX));
    assert!(!text.contains(char::is_whitespace));
    assert_eq!(decode(&format!("  {text}\n")).unwrap(), code);
    let report = checked(&code);
    assert_eq!(report.error, None);
    assert_eq!(
        (report.met, report.total, report.mismatches),
        (lesson.steps.len(), lesson.steps.len(), 0)
    );
    assert!(report
        .steps
        .iter()
        .all(|step| step.status == StepStatus::Met && step.how == Some(HowMet::ShowMe)));
}

#[test]
fn a_step_done_by_hand_is_met_by_hand_and_the_rest_not_met() {
    let lesson = lesson("leader-election");
    let (code, _) = crash_leader_by_hand(&lesson, lesson.scenario.seed);
    let report = checked(&code);
    assert_eq!(
        report.steps[0].status,
        StepStatus::Met,
        "{:?}",
        report.steps[0]
    );
    assert_eq!(report.steps[0].how, Some(HowMet::ByHand));
    assert_eq!(report.steps[1].status, StepStatus::NotMet);
    assert_eq!((report.met, report.mismatches), (1, 0));
}

#[test]
fn a_claim_its_actions_do_not_meet_is_flagged() {
    let lesson = lesson("leader-election");
    let (mut code, _) = crash_leader_by_hand(&lesson, lesson.scenario.seed);
    // Altered to claim every step; the recorded run met only the first.
    for step in &mut code.steps {
        step.claimed_met = true;
    }
    let report = checked(&code);
    assert_eq!(report.met, 1);
    assert_eq!(report.mismatches, lesson.steps.len() - 1);
    assert_eq!(report.steps[1].status, StepStatus::NotMet);
    assert_eq!(report.steps[1].mismatch.as_deref(), Some(CLAIM_NOT_MET));
    // A code with no actions at all meets nothing it claims, even marked "show me" throughout: the
    // mark only sets when the replay judges, never adds the script's actions.
    code.runs[0].actions.clear();
    for step in &mut code.steps {
        step.show_me = true;
    }
    let report = checked(&code);
    assert_eq!((report.met, report.mismatches), (0, lesson.steps.len()));
}

#[test]
fn a_tampered_seed_is_flagged() {
    let lesson = lesson("leader-election");
    let seed = lesson.scenario.seed;
    let (mut code, leader) = crash_leader_by_hand(&lesson, seed);
    // A seed under which another node leads when the click came: crashing `leader` then crashes a
    // follower, and the leader is never replaced.
    let other = (seed + 1..seed + 200)
        .find(|&other| {
            let (mut run, _, began) = page_run(&lesson, other);
            run.advance_past_end_to(began.plus_ms(230));
            run.world()
                .current_leader()
                .is_some_and(|found| found != leader)
        })
        .expect("some seed elects another leader");
    code.runs[0].seed = other;
    let report = checked(&code);
    assert_eq!(
        report.steps[0].status,
        StepStatus::NotMet,
        "{:?}",
        report.steps[0]
    );
    assert_eq!(report.steps[0].mismatch.as_deref(), Some(CLAIM_NOT_MET));
}

#[test]
fn another_lesson_version_or_engine_is_named_not_judged() {
    let lesson = lesson("leader-election");
    let (code, _) = crash_leader_by_hand(&lesson, lesson.scenario.seed);
    let mut changed = code.clone();
    changed.lesson_hash ^= 1;
    let report = checked(&changed);
    assert!(report
        .error
        .unwrap()
        .contains("another version of the lesson"));
    assert!(!report.malformed);
    let mut engine = code.clone();
    engine.behaviour_version += 1;
    assert!(checked(&engine).error.unwrap().contains("engine version"));
    let mut unknown = code;
    unknown.lesson_id = "no-such-lesson".to_string();
    assert!(checked(&unknown).error.unwrap().contains("no-such-lesson"));
}

#[test]
fn malformed_codes_get_a_specific_error() {
    let lesson = lesson("leader-election");
    let (code, _) = crash_leader_by_hand(&lesson, lesson.scenario.seed);
    let text = encode(&code);
    assert_eq!(decode(""), Err(CodeError::Empty));
    assert_eq!(decode("hello"), Err(CodeError::NotACode));
    assert!(matches!(
        decode("QLC9.abc"),
        Err(CodeError::UnknownVersion { .. })
    ));
    // What is quoted of the input is escaped: no control character reaches the page or the terminal.
    let quoted = decode("QLC\u{11}x.abc").unwrap_err().to_string();
    assert!(!quoted.chars().any(char::is_control), "{quoted:?}");
    assert!(!check_one(1, "\u{7}QLC1.x", &[])
        .starts
        .chars()
        .any(char::is_control));
    assert_eq!(
        decode(&format!("{text}!")),
        Err(CodeError::BadCharacter {
            position: text.len() + 1
        })
    );
    assert_eq!(decode(&text[..text.len() - 3]), Err(CodeError::Damaged));
    let long = format!("{CODE_PREFIX}{}", "A".repeat(MAX_CODE_CHARS));
    assert!(matches!(decode(&long), Err(CodeError::TooLong { .. })));
    // A body that passes its checksum but holds too many runs.
    let mut crowded = code.clone();
    crowded.runs = (0..=MAX_RUNS as u16)
        .map(|first| LessonRunRecord {
            first_step: first,
            ..code.runs[0].clone()
        })
        .collect();
    assert!(matches!(
        decode(&encode(&crowded)),
        Err(CodeError::TooMany { what: "runs", .. })
    ));
    let mut late = code.clone();
    late.runs[0].played_to_us = MAX_RUN_US + 1;
    assert!(matches!(
        decode(&encode(&late)),
        Err(CodeError::Invalid { .. })
    ));
    // One bad code among good ones spoils only itself.
    let pasted = format!("{text}\nnot-a-code\n{text}");
    let verification = verify_text(&pasted, &parse_lessons().unwrap());
    let malformed: Vec<bool> = verification
        .codes
        .iter()
        .map(|code| code.malformed)
        .collect();
    assert_eq!(malformed, vec![false, true, false]);
    assert_eq!(verification.codes[2].met, 1);
}

#[test]
fn too_many_codes_are_counted_not_read() {
    let pasted = "x ".repeat(MAX_CODES_PER_CHECK + 3);
    let (codes, over) = split_codes(&pasted);
    assert_eq!((codes.len(), over), (MAX_CODES_PER_CHECK, 3));
}

#[test]
fn a_replay_past_its_event_budget_says_so() {
    let lesson = lesson("leader-election");
    let (mut code, _) = crash_leader_by_hand(&lesson, lesson.scenario.seed);
    // Played on for most of an hour with nothing ticking: far more events than a code may cost.
    code.runs[0].actions.truncate(0);
    code.runs[0].played_to_us = MAX_RUN_US;
    let report = checked(&code);
    assert_eq!(report.steps[0].status, StepStatus::NotChecked);
    assert!(
        report.steps[0].detail.contains("bound"),
        "{}",
        report.steps[0].detail
    );
    // Nor may the stretch before the lesson began watching run unbounded.
    code.runs[0].began_us = MAX_RUN_US;
    let report = checked(&code);
    assert_eq!(report.steps[0].status, StepStatus::NotChecked);
    assert!(report.steps[0].detail.contains("bound"));
}

/// Every lesson shown step by step as the page plays it (a fresh run where a step has a world of its
/// own), coded and checked: every step met with "show me", across all of the lesson's runs.
#[test]
fn every_lesson_shown_is_met_on_every_run() {
    for lesson in parse_lessons().unwrap() {
        let mut runs = Vec::new();
        let (mut run, mut driver, mut began) = page_run(&lesson, lesson.scenario.seed);
        let mut first = 0;
        for step in 0..lesson.steps.len() {
            if step > 0 && lesson.steps[step].own_world.is_some() {
                let seed = run.scenario().seed;
                runs.push(LessonRunRecord::new(
                    first,
                    seed,
                    began,
                    run.world().now(),
                    run.run().actions(),
                ));
                let scenario = lesson.world_of_step(step).1.clone();
                let world = World::new(world_config(&scenario)).unwrap();
                run = ScenarioRun::on(scenario, Timeline::new(world, 250, 64));
                run.advance_to(SimTime::from_ms(lesson.start_ms));
                driver = LessonDriver::at_step(lesson.clone(), step, run.world());
                began = run.world().now();
                first = step;
            }
            assert!(
                driver.play_solution(&mut run).satisfied,
                "{} step {}",
                lesson.id,
                step + 1
            );
        }
        let seed = run.scenario().seed;
        runs.push(LessonRunRecord::new(
            first,
            seed,
            began,
            run.world().now(),
            run.run().actions(),
        ));
        let steps = vec![
            StepRecord {
                show_me: true,
                claimed_met: true,
                ticked_us: None,
            };
            lesson.steps.len()
        ];
        let report = checked(&CompletionCode::new(&lesson, steps, runs));
        assert_eq!(
            report.met,
            lesson.steps.len(),
            "{}: {:?}",
            lesson.id,
            report.steps
        );
        assert_eq!(report.mismatches, 0, "{}", lesson.id);
    }
}

/// Lesson 11's remedy step done the way it asks: the remedy changed in the run settings, a fresh run
/// started, and played. The code carries the settings, and the step is met on them, said so.
#[test]
fn a_step_met_on_changed_settings_carries_and_names_them() {
    let election = lesson("leader-election");
    let lesson = lesson("paxos");
    let last = lesson
        .steps
        .iter()
        .position(|step| {
            step.own_world
                .as_ref()
                .is_some_and(|world| world.path.ends_with("paxos-duel-remedy.toml"))
        })
        .expect("the remedy step");
    let own = lesson.world_of_step(last).1;
    let changed = crate::tooling::scenario::to_toml_string(own)
        .replace("remedy = \"none\"", "remedy = \"leader\"");
    assert_ne!(changed, crate::tooling::scenario::to_toml_string(own));
    let scenario = crate::tooling::scenario::parse_scenario(&changed, "settings").unwrap();
    let world = World::new(world_config(&scenario)).unwrap();
    let mut run = ScenarioRun::on(scenario.clone(), Timeline::new(world, 250, 64));
    let began = run.world().now();
    let mut driver = LessonDriver::at_step(lesson.clone(), last, run.world());
    assert!(driver.watch(&mut run, began.plus_ms(20_000)).satisfied);
    let mut steps = vec![StepRecord::default(); lesson.steps.len()];
    steps[last].claimed_met = true;
    let mut record = LessonRunRecord::new(
        last,
        scenario.seed,
        began,
        run.world().now(),
        run.run().actions(),
    );
    record.settings_toml = Some(changed);
    let code = CompletionCode::new(&lesson, steps, vec![record]);
    let report = checked(&code);
    let step = &report.steps[last];
    assert_eq!(
        (step.status, step.how, step.changed_settings),
        (StepStatus::Met, Some(HowMet::ByHand), true)
    );
    assert_eq!(report.steps[0].status, StepStatus::NotPlayed);
    // The same run claimed on the lesson's own settings (none given) is not met: the duel goes on.
    let mut unchanged = code.clone();
    unchanged.runs[0].settings_toml = None;
    let report = checked(&unchanged);
    assert_eq!(report.steps[last].status, StepStatus::NotMet);
    assert!(report.steps[last].mismatch.is_some());
    // Settings of another world are refused, named.
    let mut other = code;
    other.runs[0].settings_toml =
        Some(crate::tooling::scenario::to_toml_string(&election.scenario));
    let step = &checked(&other).steps[last];
    assert_eq!(step.status, StepStatus::NotChecked);
    assert!(step.detail.contains("another world"), "{}", step.detail);
}
