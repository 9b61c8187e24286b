//! A Raft leader's lease, from both ends: the gap it leaves when its holder falls, and the moment a
//! running leader gives it up because no majority renews it.
//!
//! - `lease_failover_gap_ms(ms)`: the leader went down (crashed, paused or cut off) *while it held a
//!   lease* (lease reads on, its lease running on its own clock), and no server led for at least `ms`
//!   until another won a later term. With lease reads off there is no lease to wait out, so a gap then
//!   teaches nothing about leases and does not count; the verdict says so and the watch moves on to the
//!   new leader, so the learner can try again.
//! - `lease_renewal_failed`: the leader, still running, heard from no majority for a whole election
//!   timeout (Raft's CheckQuorum, recorded as a `LostQuorum` fact) and stepped down by itself: its lease
//!   could not be renewed. A leader that steps down for another reason (removed from the configuration,
//!   pushed out by a higher term, frozen by a pause so that it renewed nothing) does not count.
//!
//! Both watch one leader at a time: the one leading when the step began (or the first seen after),
//! and after a miss the one leading then.

use super::trace_cursor::TraceCursor;
use super::Verdict;
use crate::base::ids::NodeId;
use crate::base::time::SimTime;
use crate::base::units::Term;
use crate::contract::protocol::{Protocol, RaftFact, RoleLabel};
use crate::engine::trace::TraceEvent;
use crate::engine::world::{NodeStatus, World};
use crate::worlds::actor::Fact;

/// What happened to the watched leader, read off the trace.
#[derive(Clone, Debug, Default)]
struct LeaderFate {
    /// It recorded CheckQuorum giving up, in this term.
    lost_quorum: Option<Term>,
    /// It stepped down because it left the configuration.
    removed_self: bool,
    /// Another server won a later term: who, which term, and when (µs).
    successor: Option<(NodeId, Term, u64)>,
}

#[derive(Clone, Debug)]
pub(super) struct LeaderLeaseWatch {
    cursor: TraceCursor,
    /// The leader watched, and the term it led.
    leader: Option<(NodeId, Term)>,
    fate: LeaderFate,
    /// Whether its lease held at the last check while it led.
    held_lease: bool,
    /// When it was first seen no longer leading, and whether it held a lease just before.
    fell: Option<(SimTime, bool)>,
    /// Whether it was seen paused while watched.
    paused: bool,
    /// Why the last leader watched did not count, shown until the next one does.
    missed: Option<String>,
}

impl LeaderLeaseWatch {
    pub(super) fn begin(world: &World) -> LeaderLeaseWatch {
        let leader = super::leader_and_term(world);
        LeaderLeaseWatch {
            cursor: TraceCursor::at_end(world),
            leader,
            fate: LeaderFate::default(),
            // A scripted crash can come before the first check: sample the lease at the start too.
            held_lease: leader.is_some_and(|(node, _)| holds_lease(world, node)),
            fell: None,
            paused: false,
            missed: None,
        }
    }

    /// Reads what the trace gained and samples the watched leader; `None` while no leader is known.
    fn observe(&mut self, world: &World) -> Option<(NodeId, Term)> {
        if self.leader.is_none() {
            self.leader = super::leader_and_term(world);
        }
        let Some((node, term)) = self.leader else {
            self.cursor = TraceCursor::at_end(world);
            return None;
        };
        let Some(records) = self.cursor.unread(world) else {
            *self = LeaderLeaseWatch::begin(world);
            return self.leader;
        };
        for record in records {
            let TraceEvent::Observe {
                node: by,
                fact: Fact::Raft(fact),
            } = &record.event
            else {
                continue;
            };
            match *fact {
                RaftFact::LostQuorum { term: lost } if *by == node => {
                    self.fate.lost_quorum = Some(lost)
                }
                RaftFact::RemovedSelf { .. } if *by == node => self.fate.removed_self = true,
                RaftFact::BecameLeader { term: won, .. } if *by != node && won > term => {
                    self.fate.successor.get_or_insert((*by, won, record.at_us));
                }
                _ => {}
            }
        }
        let slot = &world.nodes()[node.index()];
        self.paused |= slot.status == NodeStatus::Paused;
        let leads = slot.status == NodeStatus::Up && slot.actor.summary().role == RoleLabel::Leader;
        if leads && self.fell.is_none() {
            self.held_lease = holds_lease(world, node);
        } else if self.fell.is_none() {
            self.fell = Some((world.now(), self.held_lease));
        }
        Some((node, term))
    }

