//! Applying user and scenario actions: faults, network changes, clock changes and client load.

use super::{ActionOutcome, EventKind, NodeStatus, World};
use crate::base::ids::NodeId;
use crate::contract::action::{Action, ByzantineMode, NodeTarget, PPM_ONE};
use crate::contract::protocol::{Input, Protocol};
use crate::engine::trace::TraceEvent;

/// Most requests one `Request` action may submit (a larger count is clamped).
pub const MAX_REQUESTS_PER_ACTION: u32 = 10_000;

impl World {
    /// Applies `action` at `now()`. It is recorded in the action log and in the trace (before its
    /// consequences, followed by a `Skipped` record when it could not run).
    pub fn apply(&mut self, action: &Action) -> ActionOutcome {
        self.note_leader_aim(action);
        self.action_log.push((self.now, action.clone()));
        self.record(TraceEvent::Action {
            action: action.clone(),
        });
        match self.apply_inner(action) {
            Ok(()) => ActionOutcome::Applied,
            Err(reason) => {
                self.record(TraceEvent::Skipped {
                    reason: reason.clone(),
                });
                ActionOutcome::Skipped { reason }
            }
        }
    }

    /// Remembers which node an action aimed at "the leader" reaches, before it runs (a crash of the
    /// leader must name the node that led, not the one elected after).
    fn note_leader_aim(&mut self, action: &Action) {
        let aims_at_leader = match action {
            Action::Crash { target }
            | Action::Restart { target }
            | Action::Pause { target, .. }
            | Action::Resume { target }
            | Action::Isolate { target }
            | Action::ClockJump { target, .. }
            | Action::ClockDrift { target, .. } => *target == NodeTarget::Leader,
            Action::Cut { from, to, .. } => [from, to].contains(&&NodeTarget::Leader),
            _ => false,
        };
        if let Some(leader) = self.current_leader().filter(|_| aims_at_leader) {
            self.leader_aims.push((self.action_log.len(), leader));
        }
    }

    pub(super) fn resolve(&self, target: NodeTarget) -> Result<NodeId, String> {
        match target {
            NodeTarget::Node(node) if node.index() < self.nodes.len() => Ok(node),
            NodeTarget::Node(node) => Err(self.not_in_world(node)),
            NodeTarget::Leader => self.current_leader().ok_or_else(|| self.no_leader()),
        }
    }

    fn apply_inner(&mut self, action: &Action) -> Result<(), String> {
        match action {
            Action::Crash { target } => self.crash(self.resolve(*target)?),
            Action::Restart { target } => self.restart(self.resolve(*target)?),
            Action::Pause {
                target,
                duration_ms,
            } => self.pause(self.resolve(*target)?, *duration_ms),
            Action::Resume { target } => self.resume(self.resolve(*target)?),
            Action::Partition { groups } => self.partition(groups),
            Action::Isolate { target } => {
                self.network.isolate(self.resolve(*target)?);
                Ok(())
            }
            Action::Cut { from, to, both } => {
                let (from, to) = (self.resolve(*from)?, self.resolve(*to)?);
                self.network.set_link(from, to, false);
                if *both {
                    self.network.set_link(to, from, false);
                }
                Ok(())
            }
            Action::Heal => {
                self.network.heal();
                Ok(())
            }
            Action::DropRate { ppm } => {
                self.network.drop_ppm = (*ppm).min(PPM_ONE);
                Ok(())
            }
            Action::ClockJump { target, by_ms } => {
                let node = self.resolve(*target)?;
                self.nodes[node.index()]
                    .clock
                    .jump(self.now, by_ms.saturating_mul(1_000));
                self.reschedule_timers(node);
                Ok(())
            }
            Action::ClockDrift { target, ppm } => {
                let node = self.resolve(*target)?;
                self.nodes[node.index()].clock.set_drift(self.now, *ppm);
                self.reschedule_timers(node);
                Ok(())
            }
            Action::Request {
                count,
                target,
                kind,
            } => {
                let node = self.resolve(*target);
                for _ in 0..(*count).min(MAX_REQUESTS_PER_ACTION) {
                    self.submit_request(node.as_ref().ok().copied(), kind);
                }
                node.map(|_| ())
            }
            Action::SetLink { between, settings } => self.set_link(*between, settings),
            Action::ClearLink { between } => self.clear_link(*between),
            Action::Regions { groups } => self.regions(groups),
            Action::DropMessage { message, from, to } => self.drop_message(*message, *from, *to),
            Action::HoldMessage {
                message,
                from,
                to,
                by_ms,
            } => self.hold_message(*message, (*from, *to), *by_ms),
            Action::Byzantine { target, mode } => {
                let node = self.resolve(*target)?;
                let name = self.node_label(node);
                self.nodes[node.index()]
                    .actor
                    .turn_byzantine(*mode)
                    .map_err(|reason| format!("{name} cannot lie: {reason}"))?;
                if *mode != ByzantineMode::Honest {
                    self.tell_raft_of_a_liar();
                }
                Ok(())
            }
            Action::AddServer { id } => {
                self.add_server(*id)?;
                // A server that joins a world with a liar in it is told too.
                if self.nodes.iter().any(|slot| {
                    slot.actor
                        .as_raft()
                        .is_some_and(|raft| raft.knows_of_a_liar())
                }) {
                    self.tell_raft_of_a_liar();
                }
                Ok(())
            }
            Action::RemoveServer { target } => self.remove_server(*target),
            Action::MalformedWrite { target, fault } => self.send_malformed_write(*target, *fault),
            Action::SlowDisk { target, persist_ms } => self.slow_disk(*target, *persist_ms),
            Action::DuplicateMessage { message, from, to } => {
                self.duplicate_message(*message, (*from, *to))
            }
        }
    }

