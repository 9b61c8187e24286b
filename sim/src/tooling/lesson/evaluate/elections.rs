//! Raft elections read off the trace since the step began: who campaigned in each term, whose votes
//! they got, and who won. Three checkpoints use it. `leader_changed` says how long the cluster went
//! without a leader, how many rounds of voting that took and how many votes a majority is, so a learner
//! can compare a large cluster with a small one. `crashed_leader_replaced` is the same, but only after
//! the old leader crashed: a leader pushed out by a returning server's higher term is not the failover
//! a "crash the leader" step teaches. `split_vote` waits for a term in which two or more
//! candidates campaigned and none won, followed by a later term that did elect a leader.
//!
//! Only what the trace gained since the last call is read. A record the trace already forgot cannot be
//! read and is skipped; a shorter trace than last time means the run was rewound, and the watch starts
//! again from there.

use super::{counted, Verdict};
use crate::base::ids::NodeId;
use crate::base::time::SimTime;
use crate::base::units::Term;
use crate::contract::protocol::{RaftFact, VoteVerdict};
use crate::engine::trace::TraceEvent;
use crate::engine::world::{NodeStatus, World};
use crate::worlds::actor::Fact;
use std::collections::{BTreeMap, BTreeSet};

/// One term's election as the trace told it.
#[derive(Clone, Debug, Default)]
struct TermElection {
    /// Who campaigned, in the order they did.
    candidates: Vec<NodeId>,
    /// When the first of them campaigned, in µs.
    first_campaign_us: Option<u64>,
    /// Per candidate, the servers that granted it their vote (its own vote is not among them).
    granted_by: BTreeMap<NodeId, BTreeSet<NodeId>>,
    /// The winner, the votes it had when it won, the voters counted, and when, in µs.
    winner: Option<(NodeId, u32, u32, u64)>,
}

impl TermElection {
    /// Votes the candidate holds: its own, and those granted to it.
    fn votes_for(&self, candidate: NodeId) -> usize {
        1 + self.granted_by.get(&candidate).map_or(0, BTreeSet::len)
    }

    fn split(&self) -> bool {
        self.candidates.len() >= 2 && self.winner.is_none()
    }
}

/// What the election checkpoints remember between checks.
#[derive(Clone, Debug, Default)]
pub(super) struct ElectionWatch {
    records_read: u64,
    terms: BTreeMap<Term, TermElection>,
    /// The first election won since the step began: the step's leader when it began with none.
    first_winner: Option<(NodeId, Term)>,
    /// When a check first found the step's leader no longer leading (cleared if it leads again).
    leader_lost_at: Option<SimTime>,
    /// `crashed_leader_replaced`: the leader watched (the step's, or the one after a miss), whether
    /// it was seen crashed, and why the one before it did not count.
    watched: Option<(NodeId, Term)>,
    watched_crashed: bool,
    missed: Option<String>,
}

impl ElectionWatch {
    /// A watch that reads only what the trace records from now on.
    pub(super) fn begin(world: &World) -> ElectionWatch {
        ElectionWatch {
            records_read: world.trace().total(),
            ..ElectionWatch::default()
        }
    }

    fn catch_up(&mut self, world: &World) {
        let trace = world.trace();
        if trace.total() < self.records_read {
            *self = ElectionWatch::begin(world);
            return;
        }
        let skip = self.records_read.saturating_sub(trace.dropped_records()) as usize;
        self.records_read = trace.total();
        for record in trace.records().skip(skip) {
            if let TraceEvent::Observe {
                node,
                fact: Fact::Raft(fact),
            } = &record.event
            {
                self.note(*node, fact, record.at_us);
            }
        }
    }

    fn note(&mut self, node: NodeId, fact: &RaftFact, at_us: u64) {
        match *fact {
            RaftFact::BecameCandidate { term } => {
                let election = self.terms.entry(term).or_default();
                election.candidates.push(node);
                election.first_campaign_us.get_or_insert(at_us);
            }
            RaftFact::VoteCast {
                candidate,
                term,
                pre_vote: false,
                verdict: VoteVerdict::Granted,
            } => {
                let election = self.terms.entry(term).or_default();
                election
                    .granted_by
                    .entry(candidate)
                    .or_default()
                    .insert(node);
            }
            RaftFact::BecameLeader {
                term,
                votes,
                cluster,
            } => {
                self.first_winner.get_or_insert((node, term));
                let election = self.terms.entry(term).or_default();
                election.winner = Some((node, votes, cluster, at_us));
            }
            _ => {}
        }
    }

