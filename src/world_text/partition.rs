//! What the partition panel and the stage say about each side of a split. "Can this side work?"
//! depends on how many *servers* it holds, not how many actors: workers and the store sit beside the
//! servers on the ring but vote in nothing.

use super::names::server_count;
use crate::format;
use quorumlab_sim::ids::NodeId;
use quorumlab_sim::registry::ServerQuorum;
use quorumlab_sim::view_coordination::CoordinationView;

/// A partition chip's text: Raft keeps `n1 · A`; where workers are lettered too, `A · group B`.
pub fn chip_text(name: &str, group_letter: &str, named_actors: bool) -> String {
    if named_actors {
        format!("{name} · group {group_letter}")
    } else {
        format!("{name} · {group_letter}")
    }
}

/// What a partition side can still do, and whether that is enough to work. Raft counts every node;
/// a coordination world counts the servers on that side against all servers (a Redis-style single
/// server is simply there or not).
pub fn group_verdict(
    coordination: Option<&CoordinationView>,
    group: &[NodeId],
    node_count: usize,
) -> (String, bool) {
    let Some(view) = coordination else {
        return format::quorum_badge(group.len(), node_count);
    };
    let servers = server_count(view);
    let held = group.iter().filter(|node| node.index() < servers).count();
    let plural = if servers == 1 { "" } else { "s" };
    let (enough, what) = match view.kind.entry().capabilities.server_quorum {
        ServerQuorum::Single { able } => (held == 1, able),
        ServerQuorum::Majority { able } => (held > servers / 2, able),
    };
    let verdict = if enough { what } else { "no server majority" };
    (
        format!("{held}/{servers} server{plural} — {verdict}"),
        enough,
    )
}

/// The group a partition chip starts in: in Raft the first two nodes against the rest; in a
/// coordination world a minority of the servers with the first worker, the rest on the other side,
/// so applying the default shows a worker stranded with a server that cannot serve it.
pub fn default_groups(coordination: Option<&CoordinationView>, node_count: usize) -> Vec<usize> {
    match coordination {
        None => (0..node_count)
            .map(|index| usize::from(index >= 2.min(node_count / 2)))
            .collect(),
        Some(view) => {
            let servers = server_count(view);
            let minority = (servers / 2).max(1).min(servers.saturating_sub(1));
            (0..node_count)
                .map(|index| usize::from(!(index < minority || index == servers)))
                .collect()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::world_text::bare_view;
    use quorumlab_sim::ProtocolKind;

    #[test]
    fn chips_keep_raft_wording_and_say_group_beside_lettered_workers() {
        assert_eq!(chip_text("n1", "A", false), "n1 · A");
        assert_eq!(chip_text("B", "A", true), "B · group A");
    }

    #[test]
    fn verdicts_count_servers_not_actors() {
        let locks = bare_view(
            ProtocolKind::LockService,
            &["n1", "n2", "n3", "A", "B", "store"],
        );
        let side = [NodeId(0), NodeId(3), NodeId(4), NodeId(5)];
        assert_eq!(
            group_verdict(Some(&locks), &side, 6),
            ("1/3 servers — no server majority".to_string(), false)
        );
        let other = [NodeId(1), NodeId(2)];
        assert_eq!(
            group_verdict(Some(&locks), &other, 6),
            ("2/3 servers — service can work".to_string(), true)
        );
        let redis = bare_view(ProtocolKind::RedisLock, &["n1", "A", "B", "store"]);
        assert!(group_verdict(Some(&redis), &[NodeId(0)], 4).1);
        assert_eq!(
            group_verdict(None, &[NodeId(0), NodeId(1)], 5),
            format::quorum_badge(2, 5)
        );
    }

    #[test]
    fn default_split_strands_the_first_worker_with_a_server_minority() {
        let locks = bare_view(
            ProtocolKind::LockService,
            &["n1", "n2", "n3", "A", "B", "store"],
        );
        assert_eq!(default_groups(Some(&locks), 6), [0, 1, 1, 0, 1, 1]);
        let redis = bare_view(ProtocolKind::RedisLock, &["n1", "A", "B", "store"]);
        // One server cannot be split: it stays with everyone but A, which is cut off from it.
        assert_eq!(default_groups(Some(&redis), 4), [1, 0, 1, 1]);
        assert_eq!(default_groups(None, 5), [0, 0, 1, 1, 1]);
    }
}
