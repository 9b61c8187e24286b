//! Checkpoint tests that span modules: the two-clients-believe overlap as lesson 5 sees it.

use super::test_support::watch_until_met;
use crate::tooling::lesson::Checkpoint;

const NO_FENCING: &str = include_str!("../../../../scenarios/no-fencing-pause.toml");
const REDIS: &str = include_str!("../../../../scenarios/redis-unsafe-release.toml");

/// Lesson 5: the frozen holder still believes, past its validity; the verdict says so, and why
/// Exclusive Belief (which counts beliefs within their validity) stays green.
#[test]
fn a_frozen_holder_past_its_validity_is_named_so() {
    let (met, verdict) =
        watch_until_met(REDIS, Checkpoint::TwoClientsBelieveTheyHoldLock, 0, 4_000);
    assert!(met.is_some(), "{}", verdict.explanation);
    assert!(
        verdict
            .explanation
            .contains("its time already up by its own clock"),
        "{}",
        verdict.explanation
    );
    assert!(
        verdict.explanation.contains("Exclusive Belief"),
        "{}",
        verdict.explanation
    );
}

/// Lesson 5 step 3 ticked by itself: the overlap step 2 left behind counted. It must not.
#[test]
fn an_overlap_left_from_the_step_before_does_not_count() {
    let believe = || Checkpoint::TwoClientsBelieveTheyHoldLock;
    let (first_ms, _) = watch_until_met(NO_FENCING, believe(), 0, 6_000);
    let first_ms = first_ms.expect("the paused holder and the new one overlap");
    let (met, verdict) = watch_until_met(NO_FENCING, believe(), first_ms, first_ms + 100);
    assert_eq!(met, None, "begun inside the overlap, the step waits");
    assert!(
        verdict.explanation.contains("still overlap"),
        "{}",
        verdict.explanation
    );
    let (met_before, _) =
        watch_until_met(NO_FENCING, believe(), first_ms.saturating_sub(200), 6_000);
    assert!(
        met_before.is_some(),
        "an overlap that begins during the step still counts"
    );
}
