//! Fencing tokens checked as a sequence: every grant the lock service made since the step began
//! must carry a token strictly above the grant before it, across a change of the service's leader.
//!
//! `tokens_grew_after_failover` asks only that one grant after the failover beat the highest token
//! before it. This checkpoint reads the service's own record of grants instead of workers' beliefs,
//! so a token issued twice (to two holders, or to one holder twice) or a grant below its predecessor
//! anywhere in the step keeps it unmet for good, with both grants named in the explanation.

use super::Verdict;
use crate::base::units::FencingToken;
use crate::engine::checker::locks::GrantRecord;
use crate::engine::world::World;

/// What the rising-tokens checkpoint remembers between checks.
#[derive(Clone, Debug, Default)]
pub(super) struct GrantWatch {
    /// Grants the service had recorded when the step began.
    grants_at_start: usize,
    /// Grants recorded when the service's leader was first seen changed.
    grants_at_failover: Option<usize>,
}

impl GrantWatch {
    pub(super) fn begin(world: &World) -> GrantWatch {
        GrantWatch {
            grants_at_start: world.checkers().locks().grants.len(),
            grants_at_failover: None,
        }
    }

    /// `leader_changed`: the service leads in a later term than when the step began.
    pub(super) fn check(&mut self, world: &World, leader_changed: bool) -> Verdict {
        if world.layout().is_none_or(|layout| layout.workers == 0) {
            return Verdict::not_yet("this world has no lock clients".into());
        }
        let grants = &world.checkers().locks().grants;
        // The grant just before the step counts as the first one each later grant must beat.
        let watched = &grants[self.grants_at_start.saturating_sub(1).min(grants.len())..];
        if let Some(position) = first_not_rising(watched) {
            let (earlier, later) = (watched[position - 1], watched[position]);
            return Verdict::not_yet(format!(
                "{} was granted token {} after {} had been granted token {}: a token must never \
                 be issued twice or go down",
                world.node_label(later.client),
                later.token,
                world.node_label(earlier.client),
                earlier.token
            ));
        }
        let since_start = grants.len().saturating_sub(self.grants_at_start);
        let Some(at_failover) = self.grants_at_failover else {
            if leader_changed {
                self.grants_at_failover = Some(grants.len());
                return Verdict::not_yet(format!(
                    "a new service leader took over; waiting for its first grant (highest token \
                     so far: {})",
                    highest(grants)
                ));
            }
            return Verdict::not_yet(format!(
                "the lock service has not failed over yet ({} since the step began, each above \
                 the one before)",
                counted(since_start)
            ));
        };
        match grants.get(at_failover) {
            Some(first_after) => Verdict::yes(format!(
                "after the failover {} was granted token {}; {} since the step began, each \
                 above the one before, none repeated",
                world.node_label(first_after.client),
                first_after.token,
                counted(since_start)
            )),
            None => Verdict::not_yet(format!(
                "no grant yet from the new service leader (highest token so far: {})",
                highest(grants)
            )),
        }
    }
}

/// The first position whose token is not strictly above the one before it.
fn first_not_rising(grants: &[GrantRecord]) -> Option<usize> {
    (1..grants.len()).find(|&position| grants[position].token <= grants[position - 1].token)
}

fn highest(grants: &[GrantRecord]) -> FencingToken {
    grants
        .iter()
        .map(|grant| grant.token)
        .fold(FencingToken::ZERO, FencingToken::max)
}

fn counted(grants: usize) -> String {
    match grants {
        1 => "1 grant".into(),
        many => format!("{many} grants"),
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::{explanation_when_met, explanation_when_never_met};
    use super::*;
    use crate::base::ids::NodeId;
    use crate::tooling::lesson::Checkpoint;

    const BATCH: &str = include_str!("../../../../../lessons/scenarios/inventory-batch.toml");

    fn grant(token: u64) -> GrantRecord {
        GrantRecord {
            client: NodeId(3),
            token: FencingToken(token),
            at_ms: 0,
        }
    }

    /// The detector itself: a repeated token and a lower one are both caught, where they happen.
    #[test]
    fn a_repeated_or_lower_token_is_found() {
        let tokens = |list: &[u64]| list.iter().map(|token| grant(*token)).collect::<Vec<_>>();
        assert_eq!(first_not_rising(&tokens(&[2, 5, 9])), None);
        assert_eq!(first_not_rising(&tokens(&[2, 5, 5, 9])), Some(2));
        assert_eq!(first_not_rising(&tokens(&[7, 8, 1])), Some(2));
        assert_eq!(first_not_rising(&tokens(&[])), None);
    }

    /// Lesson 10: crash the service's leader; the new leader's grants carry on above the old ones.
    #[test]
    fn a_failover_of_the_service_keeps_tokens_rising() {
        let crashed =
            format!("{BATCH}\n[[step]]\nat_ms = 3000\ndo = \"crash\"\ntarget = \"leader\"\n");
        let checkpoint = Checkpoint::TokensRoseAcrossFailover;
        let explanation = explanation_when_met(&crashed, checkpoint, 2_900, 12_000);
        assert!(explanation.contains("none repeated"), "{}", explanation);
    }

    /// Grants that rise without a failover do not meet the step.
    #[test]
    fn rising_grants_without_a_failover_are_not_enough() {
        let explanation =
            explanation_when_never_met(BATCH, Checkpoint::TokensRoseAcrossFailover, 0, 12_000);
        assert!(explanation.contains("not failed over"), "{}", explanation);
    }
}
