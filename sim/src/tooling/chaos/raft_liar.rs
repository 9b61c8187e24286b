//! Raft with one Byzantine server as a sweep configuration (`quorumlab sweep --variant liar`). Raft is
//! a crash-fault protocol: it assumes no server lies, so this configuration is unsafe by design and
//! the checkers must catch it.
//!
//! Every seed makes one server, drawn from the seed, `lie` or `equivocate` (drawn) from a drawn time
//! on, on top of one of Raft's chaos profiles or of the aimed schedule below. The draws use a stream
//! of their own, so the storm under the liar is the very storm the same seed has without one.
//!
//! The aimed schedule (what `--profile holders` runs for this variant) puts the liar where its lies
//! decide elections: the other servers are cut into two halves that cannot hear each other, so each
//! half reaches a majority only through the liar, and the leader is paused now and then so both halves
//! campaign, on a network that duplicates nothing (see [`liar_aimed_scenario`]). A liar that
//! equivocates then elects a leader on each side, in one term; a liar that lies hears some leader's
//! AppendEntries and forges a leadership of its own.
//!
//! A seed *exercises* the liar only if the liar told a lie honest Raft never tells, as its own facts
//! in the trace show: in `lie` mode it claimed a leadership it never campaigned for (a `BecameLeader`
//! not preceded by its own candidacy in that term); in `equivocate` mode it granted its vote to a
//! second candidate in one term, or in a term older than one it already knew. A liar that was down,
//! cut off or never asked told nothing, and its seed says nothing about the claim. (A vote for a
//! candidate whose log is stale is a lie too, but the trace does not show the logs, so it is not
//! counted: the count errs towards fewer exercised seeds.)

use crate::base::ids::NodeId;
use crate::base::rng::Rng;
use crate::base::time::SimTime;
use crate::base::units::Term;
use crate::contract::action::{Action, ByzantineMode, NodeTarget};
use crate::contract::protocol::{RaftFact, VoteVerdict};
use crate::engine::trace::TraceEvent;
use crate::tooling::chaos::{chaos_scenario, ChaosOptions, ChaosProfile};
use crate::tooling::runner::ScenarioRun;
use crate::tooling::scenario::{Scenario, Step};
use crate::worlds::actor::Fact;
use std::collections::{BTreeMap, BTreeSet};

/// The variant's name on the command line.
pub const RAFT_LIAR_VARIANT: &str = "liar";

/// Mixed into the seed so the liar's draws are a stream of their own.
const LIAR_SALT: u64 = 0x1a7e_b12a_0f7e_0013;

/// The modes a sweep's liar is drawn from: the two that make Raft say what is not so.
const LYING_MODES: [ByzantineMode; 2] = [ByzantineMode::Lie, ByzantineMode::Equivocate];

/// How far the run advances between two looks at the trace: short enough that no record is forgotten
/// in between (the trace keeps the newest 100,000).
const WATCH_EVERY_MS: u64 = 100;

/// The schedule a liar seed runs on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LiarSchedule {
    /// One of Raft's chaos profiles, the liar added to it.
    Chaos(ChaosOptions),
    /// The aimed schedule, on a cluster of this many servers.
    Aimed(ChaosOptions),
}

/// The profile name `--profile` gives the aimed schedule, as for every world that has one.
pub const AIMED_PROFILE_NAME: &str = "holders";

impl LiarSchedule {
    pub fn options(&self) -> &ChaosOptions {
        match self {
            LiarSchedule::Chaos(options) | LiarSchedule::Aimed(options) => options,
        }
    }

    /// The name `--profile` gives this schedule.
    pub fn profile_name(&self) -> &'static str {
        match self {
            LiarSchedule::Chaos(options) => options.profile.name(),
            LiarSchedule::Aimed(_) => AIMED_PROFILE_NAME,
        }
    }

    /// The scenario of `seed`: same seed and schedule, same scenario.
    pub fn scenario(&self, seed: u64) -> Scenario {
        match self {
            LiarSchedule::Chaos(options) => liar_chaos_scenario(seed, options),
            LiarSchedule::Aimed(options) => liar_aimed_scenario(seed, options),
        }
    }
}

