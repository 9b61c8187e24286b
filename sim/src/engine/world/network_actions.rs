//! Applying the actions that change the network itself rather than a node: a link's own settings,
//! the regions preset, and a learner's hand on one message in flight (drop it, hold it back).
//!
//! Each refuses, with the reason and without changing anything, what a scenario file could not say:
//! a node outside the world, a link from a node to itself, a value past its limit, a message that is
//! no longer on its way.

use super::{EventKind, World};
use crate::base::ids::NodeId;
use crate::contract::action::PPM_ONE;
use crate::contract::link_settings::{
    LinkSettings, MAX_HOLD_MS, MAX_LINK_DELAY_MS, MAX_REGIONS, MIN_REGIONS,
};
use crate::engine::network::{InFlight, MessageId, MAX_IN_FLIGHT};
use crate::engine::trace::TraceEvent;

impl World {
    pub(super) fn set_link(
        &mut self,
        (one, other): (NodeId, NodeId),
        settings: &LinkSettings,
    ) -> Result<(), String> {
        self.check_link(one, other)?;
        check_settings(settings)?;
        self.network.set_link_settings(one, other, *settings);
        Ok(())
    }

    pub(super) fn clear_link(&mut self, between: Option<(NodeId, NodeId)>) -> Result<(), String> {
        if let Some((one, other)) = between {
            self.check_link(one, other)?;
        }
        self.network.clear_link_settings(between);
        Ok(())
    }

    pub(super) fn regions(&mut self, groups: &[Vec<NodeId>]) -> Result<(), String> {
        if !(MIN_REGIONS..=MAX_REGIONS).contains(&groups.len()) {
            return Err(format!(
                "regions takes {MIN_REGIONS} to {MAX_REGIONS} groups, not {}",
                groups.len()
            ));
        }
        let mut seen = vec![false; self.nodes.len()];
        for &node in groups.iter().flatten() {
            if node.index() >= self.nodes.len() {
                return Err(self.not_in_world(node));
            }
            if std::mem::replace(&mut seen[node.index()], true) {
                return Err(format!("{} is in two regions", self.node_label(node)));
            }
        }
        if groups.iter().any(Vec::is_empty) {
            return Err("every region needs at least one node".to_string());
        }
        self.network
            .regions(groups, LinkSettings::between_regions());
        Ok(())
    }

    /// Takes the message off the wire now: it never arrives.
    pub(super) fn drop_message(
        &mut self,
        message: MessageId,
        from: NodeId,
        to: NodeId,
    ) -> Result<(), String> {
        self.check_message(message, from, to)?;
        let flight = self
            .network
            .in_flight
            .remove(&message)
            .expect("checked just above");
        self.record(TraceEvent::Intercepted {
            id: message,
            from,
            to,
            label: flight.label,
            held_by_ms: None,
        });
        Ok(())
    }

    /// Moves the message's arrival `by_ms` later; its first delivery event will find it not yet due.
    pub(super) fn hold_message(
        &mut self,
        message: MessageId,
        (from, to): (NodeId, NodeId),
        by_ms: u64,
    ) -> Result<(), String> {
        if !(1..=MAX_HOLD_MS).contains(&by_ms) {
            return Err(format!(
                "a message can be held 1 to {MAX_HOLD_MS} ms at a time, not {by_ms} ms"
            ));
        }
        self.check_message(message, from, to)?;
        let flight = self
            .network
            .in_flight
            .get_mut(&message)
            .expect("checked just above");
        flight.deliver_at = flight.deliver_at.plus_ms(by_ms);
        flight.held_ms += by_ms;
        let (deliver_at, label) = (flight.deliver_at, flight.label);
        self.queue.push(
            deliver_at,
            EventKind::Deliver {
                message_id: message,
            },
        );
        self.record(TraceEvent::Intercepted {
            id: message,
            from,
            to,
            label,
            held_by_ms: Some(by_ms),
        });
        Ok(())
    }

    /// A copy of the message arrives as late as its link's delay range allows after the send (and no
    /// earlier than the original): the network's own duplicate, at a place chosen by hand instead of
    /// drawn, so nothing else in the run draws differently.
    pub(super) fn duplicate_message(
        &mut self,
        message: MessageId,
        (from, to): (NodeId, NodeId),
    ) -> Result<(), String> {
        self.check_message(message, from, to)?;
        if self.network.in_flight.len() >= MAX_IN_FLIGHT {
            return Err(format!("{MAX_IN_FLIGHT} messages are already in flight"));
        }
        let world_delay_ms = self.config.timing.network_delay_ms;
        let link = self.network.effective(from, to, world_delay_ms);
        let original = self.network.in_flight.get(&message).expect("checked above");
        let original = original.clone();
        let latest = original.sent_at.plus_ms(link.delay_ms.1);
        let copy = InFlight {
            id: self.network.next_id(),
            deliver_at: latest.max(original.deliver_at),
            held_ms: 0,
            ..original
        };
        let (id, label, deliver_at) = (copy.id, copy.label, copy.deliver_at);
        self.network.in_flight.insert(copy);
        self.queue
            .push(deliver_at, EventKind::Deliver { message_id: id });
        self.record(TraceEvent::Send {
            id,
            from,
            to,
            label,
            deliver_at_us: deliver_at.as_micros(),
            dropped: false,
        });
        Ok(())
    }

    fn check_link(&self, one: NodeId, other: NodeId) -> Result<(), String> {
        for node in [one, other] {
            if node.index() >= self.nodes.len() {
                return Err(self.not_in_world(node));
            }
        }
        if one == other {
            return Err(format!(
                "a link joins two nodes: {} is named at both ends",
                self.node_label(one)
            ));
        }
        Ok(())
    }

    /// The message is on its way, not already lost, and goes where the action says.
    fn check_message(&self, message: MessageId, from: NodeId, to: NodeId) -> Result<(), String> {
        let Some(flight) = self.network.in_flight.get(&message) else {
            return Err(format!(
                "message #{message} is no longer in flight (it arrived or was lost)"
            ));
        };
        if (flight.from, flight.to) != (from, to) {
            return Err(format!(
                "message #{message} goes from {} to {}, not from {} to {}",
                self.node_label(flight.from),
                self.node_label(flight.to),
                self.node_label(from),
                self.node_label(to)
            ));
        }
        if flight.dropped {
            return Err(format!("message #{message} is already lost on the way"));
        }
        Ok(())
    }
}

/// Within the limits of `link_settings`, with the range in order.
fn check_settings(settings: &LinkSettings) -> Result<(), String> {
    if settings.is_empty() {
        return Err("a link setting needs a delay, a drop rate or a duplicate rate".to_string());
    }
    if let Some((min_ms, max_ms)) = settings.delay_ms {
        if min_ms > max_ms || max_ms > MAX_LINK_DELAY_MS {
            return Err(format!(
                "a link's delay is a range within 0..={MAX_LINK_DELAY_MS} ms, min first; \
                 not [{min_ms}, {max_ms}]"
            ));
        }
    }
    for (name, rate) in [
        ("drop", settings.drop_ppm),
        ("duplicate", settings.duplicate_ppm),
    ] {
        if rate.is_some_and(|ppm| ppm > PPM_ONE) {
            return Err(format!("a link's {name} rate is between 0 and 1"));
        }
    }
    Ok(())
}
