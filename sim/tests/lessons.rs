//! Every lesson is a test. Running each step's scripted solution ("show me") must meet every checkpoint,
//! in order, within the step's deadline; and on the untouched scenario, run over the same stretch of
//! simulated time, no checkpoint may be met. The second half is what makes the first mean something: a
//! checkpoint that any calm cluster satisfies would tick whatever the learner did.

use quorumlab_sim::lesson::{
    parse_lesson, parse_lessons, Checkpoint, LessonErrorKind, LessonRun, LESSONS, LESSON_FILES,
    SCENARIO_FILES,
};
use quorumlab_sim::time::SimTime;

/// When each step began and when it ended (met, or gave up) in the solved run.
struct StepWindow {
    began: SimTime,
    deadline: SimTime,
}

fn solve(lesson: &quorumlab_sim::lesson::Lesson) -> Vec<StepWindow> {
    let mut run = LessonRun::new(lesson).expect("the lesson's scenario builds a world");
    let mut windows = Vec::new();
    for (index, step) in lesson.steps.iter().enumerate() {
        let began = run.begin(index);
        let verdict = run.apply_solution(index);
        assert!(
            verdict.satisfied,
            "{} step {}: `{}` not met within {} ms of the step's start: {}",
            lesson.id,
            index + 1,
            step.checkpoint_text,
            step.deadline_ms(),
            verdict.explanation
        );
        windows.push(StepWindow {
            began,
            deadline: began.plus_ms(step.deadline_ms()),
        });
    }
    windows
}

#[test]
fn every_lesson_parses_and_has_steps_with_predictions() {
    let lessons = parse_lessons().unwrap_or_else(|error| panic!("{error}"));
    assert_eq!(lessons.len(), LESSONS.len());
    let mut ids: Vec<&str> = lessons.iter().map(|lesson| lesson.id.as_str()).collect();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), lessons.len(), "lesson ids are unique");
    for lesson in &lessons {
        assert!(!lesson.steps.is_empty(), "{} has steps", lesson.id);
        assert!(!lesson.outcomes.is_empty(), "{} lists outcomes", lesson.id);
        assert!(
            !lesson.interview.is_empty(),
            "{} asks an interview question",
            lesson.id
        );
        assert!(
            lesson.steps.iter().any(|step| !step.predict.is_empty()),
            "{} asks at least one predict-then-reveal question",
            lesson.id
        );
        for heading in [
            "## The idea in plain words",
            "## Terms",
            "## Mental model",
            "## Steps",
            "## Edge cases to try",
            "## Common mistakes",
            "## Mastery checklist",
        ] {
            assert!(
                lesson.body.contains(heading),
                "{} has a `{heading}` section",
                lesson.id
            );
        }
    }
}

#[test]
fn every_scripted_solution_meets_every_checkpoint_in_order() {
    for lesson in parse_lessons().unwrap() {
        solve(&lesson);
    }
}

#[test]
fn no_checkpoint_is_met_by_the_untouched_scenario() {
    for lesson in parse_lessons().unwrap() {
        let windows = solve(&lesson);
        let mut untouched = LessonRun::new(&lesson).unwrap();
        for (index, window) in windows.iter().enumerate() {
            untouched.advance_to(window.began);
            untouched.begin(index);
            let verdict = untouched.watch(index, window.deadline);
            assert!(
                !verdict.satisfied,
                "{} step {}: `{}` is met without doing anything: {}",
                lesson.id,
                index + 1,
                lesson.steps[index].checkpoint_text,
                verdict.explanation
            );
        }
    }
}

