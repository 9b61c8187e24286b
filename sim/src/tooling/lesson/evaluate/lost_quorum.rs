//! What a lost quorum looks like from outside: no leader, and writes that fail.
//!
//! Both symptoms have look-alikes that teach something else. A cluster can go without a leader on a
//! network so slow that every election times out before its votes arrive, while every server is up
//! and connected. A write can come back refused from a follower of a perfectly healthy cluster ("not
//! leader", try the leader), or unknown on a lossy link. The quorum lesson is about neither, so:
//! - `no_leader_without_quorum_for_ms(ms)`: no server has led for `ms`, and for all that time no up
//!   server could reach a majority (too many down, paused or cut off).
//! - `write_refused_or_unknown_without_quorum`: a request came back refused or unknown, and at the
//!   check before its answer the server it went to was running but could not reach a majority (or,
//!   for a request that found no leader to go to, no server could).
//!
//! Checks come every few milliseconds; a request's answer is judged by the state at the check before
//! it, so a loss that began after the answer cannot be blamed for it.

use super::reach::{labels, Reach};
use super::{counted, Verdict};
use crate::base::ids::NodeId;
use crate::base::time::SimTime;
use crate::contract::protocol::ClientOutcome;
use crate::engine::world::World;
use std::collections::BTreeSet;

#[derive(Clone, Debug)]
pub(super) struct LostQuorumWatch {
    /// Since when there has been no leader and no majority, without a break.
    leaderless_without_quorum_since: Option<SimTime>,
    /// The previous check: when, which up servers were cut off, whether the quorum was lost.
    previous_check: SimTime,
    previous_cut_off: BTreeSet<NodeId>,
    previous_quorum_lost: bool,
    /// Requests answered since the step began, refused or unknown, because of a lost majority.
    refused: u64,
    unknown: u64,
    /// The servers those requests went to.
    servers: BTreeSet<NodeId>,
    /// Requests refused or unknown for another reason.
    other: u64,
}

impl LostQuorumWatch {
    pub(super) fn begin(world: &World) -> LostQuorumWatch {
        let reach = Reach::of(world);
        LostQuorumWatch {
            leaderless_without_quorum_since: None,
            previous_check: world.now(),
            previous_cut_off: reach.cut_off.iter().copied().collect(),
            previous_quorum_lost: reach.quorum_lost(),
            refused: 0,
            unknown: 0,
            servers: BTreeSet::new(),
            other: 0,
        }
    }

    pub(super) fn no_leader_for(&mut self, world: &World, wanted_ms: u64) -> Verdict {
        let reach = Reach::of(world);
        if let Some(leader) = world.current_leader() {
            self.leaderless_without_quorum_since = None;
            return Verdict::not_yet(format!("{} leads", world.node_label(leader)));
        }
        if !reach.quorum_lost() {
            self.leaderless_without_quorum_since = None;
            return Verdict::not_yet(format!(
                "no server leads right now, but {} reach each other, a majority of {}: they can \
                 still elect one; this step wants the majority gone",
                labels(world, &reach.majority_side),
                reach.count
            ));
        }
        let since = *self
            .leaderless_without_quorum_since
            .get_or_insert(world.now());
        let for_ms = world.now().saturating_since(since) / 1_000;
        let why = reach.lost_quorum_story(world);
        if for_ms >= wanted_ms {
            Verdict::yes(format!("no leader for {for_ms} ms. {why}"))
        } else {
            Verdict::not_yet(format!(
                "no leader for {for_ms} ms so far (waiting for {wanted_ms} ms); {why}"
            ))
        }
    }

    pub(super) fn refused_or_unknown(&mut self, world: &World) -> Verdict {
        let after_us = self.previous_check.as_micros();
        for record in &world.clients().recent {
            let Some(finished_us) = record.finished_at_us else {
                continue;
            };
            let unknown = match record.outcome {
                ClientOutcome::Unknown => true,
                ClientOutcome::Rejected(_) => false,
                _ => continue,
            };
            if finished_us <= after_us {
                continue;
            }
            let cut_off = match record.node {
                Some(node) => self.previous_cut_off.contains(&node),
                None => self.previous_quorum_lost,
            };
            match (cut_off, unknown) {
                (false, _) => self.other += 1,
                (true, true) => self.unknown += 1,
                (true, false) => self.refused += 1,
            }
            if cut_off {
                self.servers.extend(record.node);
            }
        }
        let reach = Reach::of(world);
        self.previous_check = world.now();
        self.previous_cut_off = reach.cut_off.iter().copied().collect();
        self.previous_quorum_lost = reach.quorum_lost();
        self.verdict(world)
    }

