//! How a Raft cluster answers a client's read: the one choice behind four textbook read paths.
//!
//! A write must go through the log; a read need not, and each shortcut buys speed with an assumption:
//! - **log** (the default): the read is appended like a write and answered when applied. It costs a
//!   replication round and a disk write, and needs nothing else: always linearizable.
//! - **read index** (Ongaro's dissertation, §6.4): the leader notes its commit index, confirms with one
//!   heartbeat round to a majority that it still leads, waits until its state machine has applied that
//!   index, then answers. No append, no disk write; still linearizable, whatever the clocks do.
//! - **lease** (§6.4.1): the leader answers at once while a lease, measured on its own clock from the
//!   last heartbeat a majority acknowledged, holds. Linearizable only while clocks drift less than the
//!   lease assumes: a slow clock keeps a deposed leader's lease alive.
//! - **follower**: whichever server the client asks answers from its own state. Fast and spread over
//!   every server, and stale by design: a lagging or cut-off server answers what it last applied.
//!
//! Scenario files spelled the lease path `lease_reads = true` before the other paths existed; that
//! spelling still reads as the lease path, and the hash below keeps the explorer's digest of a run that
//! uses either old spelling exactly as it was.

use serde::{Deserialize, Serialize};

/// Which read path a Raft world's servers take (see the module essay).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ReadPath {
    #[default]
    Log,
    Lease,
    ReadIndex,
    Follower,
}

impl ReadPath {
    /// Every path, in the order the settings and the sweep list them.
    pub const ALL: [ReadPath; 4] = [
        ReadPath::Log,
        ReadPath::ReadIndex,
        ReadPath::Lease,
        ReadPath::Follower,
    ];
    pub const NAMES: &'static [&'static str] = &["log", "read_index", "lease", "follower"];

    /// The scenario file's spelling (`[raft] read_path = "…"`).
    pub fn name(self) -> &'static str {
        match self {
            ReadPath::Log => "log",
            ReadPath::ReadIndex => "read_index",
            ReadPath::Lease => "lease",
            ReadPath::Follower => "follower",
        }
    }

    pub fn from_name(name: &str) -> Option<ReadPath> {
        ReadPath::ALL.into_iter().find(|path| path.name() == name)
    }

    /// A few words a learner reads in the settings and in a comparison.
    pub fn label(self) -> &'static str {
        match self {
            ReadPath::Log => "through the log",
            ReadPath::ReadIndex => "read index (leader checks it still leads)",
            ReadPath::Lease => "leader lease (trusts its clock)",
            ReadPath::Follower => "any server, from its own copy",
        }
    }

    /// Whether this path promises linearizable reads whatever the clocks do.
    pub fn safe_under_any_clock(self) -> bool {
        matches!(self, ReadPath::Log | ReadPath::ReadIndex)
    }
}

// By hand: the log and lease paths hash as the `lease_reads` flag they replace hashed (false, true),
// so an existing run's explorer digests do not move.
impl std::hash::Hash for ReadPath {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        let code: u8 = match self {
            ReadPath::Log => 0,
            ReadPath::Lease => 1,
            ReadPath::ReadIndex => 2,
            ReadPath::Follower => 3,
        };
        state.write_u8(code);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::hash::{Hash, Hasher};

    fn hashed(value: impl Hash) -> u64 {
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        value.hash(&mut hasher);
        hasher.finish()
    }

    #[test]
    fn names_read_back_and_the_old_flag_s_hash_is_kept() {
        for path in ReadPath::ALL {
            assert_eq!(ReadPath::from_name(path.name()), Some(path));
        }
        assert_eq!(ReadPath::from_name("lease_reads"), None);
        assert_eq!(hashed(ReadPath::Log), hashed(false));
        assert_eq!(hashed(ReadPath::Lease), hashed(true));
        assert_ne!(hashed(ReadPath::ReadIndex), hashed(ReadPath::Follower));
    }
}
