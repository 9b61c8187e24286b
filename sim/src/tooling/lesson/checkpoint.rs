//! Checkpoints: the closed set of conditions a lesson step can wait for, and their text syntax.
//!
//! A checkpoint is written as a name, optionally with one argument in parentheses:
//! `leader_changed`, `term_at_least(3)`, `node_crashed(n2)`, `node_paused(A)`. The set is closed on purpose:
//! each one is something the engine can answer exactly from a live world, so a lesson can never ask for a
//! condition the simulation cannot check. The conditions any world can meet are listed here (their
//! syntax in `checkpoint/common.rs`) and evaluated in `evaluate.rs`; a condition only one world can
//! meet is declared in that world's folder (`protocols/<world>/checkpoints.rs`) and found through the
//! registry, so parsing one is a walk over the common table and then every entry's.

mod common;

use crate::base::ids::NodeId;
use crate::contract::action::NodeTarget;
use crate::contract::checkpoint::{Argument, CheckpointSpec};
use crate::tooling::scenario::errors::shown;
use crate::tooling::scenario::fields::NodeNames;
use crate::tooling::suggest::did_you_mean;
use crate::worlds::registry::ENTRIES;
use common::{Form, COMMON};
use std::fmt;

/// Where a lesson's author finds every checkpoint, each with what meets it.
const CHECKPOINTS_LISTED_IN: &str = "sim/src/tooling/lesson/checkpoint.rs";

