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
}