    /// The first server to win an election since the step began, read off the trace, so that a step
    /// begun without a leader knows its leader however seldom it is checked.
    pub(super) fn first_winner(&mut self, world: &World) -> Option<(NodeId, Term)> {
        self.catch_up(world);
        self.first_winner
    }

    /// A leader in a higher term than the step's starting one; the verdict tells how long the cluster
    /// had none, how many rounds the vote took and what a majority is.
    pub(super) fn leader_changed(
        &mut self,
        world: &World,
        start_leader: Option<(NodeId, Term)>,
        leader: Option<(NodeId, Term)>,
    ) -> Verdict {
        self.catch_up(world);
        if leader == start_leader {
            self.leader_lost_at = None;
        } else if start_leader.is_some() {
            self.leader_lost_at.get_or_insert(world.now());
        }
        match (start_leader, leader) {
            (None, _) => Verdict::not_yet("no leader has been seen yet".into()),
            (Some(_), None) => Verdict::not_yet("there is no leader at the moment".into()),
            (Some((old, old_term)), Some((new, term))) if term > old_term => Verdict::yes(format!(
                "{} leads in term {term}; {} led in term {old_term}{}",
                world.node_label(new),
                world.node_label(old),
                self.election_story(old_term, term)
            )),
            (Some(_), Some((same, term))) => Verdict::not_yet(format!(
                "{} still leads in term {term}",
                world.node_label(same)
            )),
        }
    }

    /// A leader in a later term after the watched leader *crashed*; a leader pushed out by a later
    /// term (a cut-off server returning with a higher one) does not count, and the watch moves on to
    /// the new leader so the learner can crash that one.
    pub(super) fn crashed_leader_replaced(
        &mut self,
        world: &World,
        start_leader: Option<(NodeId, Term)>,
        leader: Option<(NodeId, Term)>,
    ) -> Verdict {
        if self.watched.is_none() {
            self.watched = start_leader;
        }
        let Some((old, _)) = self.watched else {
            return Verdict::not_yet("no leader has been seen yet".into());
        };
        self.watched_crashed |= world.nodes()[old.index()].status == NodeStatus::Crashed;
        let verdict = self.leader_changed(world, self.watched, leader);
        if verdict.satisfied && self.watched_crashed {
            return verdict;
        }
        if !verdict.satisfied {
            let said = if self.watched_crashed {
                verdict.explanation
            } else {
                format!("{}; crash it", verdict.explanation)
            };
            return Verdict::not_yet(match &self.missed {
                Some(missed) => format!("{missed}; {said}"),
                None => said,
            });
        }
        let new = leader.map_or(String::new(), |(node, _)| world.node_label(node));
        let why = format!(
            "{new} took over, but {} never crashed: a later term pushed it out",
            world.node_label(old)
        );
        self.watched = leader;
        self.watched_crashed = false;
        self.leader_lost_at = None;
        self.missed = Some(why.clone());
        Verdict::not_yet(format!("{why}; now crash {new}"))
    }

    /// "It collected the 26 votes a majority of 51 needs in round 3 of voting (2 split); the cluster
    /// had no leader for 476 ms", or nothing when the trace no longer holds the win.
    fn election_story(&self, old_term: Term, term: Term) -> String {
        let Some((_, votes, cluster, won_us)) = self.terms.get(&term).and_then(|e| e.winner) else {
            return String::new();
        };
        let rounds: Vec<&TermElection> = self
            .terms
            .range(old_term.next()..=term)
            .map(|(_, election)| election)
            .filter(|election| !election.candidates.is_empty())
            .collect();
        let rounds_text = match rounds.len() {
            0 | 1 => "in the first round of voting".to_string(),
            count => format!(
                "in round {count} of voting ({} split before it)",
                counted(
                    rounds.iter().filter(|round| round.split()).count() as u64,
                    "was",
                    "were"
                )
            ),
        };
        let mut story =
            format!(". It collected the {votes} votes a majority of {cluster} needs {rounds_text}");
        if let Some(lost) = self
            .leader_lost_at
            .filter(|lost| lost.as_micros() <= won_us)
        {
            let gap_ms = (won_us - lost.as_micros()) / 1_000;
            story.push_str(&format!(
                "; the cluster had no leader for about {gap_ms} ms"
            ));
        }
        story
    }

