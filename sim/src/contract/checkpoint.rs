//! A lesson checkpoint that belongs to one world, as that world's folder declares it.
//!
//! A lesson step waits for a condition on the live run ("a value is chosen", "another scheduler
//! instance leads"). Conditions that any world can meet (a crash, a partition, a leader change) are the
//! lesson engine's own; conditions that only make sense in one world are written beside that world's
//! actors, which they read, and listed by its registry entry's parts. The lesson parser walks the
//! lesson engine's names first and then every entry's, so a new world brings its checkpoints without
//! the parser learning its name.
//!
//! A world's checkpoint is a name, whether it takes a number, and how to start watching it: the watch
//! remembers what it needs from the moment its step began (counts, the leader then) and is then asked
//! again and again, through the read-only [`WorldRead`] window, until it says yes.

use crate::contract::world_read::WorldRead;
use std::fmt;

/// The answer to "is this checkpoint met now?", with the reason in plain words.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Verdict {
    pub satisfied: bool,
    pub explanation: String,
}

impl Verdict {
    pub fn yes(explanation: String) -> Verdict {
        Verdict {
            satisfied: true,
            explanation,
        }
    }

    pub fn not_yet(explanation: String) -> Verdict {
        Verdict {
            satisfied: false,
            explanation,
        }
    }
}

/// `n` with the right noun form: `counted(1, "read", "reads")` is "1 read".
pub fn counted(n: impl Into<u64>, one: &str, many: &str) -> String {
    let n = n.into();
    format!("{n} {}", if n == 1 { one } else { many })
}

/// What a checkpoint takes in its parentheses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Argument {
    /// Nothing: `value_chosen`.
    None,
    /// A whole number: `ballots_at_least(12)`.
    Number,
}

/// One of a world's checkpoints: its name in lesson files, its argument, and how a step starts
/// watching it (with the number given, 0 when it takes none).
#[derive(Clone, Copy)]
pub struct CheckpointSpec {
    pub name: &'static str,
    pub argument: Argument,
    pub begin: fn(u64, &dyn WorldRead) -> Box<dyn CheckpointWatch>,
}

// By name: a function pointer says nothing to a reader.
impl fmt::Debug for CheckpointSpec {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str(self.name)
    }
}

/// A world's checkpoint being watched from the start of its step.
pub trait CheckpointWatch {
    /// Whether the condition holds now, updating what the watch remembers.
    fn check(&mut self, world: &dyn WorldRead) -> Verdict;
    /// A copy (a lesson's evaluator is cloned with the timeline that holds it).
    fn clone_box(&self) -> Box<dyn CheckpointWatch>;
}

// By name only, as for `dyn WorldChecker`.
impl fmt::Debug for dyn CheckpointWatch {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str("CheckpointWatch")
    }
}

impl Clone for Box<dyn CheckpointWatch> {
    fn clone(&self) -> Box<dyn CheckpointWatch> {
        self.clone_box()
    }
}

/// A watch that is a plain `Clone` value: implementing this gives [`CheckpointWatch`].
pub trait ClonedWatch: Clone + 'static {
    fn check(&mut self, world: &dyn WorldRead) -> Verdict;
}

impl<T: ClonedWatch> CheckpointWatch for T {
    fn check(&mut self, world: &dyn WorldRead) -> Verdict {
        ClonedWatch::check(self, world)
    }

    fn clone_box(&self) -> Box<dyn CheckpointWatch> {
        Box::new(self.clone())
    }
}
