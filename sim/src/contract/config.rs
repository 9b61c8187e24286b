//! Settings a scenario chooses for a run. Plain data with documented defaults (see `sim/SCENARIOS.md`).

use crate::base::ids::MAX_NODES;
use serde::{Deserialize, Serialize};

pub use super::lock_options::{IdempotencyScope, LockServiceOptions, MAX_SET_NX_RETRIES};
pub use super::read_path::ReadPath;

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Timing {
    /// Election timeout drawn uniformly (from the world's PRNG) in this inclusive range, local-clock ms.
    pub election_timeout_ms: (u64, u64),
    pub heartbeat_ms: u64,
    /// One-way network delay drawn uniformly in this inclusive range, ms.
    pub network_delay_ms: (u64, u64),
    /// Initial drop ratio for every link, parts per million.
    pub drop_ppm: u32,
    /// Duplicate ratio for every link, parts per million.
    pub duplicate_ppm: u32,
    /// How long a client waits for an answer before calling the outcome unknown, ms.
    pub client_timeout_ms: u64,
    /// How long one disk write takes on every node, drawn uniformly in this inclusive range, ms: a
    /// node's messages sent after it persisted (a vote, a term, log entries) leave when the write is
    /// done. `[0, 0]` (the default) is a disk that writes at once, and draws nothing.
    #[serde(default, skip_serializing_if = "writes_at_once")]
    pub persist_ms: (u64, u64),
    /// How late, at most, a node's timer fires after it is due, drawn uniformly per timer, local µs:
    /// a process is never scheduled at the exact instant, which is what breaks the symmetry of
    /// identical election timeouts on real machines. 0 (the default) fires timers exactly and draws
    /// nothing.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub timer_jitter_us: u64,
}

/// Largest `[timing] timer_jitter_us`: 100 ms, far above any scheduler's lateness.
pub const MAX_TIMER_JITTER_US: u64 = 100_000;

fn is_zero(value: &u64) -> bool {
    *value == 0
}

/// Longest disk write a node may be given (`[timing] persist_ms`, a `slow_disk` step): ten seconds,
/// as for a link's own delay, so a learner's slowest disk still lets the run move.
pub const MAX_PERSIST_MS: u64 = 10_000;

/// A world without disk latency writes no `persist_ms` key, so its serialized timing reads as before.
fn writes_at_once(persist_ms: &(u64, u64)) -> bool {
    *persist_ms == (0, 0)
}

impl Default for Timing {
    fn default() -> Self {
        Timing {
            election_timeout_ms: (150, 300),
            heartbeat_ms: 50,
            network_delay_ms: (5, 15),
            drop_ppm: 0,
            duplicate_ppm: 0,
            client_timeout_ms: 1_000,
            persist_ms: (0, 0),
            timer_jitter_us: 0,
        }
    }
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct RaftOptions {
    pub pre_vote: bool,
    pub check_quorum: bool,
    /// How a read is answered (`read_path.rs`): through the log, by read index, on the leader's lease
    /// (the old `lease_reads = true`), or by any server from its own copy.
    #[serde(default)]
    pub read_path: ReadPath,
    /// TEST ONLY, deliberately broken: commit entries of earlier terms by counting replicas (the Raft
    /// paper's Figure 8 bug) and skip the start-of-term no-op that would hide it. Checkers must catch it.
    #[doc(hidden)]
    #[serde(default)]
    pub unsafe_commit_previous_term: bool,
    /// How a server joins or leaves: through the log (safe) or by editing every node's configuration
    /// directly (unsafe on purpose: the checkers must catch it).
    #[serde(default)]
    pub membership: MembershipMode,
}

impl RaftOptions {
    /// The leader answers reads on its lease (the old `lease_reads = true`).
    pub fn lease_reads(&self) -> bool {
        self.read_path == ReadPath::Lease
    }
}

/// How `add-server` and `remove-server` change who votes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MembershipMode {
    /// A learner catches up, then the leader commits one configuration entry per change (Ongaro's
    /// dissertation, section 4.1).
    #[default]
    Log,
    /// UNSAFE on purpose: every server's configuration is rewritten by hand, one server after another,
    /// with no log entry; for a while the servers disagree on who votes.
    Direct,
}

