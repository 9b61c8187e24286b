//! User and scenario actions: the only way anything outside the simulation changes it.
//!
//! A scenario step, a click in the app, a keyboard shortcut and a replayed share link all become an
//! [`Action`] handed to `World::apply`. Recording these (with the time they were applied) is what makes a
//! run reproducible: same scenario + seed + action log = same trace.

use crate::base::ids::NodeId;
use crate::contract::link_settings::LinkSettings;
use serde::{Deserialize, Serialize};

/// Probabilities are integers in parts per million so native and wasm agree bit for bit.
pub const PPM_ONE: u32 = 1_000_000;

/// Who an action is aimed at. `Leader` is resolved when the action runs: the up node that believes it
/// leads with the highest term. If none exists the action is recorded as skipped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum NodeTarget {
    Node(NodeId),
    Leader,
}

/// What a client request asks the replicated state machine to do.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum RequestKind {
    /// Write a generated key/value pair (the world picks deterministic keys and values).
    Put,
    /// Read a key (served through the log, or through the leader lease when that option is on).
    Get,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Action {
    /// Lose volatile state and stop; persisted state survives. Timers cancelled, messages to it dropped.
    Crash {
        target: NodeTarget,
    },
    /// Come back from a crash, recovering from what the node persisted.
    Restart {
        target: NodeTarget,
    },
    /// Stop-the-world pause. With `duration_ms` the world schedules the resume itself.
    Pause {
        target: NodeTarget,
        duration_ms: Option<u64>,
    },
    Resume {
        target: NodeTarget,
    },
    /// Only nodes in the same group can talk. Nodes left out of every group form one more group.
    Partition {
        groups: Vec<Vec<NodeId>>,
    },
    /// Cut every link to and from the node.
    Isolate {
        target: NodeTarget,
    },
    /// Cut the link `from -> to`; with `both` also `to -> from`.
    Cut {
        from: NodeTarget,
        to: NodeTarget,
        both: bool,
    },
    /// Restore every link (partitions, isolations and cuts).
    Heal,
    /// Drop ratio for every link, in parts per million.
    DropRate {
        ppm: u32,
    },
    /// Move a node's local clock by `by_ms` (negative = backwards).
    ClockJump {
        target: NodeTarget,
        by_ms: i64,
    },
    /// Make a node's clock run fast (positive) or slow (negative) by `ppm` parts per million.
    ClockDrift {
        target: NodeTarget,
        ppm: i64,
    },
    /// Submit `count` client requests to `target` (a request to a non-leader is rejected with a hint).
    Request {
        count: u32,
        target: NodeTarget,
        kind: RequestKind,
    },
    // New variants go below this line only: share links and trace hashes number them in order.
    /// Give the link between two nodes (both directions) its own settings, replacing any it had.
    SetLink {
        between: (NodeId, NodeId),
        settings: LinkSettings,
    },
    /// Give one link (`between`) back to the world's settings, or every link (`None`).
    ClearLink {
        between: Option<(NodeId, NodeId)>,
    },
    /// Regions: every link between nodes of two different groups becomes a long one
    /// (`link_settings::REGION_DELAY_MS`), and every other link its world's. Nodes named in no group
    /// keep the world's settings to everyone.
    Regions {
        groups: Vec<Vec<NodeId>>,
    },
    /// Lose one message in flight, named by its id (ids are handed out in send order, so the same run
    /// always gives a message the same id); `from` and `to` say which message was meant.
    DropMessage {
        message: u64,
        from: NodeId,
        to: NodeId,
    },
    /// Deliver one message in flight `by_ms` later than it was due.
    HoldMessage {
        message: u64,
        from: NodeId,
        to: NodeId,
        by_ms: u64,
    },
    /// Make a node Byzantine (it lies in the way `mode` says) or, with `Honest`, make it follow its
    /// protocol again. Worlds whose nodes have no way to lie skip it with the reason.
    Byzantine {
        target: NodeTarget,
        mode: ByzantineMode,
    },
    /// A server joins a plain Raft cluster: a new one (`id` is `None` or the next id) or one removed
    /// earlier. Through the log it first catches up as a learner (see `[raft] membership`).
    AddServer {
        id: Option<NodeId>,
    },
    /// A server leaves the configuration; it stays in the world, quiet. Removing the last voter is
    /// refused.
    RemoveServer {
        target: NodeTarget,
    },
    /// A worker sends the protected store a write it cannot read (`fault` says what is wrong with
    /// it), as a client with a bug would. The store refuses it as malformed and changes nothing.
    /// Skipped, with the reason, when the target is not an up worker.
    MalformedWrite {
        target: NodeTarget,
        fault: MalformedFault,
    },
    /// Give a node's disk its own write time, each write drawn in `persist_ms` (a slow disk: every
    /// reply the node sends after persisting waits for it), or with `None` the world's
    /// `[timing] persist_ms` again.
    SlowDisk {
        target: NodeTarget,
        persist_ms: Option<(u64, u64)>,
    },
    /// Deliver one message in flight a second time: a copy arrives as late as its link's delay range
    /// allows after the send (the network's own duplicate, made by hand; no random draw).
    DuplicateMessage {
        message: u64,
        from: NodeId,
        to: NodeId,
    },
}