    /// Met once a term since the step began had two or more candidates and no winner, and a later
    /// term elected a leader.
    pub(super) fn split_vote(&mut self, world: &World) -> Verdict {
        self.catch_up(world);
        let majority = super::server_count(world) / 2 + 1;
        let split = self.terms.iter().find(|(_, election)| election.split());
        let Some((&split_term, election)) = split else {
            return self.no_split_yet(world);
        };
        let tally = self.tally(world, election);
        let later_winner = self
            .terms
            .range(split_term.next()..)
            .find_map(|(term, later)| Some((*term, later.winner?)));
        match later_winner {
            Some((term, (winner, votes, _, _))) => Verdict::yes(format!(
                "in term {split_term} the vote split ({tally}): none reached the {majority} a \
                 majority needs, so the term ended without a leader; after {}, {} won term {term} \
                 with {votes} votes",
                counted(self.split_terms_before(term), "split term", "split terms"),
                world.node_label(winner)
            )),
            None => Verdict::not_yet(format!(
                "the vote split in term {split_term} ({tally}), none reaching {majority}; waiting \
                 for a later term to elect a leader"
            )),
        }
    }

    fn split_terms_before(&self, term: Term) -> u64 {
        let terms = self.terms.range(..term).map(|(_, election)| election);
        terms.filter(|election| election.split()).count() as u64
    }

    /// "n2 2 votes, n4 2 votes".
    fn tally(&self, world: &World, election: &TermElection) -> String {
        election
            .candidates
            .iter()
            .map(|candidate| {
                let votes = election.votes_for(*candidate) as u64;
                format!(
                    "{} {}",
                    world.node_label(*candidate),
                    counted(votes, "vote", "votes")
                )
            })
            .collect::<Vec<_>>()
            .join(", ")
    }