impl MembershipMode {
    pub const NAMES: &'static [&'static str] = &["log", "direct"];

    pub fn name(self) -> &'static str {
        match self {
            MembershipMode::Log => "log",
            MembershipMode::Direct => "direct",
        }
    }

    pub fn from_name(name: &str) -> Option<MembershipMode> {
        [MembershipMode::Log, MembershipMode::Direct]
            .into_iter()
            .find(|mode| mode.name() == name)
    }
}

/// Which world a run builds, with that world's own options: the first choice of every scenario and
/// every `WorldConfig`. Its [`ProtocolKind`] is the key into the registry (`crate::worlds::registry`), which
/// knows each world's name, layout, invariants and capabilities.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ProtocolConfig {
    /// A plain Raft cluster `n1..nN` serving a key/value client.
    Raft,
    /// An etcd-like lock service (the servers run Raft and a lock state machine), workers `A`, `B`, ...
    /// and the protected resource `store`.
    LockService(LockServiceOptions),
    /// One Redis-style key-value server (`n1`) with `SET NX PX` locks, workers and the `store`.
    RedisLock(LockServiceOptions),
    /// Redlock: `nodes` independent Redis-style servers, majority acquisition, workers and the `store`.
    Redlock(LockServiceOptions),
    /// The invoice scheduler: instances `A`, `B`, `C`, ... each simulated minute decide whether to
    /// generate that minute's invoices, coordinating through the lock service on `n1..nN` (or not at
    /// all), and write them to the invoice store `store`. The lock options give `workers` (instances),
    /// `lease_ttl_ms`, `renew_ms` and `op_timeout_ms`.
    Scheduler(LockServiceOptions, SchedulerOptions),
    /// ZooKeeper-style leader election on the coordination service `n1..nN`: candidates `A`, `B`, ...
    /// (`workers`), sessions with timeout `lease_ttl_ms` pinged every `renew_ms`. No store.
    Zookeeper(LockServiceOptions, ZkRecipe),
    /// Avoiding coordination: workers process jobs keyed by account, read-modify-writing the account's
    /// balance at `store`, either each owning a partition of the accounts (no lock) or all under one
    /// global lock from the lock service on `n1..nN`.
    WorkQueue(LockServiceOptions, QueueOptions),
    /// Single-decree Paxos: acceptors `n1..nN`, proposers `A`, `B`, ... (`workers`) that also learn.
    /// Only the lock options' `workers` means anything here. No store.
    Paxos(LockServiceOptions, PaxosOptions),
    /// PBFT: replicas `n1..nN` (n = 3f + 1 tolerates f that lie), clients `A`, `B`, ... (`workers`)
    /// sending requests. Only the lock options' `workers` means anything here. No store.
    Pbft(LockServiceOptions, PbftOptions),
    /// Two-phase commit: the coordinator `n1` and participants `A`, `B`, ... (`workers`). Only the lock
    /// options' `workers` means anything here. No store. Last, so the others keep their positions.
    TwoPhaseCommit(LockServiceOptions, TwoPhaseOptions),
}

/// Two-phase commit's own options (`[two_phase_commit]`; limits and defaults explained in
/// `protocols/two_phase_commit/options.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct TwoPhaseOptions {
    /// How likely a participant is to vote no on a transaction, parts per million.
    pub vote_no_ppm: u32,
    /// How often a participant in doubt asks the coordinator (and the coordinator re-asks for votes).
    pub ask_ms: u64,
    /// Transactions the coordinator runs, one after another.
    pub transactions: u64,
    /// TEST ONLY, deliberately broken: the coordinator tells the first participant its decision and
    /// the others the opposite, so the Atomicity checker must fire. No scenario key sets it.
    #[doc(hidden)]
    #[serde(default)]
    pub unsafe_split_decision: bool,
}

