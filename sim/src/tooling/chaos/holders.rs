//! The holder-aimed chaos profile: faults timed to land while a lock is held, where they hurt.
//!
//! The mixed profile strikes at random moments, so most of its faults find nobody holding anything: of
//! 5,000 seeds it caught the Redis lock in 12%, Redlock in 11%, the lock service without fencing in 23%.
//! This profile watches the run instead. A hold begins when the trace shows a grant for an actor (the
//! lock service or a Redis-style server granted it), a client's belief that it holds the lock, or a
//! scheduler instance's belief that it leads; the strike comes when that holder next gets its sweep
//! plan's *hold marker* (the store's answer to the hold's first access, the top of a scheduler minute):
//! the moment it has checked its lease and starts to compute (a holder whose hold ended before its
//! marker came is struck as its next hold begins). One millisecond later the holder is
//!
//! - paused for twice its lease TTL and more, so its lease runs out and another takes the lock;
//! - cut off from every lock server, so its keep-alives and its release are lost;
//! - on waking, its clock jumps back past the pause and one TTL, so it trusts its lease again;
//!
//! and twice the TTL later every link heals. Then, after a short rest, the next hold is struck. A design
//! that is safe only while holders keep time and never stall breaks in nearly every seed; a design that
//! fences (or, like the scheduler's lock-every-run, writes "if absent") must break in none.
//!
//! Everything is drawn from the seed and read from the deterministic run, so a seed is reproducible; the
//! strikes are recorded as the steps they were, and the recorded scenario reruns to the same trace.

use crate::base::ids::NodeId;
use crate::base::rng::Rng;
use crate::base::time::SimTime;
use crate::contract::action::{Action, NodeTarget};
use crate::engine::trace::{TraceEvent, TraceRecord};
use crate::engine::world::World;
use crate::protocols::lockservice::LockFact;
use crate::protocols::redlock::BeliefFact;
use crate::protocols::scheduler::SchedulerFact;
use crate::tooling::chaos::aimed::aimed_scenario;
use crate::tooling::chaos::locks::{chaos_world, push_heal, LockChaosOptions};
use crate::tooling::runner::ScenarioRun;
use crate::tooling::scenario::{parse_scenario, to_toml_string, Scenario, Step};
use crate::worlds::actor::Fact;
use crate::worlds::coordination::Layout;
use std::collections::BTreeSet;

const HOLDER_SALT: u64 = 0x401d_e55e_ed00_0017;

/// Every job gets at least this much work, so there is a computing step for a pause to land in.
pub const MIN_WORK_MS: u64 = 20;

/// A finished holder-aimed run: the run itself, and the scenario it was (its strikes as steps).
pub struct HolderRun {
    pub run: ScenarioRun,
    pub scenario: Scenario,
}

/// Runs the holder-aimed profile for `seed` on the world and variant `options` names.
pub fn holder_run(seed: u64, options: &LockChaosOptions) -> Result<HolderRun, String> {
    holder_run_prepared(seed, options, &|_| {})
}

