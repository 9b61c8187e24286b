//! The options compare mode can set differently on its two sides, each a named flip of one scenario
//! setting (fencing on and off, Redlock instead of the fenced lock service, and so on). A variation
//! that does not apply to a scenario's world is refused with a sentence saying so. Raft's switches are
//! read here; every world's own options are read and flipped by its folder (`WorldParts::variations`).

use crate::contract::config::{ProtocolConfig, ReadPath};
use crate::contract::entry::parts::{on_off, VariationHook};
use crate::tooling::scenario::Scenario;
use crate::worlds::registry::ENTRIES;

/// One option that differs between the two sides.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Variation {
    /// The store's fencing check, on or off (the lock service and the work queue).
    Fencing,
    /// The fenced lock service, or Redlock on the same number of servers.
    Redlock,
    /// ZooKeeper election: every candidate watching one znode (herd), or each its predecessor.
    ZkRecipe,
    /// Raft's PreVote round, on or off.
    PreVote,
    /// Raft's CheckQuorum (a leader that hears no majority steps down), on or off.
    CheckQuorum,
    /// Raft leader lease reads, on or off (off: reads through the log).
    LeaseReads,
    /// The scheduler taking the lock every run, or keeping a long-lived leader.
    SchedulerLeader,
    /// The work queue partitioned by account, or every job under one global lock.
    QueuePartitioned,
    /// The lock service's Consul-style lock-delay, on or off (the other side's delay:
    /// `lockservice::variations::lock_delay_flipped_ms`).
    LockDelay,
    /// Raft read-index reads, on or off (off: reads through the log): "it would be linearizable if the
    /// leader checked it still leads" is this flip away from a stale lease read.
    ReadIndex,
    /// Raft reads answered by any server from its own copy, on or off (off: through the log).
    FollowerReads,
}

