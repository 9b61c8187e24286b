//! The invoice scheduler's lesson checkpoints: another instance takes over the leadership (or the
//! same one comes back under a newer token), and the invoice store refuses a run carrying an older
//! token than one it has seen: a deposed leader's late invoice.

use super::SchedulerInstance;
use crate::base::ids::NodeId;
use crate::base::units::FencingToken;
use crate::contract::checkpoint::{
    counted, Argument, CheckpointSpec, CheckpointWatch, ClonedWatch, Verdict,
};
use crate::contract::config::ProtocolConfig;
use crate::contract::world_read::{actors_of, WorldRead};

/// The checkpoints, in the order lesson hints offer them.
pub const CHECKPOINTS: &[CheckpointSpec] = &[
    CheckpointSpec {
        name: "scheduler_leader_changed",
        argument: Argument::None,
        begin: |_, world| begin(world, Wanted::LeaderChanged),
    },
    CheckpointSpec {
        name: "stale_invoice_refused",
        argument: Argument::None,
        begin: |_, world| begin(world, Wanted::StaleInvoiceRefused),
    },
];

#[derive(Clone, Copy, Debug, Hash)]
enum Wanted {
    LeaderChanged,
    StaleInvoiceRefused,
}

/// The leading instance when the step began, and the invoices refused then.
#[derive(Clone, Debug, Hash)]
struct SchedulerWatch {
    wanted: Wanted,
    start_leader: Option<(NodeId, FencingToken)>,
    refused_at_start: u64,
}

fn begin(world: &dyn WorldRead, wanted: Wanted) -> Box<dyn CheckpointWatch> {
    Box::new(SchedulerWatch {
        wanted,
        start_leader: leading_instance(world),
        refused_at_start: refused_invoices(world),
    })
}

impl ClonedWatch for SchedulerWatch {
    fn check(&mut self, world: &dyn WorldRead) -> Verdict {
        match self.wanted {
            Wanted::LeaderChanged => self.leader_changed(world),
            Wanted::StaleInvoiceRefused => self.stale_invoice_refused(world),
        }
    }
}

/// The instance that believes it leads, by its own clock, with the highest token.
fn leading_instance(world: &dyn WorldRead) -> Option<(NodeId, FencingToken)> {
    actors_of::<SchedulerInstance>(world)
        .filter(|(node, instance)| instance.believes_it_leads(world.local_us(*node)))
        .map(|(node, instance)| (node, instance.token))
        .max_by_key(|(_, token)| *token)
}

fn refused_invoices(world: &dyn WorldRead) -> u64 {
    world
        .store_tally()
        .map_or(0, |store| store.refused_invoices)
}

impl SchedulerWatch {
    fn leader_changed(&mut self, world: &dyn WorldRead) -> Verdict {
        let now = leading_instance(world);
        let Some((old, old_token)) = self.start_leader else {
            self.start_leader = now;
            return Verdict::not_yet("no scheduler instance leads yet".into());
        };
        match now {
            Some((new, token)) if token > old_token => Verdict::yes(format!(
                "{} leads the scheduler with token {token}; {} led with token {old_token}",
                world.label(new),
                world.label(old)
            )),
            Some((same, token)) => Verdict::not_yet(format!(
                "{} still leads the scheduler (token {token})",
                world.label(same)
            )),
            None => Verdict::not_yet("no scheduler instance believes it leads right now".into()),
        }
    }

    fn stale_invoice_refused(&self, world: &dyn WorldRead) -> Verdict {
        if !matches!(world.protocol(), ProtocolConfig::Scheduler(..)) {
            return Verdict::not_yet("this world has no invoice scheduler".into());
        }
        let refused = refused_invoices(world).saturating_sub(self.refused_at_start);
        let highest = world
            .store_tally()
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
    use crate::tooling::lesson::test_support::watch_named;

    const FENCED: &str = include_str!("../../../scenarios/scheduler-leader-fencing.toml");
    const ELECTION: &str = include_str!("../../../scenarios/scheduler-leader-election.toml");

    /// The example pauses B mid-run at 5 050 ms for 3 s; with fencing its late run is refused.
    #[test]
    fn a_paused_leaders_late_invoice_is_refused_when_fenced() {
        let (met, explanation) = watch_named(FENCED, "stale_invoice_refused", 0, 12_000);
        assert!(met, "{explanation}");
        assert!(explanation.contains("refused 1 run"), "{}", explanation);
    }

    #[test]
    fn without_fencing_no_invoice_is_refused() {
        let (met, explanation) = watch_named(ELECTION, "stale_invoice_refused", 0, 12_000);
        assert!(!met, "{explanation}");
    }

    #[test]
    fn the_pause_hands_the_leadership_to_another_instance() {
        let (met, explanation) = watch_named(FENCED, "scheduler_leader_changed", 4_000, 12_000);
        assert!(met, "{explanation}");
        let calm = FENCED.replace("duration_ms = 3000", "duration_ms = 1");
        let (met, explanation) = watch_named(&calm, "scheduler_leader_changed", 4_000, 12_000);
        assert!(!met, "{explanation}");
    }
}
