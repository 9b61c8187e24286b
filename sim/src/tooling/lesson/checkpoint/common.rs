//! The lesson engine's own checkpoints, the ones any world can meet, by name and by what each takes in
//! its parentheses. The order is the order "did you mean" hints offer equally close names in; the
//! worlds' own checkpoints follow them in registry order.

use super::Checkpoint;
use crate::contract::action::NodeTarget;

/// What a checkpoint takes in parentheses, and how it is made from that.
pub(super) enum Form {
    /// Nothing.
    Bare(Checkpoint),
    /// A whole number.
    Number(fn(u64) -> Checkpoint),
    /// A node (`n2`, `A`, `leader`).
    Node(fn(NodeTarget) -> Checkpoint),
    /// A node, or nothing for "any".
    MaybeNode(fn(Option<NodeTarget>) -> Checkpoint),
}

/// Every common checkpoint, in the spelling used in lesson files.
pub(super) const COMMON: &[(&str, Form)] = &[
    ("leader_changed", Form::Bare(Checkpoint::LeaderChanged)),
    ("term_at_least", Form::Number(Checkpoint::TermAtLeast)),
    ("no_leader_for_ms", Form::Number(Checkpoint::NoLeaderForMs)),
    (
        "minority_cannot_commit",
        Form::Bare(Checkpoint::MinorityCannotCommit),
    ),
    ("node_crashed", Form::Node(Checkpoint::NodeCrashed)),
    ("node_paused", Form::MaybeNode(Checkpoint::NodePaused)),
    ("partitioned", Form::Bare(Checkpoint::Partitioned)),
    (
        "leader_stepped_down",
        Form::Bare(Checkpoint::LeaderSteppedDown),
    ),
    (
        "commit_index_at_least",
        Form::Number(Checkpoint::CommitIndexAtLeast),
    ),
    (
        "resource_rejected_stale_token",
        Form::Bare(Checkpoint::ResourceRejectedStaleToken),
    ),
    (
        "two_clients_believe_they_hold_lock",
        Form::Bare(Checkpoint::TwoClientsBelieveTheyHoldLock),
    ),
    (
        "duplicate_invoice",
        Form::Bare(Checkpoint::DuplicateInvoice),
    ),
    (
        "jobs_done_while_paused",
        Form::Number(Checkpoint::JobsDoneWhilePaused),
    ),
    (
        "jobs_done_without_leader",
        Form::Number(Checkpoint::JobsDoneWithoutLeader),
    ),
    (
        "duplicate_write_ignored",
        Form::Bare(Checkpoint::DuplicateWriteIgnored),
    ),
    ("missed_invoice", Form::Bare(Checkpoint::MissedInvoice)),
    ("node_caught_up", Form::Node(Checkpoint::NodeCaughtUp)),
    ("stale_read", Form::Bare(Checkpoint::StaleRead)),
    (
        "lock_released_by_wrong_owner",
        Form::Bare(Checkpoint::LockReleasedByWrongOwner),
    ),
    ("lost_update", Form::Bare(Checkpoint::LostUpdate)),
    (
        "batch_redo_recognised",
        Form::Bare(Checkpoint::BatchRedoRecognised),
    ),
    (
        "tokens_grew_after_failover",
        Form::Bare(Checkpoint::TokensGrewAfterFailover),
    ),
    (
        "stale_write_refused",
        Form::Bare(Checkpoint::StaleWriteRefused),
    ),
    ("quorum_regained", Form::Bare(Checkpoint::QuorumRegained)),
    (
        "write_acknowledged_after_ms",
        Form::Number(Checkpoint::WriteAcknowledgedAfterMs),
    ),
    (
        "write_refused_or_unknown",
        Form::Bare(Checkpoint::WriteRefusedOrUnknown),
    ),
    (
        "lease_kept_through_pause",
        Form::Bare(Checkpoint::LeaseKeptThroughPause),
    ),
    (
        "crashed_holder_asked_again",
        Form::Bare(Checkpoint::CrashedHolderAskedAgain),
    ),
    ("lock_reply_lost", Form::Bare(Checkpoint::LockReplyLost)),
    (
        "lock_queue_at_least",
        Form::Number(Checkpoint::LockQueueAtLeast),
    ),
    (
        "lock_found_already_held",
        Form::Bare(Checkpoint::LockFoundAlreadyHeld),
    ),
    (
        "two_leaders_in_one_term",
        Form::Bare(Checkpoint::TwoLeadersInOneTerm),
    ),
    (
        "applied_commands_diverged",
        Form::Bare(Checkpoint::AppliedCommandsDiverged),
    ),
    (
        "requests_committed_at_least",
        Form::Number(Checkpoint::RequestsCommittedAtLeast),
    ),
    (
        "requests_committed_while_lying",
        Form::Number(Checkpoint::RequestsCommittedWhileLying),
    ),
    (
        "tokens_rose_across_failover",
        Form::Bare(Checkpoint::TokensRoseAcrossFailover),
    ),
    (
        "server_joined_as_voter",
        Form::Bare(Checkpoint::ServerJoinedAsVoter),
    ),
    (
        "leader_removed_and_replaced",
        Form::Bare(Checkpoint::LeaderRemovedAndReplaced),
    ),
    (
        "lock_held_back_by_delay",
        Form::Bare(Checkpoint::LockHeldBackByDelay),
    ),
    (
        "overlap_despite_delay",
        Form::Bare(Checkpoint::OverlapDespiteDelay),
    ),
    ("split_vote", Form::Bare(Checkpoint::SplitVote)),
    (
        "no_fault_tolerance",
        Form::Bare(Checkpoint::NoFaultTolerance),
    ),
    (
        "lock_holder_crashed",
        Form::MaybeNode(Checkpoint::LockHolderCrashed),
    ),
    (
        "lease_failover_gap_ms",
        Form::Number(Checkpoint::LeaseFailoverGapMs),
    ),
    (
        "lease_renewal_failed",
        Form::Bare(Checkpoint::LeaseRenewalFailed),
    ),
    (
        "woken_leader_acted_on_old_term",
        Form::Bare(Checkpoint::WokenLeaderActedOnOldTerm),
    ),
    (
        "lock_granted_while_holder_paused",
        Form::Bare(Checkpoint::LockGrantedWhileHolderPaused),
    ),
    (
        "paused_holder_write_refused",
        Form::Bare(Checkpoint::PausedHolderWriteRefused),
    ),
    (
        "committed_with_servers_gone",
        Form::Number(Checkpoint::CommittedWithServersGone),
    ),
    (
        "split_minority_cannot_commit",
        Form::Bare(Checkpoint::SplitMinorityCannotCommit),
    ),
    (
        "no_leader_without_quorum_for_ms",
        Form::Number(Checkpoint::NoLeaderWithoutQuorumForMs),
    ),
    (
        "write_refused_or_unknown_without_quorum",
        Form::Bare(Checkpoint::WriteRefusedOrUnknownWithoutQuorum),
    ),
    (
        "crashed_leader_replaced",
        Form::Bare(Checkpoint::CrashedLeaderReplaced),
    ),
    (
        "stranded_leader_write_unknown",
        Form::Bare(Checkpoint::StrandedLeaderWriteUnknown),
    ),
    (
        "old_leader_entries_overwritten",
        Form::Bare(Checkpoint::OldLeaderEntriesOverwritten),
    ),
    (
        "lock_request_timed_out",
        Form::Bare(Checkpoint::LockRequestTimedOut),
    ),
    (
        "malformed_request_rejected",
        Form::Bare(Checkpoint::MalformedRequestRejected),
    ),
    ("history_refused", Form::Bare(Checkpoint::HistoryRefused)),
    (
        "unknown_outcome_linearizable",
        Form::Bare(Checkpoint::UnknownOutcomeLinearizable),
    ),
];
