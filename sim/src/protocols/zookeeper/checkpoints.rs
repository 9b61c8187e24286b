//! The ZooKeeper-style election's lesson checkpoints: candidates told of a change by their watches
//! (all at once in the herd recipe, one at a time in the sequential one), and the election changing
//! hands. Both count from the step's start: notifications by their total then, the leader by the
//! candidate (and its session) leading then.

use super::{CandidatePhase, ZkCandidate};
use crate::base::ids::NodeId;
use crate::contract::checkpoint::{
    counted, Argument, CheckpointSpec, CheckpointWatch, ClonedWatch, Verdict,
};
use crate::contract::world_read::{actors_of, WorldRead};

/// The checkpoints, in the order lesson hints offer them.
pub const CHECKPOINTS: &[CheckpointSpec] = &[
    CheckpointSpec {
        name: "notifications_at_least",
        argument: Argument::Number,
        begin: |wanted, world| begin(world, Wanted::NotificationsAtLeast(wanted)),
    },
    CheckpointSpec {
        name: "zk_leader_changed",
        argument: Argument::None,
        begin: |_, world| begin(world, Wanted::LeaderChanged),
    },
];

#[derive(Clone, Copy, Debug, Hash)]
enum Wanted {
    NotificationsAtLeast(u64),
    LeaderChanged,
}

/// The notifications received and the leading candidate when the step began.
#[derive(Clone, Debug, Hash)]
struct ElectionWatch {
    wanted: Wanted,
    notifications_at_start: u64,
    /// The candidate (node, session) leading when the step began, or the first one seen after that.
    start_candidate: Option<(NodeId, u64)>,
}

fn begin(world: &dyn WorldRead, wanted: Wanted) -> Box<dyn CheckpointWatch> {
    Box::new(ElectionWatch {
        wanted,
        notifications_at_start: notifications_received(world),
        start_candidate: leading_candidate(world).or_else(|| paused_believer(world)),
    })
}

impl ClonedWatch for ElectionWatch {
    fn check(&mut self, world: &dyn WorldRead) -> Verdict {
        if candidates(world).next().is_none() {
            return Verdict::not_yet("this world has no election candidates".into());
        }
        match self.wanted {
            Wanted::NotificationsAtLeast(wanted) => self.notifications_at_least(world, wanted),
            Wanted::LeaderChanged => self.leader_changed(world),
        }
    }
}

impl ElectionWatch {
    fn notifications_at_least(&self, world: &dyn WorldRead, wanted: u64) -> Verdict {
        let received = notifications_received(world).saturating_sub(self.notifications_at_start);
        let text = format!(
            "candidates received {} in this step",
            counted(received, "watch notification", "watch notifications")
        );
        if received >= wanted {
            Verdict::yes(text)
        } else {
            Verdict::not_yet(format!("{text} (waiting for {wanted})"))
        }
    }

    fn leader_changed(&mut self, world: &dyn WorldRead) -> Verdict {
        let leading = leading_candidate(world);
        if self.start_candidate.is_none() {
            self.start_candidate = leading.or_else(|| paused_believer(world));
        }
        match (self.start_candidate, leading) {
            (None, _) => Verdict::not_yet("no candidate has led yet".into()),
            (Some(_), None) => Verdict::not_yet("no running candidate leads at the moment".into()),
            (Some((old, old_session)), Some((new, session)))
                if (old, old_session) != (new, session) =>
            {
                Verdict::yes(format!(
                    "{} leads with session {session}; {} led with session {old_session}",
                    world.label(new),
                    world.label(old)
                ))
            }
            (Some(_), Some((same, session))) => Verdict::not_yet(format!(
                "{} still leads with session {session}",
                world.label(same)
            )),
        }
    }
}

fn candidates(world: &dyn WorldRead) -> impl Iterator<Item = (NodeId, &ZkCandidate)> {
    actors_of::<ZkCandidate>(world)
}

/// Crashes keep a candidate's tally, so this only ever grows.
fn notifications_received(world: &dyn WorldRead) -> u64 {
    candidates(world)
        .map(|(_, candidate)| candidate.notifications)
        .sum()
}

