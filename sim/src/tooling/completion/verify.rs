//! Checking a code by replaying it: each run rebuilt from the lesson's own world (with the code's seed,
//! or its changed settings), its recorded actions replayed at their exact places, and the lesson
//! followed on it by the same [`LessonDriver`] the page uses. The page judges the open step at every
//! check of its grid while playing and right after each click while paused; the replay judges at every
//! check and right after each recorded action, so a step the learner met is met here too, and nothing
//! the actions did not do can be.
//!
//! A run covers the steps from its first up to the next run's first. A claim the replay does not bear
//! out is reported beside the step, never silently dropped or believed.

use super::codec::{decode, CodeError};
use super::record::{recorded_actions, CompletionCode, LessonRunRecord};
use super::recorded_run::RecordedRun;
use super::report::{starts_of, CodeReport, HowMet, StepReport, StepStatus, CLAIM_NOT_MET};
use super::{MAX_CODES_PER_CHECK, MAX_REPLAY_EVENTS_PER_CODE};
use crate::base::time::SimTime;
use crate::contract::action::Action;
use crate::engine::history::RecordedAction;
use crate::engine::world::World;
use crate::tooling::behaviour::BEHAVIOUR_VERSION;
use crate::tooling::lesson::{Lesson, LessonDriver, DONE_EARLIER};
use crate::tooling::runner::{world_config, ScenarioRun};
use crate::tooling::scenario::{nodes_after, parse_scenario, validate_action, Scenario};

/// Every code in a paste, checked.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Verification {
    pub codes: Vec<CodeReport>,
    /// Codes past [`MAX_CODES_PER_CHECK`], not read.
    pub codes_not_read: usize,
}

/// The codes in `text` (separated by whitespace), at most [`MAX_CODES_PER_CHECK`] of them, and how
/// many more there were.
pub fn split_codes(text: &str) -> (Vec<&str>, usize) {
    let mut codes: Vec<&str> = text.split_whitespace().collect();
    let over = codes.len().saturating_sub(MAX_CODES_PER_CHECK);
    codes.truncate(MAX_CODES_PER_CHECK);
    (codes, over)
}

/// Checks every code in `text` against `course`.
pub fn verify_text(text: &str, course: &[Lesson]) -> Verification {
    let (codes, codes_not_read) = split_codes(text);
    let codes = codes
        .iter()
        .enumerate()
        .map(|(index, code)| check_one(index + 1, code, course))
        .collect();
    Verification {
        codes,
        codes_not_read,
    }
}

/// Reads and checks the `number`th code of a paste.
pub fn check_one(number: usize, text: &str, course: &[Lesson]) -> CodeReport {
    match decode(text) {
        Ok(code) => verify(number, text, &code, course),
        Err(error) => CodeReport::refused(number, text, true, malformed_words(&error)),
    }
}

fn malformed_words(error: &CodeError) -> String {
    let mut words = error.to_string();
    if let Some(first) = words.get(..1) {
        words = first.to_uppercase() + &words[1..];
    }
    words
}

/// Checks a read code against `course` (the lessons this build has).
pub fn verify(number: usize, text: &str, code: &CompletionCode, course: &[Lesson]) -> CodeReport {
    let refuse = |error: String| CodeReport::refused(number, text, false, error);
    let Some(lesson) = course.iter().find(|lesson| lesson.id == code.lesson_id) else {
        return refuse(format!(
            "It names the lesson “{}”, which this version does not have.",
            code.lesson_id
        ));
    };
    if code.lesson_hash != lesson.source_hash {
        return refuse(format!(
            "It was made with another version of the lesson “{}” (the lesson has changed since), so \
             it is not checked.",
            lesson.title
        ));
    }
    if code.behaviour_version != BEHAVIOUR_VERSION {
        return refuse(format!(
            "It was made by engine version {}, and this is version {BEHAVIOUR_VERSION}: its runs \
             would replay differently, so it is not checked.",
            code.behaviour_version
        ));
    }
    if code.steps.len() != lesson.steps.len() {
        return CodeReport::refused(
            number,
            text,
            true,
            format!(
                "It lists {} steps; the lesson “{}” has {}.",
                code.steps.len(),
                lesson.title,
                lesson.steps.len()
            ),
        );
    }
    let steps = replay_steps(code, lesson);
    let met = count(&steps, |step| step.status == StepStatus::Met);
    let mismatches = count(&steps, |step| step.mismatch.is_some());
    CodeReport {
        code: number,
        starts: starts_of(text),
        malformed: false,
        error: None,
        lesson_id: Some(lesson.id.clone()),
        lesson_title: Some(lesson.title.clone()),
        met,
        total: lesson.steps.len(),
        mismatches,
        steps,
    }
}

