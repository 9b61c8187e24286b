//! Running inputs through actors and applying the effects they push: sends, timers, replies, facts.

use super::price_report::HEARTBEAT_LABEL;
use super::{BacklogItem, EventKind, NodeStatus, PendingTimer, World, MAX_BACKLOG};
use crate::base::ids::NodeId;
use crate::base::time::SimTime;
use crate::contract::protocol::{Effect, Effects, Input, Protocol, TimerDelay, TimerKey};
use crate::engine::network::{EffectiveLink, InFlight, MAX_IN_FLIGHT};
use crate::engine::trace::TraceEvent;
use crate::worlds::actor::{Actor, Message};

impl World {
    pub(super) fn handle_event(&mut self, kind: EventKind) {
        match kind {
            EventKind::Deliver { message_id } => self.deliver(message_id),
            EventKind::Timer {
                node,
                key,
                generation,
            } => self.fire_timer(node, key, generation),
            EventKind::ClientTimeout { request_id } => self.client_timeout(request_id),
            EventKind::Resume {
                node,
                pause_generation,
            } => {
                if self.nodes[node.index()].pause_generation == pause_generation {
                    self.resume_node(node);
                }
            }
            EventKind::DrainBacklog { node } => self.drain_backlog(node),
            EventKind::ConfigEdit { node, voters } => self.edit_config_file(node, voters),
        }
    }

    /// Hands one input to an up node, applies its effects and runs the checkers.
    pub(super) fn dispatch(&mut self, node: NodeId, input: Input<'_, Message>) {
        if let Input::Message { from, message } = input {
            self.tap_receive(node, from, message);
        }
        self.run_actor(node, |actor, local_now_us, effects| {
            actor.handle(local_now_us, input, effects)
        });
    }

    /// Runs `call` on an up node's actor as one input: its effects applied, the checkers run after.
    pub(super) fn run_actor<R>(
        &mut self,
        node: NodeId,
        call: impl FnOnce(&mut Actor, u64, &mut Effects<Message>) -> R,
    ) -> R {
        let slot = &mut self.nodes[node.index()];
        assert_eq!(slot.status, NodeStatus::Up, "only up nodes handle inputs");
        let local_now_us = slot.clock.local_us(self.now);
        let mark = self.checkers.before_dispatch(node, &slot.actor);
        let mut effects = std::mem::take(&mut self.effects);
        let result = call(&mut slot.actor, local_now_us, &mut effects);
        let violations = self.checkers.after_dispatch(
            self.now,
            node,
            &self.nodes[node.index()].actor,
            mark,
            effects.as_slice(),
        );
        // A reply after a persist leaves when the write is done (`disk.rs`): one write per input.
        // A reply to an input that wrote nothing still waits for a write in progress: it may
        // acknowledge what that write holds (a heartbeat's reply vouches for entries an earlier
        // AppendEntries is still writing), and nothing is acknowledged before it is durable.
        let mut written_at: Option<SimTime> = None;
        for effect in effects.drain() {
            if matches!(effect, Effect::Persist { .. }) && written_at.is_none() {
                written_at = Some(self.write_to_disk(node));
            }
            let departs = match &effect {
                Effect::Send {
                    after_persist: true,
                    ..
                } => written_at
                    .unwrap_or_else(|| self.nodes[node.index()].disk.free_at.max(self.now)),
                _ => self.now,
            };
            self.apply_effect(node, effect, departs);
        }
        self.effects = effects;
        for violation in violations {
            self.record(violation);
        }
        self.refresh_leadership(node);
        result
    }

    /// Tells the liveness checker whether `node` is now an up node that believes it leads.
    pub(super) fn refresh_leadership(&mut self, node: NodeId) {
        let slot = &self.nodes[node.index()];
        let leads = slot.status == NodeStatus::Up
            && slot.actor.summary().role == crate::contract::protocol::RoleLabel::Leader;
        self.checkers.note_leadership(self.now, node, leads);
    }

