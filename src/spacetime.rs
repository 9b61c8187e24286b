//! The data behind the space-time (Lamport) diagram: recent messages as arrows from (sender, send time)
//! to (receiver, arrival time), rebuilt incrementally from the engine's trace. Plain Rust, tested natively.
//!
//! Why the trace: the view only lists messages still in flight, but a space-time diagram needs the ones
//! that already arrived or were lost. The trace has one `Send` per message (with its planned arrival and
//! whether the network already decided to lose it) and later a `Deliver`, `Drop` or `Queued` with the same
//! id. [`MessageLog::sync`] reads only the records added since the previous frame, so the per-frame cost
//! is proportional to what happened in that frame, not to the length of the run.
//!
//! Bounds: at most [`MAX_KEPT_ARROWS`] arrows are remembered, a rebuild reads at most [`REBUILD_RECORDS`]
//! records, and [`visible_arrows`] hands the diagram at most [`MAX_DRAWN_ARROWS`].

use quorumlab_sim::ids::NodeId;
use quorumlab_sim::trace::{TraceEvent, TraceLog, TraceRecord};
use std::collections::VecDeque;

/// Most arrows remembered (the newest); older ones have long left any window the diagram shows.
pub const MAX_KEPT_ARROWS: usize = 4_096;
/// Most arrows handed to the diagram per frame (the newest), so a frame stays cheap at 51 nodes.
pub const MAX_DRAWN_ARROWS: usize = 160;
/// A rebuild (after a seek back, a restart or a long jump) reads at most this many of the newest records.
pub const REBUILD_RECORDS: u64 = 20_000;
/// Clusters up to this size get one lane per node; bigger ones get focus lanes plus an "others" lane.
pub const ALL_LANES_UP_TO_NODES: usize = 9;
/// Focus lanes shown for a big cluster (leader, selected node, candidates, then lowest ids).
pub const FOCUS_LANES: usize = 6;

/// How a message's journey ended (or has not yet).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ArrowEnd {
    /// Still travelling, or already delivered: the arrow ends at the receiver at `deliver_us`.
    Arrives,
    /// Lost: the arrow stops short of the receiver with a ✕ (the network lost it, or its link was cut or
    /// its receiver crashed while it travelled).
    Dropped,
    /// Reached a paused receiver and waits in its queue; `handled_us` is when it was finally handled.
    Queued { handled_us: Option<u64> },
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Arrow {
    pub id: u64,
    pub from: NodeId,
    pub to: NodeId,
    pub kind: &'static str,
    pub sent_us: u64,
    pub deliver_us: u64,
    pub end: ArrowEnd,
}

/// Identifies one run so the log can tell "more of the same run" from "a different run or branch".
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RunKey {
    pub node_count: usize,
    pub seed: u64,
    pub history_generation: u64,
}

/// Arrows of the recent past, kept in send order (which is also id order).
#[derive(Clone, Debug, Default)]
pub struct MessageLog {
    arrows: VecDeque<Arrow>,
    /// `trace.total()` when last synced: records before it are already applied.
    seen_total: u64,
    last_now_us: u64,
    key: RunKey,
}

impl MessageLog {
    pub fn arrows(&self) -> &VecDeque<Arrow> {
        &self.arrows
    }

    /// Brings the log up to date with `trace` at `now_us`. Time going backwards, a shrinking trace, a new
    /// run key or a jump of more than [`REBUILD_RECORDS`] records means a different history: start over
    /// from the newest records.
    pub fn sync(&mut self, trace: &TraceLog, now_us: u64, key: RunKey) {
        let total = trace.total();
        let forgotten = trace.dropped_records();
        let continues = key == self.key
            && now_us >= self.last_now_us
            && total >= self.seen_total
            && total - self.seen_total <= REBUILD_RECORDS;
        let start = if continues {
            self.seen_total
        } else {
            self.arrows.clear();
            total.saturating_sub(REBUILD_RECORDS)
        };
        let skip = start.saturating_sub(forgotten) as usize;
        for record in trace.records().skip(skip) {
            self.apply(record);
        }
        self.seen_total = total;
        self.last_now_us = now_us;
        self.key = key;
    }

