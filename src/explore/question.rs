//! What the learner asks the search, turned into what the engine searches: a scenario and a request.
//!
//! Where the search starts is a choice. From the start, the world's own scripted faults are left out
//! (they are what the search should find for itself, or not). From this moment, the run so far is
//! kept as it happened: every action in its log up to now (scripted or the learner's), as steps at
//! the millisecond they were taken, and nothing later, and the request's `from_ms` is now: the engine
//! plays the run so far as it was and adds steps only at or after now (its first choice point is the
//! first 50 ms grid point from now), so a found fault never lies before the moment paused.
//!
//! The budget is the learner's, within bounds the page sets for a tab: the engine's own limits on
//! depth, and a state and horizon limit that keep one search to seconds or minutes, never hours.

use quorumlab_sim::explore::ExploreRequest;
use quorumlab_sim::history::RecordedAction;
use quorumlab_sim::scenario::{Scenario, Step};

/// Most states a search in the page may visit.
pub const MAX_PAGE_STATES: u64 = 500_000;
/// The longest stretch of simulated time a search in the page may look through.
pub const MAX_HORIZON_S: u64 = 30;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Start {
    /// The scenario's start, its scripted faults left out.
    Beginning,
    /// The run as it stands now: its actions so far kept.
    Now,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Sought {
    /// A violation of this invariant, or of any (`None`).
    Invariant(Option<String>),
    /// An example of this lesson checkpoint (`resource_rejected_stale_token`).
    Example(String),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    pub max_depth: u32,
    pub max_faults: u32,
    pub max_states: u64,
    /// How far past the start the search looks, in seconds of simulated time.
    pub horizon_s: u64,
}

impl Default for Budget {
    fn default() -> Self {
        Budget {
            max_depth: 2,
            max_faults: 2,
            max_states: 50_000,
            horizon_s: 5,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Question {
    pub start: Start,
    pub sought: Sought,
    pub budget: Budget,
}

impl Question {
    /// The scenario and request this question searches, from `scenario` and the run's `actions`
    /// at `now_ms`; the error is one short sentence and nothing is searched.
    pub fn ask(
        &self,
        scenario: &Scenario,
        actions: &[RecordedAction],
        now_ms: u64,
    ) -> Result<(Scenario, ExploreRequest), String> {
        let budget = self.budget;
        if budget.max_states > MAX_PAGE_STATES {
            return Err(format!("at most {MAX_PAGE_STATES} states in the page"));
        }
        if budget.horizon_s == 0 || budget.horizon_s > MAX_HORIZON_S {
            return Err(format!("look 1 to {MAX_HORIZON_S} s ahead"));
        }
        let mut searched = scenario.clone();
        let start_ms = match self.start {
            Start::Beginning => 0,
            Start::Now => now_ms.min(scenario.duration_ms),
        };
        searched.steps = match self.start {
            Start::Beginning => Vec::new(),
            Start::Now => steps_so_far(actions, start_ms),
        };
        let (invariant, example) = match &self.sought {
            Sought::Invariant(name) => (name.clone(), None),
            Sought::Example(checkpoint) => (None, Some(checkpoint.clone())),
        };
        let request = ExploreRequest {
            invariant,
            example,
            max_depth: budget.max_depth,
            max_faults: budget.max_faults,
            max_states: budget.max_states,
            horizon_ms: Some(start_ms + budget.horizon_s * 1_000),
            from_ms: start_ms,
            ..ExploreRequest::default()
        };
        request.validate(&searched)?;
        request.goal(&searched)?;
        Ok((searched, request))
    }
}

/// The run's actions up to `now_ms` as scenario steps, in time order.
fn steps_so_far(actions: &[RecordedAction], now_ms: u64) -> Vec<Step> {
    actions
        .iter()
        .filter(|recorded| recorded.at.as_ms() <= now_ms)
        .map(|recorded| Step {
            at_ms: recorded.at.as_ms(),
            action: recorded.action.clone(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use quorumlab_sim::action::{Action, NodeTarget};
    use quorumlab_sim::ids::NodeId;
    use quorumlab_sim::scenario::{parse_scenario, EXAMPLES};
    use quorumlab_sim::time::SimTime;

    fn lease_world() -> Scenario {
        let (_, text) = EXAMPLES
            .iter()
            .find(|(name, _)| *name == "no-fencing-pause.toml")
            .unwrap();
        parse_scenario(text, "no-fencing-pause.toml").unwrap()
    }

    fn crash_at(at_ms: u64) -> RecordedAction {
        RecordedAction {
            at: SimTime::from_ms(at_ms),
            after_events: 0,
            action: Action::Crash {
                target: NodeTarget::Node(NodeId(1)),
            },
        }
    }

    fn question(start: Start) -> Question {
        Question {
            start,
            sought: Sought::Invariant(None),
            budget: Budget::default(),
        }
    }

    #[test]
    fn from_the_start_the_scripted_faults_are_left_out_and_the_horizon_counts_from_zero() {
        let world = lease_world();
        assert!(!world.steps.is_empty());
        let (searched, request) = question(Start::Beginning)
            .ask(&world, &[crash_at(100)], 2_000)
            .unwrap();
        assert!(searched.steps.is_empty());
        assert_eq!(request.horizon_ms, Some(5_000));
        assert_eq!(request.from_ms, 0);
    }

    #[test]
    fn from_this_moment_the_actions_so_far_are_kept_and_later_ones_dropped() {
        let world = lease_world();
        let (searched, request) = question(Start::Now)
            .ask(
                &world,
                &[crash_at(100), crash_at(1_500), crash_at(2_500)],
                2_000,
            )
            .unwrap();
        let kept: Vec<u64> = searched.steps.iter().map(|step| step.at_ms).collect();
        assert_eq!(kept, vec![100, 1_500]);
        assert_eq!(request.horizon_ms, Some(7_000));
        assert_eq!(request.from_ms, 2_000);
    }

    #[test]
    fn a_budget_past_the_page_limits_is_refused_with_a_reason() {
        let world = lease_world();
        let mut asked = question(Start::Beginning);
        asked.budget.max_states = MAX_PAGE_STATES + 1;
        assert!(asked.ask(&world, &[], 0).unwrap_err().contains("states"));
        asked.budget = Budget {
            horizon_s: 0,
            ..Budget::default()
        };
        assert!(asked.ask(&world, &[], 0).unwrap_err().contains("ahead"));
        asked.budget = Budget {
            max_depth: 9,
            ..Budget::default()
        };
        assert!(asked.ask(&world, &[], 0).unwrap_err().contains("depth"));
    }
}