/// What is wrong with a malformed write a client is made to send.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MalformedFault {
    /// The write has no fencing token at all.
    MissingToken,
    /// The token is one more than the largest 64-bit number.
    TokenTooLarge,
    /// The new count is below zero.
    NegativeCount,
}

impl MalformedFault {
    pub const NAMES: &'static [&'static str] =
        &["missing_token", "token_too_large", "negative_count"];

    pub fn name(self) -> &'static str {
        match self {
            MalformedFault::MissingToken => "missing_token",
            MalformedFault::TokenTooLarge => "token_too_large",
            MalformedFault::NegativeCount => "negative_count",
        }
    }

    pub fn from_name(name: &str) -> Option<MalformedFault> {
        [
            MalformedFault::MissingToken,
            MalformedFault::TokenTooLarge,
            MalformedFault::NegativeCount,
        ]
        .into_iter()
        .find(|fault| fault.name() == name)
    }

    /// What the write is, in a few words ("a write with no fencing token").
    pub fn text(self) -> &'static str {
        match self {
            MalformedFault::MissingToken => "a write with no fencing token",
            MalformedFault::TokenTooLarge => "a write whose token is too large for 64 bits",
            MalformedFault::NegativeCount => "a write of a count below zero",
        }
    }
}

/// How a Byzantine node misbehaves. What each mode means is up to the protocol (its folder says).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ByzantineMode {
    /// Follow the protocol again.
    Honest,
    /// Tell different peers different things (votes, values, digests).
    Equivocate,
    /// Claim what is not so (a forged grant, a wrong digest, a leadership it never won).
    Lie,
    /// Send nothing, while still listening.
    Silent,
    // New modes go below this line only: share links and trace hashes number them in order.
    /// Send nothing to some peers and talk to the others as usual: which ones, [`SelectiveSilence`] says.
    Selective,
}

impl ByzantineMode {
    pub const NAMES: &'static [&'static str] =
        &["honest", "equivocate", "lie", "silent", "selective"];

    pub fn name(self) -> &'static str {
        match self {
            ByzantineMode::Honest => "honest",
            ByzantineMode::Equivocate => "equivocate",
            ByzantineMode::Lie => "lie",
            ByzantineMode::Silent => "silent",
            ByzantineMode::Selective => "selective",
        }
    }

    pub fn from_name(name: &str) -> Option<ByzantineMode> {
        [
            ByzantineMode::Honest,
            ByzantineMode::Equivocate,
            ByzantineMode::Lie,
            ByzantineMode::Silent,
            ByzantineMode::Selective,
        ]
        .into_iter()
        .find(|mode| mode.name() == name)
    }
}

