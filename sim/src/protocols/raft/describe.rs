//! Raft's facts in plain words, for the narrator: elections (who timed out, who voted how and why,
//! who won with how many votes), commits and step-downs.
//!
//! The describer remembers who leads and who is campaigning, so a crash of the leader can say what
//! follows from it and a step-down is told only when a leader or candidate actually steps down.

use crate::base::ids::{NodeId, NodeSet};
use crate::base::units::{LogIndex, Term};
use crate::contract::action::{Action, ByzantineMode, NodeTarget};
use crate::contract::entry::describe::{Described, Describer, Telling, Weight};
use crate::contract::protocol::{RaftFact, VoteVerdict};
use std::collections::BTreeSet;

#[derive(Default)]
pub struct RaftDescriber {
    leader: Option<NodeId>,
    /// Servers that are candidates (or pre-candidates) right now.
    campaigning: BTreeSet<NodeId>,
    /// The highest commit index told so far: a leader may commit several entries at once.
    committed_told: LogIndex,
    /// Servers made to lie (`lie` mode): a leadership one of them claims without having campaigned is
    /// forged, and is told as a forgery, not as a win.
    forgers: BTreeSet<NodeId>,
}

impl RaftDescriber {
    fn campaign(
        &mut self,
        node: NodeId,
        term: Term,
        pre_vote: bool,
        telling: &Telling<'_>,
    ) -> Described {
        self.campaigning.insert(node);
        if self.leader == Some(node) {
            self.leader = None;
        }
        let who = telling.name(node);
        let opening = match telling.timer {
            Some("election") => format!("{who} heard no leader before its election timer ran out"),
            _ => format!("{who} stands for election"),
        };
        let text = if pre_vote {
            format!("{opening}: it first asks whether it could win term {} (PreVote), without raising its term", term.next())
        } else {
            format!("{opening}: it raises its term to {term}, votes for itself and asks the others for votes")
        };
        Described::new(Weight::Notable, text, vec![node])
    }

    fn won(
        &mut self,
        node: NodeId,
        term: Term,
        votes: u32,
        cluster: u32,
        telling: &Telling<'_>,
    ) -> Described {
        self.campaigning.remove(&node);
        self.leader = Some(node);
        let text = format!(
            "{} wins the election for term {term} with {votes} of {cluster} votes, a majority: it now \
             sends heartbeats to keep the others from starting elections",
            telling.name(node)
        );
        Described::new(Weight::Key, text, vec![node])
    }

    /// A liar's claim to lead `term`: it stood in no election, so the real leader (if known) still
    /// leads and the ring still shows the liar as a follower; the sentence says the same.
    fn forged_claim(&self, node: NodeId, term: Term, telling: &Telling<'_>) -> Described {
        let who = telling.name(node);
        let winner = match self.leader {
            Some(leader) => format!(", which {} won", telling.name(leader)),
            None => String::new(),
        };
        let text = format!(
            "{who} forges a claim to lead term {term}{winner}: it stood in no election and is still a \
             follower, but the others cannot check a claim and take its orders"
        );
        let mut nodes = vec![node];
        nodes.extend(self.leader);
        Described::new(Weight::Notable, text, nodes)
    }

    fn stepped_down(
        &mut self,
        node: NodeId,
        term: Term,
        telling: &Telling<'_>,
    ) -> Option<Described> {
        let was_leader = self.leader == Some(node);
        let was_campaigning = self.campaigning.remove(&node);
        if was_leader {
            self.leader = None;
        }
        let who = telling.name(node);
        // A leader stepping down turns the story; a losing candidate falling in line does not.
        let (weight, text) = if was_leader {
            let text = format!(
                "{who} steps down from leader: it saw term {term}, newer than the one it led"
            );
            (Weight::Notable, text)
        } else if was_campaigning {
            let text = format!("{who} gives up its campaign and follows in term {term}");
            (Weight::Routine, text)
        } else {
            return None;
        };
        Some(Described::new(weight, text, vec![node]))
    }
}

impl RaftDescriber {
    /// Remembers whether the server `target` names now forges (the action's own line says it).
    fn note_liar(&mut self, target: NodeTarget, mode: ByzantineMode) {
        let node = match target {
            NodeTarget::Node(node) => Some(node),
            NodeTarget::Leader => self.leader,
        };
        let Some(node) = node else { return };
        if mode == ByzantineMode::Lie {
            self.forgers.insert(node);
        } else {
            self.forgers.remove(&node);
        }
    }

    fn committed(
        &mut self,
        index: LogIndex,
        term: Term,
        replicas: NodeSet,
        telling: &Telling<'_>,
    ) -> Described {
        let holders: Vec<String> = replicas
            .iter()
            .map(|replica| telling.name(replica))
            .collect();
        let first = self.committed_told.next();
        self.committed_told = self.committed_told.max(index);
        let entries = if first < index {
            format!("Entries {first} to {index} (term {term}) are")
        } else {
            format!("Entry {index} (term {term}) is")
        };
        let text = format!(
            "{entries} committed: stored on {}, a majority, so no later leader can lose them",
            holders.join(", ")
        );
        Described::new(Weight::Routine, text, replicas.iter().collect()).coalescing("commit")
    }
}

