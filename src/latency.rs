//! Commit latency as the charts card shows it: how long acknowledged writes took, from the client's
//! send to the acknowledgement, over the newest requests the view carries. Slowing one link or putting
//! the servers in regions shows here first.

use quorumlab_sim::protocol::{ClientCommand, ClientOutcome};
use quorumlab_sim::world::ClientRecord;

/// Mean and count of the acknowledged writes among `records`, in µs; `None` before the first one.
pub fn mean_commit_latency_us(records: &[ClientRecord]) -> Option<(u64, usize)> {
    let latencies: Vec<u64> = records
        .iter()
        .filter(|record| matches!(record.command, Some(ClientCommand::Put { .. })))
        .filter(|record| matches!(record.outcome, ClientOutcome::Committed { .. }))
        .filter_map(|record| {
            Some(
                record
                    .finished_at_us?
                    .saturating_sub(record.submitted_at_us),
            )
        })
        .collect();
    if latencies.is_empty() {
        return None;
    }
    let total: u64 = latencies.iter().sum();
    Some((total / latencies.len() as u64, latencies.len()))
}

/// The chart's line: `commit latency 28 ms (mean of 15 writes)`, or a dash before any write.
pub fn latency_text(records: &[ClientRecord]) -> String {
    match mean_commit_latency_us(records) {
        Some((mean_us, 1)) => format!("commit latency {} ms (1 write)", mean_us / 1_000),
        Some((mean_us, count)) => {
            format!(
                "commit latency {} ms (mean of {count} writes)",
                mean_us / 1_000
            )
        }
        None => "commit latency — (no write acknowledged yet)".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use quorumlab_sim::protocol::ClientError;
    use quorumlab_sim::units::{LogIndex, Term};

    fn record(
        command: ClientCommand,
        outcome: ClientOutcome,
        sent_us: u64,
        done_us: u64,
    ) -> ClientRecord {
        ClientRecord {
            id: 1,
            node: None,
            command: Some(command),
            submitted_at_us: sent_us,
            outcome,
            finished_at_us: Some(done_us),
            must_reflect_index: LogIndex(0),
        }
    }

    #[test]
    fn only_acknowledged_writes_count() {
        let put = ClientCommand::Put { key: 1, value: 2 };
        let committed = ClientOutcome::Committed {
            index: LogIndex(1),
            term: Term(1),
        };
        let records = vec![
            record(put, committed, 1_000, 21_000),
            record(put, committed, 2_000, 62_000),
            record(
                put,
                ClientOutcome::Rejected(ClientError::NodeDown),
                0,
                500_000,
            ),
            record(
                ClientCommand::Get { key: 1 },
                ClientOutcome::Pending,
                0,
                900_000,
            ),
        ];
        assert_eq!(mean_commit_latency_us(&records), Some((40_000, 2)));
        assert_eq!(
            latency_text(&records),
            "commit latency 40 ms (mean of 2 writes)"
        );
        assert_eq!(mean_commit_latency_us(&records[2..]), None);
    }
}
