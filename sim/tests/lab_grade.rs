//! The grader, proven both ways: our own answers (written in the learner's language) pass every
//! hidden check, and each classic wrong answer fails with the property it must break, the hints for
//! that property, and a counterexample that replays to the same break.

use quorumlab_sim::contract::roles::Roles;
use quorumlab_sim::explore::{explore_prepared, ExploreRequest, Outcome};
use quorumlab_sim::lab::catalogue::WrongAnswer;
use quorumlab_sim::lab::hints::hints;
use quorumlab_sim::lab::verdict::CheckStatus;
use quorumlab_sim::lab::{grade, GradeOptions, RoleKind, ScriptRole};
use quorumlab_sim::runner::ScenarioRun;
use quorumlab_sim::scenario::parse_scenario;
use std::sync::Arc;

fn roles_of(kind: RoleKind, source: &str) -> Roles {
    let role = Arc::new(ScriptRole::new(kind, source).unwrap());
    match kind {
        RoleKind::StoreWrite => Roles {
            store_write: Some(role),
            ..Roles::default()
        },
        RoleKind::Release => Roles {
            release: Some(role),
            ..Roles::default()
        },
        RoleKind::JobGuard => Roles {
            job_guard: Some(role),
            ..Roles::default()
        },
    }
}

#[test]
fn our_own_answers_pass_every_hidden_check() {
    for kind in RoleKind::ALL {
        let script = ScriptRole::new(kind, kind.reference()).unwrap();
        let verdict = grade(script, GradeOptions::default()).unwrap();
        assert!(verdict.passed, "{}: {:#?}", kind.name(), verdict);
        assert_eq!(verdict.script_errors, 0);
        let statuses: Vec<CheckStatus> = verdict.checks.iter().map(|check| check.status).collect();
        // The search never finds anything, and says how far it looked instead of claiming a pass.
        assert_eq!(
            statuses,
            [
                CheckStatus::Held,
                CheckStatus::Held,
                CheckStatus::BoundReached
            ],
            "{}",
            kind.name()
        );
    }
}

/// Grades `wrong` for `kind`: the verdict must name `wrong.breaks` with its hints, and its
/// counterexample, replayed with the same script, must break it again.
fn fails_as_expected(kind: RoleKind, wrong: &WrongAnswer) {
    let script = ScriptRole::new(kind, wrong.source).unwrap();
    let verdict = grade(script, GradeOptions::default()).unwrap();
    assert!(!verdict.passed, "{}", wrong.name);
    let broken = verdict.broken.expect("a broken property");
    assert_eq!(broken.property, wrong.breaks, "{}", wrong.name);
    assert_eq!(broken.hints, hints(kind, wrong.breaks));
    assert!(verdict
        .checks
        .iter()
        .any(|check| check.status == CheckStatus::Broken));
    let text = &broken.counterexample.scenario_toml;
    let scenario =
        parse_scenario(text, "counterexample").expect("the counterexample is a scenario file");
    let mut run = ScenarioRun::new(scenario).unwrap();
    run.world_mut().install_roles(&roles_of(kind, wrong.source));
    run.run_to_end();
    let report = run.world().report();
    if broken.counterexample.seed.is_some() || !broken.check.starts_with("scenario") {
        let count = report
            .violation_counts
            .get(wrong.breaks)
            .copied()
            .unwrap_or(0);
        assert!(
            count > 0,
            "{}: the counterexample replays to {}",
            wrong.name,
            wrong.breaks
        );
    }
}

#[test]
fn the_store_without_a_token_check_breaks_mutual_exclusion() {
    fails_as_expected(
        RoleKind::StoreWrite,
        &RoleKind::StoreWrite.wrong_answers()[0],
    );
}

#[test]
fn the_store_with_less_or_equal_makes_no_progress() {
    fails_as_expected(
        RoleKind::StoreWrite,
        &RoleKind::StoreWrite.wrong_answers()[1],
    );
}

#[test]
fn releasing_without_an_owner_check_breaks_release_by_owner() {
    fails_as_expected(RoleKind::Release, &RoleKind::Release.wrong_answers()[0]);
}

#[test]
fn checking_the_lease_before_a_pause_instead_of_fencing_duplicates_an_invoice() {
    fails_as_expected(RoleKind::JobGuard, &RoleKind::JobGuard.wrong_answers()[0]);
}

#[test]
fn the_stubs_fail() {
    for kind in RoleKind::ALL {
        let verdict = grade(
            ScriptRole::new(kind, kind.stub()).unwrap(),
            GradeOptions::default(),
        )
        .unwrap();
        assert!(!verdict.passed, "{}'s stub should not pass", kind.name());
    }
}

/// The search on its own finds the store without a token check (the grader reaches it only when the
/// scenarios and the sweep found nothing), and never finds our own answer within the same bounds.
#[test]
fn the_search_alone_breaks_the_store_without_a_token_check() {
    let kind = RoleKind::StoreWrite;
    let (file, text) = kind.proving().scenarios[0];
    let scenario = parse_scenario(text, file).unwrap();
    let options = GradeOptions::default();
    let request = ExploreRequest {
        max_states: options.max_states,
        horizon_ms: Some(options.horizon_ms),
        max_shrink_attempts: 60,
        ..ExploreRequest::default()
    };
    let search = |source: &str| {
        let roles = roles_of(kind, source);
        let prepare = |world: &mut quorumlab_sim::world::World| {
            world.install_roles(&roles);
        };
        explore_prepared(&scenario, &request, &prepare, &mut |_| {})
            .unwrap()
            .outcome
    };
    let wrong = search(kind.wrong_answers()[0].source);
    assert!(matches!(wrong, Outcome::Found { .. }), "{wrong:?}");
    let ours = search(kind.reference());
    assert!(matches!(ours, Outcome::BoundReached { .. }), "{ours:?}");
}
