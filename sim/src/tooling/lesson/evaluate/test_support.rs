//! Test support for the checkpoint modules: play a scenario text and watch one checkpoint the way a
//! lesson run does (every 5 ms of simulated time).

use super::{CheckpointEvaluator, Verdict};
use crate::base::time::SimTime;
use crate::tooling::lesson::Checkpoint;
use crate::tooling::runner::ScenarioRun;
use crate::tooling::scenario::fields::NodeNames;
use crate::tooling::scenario::parse_scenario;

/// Runs `text` to `begin_ms`, then checks `checkpoint` every 5 ms until it is met or `until_ms` is
/// reached. Returns when it was met (`None`: never) and the last verdict.
pub(super) fn watch_until_met(
    text: &str,
    checkpoint: Checkpoint,
    begin_ms: u64,
    until_ms: u64,
) -> (Option<u64>, Verdict) {
    let scenario = parse_scenario(text, "test.toml").expect("test scenario parses");
    let mut run = ScenarioRun::new(scenario).expect("test scenario builds");
    run.advance_to(SimTime::from_ms(begin_ms));
    let mut evaluator = CheckpointEvaluator::begin(checkpoint, run.world());
    let mut verdict = evaluator.check(run.world());
    let mut ms = begin_ms;
    while !verdict.satisfied && ms < until_ms {
        ms += 5;
        run.advance_to(SimTime::from_ms(ms));
        verdict = evaluator.check(run.world());
    }
    (verdict.satisfied.then_some(ms), verdict)
}

/// Plays `text` as [`watch_until_met`] does and fails the test unless `checkpoint` ticks by
/// `until_ms`. Returns the verdict's explanation, for the test to check its words.
pub(super) fn explanation_when_met(
    text: &str,
    checkpoint: Checkpoint,
    begin_ms: u64,
    until_ms: u64,
) -> String {
    let (met, verdict) = watch_until_met(text, checkpoint, begin_ms, until_ms);
    assert!(met.is_some(), "never met: {}", verdict.explanation);
    verdict.explanation
}

/// The look-alike's half: fails the test if `checkpoint` ticks by `until_ms`. Returns the last
/// verdict's explanation, which should say why it did not count.
pub(super) fn explanation_when_never_met(
    text: &str,
    checkpoint: Checkpoint,
    begin_ms: u64,
    until_ms: u64,
) -> String {
    let (met, verdict) = watch_until_met(text, checkpoint, begin_ms, until_ms);
    assert_eq!(met, None, "met at {met:?} ms: {}", verdict.explanation);
    verdict.explanation
}

/// The label of the server leading after `text` ran to `at_ms` ("nobody" when none does).
pub(super) fn leader_at(text: &str, at_ms: u64) -> String {
    let scenario = parse_scenario(text, "test.toml").expect("test scenario parses");
    let mut run = ScenarioRun::new(scenario).expect("test scenario builds");
    run.advance_to(SimTime::from_ms(at_ms));
    run.world()
        .current_leader()
        .map_or("nobody".into(), |leader| run.world().node_label(leader))
}

/// `text` with one scripted step appended: `action` is the TOML after `do = `, e.g.
/// `"crash"\ntarget = "leader"`.
pub(super) fn with_step(text: &str, at_ms: u64, action: &str) -> String {
    format!("{text}\n[[step]]\nat_ms = {at_ms}\ndo = {action}\n")
}

/// Plays `text` as [`watch_until_met`] does, watching the checkpoint written `checkpoint` (a world's
/// own, say `value_chosen`, as a lesson file names it). Returns whether it was met and the last
/// explanation.
pub(crate) fn watch_named(
    text: &str,
    checkpoint: &str,
    begin_ms: u64,
    until_ms: u64,
) -> (bool, String) {
    let (met_at, verdict) = watch_named_until(text, checkpoint, begin_ms, until_ms);
    (met_at.is_some(), verdict.explanation)
}

/// [`watch_until_met`] for the checkpoint written `checkpoint`.
pub(crate) fn watch_named_until(
    text: &str,
    checkpoint: &str,
    begin_ms: u64,
    until_ms: u64,
) -> (Option<u64>, Verdict) {
    watch_until_met(text, named(checkpoint), begin_ms, until_ms)
}

/// The checkpoint written `text`, in a world of nine servers and no other actors.
pub(crate) fn named(text: &str) -> Checkpoint {
    let names = NodeNames {
        servers: 9,
        extra: Vec::new(),
    };
    crate::tooling::lesson::checkpoint::parse_checkpoint(text, &names)
        .unwrap_or_else(|error| panic!("{text}: {error}"))
}