/// The liar a seed draws: which server, how it lies, and from when.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrawnLiar {
    pub server: NodeId,
    pub mode: ByzantineMode,
    pub from_ms: u64,
}

fn draw_liar(rng: &mut Rng, servers: usize, from_ms: (u64, u64)) -> DrawnLiar {
    let server = NodeId(rng.range_inclusive(0, servers as u64 - 1) as u16);
    let mode = LYING_MODES[rng.range_inclusive(0, LYING_MODES.len() as u64 - 1) as usize];
    let from_ms = rng.range_inclusive(from_ms.0, from_ms.1);
    DrawnLiar {
        server,
        mode,
        from_ms,
    }
}

fn turn(liar: DrawnLiar) -> Step {
    Step {
        at_ms: liar.from_ms,
        action: Action::Byzantine {
            target: NodeTarget::Node(liar.server),
            mode: liar.mode,
        },
    }
}

/// Puts `step` after every step due at or before its time, keeping the schedule in order.
fn insert_in_order(scenario: &mut Scenario, step: Step) {
    let at = scenario
        .steps
        .partition_point(|existing| existing.at_ms <= step.at_ms);
    scenario.steps.insert(at, step);
}

/// `options`' chaos scenario for `seed` with one liar drawn into its fault window.
pub fn liar_chaos_scenario(seed: u64, options: &ChaosOptions) -> Scenario {
    let mut scenario = chaos_scenario(seed, options);
    let mut rng = Rng::new(seed ^ LIAR_SALT);
    let last_ms = options.fault_window_ms.max(2) - 1;
    let liar = draw_liar(&mut rng, options.node_count, (1, last_ms));
    scenario.title = format!("{} with a liar", scenario.title);
    insert_in_order(&mut scenario, turn(liar));
    scenario
}

/// The aimed schedule for `seed`: calm chaos (requests only, then the usual heal and quiet period),
/// a liar, the others cut into two halves that meet only at the liar, and the leader paused now and
/// then so both halves campaign.
pub fn liar_aimed_scenario(seed: u64, options: &ChaosOptions) -> Scenario {
    let calm = ChaosOptions {
        profile: ChaosProfile::Calm,
        ..options.clone()
    };
    let mut scenario = chaos_scenario(seed, &calm);
    scenario.title = format!(
        "Liar-aimed chaos seed {seed} ({} nodes)",
        options.node_count
    );
    // No duplicated messages: between two leaders of one term each duplicate is answered with more
    // sends, a storm of millions of events that slows the seed a thousandfold and tests nothing more.
    scenario.timing.duplicate_ppm = 0;
    let mut rng = Rng::new(seed ^ LIAR_SALT);
    let liar = draw_liar(&mut rng, options.node_count, (300, 1_500));
    let mut steps = vec![turn(liar)];
    let cut_ms = liar.from_ms + rng.range_inclusive(0, 300);
    let (one, other) = halves(&mut rng, options.node_count, liar.server);
    for from in &one {
        for to in &other {
            let cut = Action::Cut {
                from: NodeTarget::Node(*from),
                to: NodeTarget::Node(*to),
                both: true,
            };
            steps.push(Step {
                at_ms: cut_ms,
                action: cut,
            });
        }
    }
    let mut pause_ms = cut_ms + rng.range_inclusive(200, 800);
    while pause_ms + 1_000 < options.fault_window_ms {
        let pause = Action::Pause {
            target: NodeTarget::Leader,
            duration_ms: Some(rng.range_inclusive(300, 900)),
        };
        steps.push(Step {
            at_ms: pause_ms,
            action: pause,
        });
        pause_ms += rng.range_inclusive(1_000, 2_500);
    }
    for step in steps {
        insert_in_order(&mut scenario, step);
    }
    scenario
}

