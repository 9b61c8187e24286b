//! The search for a linearization of one partition: the algorithm of Wing and Gong, with the
//! memoisation Lowe added to it.
//!
//! Every op becomes two entries, its invocation and its completion, kept in one doubly linked list in
//! real-time order. The search walks the list from the front. At an invocation it tries to place that
//! op next: the model must accept the op's answer in the current state. If it does, and the pair (set
//! of ops placed so far, resulting state) has never been reached before, the op is placed: its two
//! entries are lifted out of the list, the step is pushed on a stack and the walk restarts at the
//! front. At a completion the walk has met an op that finished before every op still to its right
//! began, yet it could not be placed: the last placement was wrong, so it is popped, its entries go
//! back in the list and the walk goes on after its invocation. An empty stack at that point means no
//! order exists.
//!
//! Lowe's observation is that two ways of reaching the same set of placed ops and the same model state
//! have the same future, so the second can be skipped: the set of seen configurations turns an
//! exponential walk over orders into one over (subset, state) pairs, which is what makes long histories
//! of a small-state model checkable at all. The sets are bitsets and the set of them uses a fixed
//! hasher, so native and wasm explore in the same order and stop at the same bound.
//!
//! Ops whose outcome is unknown are optional. Their completions sit past every required completion, as
//! if they had returned at the end of time: each may be placed anywhere after its invocation, or not at
//! all. So the search is done once every required op is placed; unknown ops left out did not happen.
//!
//! One ordering choice is added to theirs: after every placement, the ops at the front of the walk
//! that a register model prefers (reads the state explains, then writes nobody still waits for; see
//! [`super::preference`]) are tried before the plain walk goes on. Without it a history where many
//! writes and reads all begin together makes the walk place the writes oldest first and then find
//! out, by undoing them one subset at a time, which one had to come last: exponential in the open
//! writes, even with the memo.
//!
//! When it refuses, the search reports the longest partial order it built before having to undo it,
//! and the op whose completion forced that undo: the op it could not fit after that prefix. The search
//! is a value that can be advanced a slice at a time, so a caller can spread one check over frames.

use super::budget::{Bound, Budget, Spent};
use super::preference::Preference;
use crate::contract::client_history::{Op, OpIndex};
use crate::contract::sequential::SequentialModel;
use rustc_hash::FxHashSet;

/// How a search ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// An order of the ops (unknown ops left out did not happen) that the model accepts.
    Linearizable { order: Vec<OpIndex> },
    /// No order exists: `longest` is the longest partial order found, `stuck` the op that could not
    /// follow it.
    Refused {
        stuck: OpIndex,
        longest: Vec<OpIndex>,
    },
    /// A bound was reached before an answer: neither verdict holds.
    Undecided { bound: Bound },
}

/// Where a search stands after a slice of work.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Progress {
    Running,
    Done(Outcome),
}

/// One end of an op in the list: `op` is the op's place in the search's own list of ops.
#[derive(Clone, Copy, Debug)]
struct Entry {
    op: usize,
    is_call: bool,
}

/// The entries in real-time order, as a doubly linked list over indices. Index 0 is the head sentinel
/// and the last index the tail sentinel; entries sit in between, and the call of op `i` and its
/// completion are found through `call_of` and `return_of`.
struct EntryList {
    entries: Vec<Entry>,
    next: Vec<usize>,
    previous: Vec<usize>,
    return_of: Vec<usize>,
    tail: usize,
}

impl EntryList {
    /// `ops` must hold the required ops first. Entries are ordered by log position; the completions of
    /// optional ops come last, in op order.
    fn new(ops: &[&Op]) -> EntryList {
        let mut keyed: Vec<((u64, usize), Entry)> = Vec::with_capacity(ops.len() * 2);
        for (place, op) in ops.iter().enumerate() {
            let call = Entry {
                op: place,
                is_call: true,
            };
            keyed.push(((op.invoked.position, 0), call));
            let completion = match (op.end.is_required(), op.completed) {
                (true, Some(completed)) => (completed.position, 0),
                _ => (u64::MAX, place),
            };
            let end = Entry {
                op: place,
                is_call: false,
            };
            keyed.push((completion, end));
        }
        keyed.sort_by_key(|(key, _)| *key);
        let tail = keyed.len() + 1;
        let mut entries = vec![Entry {
            op: 0,
            is_call: false,
        }];
        entries.extend(keyed.into_iter().map(|(_, entry)| entry));
        let mut return_of = vec![0; ops.len()];
        for (index, entry) in entries.iter().enumerate().skip(1) {
            if !entry.is_call {
                return_of[entry.op] = index;
            }
        }
        EntryList {
            entries,
            next: (1..=tail).chain([tail]).collect(),
            previous: [0].into_iter().chain(0..tail).collect(),
            return_of,
            tail,
        }
    }

