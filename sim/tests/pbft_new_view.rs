//! A `NewView` must carry its proof: "a set V containing the valid view-change messages received by
//! the primary" from 2f + 1 replicas, and backups check that the pre-prepares it re-proposes follow
//! from V (Castro and Liskov 1999, section 4.4). A Byzantine new primary that shows fewer, repeats a
//! sender, or proposes slots its view changes do not give is refused; an honest one is followed.

use quorumlab_sim::actor::{Fact, Message};
use quorumlab_sim::config::PbftOptions;
use quorumlab_sim::ids::NodeId;
use quorumlab_sim::pbft::fact::NewViewFault;
use quorumlab_sim::pbft::message::PreparedProof;
use quorumlab_sim::pbft::{PbftFact, PbftMessage, PbftRequest, Replica, ViewChangeVote};
use quorumlab_sim::protocol::{Effect, Effects, Input, Protocol};
use quorumlab_sim::runner::ScenarioRun;
use quorumlab_sim::scenario::parse_scenario;
use quorumlab_sim::trace::TraceEvent;

/// Replica n3 of four, in view 0: view 1's primary is n2.
fn backup() -> Replica {
    Replica::new(NodeId(2), 4, PbftOptions::default())
}

fn deliver(replica: &mut Replica, from: u16, message: PbftMessage) -> Vec<PbftFact> {
    let mut effects = Effects::<Message>::new();
    let wrapped = Message::Pbft(message);
    let input = Input::Message {
        from: NodeId(from),
        message: &wrapped,
    };
    replica.handle(0, input, &mut effects);
    effects
        .drain()
        .filter_map(|effect| match effect {
            Effect::Observe(Fact::Pbft(fact)) => Some(fact),
            _ => None,
        })
        .collect()
}

fn request() -> PbftRequest {
    PbftRequest {
        client: NodeId(4),
        number: 1,
        operation: 1,
    }
}

/// A view change from `from`, with `request` prepared at sequence 1 in view 0 or nothing.
fn vote(from: u16, request: Option<PbftRequest>) -> ViewChangeVote {
    let prepared = request
        .map(|request| PreparedProof {
            sequence: 1,
            view: 0,
            request: Some(request),
        })
        .into_iter()
        .collect();
    ViewChangeVote {
        from: NodeId(from),
        prepared,
    }
}

fn new_view(proposals: Vec<(u64, Option<PbftRequest>)>, proof: Vec<ViewChangeVote>) -> PbftMessage {
    PbftMessage::NewView {
        view: 1,
        proposals,
        proof,
    }
}

fn refused(facts: &[PbftFact]) -> Option<NewViewFault> {
    facts.iter().find_map(|fact| match fact {
        PbftFact::NewViewRefused { why, .. } => Some(*why),
        _ => None,
    })
}

#[test]
fn a_new_view_without_a_quorum_of_view_changes_is_refused() {
    let mut replica = backup();
    // The new primary's own view change alone: one of the three a view needs.
    let facts = deliver(&mut replica, 1, new_view(Vec::new(), vec![vote(1, None)]));
    assert_eq!(refused(&facts), Some(NewViewFault::TooFewViewChanges));
    assert_eq!(replica.view, 0, "still in view 0");
    // Three votes, all in n2's name: one replica, not three.
    let repeated = vec![vote(1, None), vote(1, None), vote(1, None)];
    let facts = deliver(&mut replica, 1, new_view(Vec::new(), repeated));
    assert_eq!(refused(&facts), Some(NewViewFault::TooFewViewChanges));
    // A "replica" that does not exist (the client's id) does not make up the count either.
    let stranger = vec![vote(1, None), vote(3, None), vote(4, None)];
    let facts = deliver(&mut replica, 1, new_view(Vec::new(), stranger));
    assert_eq!(refused(&facts), Some(NewViewFault::TooFewViewChanges));
    assert_eq!(replica.view, 0);
}

#[test]
fn a_new_view_that_drops_a_prepared_request_is_refused() {
    let mut replica = backup();
    let proof = vec![vote(1, None), vote(2, Some(request())), vote(3, None)];
    // n3 said it prepared the request at 1; a null request there would drop it.
    let facts = deliver(&mut replica, 1, new_view(vec![(1, None)], proof));
    assert_eq!(refused(&facts), Some(NewViewFault::ProposalsDoNotFollow));
    assert_eq!(replica.view, 0);
}

#[test]
fn a_new_view_with_its_proof_is_entered() {
    let mut replica = backup();
    let proof = vec![vote(1, None), vote(2, Some(request())), vote(3, None)];
    let facts = deliver(&mut replica, 1, new_view(vec![(1, Some(request()))], proof));
    assert_eq!(refused(&facts), None, "{facts:?}");
    assert_eq!(replica.view, 1);
    assert!(facts
        .iter()
        .any(|fact| matches!(fact, PbftFact::ViewEntered { view: 1, .. })));
    // The same NewView from a replica that is not view 1's primary is ignored, not refused.
    let mut other = backup();
    let proof = vec![vote(1, None), vote(2, None), vote(3, None)];
    let facts = deliver(&mut other, 3, new_view(Vec::new(), proof));
    assert!(facts.is_empty() && other.view == 0, "{facts:?}");
}

#[test]
fn honest_view_changes_in_the_examples_are_never_refused() {
    for name in ["pbft-normal.toml", "pbft-byzantine-primary.toml"] {
        let path = format!("{}/scenarios/{name}", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(&path).expect("the example exists");
        let mut run = ScenarioRun::new(parse_scenario(&text, name).expect("parses")).expect("runs");
        run.run_to_end();
        let (mut entered, mut refusals) = (0, 0);
        for record in run.world().trace().records() {
            if let TraceEvent::Observe {
                fact: Fact::Pbft(fact),
                ..
            } = &record.event
            {
                entered += u64::from(matches!(fact, PbftFact::ViewEntered { view: 1.., .. }));
                refusals += u64::from(matches!(fact, PbftFact::NewViewRefused { .. }));
            }
        }
        assert!(entered >= 3, "{name}: a view change happened ({entered})");
        assert_eq!(refusals, 0, "{name}");
    }
}
