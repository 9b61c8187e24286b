//! The stranded old leader: cut off on the smaller side of a split, it still believes it leads, takes
//! writes it can never commit, and when it rejoins the newer leader overwrites them.
//!
//! - `stranded_leader_write_unknown`: a write waited at a server that, at a check while the write was
//!   pending, was running, believed it led and could not reach a majority; a server on the other side
//!   led a later term meanwhile; and the write came back unknown (the client's timeout ran out). A write
//!   refused by a follower, or one held by a leader that is alone because the majority crashed (no newer
//!   leader anywhere), is not this story.
//! - `old_leader_entries_overwritten`: a server's log lost, to the repair a newer leader makes, entries
//!   of a term in which that same server had led. Followers that copied the old leader's entries lose
//!   them too, but only the old leader wrote them; entries removed are never committed ones, so this is
//!   exactly "the writes it took alone are gone".
//!
//! The terms each server led are read from the trace (from its start, so a leadership of an earlier
//! step counts), and each check notes the uncommitted entries every server holds of a term it led, so
//! that a `LogTruncated` fact can be told apart from a follower's ordinary repair.

use super::reach::{labels, Reach};
use super::trace_cursor::TraceCursor;
use super::Verdict;
use crate::base::ids::NodeId;
use crate::base::units::{LogIndex, Term};
use crate::contract::protocol::{ClientCommand, ClientOutcome, RaftFact, RequestId, RoleLabel};
use crate::engine::trace::TraceEvent;
use crate::engine::world::{NodeStatus, World};
use crate::worlds::actor::Fact;
use std::collections::{BTreeMap, BTreeSet};

#[derive(Clone, Debug)]
pub(super) struct StrandedLeaderWatch {
    /// Writes seen pending at a stranded leader: the leader, its term, and who it could reach.
    held: BTreeMap<RequestId, (NodeId, Term, Vec<NodeId>)>,
    /// The highest term any server on the majority side was seen leading.
    newest_leader: Option<(NodeId, Term)>,
    /// A stranded write that committed after all (the split healed in time).
    committed_after_all: Option<RequestId>,
    cursor: TraceCursor,
    /// Terms each server led, from the trace.
    led: BTreeMap<NodeId, BTreeSet<Term>>,
    /// Per server, its uncommitted entries of a term it led, at the last check.
    own_tail: BTreeMap<NodeId, Vec<(LogIndex, Term)>>,
    /// An overwrite: the old leader, the entries it lost, and the term they had.
    overwritten: Option<(NodeId, Vec<LogIndex>, Term)>,
}

impl StrandedLeaderWatch {
    /// `overwrites`: whether `old_leader_entries_overwritten` is the checkpoint, the only one that
    /// needs the terms each server led (read from the whole trace, so only when wanted).
    pub(super) fn begin(world: &World, overwrites: bool) -> StrandedLeaderWatch {
        let mut led: BTreeMap<NodeId, BTreeSet<Term>> = BTreeMap::new();
        let records = world.trace().records().filter(|_| overwrites);
        for record in records {
            if let TraceEvent::Observe {
                node,
                fact: Fact::Raft(RaftFact::BecameLeader { term, .. }),
            } = &record.event
            {
                led.entry(*node).or_default().insert(*term);
            }
        }
        let mut watch = StrandedLeaderWatch {
            held: BTreeMap::new(),
            newest_leader: None,
            committed_after_all: None,
            cursor: TraceCursor::at_end(world),
            led,
            own_tail: BTreeMap::new(),
            overwritten: None,
        };
        watch.note_tails(world);
        watch
    }

    pub(super) fn write_unknown(&mut self, world: &World) -> Verdict {
        let reach = Reach::of(world);
        let up: Vec<NodeId> = reach
            .majority_side
            .iter()
            .chain(&reach.cut_off)
            .copied()
            .collect();
        for record in world.clients().pending() {
            let (Some(node), Some(ClientCommand::Put { .. })) = (record.node, record.command)
            else {
                continue;
            };
            let slot = &world.nodes()[node.index()];
            let summary = crate::contract::protocol::Protocol::summary(&slot.actor);
            if reach.is_cut_off(node) && summary.role == RoleLabel::Leader {
                let side = super::reach::reached_from(world, &up, node);
                self.held
                    .entry(record.id)
                    .or_insert((node, summary.term, side));
            }
        }
        for node in &reach.majority_side {
            let summary =
                crate::contract::protocol::Protocol::summary(&world.nodes()[node.index()].actor);
            let newer = self
                .newest_leader
                .is_none_or(|(_, term)| summary.term > term);
            if summary.role == RoleLabel::Leader && newer {
                self.newest_leader = Some((*node, summary.term));
            }
        }
        self.judge_held(world)
    }

