//! PBFT's lesson checkpoints: a view change past a faulty primary, and honest replicas committing
//! different requests at one sequence number (a quorum too small for its replicas). Both count from
//! the step's start: the views by the highest view entered then, the disagreement by the Honest
//! Agreement violations found by then. (The lesson's checkpoints about requests committed while a
//! node lies count Raft's writes too, so the lesson engine keeps them.)

use super::checker::HONEST_AGREEMENT;
use super::{primary_of, Replica};
use crate::base::ids::NodeId;
use crate::contract::checkpoint::{
    Argument, CheckpointSpec, CheckpointWatch, ClonedWatch, Verdict,
};
use crate::contract::world_read::{actors_of, WorldRead};

/// The checkpoints, in the order lesson hints offer them.
pub const CHECKPOINTS: &[CheckpointSpec] = &[
    CheckpointSpec {
        name: "pbft_view_changed",
        argument: Argument::None,
        begin: |_, world| begin(world, Wanted::ViewChanged),
    },
    CheckpointSpec {
        name: "honest_replicas_disagree",
        argument: Argument::None,
        begin: |_, world| begin(world, Wanted::HonestReplicasDisagree),
    },
];

#[derive(Clone, Copy, Debug, Hash)]
enum Wanted {
    ViewChanged,
    HonestReplicasDisagree,
}

/// The highest view any replica had entered, and the Honest Agreement violations, at the step's start.
#[derive(Clone, Copy, Debug, Hash)]
struct ReplicaWatch {
    wanted: Wanted,
    view_at_start: u64,
    disagreements_at_start: u64,
}

fn begin(world: &dyn WorldRead, wanted: Wanted) -> Box<dyn CheckpointWatch> {
    Box::new(ReplicaWatch {
        wanted,
        view_at_start: replicas(world)
            .map(|replica| replica.view)
            .max()
            .unwrap_or(0),
        disagreements_at_start: world.violation_count(HONEST_AGREEMENT),
    })
}

impl ClonedWatch for ReplicaWatch {
    fn check(&mut self, world: &dyn WorldRead) -> Verdict {
        match self.wanted {
            Wanted::ViewChanged => self.view_changed(world),
            Wanted::HonestReplicasDisagree => self.honest_replicas_disagree(world),
        }
    }
}

impl ReplicaWatch {
    fn honest_replicas_disagree(&self, world: &dyn WorldRead) -> Verdict {
        let count = world.violation_count(HONEST_AGREEMENT);
        match count.saturating_sub(self.disagreements_at_start) {
            0 => Verdict::not_yet(
                "every honest replica committed the same request at each sequence number".into(),
            ),
            _ => Verdict::yes(
                world
                    .latest_violation(HONEST_AGREEMENT)
                    .unwrap_or_else(|| HONEST_AGREEMENT.to_string()),
            ),
        }
    }

    /// Met once an honest, up replica has finished a view change past the views of the step's start.
    fn view_changed(&self, world: &dyn WorldRead) -> Verdict {
        let Some(count) = replicas(world).next().map(|replica| replica.replicas) else {
            return Verdict::not_yet("this world has no PBFT replicas".into());
        };
        let start = self.view_at_start;
        let honest_up = |replica: &&Replica| !replica.is_lying() && world.is_up(replica.id);
        let entered: Vec<&Replica> = replicas(world)
            .filter(honest_up)
            .filter(|replica| replica.view > start && replica.changing_to.is_none())
            .collect();
        if let Some(highest) = entered.iter().map(|replica| replica.view).max() {
            let at_highest = entered.iter().filter(|replica| replica.view == highest);
            let names = names_of(world, at_highest.map(|replica| replica.id));
            return Verdict::yes(format!(
                "{names} moved to view {highest}, whose primary is {} (view {start} when this \
                 step began, primary {})",
                world.label(primary_of(highest, count)),
                world.label(primary_of(start, count))
            ));
        }
        let asking: Vec<&Replica> = replicas(world)
            .filter(honest_up)
            .filter(|replica| replica.changing_to.is_some())
            .collect();
        if asking.is_empty() {
            Verdict::not_yet(format!(
                "the replicas are still in view {start}, with {} as primary",
                world.label(primary_of(start, count))
            ))
        } else {
            Verdict::not_yet(format!(
                "{} asked for a new view; waiting for its primary to start it",
                names_of(world, asking.iter().map(|replica| replica.id))
            ))
        }
    }
}

fn replicas(world: &dyn WorldRead) -> impl Iterator<Item = &Replica> {
    actors_of::<Replica>(world).map(|(_, replica)| replica)
}

fn names_of(world: &dyn WorldRead, nodes: impl Iterator<Item = NodeId>) -> String {
    let names: Vec<String> = nodes.map(|node| world.label(node)).collect();
    match names.as_slice() {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use crate::tooling::lesson::test_support::watch_named;

    const PBFT_FOUR: &str = include_str!("../../../../lessons/scenarios/pbft-four.toml");
    const PBFT_NORMAL: &str = include_str!("../../../scenarios/pbft-normal.toml");
    const MISCONFIGURED: &str = include_str!("../../../scenarios/pbft-misconfigured-three.toml");

    fn liar(at_ms: u64, node: &str, mode: &str) -> String {
        format!("\n[[step]]\nat_ms = {at_ms}\ndo = \"byzantine\"\ntarget = \"{node}\"\nmode = \"{mode}\"\n")
    }

    #[test]
    fn a_silent_primary_is_replaced_and_a_lying_backup_changes_no_view() {
        let silent = format!("{PBFT_FOUR}{}", liar(1_000, "n1", "silent"));
        let (met, why) = watch_named(&silent, "pbft_view_changed", 900, 3_000);
        assert!(met, "{why}");
        assert!(
            why.contains("moved to view 1, whose primary is n2"),
            "{why}"
        );
        let (met, why) = watch_named(PBFT_NORMAL, "pbft_view_changed", 1_000, 4_000);
        assert!(met, "a crashed primary is replaced too: {why}");
        let backup = format!("{PBFT_FOUR}{}", liar(1_000, "n3", "lie"));
        let (met, why) = watch_named(&backup, "pbft_view_changed", 900, 3_000);
        assert!(!met, "{why}");
        assert_eq!(why, "the replicas are still in view 0, with n1 as primary");
    }

    #[test]
    fn a_quorum_too_small_lets_honest_replicas_disagree_and_four_replicas_do_not() {
        let (met, why) = watch_named(MISCONFIGURED, "honest_replicas_disagree", 0, 3_000);
        assert!(met, "{why}");
        assert!(why.contains("at sequence"), "{why}");
        let four = MISCONFIGURED
            .replace("nodes = 3", "nodes = 4")
            .replace("quorum = 2", "quorum = 0");
        assert_ne!(four, MISCONFIGURED);
        let (met, why) = watch_named(&four, "honest_replicas_disagree", 0, 3_000);
        assert!(!met, "{why}");
    }
}
