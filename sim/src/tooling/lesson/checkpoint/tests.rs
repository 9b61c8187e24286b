//! Parsing checkpoints: every name with its argument, and mistakes pointed at and quoted short.

use super::*;

fn names() -> NodeNames {
    NodeNames {
        servers: 3,
        extra: vec![("A".into(), NodeId(3)), ("store".into(), NodeId(4))],
    }
}

#[test]
fn every_name_parses_with_its_argument() {
    let cases = [
        ("leader_changed", Checkpoint::LeaderChanged),
        (" term_at_least( 3 ) ", Checkpoint::TermAtLeast(3)),
        ("no_leader_for_ms(500)", Checkpoint::NoLeaderForMs(500)),
        (
            "node_crashed(n2)",
            Checkpoint::NodeCrashed(NodeTarget::Node(NodeId(1))),
        ),
        (
            "node_crashed(leader)",
            Checkpoint::NodeCrashed(NodeTarget::Leader),
        ),
        ("node_paused", Checkpoint::NodePaused(None)),
        (
            "node_paused(A)",
            Checkpoint::NodePaused(Some(NodeTarget::Node(NodeId(3)))),
        ),
        (
            "commit_index_at_least(7)",
            Checkpoint::CommitIndexAtLeast(7),
        ),
        ("duplicate_invoice", Checkpoint::DuplicateInvoice),
        (
            "jobs_done_while_paused(20)",
            Checkpoint::JobsDoneWhilePaused(20),
        ),
        (
            "jobs_done_without_leader(5)",
            Checkpoint::JobsDoneWithoutLeader(5),
        ),
        ("duplicate_write_ignored", Checkpoint::DuplicateWriteIgnored),
        ("missed_invoice", Checkpoint::MissedInvoice),
        (
            "node_caught_up(n3)",
            Checkpoint::NodeCaughtUp(NodeTarget::Node(NodeId(2))),
        ),
        ("stale_read", Checkpoint::StaleRead),
        (
            "lock_released_by_wrong_owner",
            Checkpoint::LockReleasedByWrongOwner,
        ),
        ("lost_update", Checkpoint::LostUpdate),
        ("batch_redo_recognised", Checkpoint::BatchRedoRecognised),
        (
            "tokens_grew_after_failover",
            Checkpoint::TokensGrewAfterFailover,
        ),
        ("stale_write_refused", Checkpoint::StaleWriteRefused),
        ("quorum_regained", Checkpoint::QuorumRegained),
        (
            "write_acknowledged_after_ms(300)",
            Checkpoint::WriteAcknowledgedAfterMs(300),
        ),
        (
            "write_refused_or_unknown",
            Checkpoint::WriteRefusedOrUnknown,
        ),
        (
            "lease_kept_through_pause",
            Checkpoint::LeaseKeptThroughPause,
        ),
        (
            "crashed_holder_asked_again",
            Checkpoint::CrashedHolderAskedAgain,
        ),
        ("lock_reply_lost", Checkpoint::LockReplyLost),
        ("lock_queue_at_least(4)", Checkpoint::LockQueueAtLeast(4)),
        ("lock_found_already_held", Checkpoint::LockFoundAlreadyHeld),
        ("two_leaders_in_one_term", Checkpoint::TwoLeadersInOneTerm),
        (
            "applied_commands_diverged",
            Checkpoint::AppliedCommandsDiverged,
        ),
        (
            "requests_committed_at_least(10)",
            Checkpoint::RequestsCommittedAtLeast(10),
        ),
        (
            "requests_committed_while_lying(5)",
            Checkpoint::RequestsCommittedWhileLying(5),
        ),
        (
            "tokens_rose_across_failover",
            Checkpoint::TokensRoseAcrossFailover,
        ),
        ("server_joined_as_voter", Checkpoint::ServerJoinedAsVoter),
        (
            "leader_removed_and_replaced",
            Checkpoint::LeaderRemovedAndReplaced,
        ),
        ("lock_held_back_by_delay", Checkpoint::LockHeldBackByDelay),
        ("overlap_despite_delay", Checkpoint::OverlapDespiteDelay),
        ("split_vote", Checkpoint::SplitVote),
        ("no_fault_tolerance", Checkpoint::NoFaultTolerance),
        ("lock_holder_crashed", Checkpoint::LockHolderCrashed(None)),
        (
            "lock_holder_crashed(A)",
            Checkpoint::LockHolderCrashed(Some(NodeTarget::Node(NodeId(3)))),
        ),
        (
            "lease_failover_gap_ms(100)",
            Checkpoint::LeaseFailoverGapMs(100),
        ),
        ("lease_renewal_failed", Checkpoint::LeaseRenewalFailed),
        (
            "woken_leader_acted_on_old_term",
            Checkpoint::WokenLeaderActedOnOldTerm,
        ),
        (
            "lock_granted_while_holder_paused",
            Checkpoint::LockGrantedWhileHolderPaused,
        ),
        (
            "paused_holder_write_refused",
            Checkpoint::PausedHolderWriteRefused,
        ),
        (
            "committed_with_servers_gone(2)",
            Checkpoint::CommittedWithServersGone(2),
        ),
        (
            "split_minority_cannot_commit",
            Checkpoint::SplitMinorityCannotCommit,
        ),
        (
            "no_leader_without_quorum_for_ms(1000)",
            Checkpoint::NoLeaderWithoutQuorumForMs(1000),
        ),
        (
            "write_refused_or_unknown_without_quorum",
            Checkpoint::WriteRefusedOrUnknownWithoutQuorum,
        ),
        ("crashed_leader_replaced", Checkpoint::CrashedLeaderReplaced),
        (
            "stranded_leader_write_unknown",
            Checkpoint::StrandedLeaderWriteUnknown,
        ),
        (
            "old_leader_entries_overwritten",
            Checkpoint::OldLeaderEntriesOverwritten,
        ),
        ("lock_request_timed_out", Checkpoint::LockRequestTimedOut),
        (
            "malformed_request_rejected",
            Checkpoint::MalformedRequestRejected,
        ),
        ("history_refused", Checkpoint::HistoryRefused),
        (
            "unknown_outcome_linearizable",
            Checkpoint::UnknownOutcomeLinearizable,
        ),
        ("minority_cannot_commit", Checkpoint::MinorityCannotCommit),
        ("partitioned", Checkpoint::Partitioned),
        ("leader_stepped_down", Checkpoint::LeaderSteppedDown),
        (
            "resource_rejected_stale_token",
            Checkpoint::ResourceRejectedStaleToken,
        ),
        (
            "two_clients_believe_they_hold_lock",
            Checkpoint::TwoClientsBelieveTheyHoldLock,
        ),
    ];
    // Every name in the list is parsed above, so a name added without a case fails here.
    let parsed: Vec<&str> = cases
        .iter()
        .map(|(text, _)| text.trim().split('(').next().unwrap().trim())
        .collect();
    for (name, _) in COMMON {
        assert!(parsed.contains(name), "{name} has no parse case");
    }
    for (text, expected) in cases {
        assert_eq!(parse_checkpoint(text, &names()), Ok(expected), "{text}");
    }
}