    /// Every Raft server learns that the world holds a liar, so its debug checks stand down (a liar
    /// breaks what they assert on purpose); nothing it does changes.
    fn tell_raft_of_a_liar(&mut self) {
        for slot in &mut self.nodes {
            if let Some(raft) = slot.actor.as_raft_mut() {
                raft.hear_of_a_liar();
            }
        }
    }

    /// Why "the leader" names nobody: Redis-style servers never elect one.
    fn no_leader(&self) -> String {
        if self.speaks_redis() {
            "Redis-style lock servers elect no leader: pick a server or client by name".to_string()
        } else {
            "no up node believes it leads".to_string()
        }
    }

    /// Names the actors a coordination world has, so the message speaks the learner's language.
    pub(super) fn not_in_world(&self, node: NodeId) -> String {
        match self.layout() {
            Some(layout) => {
                let names: Vec<String> = (0..layout.total())
                    .map(|index| self.node_label(NodeId(index as u16)))
                    .collect();
                format!("{node} is not in this world ({})", names.join(", "))
            }
            None => format!("{node} is not in this {}-node cluster", self.nodes.len()),
        }
    }

    fn partition(&mut self, groups: &[Vec<NodeId>]) -> Result<(), String> {
        let count = self.nodes.len();
        if let Some(node) = groups.iter().flatten().find(|node| node.index() >= count) {
            return Err(self.not_in_world(*node));
        }
        self.network.partition(groups);
        Ok(())
    }

    fn crash(&mut self, node: NodeId) -> Result<(), String> {
        let slot = &mut self.nodes[node.index()];
        if slot.status == NodeStatus::Crashed {
            return Err(format!("{} is already crashed", self.node_label(node)));
        }
        slot.status = NodeStatus::Crashed;
        slot.actor.crash();
        slot.timers.clear();
        slot.backlog.clear();
        slot.pause_generation += 1;
        self.forget_replies_waiting_on_disk(node);
        self.refresh_leadership(node);
        Ok(())
    }

    fn restart(&mut self, node: NodeId) -> Result<(), String> {
        if self.nodes[node.index()].status != NodeStatus::Crashed {
            return Err(format!("{} is not crashed", self.node_label(node)));
        }
        self.nodes[node.index()].status = NodeStatus::Up;
        self.dispatch(node, Input::Recover);
        Ok(())
    }

    fn pause(&mut self, node: NodeId, duration_ms: Option<u64>) -> Result<(), String> {
        let slot = &mut self.nodes[node.index()];
        if slot.status != NodeStatus::Up {
            let status = slot.status.as_str();
            return Err(format!("{} is {status}, not up", self.node_label(node)));
        }
        slot.status = NodeStatus::Paused;
        slot.pause_generation += 1;
        let pause_generation = slot.pause_generation;
        if let Some(duration_ms) = duration_ms {
            let at = self.now.plus_ms(duration_ms);
            self.queue.push(
                at,
                EventKind::Resume {
                    node,
                    pause_generation,
                },
            );
        }
        self.refresh_leadership(node);
        Ok(())
    }

    fn resume(&mut self, node: NodeId) -> Result<(), String> {
        if self.nodes[node.index()].status != NodeStatus::Paused {
            return Err(format!("{} is not paused", self.node_label(node)));
        }
        self.resume_node(node);
        Ok(())
    }

    /// The node does not learn it was paused: it keeps its role and term, and its overdue timers and
    /// queued inputs are handled by a `DrainBacklog` event right after.
    pub(super) fn resume_node(&mut self, node: NodeId) {
        let slot = &mut self.nodes[node.index()];
        slot.status = NodeStatus::Up;
        slot.pause_generation += 1;
        self.queue.push(self.now, EventKind::DrainBacklog { node });
        self.refresh_leadership(node);
    }
}