/// The untouched scenario is not the only way a step can tick by itself: what the earlier steps set in
/// motion may still be going on when a step begins (a chain of overlapping lock holders, a leader still
/// being elected). Such a step would tick in the app the moment it began, so from exactly where the
/// solved run leaves off, doing nothing for the step's whole time must not meet its checkpoint.
#[test]
fn no_step_is_met_by_what_the_earlier_steps_left_behind() {
    for lesson in parse_lessons().unwrap() {
        let mut run = LessonRun::new(&lesson).unwrap();
        for (index, step) in lesson.steps.iter().enumerate() {
            let began = run.begin(index);
            let mut idle = run.clone();
            let verdict = idle.watch(index, began.plus_ms(step.deadline_ms()));
            assert!(
                !verdict.satisfied,
                "{} step {}: `{}` is met without the step's own actions: {}",
                lesson.id,
                index + 1,
                step.checkpoint_text,
                verdict.explanation
            );
            run.apply_solution(index);
        }
    }
}

#[test]
fn every_compiled_scenario_file_exists_on_disk_unchanged() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
    for (path, text) in SCENARIO_FILES.iter().chain(LESSONS) {
        let on_disk = std::fs::read_to_string(format!("{root}/{path}")).unwrap();
        assert_eq!(&on_disk, text, "{path}");
    }
    let listed = std::fs::read_dir(format!("{root}/lessons"))
        .unwrap()
        .filter_map(|entry| entry.ok()?.file_name().into_string().ok())
        .filter(|name| name.ends_with(".md"))
        .count();
    assert_eq!(listed, LESSONS.len(), "every lessons/*.md is in LESSONS");
}

#[test]
fn the_lesson_index_names_every_file_with_the_hash_of_its_text() {
    assert_eq!(LESSON_FILES.len(), LESSONS.len());
    for (file, (path, text)) in LESSON_FILES.iter().zip(LESSONS) {
        assert_eq!(file.path, *path);
        assert!(file.matches(text), "{path}");
        // One changed character is a different file: a page fetching a stale copy must notice.
        let mut edited = text.to_string();
        edited.push(' ');
        assert!(!file.matches(&edited), "{path}");
    }
}

const MINIMAL: &str = "+++\nid = \"demo\"\ntitle = \"Demo\"\norder = 1\noutcomes = [\"one\"]\nscenario = \"lessons/scenarios/calm-five.toml\"\n\n[[step]]\ninstruction = \"Crash it.\"\ncheckpoint = \"leader_changed\"\nsolution = [{ after_ms = 5, do = \"crash\", target = \"leader\" }]\n+++\nBody.\n";

#[test]
fn a_minimal_lesson_parses_with_its_body_and_solution() {
    let lesson = parse_lesson(MINIMAL, "demo.md").unwrap();
    assert_eq!(lesson.id, "demo");
    assert_eq!(lesson.body, "Body.\n");
    assert_eq!(lesson.steps[0].checkpoint, Checkpoint::LeaderChanged);
    assert_eq!(lesson.steps[0].solution[0].after_ms, 5);
}

#[test]
fn a_lesson_may_name_an_engine_example_scenario() {
    let text = MINIMAL.replace(
        "lessons/scenarios/calm-five.toml",
        "sim/scenarios/leader-crash.toml",
    );
    let lesson = parse_lesson(&text, "demo.md").unwrap();
    assert_eq!(lesson.scenario.title, "Leader crash and re-election");
}

