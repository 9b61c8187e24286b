//! What a panel shows of a two-phase-commit world: the coordinator's transaction and where it stands,
//! and each participant's phase on the transaction that matters to it (the oldest it is still waiting
//! on, else the newest), with since when. `rows()` gives it as label/value text, so a panel that knows
//! nothing of this protocol can show it.

use super::participant::Phase;
use super::{outcome_word, Node, TxId};
use crate::base::ids::NodeId;
use crate::contract::node_status::NodeStatus;
use crate::contract::panel_rows::{PanelRow, PanelRows};
use crate::contract::world_read::{actors_of, WorldRead};
use serde::Serialize;

/// Where the coordinator stands on its transaction in progress.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum CoordinatorState {
    /// Before the first transaction.
    Idle,
    /// Gathering votes: so many of so many in.
    Gathering {
        votes: usize,
        of: usize,
    },
    /// Writing its decision to the log (not made yet: a crash now loses it).
    Writing {
        commit: bool,
    },
    Decided {
        commit: bool,
    },
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct CoordinatorView {
    pub node: NodeId,
    /// Crashed: what it gathered in memory is gone; only its log's decisions remain.
    pub crashed: bool,
    pub transaction: TxId,
    pub state: CoordinatorState,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct ParticipantView {
    pub node: NodeId,
    /// `A`, `B`, ... as the world names its lettered actors.
    pub name: String,
    /// The transaction shown; `None` before any prepare reached it.
    pub transaction: Option<TxId>,
    pub phase: Phase,
    /// Since when (the participant's clock, ms) it has been in `phase`.
    pub since_ms: u64,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct TwoPhaseView {
    pub coordinator: Option<CoordinatorView>,
    pub participants: Vec<ParticipantView>,
}

impl TwoPhaseView {
    /// The view of `world`, read from its two-phase-commit nodes.
    pub fn read(world: &dyn WorldRead) -> TwoPhaseView {
        let mut view = TwoPhaseView {
            coordinator: None,
            participants: Vec::new(),
        };
        for (node, actor) in actors_of::<Node>(world) {
            match actor {
                Node::Coordinator(coordinator) => {
                    let state = match (
                        coordinator.decision(coordinator.current),
                        coordinator.writing,
                    ) {
                        _ if coordinator.current == 0 => CoordinatorState::Idle,
                        (Some(commit), _) => CoordinatorState::Decided { commit },
                        (None, Some(commit)) => CoordinatorState::Writing { commit },
                        (None, None) => CoordinatorState::Gathering {
                            votes: coordinator.votes.len(),
                            of: coordinator.participants.len(),
                        },
                    };
                    view.coordinator = Some(CoordinatorView {
                        node,
                        crashed: world.status(node) == Some(NodeStatus::Crashed),
                        transaction: coordinator.current,
                        state,
                    });
                }
                Node::Participant(participant) => {
                    let index = view.participants.len();
                    let shown = participant.shown();
                    view.participants.push(ParticipantView {
                        node,
                        name: char::from(b'A' + (index % 26) as u8).to_string(),
                        transaction: shown.map(|(tx, _)| tx),
                        phase: shown.map_or(Phase::Working, |(_, record)| record.phase()),
                        since_ms: shown.map_or(0, |(_, record)| record.since_ms()),
                    });
                }
            }
        }
        view
    }

    /// Participants in doubt right now.
    pub fn in_doubt(&self) -> usize {
        self.participants
            .iter()
            .filter(|participant| participant.phase == Phase::InDoubt)
            .count()
    }

    /// The world's card: one row per actor, coordinator first, each about its node (a participant's
    /// caption on the cluster drawing is its phase alone).
    pub fn rows(&self) -> PanelRows {
        let mut rows = Vec::new();
        if let Some(coordinator) = &self.coordinator {
            let tx = coordinator.transaction;
            let state = match coordinator.state {
                CoordinatorState::Idle => "no transaction yet".to_string(),
                CoordinatorState::Gathering { votes, of } => {
                    format!("transaction {tx}: {votes} of {of} votes in")
                }
                CoordinatorState::Writing { commit } => {
                    format!(
                        "transaction {tx}: writing {} to its log",
                        outcome_word(commit)
                    )
                }
                CoordinatorState::Decided { commit } => {
                    format!("transaction {tx}: decided {}", outcome_word(commit))
                }
            };
            let value = match (coordinator.crashed, coordinator.state) {
                (true, CoordinatorState::Decided { commit }) => {
                    format!(
                        "crashed; its log holds {} for transaction {tx}",
                        outcome_word(commit)
                    )
                }
                (true, _) => format!("crashed; its log holds no decision for transaction {tx}"),
                (false, _) => state,
            };
            rows.push(PanelRow::new(
                Some(coordinator.node),
                "coordinator".to_string(),
                value,
            ));
        }
        for participant in &self.participants {
            let value = match participant.transaction {
                None => participant.phase.word().to_string(),
                Some(tx) => format!(
                    "transaction {tx}: {} since {} ms",
                    participant.phase.word(),
                    participant.since_ms
                ),
            };
            rows.push(
                PanelRow::new(
                    Some(participant.node),
                    format!("participant {}", participant.name),
                    value,
                )
                .captioned(participant.phase.word().to_string()),
            );
        }
        PanelRows {
            title: "Two-phase commit",
            world: "two-phase-commit",
            subtitle: "the coordinator's decision and where each participant stands",
            rows,
        }
    }
}
