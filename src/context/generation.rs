//! One generation number for the app's state, in place of a revision counter per concern.
//!
//! Each change that some view redraws for (the run's recorded history, what the lesson panel shows, the
//! course arriving, stored progress, a recycle epoch) moves the one number on, and its part takes that
//! number as the generation it last changed at. A reader follows its part's generation
//! ([`Generation::of`]), so a view redraws exactly when its part changes, never for another part's
//! news, and every change is told the same way (`bump`) instead of by a counter per concern.

use leptos::prelude::*;

/// The parts of the state that views follow by generation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    /// The recorded actions or the scheduled steps (marks on the timeline, share links, arrows).
    History,
    /// What the lesson panel shows of the open lesson's tracker (a tick, a new step, "show me").
    Lesson,
    /// The course arrived, or failed to.
    Course,
    /// A lesson's progress was written to storage.
    Progress,
    /// A recycle epoch began (see `components::recycle`).
    Recycle,
}

const PARTS: usize = 5;

impl Part {
    #[cfg(test)]
    const ALL: [Part; PARTS] = [
        Part::History,
        Part::Lesson,
        Part::Course,
        Part::Progress,
        Part::Recycle,
    ];

    fn index(self) -> usize {
        self as usize
    }
}

#[derive(Clone, Copy)]
pub struct Generation {
    /// The one number: every change of any part moves it on.
    count: StoredValue<u64>,
    /// The generation at which each part last changed, as readers follow it.
    parts: [RwSignal<u64>; PARTS],
}

impl Generation {
    pub fn new() -> Generation {
        Generation {
            count: StoredValue::new(0),
            parts: [(); PARTS].map(|()| RwSignal::new(0)),
        }
    }

    /// Notes that `part` changed: the number moves on, and readers of `part` redraw.
    pub fn bump(&self, part: Part) {
        let Some(next) = self.count.try_update_value(|count| {
            *count += 1;
            *count
        }) else {
            return;
        };
        self.parts[part.index()].set(next);
    }

    /// The generation at which `part` last changed, to read or track.
    pub fn of(&self, part: Part) -> ReadSignal<u64> {
        self.parts[part.index()].read_only()
    }
}

impl Default for Generation {
    fn default() -> Self {
        Generation::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each part's generation after `bumps`, in `Part::ALL` order.
    fn generations_after(bumps: &[Part]) -> Vec<u64> {
        let generation = Generation::new();
        for bump in bumps {
            generation.bump(*bump);
        }
        Part::ALL
            .iter()
            .map(|part| generation.of(*part).get_untracked())
            .collect()
    }

    #[test]
    fn a_part_moves_only_when_it_changes() {
        assert_eq!(generations_after(&[]), vec![0, 0, 0, 0, 0]);
        assert_eq!(
            generations_after(&[Part::History, Part::Lesson, Part::History]),
            vec![3, 2, 0, 0, 0]
        );
        assert_eq!(
            generations_after(&[Part::Course, Part::Progress, Part::Recycle]),
            vec![0, 0, 1, 2, 3]
        );
    }

    #[test]
    fn every_change_is_a_new_generation_of_its_part() {
        let generation = Generation::new();
        let mut seen = Vec::new();
        for _ in 0..3 {
            generation.bump(Part::History);
            seen.push(generation.of(Part::History).get_untracked());
        }
        assert_eq!(seen, vec![1, 2, 3]);
        assert_eq!(generation.of(Part::Lesson).get_untracked(), 0);
    }
}
