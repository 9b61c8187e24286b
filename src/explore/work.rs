//! The search worker's whole job, as plain Rust: run the engine's search, passing its progress on a
//! few times a second, then its report.
//!
//! It lives in the library so native tests run exactly what the worker runs. Cancelling is the
//! page's: it terminates the worker, which is immediate whatever the search is doing, so nothing here
//! checks for it.

use super::messages::{FromSearch, ToSearch};
use quorumlab_sim::explore::explore_watched;

/// Least wall time between two progress messages: five a second, more than the four the page needs
/// to look alive, few enough not to flood it.
pub const PROGRESS_EVERY_MS: f64 = 200.0;

/// Answers `request`, handing each message for the page to `post` as it is ready.
pub fn handle(request: ToSearch, post: &mut dyn FnMut(FromSearch), clock_ms: &dyn Fn() -> f64) {
    let ToSearch::Run { scenario, request } = request;
    let started_ms = clock_ms();
    let mut last_told_ms = f64::NEG_INFINITY;
    let result = explore_watched(&scenario, &request, &mut |progress| {
        let now_ms = clock_ms();
        if now_ms - last_told_ms >= PROGRESS_EVERY_MS {
            last_told_ms = now_ms;
            post(FromSearch::Progress {
                progress: *progress,
                elapsed_ms: now_ms - started_ms,
            });
        }
    });
    let elapsed_ms = clock_ms() - started_ms;
    post(match result {
        Ok(report) => FromSearch::Finished {
            report: Box::new(report),
            elapsed_ms,
        },
        Err(error) => FromSearch::Failed { error },
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::explore::question::{Budget, Question, Sought, Start};
    use quorumlab_sim::explore::Outcome;
    use quorumlab_sim::scenario::{parse_scenario, EXAMPLES};
    use std::cell::Cell;

    fn example(file: &str) -> quorumlab_sim::scenario::Scenario {
        let (_, text) = EXAMPLES.iter().find(|(name, _)| *name == file).unwrap();
        parse_scenario(text, file).unwrap()
    }

    fn run(question: &Question, file: &str) -> Vec<FromSearch> {
        let scenario = example(file);
        let (scenario, request) = question.ask(&scenario, &[], 0).unwrap();
        let ticks = Cell::new(0.0);
        // A clock that moves 50 ms per reading, so progress is told every few walks.
        let clock = || {
            ticks.set(ticks.get() + 50.0);
            ticks.get()
        };
        let mut said = Vec::new();
        handle(
            ToSearch::Run {
                scenario: Box::new(scenario),
                request,
            },
            &mut |message| said.push(message),
            &clock,
        );
        said
    }

    fn lost_update_question() -> Question {
        Question {
            start: Start::Beginning,
            sought: Sought::Invariant(Some("No Lost Updates".to_string())),
            budget: Budget {
                max_depth: 1,
                max_faults: 1,
                max_states: 20_000,
                horizon_ms: 4_000,
                ..Budget::default()
            },
        }
    }

    #[test]
    fn the_worker_tells_progress_then_the_lost_update_it_found() {
        let said = run(&lost_update_question(), "no-fencing-pause.toml");
        let progress = said
            .iter()
            .filter(|message| matches!(message, FromSearch::Progress { .. }))
            .count();
        assert!(progress >= 2, "{progress} progress messages: {said:?}");
        let Some(FromSearch::Finished { report, .. }) = said.last() else {
            panic!("the search ends with its report: {said:?}");
        };
        assert!(
            matches!(&report.outcome, Outcome::Found { invariant, .. } if invariant == "No Lost Updates"),
            "{}",
            report.summary
        );
    }

    /// From this moment, the worker's search adds steps only from the moment on, and what it found
    /// replays to the same invariant at the same choice point.
    #[test]
    fn from_this_moment_every_found_step_lies_at_or_after_it() {
        use quorumlab_sim::explore::goal::replay_goal;
        let scenario = example("no-fencing-pause.toml");
        let question = Question {
            start: Start::Now,
            ..lost_update_question()
        };
        let (searched, request) = question.ask(&scenario, &[], 1_020).unwrap();
        let mut said = Vec::new();
        handle(
            ToSearch::Run {
                scenario: Box::new(searched.clone()),
                request: request.clone(),
            },
            &mut |message| said.push(message),
            &|| 0.0,
        );
        let Some(FromSearch::Finished { report, .. }) = said.last() else {
            panic!("no report: {said:?}");
        };
        let Outcome::Found {
            seen_by_ms,
            schedule,
            ..
        } = &report.outcome
        else {
            panic!("nothing found: {}", report.summary);
        };
        assert!(
            schedule.iter().all(|step| step.at_ms >= 1_020),
            "{schedule:?}"
        );
        let goal = request.goal(&searched).unwrap();
        let horizon_ms = request.horizon_ms(&searched);
        let replayed = replay_goal(&searched, schedule, &goal, request.grain_ms, horizon_ms);
        let (_, replay_ms) = replayed.unwrap().expect("it replays to its goal");
        assert_eq!(replay_ms, *seen_by_ms);
    }

    /// What "Play it" opens is an ordinary session of the searched scenario with the found steps, and
    /// played to the end it breaks the same invariant, no later than the search saw it.
    #[test]
    fn the_found_schedule_played_as_a_session_breaks_the_same_invariant() {
        use crate::explore::search::Finished;
        use crate::session::Session;
        use quorumlab_sim::time::SimTime;
        let scenario = example("no-fencing-pause.toml");
        let (searched, _) = lost_update_question().ask(&scenario, &[], 0).unwrap();
        let said = run(&lost_update_question(), "no-fencing-pause.toml");
        let Some(FromSearch::Finished { report, .. }) = said.last() else {
            panic!("no report: {said:?}");
        };
        let Outcome::Found { seen_by_ms, .. } = report.outcome else {
            panic!("nothing found: {}", report.summary);
        };
        let finished = Finished {
            report: (**report).clone(),
            searched,
            request_bounds: (1, 1),
            kinds: Default::default(),
            elapsed_ms: 0.0,
        };
        let played = finished.found_scenario().expect("a schedule to play");
        assert!(played.title.ends_with("(found by the search)"));
        let mut session = Session::new(played).unwrap();
        session.advance_to(SimTime::from_ms(seen_by_ms));
        let first = session
            .violations()
            .iter()
            .find(|violation| violation.invariant == "No Lost Updates")
            .expect("the played run breaks No Lost Updates by the time the search saw it");
        assert!(first.at_ms <= seen_by_ms);
        // Without the found steps the same world keeps the promise over the same stretch.
        let mut calm = Session::new(finished.searched.clone()).unwrap();
        calm.advance_to(SimTime::from_ms(seen_by_ms));
        assert!(calm.violations().is_empty());
    }

    #[test]
    fn the_worker_says_what_is_wrong_with_a_bad_request() {
        let mut question = lost_update_question();
        question.sought = Sought::Invariant(Some("No Such Promise".to_string()));
        let scenario = example("no-fencing-pause.toml");
        assert!(question.ask(&scenario, &[], 0).is_err());
        let (scenario, mut request) = lost_update_question().ask(&scenario, &[], 0).unwrap();
        request.max_depth = 99;
        let mut said = Vec::new();
        handle(
            ToSearch::Run {
                scenario: Box::new(scenario),
                request,
            },
            &mut |message| said.push(message),
            &|| 0.0,
        );
        assert!(
            matches!(said.as_slice(), [FromSearch::Failed { error }] if error.contains("depth")),
            "{said:?}"
        );
    }
}