impl Describer<RaftFact> for RaftDescriber {
    fn describe(
        &mut self,
        node: NodeId,
        fact: &RaftFact,
        telling: &Telling<'_>,
    ) -> Option<Described> {
        match *fact {
            RaftFact::BecamePreCandidate { term } => Some(self.campaign(node, term, true, telling)),
            RaftFact::BecameCandidate { term } => Some(self.campaign(node, term, false, telling)),
            RaftFact::BecameLeader { term, .. }
                if self.forgers.contains(&node) && !self.campaigning.contains(&node) =>
            {
                Some(self.forged_claim(node, term, telling))
            }
            RaftFact::BecameLeader {
                term,
                votes,
                cluster,
            } => Some(self.won(node, term, votes, cluster, telling)),
            RaftFact::BecameFollower { term } => self.stepped_down(node, term, telling),
            RaftFact::VoteCast {
                candidate,
                term,
                pre_vote,
                verdict,
            } => Some(vote(node, candidate, term, pre_vote, verdict, telling)),
            RaftFact::Committed {
                index,
                term,
                replicas,
            } => Some(self.committed(index, term, replicas, telling)),
            RaftFact::LostQuorum { term } => {
                if self.leader == Some(node) {
                    self.leader = None;
                }
                let text = format!(
                    "{} steps down in term {term}: for a whole election timeout it did not hear from a \
                     majority (CheckQuorum), so it can no longer be sure it leads",
                    telling.name(node)
                );
                Some(Described::new(Weight::Notable, text, vec![node]))
            }
            RaftFact::LogTruncated { from_index } => {
                let text = format!(
                    "{} drops its entries from index {from_index} on: they were never committed and \
                     conflict with the leader's log",
                    telling.name(node)
                );
                Some(Described::new(Weight::Notable, text, vec![node]))
            }
            RaftFact::LeaseRead { term } => {
                let text = format!(
                    "{} answers a read from its lease (term {term}) without a round through the log",
                    telling.name(node)
                );
                Some(Described::new(Weight::Routine, text, vec![node]).coalescing("lease-read"))
            }
            RaftFact::ReadIndexRead { term, read_index } => {
                let text = format!(
                    "{} answers a read by read index: a majority confirmed it still leads term {term}, \
                     and its map has applied index {read_index}, so no entry was appended",
                    telling.name(node)
                );
                Some(
                    Described::new(Weight::Routine, text, vec![node]).coalescing("read-index-read"),
                )
            }
            RaftFact::FollowerRead { applied } => {
                let text = format!(
                    "{} answers a read from its own copy (applied up to index {applied}), asking no \
                     one: it may be behind the leader",
                    telling.name(node)
                );
                Some(Described::new(Weight::Routine, text, vec![node]).coalescing("follower-read"))
            }
            RaftFact::RemovedSelf { .. } => {
                if self.leader == Some(node) {
                    self.leader = None;
                }
                super::describe_membership::describe(node, fact, telling)
            }
            RaftFact::LearnerAdded { .. }
            | RaftFact::LearnerCaughtUp { .. }
            | RaftFact::LearnerGivenUp { .. }
            | RaftFact::ConfigurationAppended { .. }
            | RaftFact::ConfigurationEdited { .. } => {
                super::describe_membership::describe(node, fact, telling)
            }
        }
    }

    fn consequence(&mut self, action: &Action, telling: &Telling<'_>) -> Option<String> {
        if let Action::Byzantine { target, mode } = action {
            self.note_liar(*target, *mode);
            return None;
        }
        let target = match action {
            Action::Crash { target }
            | Action::Pause { target, .. }
            | Action::Isolate { target } => target,
            _ => return None,
        };
        let hit_leader = match target {
            NodeTarget::Leader => self.leader.is_some(),
            NodeTarget::Node(node) => self.leader == Some(*node),
        };
        let leader = self.leader.filter(|_| hit_leader)?;
        if matches!(action, Action::Crash { .. }) {
            self.leader = None;
        }
        Some(format!(
            "{} was the leader: the followers stop hearing heartbeats, and the first whose election \
             timer runs out will ask for votes",
            telling.name(leader)
        ))
    }
}

fn vote(
    voter: NodeId,
    candidate: NodeId,
    term: Term,
    pre_vote: bool,
    verdict: VoteVerdict,
    telling: &Telling<'_>,
) -> Described {
    let (voter_name, candidate_name) = (telling.name(voter), telling.name(candidate));
    let ballot = if pre_vote { "pre-vote" } else { "vote" };
    let text = match verdict {
        VoteVerdict::Granted => format!("{voter_name} gives {candidate_name} its {ballot} for term {term}"),
        VoteVerdict::StaleTerm { voter_term } => format!(
            "{voter_name} refuses {candidate_name} a {ballot} for term {term}: it is already in term {voter_term}"
        ),
        VoteVerdict::AlreadyVoted { for_candidate } => format!(
            "{voter_name} refuses {candidate_name}: it already voted for {} in term {term}",
            telling.name(for_candidate)
        ),
        VoteVerdict::LogBehind => format!(
            "{voter_name} refuses {candidate_name} a {ballot}: its own log is more up to date than \
             {candidate_name}'s, and a leader must hold every committed entry"
        ),
        VoteVerdict::HearsLeader => format!(
            "{voter_name} ignores {candidate_name}'s request: it still hears from a live leader"
        ),
    };
    Described::new(Weight::Routine, text, vec![voter, candidate])
}