#[test]
fn mistakes_are_reported_with_file_line_column_step_and_key() {
    let error = |from: &str, to: &str| {
        let text = MINIMAL.replace(from, to);
        parse_lesson(&text, "demo.md").unwrap_err().to_string()
    };
    assert_eq!(
        error(
            "checkpoint = \"leader_changed\"",
            "checkpoint = \"term_at_least(x)\""
        ),
        "demo.md:10:29: step 1 key `checkpoint`: checkpoint `term_at_least(x)` at character 15: \
         `x` is not a whole number 0 or more"
    );
    assert_eq!(
        error("do = \"crash\"", "do = \"crsh\""),
        "demo.md:11:34: step 1 key `solution.do`: unknown action `crsh`; did you mean `crash`?"
    );
    assert_eq!(
        error("target = \"leader\"", "target = \"n9\""),
        "demo.md:11:52: step 1 key `solution.target`: node `n9` is out of range (this cluster has n1..n5)"
    );
    assert_eq!(
        error("order = 1", "ordr = 1"),
        "demo.md:4:1: key `ordr`: unknown key; did you mean `order`?"
    );
    assert_eq!(
        error("order = 1", "rank = 1"),
        "demo.md:4:1: key `rank`: unknown key; nothing close among the 8 keys (listed in the lesson \
         format in sim/src/tooling/lesson/mod.rs)"
    );
    assert_eq!(
        error("calm-five.toml", "nowhere.toml"),
        format!(
            "demo.md:6:12: key `scenario`: no scenario `lessons/scenarios/nowhere.toml` is compiled \
             in; nothing close among the {} scenario files (listed in lessons/scenarios/, \
             sim/scenarios/ and the worlds' folders)",
            SCENARIO_FILES.len() + quorumlab_sim::scenario::all_examples().count()
        )
    );
    assert_eq!(
        error("lessons/scenarios/calm-five.toml", "calm-five.toml"),
        "demo.md:6:12: key `scenario`: no scenario `calm-five.toml` is compiled in; did you mean \
         `lessons/scenarios/calm-five.toml`?",
        "a file named without its folder is found by its name"
    );
    assert!(error("+++\nid", "id").contains("demo.md:1:1: a lesson starts with a `+++` line"));
    assert_eq!(
        error("Crash it.", "Crash {leadr}."),
        "demo.md:9:15: step 1 key `instruction`: `{leadr}` names nothing in the run; did you mean \
         `{leader}`?"
    );
    assert!(parse_lesson(&MINIMAL.replace("Crash it.", "Crash {leader}."), "demo.md").is_ok());
    let no_correct = MINIMAL.replace(
        "+++\nBody",
        "[[step.predict]]\nquestion = \"Q?\"\noptions = [{ text = \"a\", explanation = \"b\" }]\n+++\nBody",
    );
    assert!(error("id = \"demo\"", "id = \"Demo Lesson\"")
        .starts_with("demo.md:2:6: key `id`: `Demo Lesson` is not a lesson id"));
    assert!(error("after_ms = 5", "after_ms = 5, at_ms = 5")
        .contains("key `solution.at_ms`: unknown key; expected `after_ms`, `do` or `target`"));
    let parsed = parse_lesson(&no_correct, "demo.md").unwrap_err();
    assert_eq!(*parsed.kind, LessonErrorKind::NoCorrectOption);
    assert_eq!((parsed.line, parsed.step), (14, Some(1)));
}

/// Runs example scenario `file` to its end, checking `checkpoint` every 5 ms from time 0. Returns when
/// it was first met and why, or the last explanation when it never was.
fn first_met(file: &str, checkpoint: Checkpoint) -> Result<(u64, String), String> {
    use quorumlab_sim::lesson::CheckpointEvaluator;
    use quorumlab_sim::runner::ScenarioRun;
    use quorumlab_sim::scenario::{parse_scenario, EXAMPLES};
    let (_, text) = EXAMPLES.iter().find(|(name, _)| *name == file).unwrap();
    let mut run = ScenarioRun::new(parse_scenario(text, file).unwrap()).unwrap();
    let mut evaluator = CheckpointEvaluator::begin(checkpoint, run.world());
    loop {
        let verdict = evaluator.check(run.world());
        if verdict.satisfied {
            return Ok((run.world().now().as_ms(), verdict.explanation));
        }
        if run.is_finished() {
            return Err(verdict.explanation);
        }
        let next = run.world().now().plus_ms(5);
        run.advance_to(next);
    }
}

