//! What the narration panels show: the newest lines, the caption and the quiet count, copied out of
//! the session's narrator when the panels refresh (ten times a second while playing, at once after an
//! action, a step or a seek).

use quorumlab_sim::entry::describe::Weight;
use quorumlab_sim::narration::{NarrationLine, Narrator};

/// Lines the event log shows (the narrator keeps more).
pub const LOG_LINES: usize = 120;

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NarrationView {
    /// Newest last.
    pub lines: Vec<NarrationLine>,
    /// The newest line that turns the story (a crash, an election, a refused token, a violation).
    pub caption: Option<NarrationLine>,
    /// Heartbeat rounds since the newest line.
    pub quiet_rounds: u64,
}

impl NarrationView {
    pub fn of(narrator: &Narrator) -> NarrationView {
        let skip = narrator.lines().len().saturating_sub(LOG_LINES);
        NarrationView {
            lines: narrator.lines().skip(skip).cloned().collect(),
            caption: narrator.latest(Weight::Notable).cloned(),
            quiet_rounds: narrator.quiet_rounds(),
        }
    }
}

/// Whether a caption may replace the one shown: at once when paused or when something broke, and
/// while playing no sooner than `hold` refreshes after the last change, so a sentence stays up long
/// enough to read (and a screen reader is not flooded at high speed).
pub fn caption_may_change(
    current: Option<&NarrationLine>,
    next: Option<&NarrationLine>,
    refreshes_since_change: u32,
    hold: u32,
    playing: bool,
) -> bool {
    let Some(next) = next else {
        return current.is_some();
    };
    if current
        .is_some_and(|current| current.ordinal == next.ordinal && current.repeats == next.repeats)
    {
        return false;
    }
    !playing || next.weight == Weight::Alarm || refreshes_since_change >= hold
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::Session;
    use quorumlab_sim::action::{Action, NodeTarget};
    use quorumlab_sim::scenario::Scenario;
    use quorumlab_sim::time::SimTime;

    fn played(milliseconds: u64) -> Session {
        let mut scenario = Scenario::new("narrated", 5, 60_000);
        scenario.seed = 1;
        let mut session = Session::new(scenario).unwrap();
        session.advance_to(SimTime::from_ms(milliseconds));
        session
    }

    #[test]
    fn the_caption_follows_the_story_and_the_log_keeps_routine_lines() {
        let mut session = played(1_000);
        session.apply(&Action::Crash {
            target: NodeTarget::Leader,
        });
        session.advance_to(SimTime::from_ms(2_000));
        let view = NarrationView::of(session.narration());
        let caption = view.caption.expect("a caption");
        assert!(caption.weight >= Weight::Notable);
        assert!(view.lines.iter().any(|line| line.weight == Weight::Routine));
        assert!(view
            .lines
            .iter()
            .any(|line| line.text.starts_with("Crash the leader")));
        assert!(view.lines.len() <= LOG_LINES);
    }

    #[test]
    fn rewinding_reads_the_run_again_to_the_same_words() {
        let mut session = played(1_500);
        let at_1500 = NarrationView::of(session.narration());
        session.advance_to(SimTime::from_ms(3_000));
        session.narration();
        session.seek(SimTime::from_ms(1_500));
        assert_eq!(NarrationView::of(session.narration()), at_1500);
    }

    #[test]
    fn a_step_names_what_it_did_and_a_step_back_undoes_it() {
        let mut session = played(300);
        let before = session.now();
        let told = session.step_and_tell().expect("something to do");
        assert!(!told.is_empty());
        assert!(session.now() > before);
        assert!(session.step_back());
        assert!(session.now() <= before);
    }

    #[test]
    fn captions_hold_while_playing_but_alarms_and_pauses_do_not_wait() {
        let template = sample_line();
        let line = |ordinal, weight| {
            let mut line = template.clone();
            line.ordinal = ordinal;
            line.weight = weight;
            line
        };
        let old = line(1, Weight::Notable);
        let new = line(2, Weight::Notable);
        assert!(!caption_may_change(Some(&old), Some(&new), 3, 15, true));
        assert!(caption_may_change(Some(&old), Some(&new), 15, 15, true));
        assert!(caption_may_change(Some(&old), Some(&new), 0, 15, false));
        assert!(caption_may_change(
            Some(&old),
            Some(&line(3, Weight::Alarm)),
            0,
            15,
            true
        ));
        assert!(!caption_may_change(Some(&old), Some(&old), 99, 15, false));
    }

    fn sample_line() -> NarrationLine {
        let mut session = played(400);
        let line = session.narration().lines().next().cloned();
        line.expect("an election by 400 ms")
    }
}
