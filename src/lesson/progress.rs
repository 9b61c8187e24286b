//! What the browser remembers about a lesson: how many steps the learner has completed and which
//! mastery-checklist items they ticked. One short text per lesson (`quorumlab.lesson.<id>` in
//! localStorage), such as `steps=2;mastery=0,3`.
//!
//! Storage belongs to the learner and may be anything: missing, from an older version, edited by hand.
//! Reading therefore never fails: it keeps what it understands and ignores the rest, and the counts
//! are clamped to the lesson's own sizes by the caller ([`Progress::clamped`]).

use std::collections::BTreeSet;

/// The localStorage key of lesson `id`.
pub fn storage_key(id: &str) -> String {
    format!("quorumlab.lesson.{id}")
}

/// Progress in one lesson.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Progress {
    /// Steps completed, counted from the first (a step once done stays done).
    pub steps_done: usize,
    /// Indices (0-based, in the order of the lesson's checklist) of the ticked mastery items.
    pub mastery: BTreeSet<usize>,
}

/// Most entries read from one stored text: more than any lesson has, so a corrupt value stays cheap.
const MAX_MASTERY_ITEMS: usize = 64;

impl Progress {
    /// Reads a stored text; anything it does not understand is left out.
    pub fn from_storage(text: &str) -> Progress {
        let mut progress = Progress::default();
        for field in text.split(';') {
            match field.trim().split_once('=') {
                Some(("steps", value)) => {
                    progress.steps_done = value.trim().parse().unwrap_or(0);
                }
                Some(("mastery", value)) => {
                    progress.mastery = value
                        .split(',')
                        .filter_map(|item| item.trim().parse().ok())
                        .filter(|item| *item < MAX_MASTERY_ITEMS)
                        .collect();
                }
                _ => {}
            }
        }
        progress
    }

    pub fn to_storage(&self) -> String {
        let mastery: Vec<String> = self.mastery.iter().map(usize::to_string).collect();
        format!("steps={};mastery={}", self.steps_done, mastery.join(","))
    }

    /// This progress limited to a lesson with `steps` steps and `items` checklist items.
    pub fn clamped(mut self, steps: usize, items: usize) -> Progress {
        self.steps_done = self.steps_done.min(steps);
        self.mastery.retain(|item| *item < items);
        self
    }

    /// Records that the first `steps` steps are done (never lowering what was stored).
    pub fn record_steps(&mut self, steps: usize) {
        self.steps_done = self.steps_done.max(steps);
    }

    pub fn toggle_mastery(&mut self, item: usize) {
        if !self.mastery.remove(&item) {
            self.mastery.insert(item);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn progress_round_trips_through_its_text() {
        let mut progress = Progress::default();
        progress.record_steps(2);
        progress.toggle_mastery(3);
        progress.toggle_mastery(0);
        assert_eq!(progress.to_storage(), "steps=2;mastery=0,3");
        assert_eq!(Progress::from_storage(&progress.to_storage()), progress);
        progress.toggle_mastery(3);
        assert_eq!(progress.to_storage(), "steps=2;mastery=0");
    }

    #[test]
    fn corrupt_or_missing_storage_reads_as_what_it_can() {
        assert_eq!(Progress::from_storage(""), Progress::default());
        assert_eq!(
            Progress::from_storage("{\"json\": true}"),
            Progress::default()
        );
        let partly = Progress::from_storage("steps=x;mastery=1,,zz,2,999999;other=5");
        assert_eq!(partly.steps_done, 0);
        assert_eq!(partly.mastery.into_iter().collect::<Vec<_>>(), vec![1, 2]);
    }

    #[test]
    fn clamping_fits_the_lesson_and_steps_never_go_down() {
        let mut progress = Progress::from_storage("steps=9;mastery=0,4,7");
        progress.record_steps(3);
        assert_eq!(progress.steps_done, 9);
        let clamped = progress.clamped(2, 5);
        assert_eq!(clamped.steps_done, 2);
        assert_eq!(clamped.mastery.into_iter().collect::<Vec<_>>(), vec![0, 4]);
        assert_eq!(
            storage_key("fencing-tokens"),
            "quorumlab.lesson.fencing-tokens"
        );
    }
}
