//! The lesson driver on a run that can travel back (a `Timeline`, as the app holds), and against the
//! headless `LessonRun`: a step ticks only once its checkpoint is met, "show me" performs its script
//! at its moments, moving back in time keeps ticks and drops the queue, and the page's frame-by-frame
//! drive and the headless play judge every lesson step at the same instant.

use quorumlab_sim::action::{Action, NodeTarget};
use quorumlab_sim::history::Timeline;
use quorumlab_sim::lesson::{
    parse_lesson, parse_lessons, Lesson, LessonDriver, LessonRun, LiveName, DONE_EARLIER,
};
use quorumlab_sim::runner::{world_config, ScenarioRun};
use quorumlab_sim::scenario::Scenario;
use quorumlab_sim::time::SimTime;
use quorumlab_sim::World;

/// A run as the app holds one: the scenario on a timeline, `start_ms` in.
fn timeline_run(scenario: &Scenario, start_ms: u64) -> ScenarioRun<Timeline> {
    let world = World::new(world_config(scenario)).unwrap();
    let mut run = ScenarioRun::on(scenario.clone(), Timeline::new(world, 250, 400));
    run.advance_past_end_to(SimTime::from_ms(start_ms));
    run
}

/// The run `step` of `lesson` is played on, fresh, `start_ms` in.
fn run_of_step(lesson: &Lesson, step: usize) -> ScenarioRun<Timeline> {
    timeline_run(lesson.world_of_step(step).1, lesson.start_ms)
}

fn course() -> Vec<Lesson> {
    parse_lessons().unwrap()
}

/// One step on the fencing world: pause worker A, then worker B. The checkpoint (A paused) is met
/// by the first action, yet a step being shown is judged only once its whole script is in.
fn pause_lesson() -> Lesson {
    let text = "+++\nid = \"pause\"\ntitle = \"Pause\"\norder = 1\noutcomes = [\"one\"]\n\
        scenario = \"lessons/scenarios/fencing-calm.toml\"\n\n[[step]]\ninstruction = \"Pause A.\"\n\
        checkpoint = \"node_paused(A)\"\nsolution = [{ after_ms = 20, do = \"pause\", target = \"A\" }, \
        { after_ms = 40, do = \"pause\", target = \"B\" }]\n+++\nBody.\n";
    parse_lesson(text, "pause.md").unwrap_or_else(|error| panic!("{error}"))
}

/// Drives in frames of `frame_us` until the open step ticks or `until`.
fn drive_in_frames(
    driver: &mut LessonDriver,
    run: &mut ScenarioRun<Timeline>,
    frame_us: u64,
    until: SimTime,
) {
    let step = driver.current_step();
    while run.world().now() < until && driver.current_step() == step {
        let target = run.world().now().plus_micros(frame_us).min(until);
        driver.drive(run, target, &mut |_, _| {});
    }
}

#[test]
fn a_step_ticks_only_once_its_checkpoint_is_met() {
    let lesson = pause_lesson();
    let mut run = run_of_step(&lesson, 0);
    let mut driver = LessonDriver::start(lesson.clone(), run.world());
    let began = driver.step_began();
    let (pause_a, pause_b) = (&lesson.steps[0].solution[0], &lesson.steps[0].solution[1]);
    // A look-alike: another node paused by hand is not the node the checkpoint names.
    run.run_mut().apply(&pause_b.action);
    drive_in_frames(&mut driver, &mut run, 1_600, began.plus_ms(200));
    assert_eq!(driver.current_step(), 0, "pausing B does not pause A");
    assert!(!driver.last_verdict().is_empty());
    run.run_mut().apply(&pause_a.action);
    let paused_at = run.world().now();
    drive_in_frames(&mut driver, &mut run, 1_600, paused_at.plus_ms(200));
    assert!(driver.is_complete());
    let ticked_at = driver.step_began();
    assert!(
        ticked_at >= paused_at && ticked_at <= paused_at.plus_ms(5),
        "the next check after the pause ticks it: paused {paused_at:?}, ticked {ticked_at:?}"
    );
    assert!(driver.done(0).is_some_and(|text| text != DONE_EARLIER));
}

