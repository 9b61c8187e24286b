//! What the client panel offers in each world. A Raft cluster takes reads and writes at its leader or
//! any node; in a coordination world the load comes from the actors' own loops rather than from a
//! client box, and raw requests, where the world has a log at all, go to the service's servers only.

use super::names::{node_name, server_count};
use super::node_kind::NodeKind;
use quorumlab_sim::ids::NodeId;
pub use quorumlab_sim::registry::ClientPath;
use quorumlab_sim::view_coordination::CoordinationView;

/// Where client requests can go in this world: plain Raft (no coordination view) sends them to its
/// nodes; a coordination world says so in its registry entry.
pub fn client_path(coordination: Option<&CoordinationView>) -> ClientPath {
    coordination.map_or(ClientPath::Raft, |view| {
        view.kind.entry().capabilities.client_path
    })
}

/// What drives the load in a coordination world, in one sentence (empty for plain Raft): the world's
/// own sentence with its lettered actors named, and then Paxos's learner actors, if any, which drive
/// nothing.
pub fn load_sentence(coordination: Option<&CoordinationView>) -> String {
    let Some(view) = coordination else {
        return String::new();
    };
    let servers = server_count(view);
    let named = |kind: NodeKind| -> Vec<&str> {
        view.labels[servers..]
            .iter()
            .map(String::as_str)
            .filter(|label| NodeKind::of_label(label) == kind)
            .collect()
    };
    let sentence = view
        .kind
        .entry()
        .vocabulary
        .load
        .replace("{actors}", &named(NodeKind::Worker).join(", "));
    match named(NodeKind::Learner).as_slice() {
        [] => sentence,
        learners => format!(
            "{sentence} The learners {} only listen: every acceptor tells them what it accepts.",
            learners.join(", ")
        ),
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::world_text::bare_view;
    use quorumlab_sim::ProtocolKind;

    #[test]
    fn redis_worlds_have_no_client_path_and_say_who_drives_load() {
        let redlock = bare_view(
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
    fn one_pbft_client_or_paxos_proposer_is_spoken_of_in_the_singular() {
        let pbft = bare_view(ProtocolKind::Pbft, &["n1", "n2", "n3", "n4", "A"]);
        let sentence = load_sentence(Some(&pbft));
        assert!(
            sentence.contains("each client (A) sends one request at a time"),
            "{sentence}"
        );
        assert!(!sentence.contains("clients A"), "{sentence}");
        let paxos = bare_view(ProtocolKind::Paxos, &["n1", "n2", "n3", "A", "B"]);
        let sentence = load_sentence(Some(&paxos));
        assert!(
            sentence.contains("each proposer (A, B) wants its own value chosen"),
            "{sentence}"
        );
    }

    #[test]
    fn the_service_menu_offers_only_servers() {
        let locks = bare_view(
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
}