    fn first(&self) -> usize {
        self.next[0]
    }

    fn unlink(&mut self, index: usize) {
        let (before, after) = (self.previous[index], self.next[index]);
        self.next[before] = after;
        self.previous[after] = before;
    }

    fn relink(&mut self, index: usize) {
        let (before, after) = (self.previous[index], self.next[index]);
        self.next[before] = index;
        self.previous[after] = index;
    }

    /// Takes a placed op's call and completion out of the walk.
    fn lift(&mut self, call: usize) {
        let completion = self.return_of[self.entries[call].op];
        self.unlink(call);
        self.unlink(completion);
    }

    /// Puts them back, in the reverse order of `lift`, so the neighbours they remember are current.
    fn unlift(&mut self, call: usize) {
        let completion = self.return_of[self.entries[call].op];
        self.relink(completion);
        self.relink(call);
    }
}

/// A set of placed ops, one bit per op of the partition.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Placed(Box<[u64]>);

impl Placed {
    fn new(ops: usize) -> Placed {
        Placed(vec![0; ops.div_ceil(64)].into_boxed_slice())
    }

    fn set(&mut self, op: usize, on: bool) {
        let bit = 1u64 << (op % 64);
        if on {
            self.0[op / 64] |= bit;
        } else {
            self.0[op / 64] &= !bit;
        }
    }
}

/// A search in progress over the ops of one partition.
pub struct Search<'a, M: SequentialModel> {
    model: &'a M,
    ops: Vec<&'a Op>,
    required: usize,
    list: EntryList,
    budget: Budget,
    spent: Spent,
    state: M::State,
    placed: Placed,
    placed_required: usize,
    /// Each placed op's call entry, the state before it, and whether it was placed out of list order.
    stack: Vec<(usize, M::State, bool)>,
    /// Which ops to try first at the front of the walk.
    preference: Preference,
    /// Whether the front of the walk may hold preferred ops not tried in this configuration.
    preferred_due: bool,
    seen: FxHashSet<(Placed, M::State)>,
    cursor: usize,
    /// The longest prefix undone so far and the op whose completion undid it.
    deepest: Option<(OpIndex, Vec<OpIndex>)>,
    finished: Option<Outcome>,
}

