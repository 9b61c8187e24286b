//! Time travel: snapshots plus the recorded actions, so the UI can seek to any past instant and branch
//! a new future from there.
//!
//! A [`Timeline`] keeps the current world, a bounded list of snapshots (world clones, taken every
//! `snapshot_every_ms` of simulated time) and every action applied through it, each with the exact point
//! it was applied (time and number of events processed before it). `seek(t)` restores the newest snapshot
//! at or before `t` and replays events and recorded actions up to `t`; because the world is deterministic
//! the result is identical to having run straight to `t`. Applying an action while looking at the past
//! (or calling `branch_at`) discards the recorded future: the next actions make a new one.
//!
//! Bound: at most `max_snapshots`; past that every other snapshot is dropped and the interval doubles,
//! so memory stays bounded while seeks stay roughly proportional to the interval. A snapshot keeps no
//! trace records at all: each used to hold some (first the whole trace cap, then its newest 4,000), and
//! once the interval had doubled a few times no two snapshots shared a chunk, so an hour's snapshots
//! held well over a million records between them. Instead a backward seek starts from a snapshot early
//! enough that its replay records at least [`SEEK_LOOKBACK_RECORDS`] before the instant sought, which is
//! what the views want to look back on. A world restored that way lists fewer old records than one that
//! ran straight there, while its state, event count and trace hash are identical.

use crate::base::time::SimTime;
use crate::contract::action::Action;
use crate::engine::world::{ActionOutcome, World};

/// Trace records a backward seek replays, at least, before the instant it seeks to (when the run has
/// that many): the history the views may want to look back on right after a seek.
pub const SEEK_LOOKBACK_RECORDS: usize = 4_000;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordedAction {
    pub at: SimTime,
    /// `events_processed` of the world just before the action was applied.
    pub after_events: u64,
    pub action: Action,
}

#[derive(Clone, Debug)]
struct Snapshot {
    world: World,
    /// How many recorded actions this snapshot already contains.
    actions_applied: usize,
}

#[derive(Clone, Debug)]
pub struct Timeline {
    current: World,
    actions_applied: usize,
    actions: Vec<RecordedAction>,
    snapshots: Vec<Snapshot>,
    snapshot_every_ms: u64,
    max_snapshots: usize,
    /// The furthest time this timeline's current future has been run to (kept across backward seeks, so
    /// the UI can scrub back to where playback stopped).
    furthest: SimTime,
}

impl Timeline {
    pub fn new(world: World, snapshot_every_ms: u64, max_snapshots: usize) -> Timeline {
        assert!(
            snapshot_every_ms > 0 && max_snapshots >= 2,
            "timeline needs an interval and room for two snapshots"
        );
        let first = Snapshot {
            world: world.clone(),
            actions_applied: 0,
        };
        Timeline {
            current: world,
            actions_applied: 0,
            actions: Vec::new(),
            snapshots: vec![first],
            snapshot_every_ms,
            max_snapshots,
            furthest: SimTime::ZERO,
        }
    }

    /// A timeline at the start of `world` whose recorded future is `actions` (a run opened from a share
    /// link): `run_until` and `seek` replay each action at exactly the point it was first applied.
    ///
    /// Precondition: `actions` are in recorded order, nondecreasing in both `at` and `after_events`, and
    /// were recorded on a world equal to `world` (callers holding untrusted logs validate them first).
    pub fn replaying(
        world: World,
        snapshot_every_ms: u64,
        max_snapshots: usize,
        actions: Vec<RecordedAction>,
    ) -> Timeline {
        assert!(
            actions.windows(2).all(
                |pair| pair[0].at <= pair[1].at && pair[0].after_events <= pair[1].after_events
            ),
            "recorded actions must be in the order they were applied"
        );
        let mut timeline = Timeline::new(world, snapshot_every_ms, max_snapshots);
        timeline.actions = actions;
        timeline
    }

    /// A timeline already replayed to `current` — `start` run with `actions` (every one recorded up
    /// to `current.now()` applied) — without replaying it again: a link checked by one replay opens
    /// on that replay. It holds two snapshots, `start` and `current`; seeking back between them
    /// replays from `start` once and fills the snapshots in on the way.
    ///
    /// Precondition: as for [`Timeline::replaying`], and `current` is that replay.
    pub fn resumed(
        start: World,
        current: World,
        snapshot_every_ms: u64,
        max_snapshots: usize,
        actions: Vec<RecordedAction>,
    ) -> Timeline {
        let applied = actions.partition_point(|recorded| recorded.at <= current.now());
        let mut timeline = Timeline::replaying(start, snapshot_every_ms, max_snapshots, actions);
        timeline.actions_applied = applied;
        timeline.furthest = current.now();
        let mut snapshot = current.clone();
        snapshot.forget_trace_records();
        timeline.snapshots.push(Snapshot {
            world: snapshot,
            actions_applied: applied,
        });
        timeline.current = current;
        timeline
    }

    pub fn world(&self) -> &World {
        &self.current
    }

    pub fn now(&self) -> SimTime {
        self.current.now()
    }

    /// Every recorded action, including a recorded future beyond `now()` after a backwards seek.
    pub fn actions(&self) -> &[RecordedAction] {
        &self.actions
    }

    /// The latest time reached on this timeline's current future (run to, snapshotted or acted at).
    pub fn horizon(&self) -> SimTime {
        let snapshot = self
            .snapshots
            .last()
            .map_or(SimTime::ZERO, |snapshot| snapshot.world.now());
        let action = self
            .actions
            .last()
            .map_or(SimTime::ZERO, |action| action.at);
        snapshot
            .max(action)
            .max(self.furthest)
            .max(self.current.now())
    }

