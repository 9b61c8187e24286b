//! Names from the live run inside a lesson's instruction: `{lock_holder}`, `{paused}`, `{leader}`,
//! `{crashed}`.
//!
//! A lesson is written before anyone plays it, but which worker wins the lock, which node leads or which
//! one the learner froze is decided in the run. An instruction that says "resume B" is wrong the moment
//! the learner paused A; "resume the worker you paused (now: {paused})" is right in every run. The app
//! shows each placeholder as the name it stands for at the moment on screen and keeps it current; the
//! lesson parser rejects a placeholder it does not know, so a typo cannot reach a learner as `{leadr}`.

use crate::base::ids::NodeId;
use crate::engine::world::NodeStatus;
use crate::protocols::zookeeper::CandidatePhase;
use crate::views::view::ClusterView;

/// Something an instruction can name that only the run knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LiveName {
    /// The node that leads right now (the Raft leader, or the lock service's leader).
    Leader,
    /// Every client that believes it holds the lock right now (in an election built on a lock or a
    /// lease, the scheduler instance or candidate that believes it leads).
    LockHolder,
    /// Every node that is paused right now.
    Paused,
    /// Every node that is crashed right now.
    Crashed,
}

/// Each placeholder as written between braces, and what it stands for.
pub const LIVE_NAMES: &[(&str, LiveName)] = &[
    ("leader", LiveName::Leader),
    ("lock_holder", LiveName::LockHolder),
    ("paused", LiveName::Paused),
    ("crashed", LiveName::Crashed),
];

impl LiveName {
    /// The placeholder written between braces, e.g. `lock_holder` for `{lock_holder}`.
    pub fn from_placeholder(word: &str) -> Option<LiveName> {
        LIVE_NAMES
            .iter()
            .find(|(known, _)| *known == word)
            .map(|(_, name)| *name)
    }

    /// The word written between braces for this name.
    pub fn placeholder(self) -> &'static str {
        LIVE_NAMES
            .iter()
            .find(|(_, name)| *name == self)
            .map_or("", |(word, _)| word)
    }

    /// The nodes the placeholder stands for in the run shown by `view` (the app lets a tap on the name
    /// reach the node).
    pub fn nodes(self, view: &ClusterView) -> Vec<NodeId> {
        match self {
            LiveName::Leader => view.leader.into_iter().collect(),
            LiveName::LockHolder => lock_holders(view),
            LiveName::Paused => with_status(view, NodeStatus::Paused),
            LiveName::Crashed => with_status(view, NodeStatus::Crashed),
        }
    }

    /// What the placeholder says in the run shown by `view`: names joined with "and", or "nobody" ("none" for the leader).
    pub fn value(self, view: &ClusterView) -> String {
        let nodes = self.nodes(view);
        let names: Vec<String> = nodes.iter().map(|node| name_of(view, *node)).collect();
        match names.as_slice() {
            [] if self == LiveName::Leader => "none".to_string(),
            [] => "nobody".to_string(),
            [one] => one.clone(),
            [init @ .., last] => format!("{} and {last}", init.join(", ")),
        }
    }
}

/// The placeholders of `text` in order, as `(byte offset of the brace, the word inside)`. A brace
/// pair holding anything but lowercase letters and underscores is not a placeholder.
pub fn placeholders(text: &str) -> Vec<(usize, &str)> {
    text.match_indices('{')
        .filter_map(|(open, _)| Some((open, leading_placeholder(&text[open..])?)))
        .collect()
}

/// The word of the placeholder `text` starts with (`{paused} and...` gives `paused`).
pub fn leading_placeholder(text: &str) -> Option<&str> {
    let rest = text.strip_prefix('{')?;
    let word_length = rest
        .find(|character: char| !(character.is_ascii_lowercase() || character == '_'))
        .unwrap_or(rest.len());
    (word_length > 0 && rest[word_length..].starts_with('}')).then(|| &rest[..word_length])
}

fn with_status(view: &ClusterView, status: NodeStatus) -> Vec<NodeId> {
    view.nodes
        .iter()
        .filter(|node| node.status == status)
        .map(|node| node.id)
        .collect()
}

fn lock_holders(view: &ClusterView) -> Vec<NodeId> {
    let Some(coordination) = &view.coordination else {
        return Vec::new();
    };
    let workers = coordination
        .workers
        .iter()
        .filter(|worker| worker.belief.is_some())
        .map(|worker| worker.id);
    let instances = coordination
        .scheduler()
        .into_iter()
        .flat_map(|scheduler| &scheduler.instances)
        .filter(|instance| instance.believes_it_leads)
        .map(|instance| instance.id);
    let candidates = coordination
        .candidates()
        .iter()
        .filter(|candidate| candidate.phase == CandidatePhase::Leading)
        .map(|candidate| candidate.id);
    workers.chain(instances).chain(candidates).collect()
}

fn name_of(view: &ClusterView, node: NodeId) -> String {
    view.coordination
        .as_ref()
        .and_then(|coordination| coordination.labels.get(node.index()).cloned())
        .unwrap_or_else(|| node.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_are_braced_lowercase_words_only() {
        let text = "Resume {paused}, not {B} or { paused } or {lock_holder}. {unknown_word}";
        assert_eq!(
            placeholders(text),
            vec![(7, "paused"), (42, "lock_holder"), (57, "unknown_word")]
        );
        assert!(placeholders("no braces, {unclosed").is_empty());
    }

    #[test]
    fn every_name_reads_back_from_its_placeholder() {
        for (word, name) in LIVE_NAMES {
            assert_eq!(LiveName::from_placeholder(word), Some(*name));
        }
        assert_eq!(LiveName::from_placeholder("leadr"), None);
    }
}
