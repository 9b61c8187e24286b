//! Evaluating a checkpoint on a live world, with the little it must remember between calls.
//!
//! Some conditions are about *change*: "the leader changed" needs the leader at the moment the step
//! began, "no leader for 500 ms" needs the moment leadership was last seen, "the store rejected a stale
//! token" needs the rejection count when the step began. A [`CheckpointEvaluator`] is created when a step
//! starts, remembers that baseline, and is then asked again and again (the app asks every frame, the
//! runner every few simulated milliseconds). Once satisfied it stays satisfied: the step has ticked.
//!
//! Every answer carries a sentence saying why, so the app can show "not yet: n3 still leads in term 2"
//! rather than a bare red cross.

mod believers;
mod byzantine;
mod client_history;
mod coordination;
mod elections;
mod grants;
mod holder_crash;
mod holders;
mod leader_lease;
mod lock_delay;
mod lock_timeout;
mod lost_quorum;
mod malformed;
mod membership;
mod message_tally;
mod minority;
mod paused_holder;
mod paused_phase;
mod progress;
mod quorum;
mod reach;
mod requests;
mod set_nx;
mod stale_write;
mod stranded_leader;
#[cfg(test)]
pub(crate) mod test_support;
mod tokens;
mod tolerance;
mod trace_cursor;
mod violations;
mod woken_leader;

use super::checkpoint::Checkpoint;
use crate::base::ids::NodeId;
use crate::base::time::SimTime;
use crate::base::units::Term;
use crate::contract::action::NodeTarget;
use crate::contract::checkpoint::{counted, CheckpointWatch};
use crate::contract::protocol::{Protocol, RoleLabel};
use crate::engine::checker::locks::NO_DUPLICATE_INVOICE;
use crate::engine::world::{NodeStatus, World};

pub use crate::contract::checkpoint::Verdict;

/// One checkpoint being watched from the start of its step.
#[derive(Clone, Debug)]
pub struct CheckpointEvaluator {
    checkpoint: Checkpoint,
    /// The leader (node, term) when the step began, or the first one seen after that.
    start_leader: Option<(NodeId, Term)>,
    /// When the cluster was last seen without a leader after having one (or since the step began).
    leaderless_since: Option<SimTime>,
    rejected_at_start: u64,
    /// Commit indexes when servers were first seen gone (the minority and member-loss checkpoints).
    minority: minority::MinorityWatch,
    /// Violations per invariant when the step began (for checkpoints about a new violation).
    violations_at_start: violations::ViolationBaseline,
    /// When the step began, and whether a watched server has fallen behind since.
    progress: progress::ProgressWatch,
    /// Jobs, duplicates, notifications and the leading candidate, for the coordination checkpoints.
    coordination: coordination::CoordinationBaseline,
    /// Two clients already believed they held the lock when the step began (left over from the step
    /// before): that overlap does not count, a new one must begin. Cleared once it ends.
    overlap_at_start: bool,
    /// Tokens before and after a failover of the lock service.
    tokens: tokens::TokenWatch,
    /// The commit index while the cluster had no leader.
    quorum: quorum::QuorumWatch,
    /// Client request outcomes since the step began.
    requests: requests::RequestWatch,
    /// A struck lock holder and what must follow (pause, crash, lost reply, queue).
    holders: holders::HolderWatch,
    /// The store's refusals when the step began, and the phase each paused worker froze in.
    stale_write: stale_write::StaleWriteWatch,
    /// Where each paused worker froze, for the lost update a late write makes.
    paused_phases: paused_phase::PausedPhases,
    /// Per worker, the `SET NX` retries that found the worker's own value when the step began.
    set_nx: set_nx::SetNxWatch,
    /// Violations, views, commits and messages for the checkpoints about lying nodes.
    byzantine: byzantine::ByzantineWatch,
    /// Grants recorded when the step began, and when the service failed over.
    grants: grants::GrantWatch,
    /// The configuration counted when the step began (membership checkpoints).
    membership: membership::MembershipWatch,
    /// Lock-delays seen in force and overlaps since the step began.
    delays: lock_delay::DelayWatch,
    /// Each term's candidates, votes and winner since the step began (leader changes, split votes).
    elections: elections::ElectionWatch,
    /// A single failure that left no majority, and what was committed before it.
    tolerance: tolerance::ToleranceWatch,
    /// The holds the lock service applied, read off the trace, and the crashes since the step began.
    holder_crash: holder_crash::HolderCrashWatch,
    /// The leader whose lease is watched: when it fell, and why it stepped down.
    lease: leader_lease::LeaderLeaseWatch,
    /// A paused leader, its successor, and what it sent after waking.
    woken: woken_leader::WokenLeaderWatch,
    /// Lock holders seen frozen, and the store's refusals of their late writes.
    paused_holder: paused_holder::PausedHolderWatch,
    /// Leaderless stretches and failed requests while no majority could be reached.
    lost_quorum: lost_quorum::LostQuorumWatch,
    /// Writes held by a leader cut off from a majority, and entries such leaders lost on rejoining.
    stranded: stranded_leader::StrandedLeaderWatch,
    /// Lock requests that timed out and went again.
    lock_timeout: lock_timeout::LockTimeoutWatch,
    /// The store's malformed and stale refusals since the step began.
    malformed: malformed::MalformedWatch,
    /// The last verdict on what the clients saw, and the step's start.
    history: client_history::HistoryWatch,
    /// A world's own checkpoint, watched by its folder's code.
    world: Option<Box<dyn CheckpointWatch>>,
    /// Set once the checkpoint has been met; later calls return it unchanged.
    met: Option<Verdict>,
}