    fn judge_held(&mut self, world: &World) -> Verdict {
        let finished: Vec<_> = world
            .clients()
            .recent
            .iter()
            .filter_map(|record| Some((record.id, record.outcome, self.held.get(&record.id)?)))
            .collect();
        for (id, outcome, (node, term, side)) in finished {
            let label = world.node_label(*node);
            match (outcome, self.newest_leader) {
                (ClientOutcome::Unknown, Some((newer, newer_term))) if newer_term > *term => {
                    return Verdict::yes(format!(
                        "{label} still believed it led term {term} when write {id} reached it, but \
                         it could reach only {}, while {} won term {newer_term} on the other side; \
                         {label} could never commit the write, and the client's timeout ran out: \
                         unknown. The client cannot tell whether it was lost",
                        labels(world, side),
                        world.node_label(newer)
                    ))
                }
                (ClientOutcome::Committed { .. }, _) => self.committed_after_all = Some(id),
                _ => {}
            }
        }
        if let Some(id) = self.committed_after_all {
            return Verdict::not_yet(format!(
                "write {id} committed after all: the cluster healed before the client stopped \
                 waiting; split it again and leave it split"
            ));
        }
        match self.held.iter().next() {
            Some((id, (node, term, _))) => Verdict::not_yet(format!(
                "{} holds write {id} as leader of term {term}, cut off from a majority; waiting for \
                 the client's timeout{}",
                world.node_label(*node),
                match self.newest_leader {
                    Some((_, newer)) if newer > *term => String::new(),
                    _ => " and for the other side to elect a newer leader".into(),
                }
            )),
            None => Verdict::not_yet(
                "no write is waiting at a leader cut off from a majority: split the cluster with the \
                 leader on the smaller side, and at once send a write to it by name"
                    .into(),
            ),
        }
    }

    /// Notes, per server, its uncommitted entries of a term it led.
    fn note_tails(&mut self, world: &World) {
        self.own_tail.clear();
        for node in super::servers(world) {
            let (Some(terms), Some(raft)) = (
                self.led.get(&node),
                world.nodes()[node.index()].actor.as_raft(),
            ) else {
                continue;
            };
            let log = raft.log();
            let mut index = raft.commit_index().next();
            let mut tail = Vec::new();
            while index <= log.last_index() {
                if let Some(term) = log.term_at(index).filter(|term| terms.contains(term)) {
                    tail.push((index, term));
                }
                index = index.next();
            }
            if !tail.is_empty() {
                self.own_tail.insert(node, tail);
            }
        }
    }

    pub(super) fn entries_overwritten(&mut self, world: &World) -> Verdict {
        let Some(records) = self.cursor.unread(world) else {
            *self = StrandedLeaderWatch::begin(world, true);
            return Verdict::not_yet("the run went back in time; watching again from here".into());
        };
        for record in records {
            let TraceEvent::Observe {
                node,
                fact: Fact::Raft(fact),
            } = &record.event
            else {
                continue;
            };
            match *fact {
                RaftFact::BecameLeader { term, .. } => {
                    self.led.entry(*node).or_default().insert(term);
                }
                RaftFact::LogTruncated { from_index } if self.overwritten.is_none() => {
                    let lost: Vec<(LogIndex, Term)> = self
                        .own_tail
                        .get(node)
                        .map(|tail| {
                            tail.iter()
                                .filter(|(i, _)| *i >= from_index)
                                .copied()
                                .collect()
                        })
                        .unwrap_or_default();
                    if let Some((_, term)) = lost.first() {
                        let indexes = lost.iter().map(|(index, _)| *index).collect();
                        self.overwritten = Some((*node, indexes, *term));
                    }
                }
                _ => {}
            }
        }
        self.note_tails(world);
        self.overwritten_verdict(world)
    }

