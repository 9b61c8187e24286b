//! What a run's state knows of its comparison: on the left side its partner (the right side) and the
//! line saying how they differ; on the right side, the left side it follows.
//!
//! The hook is written over any [`Side`] (the app's state is the one there is), so that it never names
//! the state that holds it: the state is the composition root above it, not a neighbour it imports.

use crate::session::Session;
use leptos::prelude::*;
use quorumlab_sim::compare::variation::Variation;
use quorumlab_sim::difference::moments::MomentLog;
use quorumlab_sim::difference::summary::{differ, Difference};
use quorumlab_sim::scenario::Scenario;
use std::cell::Cell;
use std::time::Duration;

/// Each side's settings of the options that differ, in words, left first.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SideLabels {
    pub left: String,
    pub right: String,
}

thread_local! {
    /// Right sides made and not yet freed (shown to browser tests, which open and close compare mode
    /// many times and check that this stays put).
    static RIGHT_SIDES_ALIVE: Cell<usize> = const { Cell::new(0) };
}

/// How many right sides exist now (see `RIGHT_SIDES_ALIVE`).
pub fn right_sides_alive() -> usize {
    RIGHT_SIDES_ALIVE.with(Cell::get)
}

/// One side of a comparison, as its hook needs it: made for a scenario, holding a hook of its own,
/// and read for its run.
pub trait Side: Copy + 'static {
    /// A fresh side running `scenario`.
    fn for_scenario(scenario: Scenario) -> Self;
    /// This side's own hook.
    fn hook(&self) -> CompareHook<Self>;
    /// Reads this side's session without reacting to it.
    fn with_session<T>(&self, read: impl FnOnce(&Session) -> T) -> T;
}

#[derive(Clone, Copy)]
pub struct CompareHook<S: 'static> {
    /// On the left side: the right side, while comparing.
    pub partner: RwSignal<Option<S>, LocalStorage>,
    /// On the right side: the left side, which owns the clock.
    leader: StoredValue<Option<S>, LocalStorage>,
    /// The options flipped on the right (empty for a pair opened from a link or a trace).
    pub variations: RwSignal<Vec<Variation>>,
    pub labels: RwSignal<SideLabels>,
    pub difference: RwSignal<Option<Difference>>,
    moments: StoredValue<(MomentLog, MomentLog)>,
    /// The owner this state was made under (the app's): a right side is made under it too, so its
    /// signals outlive whatever button opened the comparison (a lesson's text is redrawn on restart).
    owner: StoredValue<Option<Owner>, LocalStorage>,
    /// The owner the right side's signals were made under; cleaning it up frees them.
    side_owner: StoredValue<Option<Owner>, LocalStorage>,
    /// Bumped each time a right side has been freed.
    pub released: RwSignal<u64>,
    /// While both runs still agree: when they will part and what to watch for, if the options say.
    pub watch_for: RwSignal<Option<String>>,
}

impl<S: Side> CompareHook<S> {
    pub fn new() -> CompareHook<S> {
        CompareHook {
            partner: RwSignal::new_local(None),
            leader: StoredValue::new_local(None),
            variations: RwSignal::new(Vec::new()),
            labels: RwSignal::new(SideLabels::default()),
            difference: RwSignal::new(None),
            moments: StoredValue::new((MomentLog::new(), MomentLog::new())),
            owner: StoredValue::new_local(Owner::current()),
            side_owner: StoredValue::new_local(None),
            released: RwSignal::new(0),
            watch_for: RwSignal::new(None),
        }
    }

    /// Runs `make` under the owner this state was made under (see `owner`).
    pub fn under_app_owner<T>(&self, make: impl FnOnce() -> T) -> T {
        match self.owner.get_value() {
            Some(owner) => owner.with(make),
            None => make(),
        }
    }

    /// Makes a right side for `scenario` under an owner of its own (a child of the app's), so ending
    /// the comparison can free every signal it made.
    pub fn make_right_side(&self, scenario: Scenario) -> S {
        self.release_right_side();
        let owner = self.under_app_owner(Owner::new);
        let right = owner.with(|| {
            RIGHT_SIDES_ALIVE.with(|alive| alive.set(alive.get() + 1));
            on_cleanup(|| RIGHT_SIDES_ALIVE.with(|alive| alive.set(alive.get().saturating_sub(1))));
            S::for_scenario(scenario)
        });
        self.side_owner.set_value(Some(owner));
        right
    }

    /// Frees the right side's signals once the views reading them are gone: the drawing drops them
    /// when `partner` changes, which Leptos does on its next tick, so the cleanup waits a task.
    fn release_right_side(&self) {
        let Some(owner) = self.side_owner.try_update_value(Option::take).flatten() else {
            return;
        };
        let released = self.released;
        set_timeout(
            move || {
                owner.cleanup();
                drop(owner);
                released.try_update(|count| *count += 1);
            },
            Duration::ZERO,
        );
    }

    /// The left side, when this state is a comparison's right side.
    pub fn leader(&self) -> Option<S> {
        self.leader.try_get_value().flatten()
    }

    pub fn partner(&self) -> Option<S> {
        self.partner.try_get_untracked().flatten()
    }

    pub fn is_comparing(&self) -> bool {
        self.partner.with(Option::is_some)
    }

    /// Pairs `left` with `right`, which from now on follows it.
    pub fn attach(
        left: S,
        right: S,
        labels: SideLabels,
        variations: Vec<Variation>,
        watch_for: Option<String>,
    ) {
        right.hook().leader.set_value(Some(left));
        let hook = left.hook();
        hook.moments.set_value((MomentLog::new(), MomentLog::new()));
        hook.labels.set(labels);
        hook.variations.set(variations);
        hook.watch_for.set(watch_for);
        hook.partner.set(Some(right));
        hook.refresh_difference(left, right);
    }

    /// Back to one run (the right side is dropped).
    pub fn end(&self) {
        if self.partner().is_some() {
            self.partner.set(None);
            self.difference.set(None);
            self.variations.set(Vec::new());
            self.watch_for.set(None);
        }
        self.release_right_side();
    }

    /// Reads what both traces gained and says again how the runs differ.
    pub fn refresh_difference(&self, left: S, right: S) {
        let difference = left.with_session(|left_session| {
            right.with_session(|right_session| {
                self.moments.try_update_value(|(left_log, right_log)| {
                    left_log.catch_up(left_session.world());
                    right_log.catch_up(right_session.world());
                    differ(left_log, right_log)
                })
            })
        });
        if let Some(difference) = difference {
            if self
                .difference
                .with_untracked(|shown| shown.as_ref() != Some(&difference))
            {
                self.difference.set(Some(difference));
            }
        }
    }
}

impl<S: Side> Default for CompareHook<S> {
    fn default() -> Self {
        CompareHook::new()
    }
}
