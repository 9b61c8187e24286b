//! Election timeouts, votes and role changes (§5.2, §5.4.1; PreVote and CheckQuorum from the thesis §9.6).

use super::quorum::majority;
use super::{
    Command, Entry, LeaderState, Payload, RaftMessage, RaftNode, RaftWire, ELECTION_TIMER,
    HEARTBEAT_TIMER,
};
use crate::base::ids::NodeId;
use crate::base::units::{LogIndex, Term};
use crate::contract::config::MembershipMode;
use crate::contract::protocol::{Effects, RaftFact, RoleLabel, TimerDelay, VoteVerdict};

impl<A: Payload, M: RaftWire<A>> RaftNode<A, M> {
    pub(super) fn reset_election_timer(&self, effects: &mut Effects<M>) {
        let delay = TimerDelay::Between {
            min_local_us: self.timing.election_min_us,
            max_local_us: self.timing.election_max_us,
        };
        effects.set_timer(ELECTION_TIMER, delay, "election");
    }

    /// Rule for all servers: if a message carries a higher term, adopt it and become follower (§5.1).
    pub(super) fn become_follower(
        &mut self,
        term: Term,
        leader: Option<NodeId>,
        effects: &mut Effects<M>,
    ) {
        let was = self.volatile.role;
        if term > self.durable.term {
            self.durable.term = term;
            self.durable.voted_for = None;
            effects.persist("term+vote");
        }
        self.volatile.role = RoleLabel::Follower;
        self.volatile.leader = None;
        self.volatile.pending_requests.clear();
        if leader.is_some() {
            self.volatile.leader_hint = leader;
        }
        if was != RoleLabel::Follower {
            effects.cancel_timer(HEARTBEAT_TIMER);
            effects.observe(RaftFact::BecameFollower {
                term: self.durable.term,
            });
        }
        if was == RoleLabel::Leader {
            self.reset_election_timer(effects);
        }
    }

    pub(super) fn on_election_timer(&mut self, now_us: u64, effects: &mut Effects<M>) {
        if self.volatile.role == RoleLabel::Leader {
            self.check_quorum(effects);
            return;
        }
        // A learner or a removed server never campaigns; the leader's next AppendEntries re-arms the
        // timer if it becomes a voter.
        if !self.is_voter() {
            return;
        }
        if self.options.pre_vote {
            self.start_pre_vote(effects);
        } else {
            self.start_election(now_us, effects);
        }
    }

    fn start_pre_vote(&mut self, effects: &mut Effects<M>) {
        self.volatile.role = RoleLabel::PreCandidate;
        self.volatile.leader_hint = None;
        self.clear_votes();
        effects.observe(RaftFact::BecamePreCandidate {
            term: self.durable.term,
        });
        self.reset_election_timer(effects);
        self.request_votes(self.durable.term.next(), true, effects);
        self.tally_after_own_vote(0, true, effects);
    }

    fn start_election(&mut self, now_us: u64, effects: &mut Effects<M>) {
        self.durable.term = self.durable.term.next();
        self.durable.voted_for = Some(self.id);
        effects.persist("term+vote");
        self.volatile.role = RoleLabel::Candidate;
        self.volatile.leader_hint = None;
        self.clear_votes();
        effects.observe(RaftFact::BecameCandidate {
            term: self.durable.term,
        });
        self.reset_election_timer(effects);
        self.request_votes(self.durable.term, false, effects);
        self.tally_after_own_vote(now_us, false, effects);
    }

    fn clear_votes(&mut self) {
        self.volatile
            .votes_granted
            .iter_mut()
            .for_each(|vote| *vote = false);
        self.volatile.votes_granted[self.id.index()] = true;
    }

    fn request_votes(&self, term: Term, pre_vote: bool, effects: &mut Effects<M>) {
        let log = &self.durable.log;
        for peer in self.peers() {
            let message = RaftMessage::RequestVote {
                term,
                candidate: self.id,
                last_log_index: log.last_index(),
                last_log_term: log.last_term(),
                pre_vote,
            };
            self.send(effects, peer, message);
        }
    }

    /// A one-node cluster wins on its own vote.
    fn tally_after_own_vote(&mut self, now_us: u64, pre_vote: bool, effects: &mut Effects<M>) {
        if self.votes() >= majority(self.voters().len()) {
            if pre_vote {
                self.start_election(now_us, effects);
            } else {
                self.become_leader(now_us, effects);
            }
        }
    }

