//! A Byzantine Raft server (`Action::Byzantine`): Raft assumes every node tells the truth, and this
//! file is what happens when one does not. The rest of `raft/` calls in at two places only: every
//! message goes through [`RaftNode::lies_about`] first, and a silent liar's sends (all of them, or
//! those to the peers it ignores) are dropped after each input.
//!
//! - `lie`: whenever the real leader's AppendEntries reaches it, it claims to have won that very term
//!   (a `BecameLeader` with votes it never got) and sends every other follower an AppendEntries of its
//!   own in the leader's term, with a forged write at the next index and a commit index covering it.
//!   Followers cannot tell it from the leader: one leader per term is an assumption, not a check. They
//!   commit and apply the forged write, and when the real leader later appends its own entry at that
//!   index in the same term, the followers take it for one they already hold. Honest servers apply
//!   different commands at one index: Election Safety, Log Matching and State Machine Safety fire.
//! - `equivocate`: it grants every vote it is asked for, to every candidate in every term (two in one
//!   term included), and answers in the asker's own term so no one learns of a higher one.
//! - `silent`: it runs Raft but sends nothing.
//! - `selective`: it runs Raft but sends nothing to the upper half of the other servers by number
//!   (`SelectiveSilence`); the lower half hear it as usual. A leader in this mode keeps the lower
//!   half content while the upper half hear no heartbeat and call elections: without pre-vote their
//!   higher term unseats it; with pre-vote the lower half refuse them, and in a five-server cluster
//!   it keeps leading on a bare majority while the upper half fall behind.

use super::message::RaftMessage;
use super::{Command, Entry, Payload, RaftNode, RaftWire};
use crate::base::ids::NodeId;
use crate::base::units::{LogIndex, Term};
use crate::contract::action::ByzantineMode;
use crate::contract::protocol::{Effects, RaftFact, VoteVerdict};

/// The key every forged write sets; its values count up from [`FORGED_VALUE`].
pub const FORGED_KEY: u32 = 666;
const FORGED_VALUE: u64 = 666_000;

/// What a lying server remembers: its mode, and the last index it forged (one forgery per index).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Liar {
    pub mode: ByzantineMode,
    forged_at: LogIndex,
}

impl<A: Payload, M: RaftWire<A>> RaftNode<A, M> {
    /// Makes this server lie in `mode`, or (`Honest`) tell the truth again.
    pub fn turn_liar(&mut self, mode: ByzantineMode) {
        self.liar = (mode != ByzantineMode::Honest).then_some(Liar {
            mode,
            forged_at: LogIndex::ZERO,
        });
    }

    pub fn lying_mode(&self) -> Option<ByzantineMode> {
        self.liar.map(|liar| liar.mode)
    }

    /// Handles `message` the liar's way, if its mode has one; `false` leaves it to honest Raft.
    pub(super) fn lies_about(
        &mut self,
        now_us: u64,
        from: NodeId,
        message: &RaftMessage<A>,
        effects: &mut Effects<M>,
    ) -> bool {
        let Some(liar) = self.liar else { return false };
        match (liar.mode, message) {
            (
                ByzantineMode::Equivocate,
                RaftMessage::RequestVote {
                    term,
                    candidate,
                    pre_vote,
                    ..
                },
            ) => {
                self.grant_anything(from, *candidate, *term, *pre_vote, effects);
                true
            }
            (ByzantineMode::Lie, RaftMessage::AppendEntries { term, leader, .. }) => {
                let (term, leader) = (*term, *leader);
                self.on_append_entries(now_us, from, message, effects);
                self.forge_after(liar, term, leader, effects);
                true
            }
            _ => false,
        }
    }

    fn grant_anything(
        &self,
        from: NodeId,
        candidate: NodeId,
        term: Term,
        pre_vote: bool,
        effects: &mut Effects<M>,
    ) {
        let granted = VoteVerdict::Granted;
        self.answer_vote(from, candidate, term, pre_vote, granted, term, effects);
    }

    /// Claims the real leader's term and sends the other followers a forged write after its log.
    fn forge_after(&mut self, liar: Liar, term: Term, leader: NodeId, effects: &mut Effects<M>) {
        let log = &self.durable.log;
        let prev_log_index = log.last_index();
        let index = prev_log_index.next();
        if term != self.durable.term || index <= liar.forged_at {
            return;
        }
        let prev_log_term = log.last_term();
        self.liar = Some(Liar {
            forged_at: index,
            ..liar
        });
        let votes = (self.node_count / 2 + 1) as u32;
        let cluster = self.node_count as u32;
        effects.observe(RaftFact::BecameLeader {
            term,
            votes,
            cluster,
        });
        let forged = Entry {
            term,
            command: Command::Put {
                key: FORGED_KEY,
                value: FORGED_VALUE + index.0,
                request: u64::MAX - index.0,
            },
        };
        for peer in self.peers().filter(|peer| *peer != leader) {
            let message = RaftMessage::AppendEntries {
                term,
                leader: self.id,
                prev_log_index,
                prev_log_term,
                entries: vec![forged],
                leader_commit: index,
                sent_at_local_us: 0,
            };
            effects.send(peer, message);
        }
    }
}
