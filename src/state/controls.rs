//! What a component may do to the run, as one small handle: apply an action, play or pause, step,
//! seek, change speed, start afresh, open a replayed session, bring back a replaced future.
//!
//! Components read the run through the narrow parts of `crate::context` and act on it only through
//! [`Controls`], never through the composition root's fields: the root ([`AppState`]) stays the one
//! place that knows how an action travels (`state::action_path`) and who else hears of it (the lesson,
//! compare mode). Each method hands straight to the root and is inlined, so the handle costs nothing
//! in the wasm over calling the root itself.
//!
//! Two things still pass the root whole, and say so: compare mode's hook, whose sides are roots (a
//! right side provides its own parts and controls), and the entry points of the lesson's driver
//! (`crate::lesson::live`), which take the root they drive ([`Controls::root`]).

use super::AppState;
use crate::compare::hook::CompareHook;
use crate::session::Session;
use leptos::prelude::*;
use quorumlab_sim::action::{Action, NodeTarget};
use quorumlab_sim::scenario::{Scenario, Step};

/// The run's controls, for the components under one run (the page's, or a comparison side's).
#[derive(Clone, Copy)]
pub struct Controls {
    root: AppState,
}

/// The controls of the run the components above this one show. The context holds the root itself
/// (one type looked up, as before the parts; see `crate::context` on what each type costs, and why
/// this is not inlined), and a component sees it only through this handle.
#[inline(never)]
pub fn use_controls() -> Controls {
    Controls {
        root: expect_context::<AppState>(),
    }
}

impl Controls {
    #[inline(always)]
    pub fn apply(self, action: Action) {
        self.root.apply(action);
    }

    #[inline(always)]
    pub fn apply_to_leader(self, make: impl FnOnce(NodeTarget) -> Action) {
        self.root.apply_to_leader(make);
    }

    #[inline(always)]
    pub fn toggle_playing(self) {
        self.root.toggle_playing();
    }

    #[inline(always)]
    pub fn step_once(self) {
        self.root.step_once();
    }

    #[inline(always)]
    pub fn step_back(self) {
        self.root.step_back();
    }

    #[inline(always)]
    pub fn seek_us(self, time_us: u64) {
        self.root.seek_us(time_us);
    }

    #[inline(always)]
    pub fn set_speed(self, speed: f64) {
        self.root.set_speed(speed);
    }

    #[inline(always)]
    pub fn restart(self, scenario: Scenario) {
        self.root.restart(scenario);
    }

    #[inline(always)]
    pub fn open_session(self, session: Session, playing: bool) {
        self.root.open_session(session, playing);
    }

    #[inline(always)]
    pub fn restore_replaced_future(self) {
        self.root.restore_replaced_future();
    }

    /// Gives the run `steps` as its schedule from now on (see `AppState::set_future_steps`).
    #[inline(always)]
    pub fn set_future_steps(self, steps: Vec<Step>) -> Result<(), String> {
        self.root.set_future_steps(steps)
    }

    /// Compare mode's hook for this run: its partner and the words on how the two differ.
    #[inline(always)]
    pub fn compare(self) -> CompareHook<AppState> {
        self.root.compare
    }

    /// The composition root, for the driver entry points that take it whole (an open lesson's
    /// `crate::lesson::live`, compare mode's `crate::compare::open`); not for reading signals.
    #[inline(always)]
    pub fn root(self) -> AppState {
        self.root
    }
}
