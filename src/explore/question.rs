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
//!
//! So are the kinds of fault the search may use (the engine's menu: crash and restart, timed pauses,
//! isolating a node, cutting the link of one pair): every kind but one-link cuts unless the learner
//! chooses, as headless. A one-link cut is offered only where there are at least three nodes (with
//! two, cutting their one link is isolating either), and a search with no kind of fault is refused.

use quorumlab_sim::explore::ExploreRequest;
use quorumlab_sim::history::RecordedAction;
use quorumlab_sim::scenario::{Scenario, Step};

pub use quorumlab_sim::lesson::SearchFaultKinds as FaultKinds;

/// Most states a search in the page may visit.
pub const MAX_PAGE_STATES: u64 = 500_000;
/// The longest stretch of simulated time a search in the page may look through.
pub const MAX_HORIZON_S: u64 = 30;
/// The shortest look-ahead, in ms: two choice points of the engine's 50 ms grid.
pub const MIN_HORIZON_MS: u64 = 100;
/// The fewest nodes for which cutting one link differs from isolating a node.
pub const MIN_NODES_FOR_CUTS: usize = 3;

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
    /// How far past the start the search looks, in ms of simulated time (the card says seconds).
    pub horizon_ms: u64,
    /// The kinds of fault the search may use.
    pub kinds: FaultKinds,
}

impl Default for Budget {
    fn default() -> Self {
        Budget {
            max_depth: 2,
            max_faults: 2,
            max_states: 50_000,
            horizon_ms: 5_000,
            kinds: FaultKinds::default(),
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
        if !(MIN_HORIZON_MS..=MAX_HORIZON_S * 1_000).contains(&budget.horizon_ms) {
            return Err(format!("look 0.1 to {MAX_HORIZON_S} s ahead"));
        }
        check_kinds(budget.kinds, scenario.actor_count())?;
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
            horizon_ms: Some(start_ms + budget.horizon_ms),
            from_ms: start_ms,
            ..with_kinds(budget.kinds)
        };
        request.validate(&searched)?;
        request.goal(&searched)?;
        Ok((searched, request))
    }
}

/// The kinds asked for make sense in a world of `node_count` nodes; the error is one short sentence.
fn check_kinds(kinds: FaultKinds, node_count: usize) -> Result<(), String> {
    if !(kinds.crash || kinds.pauses || kinds.isolate || kinds.cut_links) {
        return Err("choose at least one kind of fault for the search to use".to_string());
    }
    if kinds.cut_links && node_count < MIN_NODES_FOR_CUTS {
        return Err(format!(
            "cutting one link needs at least {MIN_NODES_FOR_CUTS} nodes (this world has {node_count})"
        ));
    }
    Ok(())
}

/// The engine's request with these kinds of fault and its defaults for the rest (the same one a
/// lesson step's search asks for).
pub fn with_kinds(kinds: FaultKinds) -> ExploreRequest {
    quorumlab_sim::lesson_search::with_kinds(kinds)
}

/// The kinds of fault a request offers, read back (what a finished search says it used).
pub fn kinds_of(request: &ExploreRequest) -> FaultKinds {
    FaultKinds {
        crash: request.crash,
        pauses: !request.pause_ms.is_empty(),
        isolate: request.isolate,
        cut_links: request.cut_links,
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
        // Every kind of fault but one-link cuts, as headless.
        let defaults = ExploreRequest::default();
        assert_eq!(
            (
                request.crash,
                &request.pause_ms,
                request.isolate,
                request.cut_links
            ),
            (true, &defaults.pause_ms, true, false)
        );
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
        for horizon_ms in [0, 99, 30_001] {
            asked.budget = Budget {
                horizon_ms,
                ..Budget::default()
            };
            assert!(asked.ask(&world, &[], 0).unwrap_err().contains("ahead"));
        }
        asked.budget = Budget {
            max_depth: 9,
            ..Budget::default()
        };
        assert!(asked.ask(&world, &[], 0).unwrap_err().contains("depth"));
    }

    fn forgetful_paxos() -> Scenario {
        let (_, text) = EXAMPLES
            .iter()
            .find(|(name, _)| *name == "paxos-forgetful-acceptor.toml")
            .unwrap();
        parse_scenario(text, "paxos-forgetful-acceptor.toml").unwrap()
    }

    fn cuts_and_crashes() -> FaultKinds {
        FaultKinds {
            crash: true,
            pauses: false,
            isolate: false,
            cut_links: true,
        }
    }

    #[test]
    fn the_chosen_kinds_of_fault_and_a_sub_second_look_ahead_reach_the_request() {
        let asked = Question {
            start: Start::Beginning,
            sought: Sought::Invariant(Some("Agreement".to_string())),
            budget: Budget {
                max_depth: 4,
                max_faults: 4,
                max_states: 400_000,
                horizon_ms: 300,
                kinds: cuts_and_crashes(),
            },
        };
        let (_, request) = asked.ask(&forgetful_paxos(), &[], 0).unwrap();
        assert!(request.crash && request.cut_links && !request.isolate);
        assert!(request.pause_ms.is_empty());
        assert_eq!(request.horizon_ms, Some(300));
        assert_eq!(kinds_of(&request), cuts_and_crashes());
        // What the worker is sent carries the cuts (the request is the message's own field).
        let sent = crate::explore::messages::ToSearch::Run {
            scenario: Box::new(forgetful_paxos()),
            request: request.clone(),
        };
        let read = crate::explore::messages::ToSearch::from_json(&sent.to_json()).unwrap();
        let crate::explore::messages::ToSearch::Run { request: read, .. } = read;
        assert!(read.cut_links && read.pause_ms.is_empty());
        assert_eq!(kinds_of(&ExploreRequest::default()), FaultKinds::default());
    }

    #[test]
    fn no_kind_of_fault_or_cuts_between_two_nodes_are_refused_with_a_reason() {
        let mut asked = question(Start::Beginning);
        asked.budget.kinds = FaultKinds {
            crash: false,
            pauses: false,
            isolate: false,
            cut_links: false,
        };
        let refused = asked.ask(&forgetful_paxos(), &[], 0).unwrap_err();
        assert!(refused.contains("at least one kind of fault"), "{refused}");
        asked.budget.kinds = cuts_and_crashes();
        let mut pair = lease_world();
        pair.protocol = quorumlab_sim::ProtocolConfig::Raft;
        pair.node_count = 2;
        assert_eq!(pair.actor_count(), 2);
        let refused = asked.ask(&pair, &[], 0).unwrap_err();
        assert!(refused.contains("at least 3 nodes"), "{refused}");
        assert!(asked.ask(&forgetful_paxos(), &[], 0).is_ok());
    }
}