/// A world's own checkpoints parse through the registry, with their number where they take one, and
/// say so where they are given what they do not take.
#[test]
fn every_worlds_own_checkpoint_parses_from_the_registry() {
    let specs: Vec<&CheckpointSpec> = world_specs().collect();
    let spec_names: Vec<&str> = specs.iter().map(|spec| spec.name).collect();
    for expected in ["value_chosen", "zk_leader_changed", "stale_invoice_refused"] {
        assert!(
            spec_names.contains(&expected),
            "{expected} missing from {spec_names:?}"
        );
    }
    for spec in specs {
        let (written, bad, argument) = match spec.argument {
            Argument::None => (spec.name.to_string(), format!("{}(2)", spec.name), 0),
            Argument::Number => (format!("{}(12)", spec.name), spec.name.to_string(), 12),
        };
        let parsed = parse_checkpoint(&written, &names());
        assert_eq!(
            parsed,
            Ok(Checkpoint::World(WorldCheckpoint { spec, argument })),
            "{written}"
        );
        assert_eq!(
            format!("{:?}", parsed.unwrap()),
            format!("World({written})")
        );
        let error = parse_checkpoint(&bad, &names()).unwrap_err().message;
        let expected = match spec.argument {
            Argument::None => format!("`{}` takes no argument", spec.name),
            Argument::Number => format!(
                "`{0}` takes a number in parentheses, e.g. `{0}(3)`",
                spec.name
            ),
        };
        assert_eq!(error, expected);
    }
    let error = parse_checkpoint("ballots_at_least(many)", &names()).unwrap_err();
    assert_eq!(
        (error.at, error.message.as_str()),
        (18, "`many` is not a whole number 0 or more")
    );
}

