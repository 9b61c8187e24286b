//! The learner's predictions in the open lesson: which option of each step's question was locked in,
//! and whether its answer was asked for early.
//!
//! They live beside the lesson's other state rather than in the question's view, because the view is
//! rebuilt whenever the lesson panel is: opening a step's own world replaces the run and reopens the
//! lesson at that step, and a pick made just before (the natural moment: "predict, then open the world
//! and watch") must still be there when the step ticks, so its right-or-wrong verdict can be shown.
//! A lesson opened afresh (from the list, an address or a link) starts with no picks.

use std::collections::BTreeMap;

/// One locked-in pick.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pick {
    /// Index of the option chosen.
    pub option: usize,
    /// The learner pressed "Reveal now" before the step happened.
    pub revealed_early: bool,
}

/// Every pick of the open lesson, by step and question (both 0-based).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Predictions {
    picks: BTreeMap<(usize, usize), Pick>,
}

impl Predictions {
    pub fn pick(&self, step: usize, question: usize) -> Option<Pick> {
        self.picks.get(&(step, question)).copied()
    }

    /// Locks in `option`; a question already answered keeps its first answer.
    pub fn lock_in(&mut self, step: usize, question: usize, option: usize) {
        self.picks.entry((step, question)).or_insert(Pick {
            option,
            revealed_early: false,
        });
    }

    /// Shows the answer of a locked-in pick before its step happened; nothing without a pick.
    pub fn reveal_early(&mut self, step: usize, question: usize) {
        if let Some(pick) = self.picks.get_mut(&(step, question)) {
            pick.revealed_early = true;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_pick_stays_locked_in() {
        let mut predictions = Predictions::default();
        assert_eq!(predictions.pick(3, 0), None);
        predictions.lock_in(3, 0, 1);
        predictions.lock_in(3, 0, 2);
        assert_eq!(predictions.pick(3, 0).map(|pick| pick.option), Some(1));
        assert_eq!(predictions.pick(3, 1), None, "another question is its own");
    }

    #[test]
    fn only_a_locked_in_pick_can_be_revealed_early() {
        let mut predictions = Predictions::default();
        predictions.reveal_early(0, 0);
        assert_eq!(predictions.pick(0, 0), None);
        predictions.lock_in(0, 0, 2);
        predictions.reveal_early(0, 0);
        assert_eq!(
            predictions.pick(0, 0),
            Some(Pick {
                option: 2,
                revealed_early: true
            })
        );
    }
}
