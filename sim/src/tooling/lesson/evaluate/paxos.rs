//! Checkpoints of the Paxos lesson: a value chosen, ballots piling up in a duel, and a value carried
//! forward by the value rule. The counts run from the step's start, so an earlier step's ballots or
//! carried values do not tick a later one.

use super::{counted, Verdict};
use crate::base::time::SimTime;
use crate::engine::world::World;
use crate::protocols::paxos::checker::PaxosChecker;
use crate::protocols::paxos::{ballot_text, value_name, Ballot, Proposer};

fn proposers(world: &World) -> impl Iterator<Item = &Proposer> {
    world
        .nodes()
        .iter()
        .filter_map(|slot| slot.actor.as_proposer())
}

fn ballots(world: &World) -> u64 {
    proposers(world)
        .map(|proposer| proposer.ballots_started)
        .sum()
}

fn carried(world: &World) -> u64 {
    proposers(world)
        .map(|proposer| proposer.carried_forward)
        .sum()
}

/// A ballot as the Paxos card and the narration write it ("27.A"), so a tick and the card beside it
/// use one word and one number for it.
fn ballot_words(world: &World, ballot: Ballot) -> String {
    ballot_text(ballot, &|node| world.node_label(node))
}

pub(super) fn value_chosen(world: &World) -> Verdict {
    match world
        .checkers()
        .world::<PaxosChecker>()
        .and_then(|paxos| paxos.chosen)
    {
        Some(chosen) => Verdict::yes(format!(
            "“{}” is chosen: a majority of acceptors accepted it in ballot {}",
            value_name(chosen.value),
            ballot_words(world, chosen.ballot)
        )),
        None => Verdict::not_yet("no ballot has a majority of acceptances yet".into()),
    }
}

/// Ballots started and values carried forward when the step began.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct PaxosBaseline {
    ballots: u64,
    carried: u64,
    began: SimTime,
    /// Ballots started since the step began, when a chosen value was first seen.
    ballots_when_chosen: Option<u64>,
}

impl PaxosBaseline {
    pub(super) fn begin(world: &World) -> PaxosBaseline {
        PaxosBaseline {
            ballots: ballots(world),
            carried: carried(world),
            began: world.now(),
            ballots_when_chosen: None,
        }
    }

    /// A value chosen after this step began, with at most `limit` ballots started since then, counted
    /// when the choice is first seen (a proposer still running a round then may start one more).
    pub(super) fn value_chosen_within_ballots(&mut self, world: &World, limit: u64) -> Verdict {
        let started = ballots(world).saturating_sub(self.ballots);
        let Some(chosen) = world
            .checkers()
            .world::<PaxosChecker>()
            .and_then(|paxos| paxos.chosen)
        else {
            let text = counted(started, "ballot", "ballots");
            return Verdict::not_yet(if started > limit {
                format!("nothing chosen after {text}: the proposers are duelling; start a fresh run with a remedy")
            } else {
                format!("nothing chosen yet ({text} started since this step began)")
            });
        };
        if chosen.at < self.began {
            return Verdict::not_yet(format!(
                "“{}” was chosen before this step began; only a fresh run can show how a duel ends",
                value_name(chosen.value)
            ));
        }
        let used = *self.ballots_when_chosen.get_or_insert(started);
        let text = counted(used, "ballot", "ballots");
        if used <= limit {
            Verdict::yes(format!(
                "“{}” was chosen in ballot {} after {text}, within the {limit} allowed",
                value_name(chosen.value),
                ballot_words(world, chosen.ballot)
            ))
        } else {
            Verdict::not_yet(format!(
                "“{}” was chosen only after {text}, more than {limit}: the duel ran on; start a fresh run with a remedy",
                value_name(chosen.value)
            ))
        }
    }

    pub(super) fn ballots_at_least(&self, world: &World, wanted: u64) -> Verdict {
        // A proposer that crashes keeps its count (it is the round it must never reuse), so this
        // never goes down.
        let started = ballots(world).saturating_sub(self.ballots);
        let text = format!(
            "{} started since this step began",
            counted(started, "ballot", "ballots")
        );
        if started >= wanted {
            Verdict::yes(text)
        } else {
            Verdict::not_yet(text)
        }
    }

