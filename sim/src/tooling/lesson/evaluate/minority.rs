//! Commits while some servers are gone: the majority side moves on, the rest cannot.
//!
//! Three checkpoints, each asking for a different loss, because each lesson step teaches a different
//! one and a lone cut-off server would otherwise tick them all:
//! - `minority_cannot_commit`: some up server is cut off from a majority, and the majority side commits
//!   entries it lacks.
//! - `split_minority_cannot_commit`: the same, but the cut-off side is a real side of a split, two or
//!   more running servers that still reach each other (n1 and n2 of a 2 | 3 split), not one isolated
//!   server. The pair is healthy and talking, and still cannot commit: that is the point.
//! - `committed_with_servers_gone(n)`: at least `n` servers are gone at once (down, paused or cut off,
//!   in any mix), and the servers left still commit: five servers ride out two failures.
//!
//! Each compares commit indexes with a baseline taken when the loss was first seen (the highest index
//! any server had then), so a follower that was merely one heartbeat behind when the loss came does not
//! count as "could not commit", and entries committed before the loss do not count as committed without
//! the gone servers.

use super::reach::{highest_commit, labels, reached_from, Reach};
use super::{counted, Verdict};
use crate::base::ids::NodeId;
use crate::base::units::LogIndex;
use crate::engine::world::World;

/// The baselines, each taken when its loss was first seen and cleared when the loss ends.
#[derive(Clone, Debug, Default)]
pub(super) struct MinorityWatch {
    commit_when_cut_off: Option<LogIndex>,
    commit_when_split: Option<LogIndex>,
    commit_when_gone: Option<LogIndex>,
}

impl MinorityWatch {
    /// Met when some up server cannot reach a majority and the majority side has committed past the
    /// highest index any server had when the split was first seen: new writes went through on one side
    /// only.
    pub(super) fn minority_cannot_commit(&mut self, world: &World) -> Verdict {
        let reach = Reach::of(world);
        if reach.cut_off.is_empty() {
            self.commit_when_cut_off = None;
            return Verdict::not_yet("every up server can reach a majority".into());
        }
        let baseline = *self
            .commit_when_cut_off
            .get_or_insert_with(|| highest_commit(world, &up(&reach)));
        side_verdict(world, &reach, &reach.cut_off, baseline, "")
    }

    /// Met like [`MinorityWatch::minority_cannot_commit`], but only for a cut-off side of two or more
    /// servers that reach each other.
    pub(super) fn split_minority_cannot_commit(&mut self, world: &World) -> Verdict {
        let reach = Reach::of(world);
        let Some(side) = largest_cut_off_side(world, &reach) else {
            self.commit_when_split = None;
            return Verdict::not_yet(match reach.cut_off.as_slice() {
                [] => "every up server can reach a majority".into(),
                [alone] => format!(
                    "{} is cut off on its own; this step wants a split whose smaller side has two \
                     or more servers that still reach each other",
                    world.node_label(*alone)
                ),
                _ => format!(
                    "{} are cut off, but each one alone; this step wants two or more of them still \
                     reaching each other on the smaller side",
                    labels(world, &reach.cut_off)
                ),
            });
        };
        let baseline = *self
            .commit_when_split
            .get_or_insert_with(|| highest_commit(world, &up(&reach)));
        side_verdict(world, &reach, &side, baseline, "reach each other but ")
    }

    /// Met when at least `wanted` servers are gone at once and the servers left, a majority, committed
    /// past the highest index any server had when that many were first gone.
    pub(super) fn committed_with_servers_gone(&mut self, world: &World, wanted: u64) -> Verdict {
        let reach = Reach::of(world);
        let gone = reach.gone();
        if (gone.len() as u64) < wanted {
            self.commit_when_gone = None;
            let so_far = if gone.is_empty() {
                "no server is gone".to_string()
            } else {
                format!("only {}", reach.describe_gone(world))
            };
            return Verdict::not_yet(format!(
                "{so_far}; this step wants {} of {} gone at once (down, paused or cut off)",
                wanted, reach.count
            ));
        }
        let all: Vec<NodeId> = super::servers(world).take(reach.count).collect();
        let baseline = *self
            .commit_when_gone
            .get_or_insert_with(|| highest_commit(world, &all));
        if reach.quorum_lost() {
            return Verdict::not_yet(format!(
                "more are gone than {} servers ride out: {}, so nothing can commit",
                reach.count,
                reach.lost_quorum_story(world)
            ));
        }
        let what = reach.describe_gone(world);
        let left = labels(world, &reach.majority_side);
        let commit = highest_commit(world, &reach.majority_side);
        if commit > baseline {
            Verdict::yes(format!(
                "{what}, yet {left} ({} of {}, a majority) committed up to index {commit}: {} \
                 servers ride out {}",
                reach.majority_side.len(),
                reach.count,
                reach.count,
                counted(((reach.count - 1) / 2) as u64, "failure", "failures")
            ))
        } else {
            Verdict::not_yet(format!(
                "{what}; {left} are left: send writes so they commit past index {baseline}"
            ))
        }
    }
}

fn up(reach: &Reach) -> Vec<NodeId> {
    let mut up: Vec<NodeId> = reach
        .majority_side
        .iter()
        .chain(&reach.cut_off)
        .copied()
        .collect();
    up.sort_unstable();
    up
}

