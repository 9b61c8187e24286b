//! The body of a link as plain data: the link's own types, not the engine's, so renaming or
//! reshaping an engine type can never change what a link means. v4 links are these types encoded by
//! postcard (see the module above for the layout); v1–v3 links are read into them too (`legacy`), so
//! every version reaches the engine through one conversion, `body_convert`.
//!
//! postcard writes fields in declaration order and enum variants by their position, so the order of
//! every field and variant here IS the v4 format: never reorder, rename freely, and add only at the
//! end of an enum (a new field needs a new version).

use super::bounded::{Bounded, Limit};
use serde::{Deserialize, Serialize};

/// One run as a link carries it. Times of steps and actions are differences from the one before,
/// which keeps them small and makes "times go backwards" unrepresentable.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LinkBody {
    pub title: String,
    pub protocol: LinkProtocol,
    pub nodes: u64,
    pub seed: u64,
    pub duration_ms: u64,
    pub timing: LinkTiming,
    pub options: LinkRaftOptions,
    pub steps: Bounded<LinkStep, StepsLimit>,
    pub actions: Bounded<LinkRecordedAction, ActionsLimit>,
    pub position_us: u64,
    pub lesson: Option<LinkLesson>,
}

/// What runs on the servers: plain Raft or one coordination workload beside them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum LinkProtocol {
    Raft,
    LockService(LinkLockOptions),
    RedisLock(LinkLockOptions),
    Redlock(LinkLockOptions),
    Scheduler {
        locks: LinkLockOptions,
        mode: LinkSchedulerMode,
        minute_ms: u64,
    },
    Zookeeper {
        locks: LinkLockOptions,
        recipe: LinkZookeeperRecipe,
    },
    WorkQueue {
        locks: LinkLockOptions,
        partitioned: bool,
        accounts: u32,
    },
    /// Added after `WorkQueue` (postcard numbers variants by position: older links keep decoding).
    Paxos {
        locks: LinkLockOptions,
        remedy: LinkPaxosRemedy,
        durable_acceptors: bool,
        round_timeout_ms: u64,
        backoff_ms: u64,
        stagger_ms: u64,
    },
    /// Added after `Paxos` (postcard numbers variants by position: older links keep decoding).
    Pbft {
        locks: LinkLockOptions,
        quorum: u32,
        request_interval_ms: u64,
        view_timeout_ms: u64,
    },
    /// Added after `Pbft` (postcard numbers variants by position: older links keep decoding): the
    /// lock service with Consul's lock-delay above zero. A run without one is still written as
    /// `LockService`, byte for byte as before the option existed.
    LockServiceWithDelay {
        locks: LinkLockOptions,
        lock_delay_ms: u64,
    },
    /// Added after `LockServiceWithDelay` (postcard numbers variants by position: older links keep
    /// decoding): the single Redis lock whose workers retry an unanswered `SET NX`. A run without
    /// retries is still written as `RedisLock`, byte for byte as before the option existed.
    RedisLockWithRetries {
        locks: LinkLockOptions,
        set_nx_retries: u32,
    },
    /// Added after `RedisLockWithRetries` (postcard numbers variants by position: older links keep
    /// decoding): Paxos with learner actors `L1..`. A run without them is still written as `Paxos`,
    /// byte for byte as before the option existed.
    PaxosWithLearners {
        paxos: LinkPaxos,
        learners: u32,
    },
    /// Added after `PaxosWithLearners` (postcard numbers variants by position: older links keep
    /// decoding): a world by its registry name, with its options as named keys. Written only for a
    /// run no variant above can hold (a world or an option added since), so every run those could
    /// carry keeps its old bytes; a new world or option then needs no new variant (see `registered`).
    Registered(LinkWorld),
}

