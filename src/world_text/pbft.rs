//! What PBFT replicas and clients are doing, in the words the ring and the PBFT card use: a
//! replica's view and whether it is that view's primary, a slot's phase and digest, a client's
//! replies against the f + 1 it needs, and what the run has cost in messages.

use quorumlab_sim::ids::NodeId;
use quorumlab_sim::pbft::{digest_text, SlotPhase};
use quorumlab_sim::price::MessageCost;
use quorumlab_sim::view_coordination::{PbftClientView, PbftView, ReplicaView, SlotView};
use quorumlab_sim::world::NodeStatus;

/// The view most replicas are in (the higher on a tie) and its primary: what the leader chip shows.
pub fn agreed_primary(pbft: &PbftView) -> Option<(NodeId, u64)> {
    let count = |view: u64| {
        let replicas = pbft.replicas.iter();
        replicas.filter(|replica| replica.view == view).count()
    };
    let replica = pbft
        .replicas
        .iter()
        .max_by_key(|replica| (count(replica.view), replica.view))?;
    Some((replica.primary, replica.view))
}

/// A replica's or a client's state in a few words for its caption on the ring.
pub fn pbft_state(pbft: &PbftView, node: NodeId) -> Option<String> {
    if let Some(replica) = pbft.replicas.iter().find(|replica| replica.id == node) {
        return Some(replica_words(replica));
    }
    let client = pbft.clients.iter().find(|client| client.id == node)?;
    let stuck = match pbft.beyond_tolerance() {
        true => format!(
            " · {} faulty > f = {}",
            pbft.faulty.len(),
            pbft.faults_tolerated
        ),
        false => String::new(),
    };
    Some(match client.waiting_on {
        Some(number) => format!(
            "waits on {number}: {} of {} replies{stuck}",
            most_matching(client),
            client.needed
        ),
        None => format!("took {} results", client.accepted),
    })
}

fn replica_words(replica: &ReplicaView) -> String {
    match replica.changing_to {
        Some(next) => format!("asks for view {next}"),
        None if replica.primary == replica.id => format!("primary of view {}", replica.view),
        None => format!("view {} · ran {}", replica.view, replica.executed),
    }
}

/// Replies naming the sequence number most replicas named.
fn most_matching(client: &PbftClientView) -> usize {
    client
        .replies
        .iter()
        .map(|(_, replicas)| replicas.len())
        .max()
        .unwrap_or(0)
}

pub fn phase_word(phase: SlotPhase) -> &'static str {
    match phase {
        SlotPhase::Waiting => "votes only",
        SlotPhase::PrePrepared => "pre-prepared",
        SlotPhase::Prepared => "prepared",
        SlotPhase::Committed => "committed",
        SlotPhase::Executed => "committed, ran",
    }
}

/// One slot as its chip reads: `#3 prepared · 4ab3 A1 · 3 vouch, 1 commit`.
pub fn slot_words(slot: &SlotView, name: &dyn Fn(NodeId) -> String) -> String {
    let request = match (slot.request, slot.digest) {
        (Some((client, number)), _) => {
            let forged = if slot.forged { " forged" } else { "" };
            format!(" {}{number}{forged}", name(client))
        }
        (None, Some(0)) => " null".to_string(),
        _ => String::new(),
    };
    let digest = slot.digest.map(digest_text).unwrap_or_else(|| "—".into());
    format!(
        "#{} {} · {digest}{request} · {} vouch, {} commit",
        slot.sequence,
        phase_word(slot.phase),
        slot.vouchers,
        slot.committers
    )
}

