//! Node-symmetry reduction for the search, in the one world where it is sound: a plain Raft cluster
//! of two to five servers, searched for a broken invariant, with no scripted step left that names a
//! server.
//!
//! Raft's rules do not depend on a server's number: every server runs the same code, counts votes
//! and acknowledgements by majority, and the search offers every fault to every server alike. So
//! two states that are mirror images of each other (the same, but with servers renamed) have
//! mirror-image futures, and a violation reachable from one is reachable from the other in as many
//! steps. The search then needs to visit only one of each family of mirror images: it keys a state
//! by its *canonical digest*, the least of [`World::digest_under`] over every permutation of the
//! servers. Only the renamings that put the servers in order of a signature that names no node
//! are tried (status, clock, timers, term, role, log and commit lengths), so a state whose servers
//! all differ there costs one renamed digest, and one whose servers are all alike up to 5! = 120.
//! Two states share a canonical digest exactly when one is a
//! mirror image of the other, in everything the state digest covers (barring a 64-bit collision).
//!
//! What stays asymmetric, and how it is kept out:
//! - *The random generator's draws are dealt in node order* (a broadcast draws its delays to n1's
//!   peers first). Two mirror images therefore draw their random numbers onto different servers.
//!   The plain digest already leaves the generator out and merges states whose draws differ; the
//!   reduction merges in the same way, no further: a merged state follows the first one's draws.
//! - *A selectively silent liar* keeps quiet to the upper half of its peers by number
//!   (`SelectiveSilence`): refused when the request offers that mode or a server already lies so.
//! - *Scripted steps that name a server* (`crash n2`, a partition, a link's settings, a request
//!   to `n5`) break the symmetry from their instant on: refused when one is still to come after the
//!   first choice point. Membership changes (which also name or add a server) are refused anywhere
//!   in the scenario, and an unchanged membership of every server is required at the start.
//! - *A step aimed at "the leader"* picks the highest term's leader, and between two leaders of one
//!   term the lower-numbered: asymmetric, but only once Election Safety is broken. Such steps are
//!   allowed when the search stops at that violation (any invariant, or Election Safety).
//! - *An example's checkpoint* keeps memory outside the digest (the leader it started with) and
//!   may name a server: only a broken invariant is searched with the reduction. The checkers are
//!   symmetric: none judges a server by its number.
//! - *Same-instant steps*: at the instant where a schedule took a step, only later catalogue keys
//!   are offered, and keys go by node number; so there the plain digest keys the state, and the
//!   canonical one keys every choice point after it, where the whole catalogue is offered.
//!
//! A request that asks for the reduction where it is not sound is not an error: the search runs
//! without it and [`verdict`] says why.

use super::goal::Goal;
use super::request::ExploreRequest;
use crate::base::ids::NodeSet;
use crate::base::permutation::Permutation;
use crate::base::state_hash::digest_of;
use crate::base::time::SimTime;
use crate::base::units::LogIndex;
use crate::contract::action::{Action, ByzantineMode, NodeTarget};
use crate::contract::protocol::Protocol;
use crate::engine::checker::ELECTION_SAFETY;
use crate::engine::world::{NodeSlot, World};
use crate::tooling::runner::ScenarioRun;
use crate::tooling::scenario::Scenario;
use crate::worlds::actor::Actor;
use serde::{Deserialize, Serialize};

/// The most servers the reduction renames: 5! = 120 digests a state; 6! = 720 would cost more
/// than the merges save.
pub const MAX_SYMMETRIC_SERVERS: usize = 5;

/// Whether a search asked for the reduction got it, and why not when it did not.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SymmetryVerdict {
    pub applied: bool,
    /// The servers taken as interchangeable (0 when refused).
    pub servers: usize,
    /// The renamings of the servers (n!): a state's canonical digest is the least over those of
    /// them that put its servers in order, at most all.
    pub permutations: usize,
    /// Why it was refused, one sentence.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub why: Option<String>,
}

