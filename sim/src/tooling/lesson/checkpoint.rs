//! Checkpoints: the closed set of conditions a lesson step can wait for, and their text syntax.
//!
//! A checkpoint is written as a name, optionally with one argument in parentheses:
//! `leader_changed`, `term_at_least(3)`, `node_crashed(n2)`, `node_paused(A)`. The set is closed on purpose:
//! each one is something the engine can answer exactly from a live world, so a lesson can never ask for a
//! condition the simulation cannot check. How each is evaluated lives in `evaluate.rs`.

use crate::base::ids::NodeId;
use crate::contract::action::NodeTarget;
use crate::tooling::scenario::errors::shown;
use crate::tooling::scenario::fields::NodeNames;
use crate::tooling::suggest::did_you_mean;
use std::fmt;

/// Where a lesson's author finds every checkpoint, each with what meets it.
const CHECKPOINTS_LISTED_IN: &str = "sim/src/tooling/lesson/checkpoint.rs";

/// Every checkpoint name, in the spelling used in lesson files.
pub const CHECKPOINT_NAMES: &[&str] = &[
    "leader_changed",
    "term_at_least",
    "no_leader_for_ms",
    "minority_cannot_commit",
    "node_crashed",
    "node_paused",
    "partitioned",
    "leader_stepped_down",
    "commit_index_at_least",
    "resource_rejected_stale_token",
    "two_clients_believe_they_hold_lock",
    "duplicate_invoice",
    "jobs_done_while_paused",
    "jobs_done_without_leader",
    "duplicate_write_ignored",
    "notifications_at_least",
    "zk_leader_changed",
    "missed_invoice",
    "node_caught_up",
    "stale_read",
    "lock_released_by_wrong_owner",
    "lost_update",
    "batch_redo_recognised",
    "tokens_grew_after_failover",
    "stale_write_refused",
    "quorum_regained",
    "value_chosen",
    "two_values_chosen",
    "ballots_at_least",
    "value_carried_forward",
    "write_acknowledged_after_ms",
    "write_refused_or_unknown",
    "lease_kept_through_pause",
    "crashed_holder_asked_again",
    "lock_reply_lost",
    "lock_queue_at_least",
    "lock_found_already_held",
    "scheduler_leader_changed",
    "stale_invoice_refused",
    "two_leaders_in_one_term",
    "applied_commands_diverged",
    "pbft_view_changed",
    "honest_replicas_disagree",
    "requests_committed_at_least",
    "requests_committed_while_lying",
    "tokens_rose_across_failover",
    "server_joined_as_voter",
    "leader_removed_and_replaced",
    "lock_held_back_by_delay",
    "overlap_despite_delay",
    "split_vote",
    "no_fault_tolerance",
    "lock_holder_crashed",
    "value_chosen_within_ballots",
    "lease_failover_gap_ms",
    "lease_renewal_failed",
    "woken_leader_acted_on_old_term",
    "lock_granted_while_holder_paused",
    "paused_holder_write_refused",
    "committed_with_servers_gone",
    "split_minority_cannot_commit",
    "no_leader_without_quorum_for_ms",
    "write_refused_or_unknown_without_quorum",
    "crashed_leader_replaced",
    "stranded_leader_write_unknown",
    "old_leader_entries_overwritten",
    "lock_request_timed_out",
    "malformed_request_rejected",
];

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
    /// Election candidates received at least this many watch notifications since the step began.
    NotificationsAtLeast(u64),
    /// A ZooKeeper-style election is led by another candidate, or the same one in a new session, than
    /// when the step began.
    ZkLeaderChanged,
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
    /// Paxos: a majority of acceptors has accepted one ballot's value.
    ValueChosen,
    /// Paxos: a second, different value was chosen (an Agreement violation) since the step began.
    TwoValuesChosen,
    /// Paxos: proposers started at least this many ballots since the step began.
    BallotsAtLeast(u64),
    /// Paxos: a value was chosen after the step began, with at most this many ballots started since
    /// then (a duel ended, or never began, because of a remedy). A duel that ran on can only be
    /// undone by a fresh run.
    ValueChosenWithinBallots(u64),
    /// Paxos: since the step began a proposer proposed a value a promise carried, not its own.
    ValueCarriedForward,
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
    /// Another scheduler instance leads (or the same one under a newer token) than when the step began.
    SchedulerLeaderChanged,
    /// The invoice store refused a run whose token was below the highest it had seen.
    StaleInvoiceRefused,
    /// Two servers claimed leadership of one term (an Election Safety violation) since the step began.
    TwoLeadersInOneTerm,
    /// Servers committed different commands at one log index (a State Machine Safety violation) since
    /// the step began.
    AppliedCommandsDiverged,
    /// PBFT: an honest replica finished a view change to a view above every view of the step's start.
    PbftViewChanged,
    /// PBFT: two honest replicas committed different requests at one sequence number (an Honest
    /// Agreement violation) since the step began.
    HonestReplicasDisagree,
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

