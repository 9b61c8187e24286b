//! The Paxos world's lesson checkpoints: a value chosen, a second value chosen (Agreement broken),
//! ballots piling up in a duel, a duel ended within a few ballots, and a value carried forward by the
//! value rule. The counts run from the step's start, so an earlier step's ballots or carried values do
//! not tick a later one.

use super::checker::{Chosen, PaxosChecker};
use super::{ballot_text, value_name, Ballot, Proposer};
use crate::base::time::SimTime;
use crate::contract::checkpoint::{
    counted, Argument, CheckpointSpec, CheckpointWatch, ClonedWatch, Verdict,
};
use crate::contract::entry::invariants::AGREEMENT;
use crate::contract::world_read::{actors_of, WorldRead};

/// The checkpoints, in the order lesson hints offer them.
pub const CHECKPOINTS: &[CheckpointSpec] = &[
    CheckpointSpec {
        name: "value_chosen",
        argument: Argument::None,
        begin: |_, world| begin(world, Wanted::ValueChosen),
    },
    CheckpointSpec {
        name: "two_values_chosen",
        argument: Argument::None,
        begin: |_, world| begin(world, Wanted::TwoValuesChosen),
    },
    CheckpointSpec {
        name: "ballots_at_least",
        argument: Argument::Number,
        begin: |wanted, world| begin(world, Wanted::BallotsAtLeast(wanted)),
    },
    CheckpointSpec {
        name: "value_carried_forward",
        argument: Argument::None,
        begin: |_, world| begin(world, Wanted::ValueCarriedForward),
    },
    CheckpointSpec {
        name: "value_chosen_within_ballots",
        argument: Argument::Number,
        begin: |limit, world| begin(world, Wanted::ValueChosenWithinBallots(limit)),
    },
];

#[derive(Clone, Copy, Debug, Hash)]
enum Wanted {
    ValueChosen,
    TwoValuesChosen,
    BallotsAtLeast(u64),
    ValueCarriedForward,
    ValueChosenWithinBallots(u64),
}

/// Ballots, carried values and Agreement violations when the step began.
#[derive(Clone, Copy, Debug, Hash)]
struct PaxosWatch {
    wanted: Wanted,
    ballots: u64,
    carried: u64,
    disagreements: u64,
    began: SimTime,
    /// Ballots started since the step began, when a chosen value was first seen.
    ballots_when_chosen: Option<u64>,
}

fn begin(world: &dyn WorldRead, wanted: Wanted) -> Box<dyn CheckpointWatch> {
    Box::new(PaxosWatch {
        wanted,
        ballots: ballots(world),
        carried: carried(world),
        disagreements: world.violation_count(AGREEMENT),
        began: world.now(),
        ballots_when_chosen: None,
    })
}

impl ClonedWatch for PaxosWatch {
    fn check(&mut self, world: &dyn WorldRead) -> Verdict {
        match self.wanted {
            Wanted::ValueChosen => value_chosen(world),
            Wanted::TwoValuesChosen => self.two_values_chosen(world),
            Wanted::BallotsAtLeast(wanted) => self.ballots_at_least(world, wanted),
            Wanted::ValueCarriedForward => self.value_carried_forward(world),
            Wanted::ValueChosenWithinBallots(limit) => {
                self.value_chosen_within_ballots(world, limit)
            }
        }
    }
}

fn proposers(world: &dyn WorldRead) -> impl Iterator<Item = &Proposer> {
    actors_of::<Proposer>(world).map(|(_, proposer)| proposer)
}

fn ballots(world: &dyn WorldRead) -> u64 {
    proposers(world)
        .map(|proposer| proposer.ballots_started)
        .sum()
}

fn carried(world: &dyn WorldRead) -> u64 {
    proposers(world)
        .map(|proposer| proposer.carried_forward)
        .sum()
}

fn chosen(world: &dyn WorldRead) -> Option<Chosen> {
    world
        .world_checker()?
        .downcast_ref::<PaxosChecker>()?
        .chosen
}

/// A ballot as the Paxos card and the narration write it ("27.A"), so a tick and the card beside it
/// use one word and one number for it.
fn ballot_words(world: &dyn WorldRead, ballot: Ballot) -> String {
    ballot_text(ballot, &|node| world.label(node))
}

