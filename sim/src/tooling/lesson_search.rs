//! Between a lesson's "can it break?" step and the search it asks for.
//!
//! A step's `search` (`lesson::SearchStep`) states a question and a budget and the answers that
//! complete it; the search (`explore`) takes a request and reports an outcome. The two modules know
//! nothing of each other (the search already reads lesson checkpoints for its examples, so the lesson
//! module may not read the search back), and this one joins them: the request a step's words describe,
//! as the page sends it, and the kind of answer a finished search gave. The page ticks the open step
//! with [`answer_of`]; the lesson tests run [`request_of`] on the step's world.

use crate::tooling::explore::{Bound, ExploreRequest, Outcome};
use crate::tooling::lesson::{SearchAnswer, SearchFaultKinds, SearchStep};

/// The kind of a finished search's outcome: an example counts as found, like a counterexample; a
/// level walked in full without a break is "none within the bound"; a state budget spent part way
/// through a level is "bound reached".
pub fn answer_of(outcome: &Outcome) -> SearchAnswer {
    match outcome {
        Outcome::Found { .. } | Outcome::Example { .. } => SearchAnswer::Found,
        Outcome::BoundReached {
            bound: Bound::Depth,
            ..
        } => SearchAnswer::NoneWithinBound,
        Outcome::BoundReached { .. } => SearchAnswer::BoundReached,
    }
}

/// The request the page sends for `step`'s question, budget and kinds of fault (its other settings the
/// engine's defaults, as the page leaves them).
pub fn request_of(step: &SearchStep) -> ExploreRequest {
    ExploreRequest {
        invariant: step.invariant.clone(),
        max_depth: step.depth,
        max_faults: step.faults,
        max_states: step.states,
        horizon_ms: Some(step.ahead_ms),
        ..with_kinds(step.kinds)
    }
}

/// The engine's request offering these kinds of fault and its defaults for the rest (pauses off means
/// no pause lengths offered). The page's card builds its requests from this too.
pub fn with_kinds(kinds: SearchFaultKinds) -> ExploreRequest {
    let defaults = ExploreRequest::default();
    ExploreRequest {
        crash: kinds.crash,
        pause_ms: if kinds.pauses {
            defaults.pause_ms.clone()
        } else {
            Vec::new()
        },
        isolate: kinds.isolate,
        cut_links: kinds.cut_links,
        ..defaults
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tooling::lesson::SearchFaultKinds;

    #[test]
    fn each_outcome_is_one_kind_of_answer() {
        let bound = |bound| Outcome::BoundReached {
            bound,
            complete_depth: None,
        };
        assert_eq!(
            answer_of(&bound(Bound::Depth)),
            SearchAnswer::NoneWithinBound
        );
        for short in [Bound::States, Bound::Frontier] {
            assert_eq!(answer_of(&bound(short)), SearchAnswer::BoundReached);
        }
        let found = Outcome::Found {
            invariant: "No Lost Updates".to_string(),
            seen_by_ms: 1_000,
            schedule: Vec::new(),
            faults: 0,
        };
        assert_eq!(answer_of(&found), SearchAnswer::Found);
    }

    #[test]
    fn a_step_asks_for_its_stated_budget() {
        let step = SearchStep {
            invariant: Some("No Lost Updates".to_string()),
            depth: 1,
            faults: 1,
            states: 200_000,
            ahead_ms: 4_000,
            kinds: SearchFaultKinds::default(),
            answers: vec![SearchAnswer::Found],
        };
        let request = request_of(&step);
        assert_eq!(request.invariant.as_deref(), Some("No Lost Updates"));
        assert_eq!(
            (request.max_depth, request.max_faults, request.max_states),
            (1, 1, 200_000)
        );
        assert_eq!(request.horizon_ms, Some(4_000));
        assert_eq!(request.pause_ms, ExploreRequest::default().pause_ms);
        assert!(request.crash && request.isolate && !request.cut_links);
        let cuts = request_of(&SearchStep {
            kinds: SearchFaultKinds {
                crash: true,
                pauses: false,
                isolate: false,
                cut_links: true,
            },
            ..step
        });
        assert!(cuts.pause_ms.is_empty() && !cuts.isolate && cuts.cut_links && cuts.crash);
    }
}