impl CheckpointEvaluator {
    /// Starts watching `checkpoint` on `world` as it is now.
    pub fn begin(checkpoint: Checkpoint, world: &World) -> CheckpointEvaluator {
        let start_leader = leader_and_term(world);
        let progress = progress::ProgressWatch::begin(&checkpoint, world, start_leader);
        let overlap_at_start = checkpoint == Checkpoint::TwoClientsBelieveTheyHoldLock
            && believers::two_believers(world).satisfied;
        let overwrites = checkpoint == Checkpoint::OldLeaderEntriesOverwritten;
        let own_watch = match &checkpoint {
            Checkpoint::World(own) => Some((own.spec.begin)(own.argument, world)),
            _ => None,
        };
        CheckpointEvaluator {
            overlap_at_start,
            checkpoint,
            start_leader,
            leaderless_since: start_leader.is_none().then_some(world.now()),
            rejected_at_start: rejected_count(world),
            minority: minority::MinorityWatch::default(),
            violations_at_start: violations::ViolationBaseline::of(world),
            progress,
            coordination: coordination::CoordinationBaseline::begin(world),
            tokens: tokens::TokenWatch::default(),
            quorum: quorum::QuorumWatch::begin(world),
            requests: requests::RequestWatch::begin(world),
            holders: holders::HolderWatch::begin(world),
            set_nx: set_nx::SetNxWatch::begin(world),
            stale_write: stale_write::StaleWriteWatch::begin(world),
            paused_phases: paused_phase::PausedPhases::begin(world),
            byzantine: byzantine::ByzantineWatch::begin(world),
            grants: grants::GrantWatch::begin(world),
            membership: membership::MembershipWatch::begin(world),
            delays: lock_delay::DelayWatch::begin(world),
            elections: elections::ElectionWatch::begin(world),
            tolerance: tolerance::ToleranceWatch::begin(world),
            holder_crash: holder_crash::HolderCrashWatch::begin(world),
            lease: leader_lease::LeaderLeaseWatch::begin(world),
            woken: woken_leader::WokenLeaderWatch::begin(world),
            paused_holder: paused_holder::PausedHolderWatch::begin(world),
            lost_quorum: lost_quorum::LostQuorumWatch::begin(world),
            stranded: stranded_leader::StrandedLeaderWatch::begin(world, overwrites),
            lock_timeout: lock_timeout::LockTimeoutWatch::begin(world),
            malformed: malformed::MalformedWatch::begin(world),
            history: client_history::HistoryWatch::begin(world),
            world: own_watch,
            met: None,
        }
    }