/// A client's line: what it waits on and who replied, or the last result it took.
pub fn client_words(client: &PbftClientView, name: &dyn Fn(NodeId) -> String) -> String {
    let taken = format!("took {} results", client.accepted);
    let Some(number) = client.waiting_on else {
        return match client.last_result {
            Some((number, sequence)) => format!("{taken}; request {number} ran at #{sequence}"),
            None => format!("{taken}; no request out yet"),
        };
    };
    let replies: Vec<String> = client
        .replies
        .iter()
        .map(|(sequence, replicas)| {
            let who: Vec<String> = replicas.iter().map(name).collect();
            format!("#{sequence} from {}", who.join(", "))
        })
        .collect();
    let heard = match replies.is_empty() {
        true => "no replies yet".to_string(),
        false => format!("replies {}", replies.join("; ")),
    };
    format!(
        "{taken}; waits on request {number}: {heard} (needs {} matching)",
        client.needed
    )
}

/// Said when more replicas are faulty than n = 3f + 1 tolerates: which ones, and what PBFT no longer
/// promises. With the safe quorum the honest replicas left are too few to make a quorum, so nothing
/// commits until a fault ends; with a quorum set below 2f + 1 they may commit but may disagree.
pub fn beyond_tolerance(pbft: &PbftView, name: &dyn Fn(NodeId) -> String) -> Option<String> {
    if !pbft.beyond_tolerance() {
        return None;
    }
    let replicas = pbft.replicas.len();
    let faults: Vec<String> = pbft
        .replicas
        .iter()
        .filter(|replica| pbft.faulty.contains(&replica.id))
        .map(|replica| match (replica.status, replica.lying) {
            (NodeStatus::Crashed, _) => format!("{} crashed", name(replica.id)),
            (NodeStatus::Paused, _) => format!("{} paused", name(replica.id)),
            (NodeStatus::Up, _) => format!("{} lies", name(replica.id)),
        })
        .collect();
    let honest = replicas - pbft.faulty.len();
    let faulty = match pbft.faulty.len() {
        1 => "1 faulty replica".to_string(),
        count => format!("{count} faulty replicas"),
    };
    let head = format!(
        "{faulty} ({}) but n = {replicas} tolerates f = {}",
        faults.join(", "),
        pbft.faults_tolerated
    );
    let consequence = match honest < pbft.quorum {
        true => format!(
            "the {honest} honest ones cannot make the {} matching votes a request needs, so no request commits until a fault ends (restart a replica or make it honest). PBFT promises nothing beyond f faults",
            pbft.quorum
        ),
        false => "PBFT no longer promises that honest replicas agree".to_string(),
    };
    Some(format!("{head}: {consequence}."))
}

/// Messages per committed request, one decimal: `34.0`, or `—` before the first.
pub fn per_request(cost: MessageCost) -> String {
    tenths_text(cost.per_commit_tenths())
}

