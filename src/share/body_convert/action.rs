//! How a link writes and reads one learner action. `LinkAction` is the link's own, append-only copy
//! of the engine's `Action`: the engine may reshape its enum, but a variant's place in the link
//! (postcard writes the variant index) never moves, so old links keep meaning the same action.

use super::super::body::{
    GroupSizeLimit, GroupsLimit, LinkAction, LinkByzantineMode, LinkLinkSettings,
    LinkMalformedFault, LinkRequestKind, LinkTarget,
};
use super::super::bounded::Bounded;
use quorumlab_sim::action::{Action, ByzantineMode, MalformedFault, NodeTarget, RequestKind};
use quorumlab_sim::ids::NodeId;
use quorumlab_sim::link_settings::LinkSettings;

fn target_from(target: NodeTarget) -> LinkTarget {
    match target {
        NodeTarget::Leader => LinkTarget::Leader,
        NodeTarget::Node(node) => LinkTarget::Node(node.0),
    }
}

fn target_into(target: LinkTarget) -> NodeTarget {
    match target {
        LinkTarget::Leader => NodeTarget::Leader,
        LinkTarget::Node(index) => NodeTarget::Node(NodeId(index)),
    }
}

pub(super) fn action_from(action: &Action) -> LinkAction {
    match action {
        Action::Crash { target } => LinkAction::Crash {
            target: target_from(*target),
        },
        Action::Restart { target } => LinkAction::Restart {
            target: target_from(*target),
        },
        Action::Pause {
            target,
            duration_ms,
        } => LinkAction::Pause {
            target: target_from(*target),
            duration_ms: *duration_ms,
        },
        Action::Resume { target } => LinkAction::Resume {
            target: target_from(*target),
        },
        Action::Partition { groups } => LinkAction::Partition {
            groups: groups_from(groups),
        },
        Action::Isolate { target } => LinkAction::Isolate {
            target: target_from(*target),
        },
        Action::Cut { from, to, both } => LinkAction::Cut {
            from: target_from(*from),
            to: target_from(*to),
            both: *both,
        },
        Action::Heal => LinkAction::Heal,
        Action::DropRate { ppm } => LinkAction::DropRate { ppm: *ppm },
        Action::ClockJump { target, by_ms } => LinkAction::ClockJump {
            target: target_from(*target),
            by_ms: *by_ms,
        },
        Action::ClockDrift { target, ppm } => LinkAction::ClockDrift {
            target: target_from(*target),
            ppm: *ppm,
        },
        Action::Request {
            count,
            target,
            kind,
        } => LinkAction::Request {
            count: *count,
            target: target_from(*target),
            kind: match kind {
                RequestKind::Put => LinkRequestKind::Put,
                RequestKind::Get => LinkRequestKind::Get,
            },
        },
        Action::SetLink { between, settings } => LinkAction::SetLink {
            between: (between.0 .0, between.1 .0),
            settings: LinkLinkSettings {
                delay_ms: settings.delay_ms,
                drop_ppm: settings.drop_ppm,
                duplicate_ppm: settings.duplicate_ppm,
            },
        },
        Action::ClearLink { between } => LinkAction::ClearLink {
            between: between.map(|(one, other)| (one.0, other.0)),
        },
        Action::Regions { groups } => LinkAction::Regions {
            groups: groups_from(groups),
        },
        Action::DropMessage { message, from, to } => LinkAction::DropMessage {
            message: *message,
            from: from.0,
            to: to.0,
        },
        Action::DuplicateMessage { message, from, to } => LinkAction::DuplicateMessage {
            message: *message,
            from: from.0,
            to: to.0,
        },
        Action::HoldMessage {
            message,
            from,
            to,
            by_ms,
        } => LinkAction::HoldMessage {
            message: *message,
            from: from.0,
            to: to.0,
            by_ms: *by_ms,
        },
        Action::Byzantine { target, mode } => LinkAction::Byzantine {
            target: target_from(*target),
            mode: match mode {
                ByzantineMode::Honest => LinkByzantineMode::Honest,
                ByzantineMode::Equivocate => LinkByzantineMode::Equivocate,
                ByzantineMode::Lie => LinkByzantineMode::Lie,
                ByzantineMode::Silent => LinkByzantineMode::Silent,
                ByzantineMode::Selective => LinkByzantineMode::Selective,
            },
        },
        Action::AddServer { id } => LinkAction::AddServer {
            id: id.map(|id| id.0),
        },
        Action::RemoveServer { target } => LinkAction::RemoveServer {
            target: target_from(*target),
        },
        Action::MalformedWrite { target, fault } => LinkAction::MalformedWrite {
            target: target_from(*target),
            fault: match fault {
                MalformedFault::MissingToken => LinkMalformedFault::MissingToken,
                MalformedFault::TokenTooLarge => LinkMalformedFault::TokenTooLarge,
                MalformedFault::NegativeCount => LinkMalformedFault::NegativeCount,
            },
        },
        Action::SlowDisk { target, persist_ms } => LinkAction::SlowDisk {
            target: target_from(*target),
            persist_ms: *persist_ms,
        },
    }
}

