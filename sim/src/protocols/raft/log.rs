//! The replicated log: 1-based indexes, index 0 is the empty prefix with term 0.

use crate::base::ids::NodeSet;
use crate::base::units::{LogIndex, Term};
use crate::contract::protocol::RequestId;
use serde::{Deserialize, Serialize};

/// What the application puts in the log beside Raft's own entries. Raft only stores and orders it; the
/// digest lets the checkers compare two logs without knowing what the entries mean.
pub trait Payload: Copy + std::fmt::Debug + Eq {
    fn digest(&self) -> u64;
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Command<A> {
    /// Appended by a new leader at the start of its term (§8) so it can commit earlier entries.
    Noop,
    Put {
        key: u32,
        value: u64,
        request: RequestId,
    },
    /// A read that goes through the log (linearizable without a lease).
    Get { key: u32, request: RequestId },
    /// An operation of the application on top (a lock service's lock operation, say): opaque here.
    App(A),
    /// A configuration: from the moment a server holds this entry, `voters` are who vote (section 4.1
    /// of Ongaro's dissertation; see `membership.rs`).
    Config { voters: NodeSet },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Entry<A> {
    pub term: Term,
    pub command: Command<A>,
}

impl<A: Payload> Entry<A> {
    /// A stable 64-bit fingerprint of the entry, used by the checkers' prefix hashes.
    pub fn digest(&self) -> u64 {
        let (tag, key, value) = match self.command {
            Command::Noop => (0, 0, 0),
            Command::Put {
                key,
                value,
                request,
            } => (1, key as u64, value ^ request.rotate_left(32)),
            Command::Get { key, request } => (2, key as u64, request),
            Command::App(payload) => (3, 0, payload.digest()),
            Command::Config { voters } => (4, 0, voters.bits()),
        };
        let mut hash = crate::base::hash::Fnv::new();
        for word in [self.term.0, tag, key, value] {
            hash.write_u64(word);
        }
        hash.finish()
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Log<A> {
    entries: Vec<Entry<A>>,
}

// By hand: a derive would ask `A: Default`.
impl<A> Default for Log<A> {
    fn default() -> Self {
        Log {
            entries: Vec::new(),
        }
    }
}

impl<A> Log<A> {
    pub fn last_index(&self) -> LogIndex {
        LogIndex(self.entries.len() as u64)
    }

    pub fn last_term(&self) -> Term {
        self.entries.last().map_or(Term::ZERO, |entry| entry.term)
    }

    /// Term of the entry at `index`; 0 for index 0; `None` past the end.
    pub fn term_at(&self, index: LogIndex) -> Option<Term> {
        if index == LogIndex::ZERO {
            return Some(Term::ZERO);
        }
        self.entries
            .get(index.0 as usize - 1)
            .map(|entry| entry.term)
    }

    pub fn entry(&self, index: LogIndex) -> Option<&Entry<A>> {
        if index == LogIndex::ZERO {
            return None;
        }
        self.entries.get(index.0 as usize - 1)
    }

    pub fn append(&mut self, entry: Entry<A>) -> LogIndex {
        self.entries.push(entry);
        self.last_index()
    }

    /// Removes every entry at `from_index` and after.
    pub fn truncate_from(&mut self, from_index: LogIndex) {
        assert!(
            from_index >= LogIndex(1),
            "index 0 is the empty prefix and cannot be truncated"
        );
        self.entries.truncate(from_index.0 as usize - 1);
    }

    /// Entries `from_index..` (at most `limit` of them).
    pub fn slice_from(&self, from_index: LogIndex, limit: usize) -> &[Entry<A>] {
        let start = (from_index.0.max(1) as usize - 1).min(self.entries.len());
        let end = start.saturating_add(limit).min(self.entries.len());
        &self.entries[start..end]
    }

    /// First index holding the same term as `index` (for the conflict hint that skips a whole term).
    pub fn first_index_of_term_at(&self, index: LogIndex) -> LogIndex {
        let Some(term) = self.term_at(index) else {
            return index;
        };
        let mut first = index;
        while first > LogIndex(1) && self.term_at(first.previous()) == Some(term) {
            first = first.previous();
        }
        first
    }

    /// §5.4.1: a log is more up-to-date if its last term is higher, or equal with a longer log.
    pub fn is_up_to_date(&self, last_log_index: LogIndex, last_log_term: Term) -> bool {
        (last_log_term, last_log_index) >= (self.last_term(), self.last_index())
    }

    pub fn terms(&self) -> impl Iterator<Item = Term> + '_ {
        self.entries.iter().map(|entry| entry.term)
    }
}
