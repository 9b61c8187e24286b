//! Paper-anchored tests: each drives one Raft node through the sans-IO interface and checks one rule of
//! Ongaro & Ousterhout's paper, paraphrased above the test.
//!
//! Raft runs alone here: no application payload and no world around it, its own messages the whole
//! wire. That it compiles and passes this way is the proof that Raft knows nothing of locks.

use quorumlab_sim::config::RaftOptions;
use quorumlab_sim::ids::NodeId;
use quorumlab_sim::protocol::{Effects, Input, Protocol, RoleLabel};
use quorumlab_sim::raft::{Command, Payload, RaftTiming, ELECTION_TIMER};
use quorumlab_sim::units::{LogIndex, Term};

/// No application on top of the log: nothing of this type can exist.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum NoApplication {}

impl Payload for NoApplication {
    fn digest(&self) -> u64 {
        match *self {}
    }
}

type RaftMessage = quorumlab_sim::raft::RaftMessage<NoApplication>;
type RaftNode = quorumlab_sim::raft::RaftNode<NoApplication, RaftMessage>;
type Entry = quorumlab_sim::raft::Entry<NoApplication>;
type Effect = quorumlab_sim::protocol::Effect<RaftMessage>;

const TIMING: RaftTiming = RaftTiming {
    election_min_us: 150_000,
    election_max_us: 300_000,
    heartbeat_us: 50_000,
};

fn started(id: u16, node_count: usize, options: RaftOptions) -> RaftNode {
    let mut node = RaftNode::new(NodeId(id), node_count, options, TIMING);
    node.handle(0, Input::Start, &mut Effects::new());
    node
}

fn input(node: &mut RaftNode, now_us: u64, input: Input<'_, RaftMessage>) -> Vec<Effect> {
    let mut effects = Effects::new();
    node.handle(now_us, input, &mut effects);
    effects.drain().collect()
}

fn receive(node: &mut RaftNode, now_us: u64, from: u16, message: RaftMessage) -> Vec<Effect> {
    input(
        node,
        now_us,
        Input::Message {
            from: NodeId(from),
            message: &message,
        },
    )
}

fn sent(effects: &[Effect]) -> Vec<(NodeId, RaftMessage)> {
    effects
        .iter()
        .filter_map(|effect| match effect {
            Effect::Send { to, message, .. } => Some((*to, message.clone())),
            _ => None,
        })
        .collect()
}

fn only_reply(effects: &[Effect]) -> RaftMessage {
    let messages = sent(effects);
    assert_eq!(
        messages.len(),
        1,
        "expected exactly one message, got {messages:?}"
    );
    messages[0].1.clone()
}

// The helpers take bare numbers so a test reads like the paper's figures.
fn entry(term: u64) -> Entry {
    Entry {
        term: Term(term),
        command: Command::Noop,
    }
}

fn heartbeat(
    term: u64,
    leader: u16,
    prev_log_index: u64,
    prev_log_term: u64,
    entries: Vec<Entry>,
) -> RaftMessage {
    RaftMessage::AppendEntries {
        term: Term(term),
        leader: NodeId(leader),
        prev_log_index: LogIndex(prev_log_index),
        prev_log_term: Term(prev_log_term),
        entries,
        leader_commit: LogIndex::ZERO,
        sent_at_local_us: 0,
    }
}

fn vote_request(term: u64, candidate: u16, last_log_index: u64, last_log_term: u64) -> RaftMessage {
    RaftMessage::RequestVote {
        term: Term(term),
        candidate: NodeId(candidate),
        last_log_index: LogIndex(last_log_index),
        last_log_term: Term(last_log_term),
        pre_vote: false,
    }
}

fn granted(message: &RaftMessage) -> bool {
    matches!(message, RaftMessage::RequestVoteReply { granted: true, .. })
}

/// Makes node 0 of a `node_count` cluster leader of the next term by feeding it granted votes.
fn elect(node: &mut RaftNode, node_count: usize) {
    input(
        node,
        1_000,
        Input::Timer {
            key: ELECTION_TIMER,
        },
    );
    let term = node.term();
    for voter in 1..node_count as u16 {
        let reply = RaftMessage::RequestVoteReply {
            term,
            granted: true,
            pre_vote: false,
        };
        receive(node, 2_000, voter, reply);
        if node.is_leader() {
            return;
        }
    }
    panic!("node did not become leader");
}

fn ack(node: &mut RaftNode, from: u16, match_index: u64) -> Vec<Effect> {
    let reply = RaftMessage::AppendEntriesReply {
        term: node.term(),
        success: true,
        match_index: LogIndex(match_index),
        conflict_index: LogIndex::ZERO,
        echo_sent_at_local_us: 0,
    };
    receive(node, 3_000, from, reply)
}