/// A figure kept in tenths, with one decimal: `34.0`, or `—` when there is none yet.
pub fn tenths_text(tenths: Option<u64>) -> String {
    match tenths {
        Some(tenths) => format!("{}.{}", tenths / 10, tenths % 10),
        None => "—".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use quorumlab_sim::ids::NodeSet;

    fn name(node: NodeId) -> String {
        match node.0 {
            4 => "A".into(),
            index => format!("n{}", index + 1),
        }
    }

    #[test]
    fn a_slot_and_a_client_read_as_phase_digest_and_replies() {
        let slot = SlotView {
            sequence: 3,
            view: 0,
            phase: SlotPhase::Prepared,
            digest: Some(0x1234_abcd),
            request: Some((NodeId(4), 3)),
            forged: true,
            vouchers: 3,
            committers: 1,
        };
        assert_eq!(
            slot_words(&slot, &name),
            "#3 prepared · abcd A3 forged · 3 vouch, 1 commit"
        );
        let mut replicas = NodeSet::default();
        replicas.insert(NodeId(1));
        let client = PbftClientView {
            id: NodeId(4),
            waiting_on: Some(4),
            replies: vec![(4, replicas)],
            needed: 2,
            accepted: 3,
            last_result: Some((3, 3)),
        };
        assert_eq!(
            client_words(&client, &name),
            "took 3 results; waits on request 4: replies #4 from n2 (needs 2 matching)"
        );
        let cost = MessageCost {
            messages: 476,
            committed: 14,
            heartbeats: 0,
            upkeep: 0,
        };
        assert_eq!(per_request(cost), "34.0");
    }

    fn four_replicas(faults: &[(u16, NodeStatus, bool)]) -> PbftView {
        let replica = |index: u16| {
            let fault = faults.iter().find(|(at, _, _)| *at == index);
            ReplicaView {
                id: NodeId(index),
                status: fault.map_or(NodeStatus::Up, |fault| fault.1),
                view: 1,
                changing_to: None,
                primary: NodeId(1),
                lying: fault
                    .filter(|fault| fault.2)
                    .map(|_| quorumlab_sim::action::ByzantineMode::Lie),
                executed: 6,
                slots: Vec::new(),
                waiting_requests: 1,
            }
        };
        let replicas: Vec<ReplicaView> = (0..4).map(replica).collect();
        let faulty = replicas
            .iter()
            .filter(|replica| replica.status != NodeStatus::Up || replica.lying.is_some())
            .map(|replica| replica.id)
            .collect();
        PbftView {
            replicas,
            clients: vec![PbftClientView {
                id: NodeId(4),
                waiting_on: Some(7),
                replies: Vec::new(),
                needed: 2,
                accepted: 6,
                last_result: Some((6, 6)),
            }],
            faults_tolerated: 1,
            quorum: 3,
            reply_quorum: 2,
            messages_sent: 100,
            results_taken: 6,
            faulty,
        }
    }

    #[test]
    fn two_faults_among_four_replicas_are_named_as_beyond_what_pbft_tolerates() {
        let crashed_and_lying =
            four_replicas(&[(0, NodeStatus::Crashed, false), (2, NodeStatus::Up, true)]);
        let words = beyond_tolerance(&crashed_and_lying, &name).expect("two faults of four");
        assert!(
            words.starts_with("2 faulty replicas (n1 crashed, n3 lies) but n = 4 tolerates f = 1"),
            "{words}"
        );
        assert!(
            words.contains("2 honest ones cannot make the 3 matching votes"),
            "{words}"
        );
        assert_eq!(
            pbft_state(&crashed_and_lying, NodeId(4)).as_deref(),
            Some("waits on 7: 0 of 2 replies · 2 faulty > f = 1")
        );
        // One fault is what n = 4 is built for: nothing to warn of.
        let one_liar = four_replicas(&[(2, NodeStatus::Up, true)]);
        assert_eq!(beyond_tolerance(&one_liar, &name), None);
        assert_eq!(
            pbft_state(&one_liar, NodeId(4)).as_deref(),
            Some("waits on 7: 0 of 2 replies")
        );
        // A crashed liar is one faulty replica, not two.
        let crashed_liar = four_replicas(&[(2, NodeStatus::Crashed, true)]);
        assert_eq!(beyond_tolerance(&crashed_liar, &name), None);
        let paused_and_crashed = four_replicas(&[
            (1, NodeStatus::Paused, false),
            (3, NodeStatus::Crashed, false),
        ]);
        let words = beyond_tolerance(&paused_and_crashed, &name).expect("two down");
        assert!(words.contains("(n2 paused, n4 crashed)"), "{words}");
    }

    #[test]
    fn one_fault_beyond_a_cluster_that_tolerates_none_is_one_replica_not_replicas() {
        let mut one_liar = four_replicas(&[(0, NodeStatus::Up, true)]);
        one_liar.faults_tolerated = 0;
        let words = beyond_tolerance(&one_liar, &name).expect("one fault, none tolerated");
        assert!(
            words.starts_with("1 faulty replica (n1 lies) but n = 4 tolerates f = 0"),
            "{words}"
        );
    }

    #[test]
    fn a_figure_in_tenths_reads_with_one_decimal_or_a_dash() {
        assert_eq!(tenths_text(Some(62)), "6.2");
        assert_eq!(tenths_text(Some(320)), "32.0");
        assert_eq!(tenths_text(None), "—");
    }
}