    /// `departs`: when a message sent now leaves the node (later than now behind a disk write).
    fn apply_effect(&mut self, node: NodeId, effect: Effect<Message>, departs: SimTime) {
        match effect {
            Effect::Send { to, message, .. } => self.send(node, to, message, departs),
            Effect::SetTimer { key, delay, label } => self.set_timer(node, key, delay, label),
            Effect::CancelTimer { key } => {
                self.nodes[node.index()].timers.remove(&key);
            }
            Effect::Persist { .. } => self.nodes[node.index()].persist_count += 1,
            Effect::Observe(fact) => self.record(TraceEvent::Observe { node, fact }),
            Effect::ClientReply {
                request_id,
                outcome,
            } => self.client_reply(request_id, outcome),
        }
    }

    /// Drop and delay are decided now, from the link state and the world's generator. A link with
    /// settings of its own changes the odds and the range, never the number of draws, so a run with
    /// none draws exactly what it always did.
    fn send(&mut self, from: NodeId, to: NodeId, message: Message, departs: SimTime) {
        self.tap_send(from, &message);
        self.messages_sent += 1;
        self.heartbeats_sent += u64::from(message.label() == HEARTBEAT_LABEL);
        let link = self
            .network
            .effective(from, to, self.config.timing.network_delay_ms);
        if self.rng.chance_ppm(link.duplicate_ppm) {
            self.send_one(from, to, message.clone(), link, departs);
        }
        self.send_one(from, to, message, link, departs);
    }

    fn send_one(
        &mut self,
        from: NodeId,
        to: NodeId,
        message: Message,
        link: EffectiveLink,
        departs: SimTime,
    ) {
        let label = message.label();
        let id = self.network.next_id();
        if self.network.in_flight.len() >= MAX_IN_FLIGHT {
            let text = format!(
                "in-flight cap {MAX_IN_FLIGHT} reached: {label} #{id} {from}->{to} discarded"
            );
            self.record(TraceEvent::Note { text });
            return;
        }
        let lost = self.rng.chance_ppm(link.drop_ppm);
        let dropped = lost || !self.network.link_up(from, to);
        let (min_ms, max_ms) = link.delay_ms;
        let delay_us = self.rng.range_inclusive(min_ms * 1_000, max_ms * 1_000);
        let deliver_at = departs.plus_micros(delay_us);
        let flight = InFlight {
            id,
            from,
            to,
            label,
            sent_at: departs,
            deliver_at,
            dropped,
            held_ms: 0,
            message,
        };
        self.network.in_flight.insert(flight);
        self.queue
            .push(deliver_at, EventKind::Deliver { message_id: id });
        let deliver_at_us = deliver_at.as_micros();
        self.record(TraceEvent::Send {
            id,
            from,
            to,
            label,
            deliver_at_us,
            dropped,
        });
    }

    fn deliver(&mut self, message_id: u64) {
        // A held message keeps its first delivery event; it is due later now, at its own event.
        let due_later = |flight: &InFlight| flight.deliver_at > self.now;
        if self
            .network
            .in_flight
            .get(&message_id)
            .is_none_or(due_later)
        {
            return;
        }
        let Some(flight) = self.network.in_flight.remove(&message_id) else {
            return;
        };
        let InFlight {
            id,
            from,
            to,
            label,
            dropped,
            message,
            ..
        } = flight;
        let reason = if dropped {
            Some("lost")
        } else if !self.network.link_up(from, to) {
            Some("link cut in flight")
        } else if self.nodes[to.index()].status == NodeStatus::Crashed {
            Some("receiver crashed")
        } else {
            None
        };
        if let Some(reason) = reason {
            self.record(TraceEvent::Drop { id, reason });
            return;
        }
        if self.nodes[to.index()].status == NodeStatus::Paused {
            self.enqueue_backlog(to, BacklogItem::Message { id, from, message });
            self.record(TraceEvent::Queued { id, to });
            return;
        }
        self.record(TraceEvent::Deliver {
            id,
            from,
            to,
            label,
        });
        self.dispatch(
            to,
            Input::Message {
                from,
                message: &message,
            },
        );
    }