/// The running candidate that believes it leads, with its session. A paused one still believes it, but
/// cannot act on it, so it does not count until it runs again (and then it checks its session first).
fn leading_candidate(world: &dyn WorldRead) -> Option<(NodeId, u64)> {
    candidates(world)
        .filter(|(node, _)| world.is_up(*node))
        .filter(|(_, candidate)| candidate.phase == CandidatePhase::Leading)
        .find_map(|(node, candidate)| Some((node, candidate.session?)))
}

/// A paused candidate that still believes it leads. It is the leader a step starts from when the
/// learner (or a scripted solution) froze it before any running candidate was seen leading.
fn paused_believer(world: &dyn WorldRead) -> Option<(NodeId, u64)> {
    candidates(world)
        .filter(|(node, _)| world.is_paused(*node))
        .filter(|(_, candidate)| candidate.phase == CandidatePhase::Leading)
        .find_map(|(node, candidate)| Some((node, candidate.session?)))
}

#[cfg(test)]
mod tests {
    use crate::tooling::lesson::test_support::{watch_named, watch_named_until};

    const HERD: &str = "protocol = \"zookeeper\"\nnodes = 3\nduration_ms = 4000\n\
        [locks]\nworkers = 5\nlease_ttl_ms = 800\nrenew_ms = 200\n[zookeeper]\nrecipe = \"herd\"\n";

    fn step(at_ms: u64, action: &str) -> String {
        format!("[[step]]\nat_ms = {at_ms}\n{action}\n")
    }

    #[test]
    fn the_herd_is_told_all_at_once_and_the_sequential_line_one_at_a_time() {
        let crash = step(1100, "do = \"crash\"\ntarget = \"A\"");
        let herd = format!("{HERD}{crash}");
        let (met, why) = watch_named(&herd, "notifications_at_least(4)", 1000, 4000);
        assert!(met, "{why}");
        let sequential = herd.replace("\"herd\"", "\"sequential\"");
        let (met, why) = watch_named(&sequential, "notifications_at_least(2)", 1000, 4000);
        assert!(!met);
        assert!(why.starts_with("candidates received 1 watch"), "{why}");
        let (met, why) = watch_named(HERD, "notifications_at_least(1)", 1000, 4000);
        assert!(!met, "{why}");
        // Notifications from before the step began do not count.
        let (met, why) = watch_named(&herd, "notifications_at_least(1)", 3000, 4000);
        assert!(!met, "{why}");
    }

    #[test]
    fn the_election_changes_hands_after_a_crash_or_a_long_pause_only() {
        let crash = format!("{HERD}{}", step(1100, "do = \"crash\"\ntarget = \"A\""));
        let (met_at, verdict) = watch_named_until(&crash, "zk_leader_changed", 1000, 4000);
        assert!(verdict.satisfied, "{}", verdict.explanation);
        assert!(
            verdict.explanation.contains("A led with session"),
            "{}",
            verdict.explanation
        );
        // The session outlives the crash by its timeout: no change before A's session ends.
        assert!(met_at.unwrap() > 1100 + 500, "{met_at:?}");
        let (_, why) = watch_named(HERD, "zk_leader_changed", 1000, 4000);
        assert_eq!(why, "A still leads with session 2");
        // A pause shorter than the session changes nothing; a longer one hands the role on, even when
        // the step begins after the leader froze.
        let short = format!(
            "{HERD}{}",
            step(1100, "do = \"pause\"\ntarget = \"A\"\nduration_ms = 300")
        );
        assert!(!watch_named(&short, "zk_leader_changed", 1000, 4000).0);
        let long = format!(
            "{HERD}{}",
            step(1100, "do = \"pause\"\ntarget = \"A\"\nduration_ms = 2000")
        );
        assert!(watch_named(&long, "zk_leader_changed", 1200, 4000).0);
    }

    #[test]
    fn a_world_without_candidates_says_so() {
        let raft = "protocol = \"raft\"\nnodes = 3\nduration_ms = 600\n";
        for name in ["notifications_at_least(1)", "zk_leader_changed"] {
            let (met, why) = watch_named(raft, name, 0, 600);
            assert!(!met);
            assert_eq!(why, "this world has no election candidates");
        }
    }
}