    /// Applies one trace record. Records about messages sent before the log started are ignored.
    pub fn apply(&mut self, record: &TraceRecord) {
        match record.event {
            TraceEvent::Send {
                id,
                from,
                to,
                label,
                deliver_at_us,
                dropped,
            } => {
                if self.arrows.len() >= MAX_KEPT_ARROWS {
                    self.arrows.pop_front();
                }
                self.arrows.push_back(Arrow {
                    id,
                    from,
                    to,
                    kind: label,
                    sent_us: record.at_us,
                    deliver_us: deliver_at_us,
                    end: if dropped {
                        ArrowEnd::Dropped
                    } else {
                        ArrowEnd::Arrives
                    },
                });
            }
            TraceEvent::Drop { id, .. }
            | TraceEvent::Intercepted {
                id,
                held_by_ms: None,
                ..
            } => self.set_end(id, |_| ArrowEnd::Dropped),
            TraceEvent::Intercepted {
                id,
                held_by_ms: Some(by_ms),
                ..
            } => {
                if let Ok(index) = self.arrows.binary_search_by_key(&id, |arrow| arrow.id) {
                    self.arrows[index].deliver_us += by_ms * 1_000;
                }
            }
            TraceEvent::Queued { id, .. } => {
                self.set_end(id, |_| ArrowEnd::Queued { handled_us: None })
            }
            TraceEvent::Deliver { id, .. } => {
                let at_us = record.at_us;
                self.set_end(id, |end| match end {
                    ArrowEnd::Queued { .. } => ArrowEnd::Queued {
                        handled_us: Some(at_us),
                    },
                    other => other,
                })
            }
            _ => {}
        }
    }

    fn set_end(&mut self, id: u64, change: impl FnOnce(ArrowEnd) -> ArrowEnd) {
        // Ids grow with every send, so the deque is sorted by id.
        if let Ok(index) = self.arrows.binary_search_by_key(&id, |arrow| arrow.id) {
            let arrow = &mut self.arrows[index];
            arrow.end = change(arrow.end);
        }
    }
}

/// Which node each lane shows. `others` is a final lane standing for every node without its own lane.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lanes {
    pub nodes: Vec<NodeId>,
    pub others: usize,
}

impl Lanes {
    pub fn count(&self) -> usize {
        self.nodes.len() + usize::from(self.others > 0)
    }

    /// The lane a node is drawn on: its own, or the "others" lane.
    pub fn lane_of(&self, node: NodeId) -> usize {
        self.nodes
            .iter()
            .position(|shown| *shown == node)
            .unwrap_or(self.nodes.len())
    }

    pub fn has_own_lane(&self, node: NodeId) -> bool {
        self.nodes.contains(&node)
    }
}

/// One lane per node up to [`ALL_LANES_UP_TO_NODES`]; beyond that the leader, the selected node, the
/// candidates and then the lowest ids, [`FOCUS_LANES`] in all (in id order), plus one "others" lane.
pub fn choose_lanes(
    node_count: usize,
    leader: Option<NodeId>,
    selected: Option<NodeId>,
    candidates: &[NodeId],
) -> Lanes {
    if node_count <= ALL_LANES_UP_TO_NODES {
        return Lanes {
            nodes: (0..node_count).map(|index| NodeId(index as u16)).collect(),
            others: 0,
        };
    }
    let mut focus: Vec<NodeId> = Vec::with_capacity(FOCUS_LANES);
    let wanted = leader
        .into_iter()
        .chain(selected)
        .chain(candidates.iter().copied())
        .chain((0..node_count).map(|index| NodeId(index as u16)));
    for node in wanted {
        if focus.len() == FOCUS_LANES {
            break;
        }
        if node.index() < node_count && !focus.contains(&node) {
            focus.push(node);
        }
    }
    focus.sort();
    Lanes {
        others: node_count - focus.len(),
        nodes: focus,
    }
}

/// An arrow placed on lanes, ready to draw.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PlacedArrow {
    pub id: u64,
    pub from_lane: usize,
    pub to_lane: usize,
    pub kind: &'static str,
    pub sent_us: u64,
    pub deliver_us: u64,
    pub end: ArrowEnd,
}