impl Default for TwoPhaseOptions {
    fn default() -> Self {
        TwoPhaseOptions {
            vote_no_ppm: 0,
            ask_ms: 200,
            transactions: 3,
            unsafe_split_decision: false,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct PbftOptions {
    /// Matching messages a replica needs to prepare and to commit; 0 means 2f + 1 with f = (n - 1) / 3.
    /// Anything smaller than 2f + 1 is UNSAFE on purpose (two quorums may share no honest replica).
    pub quorum: u32,
    /// A client sends its next request this long after the last one was answered.
    pub request_interval_ms: u64,
    /// A replica waiting this long for a request to execute suspects the primary and asks for a new
    /// view (doubling with each view change in a row); a client resends after the same time.
    pub view_timeout_ms: u64,
}

impl Default for PbftOptions {
    fn default() -> Self {
        PbftOptions {
            quorum: 0,
            request_interval_ms: 200,
            view_timeout_ms: 300,
        }
    }
}

/// What a Paxos proposer does after a rival pre-empts its ballot.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PaxosRemedy {
    /// Try again at once with a higher ballot: two proposers can pre-empt each other for ever.
    None,
    /// Wait a random time in a window that doubles with each pre-emption, then try again.
    Backoff,
    /// Proposer `A` is distinguished; the others stand back and step in only after a long silence.
    Leader,
}

impl PaxosRemedy {
    pub const NAMES: &'static [&'static str] = &["none", "backoff", "leader"];

    pub fn name(self) -> &'static str {
        match self {
            PaxosRemedy::None => "none",
            PaxosRemedy::Backoff => "backoff",
            PaxosRemedy::Leader => "leader",
        }
    }

    pub fn from_name(name: &str) -> Option<PaxosRemedy> {
        [PaxosRemedy::None, PaxosRemedy::Backoff, PaxosRemedy::Leader]
            .into_iter()
            .find(|remedy| remedy.name() == name)
    }
}

/// Most learner actors a Paxos world may have: enough to cut one off and watch the others, few enough
/// to read beside seven acceptors and the proposers. (Here beside the options, so that the layout check
/// reads it without naming the Paxos folder.)
pub const MAX_LEARNERS: u64 = 5;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct PaxosOptions {
    pub remedy: PaxosRemedy,
    /// Acceptors keep their promise and accepted value across a crash. `false` is UNSAFE on purpose:
    /// a restarted acceptor forgets both, and two different values can be chosen.
    pub durable_acceptors: bool,
    /// How long a proposer waits for a majority of answers before it gives a ballot up.
    pub round_timeout_ms: u64,
    /// The back-off window after the first pre-emption (doubling with each one after); with the
    /// distinguished-proposer remedy, how long the others stand back.
    pub backoff_ms: u64,
    /// Proposer `A` starts at once, `B` this much later, `C` twice as late, ...
    pub stagger_ms: u64,
    /// Learner actors `L1..` beside the proposers, which acceptors also tell what they accept. 0 keeps
    /// the proposers as the only learners (and every run as it was before learners existed).
    #[serde(default, skip_serializing_if = "no_learners")]
    pub learners: usize,
}

/// A world without learner actors writes no `learners` key, so its serialized options read as before.
fn no_learners(learners: &usize) -> bool {
    *learners == 0
}

impl Default for PaxosOptions {
    fn default() -> Self {
        PaxosOptions {
            remedy: PaxosRemedy::Backoff,
            durable_acceptors: true,
            round_timeout_ms: 100,
            backoff_ms: 40,
            stagger_ms: 5,
            learners: 0,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct QueueOptions {
    /// Workers own disjoint partitions of the accounts and take no lock; otherwise one global lock.
    pub partitioned: bool,
    /// Accounts the jobs are keyed by (1 to 10 000).
    pub accounts: u32,
}

impl Default for QueueOptions {
    fn default() -> Self {
        QueueOptions {
            partitioned: true,
            accounts: 64,
        }
    }
}

/// Which election recipe the candidates follow.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ZkRecipe {
    /// Everyone races for `/election/leader` and watches it.
    Herd,
    /// Ephemeral sequential znodes; each watches its predecessor.
    Sequential,
}

/// How the scheduler instances avoid generating a minute's invoices twice.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SchedulerMode {
    /// Every instance generates every minute: duplicates.
    None,
    /// Every run takes the lock, checks whether the minute is done, generates if not, releases.
    LockEveryRun,
    /// One instance holds a long-lived lease (leadership) and generates alone.
    LeaderElection,
    /// Leader election, and the invoice store fences writes with the leader's token.
    LeaderFencing,
}

impl SchedulerMode {
    pub const NAMES: &'static [&'static str] = &[
        "none",
        "lock-every-run",
        "leader-election",
        "leader-fencing",
    ];