/// The biggest group of cut-off servers that reach each other, if it has two or more.
fn largest_cut_off_side(world: &World, reach: &Reach) -> Option<Vec<NodeId>> {
    reach
        .cut_off
        .iter()
        .map(|node| reached_from(world, &reach.cut_off, *node))
        .filter(|side| side.len() >= 2)
        .max_by_key(Vec::len)
}

/// Met when `side` stays at or below `baseline` while the majority side commits past it.
fn side_verdict(
    world: &World,
    reach: &Reach,
    side: &[NodeId],
    baseline: LogIndex,
    verb: &str,
) -> Verdict {
    if reach.quorum_lost() {
        return Verdict::not_yet(format!(
            "no group of up servers reaches a majority ({} of {})",
            reach.majority, reach.count
        ));
    }
    let names = labels(world, side);
    let (side_commit, majority_commit) = (
        highest_commit(world, side),
        highest_commit(world, &reach.majority_side),
    );
    if majority_commit > baseline && side_commit <= baseline {
        Verdict::yes(format!(
            "{names} {verb}cannot reach a majority and stay at commit index {side_commit}, while \
             the majority side has committed up to {majority_commit}"
        ))
    } else {
        Verdict::not_yet(format!(
            "{names} are cut off from a majority; send writes so the majority side commits past \
             index {baseline}"
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::{
        explanation_when_met, explanation_when_never_met, watch_until_met, with_step,
    };
    use crate::tooling::lesson::Checkpoint;

    const LOG: &str = include_str!("../../../../../lessons/scenarios/log-five.toml");
    const QUORUM: &str = include_str!("../../../../../lessons/scenarios/quorum-five.toml");

    fn then_writes(text: &str, at_ms: u64) -> String {
        with_step(text, at_ms, "\"request\"\ncount = 3")
    }

    /// Lesson 2 step 2: n5 crashed and n3 cut off, and the three left still commit.
    #[test]
    fn three_of_five_commit_with_two_gone() {
        let text = with_step(LOG, 1_100, "\"crash\"\ntarget = \"n5\"");
        let text = then_writes(
            &with_step(&text, 1_100, "\"isolate\"\ntarget = \"n3\""),
            1_400,
        );
        let explanation =
            explanation_when_met(&text, Checkpoint::CommittedWithServersGone(2), 1_000, 4_000);
        assert!(
            explanation.starts_with("n3 is cut off and n5 is crashed, yet"),
            "{}",
            explanation
        );
    }

    /// The look-alike of the issue: one server cut off ticks `minority_cannot_commit`, not "two gone".
    #[test]
    fn one_server_cut_off_is_not_two_gone() {
        let text = then_writes(
            &with_step(LOG, 1_100, "\"isolate\"\ntarget = \"n3\""),
            1_400,
        );
        let (plain, _) = watch_until_met(&text, Checkpoint::MinorityCannotCommit, 1_000, 4_000);
        assert!(plain.is_some(), "the look-alike ticks the plain checkpoint");
        let explanation = explanation_when_never_met(
            &text,
            Checkpoint::CommittedWithServersGone(2),
            1_000,
            4_000,
        );
        assert!(
            explanation.starts_with("only n3 is cut off"),
            "{}",
            explanation
        );
    }

    /// Three gone is more than five servers ride out: nothing commits, and it is not met either.
    #[test]
    fn three_gone_commit_nothing() {
        let mut text = LOG.to_string();
        for node in ["n3", "n4", "n5"] {
            text = with_step(&text, 1_100, &format!("\"crash\"\ntarget = \"{node}\""));
        }
        let explanation = explanation_when_never_met(
            &then_writes(&text, 1_400),
            Checkpoint::CommittedWithServersGone(2),
            1_000,
            4_000,
        );
        assert!(
            explanation.contains("nothing can commit"),
            "{}",
            explanation
        );
    }

    /// Lesson 7 step 1: the 2 | 3 split; n1 and n2 still talk to each other and cannot commit.
    #[test]
    fn the_smaller_side_of_a_split_cannot_commit() {
        let split = "\"partition\"\ngroups = [[\"n1\", \"n2\"], [\"n3\", \"n4\", \"n5\"]]";
        let text = then_writes(&with_step(QUORUM, 1_100, split), 1_900);
        let explanation =
            explanation_when_met(&text, Checkpoint::SplitMinorityCannotCommit, 1_000, 4_000);
        assert!(
            explanation.starts_with("n1, n2 reach each other but cannot reach a majority"),
            "{}",
            explanation
        );
    }

    /// One isolated server is a minority, but not the side of a split the step asks for.
    #[test]
    fn one_isolated_server_is_not_a_split() {
        let text = then_writes(
            &with_step(QUORUM, 1_100, "\"isolate\"\ntarget = \"n1\""),
            1_900,
        );
        let (plain, _) = watch_until_met(&text, Checkpoint::MinorityCannotCommit, 1_000, 4_000);
        assert!(plain.is_some(), "the look-alike ticks the plain checkpoint");
        let explanation =
            explanation_when_never_met(&text, Checkpoint::SplitMinorityCannotCommit, 1_000, 4_000);
        assert!(
            explanation.starts_with("n1 is cut off on its own"),
            "{}",
            explanation
        );
    }
}
