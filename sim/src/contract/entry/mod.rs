//! What a registry entry says about one world: the plain data the scenario format, the app and the
//! tooling read instead of matching protocol names. Entries are `const`s declared in each protocol's
//! own folder (`protocols/raft/entry.rs`, `protocols/lockservice/entry.rs`, ...);
//! `crate::worlds::registry::ENTRIES` lists them.
//! These types sit low (beside the protocol contract) so a protocol's folder can describe itself
//! without importing the registry that lists it.

pub mod describe;
pub mod invariants;
pub mod options;
pub mod parts;
pub mod sweep;

use crate::contract::config::{ProtocolConfig, ProtocolKind};
pub use options::{OptionKey, OptionSetting, OptionTable, OptionValue};
pub use sweep::{FaultRules, Progress, SweepPlan, SweepVariant};

/// An invariant a world can break: its name (as the checkers report it) and what it promises, in a
/// phrase a learner can hold on to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct InvariantInfo {
    pub name: &'static str,
    pub promise: &'static str,
}

/// Where the client box's raw requests go in this world.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ClientPath {
    /// A plain Raft cluster: reads and writes to the leader (or a chosen node).
    Raft,
    /// The servers run Raft under a coordination service: extra writes land in the same log the
    /// actors' lock operations use, so they are load on the service, sent to its servers only.
    ServiceLog,
    /// Redis-style servers have no log and no leader: there is nothing to send a raw request to.
    None,
}

/// How a partition side is judged able to work: what share of the servers it needs, and the words
/// for "enough".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ServerQuorum {
    /// A strict majority of the servers (a Raft group, or Redlock's independent servers).
    Majority { able: &'static str },
    /// The one server must be on the side.
    Single { able: &'static str },
}

/// What the app may offer and draw in this world.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Capabilities {
    /// The servers run Raft: Raft's five properties apply and the log strips mean something.
    pub runs_raft: bool,
    /// Some server can believe it leads: leader-aimed faults and the leader chip make sense.
    pub elects_leader: bool,
    pub client_path: ClientPath,
    /// The world has the protected resource `store`.
    pub has_store: bool,
    /// The numbers a lock holder carries are fencing tokens (not a Redis-style random value).
    pub tokens_fence: bool,
    pub server_quorum: ServerQuorum,
}

impl Capabilities {
    /// The world's clients read through one of Raft's read paths (`read_path`): plain Raft's
    /// key-value clients. A coordination world's workers take locks and write to a store, and its
    /// client box only adds log writes, so a read path answers nothing there.
    pub fn reads_through_read_path(&self) -> bool {
        self.client_path == ClientPath::Raft
    }
}

/// Digits of a unique hold value kept when it is shown: enough to tell two holds apart at a glance.
const HOLD_VALUE_DIGITS: usize = 4;

/// How the number a lock holder carries reads: "token 34" where tokens fence (their order is the point),
/// "value …7353" where it is a Redis-style unique value (random-looking; its size means nothing, so only
/// its last digits are shown).
pub fn hold_number(tokens_fence: bool, number: u64) -> String {
    if tokens_fence {
        return format!("token {number}");
    }
    let digits = number.to_string();
    match digits.len().checked_sub(HOLD_VALUE_DIGITS) {
        Some(cut) if cut > 0 => format!("value …{}", &digits[cut..]),
        _ => format!("value {digits}"),
    }
}

/// The words a learner reads for this world's actors.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Vocabulary {
    /// The lettered actors `A`, `B`, ...: "worker", "instance", "candidate".
    pub actor: &'static str,
    /// The servers `n1..nN`: "server", "Redis server".
    pub server: &'static str,
    /// One sentence on what drives the load; `{actors}` stands for the lettered actors' names.
    pub load: &'static str,
}

/// One world of the registry. `Build` is how its actors are made: a protocol's folder cannot name the
/// world's closed `Actor` enum (it sits a layer up, see `sim/ENGINE.md` "Layers"), so the folder's
/// `const` leaves it `()` and the registry line fills it in with [`ProtocolEntry::built_by`].
#[derive(Clone, Copy, Debug)]
pub struct ProtocolEntry<Build = ()> {
    pub kind: ProtocolKind,
    /// The `protocol = "…"` name scenario files, share links and the app use.
    pub name: &'static str,
    /// A short title for menus.
    pub title: &'static str,
    /// One line on what the world shows.
    pub summary: &'static str,
    pub capabilities: Capabilities,
    pub vocabulary: Vocabulary,
    /// The invariants the world's own checkers judge; Raft's five come on top where `runs_raft`
    /// (see [`ProtocolEntry::invariants`]).
    pub own_invariants: &'static [InvariantInfo],
    /// Which protocols' describers tell this world's story (see `describe`).
    pub story: describe::Story,
    /// The world as a scenario file that sets none of its options gets it.
    pub defaults: fn() -> ProtocolConfig,
    /// The `[locks]` keys only some worlds may set (`renew_ms`, `fencing`, `unchecked_release`,
    /// `drift_allowance_ms`) that this one does, in the order its export writes them. Every lock world
    /// takes the other `[locks]` keys; plain Raft takes no `[locks]` table at all.
    pub lock_keys: &'static [&'static str],
    /// The world's own tables (`[scheduler]`, ...), declared in its folder.
    pub tables: &'static [OptionTable],
    /// How seed sweeps run the world: its configurations, safe and unsafe (see `sweep`).
    pub sweep: SweepPlan,
    /// The pieces the world's folder owns beyond the protocol: its checker, ... (see `parts`).
    pub parts: &'static dyn parts::WorldParts,
    /// Builds the world's actors in node order (servers, then the lettered actors, then the store).
    pub build_actors: Build,
}

impl ProtocolEntry {
    /// The same entry with its actor builder, for the registry's list.
    pub const fn built_by<Build: Copy>(self, build_actors: Build) -> ProtocolEntry<Build> {
        ProtocolEntry {
            kind: self.kind,
            name: self.name,
            title: self.title,
            summary: self.summary,
            capabilities: self.capabilities,
            vocabulary: self.vocabulary,
            own_invariants: self.own_invariants,
            story: self.story,
            defaults: self.defaults,
            lock_keys: self.lock_keys,
            tables: self.tables,
            sweep: self.sweep,
            parts: self.parts,
            build_actors,
        }
    }
}

impl<Build> ProtocolEntry<Build> {
    /// Every invariant the world's checkers judge, in the order a learner should read them: Raft's
    /// five safety properties first where the servers run Raft, then the world's own.
    pub fn invariants(&self) -> impl Iterator<Item = &'static InvariantInfo> {
        let raft: &'static [InvariantInfo] = if self.capabilities.runs_raft {
            &invariants::RAFT_CORE
        } else {
            &[]
        };
        raft.iter().chain(self.own_invariants)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fencing_tokens_read_whole_and_unique_values_shortened() {
        assert_eq!(hold_number(true, 34), "token 34");
        assert_eq!(hold_number(false, 4_294_967_353), "value …7353");
        assert_eq!(hold_number(false, 57), "value 57");
    }
}