    pub fn checkpoint(&self) -> &Checkpoint {
        &self.checkpoint
    }

    /// Evaluates the checkpoint now, updating what it remembers.
    pub fn check(&mut self, world: &World) -> Verdict {
        if let Some(verdict) = &self.met {
            return verdict.clone();
        }
        let verdict = self.evaluate(world);
        if verdict.satisfied {
            self.met = Some(verdict.clone());
        }
        verdict
    }

    fn evaluate(&mut self, world: &World) -> Verdict {
        let leader = leader_and_term(world);
        if self.start_leader.is_none() {
            self.start_leader = self.elections.first_winner(world).or(leader);
        }
        match leader {
            Some(_) => self.leaderless_since = None,
            None => {
                self.leaderless_since.get_or_insert(world.now());
            }
        }
        match &self.checkpoint {
            Checkpoint::LeaderChanged => {
                self.elections
                    .leader_changed(world, self.start_leader, leader)
            }
            Checkpoint::TermAtLeast(term) => term_at_least(world, *term),
            Checkpoint::NoLeaderForMs(ms) => self.no_leader_for(world, *ms),
            Checkpoint::MinorityCannotCommit => self.minority.minority_cannot_commit(world),
            Checkpoint::NodeCrashed(target) => {
                self.node_status(world, *target, NodeStatus::Crashed)
            }
            Checkpoint::NodePaused(Some(target)) => {
                self.node_status(world, *target, NodeStatus::Paused)
            }
            Checkpoint::NodePaused(None) => any_paused(world),
            Checkpoint::Partitioned => partitioned(world),
            Checkpoint::LeaderSteppedDown => self.leader_stepped_down(world),
            Checkpoint::CommitIndexAtLeast(index) => commit_index_at_least(world, *index),
            Checkpoint::ResourceRejectedStaleToken => self.stale_token_rejected(world),
            Checkpoint::TwoClientsBelieveTheyHoldLock => self.new_two_believers(world),
            Checkpoint::DuplicateInvoice => duplicate_invoice(world),
            Checkpoint::JobsDoneWhilePaused(jobs) => {
                self.coordination.jobs_done_while_paused(world, *jobs)
            }
            Checkpoint::JobsDoneWithoutLeader(jobs) => {
                self.coordination.jobs_done_without_leader(world, *jobs)
            }
            Checkpoint::DuplicateWriteIgnored => self.coordination.duplicate_write_ignored(world),
            Checkpoint::MissedInvoice => self.progress.missed_invoice(world),
            Checkpoint::NodeCaughtUp(target) => match self.resolve(*target) {
                Some(node) => self.progress.caught_up(world, node),
                None => Verdict::not_yet("there was no leader when this step began".into()),
            },
            Checkpoint::StaleRead => self.violations_at_start.stale_read(world),
            Checkpoint::LockReleasedByWrongOwner => {
                self.violations_at_start.released_by_wrong_owner(world)
            }
            Checkpoint::LostUpdate => {
                self.paused_phases.note(world);
                let hint = self.paused_phases.hint(world);
                self.violations_at_start.lost_update(world, hint)
            }
            Checkpoint::BatchRedoRecognised => self.coordination.batch_redo_recognised(world),
            Checkpoint::QuorumRegained => self.quorum.check(world),
            Checkpoint::StaleWriteRefused => self.stale_write.check(world),
            Checkpoint::TokensGrewAfterFailover => {
                let changed = tokens::later_term(self.start_leader, leader);
                self.tokens.check(world, changed)
            }
            Checkpoint::WriteAcknowledgedAfterMs(ms) => {
                self.requests.write_acknowledged_after(world, *ms)
            }
            Checkpoint::WriteRefusedOrUnknown => self.requests.refused_or_unknown(world),
            Checkpoint::LeaseKeptThroughPause => self.holders.lease_kept_through_pause(world),
            Checkpoint::CrashedHolderAskedAgain => self.holders.crashed_holder_asked_again(world),
            Checkpoint::LockReplyLost => self.holders.lock_reply_lost(world),
            Checkpoint::LockQueueAtLeast(wanted) => {
                self.holders.lock_queue_at_least(world, *wanted)
            }
            Checkpoint::LockFoundAlreadyHeld => self.set_nx.found_already_held(world),
            Checkpoint::TwoLeadersInOneTerm => self.byzantine.two_leaders_in_one_term(world),
            Checkpoint::AppliedCommandsDiverged => self.byzantine.applied_commands_diverged(world),
            Checkpoint::RequestsCommittedAtLeast(wanted) => {
                self.byzantine.requests_committed_at_least(world, *wanted)
            }
            Checkpoint::RequestsCommittedWhileLying(wanted) => self
                .byzantine
                .requests_committed_while_lying(world, *wanted),
            Checkpoint::TokensRoseAcrossFailover => {
                let changed = tokens::later_term(self.start_leader, leader);
                self.grants.check(world, changed)
            }
            Checkpoint::ServerJoinedAsVoter => self.membership.server_joined_as_voter(world),
            Checkpoint::LeaderRemovedAndReplaced => self
                .membership
                .leader_removed_and_replaced(world, self.start_leader.map(|(node, _)| node)),
            Checkpoint::LockHeldBackByDelay => self.delays.lock_held_back_by_delay(world),
            Checkpoint::OverlapDespiteDelay => self.delays.overlap_despite_delay(world),
            Checkpoint::SplitVote => self.elections.split_vote(world),
            Checkpoint::NoFaultTolerance => self.tolerance.no_fault_tolerance(world),
            Checkpoint::LockHolderCrashed(target) => {
                let worker = target.and_then(|target| self.resolve(target));
                if target.is_some() && worker.is_none() {
                    return Verdict::not_yet("there was no leader when this step began".into());
                }
                self.holder_crash.lock_holder_crashed(world, worker)
            }
            Checkpoint::World(own) => match &mut self.world {
                Some(watch) => watch.check(world),
                None => Verdict::not_yet(format!("{own:?} was never begun")),
            },
            Checkpoint::LeaseFailoverGapMs(_)
            | Checkpoint::LeaseRenewalFailed
            | Checkpoint::WokenLeaderActedOnOldTerm
            | Checkpoint::LockGrantedWhileHolderPaused
            | Checkpoint::PausedHolderWriteRefused
            | Checkpoint::CommittedWithServersGone(_)
            | Checkpoint::SplitMinorityCannotCommit
            | Checkpoint::NoLeaderWithoutQuorumForMs(_)
            | Checkpoint::WriteRefusedOrUnknownWithoutQuorum
            | Checkpoint::CrashedLeaderReplaced
            | Checkpoint::StrandedLeaderWriteUnknown
            | Checkpoint::OldLeaderEntriesOverwritten
            | Checkpoint::LockRequestTimedOut
            | Checkpoint::MalformedRequestRejected
            | Checkpoint::HistoryRefused
            | Checkpoint::UnknownOutcomeLinearizable => self.evaluate_edge_case(world, leader),
        }
    }