#[test]
fn show_me_actions_land_at_their_moments_and_the_step_is_judged_after_the_last() {
    let lesson = pause_lesson();
    for frame_us in [1_600, 33_333] {
        let mut run = run_of_step(&lesson, 0);
        let mut driver = LessonDriver::start(lesson.clone(), run.world());
        let began = driver.step_began();
        assert_eq!(driver.show_me(run.world()), 2);
        let mut performed = Vec::new();
        while !driver.is_complete() && run.world().now() < began.plus_ms(1_000) {
            let target = run.world().now().plus_micros(frame_us);
            performed.extend(driver.drive(&mut run, target, &mut |_, _| {}).performed);
        }
        let moments: Vec<SimTime> = performed.iter().map(|(action, _)| action.at).collect();
        assert_eq!(
            moments,
            [began.plus_ms(20), began.plus_ms(40)],
            "{frame_us}"
        );
        let logged: Vec<SimTime> = run.run().actions().iter().map(|action| action.at).collect();
        assert_eq!(logged, moments, "the run's log holds them at those moments");
        assert_eq!(
            driver.step_began(),
            began.plus_ms(40),
            "judged (and met) the moment the last action was performed, not before"
        );
    }
}

#[test]
fn stops_fall_on_the_check_grid_and_at_due_actions() {
    let lesson = pause_lesson();
    let run = run_of_step(&lesson, 0);
    let mut driver = LessonDriver::start(lesson, run.world());
    let began = driver.step_began();
    assert_eq!(driver.next_stop(began), began.plus_ms(5));
    assert_eq!(
        driver.next_stop(began.plus_micros(7_100)),
        began.plus_ms(10)
    );
    driver.show_me(run.world());
    assert_eq!(driver.next_due(), Some(began.plus_ms(20)));
    assert_eq!(driver.next_stop(began.plus_ms(18)), began.plus_ms(20));
    assert_eq!(
        driver.next_stop(began.plus_ms(1_000)),
        began.plus_ms(1_000),
        "late actions are due at once"
    );
    // Performing the step's action moves the grid: checks now count from that moment.
    driver.take_due(began.plus_micros(20_300));
    assert_eq!(
        driver.next_stop(began.plus_micros(20_300)),
        began.plus_micros(25_300).min(began.plus_ms(40))
    );
}

#[test]
fn without_show_me_no_step_ticks() {
    for lesson in course() {
        let mut run = run_of_step(&lesson, 0);
        let mut driver = LessonDriver::start(lesson.clone(), run.world());
        let deadline = driver.step_began().plus_ms(lesson.steps[0].deadline_ms());
        drive_in_frames(&mut driver, &mut run, 1_600, deadline);
        assert_eq!(driver.steps_done(), 0, "{}", lesson.id);
        assert!(!driver.last_verdict().is_empty());
    }
}

#[test]
fn show_me_actions_wait_for_their_moment_and_late_ones_fire_at_once() {
    let lesson = course().into_iter().next().unwrap();
    let run = run_of_step(&lesson, 0);
    let mut driver = LessonDriver::start(lesson.clone(), run.world());
    let queued = driver.show_me(run.world());
    assert_eq!(queued, lesson.steps[0].solution.len());
    assert_eq!(
        driver.show_me(run.world()),
        0,
        "a second press queues nothing more"
    );
    let first_at = driver
        .step_began()
        .plus_ms(lesson.steps[0].solution[0].after_ms);
    if first_at > driver.step_began() {
        assert!(driver.take_due(driver.step_began()).is_empty());
    }
    let late = driver.take_due(SimTime::from_ms(lesson.start_ms + 1_000_000));
    assert_eq!(late.len(), queued);
    assert!(driver.pending().is_empty());
}

#[test]
fn moving_back_in_time_keeps_ticks_and_drops_queued_actions() {
    let lesson = course()
        .into_iter()
        .find(|lesson| lesson.steps.len() >= 2 && lesson.steps[1].own_world.is_none())
        .unwrap();
    let mut run = run_of_step(&lesson, 0);
    let mut driver = LessonDriver::start(lesson.clone(), run.world());
    assert!(driver.play_solution(&mut run).satisfied);
    let began = driver.step_began();
    driver.show_me(run.world());
    run.advance_past_end_to(began.plus_ms(1));
    driver.observe(run.world());
    run.run_mut().seek(SimTime::from_ms(lesson.start_ms));
    let observation = driver.observe(run.world());
    assert!(observation.rewound);
    assert!(driver.pending().is_empty());
    assert_eq!(driver.current_step(), 1, "the done step stays done");
    assert_eq!(driver.step_began(), SimTime::from_ms(lesson.start_ms));
}