#[test]
fn checkpoints_are_met_by_the_scenarios_that_show_them_and_only_those() {
    use quorumlab_sim::action::NodeTarget;
    use quorumlab_sim::ids::NodeId;
    let met = |file, checkpoint| {
        first_met(file, checkpoint).unwrap_or_else(|why| panic!("{file}: {why}"))
    };
    let unmet = |file, checkpoint| first_met(file, checkpoint).expect_err(file);

    // leader-crash.toml crashes the leader at 1200 ms; `leader` means the first leader seen.
    let (at_ms, why) = met(
        "leader-crash.toml",
        Checkpoint::NodeCrashed(NodeTarget::Leader),
    );
    assert_eq!(at_ms, 1200, "{why}");
    assert!(why.ends_with("is crashed"), "{why}");
    assert!(met("leader-crash.toml", Checkpoint::LeaderChanged).0 > 1200);
    assert!(met("leader-crash.toml", Checkpoint::CommitIndexAtLeast(5)).0 > 1000);
    let why = unmet("leader-crash.toml", Checkpoint::CommitIndexAtLeast(1_000));
    assert!(why.contains("waiting for 1000"), "{why}");
    assert!(unmet("leader-crash.toml", Checkpoint::Partitioned).contains("every link is up"));

    // partition-minority.toml splits n1 n2 | n3 n4 n5 at 1500 ms.
    assert_eq!(
        met("partition-minority.toml", Checkpoint::Partitioned).0,
        1500
    );
    let (at_ms, why) = met("partition-minority.toml", Checkpoint::MinorityCannotCommit);
    // The majority side elects a new leader, whose first entry commits there and nowhere else.
    assert!(at_ms > 1500, "{at_ms}: {why}");
    assert!(why.starts_with("n1, n2 cannot reach a majority"), "{why}");
    assert!(unmet("leader-crash.toml", Checkpoint::MinorityCannotCommit)
        .contains("can reach a majority"));

    // paused-leader.toml pauses the leader at 1000 ms for 1500 ms.
    assert_eq!(
        met("paused-leader.toml", Checkpoint::NodePaused(None)).0,
        1000
    );
    assert!(met("paused-leader.toml", Checkpoint::LeaderSteppedDown).0 >= 2500);
    let nobody_paused = Checkpoint::NodePaused(Some(NodeTarget::Node(NodeId(0))));
    assert!(unmet("leader-crash.toml", nobody_paused).contains("n1 is up"));
    assert!(met("split-vote.toml", Checkpoint::TermAtLeast(2)).0 > 0);
    assert!(unmet("lossy-network.toml", Checkpoint::NoLeaderForMs(2_000)).contains("leader"));
    // A new leader after a crash is not a return from quorum loss: a majority was there all along.
    let why = unmet("leader-crash.toml", Checkpoint::QuorumRegained);
    assert!(
        why.ends_with("up and connected throughout this step"),
        "{why}"
    );

    // Locks and invoices: the unsafe configurations show the problem, the safe ones refuse it.
    let (_, why) = met(
        "no-fencing-pause.toml",
        Checkpoint::TwoClientsBelieveTheyHoldLock,
    );
    assert!(
        why.contains("A (token") && why.contains("B (token"),
        "{why}"
    );
    // Redlock's hold values are unique, not ordered: the verdict calls them values, not tokens.
    let (_, why) = met(
        "redlock-clock-jump.toml",
        Checkpoint::TwoClientsBelieveTheyHoldLock,
    );
    assert!(why.contains("(value ") && !why.contains("token"), "{why}");
    let why = unmet(
        "no-fencing-pause.toml",
        Checkpoint::ResourceRejectedStaleToken,
    );
    assert!(why.contains("fencing is off"), "{why}");
    assert!(met("fencing-pause.toml", Checkpoint::ResourceRejectedStaleToken).0 > 950);
    // A froze there while modifying, so what the store refuses is its late write.
    let (at_ms, why) = met("fencing-pause.toml", Checkpoint::StaleWriteRefused);
    assert!(
        at_ms > 950 && why.starts_with("the store refused 1 write"),
        "{at_ms}: {why}"
    );
    let why = unmet("no-fencing-pause.toml", Checkpoint::StaleWriteRefused);
    assert!(why.contains("fencing is off"), "{why}");
    let why = unmet("fencing-pause.toml", Checkpoint::BatchRedoRecognised);
    assert!(why.starts_with("no batch has been redone"), "{why}");
    assert!(met("scheduler-none.toml", Checkpoint::DuplicateInvoice).0 > 0);
    let why = unmet(
        "scheduler-lock-every-run.toml",
        Checkpoint::DuplicateInvoice,
    );
    assert_eq!(why, "no minute has been invoiced twice");
    assert!(unmet(
        "leader-crash.toml",
        Checkpoint::TwoClientsBelieveTheyHoldLock
    )
    .contains("no lock clients"));
}