    /// The checkpoints that each ask for one edge case and nothing that looks like it.
    fn evaluate_edge_case(&mut self, world: &World, leader: Option<(NodeId, Term)>) -> Verdict {
        match &self.checkpoint {
            Checkpoint::LeaseFailoverGapMs(ms) => self.lease.lease_failover_gap(world, *ms),
            Checkpoint::LeaseRenewalFailed => self.lease.lease_renewal_failed(world),
            Checkpoint::WokenLeaderActedOnOldTerm => self.woken.acted_on_old_term(world),
            Checkpoint::LockGrantedWhileHolderPaused => {
                self.paused_holder.granted_while_paused(world)
            }
            Checkpoint::PausedHolderWriteRefused => self
                .paused_holder
                .write_refused(world, &mut self.stale_write),
            Checkpoint::CommittedWithServersGone(count) => {
                self.minority.committed_with_servers_gone(world, *count)
            }
            Checkpoint::SplitMinorityCannotCommit => {
                self.minority.split_minority_cannot_commit(world)
            }
            Checkpoint::NoLeaderWithoutQuorumForMs(ms) => {
                self.lost_quorum.no_leader_for(world, *ms)
            }
            Checkpoint::WriteRefusedOrUnknownWithoutQuorum => {
                self.lost_quorum.refused_or_unknown(world)
            }
            Checkpoint::CrashedLeaderReplaced => {
                self.elections
                    .crashed_leader_replaced(world, self.start_leader, leader)
            }
            Checkpoint::StrandedLeaderWriteUnknown => self.stranded.write_unknown(world),
            Checkpoint::OldLeaderEntriesOverwritten => self.stranded.entries_overwritten(world),
            Checkpoint::LockRequestTimedOut => self.lock_timeout.acquire_timed_out(world),
            Checkpoint::MalformedRequestRejected => self.malformed.check(world),
            Checkpoint::HistoryRefused => self.history.refused(world),
            Checkpoint::UnknownOutcomeLinearizable => self.history.unknown_yet_linearizable(world),
            // `evaluate` sends only the checkpoints above here.
            other => Verdict::not_yet(format!("{other:?} is judged elsewhere")),
        }
    }

