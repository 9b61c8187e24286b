//! What an [`AppState`] knows of its comparison: on the left side its partner (the right side) and the
//! line saying how they differ; on the right side, the left side it follows.

use crate::state::AppState;
use leptos::prelude::*;
use quorumlab_sim::compare::variation::Variation;
use quorumlab_sim::difference::moments::MomentLog;
use quorumlab_sim::difference::summary::{differ, Difference};

/// Each side's settings of the options that differ, in words, left first.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SideLabels {
    pub left: String,
    pub right: String,
}

#[derive(Clone, Copy)]
pub struct CompareHook {
    /// On the left side: the right side, while comparing.
    pub partner: RwSignal<Option<AppState>, LocalStorage>,
    /// On the right side: the left side, which owns the clock.
    leader: StoredValue<Option<AppState>, LocalStorage>,
    /// The options flipped on the right (empty for a pair opened from a link or a trace).
    pub variations: RwSignal<Vec<Variation>>,
    pub labels: RwSignal<SideLabels>,
    pub difference: RwSignal<Option<Difference>>,
    moments: StoredValue<(MomentLog, MomentLog)>,
    /// The owner this state was made under (the app's): a right side is made under it too, so its
    /// signals outlive whatever button opened the comparison (a lesson's text is redrawn on restart).
    owner: StoredValue<Option<Owner>, LocalStorage>,
}

impl CompareHook {
    pub fn new() -> CompareHook {
        CompareHook {
            partner: RwSignal::new_local(None),
            leader: StoredValue::new_local(None),
            variations: RwSignal::new(Vec::new()),
            labels: RwSignal::new(SideLabels::default()),
            difference: RwSignal::new(None),
            moments: StoredValue::new((MomentLog::new(), MomentLog::new())),
            owner: StoredValue::new_local(Owner::current()),
        }
    }

    /// Runs `make` under the owner this state was made under (see `owner`).
    pub fn under_app_owner<T>(&self, make: impl FnOnce() -> T) -> T {
        match self.owner.get_value() {
            Some(owner) => owner.with(make),
            None => make(),
        }
    }

    /// The left side, when this state is a comparison's right side.
    pub fn leader(&self) -> Option<AppState> {
        self.leader.try_get_value().flatten()
    }

    pub fn partner(&self) -> Option<AppState> {
        self.partner.try_get_untracked().flatten()
    }

    pub fn is_comparing(&self) -> bool {
        self.partner.with(Option::is_some)
    }

    /// Pairs `left` with `right`, which from now on follows it.
    pub fn attach(left: AppState, right: AppState, labels: SideLabels, variations: Vec<Variation>) {
        right.compare.leader.set_value(Some(left));
        left.compare
            .moments
            .set_value((MomentLog::new(), MomentLog::new()));
        left.compare.labels.set(labels);
        left.compare.variations.set(variations);
        left.compare.partner.set(Some(right));
        left.compare.refresh_difference(left, right);
    }

    /// Back to one run (the right side is dropped).
    pub fn end(&self) {
        if self.partner().is_some() {
            self.partner.set(None);
            self.difference.set(None);
            self.variations.set(Vec::new());
        }
    }

    /// Reads what both traces gained and says again how the runs differ.
    pub fn refresh_difference(&self, left: AppState, right: AppState) {
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

impl Default for CompareHook {
    fn default() -> Self {
        CompareHook::new()
    }
}