    /// Watches whoever leads now instead, remembering why the last one did not count.
    fn move_on(&mut self, world: &World, why: String) {
        *self = LeaderLeaseWatch::begin(world);
        self.missed = Some(why);
    }

    fn not_yet(&self, now: String) -> Verdict {
        match &self.missed {
            Some(missed) => Verdict::not_yet(format!("{missed}; {now}")),
            None => Verdict::not_yet(now),
        }
    }

    pub(super) fn lease_failover_gap(&mut self, world: &World, wanted_ms: u64) -> Verdict {
        let Some((node, term)) = self.observe(world) else {
            return self.not_yet("no leader has been seen yet".into());
        };
        let label = world.node_label(node);
        let Some((fell_at, held_lease)) = self.fell else {
            return self.not_yet(format!(
                "{label} leads term {term} and nothing has happened to it"
            ));
        };
        let Some((successor, won, won_us)) = self.fate.successor else {
            let so_far_ms = world.now().saturating_since(fell_at) / 1_000;
            return self.not_yet(format!(
                "{label} no longer leads; no server has led for {so_far_ms} ms so far"
            ));
        };
        let gap_ms = won_us.saturating_sub(fell_at.as_micros()) / 1_000;
        let next = world.node_label(successor);
        if !held_lease {
            self.move_on(
                world,
                format!(
                    "{label} held no lease when it fell (lease reads are off, or its lease had \
                     already run out), so the {gap_ms} ms until {next} led was the election timeout \
                     alone"
                ),
            );
            return self.not_yet("turn lease reads on and try again".into());
        }
        if gap_ms < wanted_ms {
            self.move_on(
                world,
                format!("{next} led only {gap_ms} ms after {label} fell"),
            );
            return self.not_yet("try again".into());
        }
        let lease_ms = world.config().timing.election_timeout_ms.0;
        Verdict::yes(format!(
            "{label} fell while it held its lease (up to {lease_ms} ms past its last heartbeat a \
             majority acknowledged); no server led for {gap_ms} ms, until {next} won term {won}. \
             The followers first had to stop hearing {label} for a whole election timeout, and \
             none of them votes sooner, while the old lease may still run"
        ))
    }

    pub(super) fn lease_renewal_failed(&mut self, world: &World) -> Verdict {
        let Some((node, term)) = self.observe(world) else {
            return self.not_yet("no leader has been seen yet".into());
        };
        let label = world.node_label(node);
        let slot = &world.nodes()[node.index()];
        let summary = slot.actor.summary();
        let leads = slot.status == NodeStatus::Up && summary.role == RoleLabel::Leader;
        if leads {
            return self.not_yet(format!(
                "{label} still leads term {term}; cut it off from the others and let it run"
            ));
        }
        if slot.status != NodeStatus::Up {
            return self.not_yet(format!(
                "{label} is {}: this step wants it running, cut off from a majority",
                slot.status.as_str()
            ));
        }
        let why_not = if self.paused {
            Some(format!(
                "{label} was paused: a frozen leader sends nothing to renew, so this is not a \
                 renewal that failed"
            ))
        } else if self.fate.removed_self {
            Some(format!(
                "{label} stepped down because it was removed from the configuration"
            ))
        } else if self.fate.lost_quorum.is_none() {
            Some(format!(
                "{label} stepped down on hearing a later term, not because its lease ran out"
            ))
        } else {
            None
        };
        match why_not {
            None => Verdict::yes(format!(
                "{label}, leader of term {term}, kept sending heartbeats but heard from no majority \
                 for a whole election timeout: its lease could not be renewed, so it stepped down by \
                 itself and is now a follower in term {}",
                summary.term
            )),
            Some(why) => match super::leader_and_term(world) {
                Some((next, _)) => {
                    self.move_on(world, why);
                    self.not_yet(format!(
                        "{} leads now: cut it off and let it keep running",
                        world.node_label(next)
                    ))
                }
                None => self.not_yet(why),
            },
        }
    }
}

