//! What kind of actor a node is (server, worker, Paxos learner, resource) and the word a learner reads for it, told
//! from the engine's naming alone so every view agrees without asking the world.

use quorumlab_sim::ProtocolKind;

/// What a node on the ring is, drawn with its own shape (never told apart by colour alone).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NodeKind {
    /// A Raft node, a lock-service server or a Redis-style server: a circle.
    Server,
    /// A lock client, scheduler instance or election candidate (`A`, `B`, ...): a rounded square.
    Worker,
    /// A Paxos learner actor (`L1`, `L2`, ...): a diamond.
    Learner,
    /// The protected resource (`store`): a hexagon.
    Resource,
}

impl NodeKind {
    /// From the engine's naming: servers keep `n1..`, workers are capital letters, Paxos's learner
    /// actors `L` and a number (a twelfth worker is plain `L`), the resource `store`.
    pub fn of_label(label: &str) -> NodeKind {
        let numbered =
            |rest: &str| !rest.is_empty() && rest.bytes().all(|byte| byte.is_ascii_digit());
        if label == "store" {
            NodeKind::Resource
        } else if label.strip_prefix('L').is_some_and(numbered) {
            NodeKind::Learner
        } else if label.starts_with(|first: char| first.is_ascii_uppercase()) {
            NodeKind::Worker
        } else {
            NodeKind::Server
        }
    }

    pub fn word(self) -> &'static str {
        match self {
            NodeKind::Server => "server",
            NodeKind::Worker => "worker",
            NodeKind::Learner => "learner",
            NodeKind::Resource => "resource",
        }
    }

    /// The word a learner reads for this kind in `protocol`'s world: the lettered actors go by the
    /// registry's actor word (instances in the invoice scheduler, candidates in the ZooKeeper recipe);
    /// servers and the resource keep their generic words, which the panels' sentences are built on.
    pub fn word_in(self, protocol: ProtocolKind) -> &'static str {
        match self {
            NodeKind::Worker => protocol.entry().vocabulary.actor,
            kind => kind.word(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_follow_the_engine_names() {
        assert_eq!(NodeKind::of_label("n1"), NodeKind::Server);
        assert_eq!(NodeKind::of_label("A"), NodeKind::Worker);
        assert_eq!(NodeKind::of_label("L"), NodeKind::Worker);
        assert_eq!(NodeKind::of_label("L2"), NodeKind::Learner);
        assert_eq!(NodeKind::Learner.word_in(ProtocolKind::Paxos), "learner");
        assert_eq!(NodeKind::of_label("store"), NodeKind::Resource);
        assert_eq!(
            NodeKind::Worker.word_in(ProtocolKind::Zookeeper),
            "candidate"
        );
        assert_eq!(
            NodeKind::Worker.word_in(ProtocolKind::Scheduler),
            "instance"
        );
        assert_eq!(
            NodeKind::Worker.word_in(ProtocolKind::LockService),
            "worker"
        );
        assert_eq!(
            NodeKind::Resource.word_in(ProtocolKind::Zookeeper),
            "resource"
        );
    }
}
