//! Checkpoint tests that span modules: the two-clients-believe overlap as lesson 5 sees it, and the
//! plain node and network checkpoints against their look-alikes.

use super::test_support::{explanation_when_never_met, watch_until_met, with_step};
use crate::contract::action::NodeTarget;
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

const CALM: &str = include_str!("../../../../../lessons/scenarios/calm-five.toml");

/// A paused leader is not a crashed one, and a crashed one is not paused.
#[test]
fn a_pause_is_not_a_crash_and_a_crash_is_not_a_pause() {
    let crashed = Checkpoint::NodeCrashed(NodeTarget::Leader);
    let paused = Checkpoint::NodePaused(Some(NodeTarget::Leader));
    let pause = with_step(CALM, 1_100, "\"pause\"\ntarget = \"leader\"");
    let crash = with_step(CALM, 1_100, "\"crash\"\ntarget = \"leader\"");
    assert!(watch_until_met(&pause, paused.clone(), 1_000, 2_000)
        .0
        .is_some());
    assert!(watch_until_met(&crash, crashed.clone(), 1_000, 2_000)
        .0
        .is_some());
    let (met, verdict) = watch_until_met(&pause, crashed, 1_000, 2_000);
    assert_eq!(met, None, "{}", verdict.explanation);
    assert!(
        verdict.explanation.ends_with("is paused"),
        "{}",
        verdict.explanation
    );
    let (met, verdict) = watch_until_met(&crash, paused, 1_000, 2_000);
    assert_eq!(met, None, "{}", verdict.explanation);
}

/// A slow or lossy link still carries messages: only a cut one counts as a partition.
#[test]
fn a_slow_or_lossy_link_is_not_a_cut() {
    let slow = with_step(
        CALM,
        1_100,
        "\"link\"\nbetween = [\"n1\", \"n2\"]\ndelay_ms = [500, 500]\ndrop_rate = 0.5",
    );
    explanation_when_never_met(&slow, Checkpoint::Partitioned, 1_000, 2_000);
    let cut = with_step(CALM, 1_100, "\"isolate\"\ntarget = \"n2\"");
    assert!(watch_until_met(&cut, Checkpoint::Partitioned, 1_000, 2_000)
        .0
        .is_some());
}