#[test]
fn a_done_step_keeps_its_live_names_as_they_were_at_its_tick() {
    let lesson = course()
        .into_iter()
        .find(|lesson| lesson.id == "leases")
        .unwrap();
    let mut run = run_of_step(&lesson, 0);
    let mut driver = LessonDriver::start(lesson, run.world());
    assert!(driver.play_solution(&mut run).satisfied);
    let live = |run: &ScenarioRun<Timeline>| LiveName::Leader.value(&run.world().view());
    let (frozen, node) = driver
        .name_at_tick(0, LiveName::Leader)
        .expect("step 1 ticked here");
    assert_eq!(frozen, live(&run), "taken at the tick's moment");
    // The leader crashes after the tick: the live name moves on, the done step's stays.
    run.run_mut().apply(&Action::Crash {
        target: NodeTarget::Leader,
    });
    let later = run.world().now().plus_ms(3_000);
    run.advance_past_end_to(later);
    assert_ne!(live(&run), frozen);
    assert_eq!(
        driver.name_at_tick(0, LiveName::Leader),
        Some((frozen, node))
    );
    assert_eq!(
        driver.name_at_tick(1, LiveName::Leader),
        None,
        "the open step's names follow the run"
    );
}

#[test]
fn steps_skipped_by_opening_later_are_not_seen_and_a_full_walk_sees_all() {
    let lesson = course()
        .into_iter()
        .find(|lesson| lesson.steps.len() >= 3)
        .unwrap();
    let run = run_of_step(&lesson, 0);
    let skipped = LessonDriver::at_step(lesson.clone(), 2, run.world());
    assert_eq!(skipped.steps_not_seen(), vec![1, 2]);
    assert_eq!(skipped.done(0), Some(DONE_EARLIER));
    let fresh = LessonDriver::start(lesson, run.world());
    assert!(fresh.steps_not_seen().is_empty());
}

/// Each step's tick instant when "show me" is pressed as the step opens and the run is driven in
/// frames of `frame_us`, going back to the step's beginning first as the page's "show me" does.
fn tick_instants_in_frames(lesson: &Lesson, frame_us: u64) -> Vec<SimTime> {
    let mut run = run_of_step(lesson, 0);
    let mut driver = LessonDriver::start(lesson.clone(), run.world());
    let mut ticks = Vec::new();
    for step in 0..lesson.steps.len() {
        if step > 0 && lesson.steps[step].own_world.is_some() {
            run = run_of_step(lesson, step);
            driver.open_step(step, run.world());
        }
        let began = driver.step_began();
        if run.world().now() > began {
            run.run_mut().seek(began);
            driver.observe(run.world());
        }
        driver.show_me(run.world());
        let deadline = began.plus_ms(lesson.steps[step].deadline_ms());
        drive_in_frames(&mut driver, &mut run, frame_us, deadline);
        assert_eq!(driver.current_step(), step + 1, "{} step {step}", lesson.id);
        ticks.push(driver.step_began());
    }
    ticks
}

#[test]
fn the_page_and_the_headless_play_tick_every_lesson_step_at_the_same_instant() {
    for lesson in course() {
        let mut headless = LessonRun::new(&lesson).unwrap();
        let mut on_timeline = run_of_step(&lesson, 0);
        let mut driver = LessonDriver::start(lesson.clone(), on_timeline.world());
        let mut expected = Vec::new();
        for step in 0..lesson.steps.len() {
            assert!(headless.apply_solution(step).satisfied, "{}", lesson.id);
            expected.push(headless.now());
            if step > 0 && lesson.steps[step].own_world.is_some() {
                on_timeline = run_of_step(&lesson, step);
                driver.open_step(step, on_timeline.world());
            }
            assert!(driver.play_solution(&mut on_timeline).satisfied);
            assert_eq!(driver.step_began(), headless.now(), "{} {step}", lesson.id);
        }
        assert_eq!(
            on_timeline.world().trace_hash(),
            headless.world().trace_hash(),
            "{}: the same run, event for event",
            lesson.id
        );
        for frame_us in [1_600, 33_333] {
            assert_eq!(
                tick_instants_in_frames(&lesson, frame_us),
                expected,
                "{} in frames of {frame_us} µs",
                lesson.id
            );
        }
    }
}