/// The newest arrows (at most `limit`) that overlap the window `[now_us - window_us, now_us]`, sent by
/// then, and with at least one end on its own lane. Oldest first.
pub fn visible_arrows(
    arrows: &VecDeque<Arrow>,
    lanes: &Lanes,
    now_us: u64,
    window_us: u64,
    limit: usize,
) -> Vec<PlacedArrow> {
    let from_us = now_us.saturating_sub(window_us);
    let mut placed: Vec<PlacedArrow> = arrows
        .iter()
        .rev()
        .filter(|arrow| arrow.sent_us <= now_us && arrow_last_us(arrow) >= from_us)
        .filter(|arrow| lanes.has_own_lane(arrow.from) || lanes.has_own_lane(arrow.to))
        .take(limit)
        .map(|arrow| PlacedArrow {
            id: arrow.id,
            from_lane: lanes.lane_of(arrow.from),
            to_lane: lanes.lane_of(arrow.to),
            kind: arrow.kind,
            sent_us: arrow.sent_us,
            deliver_us: arrow.deliver_us,
            end: arrow.end,
        })
        .collect();
    placed.reverse();
    placed
}

/// The last instant an arrow draws anything at (a handled queued message waits on its receiver's lane).
fn arrow_last_us(arrow: &Arrow) -> u64 {
    match arrow.end {
        ArrowEnd::Queued {
            handled_us: Some(handled_us),
        } => handled_us.max(arrow.deliver_us),
        _ => arrow.deliver_us,
    }
}

/// Where a dropped arrow stops, as a share of its way from sender to receiver.
pub const DROP_AT_SHARE: f64 = 0.6;

#[cfg(test)]
mod tests {
    use super::*;

    fn send(at_us: u64, id: u64, from: u16, to: u16, deliver_at_us: u64) -> TraceRecord {
        TraceRecord {
            at_us,
            event: TraceEvent::Send {
                id,
                from: NodeId(from),
                to: NodeId(to),
                label: "Heartbeat",
                deliver_at_us,
                dropped: false,
            },
        }
    }

    fn at(at_us: u64, event: TraceEvent) -> TraceRecord {
        TraceRecord { at_us, event }
    }

    #[test]
    fn a_message_keeps_its_arrow_after_it_is_delivered() {
        let mut log = MessageLog::default();
        log.apply(&send(100, 1, 0, 1, 900));
        log.apply(&at(
            900,
            TraceEvent::Deliver {
                id: 1,
                from: NodeId(0),
                to: NodeId(1),
                label: "Heartbeat",
            },
        ));
        assert_eq!(log.arrows().len(), 1);
        let arrow = &log.arrows()[0];
        assert_eq!((arrow.sent_us, arrow.deliver_us), (100, 900));
        assert_eq!(arrow.end, ArrowEnd::Arrives);
    }

    #[test]
    fn drops_and_queues_change_how_an_arrow_ends() {
        let mut log = MessageLog::default();
        log.apply(&send(0, 1, 0, 1, 10));
        log.apply(&send(0, 2, 0, 2, 10));
        log.apply(&at(
            10,
            TraceEvent::Drop {
                id: 1,
                reason: "receiver crashed",
            },
        ));
        log.apply(&at(
            10,
            TraceEvent::Queued {
                id: 2,
                to: NodeId(2),
            },
        ));
        assert_eq!(log.arrows()[0].end, ArrowEnd::Dropped);
        assert_eq!(log.arrows()[1].end, ArrowEnd::Queued { handled_us: None });
        log.apply(&at(
            50,
            TraceEvent::Deliver {
                id: 2,
                from: NodeId(0),
                to: NodeId(2),
                label: "Heartbeat",
            },
        ));
        assert_eq!(
            log.arrows()[1].end,
            ArrowEnd::Queued {
                handled_us: Some(50)
            }
        );
    }

    #[test]
    fn memory_is_bounded() {
        let mut log = MessageLog::default();
        for id in 0..(MAX_KEPT_ARROWS as u64 + 10) {
            log.apply(&send(id, id, 0, 1, id + 5));
        }
        assert_eq!(log.arrows().len(), MAX_KEPT_ARROWS);
        assert_eq!(log.arrows()[0].id, 10, "the oldest are forgotten first");
    }

