//! The Paxos world's card in words: what each acceptor has promised and accepted (kept on disk, or
//! not), what each proposer is doing, what each learner knows is chosen and which majority said so, and
//! the acceptors' truth.

use super::learner::Learned;
use super::view::{PaxosView, ProposerView};
use super::{ballot_text, value_name, Ballot, ProposerPhase};
use crate::base::ids::NodeId;
use crate::contract::panel_rows::{PanelRow, PanelRows};

/// One line per acceptor, then one per proposer, then one per learner actor, then the acceptors' truth.
pub fn rows(paxos: &PaxosView, labels: &[String]) -> PanelRows {
    let name = |node: NodeId| labels.get(node.index()).cloned().unwrap_or_default();
    let ballot = |ballot| ballot_text(ballot, &name);
    let disk = if paxos.durable_acceptors {
        "on disk"
    } else {
        "in memory only"
    };
    let mut rows: Vec<PanelRow> = paxos
        .acceptors
        .iter()
        .map(|acceptor| {
            let promised = acceptor.promised.map_or("no promise".into(), |promised| {
                format!("promised {}", ballot(promised))
            });
            let accepted = acceptor
                .accepted
                .map_or("accepted nothing".into(), |accepted| {
                    format!(
                        "accepted “{}” in {}",
                        value_name(accepted.value),
                        ballot(accepted.ballot)
                    )
                });
            PanelRow::new(
                Some(acceptor.id),
                format!("◯ {}", name(acceptor.id)),
                format!("{promised} · {accepted} ({disk})"),
            )
        })
        .collect();
    for proposer in &paxos.proposers {
        let doing = proposer_doing(proposer, paxos.acceptors.len(), &ballot);
        let knows = knows(proposer.learned, &name);
        rows.push(PanelRow::new(
            Some(proposer.id),
            format!("▢ {}", name(proposer.id)),
            format!("{doing} · {knows}"),
        ));
    }
    for learner in &paxos.learners {
        let knows = knows(learner.learned, &name);
        let asked = match (learner.learned, learner.questions_asked) {
            (None, 0) => String::new(),
            (None, 1) => " (asked the acceptors once)".into(),
            (None, times) => format!(" (asked the acceptors {times} times)"),
            (Some(_), _) => String::new(),
        };
        rows.push(PanelRow::new(
            Some(learner.id),
            format!("◇ {}", name(learner.id)),
            format!("{knows}{asked}"),
        ));
    }
    let truth = match paxos.chosen {
        Some(chosen) => format!(
            "“{}”, first by a majority in ballot {}",
            value_name(chosen.value),
            ballot(chosen.ballot)
        ),
        None => "nothing yet: no ballot has a majority of acceptances".into(),
    };
    rows.push(PanelRow::new(None, "Chosen".into(), truth));
    PanelRows {
        title: "Paxos",
        world: "paxos",
        subtitle: "promises, acceptances and what each learner knows",
        rows,
    }
}

fn proposer_doing(
    proposer: &ProposerView,
    acceptors: usize,
    ballot: &dyn Fn(Ballot) -> String,
) -> String {
    match (proposer.phase, proposer.ballot) {
        (ProposerPhase::Preparing, Some(current)) => format!(
            "ballot {}: {} of {} promises",
            ballot(current),
            proposer.promises.len(),
            acceptors / 2 + 1
        ),
        (ProposerPhase::Accepting, Some(current)) => format!(
            "ballot {}: asked to accept “{}”",
            ballot(current),
            proposer
                .proposed
                .map_or("?", |proposed| value_name(proposed.value))
        ),
        (ProposerPhase::Done, _) => "done proposing".into(),
        _ => format!("waiting to propose “{}”", value_name(proposer.own_value)),
    }
}

/// What a learner (a proposer or a learner actor) knows is chosen, and the majority that told it.
fn knows(learned: Option<Learned>, name: &dyn Fn(NodeId) -> String) -> String {
    match learned {
        Some(learned) => format!(
            "knows “{}” is chosen: {} accepted it in {}",
            value_name(learned.value),
            learned
                .acceptors
                .iter()
                .map(name)
                .collect::<Vec<_>>()
                .join(", "),
            ballot_text(learned.ballot, name)
        ),
        None => "knows nothing chosen yet".into(),
    }
}
