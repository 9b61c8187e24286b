//! PBFT in plain words: sequence numbers assigned, prepares and commits gathered, requests executed,
//! view changes and why, and clients taking a result once f + 1 replicas agree. A backup handed a
//! pre-prepare other than the one its primary ordered is told apart: that is an equivocating primary
//! saying different things to different backups.

use super::fact::{NewViewFault, Suspicion};
use super::{digest_text, Digest, PbftFact};
use crate::base::ids::{NodeId, NodeSet};
use crate::contract::entry::describe::{Described, Describer, Telling, Weight};
use std::collections::BTreeMap;

/// Most slots remembered: enough for the slots in flight, the oldest forgotten first.
const REMEMBERED_SLOTS: usize = 256;

/// Remembers what each primary ordered, per view and sequence number, so that a backup accepting a
/// different request there can be told as the primary's lie; every other sentence comes from its fact.
#[derive(Clone, Debug, Hash, Default)]
pub struct PbftDescriber {
    ordered: BTreeMap<(u64, u64), (NodeId, Digest)>,
}

fn names(telling: &Telling<'_>, nodes: NodeSet) -> String {
    nodes
        .iter()
        .map(|node| telling.name(node))
        .collect::<Vec<_>>()
        .join(", ")
}

fn suspicion(why: Suspicion) -> &'static str {
    match why {
        Suspicion::Timeout => "a request it knows of has waited too long",
        Suspicion::Equivocation => {
            "another backup quoted the primary's pre-prepare with a different digest: the primary equivocated"
        }
        Suspicion::Joined => "enough replicas asked for it already",
    }
}

impl PbftDescriber {
    fn remember(&mut self, view: u64, sequence: u64, primary: NodeId, digest: Digest) {
        self.ordered.insert((view, sequence), (primary, digest));
        if self.ordered.len() > REMEMBERED_SLOTS {
            self.ordered.pop_first();
        }
    }
}

impl Describer<PbftFact> for PbftDescriber {
    fn describe(
        &mut self,
        node: NodeId,
        fact: &PbftFact,
        telling: &Telling<'_>,
    ) -> Option<Described> {
        let who = telling.name(node);
        let line = |weight, text: String| Described::new(weight, text, vec![node]);
        Some(match *fact {
            PbftFact::SequenceAssigned { view, sequence, digest } => {
                self.remember(view, sequence, node, digest);
                line(
                    Weight::Routine,
                    format!("{who}, primary of view {view}, orders request {} at sequence {sequence}", digest_text(digest)),
                )
                .coalescing("pbft-assigned")
            }
            PbftFact::PrePrepareAccepted { view, sequence, digest } => match self.ordered.get(&(view, sequence)) {
                Some(&(primary, ordered)) if ordered != digest => Described::new(
                    Weight::Notable,
                    format!(
                        "{who} accepts the pre-prepare of {} at {sequence}, but {} ordered {} there: the primary told {who} something else",
                        digest_text(digest),
                        telling.name(primary),
                        digest_text(ordered)
                    ),
                    vec![node, primary],
                ),
                _ => line(
                    Weight::Routine,
                    format!("{who} accepts the pre-prepare of {} at {sequence} and tells everyone", digest_text(digest)),
                )
                .coalescing("pbft-pre-prepare"),
            },
            PbftFact::PrePrepareRefused { sequence, digest, .. } => line(
                Weight::Notable,
                format!(
                    "{who} refuses a pre-prepare of {} at {sequence}: its digest does not match, or the slot holds another",
                    digest_text(digest)
                ),
            ),
            PbftFact::SlotPrepared { sequence, digest, vouchers, .. } => line(
                Weight::Routine,
                format!("{who} is prepared for {} at {sequence}: {} vouch for it", digest_text(digest), names(telling, vouchers)),
            )
            .coalescing("pbft-prepared"),
            PbftFact::SlotCommitted { sequence, digest, committers, honest, .. } => line(
                Weight::Routine,
                format!(
                    "{who} commits {} at {sequence} ({} sent matching commits){}",
                    digest_text(digest),
                    names(telling, committers),
                    if honest { "" } else { ", though it is lying itself" }
                ),
            )
            .coalescing("pbft-committed"),
            PbftFact::RequestExecuted { sequence, digest, client, number, forged } => line(
                if forged { Weight::Alarm } else { Weight::Routine },
                format!(
                    "{who} executes {}'s request {number} ({}) at {sequence}{}",
                    telling.name(client),
                    digest_text(digest),
                    if forged { ": a request the client never sent" } else { "" }
                ),
            )
            .coalescing("pbft-executed"),
            PbftFact::ViewChangeStarted { view, why } => line(
                Weight::Notable,
                format!("{who} asks for view {view}: {}", suspicion(why)),
            ),
            PbftFact::NewViewRefused { view, primary, votes, quorum, why } => line(
                Weight::Alarm,
                format!(
                    "{who} refuses {}'s new view {view}: {}",
                    telling.name(primary),
                    match why {
                        NewViewFault::TooFewViewChanges => format!(
                            "it shows {votes} view changes, and a new view needs {quorum} from distinct replicas"
                        ),
                        NewViewFault::ProposalsDoNotFollow => format!(
                            "the slots it proposes are not what its {votes} view changes say was prepared"
                        ),
                    }
                ),
            ),
            PbftFact::ViewEntered { view, primary } => line(
                Weight::Notable,
                format!("{who} enters view {view}; its primary is {}", telling.name(primary)),
            )
            .coalescing("pbft-view"),
            PbftFact::ResultAccepted { number, sequence, replicas } => line(
                Weight::Notable,
                format!(
                    "{who} takes the result of request {number} (sequence {sequence}): {} agree",
                    names(telling, replicas)
                ),
            ),
            PbftFact::RequestResent { number } => line(
                Weight::Notable,
                format!("{who} hears no f + 1 matching replies to request {number} in time and sends it again"),
            ),
        })
    }
}
