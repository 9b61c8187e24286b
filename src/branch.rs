//! Rewinding without loss: acting in the past replaces the recorded future with a new one. The old
//! future is kept here (its action log is all it takes to rebuild it exactly), the page says what
//! happened, and one click brings the old branch back at the moment the learner acted.

use crate::session::Session;
use quorumlab_sim::history::RecordedAction;
use quorumlab_sim::scenario::Scenario;
use quorumlab_sim::time::SimTime;

/// The future an action in the past replaced.
#[derive(Clone, Debug, PartialEq)]
pub struct ReplacedFuture {
    pub scenario: Scenario,
    /// The whole action log of the old branch (its actions before `acted_at` are shared).
    pub actions: Vec<RecordedAction>,
    /// Where the learner acted, and so where the two branches part.
    pub acted_at: SimTime,
    /// How far the old branch had been recorded.
    pub horizon: SimTime,
}

impl ReplacedFuture {
    /// What an action now would replace: `None` when nothing is recorded past the present.
    pub fn before_acting(session: &Session) -> Option<ReplacedFuture> {
        (session.horizon() > session.now()).then(|| ReplacedFuture {
            scenario: session.scenario().clone(),
            actions: session.actions().to_vec(),
            acted_at: session.now(),
            horizon: session.horizon(),
        })
    }

    /// The old branch again, at the moment the learner acted (before their action).
    pub fn restore(&self) -> Result<Session, String> {
        let mut session = Session::replaying(self.scenario.clone(), self.actions.clone())?;
        // Replayed as far as it had been recorded, so the timeline reaches the old horizon again.
        session.seek(self.horizon);
        session.seek(self.acted_at);
        Ok(session)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use quorumlab_sim::action::{Action, NodeTarget};

    fn session() -> Session {
        let mut scenario = Scenario::new("branches", 5, 60_000);
        scenario.seed = 3;
        Session::new(scenario).unwrap()
    }

    #[test]
    fn acting_in_the_past_can_be_undone_to_the_exact_old_future() {
        let mut session = session();
        session.advance_to(SimTime::from_ms(500));
        session.apply(&Action::Crash {
            target: NodeTarget::Leader,
        });
        session.advance_to(SimTime::from_ms(3_000));
        let old_hash = session.trace_hash();
        session.seek(SimTime::from_ms(1_000));
        let replaced = ReplacedFuture::before_acting(&session).expect("a recorded future");
        assert_eq!(replaced.horizon, SimTime::from_ms(3_000));
        session.apply(&Action::Heal);
        assert!(
            session.horizon() < SimTime::from_ms(3_000),
            "the new branch dropped the old future"
        );
        let mut restored = replaced.restore().unwrap();
        assert_eq!(restored.now(), SimTime::from_ms(1_000));
        assert_eq!(
            restored.horizon(),
            SimTime::from_ms(3_000),
            "recorded as far as before"
        );
        restored.seek(SimTime::from_ms(3_000));
        assert_eq!(restored.trace_hash(), old_hash, "the old future, exactly");
    }

    #[test]
    fn acting_at_the_edge_replaces_nothing() {
        let mut session = session();
        session.advance_to(SimTime::from_ms(500));
        assert_eq!(ReplacedFuture::before_acting(&session), None);
    }
}