    fn no_split_yet(&self, world: &World) -> Verdict {
        let clean_win = self.terms.iter().rev().find_map(|(term, election)| {
            let (winner, ..) = election.winner?;
            (election.candidates.len() <= 1).then_some((*term, winner))
        });
        match clean_win {
            Some((term, winner)) => Verdict::not_yet(format!(
                "{} campaigned alone in term {term} and won: its timer ran out before anyone \
                 else's, so the vote never split; take the leader away again",
                world.node_label(winner)
            )),
            None if self.terms.is_empty() => {
                Verdict::not_yet("nobody has campaigned since this step began".into())
            }
            None => Verdict::not_yet("no term since this step began has had its vote split".into()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::{
        explanation_when_met, explanation_when_never_met, leader_at, watch_until_met, with_step,
    };
    use crate::tooling::lesson::Checkpoint;

    const NARROW: &str = include_str!("../../../../../lessons/scenarios/split-vote-calm.toml");
    const FIFTY_ONE: &str = include_str!("../../../../../lessons/scenarios/fifty-one-calm.toml");
    const CALM: &str = include_str!("../../../../../lessons/scenarios/calm-five.toml");

    fn crash_leader_at(scenario: &str, at_ms: u64) -> String {
        format!("{scenario}\n[[step]]\nat_ms = {at_ms}\ndo = \"crash\"\ntarget = \"leader\"\n")
    }

    /// With timers 150–160 ms, the four followers left campaign within a few ms of each other.
    #[test]
    fn near_equal_timers_split_the_vote_after_the_leader_crashes() {
        let text = crash_leader_at(NARROW, 1_100);
        let explanation = explanation_when_met(&text, Checkpoint::SplitVote, 1_000, 3_000);
        assert!(
            explanation.contains("the vote split")
                && explanation.contains("split terms, n3 won term 9"),
            "{}",
            explanation
        );
    }

    #[test]
    fn a_calm_cluster_never_splits_a_vote() {
        let explanation = explanation_when_never_met(NARROW, Checkpoint::SplitVote, 1_000, 4_000);
        assert_eq!(explanation, "nobody has campaigned since this step began");
    }

    /// Wide timers: the first follower to time out wins before anyone else campaigns.
    #[test]
    fn a_single_candidate_that_wins_is_not_a_split() {
        let text = crash_leader_at(CALM, 1_100);
        let explanation = explanation_when_never_met(&text, Checkpoint::SplitVote, 1_000, 3_000);
        assert!(explanation.contains("campaigned alone"), "{}", explanation);
    }

    #[test]
    fn a_new_leader_in_fifty_one_nodes_names_the_majority_and_the_gap() {
        let text = crash_leader_at(FIFTY_ONE, 1_100).replace("60000", "3000");
        let explanation = explanation_when_met(&text, Checkpoint::LeaderChanged, 1_000, 3_000);
        let text = explanation;
        assert!(
            text.contains("the 26 votes a majority of 51 needs"),
            "{text}"
        );
        assert!(text.contains("round 3 of voting (2 were split"), "{text}");
        assert!(text.contains("no leader for about 4"), "{text}");
    }

    /// Lesson 7's last step: the leader of 51 crashes and another takes over.
    #[test]
    fn a_crashed_leader_of_fifty_one_is_replaced() {
        let text = crash_leader_at(FIFTY_ONE, 1_100).replace("60000", "3000");
        let explanation =
            explanation_when_met(&text, Checkpoint::CrashedLeaderReplaced, 1_000, 3_000);
        assert!(
            explanation.contains("a majority of 51 needs"),
            "{}",
            explanation
        );
    }

    /// The look-alike of the issue: a follower cut off long enough to raise its term comes back and
    /// pushes the healthy leader out. The leader changed, but nobody crashed.
    fn returning_follower(scenario: &str) -> String {
        let follower = if leader_at(scenario, 1_100) == "n1" {
            "n2"
        } else {
            "n1"
        };
        let isolate = format!("\"isolate\"\ntarget = \"{follower}\"");
        with_step(&with_step(scenario, 1_100, &isolate), 2_600, "\"heal\"")
    }

    #[test]
    fn a_leader_pushed_out_by_a_returning_term_did_not_crash() {
        for scenario in [CALM.to_string(), FIFTY_ONE.replace("60000", "5000")] {
            let text = returning_follower(&scenario);
            let (changed, _) = watch_until_met(&text, Checkpoint::LeaderChanged, 1_000, 5_000);
            assert!(
                changed.is_some(),
                "the look-alike ticks the plain checkpoint"
            );
            let explanation =
                explanation_when_never_met(&text, Checkpoint::CrashedLeaderReplaced, 1_000, 5_000);
            assert!(explanation.contains("never crashed"), "{}", explanation);
        }
    }

    /// After such a miss the watch follows the new leader: crashing it then counts.
    #[test]
    fn after_a_miss_crashing_the_new_leader_counts() {
        let text = crash_leader_at(&returning_follower(CALM), 4_000);
        let (met, verdict) =
            watch_until_met(&text, Checkpoint::CrashedLeaderReplaced, 1_000, 6_000);
        assert!(
            met.is_some_and(|ms| ms > 4_000),
            "{met:?}: {}",
            verdict.explanation
        );
    }

    /// A step begun with no leader takes the first election won after it as its leader, read off
    /// the trace, however late the first check comes: a scripted run checks only after its actions.
    #[test]
    fn a_step_begun_without_a_leader_judges_against_the_first_one_elected() {
        use crate::base::time::SimTime;
        use crate::tooling::lesson::CheckpointEvaluator;
        use crate::tooling::runner::ScenarioRun;
        use crate::tooling::scenario::parse_scenario;
        let text = with_step(
            &crash_leader_at(CALM, 1_100),
            2_000,
            "\"pause\"\ntarget = \"leader\"\nduration_ms = 1000",
        );
        let mut run = ScenarioRun::new(parse_scenario(&text, "test.toml").unwrap()).unwrap();
        run.advance_to(SimTime::from_ms(1_150));
        assert_eq!(run.world().current_leader(), None, "begun while leaderless");
        let mut evaluator = CheckpointEvaluator::begin(Checkpoint::LeaderChanged, run.world());
        let mut late = evaluator.clone();
        run.advance_to(SimTime::from_ms(2_600));
        let verdict = late.check(run.world());
        assert!(verdict.satisfied, "{}", verdict.explanation);
        // Checked all along, the same evaluator agrees.
        let mut run_again = ScenarioRun::new(parse_scenario(&text, "test.toml").unwrap()).unwrap();
        run_again.advance_to(SimTime::from_ms(1_150));
        evaluator = CheckpointEvaluator::begin(Checkpoint::LeaderChanged, run_again.world());
        let mut met = false;
        for ms in (1_155..=2_600).step_by(5) {
            run_again.advance_to(SimTime::from_ms(ms));
            met = evaluator.check(run_again.world()).satisfied;
        }
        assert!(met);
    }
}
