//! How a world's facts read in plain words: the contract between the narrator
//! (`crate::views::narration`) and each protocol's describer (`protocols/raft/describe.rs`,
//! `protocols/lockservice/describe.rs`, ...).
//!
//! A describer is handed its protocol's facts one at a time, in trace order, and may keep state between
//! them (who leads, which lock revision it already told): the same run always gives the same sentences.
//! It returns `None` for facts that are not worth a line; the narrator decides when to coalesce. Each
//! describer knows only its own fact type `F`; the registry's world describer routes the world's facts
//! to the describers its entry's [`Story`] names.

use crate::base::ids::NodeId;
use crate::contract::action::Action;

/// How much a line matters: what goes in the caption, what only in the log.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Weight {
    /// Background traffic worth a log line (a vote, a lease read, an accepted write).
    Routine,
    /// A turn in the story: a crash, a vote, a lock granted.
    Notable,
    /// A turn the class must not miss: a new leader, a write refused. The caption does not pass over
    /// one of these to keep up with the run, as it may an ordinary turn.
    Key,
    /// An invariant was broken.
    Alarm,
}

/// One sentence about what just happened.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Described {
    pub text: String,
    /// The actors the sentence is about (highlighted when the line is chosen).
    pub nodes: Vec<NodeId>,
    pub weight: Weight,
    /// Lines with the same key in a row are one line with a count ("×12") instead of twelve.
    pub coalesce: Option<&'static str>,
}

impl Described {
    pub fn new(weight: Weight, text: String, nodes: Vec<NodeId>) -> Described {
        Described {
            text,
            nodes,
            weight,
            coalesce: None,
        }
    }

    pub fn coalescing(mut self, key: &'static str) -> Described {
        self.coalesce = Some(key);
        self
    }
}

/// What a describer may ask about the world while it describes.
pub struct Telling<'a> {
    /// The name a learner sees for a node (`n3`, `A`, `store`).
    pub name: &'a dyn Fn(NodeId) -> String,
    /// The label of the timer that fired just before this fact on the same node, if one did.
    pub timer: Option<&'static str>,
}

impl Telling<'_> {
    pub fn name(&self, node: NodeId) -> String {
        (self.name)(node)
    }
}

/// A protocol's plain-words describer of its facts `F`.
pub trait Describer<F> {
    /// The sentence for `fact`, observed on `node`, or `None` when it is not worth one.
    fn describe(&mut self, node: NodeId, fact: &F, telling: &Telling<'_>) -> Option<Described>;

    /// What an action (a crash, a pause) means to this protocol, said after the action itself; `None`
    /// when the action speaks for itself.
    fn consequence(&mut self, _action: &Action, _telling: &Telling<'_>) -> Option<String> {
        None
    }
}

/// Which lock story a world tells: a replicated service's (fencing tokens, each change told once) or
/// Redis-style servers' (random values, each server's key its own story).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LockStory {
    Service,
    Redis,
}

/// Which describers a world's narration combines (Raft's comes with `runs_raft`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Story {
    pub locks: Option<LockStory>,
    /// The invoice scheduler's instances and store.
    pub invoices: bool,
    /// ZooKeeper-style candidates leading while their session lasts.
    pub election_recipe: bool,
}