/// [`holder_run`] on a world `prepare` has set up before its first event (the lab hands it a
/// learner's roles).
pub fn holder_run_prepared(
    seed: u64,
    options: &LockChaosOptions,
    prepare: &dyn Fn(&mut World),
) -> Result<HolderRun, String> {
    // Worlds with no lock holders (Paxos, PBFT) aim at their own weak point.
    if let Some(aimed) = crate::worlds::registry::chaos(options.protocol).aimed {
        let scenario = aimed_scenario(seed, options, aimed)?;
        let mut run = ScenarioRun::new(scenario.clone())?;
        prepare(run.world_mut());
        run.run_to_end();
        return Ok(HolderRun { run, scenario });
    }
    let mut rng = Rng::new(seed ^ HOLDER_SALT);
    let (mut scenario, layout) = chaos_world(seed, options, &mut rng);
    scenario.title = format!("Holder-aimed chaos seed {seed}");
    let ttl_ms = match scenario.protocol.lock_options_mut() {
        Some(locks) => {
            locks.work_ms = locks.work_ms.max(MIN_WORK_MS);
            locks.lease_ttl_ms
        }
        None => return Err("the holder-aimed profile needs a world with locks".into()),
    };
    push_heal(&mut scenario, options.fault_window_ms, &layout);
    // As a file carries it: the recorded scenario must read back to the very run.
    let scenario = parse_scenario(&to_toml_string(&scenario), &format!("holder seed {seed}"))
        .map_err(|error| error.to_string())?;
    let mut run = ScenarioRun::new(scenario.clone())?;
    prepare(run.world_mut());
    let marker = options.entry().sweep.hold_marker;
    let mut striker = Striker::new(rng, layout, ttl_ms, options.fault_window_ms, marker);
    drive(&mut run, &mut striker);
    let mut recorded = scenario;
    // Strikes all fall inside the fault window, before the scripted heal, so they go first.
    let scripted = std::mem::take(&mut recorded.steps);
    recorded.steps = striker.applied.into_iter().chain(scripted).collect();
    Ok(HolderRun {
        run,
        scenario: recorded,
    })
}

/// Runs the scenario to its end event by event, reading each new trace record and applying the strikes
/// at the times the striker planned, exactly as scenario steps at those times would be applied.
fn drive(run: &mut ScenarioRun, striker: &mut Striker) {
    let end = run.end_time();
    let mut seen = run.world().trace().total();
    loop {
        let next_event = run.world().next_event_time();
        let due_before_event = |at: SimTime| next_event.is_none_or(|event| at < event);
        if let Some(at_ms) = striker.next_planned_ms() {
            let at = SimTime::from_ms(at_ms);
            if at <= end && due_before_event(at) {
                run.advance_to(at);
                striker.apply_due(at_ms, run.world_mut());
                continue;
            }
        }
        match next_event {
            Some(event) if event <= end => {}
            _ => break,
        }
        if let Some((_, step)) = run.next_step() {
            let at = SimTime::from_ms(step.at_ms);
            if due_before_event(at) {
                run.advance_to(at);
                continue;
            }
        }
        run.world_mut().step();
        let trace = run.world().trace();
        let fresh = (trace.total() - seen) as usize;
        seen = trace.total();
        let mut records: Vec<&TraceRecord> = trace.records().rev().take(fresh).collect();
        records.reverse();
        for record in records {
            striker.read(record);
        }
    }
    run.run_to_end();
}

/// Watches holds and plans the strikes.
struct Striker {
    rng: Rng,
    layout: Layout,
    ttl_ms: u64,
    window_ms: u64,
    marker: Option<&'static str>,
    /// Actors whose current hold has not been struck yet.
    awaiting: BTreeSet<NodeId>,
    /// Actors whose last hold ended before its marker came (a scheduler taking the lock for one run
    /// writes at once): their next hold is struck as it begins.
    unmarked: BTreeSet<NodeId>,
    /// No strike starts before this time (the last one has healed and rested).
    rest_until_ms: u64,
    /// Planned actions, in time order.
    planned: Vec<(u64, Action)>,
    /// The actions applied, as steps.
    applied: Vec<Step>,
}

impl Striker {
    fn new(
        rng: Rng,
        layout: Layout,
        ttl_ms: u64,
        window_ms: u64,
        marker: Option<&'static str>,
    ) -> Striker {
        Striker {
            rng,
            layout,
            ttl_ms,
            window_ms,
            marker,
            awaiting: BTreeSet::new(),
            unmarked: BTreeSet::new(),
            rest_until_ms: 0,
            planned: Vec::new(),
            applied: Vec::new(),
        }
    }

    fn next_planned_ms(&self) -> Option<u64> {
        self.planned.first().map(|(at_ms, _)| *at_ms)
    }

