//! Single-stepping two runs on one clock: a step goes to the next instant at which either side has
//! events, and both sides process that instant, so neither jumps past something the other shows.

use crate::session::{Session, MAX_SILENT_INSTANTS};
use quorumlab_sim::compare::lockstep;
use quorumlab_sim::scenario::Scenario;
use quorumlab_sim::time::SimTime;

/// What one step did on each side, in words, left first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SteppedBoth {
    pub left: String,
    pub right: String,
    pub at: SimTime,
}

/// Steps both sides to the next instant either has events at (past instants where only cancelled
/// timers came due, on both sides, as a single run's step does). `None` when both are idle.
pub fn step_both(left: &mut Session, right: &mut Session) -> Option<SteppedBoth> {
    let (left_mark, right_mark) = (left.step_mark(), right.step_mark());
    let mut stepped = false;
    for _ in 0..MAX_SILENT_INSTANTS {
        let Some(next) = lockstep::next_shared_instant(left.timeline(), right.timeline()) else {
            break;
        };
        left.advance_to(next);
        right.advance_to(next);
        stepped = true;
        if left.has_news_since(&left_mark) || right.has_news_since(&right_mark) {
            break;
        }
    }
    if !stepped {
        return None;
    }
    let at = left.now();
    let tell = |session: &mut Session, mark| {
        if session.has_news_since(&mark) {
            session.tell_since(mark)
        } else {
            format!(
                "nothing happened on this side at {}",
                crate::format::sim_time(at.as_micros())
            )
        }
    };
    Some(SteppedBoth {
        left: tell(left, left_mark),
        right: tell(right, right_mark),
        at,
    })
}