    fn no_leader_for(&self, world: &World, wanted_ms: u64) -> Verdict {
        match self.leaderless_since {
            None => Verdict::not_yet("a leader is in charge right now".into()),
            Some(since) => {
                let leaderless_ms = world.now().saturating_since(since) / 1_000;
                if leaderless_ms >= wanted_ms {
                    Verdict::yes(format!("no leader for {leaderless_ms} ms"))
                } else {
                    Verdict::not_yet(format!(
                        "no leader for {leaderless_ms} ms so far (waiting for {wanted_ms} ms)"
                    ))
                }
            }
        }
    }

    fn resolve(&self, target: NodeTarget) -> Option<NodeId> {
        match target {
            NodeTarget::Node(node) => Some(node),
            NodeTarget::Leader => self.start_leader.map(|(node, _)| node),
        }
    }

    fn node_status(&self, world: &World, target: NodeTarget, wanted: NodeStatus) -> Verdict {
        let Some(node) = self.resolve(target) else {
            return Verdict::not_yet("there was no leader when this step began".into());
        };
        let status = world.nodes()[node.index()].status;
        let label = world.node_label(node);
        if status == wanted {
            Verdict::yes(format!("{label} is {}", status.as_str()))
        } else {
            Verdict::not_yet(format!("{label} is {}", status.as_str()))
        }
    }

    fn leader_stepped_down(&self, world: &World) -> Verdict {
        let Some((node, term)) = self.start_leader else {
            return Verdict::not_yet("there was no leader when this step began".into());
        };
        let label = world.node_label(node);
        let slot = &world.nodes()[node.index()];
        let summary = slot.actor.summary();
        match (slot.status, summary.role) {
            (NodeStatus::Up, RoleLabel::Leader) => Verdict::not_yet(format!(
                "{label} still believes it leads (its term: {})",
                summary.term
            )),
            (NodeStatus::Up, _) => Verdict::yes(format!(
                "{label}, leader of term {term}, is now a follower in term {}",
                summary.term
            )),
            (status, _) => Verdict::not_yet(format!(
                "{label} is {}: it cannot step down until it runs again",
                status.as_str()
            )),
        }
    }