#[test]
fn a_met_checkpoint_stays_met_after_the_condition_passes() {
    use quorumlab_sim::lesson::CheckpointEvaluator;
    use quorumlab_sim::runner::ScenarioRun;
    use quorumlab_sim::scenario::{parse_scenario, EXAMPLES};
    let (_, text) = EXAMPLES
        .iter()
        .find(|(name, _)| *name == "partition-minority.toml")
        .unwrap();
    let mut run =
        ScenarioRun::new(parse_scenario(text, "partition-minority.toml").unwrap()).unwrap();
    let mut partitioned = CheckpointEvaluator::begin(Checkpoint::Partitioned, run.world());
    let mut fresh_after_heal = None;
    for ms in (0..=5_000).step_by(100) {
        run.advance_to(SimTime::from_ms(ms));
        partitioned.check(run.world());
        if ms == 4_500 {
            fresh_after_heal = Some(CheckpointEvaluator::begin(
                Checkpoint::Partitioned,
                run.world(),
            ));
        }
    }
    // The heal at 4000 ms restored every link, yet the step that saw the split stays ticked...
    assert!(partitioned.check(run.world()).satisfied);
    // ...while an evaluator that starts after the heal sees no cut link.
    let verdict = fresh_after_heal.unwrap().check(run.world());
    assert_eq!(verdict.explanation, "every link is up");
    assert!(!verdict.satisfied);
}

#[test]
fn live_names_follow_the_run_a_lesson_is_played_on() {
    use quorumlab_sim::action::{Action, NodeTarget};
    use quorumlab_sim::lesson::LiveName;
    use quorumlab_sim::runner::ScenarioRun;
    use quorumlab_sim::time::SimTime;
    let lesson = parse_lessons()
        .unwrap()
        .into_iter()
        .find(|lesson| lesson.id == "distributed-locks")
        .unwrap();
    let mut run = ScenarioRun::new(lesson.scenario.clone()).unwrap();
    assert_eq!(LiveName::LockHolder.value(&run.world().view()), "nobody");
    // Play until some worker believes it holds the lock; which one is the run's business.
    let mut at_ms = 0;
    let holder = loop {
        at_ms += 5;
        assert!(at_ms < 5_000, "no worker took the lock in 5 s");
        run.advance_to(SimTime::from_ms(at_ms));
        let holder = LiveName::LockHolder.value(&run.world().view());
        if holder != "nobody" {
            break holder;
        }
    };
    assert!(["A", "B", "C"].contains(&holder.as_str()), "{holder}");
    assert_eq!(LiveName::Paused.value(&run.world().view()), "nobody");
    let node = run
        .world()
        .view()
        .coordination
        .unwrap()
        .labels
        .iter()
        .position(|label| *label == holder)
        .unwrap();
    let target = NodeTarget::Node(quorumlab_sim::ids::NodeId(node as u16));
    run.world_mut().apply(&Action::Pause {
        target,
        duration_ms: None,
    });
    assert_eq!(LiveName::Paused.value(&run.world().view()), holder);
    assert_eq!(LiveName::Crashed.value(&run.world().view()), "nobody");
}