/// A condition on the live simulation. `NodeTarget::Leader` in a checkpoint means the node that led
/// when the step began.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Checkpoint {
    /// A leader is known whose (node, term) differs from the one known when the step began.
    LeaderChanged,
    /// Some node has reached this term.
    TermAtLeast(u64),
    /// No node has led (up, believing it leads) for this long without a break.
    NoLeaderForMs(u64),
    /// Some server is cut off from a majority, and the majority side has committed entries that the
    /// cut-off servers have not.
    MinorityCannotCommit,
    NodeCrashed(NodeTarget),
    /// The named node is paused; with no argument, any node is.
    NodePaused(Option<NodeTarget>),
    /// At least one link is cut (a partition, an isolation or a one-way cut).
    Partitioned,
    /// The node that led when the step began is up and no longer believes it leads.
    LeaderSteppedDown,
    /// Some node's commit index has reached this value.
    CommitIndexAtLeast(u64),
    /// The protected store refused an access for a stale fencing token since the step began.
    ResourceRejectedStaleToken,
    /// At this moment at least two lock clients each believe they hold the lock.
    TwoClientsBelieveTheyHoldLock,
    /// The invoice store recorded some minute twice.
    DuplicateInvoice,
    /// Workers finished this many jobs, counted from the step's start, while some worker was paused.
    JobsDoneWhilePaused(u64),
    /// Workers finished this many jobs, counted from the step's start, while no server led.
    JobsDoneWithoutLeader(u64),
    /// Since the step began the store recognised a repeated write by its idempotency key and
    /// acknowledged it without applying it again.
    DuplicateWriteIgnored,
    /// A scheduler minute under way when the step began, or later, ended with no invoice.
    MissedInvoice,
    /// The named server was down, paused or cut off while entries it lacks were committed, and now
    /// holds every committed entry again.
    NodeCaughtUp(NodeTarget),
    /// A client read answered with state older than a write acknowledged before the read began
    /// (a Linearizable Reads violation) since the step began.
    StaleRead,
    /// A lock client deleted a key another client held (a Release By Owner violation) since the step
    /// began.
    LockReleasedByWrongOwner,
    /// The protected store's count stopped matching the jobs written to it (a No Lost Updates
    /// violation) since the step began.
    LostUpdate,
    /// Since the step began the store recognised, by its idempotency key, a write repeated under a
    /// newer token than the one it applied it with: a batch redone after its first write had landed.
    BatchRedoRecognised,
    /// After the lock service's leader changed (a later term than when the step began), a worker was
    /// granted a token above every token seen before the change.
    TokensGrewAfterFailover,
    /// The protected store refused a *write* for a stale fencing token since the step began (a refused
    /// read does not count: it is the late write that fencing exists to stop).
    StaleWriteRefused,
    /// After a stretch with no leader since the step began, a leader is up and the cluster has
    /// committed past the highest index committed while it had none.
    QuorumRegained,
    /// Since the step began a client write was acknowledged this many ms or more after it was sent.
    WriteAcknowledgedAfterMs(u64),
    /// Since the step began a client request came back refused, or unknown (its timeout ran out).
    WriteRefusedOrUnknown,
    /// A lock holder paused for at least one renewal interval, less than its lease, kept its token
    /// and finished its job with nothing refused at the store.
    LeaseKeptThroughPause,
    /// A lock holder crashed, restarted holding nothing and asked the service for the lock again.
    CrashedHolderAskedAgain,
    /// A worker's `SET NX` was applied but its reply never came, and its timeout ran out.
    LockReplyLost,
    /// At least this many workers waited in the lock's queue at once.
    LockQueueAtLeast(u64),
    /// A worker's `SET NX` went unanswered, it asked again, and the answer named its own value: the
    /// first attempt had landed, and the worker holds the lock.
    LockFoundAlreadyHeld,
    /// Two servers claimed leadership of one term (an Election Safety violation) since the step began.
    TwoLeadersInOneTerm,
    /// Servers committed different commands at one log index (a State Machine Safety violation) since
    /// the step began.
    AppliedCommandsDiverged,
    /// At least this many client requests committed since the step began (Raft acknowledgements,
    /// PBFT results taken); the verdict counts the messages sent meanwhile, by kind.
    RequestsCommittedAtLeast(u64),
    /// At least this many client requests committed while some node lied or equivocated (a silent one
    /// does not count), counted from the step's start; the verdict counts the messages of those stretches and says whether honest replicas agree.
    RequestsCommittedWhileLying(u64),
    /// Every grant since the step began carried a token strictly above the grant before it (none
    /// issued twice, none lower), and at least one of them came after the lock service's leader
    /// changed (a later term than when the step began).
    TokensRoseAcrossFailover,
    /// Raft: a server outside the configuration of the step's start is now counted by the leader
    /// through a committed configuration entry, and counts itself (it joined as a voter).
    ServerJoinedAsVoter,
    /// Raft: the server that led when the step began is out of the current leader's configuration,
    /// and another server leads.
    LeaderRemovedAndReplaced,
    /// Since the step began lock-delay held a lock back after its holder's lease expired, and the
    /// first grant after the delay came with no worker paused and no two holders overlapping.
    LockHeldBackByDelay,
    /// Since the step began lock-delay held a lock back, and Mutual Exclusion broke all the same.
    OverlapDespiteDelay,
    /// Raft: since the step began, a term had two or more candidates and no winner (the vote split),
    /// and a later term elected a leader.
    SplitVote,
    /// Since the step began the cluster committed, then a single server went down, left no majority
    /// for longer than any election timeout, and the writes sent since got nowhere (a cluster of one).
    NoFaultTolerance,
    /// The named worker (any worker when `None`) crashed while it held the lock.
    LockHolderCrashed(Option<NodeTarget>),
    /// Raft: the leader went down while it held a lease (lease reads on), and no server led for at
    /// least this many ms, until another won a later term.
    LeaseFailoverGapMs(u64),
    /// Raft: the leader, still running, heard from no majority for a whole election timeout and
    /// stepped down by itself (CheckQuorum): its lease could not be renewed. Removal, a pause or a
    /// later term do not count.
    LeaseRenewalFailed,
    /// Raft: the step's leader was paused, another server won a later term meanwhile, and the old
    /// leader woke and sent heartbeats or entries as leader of its old term before it stepped down.
    WokenLeaderActedOnOldTerm,
    /// A worker seen paused while it believed it held the lock still does, frozen, while another worker
    /// believes it holds the lock with a higher token.
    LockGrantedWhileHolderPaused,
    /// The store refused a write carrying the token a worker held when it was seen paused: the late
    /// write of a holder frozen past its lease.
    PausedHolderWriteRefused,
    /// At least this many servers are gone at once (down, paused or cut off from a majority), and the
    /// servers left committed past what was committed when that many were first gone.
    CommittedWithServersGone(u64),
    /// Like `MinorityCannotCommit`, but the cut-off side has two or more servers that still reach
    /// each other (a side of a split, not one isolated server).
    SplitMinorityCannotCommit,
    /// No server has led for this long, and for all that time no up server could reach a majority.
    NoLeaderWithoutQuorumForMs(u64),
    /// Since the step began a request came back refused or unknown from a server that could not reach
    /// a majority (or found no leader because no server could).
    WriteRefusedOrUnknownWithoutQuorum,
    /// Raft: the leader of the step's start crashed and another server won a later term.
    CrashedLeaderReplaced,
    /// Raft: a write waited at a leader cut off from a majority while the other side elected a newer
    /// leader, and came back unknown.
    StrandedLeaderWriteUnknown,
    /// Raft: a server lost, to a newer leader's repair, uncommitted entries of a term it had led.
    OldLeaderEntriesOverwritten,
    /// A worker's request for the lock service's lock went unanswered until its timeout, and it asked
    /// again.
    LockRequestTimedOut,
    /// Since the step began the store refused a write as malformed (a field missing or unreadable),
    /// and its count and highest token seen were the same after the refusal as before it.
    MalformedRequestRejected,
    /// What the clients saw fits no order (checked as the history panel checks it), and the op no
    /// order can place was invoked since the step began.
    HistoryRefused,
    /// A client op invoked since the step began ended unknown, and the whole history still fits one
    /// order: an unknown outcome is no error.
    UnknownOutcomeLinearizable,
    /// A checkpoint only one world can meet, declared in that world's folder
    /// (`protocols/<world>/checkpoints.rs`) and listed by its registry entry's parts.
    World(WorldCheckpoint),
}