    #[test]
    fn the_window_shows_only_recent_arrows_and_at_most_the_limit() {
        let mut log = MessageLog::default();
        for id in 0..100 {
            log.apply(&send(id * 10, id, 0, 1, id * 10 + 15));
        }
        let lanes = choose_lanes(3, None, None, &[]);
        let shown = visible_arrows(log.arrows(), &lanes, 500, 100, 1_000);
        assert!(shown
            .iter()
            .all(|arrow| arrow.deliver_us >= 400 && arrow.sent_us <= 500));
        assert_eq!(shown.first().map(|arrow| arrow.id), Some(39));
        assert_eq!(shown.last().map(|arrow| arrow.id), Some(50));
        let capped = visible_arrows(log.arrows(), &lanes, 500, 100, 4);
        let ids: Vec<u64> = capped.iter().map(|arrow| arrow.id).collect();
        assert_eq!(ids, vec![47, 48, 49, 50], "the newest, oldest first");
    }

    #[test]
    fn small_clusters_get_a_lane_per_node() {
        let lanes = choose_lanes(5, Some(NodeId(3)), None, &[]);
        assert_eq!(lanes.count(), 5);
        assert_eq!(lanes.lane_of(NodeId(3)), 3);
    }

    #[test]
    fn big_clusters_focus_on_leader_selection_and_candidates() {
        let lanes = choose_lanes(51, Some(NodeId(40)), Some(NodeId(7)), &[NodeId(22)]);
        assert_eq!(lanes.nodes.len(), FOCUS_LANES);
        for node in [NodeId(40), NodeId(7), NodeId(22), NodeId(0)] {
            assert!(lanes.has_own_lane(node), "{node} should have a lane");
        }
        assert_eq!(lanes.others, 51 - FOCUS_LANES);
        assert_eq!(lanes.count(), FOCUS_LANES + 1);
        assert_eq!(
            lanes.lane_of(NodeId(50)),
            FOCUS_LANES,
            "others share the last lane"
        );
        let mut sorted = lanes.nodes.clone();
        sorted.sort();
        assert_eq!(sorted, lanes.nodes, "lanes in id order");
    }

    #[test]
    fn messages_between_two_hidden_nodes_are_left_out() {
        let mut log = MessageLog::default();
        log.apply(&send(0, 1, 30, 31, 10));
        log.apply(&send(0, 2, 0, 31, 10));
        let lanes = choose_lanes(51, Some(NodeId(0)), None, &[]);
        let shown = visible_arrows(log.arrows(), &lanes, 5, 100, 300);
        assert_eq!(shown.len(), 1);
        assert_eq!(shown[0].to_lane, lanes.nodes.len());
    }

    #[test]
    fn sync_follows_a_real_world_and_rebuilds_after_a_seek_back() {
        use quorumlab_sim::time::SimTime;
        use quorumlab_sim::{World, WorldConfig};
        let mut world = World::new(WorldConfig::raft(5, 7)).unwrap();
        let key = RunKey {
            node_count: 5,
            seed: 7,
            history_generation: 0,
        };
        let mut log = MessageLog::default();
        let mut frame_us = 0;
        while frame_us < 1_000_000 {
            frame_us += 16_000;
            world.run_until(SimTime(frame_us));
            log.sync(world.trace(), frame_us, key);
        }
        let mut fresh = MessageLog::default();
        fresh.sync(world.trace(), frame_us, key);
        assert!(!log.arrows().is_empty());
        assert_eq!(
            log.arrows(),
            fresh.arrows(),
            "frame by frame equals all at once"
        );
        let sends = world
            .trace()
            .records()
            .filter(|record| matches!(record.event, TraceEvent::Send { .. }))
            .count();
        assert_eq!(log.arrows().len(), sends.min(MAX_KEPT_ARROWS));

        let mut earlier = World::new(WorldConfig::raft(5, 7)).unwrap();
        earlier.run_until(SimTime(300_000));
        log.sync(earlier.trace(), 300_000, key);
        assert!(log.arrows().iter().all(|arrow| arrow.sent_us <= 300_000));
    }
}