    /// Votes granted by servers of this candidate's configuration (anyone else's do not count).
    fn votes(&self) -> usize {
        self.voters()
            .iter()
            .filter(|voter| self.volatile.votes_granted[voter.index()])
            .count()
    }

    /// While a follower still hears a leader (within the minimum election timeout), CheckQuorum and lease
    /// reads require it to ignore candidates: that is what makes a leader's lease safe.
    fn hears_leader(&self, now_us: u64) -> bool {
        let sticky =
            self.options.check_quorum || self.options.lease_reads() || self.options.pre_vote;
        let heard = self
            .volatile
            .last_leader_contact_local_us
            .is_some_and(|contact| now_us.saturating_sub(contact) < self.timing.election_min_us);
        sticky && heard && self.volatile.role == RoleLabel::Follower
    }

    /// Ongaro's dissertation, section 4.2.3: a server removed from the configuration no longer hears
    /// the leader, times out and asks for votes with ever higher terms, and each request would make
    /// the leader step down. So a server ignores a candidate *outside its configuration* while it
    /// leads or still hears a leader (within the minimum election timeout). Ignoring a request is
    /// no more than losing it, so safety is untouched; it is limited to outsiders (and to membership
    /// through the log) so that clusters whose membership never changes run exactly as before, and
    /// the unsafe direct mode keeps showing what it shows.
    fn ignores_outsider(&self, now_us: u64, candidate: NodeId) -> bool {
        let through_log = self.options.membership == MembershipMode::Log;
        let heard = self
            .volatile
            .last_leader_contact_local_us
            .is_some_and(|contact| now_us.saturating_sub(contact) < self.timing.election_min_us);
        through_log && !self.voters().contains(candidate) && (self.is_leader() || heard)
    }

    pub(super) fn on_request_vote(
        &mut self,
        now_us: u64,
        from: NodeId,
        message: &RaftMessage<A>,
        effects: &mut Effects<M>,
    ) {
        let RaftMessage::RequestVote {
            term,
            candidate,
            last_log_index,
            last_log_term,
            pre_vote,
        } = *message
        else {
            return;
        };
        let up_to_date = self
            .durable
            .log
            .is_up_to_date(last_log_index, last_log_term);
        if term > self.durable.term && self.ignores_outsider(now_us, candidate) {
            let reply_term = self.durable.term;
            let verdict = VoteVerdict::HearsLeader;
            self.answer_vote(
                from, candidate, term, pre_vote, verdict, reply_term, effects,
            );
            return;
        }
        if pre_vote {
            let verdict = self.pre_vote_verdict(now_us, term, up_to_date);
            let granted = verdict == VoteVerdict::Granted;
            let reply_term = if granted { term } else { self.durable.term };
            self.answer_vote(from, candidate, term, true, verdict, reply_term, effects);
            return;
        }
        if term > self.durable.term && self.hears_leader(now_us) {
            let reply_term = self.durable.term;
            let verdict = VoteVerdict::HearsLeader;
            self.answer_vote(from, candidate, term, false, verdict, reply_term, effects);
            return;
        }
        if term > self.durable.term {
            self.become_follower(term, None, effects);
        }
        let verdict = self.vote_verdict(term, candidate, up_to_date);
        if verdict == VoteVerdict::Granted {
            self.durable.voted_for = Some(candidate);
            effects.persist("term+vote");
            self.reset_election_timer(effects);
        }
        let reply_term = self.durable.term;
        self.answer_vote(from, candidate, term, false, verdict, reply_term, effects);
    }

    fn pre_vote_verdict(&self, now_us: u64, term: Term, up_to_date: bool) -> VoteVerdict {
        if term <= self.durable.term {
            VoteVerdict::StaleTerm {
                voter_term: self.durable.term,
            }
        } else if !up_to_date {
            VoteVerdict::LogBehind
        } else if self.hears_leader(now_us) {
            VoteVerdict::HearsLeader
        } else {
            VoteVerdict::Granted
        }
    }

