//! What the client and partition panels say in each world. A Raft cluster has nodes `n1..nN`, a leader
//! to send requests to, and a quorum of all its nodes. A coordination world is different: its servers
//! are only part of the ring (workers `A`, `B`, ... and the `store` sit beside them), the load comes
//! from the workers' own loops rather than from a client box, and "can this side work?" depends on how
//! many *servers* it holds, not how many actors. Pure functions, so each sentence is tested natively.

use crate::format;
use quorumlab_sim::ids::NodeId;
pub use quorumlab_sim::registry::ClientPath;
use quorumlab_sim::registry::ServerQuorum;
use quorumlab_sim::view_coordination::CoordinationView;

/// The name a node goes by on the ring: `A`, `store`, or `n1` in a plain Raft cluster.
pub fn node_name(coordination: Option<&CoordinationView>, node: NodeId) -> String {
    coordination
        .and_then(|view| view.labels.get(node.index()).cloned())
        .unwrap_or_else(|| node.to_string())
}

/// Names joined with commas, for a partition group.
pub fn name_list(coordination: Option<&CoordinationView>, nodes: &[NodeId]) -> String {
    nodes
        .iter()
        .map(|node| node_name(coordination, *node))
        .collect::<Vec<_>>()
        .join(", ")
}

/// How servers are counted in a coordination world: `n1..nN` are servers, everything else is not.
pub fn server_count(coordination: &CoordinationView) -> usize {
    coordination
        .labels
        .iter()
        .take_while(|label| label.starts_with('n'))
        .count()
}

/// Where client requests can go in this world: plain Raft (no coordination view) sends them to its
/// nodes; a coordination world says so in its registry entry.
pub fn client_path(coordination: Option<&CoordinationView>) -> ClientPath {
    coordination.map_or(ClientPath::Raft, |view| {
        view.kind.entry().capabilities.client_path
    })
}

/// What drives the load in a coordination world, in one sentence (empty for plain Raft): the world's
/// own sentence with its lettered actors named.
pub fn load_sentence(coordination: Option<&CoordinationView>) -> String {
    let Some(view) = coordination else {
        return String::new();
    };
    let servers = server_count(view);
    let actors: Vec<&str> = view.labels[servers..]
        .iter()
        .map(String::as_str)
        .filter(|label| *label != "store")
        .collect();
    view.kind
        .entry()
        .vocabulary
        .load
        .replace("{actors}", &actors.join(", "))
}

/// The targets the client menu offers: `(value, shown text)`, the leader first and then the servers by
/// name (workers and the store take no raw requests). [`parse_target`] reads a value back.
pub fn target_options(
    coordination: Option<&CoordinationView>,
    node_count: usize,
) -> Vec<(String, String)> {
    let (leader_text, servers) = match coordination {
        None => ("the leader", node_count),
        Some(view) => ("the service leader", server_count(view)),
    };
    let mut options = vec![("leader".to_string(), leader_text.to_string())];
    options.extend((0..servers).map(|index| {
        let name = node_name(coordination, NodeId(index as u16));
        (name.clone(), name)
    }));
    options
}

/// A menu value back to its server (`None` for the leader or a value the menu does not offer).
pub fn parse_target(value: &str, options: &[(String, String)]) -> Option<NodeId> {
    options
        .iter()
        .skip(1)
        .position(|(offered, _)| offered == value)
        .map(|index| NodeId(index as u16))
}

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
    use quorumlab_sim::ProtocolKind;

    fn world(kind: ProtocolKind, labels: &[&str]) -> CoordinationView {
        crate::components::coordination::bare_view(kind, labels)
    }

    #[test]
    fn names_come_from_the_world_or_fall_back_to_ids() {
        let locks = world(
            ProtocolKind::LockService,
            &["n1", "n2", "n3", "A", "B", "store"],
        );
        assert_eq!(node_name(Some(&locks), NodeId(3)), "A");
        assert_eq!(
            name_list(Some(&locks), &[NodeId(0), NodeId(5)]),
            "n1, store"
        );
        assert_eq!(node_name(None, NodeId(6)), "n7");
    }

    #[test]
    fn redis_worlds_have_no_client_path_and_say_who_drives_load() {
        let redlock = world(
            ProtocolKind::Redlock,
            &["n1", "n2", "n3", "n4", "n5", "A", "B", "store"],
        );
        assert_eq!(client_path(Some(&redlock)), ClientPath::None);
        let sentence = load_sentence(Some(&redlock));
        assert!(sentence.contains("A, B make the load"), "{sentence}");
        assert!(!sentence.contains("leader"), "{sentence}");
        assert_eq!(client_path(None), ClientPath::Raft);
        assert_eq!(load_sentence(None), "");
    }

    #[test]
    fn the_service_menu_offers_only_servers() {
        let locks = world(
            ProtocolKind::LockService,
            &["n1", "n2", "n3", "A", "B", "store"],
        );
        assert_eq!(client_path(Some(&locks)), ClientPath::ServiceLog);
        let options = target_options(Some(&locks), 6);
        let shown: Vec<&str> = options.iter().map(|(_, text)| text.as_str()).collect();
        assert_eq!(shown, ["the service leader", "n1", "n2", "n3"]);
        assert_eq!(parse_target("n3", &options), Some(NodeId(2)));
        assert_eq!(parse_target("A", &options), None);
        assert_eq!(parse_target("leader", &options), None);
        assert_eq!(target_options(None, 2).len(), 3);
    }

    #[test]
    fn chips_keep_raft_wording_and_say_group_beside_lettered_workers() {
        assert_eq!(chip_text("n1", "A", false), "n1 · A");
        assert_eq!(chip_text("B", "A", true), "B · group A");
    }

    #[test]
    fn verdicts_count_servers_not_actors() {
        let locks = world(
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
        let redis = world(ProtocolKind::RedisLock, &["n1", "A", "B", "store"]);
        assert!(group_verdict(Some(&redis), &[NodeId(0)], 4).1);
        assert_eq!(
            group_verdict(None, &[NodeId(0), NodeId(1)], 5),
            format::quorum_badge(2, 5)
        );
    }

    #[test]
    fn default_split_strands_the_first_worker_with_a_server_minority() {
        let locks = world(
            ProtocolKind::LockService,
            &["n1", "n2", "n3", "A", "B", "store"],
        );
        assert_eq!(default_groups(Some(&locks), 6), [0, 1, 1, 0, 1, 1]);
        let redis = world(ProtocolKind::RedisLock, &["n1", "A", "B", "store"]);
        // One server cannot be split: it stays with everyone but A, which is cut off from it.
        assert_eq!(default_groups(Some(&redis), 4), [1, 0, 1, 1]);
        assert_eq!(default_groups(None, 5), [0, 0, 1, 1, 1]);
    }
}