/// The servers other than `liar`, shuffled and split into two halves.
fn halves(rng: &mut Rng, servers: usize, liar: NodeId) -> (Vec<NodeId>, Vec<NodeId>) {
    let mut others: Vec<NodeId> = (0..servers as u16)
        .map(NodeId)
        .filter(|node| *node != liar)
        .collect();
    for index in (1..others.len()).rev() {
        let swap_with = rng.range_inclusive(0, index as u64) as usize;
        others.swap(index, swap_with);
    }
    let other = others.split_off(others.len() / 2);
    (others, other)
}

/// The Byzantine step of a liar scenario: the liar and its mode.
pub fn liar_of(scenario: &Scenario) -> Option<(NodeId, ByzantineMode)> {
    scenario.steps.iter().find_map(|step| match step.action {
        Action::Byzantine {
            target: NodeTarget::Node(node),
            mode,
        } if mode != ByzantineMode::Honest => Some((node, mode)),
        _ => None,
    })
}

/// Runs a liar scenario to its end, and says whether the liar told a lie honest Raft never tells (see
/// the module's documentation); `sweep::judge_liar_scenario` judges the run.
pub fn run_watching_the_liar(scenario: Scenario) -> Result<(ScenarioRun, bool), String> {
    let liar = liar_of(&scenario).map(|(node, _)| node);
    let mut run = ScenarioRun::new(scenario)?;
    let mut watch = LieWatch::default();
    let mut seen = 0;
    while !run.is_finished() {
        let next = SimTime::from_ms(run.world().now().as_micros() / 1_000 + WATCH_EVERY_MS);
        run.advance_to(next);
        let trace = run.world().trace();
        let fresh = (trace.total() - seen) as usize;
        seen = trace.total();
        let mut records: Vec<_> = trace.records().rev().take(fresh).collect();
        records.reverse();
        for record in records {
            if let TraceEvent::Observe {
                node,
                fact: Fact::Raft(fact),
            } = &record.event
            {
                if Some(*node) == liar {
                    watch.saw(fact);
                }
            }
        }
    }
    Ok((run, watch.lied))
}

/// What the liar's own facts show: whether it has told a lie honest Raft never tells.
#[derive(Default)]
struct LieWatch {
    /// The term it last campaigned in, while it still is a candidate there.
    candidate_in: Option<Term>,
    /// The highest term it has been in or voted in.
    known_term: Term,
    /// Candidates it granted a vote, per term.
    granted: BTreeMap<Term, BTreeSet<NodeId>>,
    lied: bool,
}

impl LieWatch {
    fn saw(&mut self, fact: &RaftFact) {
        match *fact {
            RaftFact::BecameFollower { term } | RaftFact::BecamePreCandidate { term } => {
                self.candidate_in = None;
                self.known_term = self.known_term.max(term);
            }
            RaftFact::BecameCandidate { term } => {
                self.candidate_in = Some(term);
                self.known_term = self.known_term.max(term);
            }
            RaftFact::BecameLeader { term, .. } => {
                // An honest win follows its own candidacy in that term; a forged one does not.
                if self.candidate_in != Some(term) {
                    self.lied = true;
                }
                self.candidate_in = None;
            }
            RaftFact::VoteCast {
                candidate,
                term,
                pre_vote: false,
                verdict,
            } => self.vote(candidate, term, verdict),
            _ => {}
        }
    }

    fn vote(&mut self, candidate: NodeId, term: Term, verdict: VoteVerdict) {
        if verdict == VoteVerdict::Granted {
            let granted = self.granted.entry(term).or_default();
            granted.insert(candidate);
            if granted.len() > 1 || term < self.known_term {
                self.lied = true;
            }
        }
        self.known_term = self.known_term.max(term);
    }
}