    pub fn name(self) -> &'static str {
        match self {
            SchedulerMode::None => "none",
            SchedulerMode::LockEveryRun => "lock-every-run",
            SchedulerMode::LeaderElection => "leader-election",
            SchedulerMode::LeaderFencing => "leader-fencing",
        }
    }

    pub fn from_name(name: &str) -> Option<SchedulerMode> {
        [
            SchedulerMode::None,
            SchedulerMode::LockEveryRun,
            SchedulerMode::LeaderElection,
            SchedulerMode::LeaderFencing,
        ]
        .into_iter()
        .find(|mode| mode.name() == name)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct SchedulerOptions {
    pub mode: SchedulerMode,
    /// Length of one scheduler "minute" on each instance's clock (60 000 = a real minute).
    pub minute_ms: u64,
}

impl Default for SchedulerOptions {
    fn default() -> Self {
        SchedulerOptions {
            mode: SchedulerMode::LeaderFencing,
            minute_ms: 60_000,
        }
    }
}

/// The registry's key: which world, without its options.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum ProtocolKind {
    Raft,
    LockService,
    RedisLock,
    Redlock,
    Scheduler,
    Zookeeper,
    WorkQueue,
    Paxos,
    Pbft,
    TwoPhaseCommit,
}

/// A world with no options of its own: the plain Raft cluster a scenario is unless it names another,
/// and the world a view without coordination actors shows.
impl Default for ProtocolConfig {
    fn default() -> Self {
        ProtocolConfig::Raft
    }
}

impl ProtocolConfig {
    pub fn kind(&self) -> ProtocolKind {
        match self {
            ProtocolConfig::Raft => ProtocolKind::Raft,
            ProtocolConfig::LockService(_) => ProtocolKind::LockService,
            ProtocolConfig::RedisLock(_) => ProtocolKind::RedisLock,
            ProtocolConfig::Redlock(_) => ProtocolKind::Redlock,
            ProtocolConfig::Scheduler(..) => ProtocolKind::Scheduler,
            ProtocolConfig::Zookeeper(..) => ProtocolKind::Zookeeper,
            ProtocolConfig::WorkQueue(..) => ProtocolKind::WorkQueue,
            ProtocolConfig::Paxos(..) => ProtocolKind::Paxos,
            ProtocolConfig::Pbft(..) => ProtocolKind::Pbft,
            ProtocolConfig::TwoPhaseCommit(..) => ProtocolKind::TwoPhaseCommit,
        }
    }

    /// The lock options every coordination world shares (`None` for plain Raft).
    pub fn lock_options(&self) -> Option<&LockServiceOptions> {
        match self {
            ProtocolConfig::Raft => None,
            ProtocolConfig::LockService(options)
            | ProtocolConfig::RedisLock(options)
            | ProtocolConfig::Redlock(options)
            | ProtocolConfig::Scheduler(options, _)
            | ProtocolConfig::Zookeeper(options, _)
            | ProtocolConfig::WorkQueue(options, _)
            | ProtocolConfig::Paxos(options, _)
            | ProtocolConfig::Pbft(options, _)
            | ProtocolConfig::TwoPhaseCommit(options, _) => Some(options),
        }
    }

    pub fn lock_options_mut(&mut self) -> Option<&mut LockServiceOptions> {
        match self {
            ProtocolConfig::Raft => None,
            ProtocolConfig::LockService(options)
            | ProtocolConfig::RedisLock(options)
            | ProtocolConfig::Redlock(options)
            | ProtocolConfig::Scheduler(options, _)
            | ProtocolConfig::Zookeeper(options, _)
            | ProtocolConfig::WorkQueue(options, _)
            | ProtocolConfig::Paxos(options, _)
            | ProtocolConfig::Pbft(options, _)
            | ProtocolConfig::TwoPhaseCommit(options, _) => Some(options),
        }
    }

    /// Whether the world runs actors beside its servers (every world but plain Raft).
    pub fn is_coordination(&self) -> bool {
        self.lock_options().is_some()
    }

    // The accessors below let builders and views outside a world's folder read its options
    // without naming its variant: only this file and the registry may (`sim/tests/protocol_names.rs`).

    /// The invoice scheduler's lock and scheduling options (`None` for any other world).
    pub fn scheduler(&self) -> Option<(&LockServiceOptions, &SchedulerOptions)> {
        match self {
            ProtocolConfig::Scheduler(options, scheduler) => Some((options, scheduler)),
            _ => None,
        }
    }