fn count(steps: &[StepReport], keep: impl Fn(&StepReport) -> bool) -> usize {
    steps.iter().filter(|step| keep(step)).count()
}

/// Each step's report: judged by the run that covers it, or not played.
fn replay_steps(code: &CompletionCode, lesson: &Lesson) -> Vec<StepReport> {
    let mut outcomes: Vec<Outcome> = vec![Outcome::NotPlayed; lesson.steps.len()];
    let mut changed = vec![false; lesson.steps.len()];
    let mut budget = MAX_REPLAY_EVENTS_PER_CODE;
    for (index, run) in code.runs.iter().enumerate() {
        let first = usize::from(run.first_step);
        let end = code
            .runs
            .get(index + 1)
            .map_or(lesson.steps.len(), |next| usize::from(next.first_step));
        let judged = replay_run(lesson, code, run, index + 1, first..end, &mut budget);
        for (step, outcome) in (first..end).zip(judged) {
            outcomes[step] = outcome;
            changed[step] = run.settings_toml.is_some();
        }
    }
    outcomes
        .into_iter()
        .enumerate()
        .map(|(step, outcome)| report_step(lesson, code, step, outcome, changed[step]))
        .collect()
}

#[derive(Clone, Debug)]
enum Outcome {
    Met(String),
    NotMet(String),
    NotPlayed,
    NotChecked(String),
}

fn report_step(
    lesson: &Lesson,
    code: &CompletionCode,
    step: usize,
    outcome: Outcome,
    changed_settings: bool,
) -> StepReport {
    let record = code.steps[step];
    let (status, detail) = match outcome {
        Outcome::Met(detail) => (StepStatus::Met, detail),
        Outcome::NotMet(detail) => (StepStatus::NotMet, detail),
        Outcome::NotPlayed => (
            StepStatus::NotPlayed,
            "no run in this code played this step".to_string(),
        ),
        Outcome::NotChecked(detail) => (StepStatus::NotChecked, detail),
    };
    let how = (status == StepStatus::Met).then_some(if record.show_me {
        HowMet::ShowMe
    } else {
        HowMet::ByHand
    });
    let mismatch = (record.claimed_met
        && matches!(status, StepStatus::NotMet | StepStatus::NotPlayed))
    .then(|| CLAIM_NOT_MET.to_string());
    StepReport {
        step: step + 1,
        checkpoint: lesson.steps[step].checkpoint_text.clone(),
        status,
        how,
        claimed: record.claimed_met,
        changed_settings,
        detail,
        mismatch,
    }
}

/// The scenario a run was played on: the lesson's world for its first step with the run's seed, or
/// the learner's changed settings (which must still be that world's protocol).
fn run_scenario(lesson: &Lesson, run: &LessonRunRecord, number: usize) -> Result<Scenario, String> {
    let own = lesson.world_of_step(usize::from(run.first_step)).1;
    let Some(toml) = &run.settings_toml else {
        let mut scenario = own.clone();
        scenario.seed = run.seed;
        return Ok(scenario);
    };
    let scenario = parse_scenario(toml, "the run settings")
        .map_err(|error| format!("run {number}'s settings cannot be read: {error}"))?;
    if scenario.protocol_name() != own.protocol_name() {
        return Err(format!(
            "run {number}'s settings are for another world ({}), not the lesson's ({})",
            scenario.protocol_name(),
            own.protocol_name()
        ));
    }
    Ok(scenario)
}

/// The run's actions, each checked against the world's nodes as a share link's are.
fn run_actions(
    run: &LessonRunRecord,
    scenario: &Scenario,
    number: usize,
) -> Result<Vec<RecordedAction>, String> {
    let actions = recorded_actions(&run.actions)
        .ok_or_else(|| format!("run {number}: an action's time overflows"))?;
    let mut nodes = scenario.actor_count();
    for (index, recorded) in actions.iter().enumerate() {
        let place = format!("run {number}, action {}", index + 1);
        validate_action(&place, &recorded.action, nodes).map_err(|invalid| invalid.to_string())?;
        nodes = nodes_after(&recorded.action, nodes);
    }
    Ok(actions)
}