#[test]
fn mistakes_quote_the_checkpoint_short_and_escaped() {
    // Found by the fuzzer: a 70 000-character name came back whole in the error.
    let long = format!("duplicate_invoic{}\u{7}", "9".repeat(70_000));
    let argument = format!("term_at_least({}\n)", "x".repeat(70_000));
    let node = format!("node_crashed(n{}\u{1b})", "1".repeat(70_000));
    for text in [long, argument, node] {
        let message = parse_checkpoint(&text, &names()).unwrap_err().message;
        assert!(
            message.chars().count() < 200,
            "{} characters: {message}",
            message.chars().count()
        );
        assert!(!message.chars().any(char::is_control), "{message:?}");
    }
}

#[test]
fn mistakes_point_at_the_character_that_is_wrong() {
    let error = |text| parse_checkpoint(text, &names()).unwrap_err();
    assert_eq!(error("term_at_least(x)").at, 15);
    assert!(error("term_at_least(x)")
        .message
        .contains("`x` is not a whole number"));
    assert_eq!(error("term_at_least").at, 14);
    assert_eq!(
        error("leadr_changed").message,
        "unknown checkpoint `leadr_changed`; did you mean `leader_changed`?"
    );
    assert!(error("node_crashed(n9)")
        .message
        .contains("expected n1..n3, A, store"));
    assert!(error("partitioned(2)")
        .message
        .contains("takes no argument"));
    assert_eq!(error("term_at_least(3").message, "missing `)` at the end");
}

#[test]
fn an_unknown_name_is_answered_with_the_closest_names_never_the_list() {
    let message = |text| parse_checkpoint(text, &names()).unwrap_err().message;
    assert_eq!(
        message("term_at_leats(3)"),
        "unknown checkpoint `term_at_leats`; did you mean `term_at_least`?"
    );
    // A name's beginning or end is enough, the closest first.
    assert_eq!(
        message("crashed"),
        "unknown checkpoint `crashed`; did you mean `node_crashed`, `lock_holder_crashed` or \
         `crashed_leader_replaced`?"
    );
    let unknown = message("teleported");
    assert_eq!(
        unknown,
        format!(
            "unknown checkpoint `teleported`; nothing close among the {} checkpoints (listed in \
             sim/src/tooling/lesson/checkpoint.rs)",
            checkpoint_names().count()
        )
    );
    // A look-alike of a whole list: no name but the one asked about is quoted.
    assert_eq!(unknown.matches('`').count(), 2, "{unknown}");
}

#[test]
fn an_unknown_name_of_any_length_gets_a_short_answer() {
    for length in [1, 80, 81, 1_000, 100_000] {
        let text = "leader_changed".repeat(length / 14 + 1)[..length].to_string();
        let message = parse_checkpoint(&text, &names()).unwrap_err().message;
        assert!(
            message.chars().count() <= 250,
            "a {length}-character name: {} characters: {message}",
            message.chars().count()
        );
        if length > 60 {
            assert!(
                message.contains(&format!("({length} characters)")),
                "{message}"
            );
        }
    }
}