    /// §5.2 and §5.4.1: one vote per term, only for a candidate whose log is at least as up to date.
    fn vote_verdict(&self, term: Term, candidate: NodeId, up_to_date: bool) -> VoteVerdict {
        let voted = self.durable.voted_for.filter(|voted| *voted != candidate);
        if term < self.durable.term {
            VoteVerdict::StaleTerm {
                voter_term: self.durable.term,
            }
        } else if let Some(for_candidate) = voted {
            VoteVerdict::AlreadyVoted { for_candidate }
        } else if !up_to_date {
            VoteVerdict::LogBehind
        } else {
            VoteVerdict::Granted
        }
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn answer_vote(
        &self,
        from: NodeId,
        candidate: NodeId,
        term: Term,
        pre_vote: bool,
        verdict: VoteVerdict,
        reply_term: Term,
        effects: &mut Effects<M>,
    ) {
        effects.observe(RaftFact::VoteCast {
            candidate,
            term,
            pre_vote,
            verdict,
        });
        let reply = RaftMessage::RequestVoteReply {
            term: reply_term,
            granted: verdict == VoteVerdict::Granted,
            pre_vote,
        };
        self.send(effects, from, reply);
    }

    pub(super) fn on_vote_reply(
        &mut self,
        now_us: u64,
        from: NodeId,
        term: Term,
        granted: bool,
        pre_vote: bool,
        effects: &mut Effects<M>,
    ) {
        if term > self.durable.term && !(pre_vote && granted) {
            self.become_follower(term, None, effects);
            return;
        }
        let expected_role = if pre_vote {
            RoleLabel::PreCandidate
        } else {
            RoleLabel::Candidate
        };
        let expected_term = if pre_vote {
            self.durable.term.next()
        } else {
            self.durable.term
        };
        if self.volatile.role != expected_role || term != expected_term || !granted {
            return;
        }
        self.volatile.votes_granted[from.index()] = true;
        if self.votes() >= majority(self.voters().len()) {
            if pre_vote {
                self.start_election(now_us, effects);
            } else {
                self.become_leader(now_us, effects);
            }
        }
    }

    fn become_leader(&mut self, now_us: u64, effects: &mut Effects<M>) {
        let last = self.durable.log.last_index();
        let count = self.node_count;
        self.volatile.role = RoleLabel::Leader;
        self.volatile.leader_hint = Some(self.id);
        self.volatile.leader = Some(LeaderState {
            next_index: vec![last.next(); count],
            match_index: (0..count)
                .map(|peer| {
                    if peer == self.id.index() {
                        last
                    } else {
                        LogIndex::ZERO
                    }
                })
                .collect(),
            heard_since_check: vec![false; count],
            acked_sent_at_local_us: vec![0; count],
            membership: Default::default(),
            reads: Default::default(),
        });
        effects.observe(RaftFact::BecameLeader {
            term: self.durable.term,
            votes: self.votes() as u32,
            cluster: self.voters().len() as u32,
        });
        if !self.options.unsafe_commit_previous_term {
            let noop = Entry {
                term: self.durable.term,
                command: Command::Noop,
            };
            self.append_as_leader(noop, effects);
        }
        self.mark_self_acked(now_us);
        if self.options.check_quorum {
            let delay = TimerDelay::Exactly {
                local_us: self.timing.election_min_us,
            };
            effects.set_timer(ELECTION_TIMER, delay, "check quorum");
        } else {
            effects.cancel_timer(ELECTION_TIMER);
        }
        self.broadcast_append(now_us, effects);
        self.advance_commit(effects);
        self.arm_heartbeat(effects);
    }

    pub(super) fn arm_heartbeat(&self, effects: &mut Effects<M>) {
        let delay = TimerDelay::Exactly {
            local_us: self.timing.heartbeat_us,
        };
        effects.set_timer(HEARTBEAT_TIMER, delay, "heartbeat");
    }

    /// CheckQuorum: step down unless a majority was heard from during the last election timeout.
    fn check_quorum(&mut self, effects: &mut Effects<M>) {
        let me = self.id;
        let voters = self.voters();
        let Some(leader) = self.volatile.leader.as_mut() else {
            return;
        };
        let heard = voters
            .iter()
            .filter(|voter| leader.heard_since_check[voter.index()] || *voter == me)
            .count();
        leader
            .heard_since_check
            .iter_mut()
            .for_each(|flag| *flag = false);
        if heard >= majority(voters.len()) {
            let delay = TimerDelay::Exactly {
                local_us: self.timing.election_min_us,
            };
            effects.set_timer(ELECTION_TIMER, delay, "check quorum");
            return;
        }
        effects.observe(RaftFact::LostQuorum {
            term: self.durable.term,
        });
        self.become_follower(self.durable.term, None, effects);
    }
}