/// The canonical digest of a world: the least of its digests over every renaming of its servers.
pub struct Reducer {
    renamings: Vec<Permutation>,
}

impl Reducer {
    /// The reducer over every permutation of the first `servers` nodes, whether or not a world of
    /// them is eligible ([`reducer`] decides that).
    pub fn over(servers: usize) -> Reducer {
        Reducer {
            renamings: Permutation::all(servers),
        }
    }

    /// The least digest of `world` over the renamings of its servers that put them in order of
    /// their [`signature`]s (every renaming, when all signatures tie). A signature names no node, so
    /// a server keeps it under any renaming, and a world and its mirror image have the same set of
    /// renamed images to take the least of: the same canonical digest, at the cost of one digest
    /// per ordering renaming instead of one per renaming (with random timeouts, nearly always one).
    pub fn canonical(&self, world: &World) -> u64 {
        let signatures: Vec<u64> = world.nodes().iter().map(signature).collect();
        let in_order = |renaming: &&Permutation| {
            (1..renaming.len()).all(|position| {
                signatures[renaming.source(position - 1)] <= signatures[renaming.source(position)]
            })
        };
        self.renamings
            .iter()
            .filter(in_order)
            .map(|renaming| world.digest_under(renaming))
            .min()
            .expect("some renaming puts the servers in order")
    }

    pub fn servers(&self) -> usize {
        self.renamings.first().map_or(0, Permutation::len)
    }

    pub fn permutations(&self) -> usize {
        self.renamings.len()
    }
}

/// What a server is, in words that name no node: its status, clock, timers and Raft summary (role,
/// term, commit index, log length).
fn signature(slot: &NodeSlot) -> u64 {
    let summary = slot.actor.summary();
    let timers: Vec<_> = slot
        .timers
        .iter()
        .map(|(key, timer)| (*key, timer.label, timer.due_local_us, timer.due_at))
        .collect();
    let raft = (
        summary.role,
        summary.term,
        summary.commit_index,
        summary.log_len,
    );
    digest_of(&(slot.status, slot.clock, timers, raft))
}

/// What a search with `request` does about symmetry: `None` when it was not asked for.
pub fn verdict(scenario: &Scenario, request: &ExploreRequest) -> Option<SymmetryVerdict> {
    let goal = request.goal(scenario);
    match goal {
        Ok(goal) => decide(scenario, request, &goal).1,
        Err(why) => request.symmetry.then(|| refused(why)),
    }
}

/// The reducer a search uses (when asked and sound) and what its report says about it (when asked).
pub(super) fn decide(
    scenario: &Scenario,
    request: &ExploreRequest,
    goal: &Goal,
) -> (Option<Reducer>, Option<SymmetryVerdict>) {
    if !request.symmetry {
        return (None, None);
    }
    match reducer(scenario, request, goal) {
        Ok(reducer) => {
            let said = SymmetryVerdict {
                applied: true,
                servers: reducer.servers(),
                permutations: reducer.permutations(),
                why: None,
            };
            (Some(reducer), Some(said))
        }
        Err(why) => (None, Some(refused(why))),
    }
}

fn refused(why: String) -> SymmetryVerdict {
    SymmetryVerdict {
        applied: false,
        servers: 0,
        permutations: 0,
        why: Some(why),
    }
}

impl SymmetryVerdict {
    /// What the report's summary adds.
    pub fn summary_note(&self) -> String {
        match &self.why {
            None => format!("; node symmetry reduced over {} servers", self.servers),
            Some(why) => format!("; node symmetry not reduced: {why}"),
        }
    }

    /// The report's `covers` line with the reduction said, when it was applied.
    pub fn covers(&self, covers: &str) -> String {
        if !self.applied {
            return covers.to_string();
        }
        let merged = format!(
            "other seeds; mirror images of a state merged (node symmetry of {} plain Raft \
             servers);",
            self.servers
        );
        covers.replace("other seeds, node symmetry;", &merged)
    }
}

