//! Checkpoints of the singleton scheduler: another instance takes over the leadership (or the same one
//! comes back under a newer token), and the invoice store refuses a run carrying an older token than
//! one it has seen: a deposed leader's late invoice.

use super::{counted, Verdict};
use crate::base::ids::NodeId;
use crate::base::units::FencingToken;
use crate::engine::world::World;

/// The leading instance when the step began, and the invoices refused then.
#[derive(Clone, Debug, Default)]
pub(super) struct SchedulerWatch {
    start_leader: Option<(NodeId, FencingToken)>,
    refused_at_start: u64,
}

/// The instance that believes it leads with the highest token.
fn leading_instance(world: &World) -> Option<(NodeId, FencingToken)> {
    world
        .coordination_view()?
        .scheduler()?
        .instances
        .iter()
        .filter(|instance| instance.believes_it_leads)
        .map(|instance| (instance.id, instance.token))
        .max_by_key(|(_, token)| *token)
}

fn refused_invoices(world: &World) -> u64 {
    super::coordination::store(world).map_or(0, |store| store.refused_invoices)
}

impl SchedulerWatch {
    pub(super) fn begin(world: &World) -> SchedulerWatch {
        SchedulerWatch {
            start_leader: leading_instance(world),
            refused_at_start: refused_invoices(world),
        }
    }

    pub(super) fn leader_changed(&mut self, world: &World) -> Verdict {
        let now = leading_instance(world);
        let Some((old, old_token)) = self.start_leader else {
            self.start_leader = now;
            return Verdict::not_yet("no scheduler instance leads yet".into());
        };
        match now {
            Some((new, token)) if token > old_token => Verdict::yes(format!(
                "{} leads the scheduler with token {token}; {} led with token {old_token}",
                world.node_label(new),
                world.node_label(old)
            )),
            Some((same, token)) => Verdict::not_yet(format!(
                "{} still leads the scheduler (token {token})",
                world.node_label(same)
            )),
            None => Verdict::not_yet("no scheduler instance believes it leads right now".into()),
        }
    }

    pub(super) fn stale_invoice_refused(&self, world: &World) -> Verdict {
        if world
            .coordination_view()
            .is_none_or(|view| view.scheduler().is_none())
        {
            return Verdict::not_yet("this world has no invoice scheduler".into());
        }
        let refused = refused_invoices(world).saturating_sub(self.refused_at_start);
        let highest = super::coordination::store(world)
            .map_or(FencingToken::ZERO, |store| store.highest_seen);
        if refused > 0 {
            Verdict::yes(format!(
                "the invoice store refused {} carrying an old token (highest token seen: {highest})",
                counted(refused, "run", "runs")
            ))
        } else {
            Verdict::not_yet(format!(
                "the invoice store has refused no run yet (highest token seen: {highest})"
            ))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::{
        explanation_when_met, explanation_when_never_met, watch_until_met,
    };
    use crate::tooling::lesson::Checkpoint;

    const FENCED: &str = include_str!("../../../../scenarios/scheduler-leader-fencing.toml");
    const ELECTION: &str = include_str!("../../../../scenarios/scheduler-leader-election.toml");

    /// The example pauses B mid-run at 5 050 ms for 3 s; with fencing its late run is refused.
    #[test]
    fn a_paused_leaders_late_invoice_is_refused_when_fenced() {
        let explanation = explanation_when_met(FENCED, Checkpoint::StaleInvoiceRefused, 0, 12_000);
        assert!(explanation.contains("refused 1 run"), "{}", explanation);
    }

    #[test]
    fn without_fencing_no_invoice_is_refused() {
        let (met, verdict) = watch_until_met(ELECTION, Checkpoint::StaleInvoiceRefused, 0, 12_000);
        assert_eq!(met, None, "{}", verdict.explanation);
    }

    #[test]
    fn the_pause_hands_the_leadership_to_another_instance() {
        let (met, verdict) =
            watch_until_met(FENCED, Checkpoint::SchedulerLeaderChanged, 4_000, 12_000);
        assert!(met.is_some(), "{}", verdict.explanation);
        let calm = FENCED.replace("duration_ms = 3000", "duration_ms = 1");
        explanation_when_never_met(&calm, Checkpoint::SchedulerLeaderChanged, 4_000, 12_000);
    }
}