#[test]
fn higher_term_in_any_message_updates_term_and_makes_a_leader_follow() {
    // "If RPC request or response contains term T > currentTerm: set currentTerm = T, convert to follower."
    let mut leader = started(0, 3, RaftOptions::default());
    elect(&mut leader, 3);
    assert_eq!(leader.term(), Term(1));
    let reply = RaftMessage::AppendEntriesReply {
        term: Term(5),
        success: false,
        match_index: LogIndex(0),
        conflict_index: LogIndex(1),
        echo_sent_at_local_us: 0,
    };
    receive(&mut leader, 5_000, 2, reply);
    assert_eq!(leader.term(), Term(5));
    assert_eq!(leader.role(), RoleLabel::Follower);
    assert_eq!(leader.durable.voted_for, None);
    // Reference: §5.1
}

#[test]
fn stale_term_requests_are_rejected() {
    // "Reply false if term < currentTerm" (AppendEntries and RequestVote alike).
    let mut node = started(0, 3, RaftOptions::default());
    receive(&mut node, 1_000, 1, heartbeat(3, 1, 0, 0, vec![]));
    let reply = only_reply(&receive(
        &mut node,
        2_000,
        2,
        heartbeat(2, 2, 0, 0, vec![entry(2)]),
    ));
    assert!(matches!(
        reply,
        RaftMessage::AppendEntriesReply {
            success: false,
            term: Term(3),
            ..
        }
    ));
    assert_eq!(node.log().last_index(), LogIndex(0));
    let reply = only_reply(&receive(&mut node, 3_000, 2, vote_request(2, 2, 9, 2)));
    assert!(!granted(&reply));
    assert_eq!(node.term(), Term(3));
    // Reference: §5.1
}

#[test]
fn one_vote_per_term_first_come_first_served() {
    // "Each server will vote for at most one candidate in a given term, on a first-come-first-served basis."
    let mut node = started(0, 5, RaftOptions::default());
    assert!(granted(&only_reply(&receive(
        &mut node,
        1_000,
        1,
        vote_request(1, 1, 0, 0)
    ))));
    assert!(!granted(&only_reply(&receive(
        &mut node,
        1_100,
        2,
        vote_request(1, 2, 0, 0)
    ))));
    // The same candidate asking again (a retransmission) is granted again.
    assert!(granted(&only_reply(&receive(
        &mut node,
        1_200,
        1,
        vote_request(1, 1, 0, 0)
    ))));
    // A new term frees the vote.
    assert!(granted(&only_reply(&receive(
        &mut node,
        1_300,
        2,
        vote_request(2, 2, 0, 0)
    ))));
    // Reference: §5.2
}

#[test]
fn votes_only_for_candidates_with_an_up_to_date_log() {
    // "If the logs have last entries with different terms, then the log with the later term is more
    // up-to-date. If the logs end with the same term, then whichever log is longer is more up-to-date."
    let mut voter = started(0, 5, RaftOptions::default());
    voter.durable.log.append(entry(1));
    voter.durable.log.append(entry(2));
    let longer_but_older = vote_request(3, 1, 5, 1);
    assert!(!granted(&only_reply(&receive(
        &mut voter,
        1_000,
        1,
        longer_but_older
    ))));
    let same_term_shorter = vote_request(4, 2, 1, 2);
    assert!(!granted(&only_reply(&receive(
        &mut voter,
        1_100,
        2,
        same_term_shorter
    ))));
    let equal = vote_request(5, 3, 2, 2);
    assert!(granted(&only_reply(&receive(&mut voter, 1_200, 3, equal))));
    // Reference: §5.4.1
}

#[test]
fn candidate_returns_to_follower_on_append_entries_of_equal_or_higher_term() {
    // "If the leader's term is at least as large as the candidate's current term, then the candidate
    // recognizes the leader as legitimate and returns to follower state."
    let mut candidate = started(0, 5, RaftOptions::default());
    input(
        &mut candidate,
        1_000,
        Input::Timer {
            key: ELECTION_TIMER,
        },
    );
    assert_eq!(candidate.role(), RoleLabel::Candidate);
    let term = candidate.term();
    let reply = only_reply(&receive(
        &mut candidate,
        2_000,
        3,
        heartbeat(term.0, 3, 0, 0, vec![]),
    ));
    assert_eq!(candidate.role(), RoleLabel::Follower);
    assert_eq!(candidate.term(), term);
    assert!(matches!(
        reply,
        RaftMessage::AppendEntriesReply { success: true, .. }
    ));
    // And a stale leader does not win it over.
    let mut other = started(1, 5, RaftOptions::default());
    input(
        &mut other,
        1_000,
        Input::Timer {
            key: ELECTION_TIMER,
        },
    );
    input(
        &mut other,
        1_500,
        Input::Timer {
            key: ELECTION_TIMER,
        },
    );
    receive(&mut other, 2_000, 3, heartbeat(1, 3, 0, 0, vec![]));
    assert_eq!(other.role(), RoleLabel::Candidate);
    // Reference: §5.2
}