    fn apply_due(&mut self, at_ms: u64, world: &mut World) {
        while self
            .planned
            .first()
            .is_some_and(|(due_ms, _)| *due_ms == at_ms)
        {
            let (_, action) = self.planned.remove(0);
            world.apply(&action);
            self.applied.push(Step { at_ms, action });
        }
    }

    fn is_server(&self, node: NodeId) -> bool {
        node.index() < self.layout.servers
    }

    fn read(&mut self, record: &TraceRecord) {
        let at_ms = record.at_us / 1_000;
        match &record.event {
            TraceEvent::Observe { node, fact } => self.read_fact(*node, fact, at_ms),
            TraceEvent::Deliver { to, label, .. } => self.read_marker(*to, label, at_ms),
            TraceEvent::Timer { node, label } => self.read_marker(*node, label, at_ms),
            _ => {}
        }
    }

    /// Holds begin and end with grants, beliefs and leadership.
    fn read_fact(&mut self, node: NodeId, fact: &Fact, at_ms: u64) {
        let (holder, holds) = match fact {
            Fact::Lock(LockFact::LockGranted { owner, .. }) => (*owner, true),
            Fact::Lock(LockFact::LockReleased { owner, .. }) => (*owner, false),
            Fact::Belief(BeliefFact::LockBelief { .. }) => (node, true),
            Fact::Belief(BeliefFact::LockBeliefEnded { .. }) => (node, false),
            Fact::Scheduler(SchedulerFact::SchedulerLeader { leads }) => (node, *leads),
            _ => return,
        };
        if self.is_server(holder) {
            return;
        }
        if !holds {
            if self.awaiting.remove(&holder) {
                self.unmarked.insert(holder);
            }
        } else if self.awaiting.insert(holder)
            && (self.marker.is_none() || self.unmarked.contains(&holder))
            && self.strike(holder, at_ms)
        {
            self.unmarked.remove(&holder);
        }
    }

    fn read_marker(&mut self, node: NodeId, label: &str, at_ms: u64) {
        if self.marker == Some(label) && self.awaiting.contains(&node) && self.strike(node, at_ms) {
            self.unmarked.remove(&node);
        }
    }

    /// Plans the pause, the cuts, the clock jump and the heal for `holder`, one ms after `at_ms`;
    /// `false` (nothing planned) while the last strike rests or after the fault window.
    fn strike(&mut self, holder: NodeId, at_ms: u64) -> bool {
        let start_ms = at_ms + 1;
        if start_ms < self.rest_until_ms || start_ms >= self.window_ms || !self.planned.is_empty() {
            return false;
        }
        self.awaiting.remove(&holder);
        let target = NodeTarget::Node(holder);
        let pause_ms = 2 * self.ttl_ms + self.rng.range_inclusive(200, 800);
        self.plan(
            start_ms,
            Action::Pause {
                target,
                duration_ms: Some(pause_ms),
            },
        );
        for server in 0..self.layout.servers {
            let cut = Action::Cut {
                from: target,
                to: NodeTarget::Node(NodeId(server as u16)),
                both: true,
            };
            self.plan(start_ms, cut);
        }
        let wake_ms = start_ms + pause_ms;
        let by_ms = -((pause_ms + self.ttl_ms) as i64);
        self.plan(wake_ms, Action::ClockJump { target, by_ms });
        let heal_ms = wake_ms + 2 * self.ttl_ms + self.rng.range_inclusive(100, 500);
        self.plan(heal_ms, Action::Heal);
        self.rest_until_ms = heal_ms + self.rng.range_inclusive(0, 300);
        true
    }

    /// Plans `action` at `at_ms` unless that falls outside the fault window (the scripted heal at its
    /// end resumes, heals and restarts everything anyway).
    fn plan(&mut self, at_ms: u64, action: Action) {
        if at_ms < self.window_ms {
            self.planned.push((at_ms, action));
        }
    }
}
