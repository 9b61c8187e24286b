//! What one message in flight says, in a few words, so a learner can compare two messages side by
//! side: a liar's lies show as messages from one sender, in one round, that carry different values
//! to different recipients (a vote granted to two candidates in one term, two digests for one slot).

use crate::base::ids::NodeId;
use crate::protocols::pbft::{digest_text, is_forged, PbftMessage, PbftRequest};
use crate::protocols::raft::{Command, RaftMessage};
use crate::protocols::resource::ResourceMessage;
use crate::worlds::actor::Message;

/// Entries of one AppendEntries spelled out; the rest are counted.
const ENTRIES_SPELLED: usize = 2;

/// The content of `message`, naming nodes with `name`; `None` for worlds whose messages the kind
/// already says enough about.
pub fn message_content(message: &Message, name: &dyn Fn(NodeId) -> String) -> Option<String> {
    match message {
        Message::Raft(raft) => Some(raft_content(raft, name)),
        Message::Pbft(pbft) => Some(pbft_content(pbft, name)),
        // The one store request sent as text: what it says is what makes it malformed.
        Message::Resource(ResourceMessage::RawWrite { write, .. }) => Some(write.text()),
        _ => None,
    }
}

fn command_text<A>(command: &Command<A>) -> String {
    match command {
        Command::Noop => "no-op".to_string(),
        Command::Put { key, value, .. } => format!("put {key} = {value}"),
        Command::Get { key, .. } => format!("get {key}"),
        Command::App(_) => "lock operation".to_string(),
        Command::Config { voters } => format!("configuration: {} voters", voters.len()),
    }
}

fn raft_content<A>(message: &RaftMessage<A>, name: &dyn Fn(NodeId) -> String) -> String {
    match message {
        RaftMessage::RequestVote {
            term,
            candidate,
            last_log_index,
            ..
        } => format!(
            "term {term}: vote for {}? (log up to {last_log_index})",
            name(*candidate)
        ),
        RaftMessage::RequestVoteReply { term, granted, .. } => {
            let answer = if *granted { "yes" } else { "no" };
            format!("term {term}: {answer}")
        }
        RaftMessage::AppendEntries {
            term,
            leader,
            prev_log_index,
            entries,
            leader_commit,
            ..
        } => {
            let mut spelled: Vec<String> = entries
                .iter()
                .take(ENTRIES_SPELLED)
                .map(|entry| command_text(&entry.command))
                .collect();
            if entries.len() > ENTRIES_SPELLED {
                spelled.push(format!("{} more", entries.len() - ENTRIES_SPELLED));
            }
            let carried = match spelled.is_empty() {
                true => "no entries".to_string(),
                false => format!("after {prev_log_index}: {}", spelled.join(", ")),
            };
            format!(
                "term {term}, leader {} · {carried} · commit {leader_commit}",
                name(*leader)
            )
        }
        RaftMessage::AppendEntriesReply {
            term,
            success,
            match_index,
            conflict_index,
            ..
        } => match success {
            true => format!("term {term}: holds up to {match_index}"),
            false => format!("term {term}: refused, try from {conflict_index}"),
        },
    }
}

fn request_text(request: &PbftRequest, name: &dyn Fn(NodeId) -> String) -> String {
    let forged = if is_forged(request.operation) {
        " (forged)"
    } else {
        ""
    };
    format!(
        "{}'s request {}{forged}",
        name(request.client),
        request.number
    )
}

fn pbft_content(message: &PbftMessage, name: &dyn Fn(NodeId) -> String) -> String {
    match message {
        PbftMessage::Request(request) => request_text(request, name),
        PbftMessage::PrePrepare {
            view,
            sequence,
            digest,
            request,
        } => {
            let what = request.map_or("the null request".to_string(), |request| {
                request_text(&request, name)
            });
            format!(
                "view {view}, #{sequence}: digest {} = {what}",
                digest_text(*digest)
            )
        }
        PbftMessage::Prepare {
            view,
            sequence,
            digest,
            ..
        } => format!("view {view}, #{sequence}: digest {}", digest_text(*digest)),
        PbftMessage::Commit {
            view,
            sequence,
            digest,
        } => format!("view {view}, #{sequence}: digest {}", digest_text(*digest)),
        PbftMessage::Reply {
            number,
            sequence,
            digest,
            ..
        } => format!(
            "request {number} ran at #{sequence}, digest {}",
            digest_text(*digest)
        ),
        PbftMessage::ViewChange { view, prepared } => {
            format!("to view {view}, {} prepared requests", prepared.len())
        }
        PbftMessage::NewView {
            view,
            proposals,
            proof,
        } => {
            format!(
                "view {view} starts, {} slots proposed again, from {} view changes",
                proposals.len(),
                proof.len()
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn name(node: NodeId) -> String {
        format!("n{}", node.0 + 1)
    }

    #[test]
    fn two_pre_prepares_for_one_slot_read_differently_when_one_is_forged() {
        let request = PbftRequest {
            client: NodeId(4),
            number: 1,
            operation: 1,
        };
        let pre_prepare = |request: PbftRequest| {
            Message::Pbft(PbftMessage::PrePrepare {
                view: 0,
                sequence: 1,
                digest: request.digest(),
                request: Some(request),
            })
        };
        let honest = message_content(&pre_prepare(request), &name).unwrap_or_default();
        let forged = message_content(&pre_prepare(request.forged()), &name).unwrap_or_default();
        assert_ne!(honest, forged);
        assert!(forged.ends_with("(forged)"), "{forged}");
        assert!(honest.starts_with("view 0, #1: digest "), "{honest}");
    }
}