/// Replays one run and judges the steps in `covered` on it.
fn replay_run(
    lesson: &Lesson,
    code: &CompletionCode,
    run: &LessonRunRecord,
    number: usize,
    covered: std::ops::Range<usize>,
    budget: &mut u64,
) -> Vec<Outcome> {
    let built = run_scenario(lesson, run, number).and_then(|scenario| {
        scenario.validate().map_err(|invalid| invalid.to_string())?;
        let actions = run_actions(run, &scenario, number)?;
        let world = World::new(world_config(&scenario))?;
        Ok((scenario, actions, world))
    });
    let (scenario, actions, world) = match built {
        Ok(built) => built,
        Err(reason) => return vec![Outcome::NotChecked(reason); covered.len()],
    };
    let mut replay = ScenarioRun::on(scenario, RecordedRun::new(world, actions));
    // To where the lesson began watching, in stretches, the budget looked at after each.
    while replay.world().now() < SimTime(run.began_us) {
        let stretch = replay.world().now().plus_ms(100).min(SimTime(run.began_us));
        replay.advance_past_end_to(stretch);
        if let Some(reason) = over_budget(&replay, *budget) {
            *budget = 0;
            return vec![Outcome::NotChecked(reason); covered.len()];
        }
    }
    let mut driver = LessonDriver::at_step(lesson.clone(), covered.start, replay.world());
    let follow = Follow {
        code,
        end: SimTime(run.played_to_us),
        covered: covered.clone(),
    };
    let stopped = follow.play(&mut driver, &mut replay, budget);
    judge(&driver, covered, stopped)
}

/// Following one run's replay to where it was played.
struct Follow<'a> {
    code: &'a CompletionCode,
    end: SimTime,
    covered: std::ops::Range<usize>,
}

impl Follow<'_> {
    /// Plays the replay as the page played the run: each step marked "show me" shown from its
    /// beginning, judged at every check and at the instant the page ticked it, the event budget looked
    /// at after every stop. Returns why it stopped early, if the budget ran out.
    fn play(
        &self,
        driver: &mut LessonDriver,
        replay: &mut ScenarioRun<RecordedRun>,
        budget: &mut u64,
    ) -> Option<String> {
        let mut mirror = |_: SimTime, _: &Action| {};
        let mut shown = None;
        while replay.world().now() < self.end && driver.current_step() < self.covered.end {
            let step = driver.current_step();
            if shown != Some(step) && self.code.steps[step].show_me {
                driver.show_me(replay.world());
            }
            shown = Some(step);
            let now = replay.world().now();
            let tick_at = self.code.steps[step]
                .ticked_us
                .map(SimTime)
                .filter(|at| *at > now && *at <= self.end);
            // One stop at a time (as `LessonDriver::watch` goes), so a step that ticks is shown, if
            // marked, at the very instant it began, as the page's "show me" starts it from there.
            let target = driver
                .next_stop(now)
                .min(self.end)
                .min(tick_at.unwrap_or(self.end));
            driver.drive(replay, target, &mut mirror);
            if tick_at == Some(target) && driver.current_step() == step {
                replay.run_mut().apply_recorded_now();
                driver.observe(replay.world());
            }
            if let Some(reason) = over_budget(replay, *budget) {
                *budget = 0;
                return Some(reason);
            }
        }
        *budget = budget.saturating_sub(replay.world().events_processed());
        None
    }
}

/// Why the replay must stop, if it has processed more events than the code has left (a run's world
/// starts with none processed).
fn over_budget(replay: &ScenarioRun<RecordedRun>, budget: u64) -> Option<String> {
    (replay.world().events_processed() > budget).then(|| {
        format!(
            "not checked: the replay reached its bound of {} events (at {} of the run)",
            super::MAX_REPLAY_EVENTS_PER_CODE,
            replay.world().now()
        )
    })
}

fn judge(
    driver: &LessonDriver,
    covered: std::ops::Range<usize>,
    stopped: Option<String>,
) -> Vec<Outcome> {
    covered
        .map(|step| match driver.done(step) {
            Some(text) if text != DONE_EARLIER => Outcome::Met(text.to_string()),
            _ => match &stopped {
                Some(reason) => Outcome::NotChecked(reason.clone()),
                None if driver.current_step() == step => Outcome::NotMet(not_met_words(driver)),
                None => Outcome::NotMet(
                    "not reached on this run: a step before it was not met".to_string(),
                ),
            },
        })
        .collect()
}

fn not_met_words(driver: &LessonDriver) -> String {
    match driver.last_verdict() {
        "" => "not met on the run recorded".to_string(),
        verdict => format!("not met on the run recorded: {verdict}"),
    }
}
