//! A read-only snapshot of the world for the UI, rebuilt every animation frame.
//!
//! Plain serde data, no floats, no references into the world. Cost is linear in nodes, their logs'
//! terms, timers, messages in flight (at most `MAX_IN_FLIGHT`) and cut links; no sorting, no hashing.

use crate::base::ids::NodeId;
use crate::base::units::{LogIndex, Term};
use crate::contract::action::ByzantineMode;
use crate::contract::link_settings::LinkSettings;
use crate::contract::protocol::{ClientOutcome, Protocol, RoleLabel};
use crate::engine::network::LinkCut;
use crate::engine::world::{ClientRecord, NodeStatus, World};
use crate::protocols::lockservice::etcd::etcd_label;
use crate::protocols::raft::membership::ChangeInProgress;
use crate::protocols::raft::Command;
use crate::views::message_content::message_content;
use crate::worlds::actor::ClusterRaft;
use crate::worlds::registry::speaks_etcd;
use serde::Serialize;

/// Newest log entries shown per node, so a frame stays cheap however long the logs grow.
pub const MAX_VIEW_LOG_ENTRIES: usize = 256;

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ClusterView {
    pub now_us: u64,
    pub nodes: Vec<NodeView>,
    pub messages: Vec<MessageView>,
    pub cut_links: Vec<LinkCut>,
    /// Links with settings of their own (`link_settings`), lower node first, in order.
    pub link_settings: Vec<LinkSettingView>,
    pub partition_groups: Vec<Vec<NodeId>>,
    pub drop_ppm: u32,
    pub duplicate_ppm: u32,
    /// Newest last.
    pub recent_requests: Vec<ClientRecord>,
    pub pending_requests: u64,
    pub leader: Option<NodeId>,
    pub violation_count: u64,
    /// Coordination worlds (lock service, workers, resource); `None` for a plain Raft cluster.
    pub coordination: Option<crate::views::view_coordination::CoordinationView>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct NodeView {
    pub id: NodeId,
    pub status: NodeStatus,
    pub role: RoleLabel,
    pub term: Term,
    pub voted_for: Option<NodeId>,
    pub leader_hint: Option<NodeId>,
    pub commit_index: LogIndex,
    pub applied_index: LogIndex,
    pub log_len: u64,
    /// Terms of the newest log entries (at most `MAX_VIEW_LOG_ENTRIES`), the first at `log_terms_from_index`.
    pub log_terms: Vec<Term>,
    pub log_terms_from_index: LogIndex,
    /// Indexes (among the entries shown) that hold a configuration entry, lowest first: the log strip
    /// draws them apart from commands.
    pub config_entries: Vec<LogIndex>,
    /// Who this node counts as voters (the newest configuration in its log, or its hand-edited file in
    /// the unsafe direct mode), lowest first; the quorum badge counts a majority of these. Empty for
    /// nodes that run no Raft.
    pub voters: Vec<NodeId>,
    /// Where `voters` comes from: the index of that configuration entry, 0 for the cluster the servers
    /// started as (or for a hand-edited file, see `config_edited_by_hand`).
    pub config_index: LogIndex,
    /// The unsafe direct mode rewrote this server's configuration by hand (outside the log).
    pub config_edited_by_hand: bool,
    /// Only on a leader: the learner it is catching up before the entry that adds it.
    pub catching_up: Option<NodeId>,
    /// Only on a leader: per node: per node (itself included).
    pub next_index: Option<Vec<LogIndex>>,
    pub match_index: Option<Vec<LogIndex>>,
    /// Candidates: who granted a vote (or pre-vote) so far.
    pub votes_from: Vec<NodeId>,
    /// Leaders with lease reads on: whether the lease holds on the leader's own clock right now.
    pub lease_holds: Option<bool>,
    pub local_clock_us: i64,
    pub true_clock_us: u64,
    pub clock_offset_us: i64,
    pub clock_drift_ppm: i64,
    pub timers: Vec<TimerView>,
    /// Inputs waiting at a paused node.
    pub queued_inputs: u64,
    /// How the node lies, if it was made Byzantine: kept while it is down, since the fault is in what
    /// it runs, not in what it remembers, and a restart runs the same thing again. What it does right
    /// now is [`NodeView::lying_now`].
    pub lying: Option<ByzantineMode>,
    /// How long a write to this node's disk takes now, ms (`[0, 0]`: at once).
    pub persist_ms: (u64, u64),
    /// The disk's time is the node's own (a slow disk was given it), not the world's.
    pub disk_slowed: bool,
    /// The node writes to disk before it answers (Raft servers, Paxos acceptors and proposers,
    /// two-phase commit's nodes), so a slow disk changes what it does.
    pub disk_matters: bool,
}

impl NodeView {
    /// How the node lies at this moment: a crashed node sends nothing, so it tells no lies while down.
    pub fn lying_now(&self) -> Option<ByzantineMode> {
        self.lying.filter(|_| self.status != NodeStatus::Crashed)
    }

    /// A crashed liar's mode, which it lies in again from its restart on (until made honest).
    pub fn lies_after_restart(&self) -> Option<ByzantineMode> {
        self.lying.filter(|_| self.status == NodeStatus::Crashed)
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TimerView {
    pub kind: &'static str,
    pub started_at_us: u64,
    pub due_at_us: u64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct LinkSettingView {
    pub between: (NodeId, NodeId),
    pub settings: LinkSettings,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MessageView {
    pub id: u64,
    pub from: NodeId,
    pub to: NodeId,
    pub kind: &'static str,
    pub term: Term,
    pub entry_count: u32,
    pub sent_at_us: u64,
    pub deliver_at_us: u64,
    pub dropped: bool,
    /// Milliseconds a learner has held it back (0 when untouched).
    pub held_ms: u64,
    /// What it says (`views::message_content`), for worlds whose nodes can lie.
    pub content: Option<String>,
}

impl World {
    pub fn view(&self) -> ClusterView {
        let network = self.network();
        let labels: Vec<String> = (0..self.node_count())
            .map(|index| self.node_label(NodeId(index as u16)))
            .collect();
        let name = |node: NodeId| labels.get(node.index()).cloned().unwrap_or_default();
        // The trace keeps the wire labels (they are fingerprinted); the drawing uses etcd's names.
        let etcd = speaks_etcd(self.config().protocol.kind());
        let messages = network
            .in_flight
            .in_id_order()
            .into_iter()
            .map(|flight| MessageView {
                id: flight.id,
                from: flight.from,
                to: flight.to,
                kind: if etcd {
                    etcd_label(flight.label)
                } else {
                    flight.label
                },
                term: flight.message.term(),
                entry_count: flight.message.entry_count(),
                sent_at_us: flight.sent_at.as_micros(),
                deliver_at_us: flight.deliver_at.as_micros(),
                dropped: flight.dropped,
                held_ms: flight.held_ms,
                content: message_content(&flight.message, &name),
            })
            .collect();
        ClusterView {
            now_us: self.now().as_micros(),
            nodes: (0..self.node_count())
                .map(|index| self.node_view(NodeId(index as u16)))
                .collect(),
            messages,
            cut_links: network.cuts(),
            link_settings: network
                .link_settings()
                .map(|(between, settings)| LinkSettingView { between, settings })
                .collect(),
            partition_groups: network.partition_groups.clone(),
            drop_ppm: network.drop_ppm,
            duplicate_ppm: network.duplicate_ppm,
            recent_requests: self.clients().recent.iter().cloned().collect(),
            pending_requests: self
                .clients()
                .pending()
                .filter(|record| record.outcome == ClientOutcome::Pending)
                .count() as u64,
            leader: self.current_leader(),
            violation_count: self.checkers().total_violations(),
            coordination: self.coordination_view(),
        }
    }

    pub fn node_view(&self, node: NodeId) -> NodeView {
        let slot = &self.nodes()[node.index()];
        let now = self.now();
        let summary = slot.actor.summary();
        let raft = slot.actor.as_raft();
        let leader = raft.and_then(|raft| raft.volatile.leader.as_ref());
        let first_shown = summary.log_len.saturating_sub(MAX_VIEW_LOG_ENTRIES as u64) + 1;
        let timers = slot
            .timers
            .values()
            .map(|timer| TimerView {
                kind: timer.label,
                started_at_us: timer.set_at.as_micros(),
                due_at_us: timer.due_at.as_micros(),
            })
            .collect();
        NodeView {
            id: node,
            status: slot.status,
            role: summary.role,
            term: summary.term,
            voted_for: raft.and_then(|raft| raft.durable.voted_for),
            leader_hint: raft.and_then(|raft| raft.volatile.leader_hint),
            commit_index: summary.commit_index,
            applied_index: raft.map_or(LogIndex::ZERO, |raft| raft.volatile.applied_index),
            log_len: summary.log_len,
            log_terms: raft.map_or_else(Vec::new, |raft| {
                raft.log().terms().skip(first_shown as usize - 1).collect()
            }),
            log_terms_from_index: LogIndex(first_shown),
            config_entries: raft
                .map_or_else(Vec::new, |raft| config_entries(raft, LogIndex(first_shown))),
            voters: raft.map_or_else(Vec::new, |raft| raft.voters().iter().collect()),
            config_index: raft.map_or(LogIndex::ZERO, |raft| match raft.membership.config_file {
                Some(_) => LogIndex::ZERO,
                None => raft.membership.logged_index,
            }),
            config_edited_by_hand: raft.is_some_and(|raft| raft.membership.config_file.is_some()),
            catching_up: leader.and_then(|leader| match leader.membership.change {
                Some(ChangeInProgress::CatchingUp { learner, .. }) => Some(learner),
                _ => None,
            }),
            next_index: leader.map(|leader| leader.next_index.clone()),
            match_index: leader.map(|leader| leader.match_index.clone()),
            votes_from: raft
                .filter(|raft| {
                    matches!(raft.role(), RoleLabel::Candidate | RoleLabel::PreCandidate)
                })
                .map_or_else(Vec::new, |raft| {
                    let granted = raft.volatile.votes_granted.iter().enumerate();
                    granted
                        .filter(|(_, vote)| **vote)
                        .map(|(index, _)| NodeId(index as u16))
                        .collect()
                }),
            lease_holds: raft
                .filter(|raft| raft.is_leader() && raft.options.lease_reads())
                .map(|raft| raft.lease_holds(slot.clock.local_us(now))),
            local_clock_us: slot.clock.local_signed_us(now),
            true_clock_us: now.as_micros(),
            clock_offset_us: slot.clock.offset_us(now),
            clock_drift_ppm: slot.clock.drift_ppm(),
            timers,
            queued_inputs: slot.backlog_len() as u64,
            lying: slot.actor.lying_mode(),
            persist_ms: self.persist_ms(node),
            disk_slowed: slot.disk.own_persist_ms.is_some(),
            disk_matters: slot.actor.persists(),
        }
    }
}

/// The configuration entries from `first_shown` to the end of the node's log.
fn config_entries(raft: &ClusterRaft, first_shown: LogIndex) -> Vec<LogIndex> {
    let log = raft.log();
    (first_shown.0..=log.last_index().0)
        .map(LogIndex)
        .filter(|index| {
            log.entry(*index)
                .is_some_and(|entry| matches!(entry.command, Command::Config { .. }))
        })
        .collect()
}