/// Lesson 6 asks for a pause while A is modifying, so that the access the store refuses is A's late
/// write. Paused at other moments, A's refused access is its read, and the step must not tick: some
/// pause moment in A's first jobs gives each outcome, and each is judged for what it is.
#[test]
fn a_refused_read_is_not_the_stale_write_lesson_six_asks_for() {
    use quorumlab_sim::lesson::CheckpointEvaluator;
    use quorumlab_sim::runner::ScenarioRun;
    use quorumlab_sim::scenario::parse_scenario;
    let (path, text) = SCENARIO_FILES
        .iter()
        .find(|(path, _)| path.ends_with("fencing-calm.toml"))
        .unwrap();
    let (mut writes, mut reads) = (0, 0);
    for pause_ms in (1_000..1_600).step_by(10) {
        let steps = format!(
            "[[step]]\nat_ms = {pause_ms}\ndo = \"pause\"\ntarget = \"A\"\nduration_ms = 2500\n"
        );
        let text = text.replace("duration_ms = 120000", "duration_ms = 6000") + steps.as_str();
        let scenario = parse_scenario(&text, path).unwrap();
        let mut run = ScenarioRun::new(scenario).unwrap();
        run.advance_to(SimTime::from_ms(900));
        let mut evaluator = CheckpointEvaluator::begin(Checkpoint::StaleWriteRefused, run.world());
        while !run.is_finished() {
            let next = run.world().now().plus_ms(5);
            run.advance_to(next);
            evaluator.check(run.world());
        }
        let verdict = evaluator.check(run.world());
        let store = run
            .world()
            .nodes()
            .last()
            .unwrap()
            .actor
            .as_resource()
            .unwrap();
        let refused_reads = store.rejected - store.rejected_writes;
        assert_eq!(
            verdict.satisfied,
            store.rejected_writes > 0,
            "{pause_ms}: {}",
            verdict.explanation
        );
        if store.rejected_writes > 0 {
            writes += 1;
        } else if refused_reads > 0 {
            reads += 1;
            assert!(
                verdict.explanation.contains("while it is modifying"),
                "{}",
                verdict.explanation
            );
        }
    }
    assert!(
        writes > 0 && reads > 0,
        "{writes} pauses refused a write, {reads} a read"
    );
}

/// A step may switch to a world of its own; its nodes are that world's, and a mistake names the step.
#[test]
fn a_step_with_its_own_world_begins_on_a_fresh_run_of_it() {
    let switching = MINIMAL.replace(
        "+++\nBody.",
        "\n[[step]]\nscenario = \"lessons/scenarios/fencing-calm.toml\"\ninstruction = \"Pause A.\"\n\
         checkpoint = \"node_paused(A)\"\nsolution = [{ after_ms = 5, do = \"pause\", target = \"A\" }]\n+++\nBody.",
    );
    let lesson = parse_lesson(&switching, "demo.md").unwrap_or_else(|error| panic!("{error}"));
    assert_eq!(lesson.world_of_step(0).0, 0);
    assert_eq!(lesson.world_of_step(1).0, 1);
    assert_eq!(
        lesson.world_of_step(1).1.title,
        "Fencing, before anything goes wrong"
    );
    let mut run = LessonRun::new(&lesson).unwrap();
    run.apply_solution(0);
    assert!(run.now() > SimTime::from_ms(lesson.start_ms));
    assert_eq!(
        run.begin(1),
        SimTime::from_ms(lesson.start_ms),
        "a fresh run, start_ms in"
    );
    assert!(run.apply_solution(1).satisfied);

    let unknown = switching.replace("fencing-calm.toml", "missing.toml");
    let error = parse_lesson(&unknown, "demo.md").unwrap_err().to_string();
    assert!(error.contains("step 2 key `scenario`"), "{error}");
    let wrong_node = MINIMAL.replace(
        "+++\nBody.",
        "\n[[step]]\ninstruction = \"Pause A.\"\ncheckpoint = \"node_paused(A)\"\n+++\nBody.",
    );
    let error = parse_lesson(&wrong_node, "demo.md")
        .unwrap_err()
        .to_string();
    assert!(error.contains("is not a node"), "{error}");
}
