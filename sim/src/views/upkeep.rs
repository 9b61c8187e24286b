//! Which of a run's messages keep the cluster going rather than carry a request: a Raft leader's
//! heartbeats and the followers' answers to them. Both are sent on the clock, whether or not anyone
//! writes, so a count of what each request cost leaves them out and names them apart.
//!
//! A heartbeat's answer goes by the same label as an entry's ("AppendEntries ok"), so the label alone
//! cannot tell them apart; what the follower was handling when it answered can. The engine records a
//! delivery, then every send its receiver makes while handling it, before the next input begins (a
//! timer, an action, a client's request, the next delivery). An answer is upkeep when it goes back to
//! the leader whose heartbeat the follower was just handed. The labels and the trace stay as they
//! are: this is a way of reading them, so no run and no fingerprint changes.

use crate::base::ids::NodeId;
use crate::engine::trace::TraceEvent;

/// The label of a Raft leader's empty AppendEntries (`RaftMessage::label`).
pub const HEARTBEAT_LABEL: &str = "Heartbeat";

/// The labels a follower answers any AppendEntries with, a heartbeat included.
const ANSWER_LABELS: [&str; 2] = ["AppendEntries ok", "AppendEntries reject"];

/// Reads trace events in order and says, of each send, whether it is upkeep.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct UpkeepReader {
    /// The heartbeat whose receiver is handling it now, as (leader, follower).
    handling_heartbeat: Option<(NodeId, NodeId)>,
}

impl UpkeepReader {
    /// Takes the next event of the trace; for a send, whether it is upkeep (`None` for the rest).
    pub fn read(&mut self, event: &TraceEvent) -> Option<bool> {
        match event {
            TraceEvent::Send {
                from, to, label, ..
            } => Some(
                *label == HEARTBEAT_LABEL
                    || (ANSWER_LABELS.contains(label)
                        && self.handling_heartbeat == Some((*to, *from))),
            ),
            TraceEvent::Deliver {
                from, to, label, ..
            } => {
                self.handling_heartbeat = (*label == HEARTBEAT_LABEL).then_some((*from, *to));
                None
            }
            // What a handler records besides its sends; the input it belongs to goes on.
            TraceEvent::Observe { .. }
            | TraceEvent::Violation { .. }
            | TraceEvent::ClientOutcome { .. }
            | TraceEvent::Note { .. } => None,
            // Anything else begins another input (or is one that sends nothing).
            _ => {
                self.handling_heartbeat = None;
                None
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::network::MessageId;

    fn send(id: MessageId, from: u16, to: u16, label: &'static str) -> TraceEvent {
        TraceEvent::Send {
            id,
            from: NodeId(from),
            to: NodeId(to),
            label,
            deliver_at_us: 0,
            dropped: false,
        }
    }

    fn deliver(id: MessageId, from: u16, to: u16, label: &'static str) -> TraceEvent {
        TraceEvent::Deliver {
            id,
            from: NodeId(from),
            to: NodeId(to),
            label,
        }
    }

    fn read_all(events: &[TraceEvent]) -> Vec<bool> {
        let mut reader = UpkeepReader::default();
        events
            .iter()
            .filter_map(|event| reader.read(event))
            .collect()
    }

    #[test]
    fn a_heartbeat_and_its_answer_are_upkeep_and_an_entry_and_its_answer_are_not() {
        let events = [
            send(1, 0, 1, "Heartbeat"),
            deliver(1, 0, 1, "Heartbeat"),
            send(2, 1, 0, "AppendEntries ok"),
            send(3, 0, 1, "AppendEntries"),
            deliver(3, 0, 1, "AppendEntries"),
            send(4, 1, 0, "AppendEntries ok"),
        ];
        assert_eq!(read_all(&events), vec![true, true, false, false]);
    }

    #[test]
    fn the_same_answer_after_another_input_or_to_another_node_is_not_upkeep() {
        let timer = TraceEvent::Timer {
            node: NodeId(1),
            label: "election",
        };
        let events = [
            deliver(1, 0, 1, "Heartbeat"),
            // A liar answering the heartbeat also sends a forged write to a third server.
            send(2, 1, 2, "AppendEntries"),
            send(3, 1, 2, "AppendEntries ok"),
            send(4, 1, 0, "AppendEntries reject"),
            timer,
            send(5, 1, 0, "AppendEntries ok"),
        ];
        assert_eq!(read_all(&events), vec![false, false, true, false]);
    }
}