    fn overwritten_verdict(&self, world: &World) -> Verdict {
        if let Some((node, indexes, term)) = &self.overwritten {
            let label = world.node_label(*node);
            let (places, them) = match (indexes.first(), indexes.last()) {
                (Some(first), Some(last)) if first != last => {
                    (format!("entries {first} to {last}"), "them")
                }
                (Some(first), _) => (format!("entry {first}"), "it"),
                _ => ("entries".into(), "them"),
            };
            let now = match world.current_leader() {
                Some(leader) => format!(", and {} leads now", world.node_label(leader)),
                None => String::new(),
            };
            return Verdict::yes(format!(
                "{label} had taken {places} in term {term}, when it led, and never got {them} to \
                 a majority; when it rejoined, a newer leader's log held other entries there, so \
                 {label}'s were removed and replaced{now}"
            ));
        }
        // The leader's own writes in flight are uncommitted too, for a moment: name a former leader.
        let former = |node: &&NodeId| {
            let slot = &world.nodes()[node.index()];
            slot.status == NodeStatus::Up
                && crate::contract::protocol::Protocol::summary(&slot.actor).role
                    != RoleLabel::Leader
        };
        match self.own_tail.keys().find(former) {
            Some(node) => Verdict::not_yet(format!(
                "{} holds uncommitted entries from a term it led; let it rejoin a cluster whose \
                 newer leader has committed other entries",
                world.node_label(*node)
            )),
            None => Verdict::not_yet(
                "no server holds uncommitted entries from a term it led: cut a leader off, send it \
                 writes by name, and let the other side elect a new leader"
                    .into(),
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::{
        explanation_when_met, explanation_when_never_met, watch_until_met, with_step,
    };
    use crate::tooling::lesson::Checkpoint;

    /// Five servers, CheckQuorum on, n1 leads (lesson 7's world).
    const QUORUM: &str = include_str!("../../../../../lessons/scenarios/quorum-five.toml");
    const SPLIT: &str = "\"partition\"\ngroups = [[\"n1\", \"n2\"], [\"n3\", \"n4\", \"n5\"]]";

    fn write_to(text: &str, at_ms: u64, node: &str) -> String {
        with_step(
            text,
            at_ms,
            &format!("\"request\"\ncount = 1\ntarget = \"{node}\""),
        )
    }

    /// n1 is split off with n2 and takes a write at once, before CheckQuorum makes it give up.
    fn stranded_write() -> String {
        write_to(&with_step(QUORUM, 1_100, SPLIT), 1_110, "n1")
    }

    #[test]
    fn a_write_to_the_stranded_old_leader_ends_unknown() {
        let explanation = explanation_when_met(
            &stranded_write(),
            Checkpoint::StrandedLeaderWriteUnknown,
            1_000,
            4_000,
        );
        assert!(
            explanation.starts_with("n1 still believed it led term 1")
                && explanation.contains("reach only n1, n2"),
            "{}",
            explanation
        );
    }

    /// The majority crashed: n1 holds the write alone and it ends unknown too, but no newer leader
    /// exists anywhere. That is lesson 7 step 5, not a stranded *old* leader.
    #[test]
    fn a_leader_alone_because_the_majority_crashed_is_not_an_old_one() {
        let mut text = QUORUM.to_string();
        for node in ["n3", "n4", "n5"] {
            text = with_step(&text, 1_100, &format!("\"crash\"\ntarget = \"{node}\""));
        }
        let text = write_to(&text, 1_110, "n1");
        let (plain, _) = watch_until_met(
            &text,
            Checkpoint::WriteRefusedOrUnknownWithoutQuorum,
            1_000,
            4_000,
        );
        assert!(
            plain.is_some(),
            "the look-alike ticks the lost-quorum checkpoint"
        );
        let (met, verdict) =
            watch_until_met(&text, Checkpoint::StrandedLeaderWriteUnknown, 1_000, 4_000);
        assert_eq!(met, None, "{}", verdict.explanation);
    }

    /// The same split, the write sent to the follower n2: refused at once, not held.
    #[test]
    fn a_write_refused_by_a_cut_off_follower_is_not_held() {
        let text = write_to(&with_step(QUORUM, 1_100, SPLIT), 1_110, "n2");
        let explanation =
            explanation_when_never_met(&text, Checkpoint::StrandedLeaderWriteUnknown, 1_000, 4_000);
        assert!(
            explanation.starts_with("no write is waiting"),
            "{}",
            explanation
        );
    }

    /// Healed after the majority side elected a newer leader, n1 loses the entry it took alone.
    #[test]
    fn the_rejoining_old_leader_has_its_entries_overwritten() {
        let text = with_step(&stranded_write(), 3_000, "\"heal\"");
        let (met, verdict) =
            watch_until_met(&text, Checkpoint::OldLeaderEntriesOverwritten, 2_500, 6_000);
        assert!(
            met.is_some_and(|ms| ms >= 3_000),
            "{met:?}: {}",
            verdict.explanation
        );
        assert!(
            verdict.explanation.starts_with("n1 had taken entry"),
            "{}",
            verdict.explanation
        );
    }

    /// Split and healed with no write to n1: nothing of its own to lose, though it rejoins the
    /// same way.
    #[test]
    fn a_rejoining_leader_that_took_no_writes_loses_nothing() {
        let text = with_step(&with_step(QUORUM, 1_100, SPLIT), 3_000, "\"heal\"");
        let (met, verdict) =
            watch_until_met(&text, Checkpoint::OldLeaderEntriesOverwritten, 1_000, 6_000);
        assert_eq!(met, None, "{}", verdict.explanation);
    }

    /// n2 copied n1's entry and loses it on the heal too, but n2 never led: with n1 crashed before
    /// the heal, only the follower's repair happens, and it does not count.
    #[test]
    fn a_follower_repaired_of_entries_it_only_copied_does_not_count() {
        let text = with_step(&stranded_write(), 1_500, "\"crash\"\ntarget = \"n1\"");
        let text = with_step(&text, 3_000, "\"heal\"");
        explanation_when_never_met(&text, Checkpoint::OldLeaderEntriesOverwritten, 2_500, 6_000);
    }
}