    fn verdict(&self, world: &World) -> Verdict {
        if self.refused + self.unknown == 0 {
            return Verdict::not_yet(if self.other > 0 {
                format!(
                    "{} refused or unknown, but the server each went to could reach a majority (or \
                     was down itself); this step wants a write to a server that cannot",
                    counted(self.other, "request came back", "requests came back")
                )
            } else {
                "no request has come back refused or unknown since this step began".into()
            });
        }
        let servers: Vec<NodeId> = self.servers.iter().copied().collect();
        let whom = if servers.is_empty() {
            "no server could reach a majority, so there was no leader to send to".to_string()
        } else {
            format!("{} could not reach a majority", labels(world, &servers))
        };
        let mut parts = Vec::new();
        if self.refused > 0 {
            parts.push(format!(
                "{} refused (certainly not applied)",
                counted(self.refused, "request came back", "requests came back")
            ));
        }
        if self.unknown > 0 {
            parts.push(format!(
                "{} unknown (the client stopped waiting; it may still commit)",
                counted(self.unknown, "request came back", "requests came back")
            ));
        }
        Verdict::yes(format!("{whom}: {}", parts.join("; ")))
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

    fn crash(text: &str, nodes: &[&str], at_ms: u64) -> String {
        nodes.iter().fold(text.to_string(), |text, node| {
            with_step(&text, at_ms, &format!("\"crash\"\ntarget = \"{node}\""))
        })
    }

    /// Every link 150 ms each way, as long as the shortest election timeout: every election times
    /// out before its votes come back, and nobody leads, though all five are up and connected.
    fn slow_links() -> String {
        let mut text = QUORUM.to_string();
        for first in 1..=5 {
            for second in first + 1..=5 {
                let link = format!(
                    "\"link\"\nbetween = [\"n{first}\", \"n{second}\"]\ndelay_ms = [150, 150]"
                );
                text = with_step(&text, 1_100, &link);
            }
        }
        text
    }

    /// Lesson 7 step 2: three of five crashed.
    #[test]
    fn no_leader_for_want_of_a_majority() {
        let text = crash(QUORUM, &["n1", "n2", "n3"], 1_100);
        let explanation = explanation_when_met(
            &text,
            Checkpoint::NoLeaderWithoutQuorumForMs(1_000),
            1_000,
            4_000,
        );
        assert!(
            explanation.contains("n1, n2, n3 crashed; n4, n5 are up, but no 3 of 5 can reach"),
            "{}",
            explanation
        );
    }

    /// The look-alike of the issue: slow links leave the cluster leaderless with every server up.
    #[test]
    fn slow_links_without_a_lost_majority_do_not_count() {
        let text = slow_links();
        let (plain, _) = watch_until_met(&text, Checkpoint::NoLeaderForMs(1_000), 1_000, 6_000);
        assert!(plain.is_some(), "the look-alike ticks the plain checkpoint");
        let (met, verdict) = watch_until_met(
            &text,
            Checkpoint::NoLeaderWithoutQuorumForMs(1_000),
            1_000,
            6_000,
        );
        assert_eq!(met, None, "{}", verdict.explanation);
    }

    /// Lesson 7 step 5: the majority crashes and two writes go to n1.
    #[test]
    fn writes_to_a_server_without_a_majority_fail() {
        let text = crash(QUORUM, &["n3", "n4", "n5"], 1_100);
        let text = with_step(&text, 1_150, "\"request\"\ncount = 2\ntarget = \"n1\"");
        let explanation = explanation_when_met(
            &text,
            Checkpoint::WriteRefusedOrUnknownWithoutQuorum,
            1_000,
            4_000,
        );
        assert!(
            explanation.starts_with("n1 could not reach a majority: 2 requests came back"),
            "{}",
            explanation
        );
    }

    /// The look-alike of the issue: a write sent to a follower of a healthy cluster is refused with
    /// "not leader". That is a redirect, not progress refused.
    #[test]
    fn a_follower_of_a_healthy_cluster_refusing_does_not_count() {
        let text = with_step(QUORUM, 1_150, "\"request\"\ncount = 1\ntarget = \"n2\"");
        let (plain, _) = watch_until_met(&text, Checkpoint::WriteRefusedOrUnknown, 1_000, 4_000);
        assert!(plain.is_some(), "the look-alike ticks the plain checkpoint");
        let explanation = explanation_when_never_met(
            &text,
            Checkpoint::WriteRefusedOrUnknownWithoutQuorum,
            1_000,
            4_000,
        );
        assert!(
            explanation.contains("could reach a majority"),
            "{}",
            explanation
        );
    }

    /// A write to a crashed server is refused because that server is down, not for want of a
    /// majority.
    #[test]
    fn a_write_to_a_crashed_server_does_not_count() {
        let text = crash(QUORUM, &["n2"], 1_100);
        let text = with_step(&text, 1_150, "\"request\"\ncount = 1\ntarget = \"n2\"");
        explanation_when_never_met(
            &text,
            Checkpoint::WriteRefusedOrUnknownWithoutQuorum,
            1_000,
            4_000,
        );
    }
}