#[test]
fn an_entry_commits_only_once_a_majority_stores_it() {
    // "A log entry is committed once the leader that created the entry has replicated it on a majority of
    // the servers."
    let mut leader = started(0, 5, RaftOptions::default());
    elect(&mut leader, 5);
    let noop_index = leader.log().last_index();
    assert_eq!(leader.commit_index(), LogIndex(0));
    ack(&mut leader, 1, noop_index.0);
    assert_eq!(
        leader.commit_index(),
        LogIndex(0),
        "leader + 1 of 5 is not a majority"
    );
    ack(&mut leader, 2, noop_index.0);
    assert_eq!(
        leader.commit_index(),
        noop_index,
        "leader + 2 of 5 is a majority"
    );
    // Reference: §5.3
}

fn leader_with_old_entry(options: RaftOptions) -> RaftNode {
    let mut node = started(0, 5, options);
    node.durable.log.append(entry(1));
    node.durable.log.append(entry(2));
    node.durable.term = Term(2);
    elect(&mut node, 5);
    node
}

#[test]
fn entries_from_previous_terms_are_not_committed_by_counting_replicas() {
    // "Raft never commits log entries from previous terms by counting replicas. Only log entries from the
    // leader's current term are committed by counting replicas" (Figure 8).
    let mut leader = leader_with_old_entry(RaftOptions::default());
    assert_eq!(leader.term(), Term(3));
    ack(&mut leader, 1, 2);
    ack(&mut leader, 2, 2);
    assert_eq!(
        leader.commit_index(),
        LogIndex(0),
        "index 2 (term 2) is on a majority but must not commit alone"
    );
    ack(&mut leader, 1, 3);
    ack(&mut leader, 2, 3);
    assert_eq!(
        leader.commit_index(),
        LogIndex(3),
        "the term-3 no-op commits, and index 2 with it"
    );
    // The deliberately broken variant commits index 2 by counting: what the checkers must catch.
    let unsafe_options = RaftOptions {
        unsafe_commit_previous_term: true,
        ..RaftOptions::default()
    };
    let mut broken = leader_with_old_entry(unsafe_options);
    ack(&mut broken, 1, 2);
    ack(&mut broken, 2, 2);
    assert_eq!(broken.commit_index(), LogIndex(2));
    // Reference: §5.4.2
}

#[test]
fn follower_log_is_repaired_to_match_the_leader() {
    // "If an existing entry conflicts with a new one (same index but different terms), delete the existing
    // entry and all that follow it"; the leader "decrements nextIndex and retries" after a rejection.
    let mut follower = started(1, 3, RaftOptions::default());
    for term in [1, 1, 2, 2] {
        follower.durable.log.append(entry(term));
    }
    let reply = only_reply(&receive(
        &mut follower,
        1_000,
        0,
        heartbeat(3, 0, 4, 3, vec![]),
    ));
    let RaftMessage::AppendEntriesReply {
        success: false,
        conflict_index,
        ..
    } = reply
    else {
        panic!("mismatched prev entry must be rejected: {reply:?}");
    };
    assert_eq!(
        conflict_index,
        LogIndex(3),
        "hint skips the whole conflicting term 2"
    );
    let reply = only_reply(&receive(
        &mut follower,
        2_000,
        0,
        heartbeat(3, 0, 2, 1, vec![entry(3)]),
    ));
    assert!(matches!(
        reply,
        RaftMessage::AppendEntriesReply {
            success: true,
            match_index: LogIndex(3),
            ..
        }
    ));
    assert_eq!(
        follower.log().terms().collect::<Vec<_>>(),
        vec![Term(1), Term(1), Term(3)]
    );

    // Leader side: a rejection moves nextIndex back to the hint and resends from there.
    let mut leader = started(0, 3, RaftOptions::default());
    for term in [1, 1] {
        leader.durable.log.append(entry(term));
    }
    elect(&mut leader, 3);
    let reject = RaftMessage::AppendEntriesReply {
        term: leader.term(),
        success: false,
        match_index: LogIndex(0),
        conflict_index: LogIndex(2),
        echo_sent_at_local_us: 0,
    };
    let retry = only_reply(&receive(&mut leader, 4_000, 1, reject));
    let RaftMessage::AppendEntries {
        prev_log_index,
        entries,
        ..
    } = retry
    else {
        panic!("leader must retry with AppendEntries: {retry:?}");
    };
    assert_eq!(prev_log_index, LogIndex(1));
    assert_eq!(entries.len(), 2);
    // Reference: §5.3
}

/// The `Invariant:` lines on Raft's state are asserted after every input in debug builds: a node whose
/// commit index runs past its log is a bug in the engine, and it stops the run at once.
#[test]
#[cfg(debug_assertions)]
#[should_panic(expected = "applied 0 <= commit 5 <= last index 0 broken")]
fn a_broken_state_invariant_is_caught_after_the_next_input() {
    let mut node = started(0, 3, RaftOptions::default());
    node.volatile.commit_index = LogIndex(5);
    input(
        &mut node,
        1_000,
        Input::Timer {
            key: ELECTION_TIMER,
        },
    );
}