fn value_chosen(world: &dyn WorldRead) -> Verdict {
    match chosen(world) {
        Some(chosen) => Verdict::yes(format!(
            "“{}” is chosen: a majority of acceptors accepted it in ballot {}",
            value_name(chosen.value),
            ballot_words(world, chosen.ballot)
        )),
        None => Verdict::not_yet("no ballot has a majority of acceptances yet".into()),
    }
}

impl PaxosWatch {
    fn two_values_chosen(&self, world: &dyn WorldRead) -> Verdict {
        match world
            .violation_count(AGREEMENT)
            .saturating_sub(self.disagreements)
        {
            0 => Verdict::not_yet("no second value has been chosen".into()),
            _ => Verdict::yes(
                world
                    .latest_violation(AGREEMENT)
                    .unwrap_or_else(|| AGREEMENT.to_string()),
            ),
        }
    }

    /// A value chosen after this step began, with at most `limit` ballots started since then, counted
    /// when the choice is first seen (a proposer still running a round then may start one more).
    fn value_chosen_within_ballots(&mut self, world: &dyn WorldRead, limit: u64) -> Verdict {
        let started = ballots(world).saturating_sub(self.ballots);
        let Some(chosen) = chosen(world) else {
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

    fn ballots_at_least(&self, world: &dyn WorldRead, wanted: u64) -> Verdict {
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

    fn value_carried_forward(&self, world: &dyn WorldRead) -> Verdict {
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
    use crate::tooling::lesson::test_support::watch_named;

    const DUEL: &str = include_str!("../../../scenarios/paxos-duel.toml");
    const FORGETFUL: &str = include_str!("../../../scenarios/paxos-forgetful-acceptor.toml");
    const PROPOSER_CRASH: &str = include_str!("../../../scenarios/paxos-proposer-crash.toml");

    #[test]
    fn a_duel_chooses_nothing_for_a_while_and_a_remedy_chooses_at_once() {
        let (met, why) = watch_named(DUEL, "value_chosen", 0, 300);
        assert!(!met, "{why}");
        assert_eq!(why, "no ballot has a majority of acceptances yet");
        let backoff = DUEL.replace("remedy = \"none\"", "remedy = \"backoff\"");
        assert_ne!(backoff, DUEL);
        let (met, why) = watch_named(&backoff, "value_chosen", 0, 300);
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
        let (met, why) = watch_named(DUEL, "value_chosen_within_ballots(6)", 0, 1_000);
        assert!(!met, "{why}");
        assert!(why.contains(", more than 6: the duel ran on"), "{why}");
        for remedy in ["backoff", "leader"] {
            let calm = DUEL.replace("remedy = \"none\"", &format!("remedy = \"{remedy}\""));
            let (met, why) = watch_named(&calm, "value_chosen_within_ballots(6)", 0, 1_000);
            assert!(met, "{remedy}: {why}");
            assert!(why.contains("within the 6 allowed"), "{why}");
        }
    }

    #[test]
    fn duelling_proposers_pile_up_ballots_and_a_distinguished_one_does_not() {
        let (met, why) = watch_named(DUEL, "ballots_at_least(20)", 0, 500);
        assert!(met, "{why}");
        let leader = DUEL.replace("remedy = \"none\"", "remedy = \"leader\"");
        let (met, why) = watch_named(&leader, "ballots_at_least(3)", 0, 250);
        assert!(!met, "{why}");
        assert_eq!(why, "0 ballots started since this step began");
    }

    #[test]
    fn a_forgetful_acceptor_lets_a_second_value_be_chosen_and_a_durable_one_does_not() {
        let (met, why) = watch_named(FORGETFUL, "two_values_chosen", 0, 1500);
        assert!(met, "{why}");
        assert!(why.contains("“banana” is chosen in round"), "{why}");
        let durable = FORGETFUL.replace("durable_acceptors = false", "durable_acceptors = true");
        let (met, why) = watch_named(&durable, "two_values_chosen", 0, 1500);
        assert!(!met, "{why}");
        assert_eq!(why, "no second value has been chosen");
    }

    #[test]
    fn a_rival_carries_the_crashed_proposers_value_and_a_lone_proposer_carries_none() {
        let (met, why) = watch_named(PROPOSER_CRASH, "value_carried_forward", 0, 1500);
        assert!(met, "{why}");
        let lone = DUEL.replace("workers = 3", "workers = 1");
        let (met, why) = watch_named(&lone, "value_carried_forward", 0, 1000);
        assert!(!met, "{why}");
        assert_eq!(why, "every proposal so far was the proposer's own value");
    }
}