    pub fn snapshot_count(&self) -> usize {
        self.snapshots.len()
    }

    /// Trace records kept by all snapshots together (chunks shared between them counted each time).
    pub fn snapshot_trace_records(&self) -> usize {
        self.snapshots
            .iter()
            .map(|snapshot| snapshot.world.trace().records().count())
            .sum()
    }

    /// Applies an action now. Whatever was recorded beyond this point (actions, snapshots, the furthest
    /// time reached) belongs to the old future and is discarded first.
    pub fn apply(&mut self, action: &Action) -> ActionOutcome {
        self.discard_future();
        let recorded = RecordedAction {
            at: self.current.now(),
            after_events: self.current.events_processed(),
            action: action.clone(),
        };
        self.actions.push(recorded);
        self.actions_applied += 1;
        self.current.apply(action)
    }

    /// Processes the next single event, first replaying any recorded action that was applied at exactly
    /// this point (same number of events processed).
    pub fn step(&mut self) -> bool {
        while let Some(next) = self.actions.get(self.actions_applied) {
            if next.after_events != self.current.events_processed() {
                break;
            }
            let (at, action) = (next.at, next.action.clone());
            self.current.fast_forward_to(next.after_events, at);
            self.current.apply(&action);
            self.actions_applied += 1;
        }
        let stepped = self.current.step();
        self.furthest = self.furthest.max(self.current.now());
        stepped
    }

    /// Runs forward to `until`, replaying recorded actions on the way and taking snapshots.
    pub fn run_until(&mut self, until: SimTime) {
        while let Some(next) = self
            .actions
            .get(self.actions_applied)
            .filter(|next| next.at <= until)
            .cloned()
        {
            self.run_events_until(next.at, Some(next.after_events));
            self.current.apply(&next.action);
            self.actions_applied += 1;
        }
        self.run_events_until(until, None);
        self.furthest = self.furthest.max(self.current.now());
    }

    /// Moves to time `t` (backwards or forwards), exactly as if the run had gone straight there.
    pub fn seek(&mut self, t: SimTime) {
        if t < self.current.now() {
            let snapshot = &self.snapshots[self.seek_start(t)];
            self.current = snapshot.world.clone();
            self.actions_applied = snapshot.actions_applied;
        }
        self.run_until(t);
    }

    /// The snapshot a backward seek to `t` restores: the newest one at or before `t` whose replay to the
    /// newest such snapshot records at least [`SEEK_LOOKBACK_RECORDS`] (or the first one).
    fn seek_start(&self, t: SimTime) -> usize {
        let newest = self
            .snapshots
            .iter()
            .rposition(|snapshot| snapshot.world.now() <= t)
            .unwrap_or(0);
        let wanted_total = self.snapshots[newest]
            .world
            .trace()
            .total()
            .saturating_sub(SEEK_LOOKBACK_RECORDS as u64);
        self.snapshots[..=newest]
            .iter()
            .rposition(|snapshot| snapshot.world.trace().total() <= wanted_total)
            .unwrap_or(0)
    }

    /// Seeks to `t` and forgets everything recorded after it.
    pub fn branch_at(&mut self, t: SimTime) {
        self.seek(t);
        self.discard_future();
    }

    fn discard_future(&mut self) {
        self.actions.truncate(self.actions_applied);
        let now = self.current.now();
        self.furthest = now;
        let kept = self.actions_applied;
        self.snapshots
            .retain(|snapshot| snapshot.world.now() <= now && snapshot.actions_applied <= kept);
        if self.snapshots.is_empty() {
            self.snapshots.push(Snapshot {
                world: self.current.clone(),
                actions_applied: kept,
            });
        }
    }

    /// Processes events up to `until` (or, with a position, exactly up to that event count), snapshotting
    /// at every interval boundary crossed.
    fn run_events_until(&mut self, until: SimTime, position: Option<u64>) {
        loop {
            // Read afresh each time: a snapshot past the bound doubles the interval. (Reading it once
            // kept the old interval for a long run, so every further snapshot doubled it again, until
            // it overflowed: opening a share link a few minutes into a run panicked.)
            let every_us = self.snapshot_every_ms * 1_000;
            let next_boundary = SimTime((self.current.now().as_micros() / every_us + 1) * every_us);
            // Events at the action's own instant may have come after it the first time: stop short of it.
            let past_end = match position {
                Some(_) => next_boundary >= until,
                None => next_boundary > until,
            };
            if past_end {
                break;
            }
            self.current.run_until(next_boundary);
            self.take_snapshot();
        }
        match position {
            Some(events) => self.current.fast_forward_to(events, until),
            None => self.current.run_until(until),
        }
    }

    /// Invariant: snapshots are in order of (time, actions applied). A snapshot earlier than the
    /// newest is filled in where it belongs (a resumed timeline fills in its past that way).
    fn take_snapshot(&mut self) {
        let now = self.current.now();
        let key = (now, self.actions_applied);
        let at = self
            .snapshots
            .partition_point(|snapshot| (snapshot.world.now(), snapshot.actions_applied) < key);
        let already = self
            .snapshots
            .get(at)
            .is_some_and(|snapshot| (snapshot.world.now(), snapshot.actions_applied) == key);
        if already {
            return;
        }
        let mut world = self.current.clone();
        world.forget_trace_records();
        self.snapshots.insert(
            at,
            Snapshot {
                world,
                actions_applied: self.actions_applied,
            },
        );
        if self.snapshots.len() > self.max_snapshots {
            let mut index = 0;
            self.snapshots.retain(|_| {
                index += 1;
                index % 2 == 1
            });
            self.snapshot_every_ms *= 2;
        }
    }
}