    /// ZooKeeper's session options and election recipe (`None` for any other world).
    pub fn zookeeper(&self) -> Option<(&LockServiceOptions, &ZkRecipe)> {
        match self {
            ProtocolConfig::Zookeeper(options, recipe) => Some((options, recipe)),
            _ => None,
        }
    }

    /// The work queue's lock and queue options (`None` for any other world).
    pub fn work_queue(&self) -> Option<(&LockServiceOptions, &QueueOptions)> {
        match self {
            ProtocolConfig::WorkQueue(options, queue) => Some((options, queue)),
            _ => None,
        }
    }

    /// [`ProtocolConfig::work_queue`], to change: the queue comparison runs both layouts.
    pub fn work_queue_mut(&mut self) -> Option<(&mut LockServiceOptions, &mut QueueOptions)> {
        match self {
            ProtocolConfig::WorkQueue(options, queue) => Some((options, queue)),
            _ => None,
        }
    }

    /// PBFT's own options (`None` for any other world).
    pub fn pbft(&self) -> Option<&PbftOptions> {
        match self {
            ProtocolConfig::Pbft(_, options) => Some(options),
            _ => None,
        }
    }
}

/// Longest timing value accepted (one hour), so microsecond arithmetic never overflows.
pub const MAX_DURATION_MS: u64 = 3_600_000;

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct WorldConfig {
    pub protocol: ProtocolConfig,
    /// Every actor of the world (servers first); a scenario's `nodes` counts the servers only.
    pub node_count: usize,
    pub seed: u64,
    pub timing: Timing,
    pub raft: RaftOptions,
}

impl WorldConfig {
    pub fn raft(node_count: usize, seed: u64) -> WorldConfig {
        WorldConfig {
            protocol: ProtocolConfig::Raft,
            node_count,
            seed,
            timing: Timing::default(),
            raft: RaftOptions::default(),
        }
    }

    pub fn validate(&self) -> Result<(), String> {
        let timing = &self.timing;
        if self.node_count == 0 || self.node_count > MAX_NODES {
            return Err(format!(
                "node count {} is outside 1..={MAX_NODES}",
                self.node_count
            ));
        }
        if timing.election_timeout_ms.0 == 0
            || timing.election_timeout_ms.0 > timing.election_timeout_ms.1
        {
            return Err(format!(
                "election_timeout_ms [{}, {}] must be a non-empty range above zero",
                timing.election_timeout_ms.0, timing.election_timeout_ms.1
            ));
        }
        if timing.network_delay_ms.0 > timing.network_delay_ms.1 {
            return Err(format!(
                "network_delay_ms [{}, {}] has min above max",
                timing.network_delay_ms.0, timing.network_delay_ms.1
            ));
        }
        let longest_ms = [
            timing.election_timeout_ms.1,
            timing.network_delay_ms.1,
            timing.heartbeat_ms,
            timing.client_timeout_ms,
        ];
        if longest_ms.iter().any(|ms| *ms > MAX_DURATION_MS) {
            return Err(format!(
                "timing values must be at most {MAX_DURATION_MS} ms"
            ));
        }
        if timing.persist_ms.0 > timing.persist_ms.1 || timing.persist_ms.1 > MAX_PERSIST_MS {
            return Err(format!(
                "persist_ms [{}, {}] must be an ordered range of at most {MAX_PERSIST_MS} ms",
                timing.persist_ms.0, timing.persist_ms.1
            ));
        }
        if timing.timer_jitter_us > MAX_TIMER_JITTER_US {
            return Err(format!(
                "timer_jitter_us {} must be at most {MAX_TIMER_JITTER_US}",
                timing.timer_jitter_us
            ));
        }
        if timing.heartbeat_ms == 0 {
            return Err("heartbeat_ms must be above zero".to_string());
        }
        if timing.client_timeout_ms == 0 {
            return Err("client_timeout_ms must be above zero".to_string());
        }
        if timing.drop_ppm > crate::contract::action::PPM_ONE
            || timing.duplicate_ppm > crate::contract::action::PPM_ONE
        {
            return Err("drop and duplicate ratios must be at most 1_000_000 ppm".to_string());
        }
        Ok(())
    }
}