/// When a learner acting by hand performs a scripted action: at its moment, but no sooner than
/// [`LEARNER_REACTION_MS`] into the step. A page does not stop at a tick: it runs to the end of that
/// frame (33 ms at most here) before the learner can act, so a script's "at once" cannot be clicked.
fn by_hand_at(began: SimTime, after_ms: u64) -> SimTime {
    began.plus_ms(after_ms.max(LEARNER_REACTION_MS))
}

/// Longer than the longest frame these tests drive.
const LEARNER_REACTION_MS: u64 = 34;

/// Each step's tick instant when a learner performs the step's script by hand, each action at its
/// [moment](by_hand_at), on the page: the run is driven in frames of `frame_us` and the clicks land between frames.
/// `None` for a step the hand-played actions did not meet by its deadline.
fn hand_played_ticks_in_frames(lesson: &Lesson, frame_us: u64) -> Vec<Option<SimTime>> {
    let mut run = run_of_step(lesson, 0);
    let mut driver = LessonDriver::start(lesson.clone(), run.world());
    let mut ticks = Vec::new();
    for (index, step) in lesson.steps.iter().enumerate() {
        if index > 0 && step.own_world.is_some() {
            run = run_of_step(lesson, index);
            driver.open_step(index, run.world());
        }
        let began = driver.step_began();
        for scripted in &step.solution {
            drive_in_frames(
                &mut driver,
                &mut run,
                frame_us,
                by_hand_at(began, scripted.after_ms),
            );
            if driver.current_step() != index {
                break;
            }
            run.run_mut().apply(&scripted.action);
        }
        if driver.current_step() == index {
            drive_in_frames(
                &mut driver,
                &mut run,
                frame_us,
                began.plus_ms(step.deadline_ms()),
            );
        }
        if driver.current_step() == index {
            ticks.push(None);
            return ticks;
        }
        ticks.push(Some(driver.step_began()));
    }
    ticks
}

/// The same learner, headless: [`LessonRun::watch`] to each action's moment, the action, then a watch
/// to the step's deadline.
fn hand_played_ticks_headless(lesson: &Lesson) -> (Vec<Option<SimTime>>, LessonRun) {
    let mut headless = LessonRun::new(lesson).unwrap();
    let mut ticks = Vec::new();
    for (index, step) in lesson.steps.iter().enumerate() {
        let began = headless.begin(index);
        for scripted in &step.solution {
            if headless
                .watch(index, by_hand_at(began, scripted.after_ms))
                .satisfied
            {
                break;
            }
            headless.world_mut().apply(&scripted.action);
        }
        if headless.driver().current_step() == index
            && !headless
                .watch(index, began.plus_ms(step.deadline_ms()))
                .satisfied
        {
            ticks.push(None);
            return (ticks, headless);
        }
        ticks.push(Some(headless.now()));
    }
    (ticks, headless)
}

#[test]
fn a_learner_acting_by_hand_is_judged_at_the_same_instants_headless_and_on_the_page() {
    let (mut met, mut steps) = (0, 0);
    for lesson in course() {
        let (headless, _) = hand_played_ticks_headless(&lesson);
        // Played late by a learner's reaction time, a script can miss a timing-sensitive step (the
        // leases lesson's clock jump); the page must then miss it too.
        met += headless.iter().flatten().count();
        steps += lesson.steps.len();
        for frame_us in [1_600, 33_333] {
            assert_eq!(
                hand_played_ticks_in_frames(&lesson, frame_us),
                headless,
                "{} by hand in frames of {frame_us} µs",
                lesson.id
            );
        }
    }
    assert!(
        met * 5 >= steps * 4,
        "by hand the scripts still meet most steps ({met} of {steps}), so most instants are compared"
    );
}