/// Whether `node` leads with lease reads on and its lease running, on its own clock.
fn holds_lease(world: &World, node: NodeId) -> bool {
    let slot = &world.nodes()[node.index()];
    slot.actor.as_raft().is_some_and(|raft| {
        raft.is_leader()
            && raft.options.lease_reads()
            && raft.lease_holds(slot.clock.local_us(world.now()))
    })
}

#[cfg(test)]
mod tests {
    use super::super::test_support::{
        explanation_when_met, explanation_when_never_met, watch_until_met, with_step,
    };
    use crate::tooling::lesson::Checkpoint;

    const LEASES: &str = include_str!("../../../../../lessons/scenarios/lease-five.toml");

    fn leases_off() -> String {
        LEASES.replace("lease_reads = true", "lease_reads = false")
    }

    /// Lesson 4 step 1: the leader crashes holding its lease.
    #[test]
    fn a_leader_that_crashes_holding_its_lease_leaves_a_gap() {
        let text = with_step(LEASES, 1_100, "\"crash\"\ntarget = \"leader\"");
        let explanation =
            explanation_when_met(&text, Checkpoint::LeaseFailoverGapMs(100), 1_000, 3_000);
        assert!(
            explanation.contains("fell while it held its lease"),
            "{}",
            explanation
        );
    }

    /// The same crash with lease reads off: no lease, so the gap teaches nothing about leases, though
    /// a plain "no leader for 100 ms" ticks.
    #[test]
    fn the_same_crash_without_leases_does_not_count() {
        let text = with_step(&leases_off(), 1_100, "\"crash\"\ntarget = \"leader\"");
        let (plain, _) = watch_until_met(&text, Checkpoint::NoLeaderForMs(100), 1_000, 3_000);
        assert!(plain.is_some(), "the look-alike ticks the plain checkpoint");
        let explanation =
            explanation_when_never_met(&text, Checkpoint::LeaseFailoverGapMs(100), 1_000, 3_000);
        assert!(explanation.contains("held no lease"), "{}", explanation);
    }

    /// Lesson 4 step 2: cut off, the leader hears no majority and gives up by itself.
    #[test]
    fn an_isolated_leader_cannot_renew_its_lease() {
        let text = with_step(LEASES, 1_100, "\"isolate\"\ntarget = \"leader\"");
        let explanation = explanation_when_met(&text, Checkpoint::LeaseRenewalFailed, 1_000, 3_000);
        assert!(
            explanation.contains("could not be renewed"),
            "{}",
            explanation
        );
    }

    /// "Remove this server" on the leader makes it step down 25 ms later: a step-down, not a renewal
    /// that failed.
    #[test]
    fn a_leader_removed_from_the_configuration_did_not_fail_to_renew() {
        let text = with_step(LEASES, 1_100, "\"remove-server\"\ntarget = \"leader\"");
        let (stepped, _) = watch_until_met(&text, Checkpoint::LeaderSteppedDown, 1_000, 3_000);
        assert!(
            stepped.is_some(),
            "the look-alike ticks the plain checkpoint"
        );
        let explanation =
            explanation_when_never_met(&text, Checkpoint::LeaseRenewalFailed, 1_000, 3_000);
        assert!(
            explanation.contains("removed from the configuration"),
            "{}",
            explanation
        );
    }

    /// A frozen leader renews nothing, but that is a pause, not a failed renewal.
    #[test]
    fn a_paused_leader_did_not_fail_to_renew() {
        let text = with_step(
            LEASES,
            1_100,
            "\"pause\"\ntarget = \"leader\"\nduration_ms = 1000",
        );
        explanation_when_never_met(&text, Checkpoint::LeaseRenewalFailed, 1_000, 3_000);
    }
}