/// A world as `LinkProtocol::Registered` carries it: its `protocol = "…"` name, its `[locks]` options
/// (none for a world without actors that take locks), and each of its keys that differs from the
/// world's default, named as a scenario file's error would name it (`paxos.learners`), in the order
/// the world's tables list them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LinkWorld {
    pub name: String,
    pub locks: Option<LinkLockOptions>,
    pub keys: Bounded<LinkOption, OptionsLimit>,
}

/// One key of a world's table and its value.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LinkOption {
    pub key: String,
    pub value: LinkSetting,
}

/// A key's value: the three kinds a world's table knows (`OptionValue`). Variant order is the format.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum LinkSetting {
    Flag(bool),
    Unsigned(u64),
    Choice(String),
}

/// Paxos's settings as `LinkProtocol::Paxos` carries them, as one value for the later variant.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LinkPaxos {
    pub locks: LinkLockOptions,
    pub remedy: LinkPaxosRemedy,
    pub durable_acceptors: bool,
    pub round_timeout_ms: u64,
    pub backoff_ms: u64,
    pub stagger_ms: u64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum LinkPaxosRemedy {
    None,
    Backoff,
    Leader,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LinkTiming {
    pub election_timeout_min_ms: u64,
    pub election_timeout_max_ms: u64,
    pub heartbeat_ms: u64,
    pub network_delay_min_ms: u64,
    pub network_delay_max_ms: u64,
    pub drop_ppm: u32,
    pub duplicate_ppm: u32,
    pub client_timeout_ms: u64,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LinkRaftOptions {
    pub pre_vote: bool,
    pub check_quorum: bool,
    /// Written where v4 links first wrote a yes/no `lease_reads`: postcard spells `false` and `true`
    /// as the bytes 0 and 1, exactly as it spells this enum's first two variants, so every earlier
    /// link reads as before; only a run reading by read index or from followers writes 2 or 3.
    pub read_path: LinkReadPath,
}

/// How reads are answered. Variant order is the format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum LinkReadPath {
    /// Through the log (the old `lease_reads = false`).
    Log,
    /// On the leader's lease (the old `lease_reads = true`).
    Lease,
    ReadIndex,
    Follower,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LinkLockOptions {
    pub workers: u64,
    pub lease_ttl_ms: u64,
    pub renew_ms: u64,
    pub think_ms: u64,
    pub work_ms: u64,
    pub op_timeout_ms: u64,
    pub initial_count: u64,
    pub drift_allowance_ms: u64,
    pub fencing: bool,
    pub check_lease_before_write: bool,
    /// Written where v4 links first wrote a yes/no `idempotency_key`: postcard spells `false` and
    /// `true` as the bytes 0 and 1, exactly as it spells this enum's first two variants, so every
    /// earlier link reads as before; only a run keyed by batch writes the new code 2.
    pub idempotency: LinkIdempotency,
    pub unchecked_release: bool,
}

/// Whether retries carry an idempotency key, and what it names. Variant order is the format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum LinkIdempotency {
    /// No key (the old `idempotency_key = false`).
    Off,
    /// The key is the message id (the old `idempotency_key = true`).
    PerMessage,
    /// The key names the batch (`idempotency_scope = "batch"`).
    PerBatch,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum LinkSchedulerMode {
    None,
    LockEveryRun,
    LeaderElection,
    LeaderFencing,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum LinkZookeeperRecipe {
    Herd,
    Sequential,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LinkStep {
    pub since_previous_ms: u64,
    pub action: LinkAction,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LinkRecordedAction {
    pub since_previous_us: u64,
    pub events_since_previous: u64,
    pub action: LinkAction,
}

/// A node by its zero-based index (shown to people as `n1`..), or whichever node leads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum LinkTarget {
    Leader,
    Node(u16),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum LinkRequestKind {
    Put,
    Get,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum LinkAction {
    Crash {
        target: LinkTarget,
    },
    Restart {
        target: LinkTarget,
    },
    Pause {
        target: LinkTarget,
        duration_ms: Option<u64>,
    },
    Resume {
        target: LinkTarget,
    },
    Partition {
        groups: Bounded<Bounded<u16, GroupSizeLimit>, GroupsLimit>,
    },
    Isolate {
        target: LinkTarget,
    },
    Cut {
        from: LinkTarget,
        to: LinkTarget,
        both: bool,
    },
    Heal,
    DropRate {
        ppm: u32,
    },
    ClockJump {
        target: LinkTarget,
        by_ms: i64,
    },
    ClockDrift {
        target: LinkTarget,
        ppm: i64,
    },
    Request {
        count: u32,
        target: LinkTarget,
        kind: LinkRequestKind,
    },
    SetLink {
        between: (u16, u16),
        settings: LinkLinkSettings,
    },
    ClearLink {
        between: Option<(u16, u16)>,
    },
    Regions {
        groups: Bounded<Bounded<u16, GroupSizeLimit>, GroupsLimit>,
    },
    DropMessage {
        message: u64,
        from: u16,
        to: u16,
    },
    HoldMessage {
        message: u64,
        from: u16,
        to: u16,
        by_ms: u64,
    },
    /// Added after `HoldMessage` (postcard numbers variants by position: older links keep decoding).
    Byzantine {
        target: LinkTarget,
        mode: LinkByzantineMode,
    },
    /// Added after `Byzantine` (postcard numbers variants by position: older links keep decoding).
    AddServer {
        id: Option<u16>,
    },
    RemoveServer {
        target: LinkTarget,
    },
    /// Added after `RemoveServer` (postcard numbers variants by position: older links keep decoding).
    MalformedWrite {
        target: LinkTarget,
        fault: LinkMalformedFault,
    },
    /// Added after `MalformedWrite` (postcard numbers variants by position: older links keep decoding).
    SlowDisk {
        target: LinkTarget,
        persist_ms: Option<(u64, u64)>,
    },
    /// Added after `SlowDisk` (postcard numbers variants by position: older links keep decoding).
    DuplicateMessage {
        message: u64,
        from: u16,
        to: u16,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum LinkMalformedFault {
    MissingToken,
    TokenTooLarge,
    NegativeCount,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum LinkByzantineMode {
    Honest,
    Equivocate,
    Lie,
    Silent,
    /// Added after `Silent` (postcard numbers variants by position: older links keep decoding).
    Selective,
}

/// One link's own settings; `None` follows the run's timing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LinkLinkSettings {
    pub delay_ms: Option<(u64, u64)>,
    pub drop_ppm: Option<u32>,
    pub duplicate_ppm: Option<u32>,
}

/// Where in a lesson the sharer was: the lesson, the open step (0-based) and when it began.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LinkLesson {
    pub id: String,
    pub step: u64,
    pub step_began_us: u64,
}

/// The limits a link's lists are read under: the same ones validation applies afterwards, so a list
/// refused here could never have passed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StepsLimit;
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ActionsLimit;
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GroupsLimit;
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GroupSizeLimit;
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionsLimit;

impl Limit for StepsLimit {
    const FIELD: &'static str = "steps";
    const MAX: usize = quorumlab_sim::scenario::MAX_STEPS;
}

impl Limit for ActionsLimit {
    const FIELD: &'static str = "recorded actions";
    const MAX: usize = super::validate::MAX_SHARED_ACTIONS;
}

impl Limit for GroupsLimit {
    const FIELD: &'static str = "partition groups";
    const MAX: usize = quorumlab_sim::ids::MAX_NODES;
}

impl Limit for GroupSizeLimit {
    const FIELD: &'static str = "partition group size";
    const MAX: usize = quorumlab_sim::ids::MAX_NODES;
}

impl Limit for OptionsLimit {
    const FIELD: &'static str = "world options";
    /// Far more keys than any world's tables hold: a longer list can only be forged.
    const MAX: usize = 64;
}