/// A run of `scenario` brought to `left`'s instant with all of `left`'s actions applied at the same
/// instants, as compare mode would have applied them live: a scripted step the right side applies
/// itself is not applied twice. The actions after `left`'s instant (its recorded future, after a seek
/// back or from a share link) are applied too and the run is then taken back to that instant, so
/// playing on replays the same future on both sides. Refused (with the reason) when the scenario is
/// invalid. Bounded by the left run's own log and length.
pub fn replay_beside(left: &Session, scenario: Scenario) -> Result<Session, String> {
    let mut right = Session::new(scenario)?;
    let now = left.now();
    lockstep::replay_beside(left.actions(), right.driver_mut());
    if right.now() > now {
        right.seek(now);
    } else {
        right.advance_to(now);
    }
    Ok(right)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compare::open::{example, pair_of};
    use quorumlab_sim::compare::variation::Variation;

    fn fencing_sessions() -> (Session, Session) {
        let base = example("fencing-pause.toml").unwrap();
        let (left, right) = pair_of(&base, &[Variation::Fencing]).unwrap();
        (Session::new(left).unwrap(), Session::new(right).unwrap())
    }

    /// Stepping the pair visits every instant that either side alone would step to, in order, and
    /// keeps both sides on the same clock.
    #[test]
    fn a_step_goes_to_the_sooner_of_the_two_sides_next_instants() {
        let (mut left, mut right) = fencing_sessions();
        let (mut left_alone, mut right_alone) = fencing_sessions();
        let (mut left_instants, mut right_instants) = (Vec::new(), Vec::new());
        for _ in 0..400 {
            left_alone.step_and_tell();
            right_alone.step_and_tell();
            left_instants.push(left_alone.now());
            right_instants.push(right_alone.now());
        }
        let mut pair_instants = Vec::new();
        while pair_instants.len() < 400 {
            let stepped = step_both(&mut left, &mut right).expect("the lock service never idles");
            assert_eq!(left.now(), right.now());
            assert_eq!(stepped.at, left.now());
            pair_instants.push(stepped.at);
        }
        let horizon = *pair_instants.last().unwrap();
        for instant in left_instants.iter().chain(&right_instants) {
            if *instant <= horizon {
                assert!(
                    pair_instants.contains(instant),
                    "{instant:?} was stepped over"
                );
            }
        }
        // The pair steps at the union of both sides' instants, so on these runs it is finer than either.
        assert!(pair_instants.windows(2).all(|pair| pair[0] < pair[1]));
    }

    /// A right side made part-way through a run is the right side a comparison opened at zero and
    /// driven live would have: same instant, same actions, same trace, bit for bit.
    #[test]
    fn a_right_side_replayed_beside_the_left_matches_one_that_was_there_all_along() {
        use quorumlab_sim::action::{Action, NodeTarget};
        let (mut left, mut right_live) = fencing_sessions();
        for (at_ms, action) in [
            (
                700,
                Action::Crash {
                    target: NodeTarget::Leader,
                },
            ),
            (
                1_900,
                Action::Restart {
                    target: NodeTarget::Leader,
                },
            ),
        ] {
            for session in [&mut left, &mut right_live] {
                session.advance_to(SimTime::from_ms(at_ms));
                session.apply(&action);
            }
        }
        left.advance_to(SimTime::from_ms(5_000));
        right_live.advance_to(SimTime::from_ms(5_000));
        let right_scenario = right_live.scenario().clone();
        let replayed = replay_beside(&left, right_scenario).unwrap();
        assert_eq!(replayed.now(), left.now());
        assert_eq!(replayed.trace_hash(), right_live.trace_hash());
        assert_ne!(replayed.trace_hash(), left.trace_hash());
        assert_eq!(replayed.actions().len(), right_live.actions().len());
    }

    /// A left run taken back in time keeps its recorded future; the right side made from it there gets
    /// that future too (the same actions at the same instants), and playing both on to the end gives
    /// the right side a comparison opened at zero would have had.
    #[test]
    fn a_right_side_made_in_the_past_gets_the_lefts_recorded_future() {
        use quorumlab_sim::action::{Action, NodeTarget};
        let (mut left, mut right_live) = fencing_sessions();
        let moves = [
            (
                600,
                Action::Pause {
                    target: NodeTarget::Leader,
                    duration_ms: None,
                },
            ),
            (
                2_400,
                Action::Resume {
                    target: NodeTarget::Leader,
                },
            ),
        ];
        for (at_ms, action) in &moves {
            for session in [&mut left, &mut right_live] {
                session.advance_to(SimTime::from_ms(*at_ms));
                session.apply(action);
            }
        }
        left.advance_to(SimTime::from_ms(6_000));
        right_live.advance_to(SimTime::from_ms(6_000));
        left.seek(SimTime::from_ms(300));
        let replayed = replay_beside(&left, right_live.scenario().clone()).unwrap();
        assert_eq!(replayed.now(), SimTime::from_ms(300));
        let future = |session: &Session| {
            session
                .actions()
                .iter()
                .filter(|recorded| recorded.at > session.now())
                .map(|recorded| (recorded.at, recorded.action.clone()))
                .collect::<Vec<_>>()
        };
        assert_eq!(future(&replayed), future(&left));
        assert!(
            !future(&left).is_empty(),
            "the left run has a recorded future"
        );
        let mut replayed = replayed;
        replayed.advance_to(SimTime::from_ms(6_000));
        assert_eq!(replayed.trace_hash(), right_live.trace_hash());
        assert_eq!(replayed.actions().len(), right_live.actions().len());
    }

    #[test]
    fn a_step_with_news_on_one_side_only_says_so_for_the_other() {
        let (mut left, mut right) = fencing_sessions();
        let quiet_sides = (0..2_000)
            .filter_map(|_| step_both(&mut left, &mut right))
            .filter(|stepped| {
                stepped.left.starts_with("nothing happened on this side")
                    != stepped.right.starts_with("nothing happened on this side")
            })
            .count();
        assert!(
            quiet_sides > 0,
            "the two runs never differed at one instant"
        );
    }
}