fn groups_from(groups: &[Vec<NodeId>]) -> Bounded<Bounded<u16, GroupSizeLimit>, GroupsLimit> {
    Bounded::new(
        groups
            .iter()
            .map(|group| Bounded::new(group.iter().map(|node| node.0).collect()))
            .collect(),
    )
}

fn groups_into(groups: Bounded<Bounded<u16, GroupSizeLimit>, GroupsLimit>) -> Vec<Vec<NodeId>> {
    groups
        .items
        .into_iter()
        .map(|group| group.items.into_iter().map(NodeId).collect())
        .collect()
}

pub(super) fn action_into(action: LinkAction) -> Action {
    match action {
        LinkAction::Crash { target } => Action::Crash {
            target: target_into(target),
        },
        LinkAction::Restart { target } => Action::Restart {
            target: target_into(target),
        },
        LinkAction::Pause {
            target,
            duration_ms,
        } => Action::Pause {
            target: target_into(target),
            duration_ms,
        },
        LinkAction::Resume { target } => Action::Resume {
            target: target_into(target),
        },
        LinkAction::Partition { groups } => Action::Partition {
            groups: groups_into(groups),
        },
        LinkAction::Isolate { target } => Action::Isolate {
            target: target_into(target),
        },
        LinkAction::Cut { from, to, both } => Action::Cut {
            from: target_into(from),
            to: target_into(to),
            both,
        },
        LinkAction::Heal => Action::Heal,
        LinkAction::DropRate { ppm } => Action::DropRate { ppm },
        LinkAction::ClockJump { target, by_ms } => Action::ClockJump {
            target: target_into(target),
            by_ms,
        },
        LinkAction::ClockDrift { target, ppm } => Action::ClockDrift {
            target: target_into(target),
            ppm,
        },
        LinkAction::Request {
            count,
            target,
            kind,
        } => Action::Request {
            count,
            target: target_into(target),
            kind: match kind {
                LinkRequestKind::Put => RequestKind::Put,
                LinkRequestKind::Get => RequestKind::Get,
            },
        },
        LinkAction::SetLink { between, settings } => Action::SetLink {
            between: (NodeId(between.0), NodeId(between.1)),
            settings: LinkSettings {
                delay_ms: settings.delay_ms,
                drop_ppm: settings.drop_ppm,
                duplicate_ppm: settings.duplicate_ppm,
            },
        },
        LinkAction::ClearLink { between } => Action::ClearLink {
            between: between.map(|(one, other)| (NodeId(one), NodeId(other))),
        },
        LinkAction::Regions { groups } => Action::Regions {
            groups: groups_into(groups),
        },
        LinkAction::DropMessage { message, from, to } => Action::DropMessage {
            message,
            from: NodeId(from),
            to: NodeId(to),
        },
        LinkAction::HoldMessage {
            message,
            from,
            to,
            by_ms,
        } => Action::HoldMessage {
            message,
            from: NodeId(from),
            to: NodeId(to),
            by_ms,
        },
        LinkAction::Byzantine { target, mode } => Action::Byzantine {
            target: target_into(target),
            mode: match mode {
                LinkByzantineMode::Honest => ByzantineMode::Honest,
                LinkByzantineMode::Equivocate => ByzantineMode::Equivocate,
                LinkByzantineMode::Lie => ByzantineMode::Lie,
                LinkByzantineMode::Silent => ByzantineMode::Silent,
                LinkByzantineMode::Selective => ByzantineMode::Selective,
            },
        },
        LinkAction::AddServer { id } => Action::AddServer { id: id.map(NodeId) },
        LinkAction::RemoveServer { target } => Action::RemoveServer {
            target: target_into(target),
        },
        LinkAction::MalformedWrite { target, fault } => Action::MalformedWrite {
            target: target_into(target),
            fault: match fault {
                LinkMalformedFault::MissingToken => MalformedFault::MissingToken,
                LinkMalformedFault::TokenTooLarge => MalformedFault::TokenTooLarge,
                LinkMalformedFault::NegativeCount => MalformedFault::NegativeCount,
            },
        },
        LinkAction::SlowDisk { target, persist_ms } => Action::SlowDisk {
            target: target_into(target),
            persist_ms,
        },
        LinkAction::DuplicateMessage { message, from, to } => Action::DuplicateMessage {
            message,
            from: NodeId(from),
            to: NodeId(to),
        },
    }
}
