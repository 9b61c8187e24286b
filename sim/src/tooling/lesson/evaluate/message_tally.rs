//! Messages sent, by kind, read incrementally from the trace: what the cost checkpoints of the
//! Byzantine lesson put beside the requests committed, so a learner reads the price off the run.
//!
//! Only what the trace gained since the last call is read. A record the trace already forgot (its cap,
//! or a snapshot's replay) cannot be read and is skipped: the tally then undercounts, never invents.
//! A shorter trace than last time means the run was rewound; the tally starts again from there.
//!
//! What a request costs is what it causes: a Raft leader's heartbeats and the answers to them go out
//! on the clock whether or not requests come (`views::upkeep` tells them apart), so they are counted
//! beside the requests' messages, named as such, never divided among the requests.

use crate::engine::trace::TraceEvent;
use crate::engine::world::World;
use crate::views::upkeep::UpkeepReader;
use std::collections::BTreeMap;

/// Message kinds named in a verdict at most; the rest are summed as "other" (a world has a few).
const MAX_KINDS_SHOWN: usize = 8;

/// Messages counted per label since the tally began.
#[derive(Clone, Debug, Default)]
pub(super) struct MessageTally {
    records_read: u64,
    /// Messages the requests caused, per label.
    by_label: BTreeMap<&'static str, u64>,
    /// Heartbeats and the answers to them: sent on the clock, not for any request.
    upkeep: u64,
    upkeep_reader: UpkeepReader,
}

impl MessageTally {
    /// A tally that counts only what the trace records from now on.
    pub(super) fn from_now(world: &World) -> MessageTally {
        MessageTally {
            records_read: world.trace().total(),
            ..MessageTally::default()
        }
    }

    /// Reads the new records; their sends are counted if `counting`, skipped otherwise.
    pub(super) fn catch_up(&mut self, world: &World, counting: bool) {
        let trace = world.trace();
        if trace.total() < self.records_read {
            *self = MessageTally::from_now(world);
            return;
        }
        let first_kept = trace.dropped_records();
        let skip = self.records_read.saturating_sub(first_kept) as usize;
        self.records_read = trace.total();
        if !counting {
            // Whatever was being handled is unknown from here: no answer is taken for upkeep.
            self.upkeep_reader = UpkeepReader::default();
            return;
        }
        for record in trace.records().skip(skip) {
            match (self.upkeep_reader.read(&record.event), &record.event) {
                (Some(true), _) => self.upkeep += 1,
                (Some(false), TraceEvent::Send { label, .. }) => {
                    *self.by_label.entry(*label).or_insert(0) += 1;
                }
                _ => {}
            }
        }
    }

    pub(super) fn total(&self) -> u64 {
        self.by_label.values().sum()
    }

    /// "384 messages, 32.0 per request (per request: Request 4.0, PrePrepare 3.0, ...)", most
    /// frequent kind last so the expensive phase is what the eye lands on; then the upkeep, if any,
    /// as a count of its own.
    pub(super) fn per_request(&self, requests: u64) -> String {
        let upkeep = match self.upkeep {
            0 => String::new(),
            count => format!(
                "; besides, {count} heartbeats and answers to them, sent on the clock whether or not \
                 requests come (not counted per request)"
            ),
        };
        format!("{}{upkeep}", self.requests_part(requests))
    }

    fn requests_part(&self, requests: u64) -> String {
        let total = self.total();
        if requests == 0 {
            return format!("{total} messages");
        }
        let mut kinds: Vec<(&str, u64)> = self
            .by_label
            .iter()
            .map(|(label, count)| (*label, *count))
            .collect();
        kinds.sort_by_key(|(label, count)| (*count, *label));
        let other: u64 = kinds
            .iter()
            .rev()
            .skip(MAX_KINDS_SHOWN)
            .map(|(_, count)| count)
            .sum();
        let shown = kinds.len().saturating_sub(MAX_KINDS_SHOWN);
        let mut parts: Vec<String> = kinds[shown..]
            .iter()
            .map(|(label, count)| format!("{label} {}", tenths(*count, requests)))
            .collect();
        if other > 0 {
            parts.insert(0, format!("other {}", tenths(other, requests)));
        }
        format!(
            "{total} messages, {} per request (per request: {})",
            tenths(total, requests),
            parts.join(", ")
        )
    }
}

/// `count / requests` with one decimal, rounded half up, in integer arithmetic.
fn tenths(count: u64, requests: u64) -> String {
    let tenths = (count.saturating_mul(20) / requests).div_ceil(2);
    format!("{}.{}", tenths / 10, tenths % 10)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_share_is_written_with_one_decimal_rounded() {
        assert_eq!(tenths(384, 12), "32.0");
        assert_eq!(tenths(10, 3), "3.3");
        assert_eq!(tenths(20, 3), "6.7");
        assert_eq!(tenths(1, 4), "0.3");
        assert_eq!(tenths(0, 4), "0.0");
    }

    #[test]
    fn kinds_are_listed_cheapest_first_and_the_rest_summed_as_other() {
        let mut tally = MessageTally::default();
        let labels = ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j"];
        for (count, label) in labels.iter().enumerate() {
            tally.by_label.insert(label, count as u64 + 1);
        }
        let text = tally.per_request(1);
        assert!(text.starts_with("55 messages, 55.0 per request"), "{text}");
        assert!(text.contains("(per request: other 3.0, c 3.0,"), "{text}");
        assert!(text.ends_with("j 10.0)"), "{text}");
        assert_eq!(tally.per_request(0), "55 messages");
    }

    #[test]
    fn upkeep_is_named_beside_the_requests_and_left_out_of_their_share() {
        let mut tally = MessageTally::default();
        tally.by_label.insert("AppendEntries", 30);
        tally.by_label.insert("AppendEntries ok", 30);
        let without = tally.per_request(10);
        assert_eq!(
            without,
            "60 messages, 6.0 per request (per request: AppendEntries 3.0, AppendEntries ok 3.0)"
        );
        tally.upkeep = 240;
        let with = tally.per_request(10);
        assert!(with.starts_with(&without), "{with}");
        assert!(
            with.ends_with("; besides, 240 heartbeats and answers to them, sent on the clock whether or not requests come (not counted per request)"),
            "{with}"
        );
    }
}