    pub(super) fn value_carried_forward(&self, world: &World) -> Verdict {
        match carried(world).saturating_sub(self.carried) {
            0 => Verdict::not_yet("every proposal so far was the proposer's own value".into()),
            times => Verdict::yes(format!(
                "a promise carried an accepted value into a new ballot {}",
                counted(times, "time", "times")
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::watch_until_met;
    use crate::tooling::lesson::Checkpoint;

    const DUEL: &str = include_str!("../../../../scenarios/paxos-duel.toml");
    const FORGETFUL: &str = include_str!("../../../../scenarios/paxos-forgetful-acceptor.toml");
    const PROPOSER_CRASH: &str = include_str!("../../../../scenarios/paxos-proposer-crash.toml");

    fn watch(text: &str, checkpoint: Checkpoint, begin_ms: u64, until_ms: u64) -> (bool, String) {
        let (met_at, verdict) = watch_until_met(text, checkpoint, begin_ms, until_ms);
        (met_at.is_some(), verdict.explanation)
    }

    #[test]
    fn a_duel_chooses_nothing_for_a_while_and_a_remedy_chooses_at_once() {
        let (met, why) = watch(DUEL, Checkpoint::ValueChosen, 0, 300);
        assert!(!met, "{why}");
        assert_eq!(why, "no ballot has a majority of acceptances yet");
        let backoff = DUEL.replace("remedy = \"none\"", "remedy = \"backoff\"");
        assert_ne!(backoff, DUEL);
        let (met, why) = watch(&backoff, Checkpoint::ValueChosen, 0, 300);
        assert!(met, "{why}");
        assert!(why.contains("is chosen: a majority of acceptors"), "{why}");
        // The ballot as the Paxos card writes it, round and proposer: never "round" alone.
        let ballot = why.rsplit("in ballot ").next().expect("a ballot");
        let (round, proposer) = ballot.split_once('.').expect("round.proposer");
        assert!(round.parse::<u64>().is_ok(), "{why}");
        assert!(["A", "B", "C"].contains(&proposer), "{why}");
        assert!(!why.contains("round"), "{why}");
    }

    #[test]
    fn a_remedy_chooses_within_a_few_ballots_and_a_duel_does_not() {
        let (met, why) = watch(DUEL, Checkpoint::ValueChosenWithinBallots(6), 0, 1_000);
        assert!(!met, "{why}");
        assert!(why.contains(", more than 6: the duel ran on"), "{why}");
        for remedy in ["backoff", "leader"] {
            let calm = DUEL.replace("remedy = \"none\"", &format!("remedy = \"{remedy}\""));
            let (met, why) = watch(&calm, Checkpoint::ValueChosenWithinBallots(6), 0, 1_000);
            assert!(met, "{remedy}: {why}");
            assert!(why.contains("within the 6 allowed"), "{why}");
        }
    }

    #[test]
    fn duelling_proposers_pile_up_ballots_and_a_distinguished_one_does_not() {
        let (met, why) = watch(DUEL, Checkpoint::BallotsAtLeast(20), 0, 500);
        assert!(met, "{why}");
        let leader = DUEL.replace("remedy = \"none\"", "remedy = \"leader\"");
        let (met, why) = watch(&leader, Checkpoint::BallotsAtLeast(3), 0, 250);
        assert!(!met, "{why}");
        assert_eq!(why, "0 ballots started since this step began");
    }

    #[test]
    fn a_forgetful_acceptor_lets_a_second_value_be_chosen_and_a_durable_one_does_not() {
        let (met, why) = watch(FORGETFUL, Checkpoint::TwoValuesChosen, 0, 1500);
        assert!(met, "{why}");
        assert!(why.contains("“banana” is chosen in round"), "{why}");
        let durable = FORGETFUL.replace("durable_acceptors = false", "durable_acceptors = true");
        let (met, why) = watch(&durable, Checkpoint::TwoValuesChosen, 0, 1500);
        assert!(!met, "{why}");
        assert_eq!(why, "no second value has been chosen");
    }

    #[test]
    fn a_rival_carries_the_crashed_proposers_value_and_a_lone_proposer_carries_none() {
        let (met, why) = watch(PROPOSER_CRASH, Checkpoint::ValueCarriedForward, 0, 1500);
        assert!(met, "{why}");
        let lone = DUEL.replace("workers = 3", "workers = 1");
        let (met, why) = watch(&lone, Checkpoint::ValueCarriedForward, 0, 1000);
        assert!(!met, "{why}");
        assert_eq!(why, "every proposal so far was the proposer's own value");
    }
}
