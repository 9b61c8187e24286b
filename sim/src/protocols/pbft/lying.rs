//! How a Byzantine PBFT replica bends what it sends (`Action::Byzantine`). It runs the protocol as an
//! honest replica would and changes only its outgoing messages, so its lies are visible on the wire as
//! messages whose content differs from what it knows, or differs by recipient:
//!
//! - `equivocate`: backups with an odd index (`n2`, `n4`, ...) are told about a forged request (same
//!   client and number, another operation): a primary pre-prepares it, any replica's prepares and
//!   commits name its digest. The others hear the truth.
//! - `lie`: every vote carries a digest that is not the request's, and a primary's pre-prepares carry a
//!   digest that does not match their request, so honest backups refuse them.
//! - `silent`: nothing is sent at all, while it still listens.
//! - `selective`: nothing is sent to the upper half of the other replicas by number
//!   (`SelectiveSilence`), and the truth to everyone else, clients included. A primary in this mode
//!   leaves too few backups with its pre-prepares to reach a quorum, and is voted out.
//!
//! What it cannot do is change the digest it quotes from the primary's signed pre-prepare
//! (`primary_digest`), so an honest backup can still catch an equivocating primary.

use super::replica::Replica;
use super::{Digest, PbftMessage, PbftRequest};
use crate::base::ids::NodeId;
use crate::contract::action::{ByzantineMode, SelectiveSilence};

/// Added to a digest to make a wrong one when no request is at hand to forge.
const WRONG_DIGEST: Digest = 0x5eed;

/// The request behind the slot a message is about, which a liar forges.
pub fn slot_request(replica: &Replica, message: &PbftMessage) -> Option<PbftRequest> {
    match message {
        PbftMessage::PrePrepare { request, .. } => *request,
        PbftMessage::Prepare { sequence, .. } | PbftMessage::Commit { sequence, .. } => {
            replica.slots.get(sequence)?.request
        }
        _ => None,
    }
}

fn forged_digest(digest: Digest, request: Option<PbftRequest>) -> Digest {
    match request {
        Some(request) if request.digest() == digest => request.forged().digest(),
        _ => digest.wrapping_add(WRONG_DIGEST).max(1),
    }
}

/// What a replica lying in `mode` sends `to` instead of `message`; `None` sends nothing.
pub fn shape(
    mode: Option<ByzantineMode>,
    (from, to): (NodeId, NodeId),
    replicas: usize,
    message: PbftMessage,
    request: Option<PbftRequest>,
) -> Option<PbftMessage> {
    match mode {
        None | Some(ByzantineMode::Honest) => Some(message),
        Some(ByzantineMode::Silent) => None,
        Some(ByzantineMode::Equivocate) if to.index() % 2 == 1 => Some(forge(message, request)),
        Some(ByzantineMode::Equivocate) => Some(message),
        Some(ByzantineMode::Lie) => Some(mislabel(message, request)),
        Some(ByzantineMode::Selective) if SelectiveSilence::ignores(from, to, replicas) => None,
        Some(ByzantineMode::Selective) => Some(message),
    }
}

/// The same message about the forged request.
fn forge(message: PbftMessage, request: Option<PbftRequest>) -> PbftMessage {
    match message {
        PbftMessage::PrePrepare {
            view,
            sequence,
            request: Some(request),
            ..
        } => PbftMessage::PrePrepare {
            view,
            sequence,
            digest: request.forged().digest(),
            request: Some(request.forged()),
        },
        message => mislabel(message, request),
    }
}

/// The same message with a digest that is not the request's.
fn mislabel(message: PbftMessage, request: Option<PbftRequest>) -> PbftMessage {
    match message {
        PbftMessage::PrePrepare {
            view,
            sequence,
            digest,
            request,
        } => PbftMessage::PrePrepare {
            view,
            sequence,
            digest: forged_digest(digest, request),
            request,
        },
        PbftMessage::Prepare {
            view,
            sequence,
            digest,
            primary_digest,
        } => PbftMessage::Prepare {
            view,
            sequence,
            digest: forged_digest(digest, request),
            primary_digest,
        },
        PbftMessage::Commit {
            view,
            sequence,
            digest,
        } => PbftMessage::Commit {
            view,
            sequence,
            digest: forged_digest(digest, request),
        },
        PbftMessage::Reply {
            view,
            number,
            sequence,
            digest,
        } => PbftMessage::Reply {
            view,
            number,
            sequence,
            digest: digest.wrapping_add(WRONG_DIGEST),
        },
        message => message,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pre_prepare(request: PbftRequest) -> PbftMessage {
        PbftMessage::PrePrepare {
            view: 0,
            sequence: 1,
            digest: request.digest(),
            request: Some(request),
        }
    }

    #[test]
    fn an_equivocating_primary_tells_odd_backups_another_request() {
        let request = PbftRequest {
            client: NodeId(4),
            number: 1,
            operation: 1,
        };
        let shaped = |mode, to: u16, request_known: bool| {
            let known = request_known.then_some(request);
            shape(
                Some(mode),
                (NodeId(0), NodeId(to)),
                4,
                pre_prepare(request),
                known,
            )
        };
        let even = shaped(ByzantineMode::Equivocate, 2, true);
        let odd = shaped(ByzantineMode::Equivocate, 1, true);
        assert_eq!(even, Some(pre_prepare(request)));
        assert_eq!(odd, Some(pre_prepare(request.forged())));
        assert_eq!(shaped(ByzantineMode::Silent, 1, false), None);
        let lied = shaped(ByzantineMode::Lie, 2, false);
        assert_ne!(
            lied.and_then(|message| message.digest()),
            Some(request.digest())
        );
    }

    #[test]
    fn a_selectively_silent_replica_tells_the_truth_to_those_it_does_not_ignore() {
        let request = PbftRequest {
            client: NodeId(7),
            number: 1,
            operation: 1,
        };
        let mode = Some(ByzantineMode::Selective);
        // Seven replicas: n1 talks to n2, n3 and n4, ignores n5, n6 and n7, and answers client A (n8).
        let sent_to: Vec<u16> = (1..8)
            .filter(|to| {
                shape(
                    mode,
                    (NodeId(0), NodeId(*to)),
                    7,
                    pre_prepare(request),
                    None,
                )
                .is_some()
            })
            .collect();
        assert_eq!(sent_to, [1, 2, 3, 7]);
        let told = shape(mode, (NodeId(0), NodeId(1)), 7, pre_prepare(request), None);
        assert_eq!(told, Some(pre_prepare(request)));
    }
}