impl Variation {
    /// Every variation, in the order the picker lists them (new ones go at the end).
    pub const ALL: &'static [Variation] = &[
        Variation::Fencing,
        Variation::Redlock,
        Variation::ZkRecipe,
        Variation::PreVote,
        Variation::CheckQuorum,
        Variation::LeaseReads,
        Variation::SchedulerLeader,
        Variation::QueuePartitioned,
        Variation::LockDelay,
        Variation::ReadIndex,
        Variation::FollowerReads,
    ];

    /// The spelling in lesson links and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Variation::Fencing => "fencing",
            Variation::Redlock => "redlock",
            Variation::ZkRecipe => "zk-recipe",
            Variation::PreVote => "pre-vote",
            Variation::CheckQuorum => "check-quorum",
            Variation::LeaseReads => "lease-reads",
            Variation::SchedulerLeader => "scheduler-leader",
            Variation::QueuePartitioned => "queue-partitioned",
            Variation::LockDelay => "lock-delay",
            Variation::ReadIndex => "read-index",
            Variation::FollowerReads => "follower-reads",
        }
    }

    pub fn by_name(name: &str) -> Option<Variation> {
        Variation::ALL
            .iter()
            .copied()
            .find(|variation| variation.name() == name)
    }

    /// What this option is set to in `scenario`, in words ("fencing on"), or `None` where the
    /// scenario's world has no such option.
    pub fn value(self, scenario: &Scenario) -> Option<String> {
        // Raft's own switches apply to a plain Raft cluster (the lock worlds' Raft is the service's).
        let raft_inside = !scenario.protocol.is_coordination();
        match self {
            Variation::PreVote if raft_inside => Some(on_off("PreVote", scenario.raft.pre_vote)),
            Variation::CheckQuorum if raft_inside => {
                Some(on_off("CheckQuorum", scenario.raft.check_quorum))
            }
            Variation::LeaseReads | Variation::ReadIndex | Variation::FollowerReads
                if raft_inside =>
            {
                let (words, path) = self.read_path()?;
                Some(on_off(words, scenario.raft.read_path == path))
            }
            _ => (self.hook(&scenario.protocol)?.value)(&scenario.protocol),
        }
    }

    /// For a read-path variation, its words and the path it turns on (off is the log).
    fn read_path(self) -> Option<(&'static str, ReadPath)> {
        match self {
            Variation::LeaseReads => Some(("lease reads", ReadPath::Lease)),
            Variation::ReadIndex => Some(("read-index reads", ReadPath::ReadIndex)),
            Variation::FollowerReads => Some(("follower reads", ReadPath::Follower)),
            _ => None,
        }
    }

    /// The world folder's hook for this option where `protocol`'s world has it.
    fn hook(self, protocol: &ProtocolConfig) -> Option<&'static VariationHook> {
        ENTRIES
            .iter()
            .flat_map(|entry| entry.parts.variations())
            .find(|hook| hook.name == self.name() && (hook.value)(protocol).is_some())
    }

    /// When the two sides of a comparison on this option part, and what to watch for meanwhile.
    pub fn watch_for(self) -> &'static str {
        match self {
            Variation::Fencing => {
                "the runs part when a paused holder wakes and writes with its old token"
            }
            Variation::Redlock => {
                "the runs part when a holder's lease runs out while it is paused or a server's clock jumps"
            }
            Variation::ZkRecipe => {
                "the runs part when the leader goes: count the watch notifications each side sends"
            }
            Variation::PreVote => {
                "the runs part when a cut-off node comes back: with PreVote its higher term does not depose the leader"
            }
            Variation::CheckQuorum => {
                "the runs part when the leader is cut off from a majority: with CheckQuorum it steps down"
            }
            Variation::LeaseReads => {
                "the runs part when a read is served while the leader's clock is off"
            }
            Variation::SchedulerLeader => {
                "the runs part in the messages: the lock taken every run costs a round trip per invoice"
            }
            Variation::QueuePartitioned => {
                "the runs part when a worker pauses or the lock service is lost: watch who keeps working"
            }
            Variation::LockDelay => {
                "the runs part when a paused holder's lease runs out: with lock-delay the lock goes to no one for a while"
            }
            Variation::ReadIndex => {
                "the runs part at a read: with read index the leader first hears from a majority, so a cut-off leader cannot answer"
            }
            Variation::FollowerReads => {
                "the runs part at a read sent to a follower: it answers from its own copy, which may lag"
            }
        }
    }

    /// `scenario` with this option flipped; refused where the world has no such option, or where the
    /// result breaks the scenario format's rules.
    pub fn apply(self, scenario: &Scenario) -> Result<Scenario, String> {
        if self.value(scenario).is_none() {
            return Err(format!(
                "\"{}\" cannot be compared in a {} run",
                self.name(),
                scenario.protocol_name()
            ));
        }
        let mut varied = scenario.clone();
        match self {
            Variation::PreVote => varied.raft.pre_vote = !varied.raft.pre_vote,
            Variation::CheckQuorum => varied.raft.check_quorum = !varied.raft.check_quorum,
            Variation::LeaseReads | Variation::ReadIndex | Variation::FollowerReads => {
                if let Some((_, path)) = self.read_path() {
                    let read_path = &mut varied.raft.read_path;
                    *read_path = if *read_path == path {
                        ReadPath::Log
                    } else {
                        path
                    };
                }
            }
            _ => {
                if let Some(hook) = self.hook(&varied.protocol) {
                    (hook.flip)(&mut varied.protocol);
                }
            }
        }
        varied.validate().map_err(|invalid| {
            format!(
                "with \"{}\" changed the run is not valid: {invalid}",
                self.name()
            )
        })?;
        Ok(varied)
    }
}

/// `base` with every one of `variations` flipped (the right side of a comparison).
pub fn vary(base: &Scenario, variations: &[Variation]) -> Result<Scenario, String> {
    if variations.is_empty() {
        return Err("a comparison needs at least one option that differs".into());
    }
    variations
        .iter()
        .try_fold(base.clone(), |scenario, variation| {
            variation.apply(&scenario)
        })
}

/// What to watch for while two sides still agree: the hint of each named option they set differently.
pub fn watch_for(left: &Scenario, right: &Scenario) -> Option<String> {
    let hints: Vec<&str> = Variation::ALL
        .iter()
        .filter(
            |variation| match (variation.value(left), variation.value(right)) {
                // As in `side_labels`: an option only one side has is told by the one that differs.
                (Some(left_value), Some(right_value)) => left_value != right_value,
                _ => false,
            },
        )
        .map(|variation| variation.watch_for())
        .collect();
    (!hints.is_empty()).then(|| hints.join("; "))
}

/// Each side's settings of the options that differ between them, in words ("fencing on" and
/// "fencing off"); "same settings" when none of the named options differ.
pub fn side_labels(left: &Scenario, right: &Scenario) -> (String, String) {
    let (mut left_words, mut right_words) = (Vec::new(), Vec::new());
    for variation in Variation::ALL {
        // An option only one side has (fencing beside Redlock) is told by the one that differs.
        if let (Some(left_value), Some(right_value)) =
            (variation.value(left), variation.value(right))
        {
            if left_value != right_value {
                left_words.push(left_value);
                right_words.push(right_value);
            }
        }
    }
    if left_words.is_empty() && right_words.is_empty() {
        return ("same settings".into(), "same settings".into());
    }
    (left_words.join(", "), right_words.join(", "))
}