    pub(super) fn enqueue_backlog(&mut self, node: NodeId, item: BacklogItem) {
        let backlog = &mut self.nodes[node.index()].backlog;
        if backlog.len() >= MAX_BACKLOG {
            let text = format!("backlog cap {MAX_BACKLOG} reached at {node}: input discarded");
            self.record(TraceEvent::Note { text });
            return;
        }
        backlog.push_back(item);
    }

    fn set_timer(&mut self, node: NodeId, key: TimerKey, delay: TimerDelay, label: &'static str) {
        let after_local_us = match delay {
            TimerDelay::Exactly { local_us } => local_us,
            TimerDelay::Between {
                min_local_us,
                max_local_us,
            } => self.rng.range_inclusive(min_local_us, max_local_us),
        };
        // Scheduling lateness (`[timing] timer_jitter_us`); none by default, and then no draw.
        let jitter_us = self.config.timing.timer_jitter_us;
        let after_local_us = match jitter_us {
            0 => after_local_us,
            _ => after_local_us + self.rng.range_inclusive(0, jitter_us),
        };
        let generation = self.next_timer_generation;
        self.next_timer_generation += 1;
        let slot = &mut self.nodes[node.index()];
        let due_local_us = slot
            .clock
            .local_signed_us(self.now)
            .saturating_add(after_local_us as i64);
        let due_at = slot.clock.true_time_at(due_local_us, self.now);
        let timer = PendingTimer {
            label,
            generation,
            set_at: self.now,
            due_local_us,
            due_at,
        };
        slot.timers.insert(key, timer);
        self.queue.push(
            due_at,
            EventKind::Timer {
                node,
                key,
                generation,
            },
        );
    }

    /// After a clock jump or drift change the node's deadlines (in local time) fall at new true times.
    pub(super) fn reschedule_timers(&mut self, node: NodeId) {
        let keys: Vec<TimerKey> = self.nodes[node.index()].timers.keys().copied().collect();
        for key in keys {
            let generation = self.next_timer_generation;
            self.next_timer_generation += 1;
            let slot = &mut self.nodes[node.index()];
            let clock = slot.clock;
            let timer = slot.timers.get_mut(&key).expect("key listed just above");
            timer.due_at = clock.true_time_at(timer.due_local_us, self.now);
            timer.generation = generation;
            let due_at = timer.due_at;
            self.queue.push(
                due_at,
                EventKind::Timer {
                    node,
                    key,
                    generation,
                },
            );
        }
    }

    /// A paused node's due timers stay pending; the resume fires them (they are overdue by then).
    fn fire_timer(&mut self, node: NodeId, key: TimerKey, generation: u64) {
        let slot = &self.nodes[node.index()];
        let Some(timer) = slot.timers.get(&key).copied() else {
            return;
        };
        if timer.generation != generation || slot.status != NodeStatus::Up {
            return;
        }
        self.nodes[node.index()].timers.remove(&key);
        self.record(TraceEvent::Timer {
            node,
            label: timer.label,
        });
        self.dispatch(node, Input::Timer { key });
    }

    /// Overdue timers first (the process notices time has passed), then the queued inputs in order.
    fn drain_backlog(&mut self, node: NodeId) {
        if self.nodes[node.index()].status != NodeStatus::Up {
            return;
        }
        let overdue: Vec<(TimerKey, u64)> = self.nodes[node.index()]
            .timers
            .iter()
            .filter(|(_, timer)| timer.due_at <= self.now)
            .map(|(key, timer)| (*key, timer.generation))
            .collect();
        for (key, generation) in overdue {
            self.fire_timer(node, key, generation);
        }
        while self.nodes[node.index()].status == NodeStatus::Up {
            let Some(item) = self.nodes[node.index()].backlog.pop_front() else {
                break;
            };
            match item {
                BacklogItem::Message { id, from, message } => {
                    let label = message.label();
                    self.record(TraceEvent::Deliver {
                        id,
                        from,
                        to: node,
                        label,
                    });
                    self.dispatch(
                        node,
                        Input::Message {
                            from,
                            message: &message,
                        },
                    );
                }
                BacklogItem::Client {
                    request_id,
                    command,
                } => {
                    self.dispatch(
                        node,
                        Input::Client {
                            request_id,
                            command,
                        },
                    );
                }
            }
        }
    }
}
