//! One generation number for the app's state, in place of a revision counter per concern.
//!
//! Each change that some view redraws for (the run's recorded history, what the lesson panel shows, the
//! course arriving, stored progress, a recycle epoch) moves the one number on, and its part takes that
//! number as the generation it last changed at. A reader follows its part's generation
//! ([`Generation::of`]), so a view redraws exactly when its part changes, never for another part's
//! news, and every change is told the same way (`bump`) instead of by a counter per concern.

use leptos::prelude::*;
use std::cell::Cell;

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

thread_local! {
    /// The one number, for the whole page (both sides of a comparison draw from it): every change of
    /// any part takes the next one.
    static GENERATION: Cell<u64> = const { Cell::new(0) };
}

#[derive(Clone, Copy)]
pub struct Generation {
    /// The generation at which each part last changed, as readers follow it.
    parts: [RwSignal<u64>; PARTS],
}

impl Generation {
    pub fn new() -> Generation {
        Generation {
            parts: [(); PARTS].map(|()| RwSignal::new(0)),
        }
    }

    /// Notes that `part` changed: the number moves on, and readers of `part` redraw.
    pub fn bump(&self, part: Part) {
        let next = GENERATION.with(|generation| {
            generation.set(generation.get() + 1);
            generation.get()
        });
        self.parts[part.index()].try_set(next);
    }

    /// The generation at which `part` last changed, to read or track (only [`Generation::bump`]
    /// changes it; a plain signal, as the counters it replaced were, so the wasm gains no new kind).
    pub fn of(&self, part: Part) -> RwSignal<u64> {
        self.parts[part.index()]
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
        let seen = generations_after(&[Part::History, Part::Lesson, Part::History]);
        // History changed last, after the lesson; nothing else changed.
        assert!(seen[0] > seen[1] && seen[1] > 0, "{seen:?}");
        assert_eq!(seen[2..], [0, 0, 0]);
        let seen = generations_after(&[Part::Course, Part::Progress, Part::Recycle]);
        assert_eq!(seen[..2], [0, 0]);
        assert!(
            seen[2] > 0 && seen[3] > seen[2] && seen[4] > seen[3],
            "{seen:?}"
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
        assert!(
            seen[0] > 0 && seen[1] > seen[0] && seen[2] > seen[1],
            "{seen:?}"
        );
        assert_eq!(generation.of(Part::Lesson).get_untracked(), 0);
    }
}