/// Whom a selectively silent server ignores. Its peers are the other servers of the cluster in order of
/// number; it keeps talking to the lower half (rounded down) and sends nothing to the rest. The rule
/// takes no arguments, so it travels wherever a mode does (scenario steps, links, trace files), and
/// rounding down means that in a four-replica PBFT cluster a silent primary reaches only one backup,
/// too few to order anything. Clients are not peers: they still hear from it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SelectiveSilence {
    /// The peers it still talks to.
    pub heard: Vec<NodeId>,
    /// The peers it sends nothing to.
    pub ignored: Vec<NodeId>,
}

impl SelectiveSilence {
    /// The split for `node` among the servers `n1..n{servers}`.
    pub fn of(node: NodeId, servers: usize) -> SelectiveSilence {
        let (ignored, heard) = (0..servers)
            .map(|index| NodeId(index as u16))
            .filter(|peer| *peer != node)
            .partition(|peer| SelectiveSilence::ignores(node, *peer, servers));
        SelectiveSilence { heard, ignored }
    }

    /// Whether a selectively silent `node` among `servers` servers sends nothing to `to` (checked on
    /// every send, so it allocates nothing).
    pub fn ignores(node: NodeId, to: NodeId, servers: usize) -> bool {
        if to == node || to.index() >= servers {
            return false;
        }
        let heard_count = servers.saturating_sub(1) / 2;
        let position_among_peers = to.index() - usize::from(to.index() > node.index());
        position_among_peers >= heard_count
    }
}

impl NodeTarget {
    /// The node named explicitly, if any (`Leader` names none until it is resolved).
    pub fn named_node(self) -> Option<NodeId> {
        match self {
            NodeTarget::Node(node) => Some(node),
            NodeTarget::Leader => None,
        }
    }
}

impl Action {
    /// The action's targets with the key each is written under (`target`, or `from` and `to`).
    pub fn targets(&self) -> Vec<(&'static str, NodeTarget)> {
        match self {
            Action::Crash { target }
            | Action::Restart { target }
            | Action::Pause { target, .. }
            | Action::Resume { target }
            | Action::Isolate { target }
            | Action::ClockJump { target, .. }
            | Action::ClockDrift { target, .. }
            | Action::Request { target, .. }
            | Action::Byzantine { target, .. }
            | Action::RemoveServer { target }
            | Action::MalformedWrite { target, .. }
            | Action::SlowDisk { target, .. } => vec![("target", *target)],
            Action::Cut { from, to, .. } => vec![("from", *from), ("to", *to)],
            Action::Partition { .. }
            | Action::Heal
            | Action::DropRate { .. }
            | Action::SetLink { .. }
            | Action::ClearLink { .. }
            | Action::Regions { .. }
            | Action::DropMessage { .. }
            | Action::HoldMessage { .. }
            | Action::DuplicateMessage { .. }
            | Action::AddServer { .. } => Vec::new(),
        }
    }

    /// Every node this action names explicitly, e.g. to check it still fits a resized cluster.
    pub fn named_nodes(&self) -> Vec<NodeId> {
        match self {
            Action::Partition { groups } | Action::Regions { groups } => {
                groups.iter().flatten().copied().collect()
            }
            Action::SetLink {
                between: (one, other),
                ..
            }
            | Action::ClearLink {
                between: Some((one, other)),
            }
            | Action::DropMessage {
                from: one,
                to: other,
                ..
            }
            | Action::HoldMessage {
                from: one,
                to: other,
                ..
            }
            | Action::DuplicateMessage {
                from: one,
                to: other,
                ..
            } => vec![*one, *other],
            _ => self
                .targets()
                .into_iter()
                .filter_map(|(_, target)| target.named_node())
                .collect(),
        }
    }
}