    fn stale_token_rejected(&self, world: &World) -> Verdict {
        let Some(resource) = world.coordination_view().and_then(|view| view.resource) else {
            return Verdict::not_yet("this world has no protected resource".into());
        };
        let new_rejections = resource.rejected.saturating_sub(self.rejected_at_start);
        if new_rejections > 0 {
            Verdict::yes(format!(
                "the store refused {} with a stale token (highest token seen: {})",
                counted(new_rejections, "access", "accesses"),
                resource.highest_seen
            ))
        } else if !resource.fencing {
            Verdict::not_yet("the store does not check tokens (fencing is off)".into())
        } else {
            Verdict::not_yet(format!(
                "the store has refused nothing yet (highest token seen: {})",
                resource.highest_seen
            ))
        }
    }
}

/// The up node that believes it leads with the highest term, and that term.
fn leader_and_term(world: &World) -> Option<(NodeId, Term)> {
    let leader = world.current_leader()?;
    Some((leader, world.nodes()[leader.index()].actor.summary().term))
}

/// Servers only: in a coordination world the workers and the store have no terms or logs.
fn server_count(world: &World) -> usize {
    world
        .layout()
        .map_or(world.node_count(), |layout| layout.servers)
}

fn servers(world: &World) -> impl Iterator<Item = NodeId> {
    (0..server_count(world)).map(|index| NodeId(index as u16))
}

fn term_at_least(world: &World, wanted: u64) -> Verdict {
    let highest = servers(world)
        .map(|node| world.nodes()[node.index()].actor.summary().term)
        .max()
        .unwrap_or_default();
    let text = format!("the highest term any node has reached is {highest}");
    if highest.0 >= wanted {
        Verdict::yes(text)
    } else {
        Verdict::not_yet(format!("{text} (waiting for {wanted})"))
    }
}

fn commit_index_at_least(world: &World, wanted: u64) -> Verdict {
    let highest = servers(world)
        .map(|node| world.nodes()[node.index()].actor.summary().commit_index)
        .max()
        .unwrap_or_default();
    let text = format!("the highest commit index is {highest}");
    if highest.0 >= wanted {
        Verdict::yes(text)
    } else {
        Verdict::not_yet(format!("{text} (waiting for {wanted})"))
    }
}

fn any_paused(world: &World) -> Verdict {
    let paused: Vec<String> = (0..world.node_count())
        .map(|index| NodeId(index as u16))
        .filter(|node| world.nodes()[node.index()].status == NodeStatus::Paused)
        .map(|node| world.node_label(node))
        .collect();
    if paused.is_empty() {
        Verdict::not_yet("no node is paused".into())
    } else {
        Verdict::yes(format!("paused: {}", paused.join(", ")))
    }
}

fn partitioned(world: &World) -> Verdict {
    let cuts = world.network().cuts().len();
    if cuts > 0 {
        Verdict::yes(format!(
            "{} cut",
            counted(cuts as u64, "one-way link is", "one-way links are")
        ))
    } else {
        Verdict::not_yet("every link is up".into())
    }
}

fn rejected_count(world: &World) -> u64 {
    world
        .coordination_view()
        .and_then(|view| view.resource)
        .map_or(0, |resource| resource.rejected)
}

fn duplicate_invoice(world: &World) -> Verdict {
    let duplicates = world
        .checkers()
        .violation_counts()
        .get(NO_DUPLICATE_INVOICE)
        .copied()
        .unwrap_or(0);
    if duplicates > 0 {
        Verdict::yes(format!(
            "the invoice store recorded a minute twice ({})",
            counted(duplicates, "time", "times")
        ))
    } else {
        Verdict::not_yet("no minute has been invoiced twice".into())
    }
}

#[cfg(test)]
mod tests;