/// The reducer for a search of `scenario` for `goal`, or why the reduction would not be sound.
pub fn reducer(
    scenario: &Scenario,
    request: &ExploreRequest,
    goal: &Goal,
) -> Result<Reducer, String> {
    let first_ms = request.first_choice_ms(scenario);
    let mut run = ScenarioRun::new(scenario.clone())?;
    run.advance_to(SimTime::from_ms(first_ms));
    let servers = check_world(run.world())?;
    let wanted = match goal {
        Goal::Invariant(wanted) => wanted.as_deref(),
        Goal::Example(..) => {
            return Err(
                "an example's checkpoint may name a server and remembers more than the \
                 state digest holds; symmetry is reduced only for a broken invariant"
                    .to_string(),
            )
        }
    };
    let offers_selective =
        request.max_byzantine > 0 && request.byzantine_modes.contains(&ByzantineMode::Selective);
    if offers_selective {
        return Err(
            "a selectively silent liar ignores its peers by number; leave the \
             selective mode out to reduce symmetry"
                .to_string(),
        );
    }
    check_steps(scenario, first_ms, wanted)?;
    Ok(Reducer::over(servers))
}

/// No membership change anywhere; after the first choice point, no step that names a server, and
/// steps aimed at the leader only when the search stops at Election Safety.
fn check_steps(scenario: &Scenario, first_ms: u64, wanted: Option<&str>) -> Result<(), String> {
    let stops_at_election_safety = wanted.is_none_or(|name| name == ELECTION_SAFETY);
    for step in &scenario.steps {
        let at_ms = step.at_ms;
        if matches!(
            step.action,
            Action::AddServer { .. } | Action::RemoveServer { .. }
        ) {
            return Err(format!(
                "the step at {at_ms} ms changes the membership, so servers are not interchangeable"
            ));
        }
        if at_ms <= first_ms {
            continue;
        }
        if let Some(node) = step.action.named_nodes().first() {
            return Err(format!(
                "the step at {at_ms} ms names {node}, so servers are not interchangeable after it"
            ));
        }
        let aims_at_leader = step
            .action
            .targets()
            .iter()
            .any(|(_, target)| *target == NodeTarget::Leader);
        if aims_at_leader && !stops_at_election_safety {
            return Err(format!(
                "the step at {at_ms} ms aims at the leader, which picks the lower-numbered of two \
                 leaders of one term; search for any invariant or for {ELECTION_SAFETY} to reduce \
                 symmetry"
            ));
        }
    }
    Ok(())
}

/// Every node a plain Raft server with its first membership, none silent by number, no world
/// checker, and 2 to [`MAX_SYMMETRIC_SERVERS`] of them: how many.
fn check_world(world: &World) -> Result<usize, String> {
    let servers = world.node_count();
    let first = NodeSet::first(servers);
    for slot in world.nodes() {
        let Actor::Raft(server) = &slot.actor else {
            return Err("node symmetry is reduced only in a plain Raft cluster".to_string());
        };
        let membership = server.membership;
        let unchanged = membership.bootstrap == first
            && membership.logged == first
            && membership.logged_index == LogIndex::ZERO
            && membership.config_file.is_none();
        if !unchanged {
            return Err(format!(
                "{} counts other voters than the cluster's first",
                server.id
            ));
        }
        if server.lying_mode() == Some(ByzantineMode::Selective) {
            return Err(format!("{} ignores its peers by number", server.id));
        }
    }
    if servers < 2 {
        return Err("one server: there is nothing to interchange".to_string());
    }
    if servers > MAX_SYMMETRIC_SERVERS || servers != world.config().node_count {
        return Err(format!(
            "{servers} servers: symmetry is reduced for 2 to {MAX_SYMMETRIC_SERVERS}"
        ));
    }
    if world.checkers().world_any().is_some() {
        return Err("this world has a checker of its own".to_string());
    }
    Ok(servers)
}