/// One of a world's own checkpoints with its number (0 when it takes none).
#[derive(Clone, Copy)]
pub struct WorldCheckpoint {
    pub spec: &'static CheckpointSpec,
    pub argument: u64,
}

// The same checkpoint is the same name with the same number (the spec's functions are no part of it).
impl PartialEq for WorldCheckpoint {
    fn eq(&self, other: &WorldCheckpoint) -> bool {
        (self.spec.name, self.argument) == (other.spec.name, other.argument)
    }
}

impl Eq for WorldCheckpoint {}

impl fmt::Debug for WorldCheckpoint {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.spec.argument {
            Argument::None => formatter.write_str(self.spec.name),
            Argument::Number => write!(formatter, "{}({})", self.spec.name, self.argument),
        }
    }
}

/// Why a checkpoint string does not parse; `at` is the 1-based character where the problem starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckpointError {
    pub at: usize,
    pub message: String,
}

impl fmt::Display for CheckpointError {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(formatter, "at character {}: {}", self.at, self.message)
    }
}

/// Every checkpoint name, in the spelling used in lesson files: the common ones, then each world's in
/// registry order.
pub fn checkpoint_names() -> impl Iterator<Item = &'static str> {
    let common = COMMON.iter().map(|(name, _)| *name);
    common.chain(world_specs().map(|spec| spec.name))
}

fn world_specs() -> impl Iterator<Item = &'static CheckpointSpec> {
    ENTRIES.iter().flat_map(|entry| entry.parts.checkpoints())
}

/// A checkpoint as written: its name, and its argument with the byte where the argument starts.
struct Written<'t> {
    text: &'t str,
    /// Where the name starts (after leading blanks).
    start: usize,
    name: &'t str,
    argument: Option<(&'t str, usize)>,
}

/// Parses `text` such as `term_at_least(3)`; node names are checked against `names`.
pub(crate) fn parse_checkpoint(
    text: &str,
    names: &NodeNames,
) -> Result<Checkpoint, CheckpointError> {
    let written = Written::split(text)?;
    if let Some((_, form)) = COMMON.iter().find(|(name, _)| *name == written.name) {
        return written.common(form, names);
    }
    if let Some(spec) = world_specs().find(|spec| spec.name == written.name) {
        let argument = match spec.argument {
            Argument::None => written.no_argument().map(|()| 0)?,
            Argument::Number => number(text, written.needs("a number")?)?,
        };
        return Ok(Checkpoint::World(WorldCheckpoint { spec, argument }));
    }
    let hint = did_you_mean(
        written.name,
        checkpoint_names(),
        "checkpoint",
        CHECKPOINTS_LISTED_IN,
    );
    let message = format!("unknown checkpoint `{}`; {hint}", shown(written.name));
    Err(error_at(text, written.start, &message))
}

