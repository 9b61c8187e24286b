//! The words for a node made Byzantine, and which nodes can be made so: a plain Raft cluster's
//! servers and a PBFT world's replicas (the engine refuses every other actor, saying why).

use quorumlab_sim::action::ByzantineMode;
use quorumlab_sim::view_coordination::CoordinationView;

/// The label drawn beside a lying node and on its space-time lane.
pub fn liar_label(mode: ByzantineMode) -> &'static str {
    match mode {
        ByzantineMode::Equivocate => "lies: equivocates",
        ByzantineMode::Lie => "lies: forges",
        ByzantineMode::Silent => "lies: silent",
        ByzantineMode::Selective => "lies: silent to half",
        ByzantineMode::Honest => "honest",
    }
}

/// A crashed liar's label: down, it tells no lies; the engine keeps its mode, so once restarted it
/// lies the same way again (until made honest).
pub fn restart_liar_label(mode: ByzantineMode) -> String {
    let lie = liar_label(mode).trim_start_matches("lies: ");
    format!("lies again on restart: {lie}")
}

/// A mode as a button names it, and what it does there, in a few words.
pub fn mode_button(mode: ByzantineMode) -> (&'static str, &'static str) {
    match mode {
        ByzantineMode::Equivocate => ("Equivocate", "tell different peers different things"),
        ByzantineMode::Lie => ("Lie", "claim what is not so"),
        ByzantineMode::Silent => ("Go silent", "send nothing, still listening"),
        ByzantineMode::Selective => (
            "Go silent to half",
            "send nothing to the upper half of its peers by number, talk to the rest",
        ),
        ByzantineMode::Honest => ("Make honest", "follow the protocol again"),
    }
}

/// The modes offered, in order.
pub const LYING_MODES: [ByzantineMode; 4] = [
    ByzantineMode::Equivocate,
    ByzantineMode::Lie,
    ByzantineMode::Silent,
    ByzantineMode::Selective,
];

/// Whether the world's servers can be made to lie: a plain Raft cluster (no coordination part) or a
/// PBFT world (its view has a PBFT part).
pub fn servers_can_lie(coordination: Option<&CoordinationView>) -> bool {
    coordination.is_none_or(|coordination| coordination.pbft().is_some())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::world_text::bare_view;
    use quorumlab_sim::ProtocolKind;

    #[test]
    fn only_raft_clusters_and_pbft_replicas_can_lie() {
        assert!(servers_can_lie(None));
        let lock_service = bare_view(ProtocolKind::LockService, &["n1", "A"]);
        assert!(!servers_can_lie(Some(&lock_service)));
        assert_eq!(liar_label(ByzantineMode::Equivocate), "lies: equivocates");
        assert_ne!(
            liar_label(ByzantineMode::Lie),
            liar_label(ByzantineMode::Silent)
        );
        assert_eq!(
            restart_liar_label(ByzantineMode::Lie),
            "lies again on restart: forges"
        );
    }
}