/// Parses `text` such as `term_at_least(3)`; node names are checked against `names`.
pub(crate) fn parse_checkpoint(
    text: &str,
    names: &NodeNames,
) -> Result<Checkpoint, CheckpointError> {
    let trimmed_start = text.len() - text.trim_start().len();
    let body = text.trim();
    let (name, argument) = match body.find('(') {
        None => (body, None),
        Some(open) => {
            let Some(inner) = body[open + 1..].strip_suffix(')') else {
                return Err(error_at(
                    text,
                    trimmed_start + body.len(),
                    "missing `)` at the end",
                ));
            };
            let argument_offset = trimmed_start + open + 1;
            (
                body[..open].trim_end(),
                Some((inner.trim(), argument_offset)),
            )
        }
    };
    let needs = |kind: &str| -> Result<(&str, usize), CheckpointError> {
        argument.ok_or_else(|| {
            error_at(
                text,
                trimmed_start + name.len(),
                &format!(
                    "`{name}` takes {kind} in parentheses, e.g. `{name}({})`",
                    example(kind)
                ),
            )
        })
    };
    let no_argument = |checkpoint: Checkpoint| match argument {
        None => Ok(checkpoint),
        Some((_, offset)) => Err(error_at(
            text,
            offset,
            &format!("`{name}` takes no argument"),
        )),
    };
    match name {
        "leader_changed" => no_argument(Checkpoint::LeaderChanged),
        "minority_cannot_commit" => no_argument(Checkpoint::MinorityCannotCommit),
        "partitioned" => no_argument(Checkpoint::Partitioned),
        "leader_stepped_down" => no_argument(Checkpoint::LeaderSteppedDown),
        "resource_rejected_stale_token" => no_argument(Checkpoint::ResourceRejectedStaleToken),
        "two_clients_believe_they_hold_lock" => {
            no_argument(Checkpoint::TwoClientsBelieveTheyHoldLock)
        }
        "duplicate_invoice" => no_argument(Checkpoint::DuplicateInvoice),
        "duplicate_write_ignored" => no_argument(Checkpoint::DuplicateWriteIgnored),
        "zk_leader_changed" => no_argument(Checkpoint::ZkLeaderChanged),
        "jobs_done_while_paused" => Ok(Checkpoint::JobsDoneWhilePaused(number(
            text,
            needs("a number")?,
        )?)),
        "jobs_done_without_leader" => Ok(Checkpoint::JobsDoneWithoutLeader(number(
            text,
            needs("a number")?,
        )?)),
        "notifications_at_least" => Ok(Checkpoint::NotificationsAtLeast(number(
            text,
            needs("a number")?,
        )?)),
        "missed_invoice" => no_argument(Checkpoint::MissedInvoice),
        "node_caught_up" => Ok(Checkpoint::NodeCaughtUp(node(
            text,
            needs("a node")?,
            names,
        )?)),
        "stale_read" => no_argument(Checkpoint::StaleRead),
        "lock_released_by_wrong_owner" => no_argument(Checkpoint::LockReleasedByWrongOwner),
        "lost_update" => no_argument(Checkpoint::LostUpdate),
        "batch_redo_recognised" => no_argument(Checkpoint::BatchRedoRecognised),
        "tokens_grew_after_failover" => no_argument(Checkpoint::TokensGrewAfterFailover),
        "stale_write_refused" => no_argument(Checkpoint::StaleWriteRefused),
        "quorum_regained" => no_argument(Checkpoint::QuorumRegained),
        "value_chosen" => no_argument(Checkpoint::ValueChosen),
        "two_values_chosen" => no_argument(Checkpoint::TwoValuesChosen),
        "value_carried_forward" => no_argument(Checkpoint::ValueCarriedForward),
        "write_acknowledged_after_ms" => Ok(Checkpoint::WriteAcknowledgedAfterMs(number(
            text,
            needs("a number")?,
        )?)),
        "write_refused_or_unknown" => no_argument(Checkpoint::WriteRefusedOrUnknown),
        "lease_kept_through_pause" => no_argument(Checkpoint::LeaseKeptThroughPause),
        "crashed_holder_asked_again" => no_argument(Checkpoint::CrashedHolderAskedAgain),
        "lock_reply_lost" => no_argument(Checkpoint::LockReplyLost),
        "lock_queue_at_least" => Ok(Checkpoint::LockQueueAtLeast(number(
            text,
            needs("a number")?,
        )?)),
        "lock_found_already_held" => no_argument(Checkpoint::LockFoundAlreadyHeld),
        "scheduler_leader_changed" => no_argument(Checkpoint::SchedulerLeaderChanged),
        "stale_invoice_refused" => no_argument(Checkpoint::StaleInvoiceRefused),
        "two_leaders_in_one_term" => no_argument(Checkpoint::TwoLeadersInOneTerm),
        "applied_commands_diverged" => no_argument(Checkpoint::AppliedCommandsDiverged),
        "pbft_view_changed" => no_argument(Checkpoint::PbftViewChanged),
        "honest_replicas_disagree" => no_argument(Checkpoint::HonestReplicasDisagree),
        "requests_committed_at_least" => Ok(Checkpoint::RequestsCommittedAtLeast(number(
            text,
            needs("a number")?,
        )?)),
        "requests_committed_while_lying" => Ok(Checkpoint::RequestsCommittedWhileLying(number(
            text,
            needs("a number")?,
        )?)),
        "tokens_rose_across_failover" => no_argument(Checkpoint::TokensRoseAcrossFailover),
        "server_joined_as_voter" => no_argument(Checkpoint::ServerJoinedAsVoter),
        "leader_removed_and_replaced" => no_argument(Checkpoint::LeaderRemovedAndReplaced),
        "lock_held_back_by_delay" => no_argument(Checkpoint::LockHeldBackByDelay),
        "overlap_despite_delay" => no_argument(Checkpoint::OverlapDespiteDelay),
        "split_vote" => no_argument(Checkpoint::SplitVote),
        "no_fault_tolerance" => no_argument(Checkpoint::NoFaultTolerance),
        "lock_holder_crashed" => match argument {
            None => Ok(Checkpoint::LockHolderCrashed(None)),
            Some(argument) => Ok(Checkpoint::LockHolderCrashed(Some(node(
                text, argument, names,
            )?))),
        },
        "lease_failover_gap_ms" => Ok(Checkpoint::LeaseFailoverGapMs(number(
            text,
            needs("a number")?,
        )?)),
        "lease_renewal_failed" => no_argument(Checkpoint::LeaseRenewalFailed),
        "woken_leader_acted_on_old_term" => no_argument(Checkpoint::WokenLeaderActedOnOldTerm),
        "lock_granted_while_holder_paused" => no_argument(Checkpoint::LockGrantedWhileHolderPaused),
        "paused_holder_write_refused" => no_argument(Checkpoint::PausedHolderWriteRefused),
        "committed_with_servers_gone" => Ok(Checkpoint::CommittedWithServersGone(number(
            text,
            needs("a number")?,
        )?)),
        "split_minority_cannot_commit" => no_argument(Checkpoint::SplitMinorityCannotCommit),
        "no_leader_without_quorum_for_ms" => Ok(Checkpoint::NoLeaderWithoutQuorumForMs(number(
            text,
            needs("a number")?,
        )?)),
        "write_refused_or_unknown_without_quorum" => {
            no_argument(Checkpoint::WriteRefusedOrUnknownWithoutQuorum)
        }
        "crashed_leader_replaced" => no_argument(Checkpoint::CrashedLeaderReplaced),
        "stranded_leader_write_unknown" => no_argument(Checkpoint::StrandedLeaderWriteUnknown),
        "old_leader_entries_overwritten" => no_argument(Checkpoint::OldLeaderEntriesOverwritten),
        "lock_request_timed_out" => no_argument(Checkpoint::LockRequestTimedOut),
        "malformed_request_rejected" => no_argument(Checkpoint::MalformedRequestRejected),
        "ballots_at_least" => Ok(Checkpoint::BallotsAtLeast(number(
            text,
            needs("a number")?,
        )?)),
        "value_chosen_within_ballots" => Ok(Checkpoint::ValueChosenWithinBallots(number(
            text,
            needs("a number")?,
        )?)),
        "term_at_least" => Ok(Checkpoint::TermAtLeast(number(text, needs("a number")?)?)),
        "no_leader_for_ms" => Ok(Checkpoint::NoLeaderForMs(number(text, needs("a number")?)?)),
        "commit_index_at_least" => Ok(Checkpoint::CommitIndexAtLeast(number(
            text,
            needs("a number")?,
        )?)),
        "node_crashed" => Ok(Checkpoint::NodeCrashed(node(
            text,
            needs("a node")?,
            names,
        )?)),
        "node_paused" => match argument {
            None => Ok(Checkpoint::NodePaused(None)),
            Some(argument) => Ok(Checkpoint::NodePaused(Some(node(text, argument, names)?))),
        },
        _ => Err(error_at(
            text,
            trimmed_start,
            &format!(
                "unknown checkpoint `{}`; {}",
                shown(name),
                did_you_mean(
                    name,
                    CHECKPOINT_NAMES.iter().copied(),
                    "checkpoint",
                    CHECKPOINTS_LISTED_IN
                )
            ),
        )),
    }
}

fn example(kind: &str) -> &'static str {
    if kind == "a node" {
        "n2"
    } else {
        "3"
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