impl<'a, M: SequentialModel> Search<'a, M> {
    /// A search over `ops`, which must all belong to one partition and none of which may have failed
    /// (the caller checks that; see `super::check`).
    pub fn new(model: &'a M, ops: &[&'a Op], budget: Budget) -> Search<'a, M> {
        let mut ordered: Vec<&Op> = ops
            .iter()
            .copied()
            .filter(|op| op.end.is_required())
            .collect();
        let required = ordered.len();
        ordered.extend(ops.iter().copied().filter(|op| !op.end.is_required()));
        let finished = (ops.len() > budget.ops_per_partition).then_some(Outcome::Undecided {
            bound: Bound::OpsPerPartition(budget.ops_per_partition),
        });
        let list = EntryList::new(&ordered);
        Search {
            model,
            preference: Preference::new(model, &ordered),
            preferred_due: true,
            placed: Placed::new(ordered.len()),
            cursor: list.first(),
            ops: ordered,
            required,
            list,
            budget,
            spent: Spent::default(),
            state: model.initial(),
            placed_required: 0,
            stack: Vec::new(),
            seen: FxHashSet::default(),
            deepest: None,
            finished,
        }
    }

    /// Model steps tried so far.
    pub fn explored(&self) -> u64 {
        self.spent.configurations
    }

    /// Runs to the end, within the budget.
    pub fn run(&mut self) -> Outcome {
        loop {
            if let Progress::Done(outcome) = self.advance(u64::MAX) {
                return outcome;
            }
        }
    }

    /// Does at most `walk_steps` moves of the walk (each a model step tried or an undo) and says where
    /// the search stands. Slicing changes nothing about what is explored or found.
    pub fn advance(&mut self, walk_steps: u64) -> Progress {
        for _ in 0..walk_steps {
            if let Some(outcome) = &self.finished {
                return Progress::Done(outcome.clone());
            }
            self.finished = self.move_once();
        }
        match &self.finished {
            Some(outcome) => Progress::Done(outcome.clone()),
            None => Progress::Running,
        }
    }

    /// One move of the walk; `Some` when the search has ended.
    fn move_once(&mut self) -> Option<Outcome> {
        if self.placed_required == self.required || self.cursor == self.list.tail {
            // Every required op is placed (past the last required completion only optional ones sit).
            return Some(Outcome::Linearizable {
                order: self.order(self.stack.len()),
            });
        }
        if self.preferred_due {
            return self.place_a_preferred_op();
        }
        let entry = self.list.entries[self.cursor];
        if entry.is_call {
            self.try_place()
        } else if entry.op >= self.required {
            Some(Outcome::Linearizable {
                order: self.order(self.stack.len()),
            })
        } else {
            self.undo(entry.op)
        }
    }

    /// At a call: place its op next if the model accepts it and the configuration is new.
    fn try_place(&mut self) -> Option<Outcome> {
        if let Some(bound) = self.spent.reached(&self.budget) {
            return Some(Outcome::Undecided { bound });
        }
        if !self.place_if_new(self.cursor, false) {
            self.cursor = self.list.next[self.cursor];
        }
        None
    }

    /// Places one op from the front of the walk (the calls before its first completion) that the
    /// preference picks and that the model accepts in a new configuration: a read first, else a dead
    /// write. When there is none, the plain walk goes on. Undoing such a choice sends the walk back to
    /// the front, where the ops ahead of it are tried as well.
    fn place_a_preferred_op(&mut self) -> Option<Outcome> {
        for reads in [true, false] {
            let mut index = self.list.first();
            while index != self.list.tail && self.list.entries[index].is_call {
                let place = self.list.entries[index].op;
                let preferred = if reads {
                    self.preference.is_read(place)
                } else {
                    self.preference.is_dead_write(place)
                };
                if preferred {
                    if let Some(bound) = self.spent.reached(&self.budget) {
                        return Some(Outcome::Undecided { bound });
                    }
                    if self.place_if_new(index, true) {
                        return None;
                    }
                }
                index = self.list.next[index];
            }
        }
        self.preferred_due = false;
        None
    }

    /// Steps the op whose call is entry `call`; places it when the model accepts it and the
    /// configuration is new, and then the walk starts again at the front. Counts one configuration.
    fn place_if_new(&mut self, call: usize, preferred: bool) -> bool {
        self.spent.configurations += 1;
        let place = self.list.entries[call].op;
        let op = self.ops[place];
        let Some(after) = self.model.step(&self.state, &op.call, op.end.returned()) else {
            return false;
        };
        self.placed.set(place, true);
        if !self.seen.insert((self.placed.clone(), after.clone())) {
            self.placed.set(place, false);
            return false;
        }
        self.spent.cache_bytes += self.configuration_bytes();
        let before = std::mem::replace(&mut self.state, after);
        self.stack.push((call, before, preferred));
        self.list.lift(call);
        self.placed_required += usize::from(place < self.required);
        self.preference.set_placed(place, true);
        self.cursor = self.list.first();
        self.preferred_due = true;
        true
    }

    /// At the completion of required op `place`, which could not be placed in time: undo the last
    /// placement, or refuse when there is none.
    fn undo(&mut self, place: usize) -> Option<Outcome> {
        let depth = self.stack.len();
        if self
            .deepest
            .as_ref()
            .is_none_or(|(_, longest)| depth > longest.len())
        {
            self.deepest = Some((self.ops[place].index, self.order(depth)));
        }
        let Some((call, before, preferred)) = self.stack.pop() else {
            let (stuck, longest) = self.deepest.take().unwrap_or_default();
            return Some(Outcome::Refused { stuck, longest });
        };
        self.list.unlift(call);
        let undone = self.list.entries[call].op;
        self.placed.set(undone, false);
        self.placed_required -= usize::from(undone < self.required);
        self.preference.set_placed(undone, false);
        self.state = before;
        // A preferred op was chosen out of list order: the ops ahead of it are still untried.
        self.cursor = if preferred {
            self.list.first()
        } else {
            self.list.next[call]
        };
        self.preferred_due = false;
        None
    }

    /// The first `depth` placed ops, as op indices.
    fn order(&self, depth: usize) -> Vec<OpIndex> {
        self.stack[..depth]
            .iter()
            .map(|(call, _, _)| self.ops[self.list.entries[*call].op].index)
            .collect()
    }

    /// An estimate of the memory one seen configuration holds: its bitset, its state and the set's own
    /// bookkeeping. A state that owns heap memory counts only its inline size.
    fn configuration_bytes(&self) -> u64 {
        let bitset = std::mem::size_of_val(&*self.placed.0);
        let entry = std::mem::size_of::<(Placed, M::State)>() + 8;
        (bitset + entry) as u64
    }
}