impl<'t> Written<'t> {
    fn split(text: &'t str) -> Result<Written<'t>, CheckpointError> {
        let start = text.len() - text.trim_start().len();
        let body = text.trim();
        let Some(open) = body.find('(') else {
            let (name, argument) = (body, None);
            return Ok(Written {
                text,
                start,
                name,
                argument,
            });
        };
        let Some(inner) = body[open + 1..].strip_suffix(')') else {
            return Err(error_at(text, start + body.len(), "missing `)` at the end"));
        };
        let name = body[..open].trim_end();
        let argument = Some((inner.trim(), start + open + 1));
        Ok(Written {
            text,
            start,
            name,
            argument,
        })
    }

    fn common(&self, form: &Form, names: &NodeNames) -> Result<Checkpoint, CheckpointError> {
        match (form, self.argument) {
            (Form::Bare(checkpoint), _) => self.no_argument().map(|()| checkpoint.clone()),
            (Form::Number(make), _) => Ok(make(number(self.text, self.needs("a number")?)?)),
            (Form::Node(make), _) => Ok(make(node(self.text, self.needs("a node")?, names)?)),
            (Form::MaybeNode(make), None) => Ok(make(None)),
            (Form::MaybeNode(make), Some(argument)) => {
                Ok(make(Some(node(self.text, argument, names)?)))
            }
        }
    }

    fn needs(&self, kind: &str) -> Result<(&'t str, usize), CheckpointError> {
        let name = self.name;
        self.argument.ok_or_else(|| {
            let example = if kind == "a node" { "n2" } else { "3" };
            let message = format!("`{name}` takes {kind} in parentheses, e.g. `{name}({example})`");
            error_at(self.text, self.start + name.len(), &message)
        })
    }

    fn no_argument(&self) -> Result<(), CheckpointError> {
        match self.argument {
            None => Ok(()),
            Some((_, offset)) => Err(error_at(
                self.text,
                offset,
                &format!("`{}` takes no argument", self.name),
            )),
        }
    }
}

fn number(text: &str, (argument, offset): (&str, usize)) -> Result<u64, CheckpointError> {
    argument.parse::<u64>().map_err(|_| {
        error_at(
            text,
            offset,
            &format!("`{}` is not a whole number 0 or more", shown(argument)),
        )
    })
}

fn node(
    text: &str,
    (argument, offset): (&str, usize),
    names: &NodeNames,
) -> Result<NodeTarget, CheckpointError> {
    if argument == "leader" {
        return Ok(NodeTarget::Leader);
    }
    if let Some((_, node)) = names.extra.iter().find(|(name, _)| name == argument) {
        return Ok(NodeTarget::Node(*node));
    }
    let number = argument
        .strip_prefix('n')
        .and_then(|digits| digits.parse::<usize>().ok());
    match number {
        Some(number) if (1..=names.servers).contains(&number) => {
            Ok(NodeTarget::Node(NodeId((number - 1) as u16)))
        }
        _ => {
            let mut expected = format!("n1..n{}", names.servers);
            for (name, _) in &names.extra {
                expected.push_str(&format!(", {name}"));
            }
            Err(error_at(
                text,
                offset,
                &format!(
                    "`{}` is not a node: expected {expected} or `leader`",
                    shown(argument)
                ),
            ))
        }
    }
}

fn error_at(text: &str, byte_offset: usize, message: &str) -> CheckpointError {
    let byte_offset = byte_offset.min(text.len());
    CheckpointError {
        at: text[..byte_offset].chars().count() + 1,
        message: message.to_string(),
    }
}

#[cfg(test)]
mod tests;
