//! The `reads` chaos profile: cycles aimed at the one moment a read can go stale.
//!
//! A stale read needs three things at once: a server that still believes it may answer (a deposed
//! leader whose lease runs on a slow clock, or a follower cut off from the leader), a write of the
//! same key acknowledged elsewhere meanwhile, and then a read sent to that server. A random storm
//! rarely lines them up (a mixed sweep of 2,000 seeds with every read forced onto the lease path
//! caught none), so each cycle here builds the moment on purpose, with its sizes and gaps drawn from
//! the seed:
//!
//! 1. a batch of writes at the leader, so keys hold values;
//! 2. the leader's clock slowed (by up to nine tenths) or set back (by up to two seconds), and the
//!    leader cut off from everyone;
//! 3. once the others have had time to elect a new leader, a second batch of writes there;
//! 4. reads at every server by name and at the leader, a few times;
//! 5. the links healed and every clock set right again, before the next cycle.
//!
//! The steps name the leader as "leader", resolved when they run, so steps 2 and 3 reach the old and
//! the new leader. Only what a schedule may hold is used: the run is an ordinary scenario file.

use crate::base::ids::NodeId;
use crate::base::rng::Rng;
use crate::contract::action::{Action, NodeTarget, RequestKind, PPM_ONE};
use crate::tooling::chaos::ChaosOptions;
use crate::tooling::scenario::Step;

/// The steps of one seed's fault window: stale-read cycles until the window is over.
pub fn stale_read_cycles(rng: &mut Rng, options: &ChaosOptions) -> Vec<Step> {
    let mut steps = Vec::new();
    let mut at_ms = rng.range_inclusive(300, 600);
    loop {
        let cycle = one_cycle(rng, at_ms, options.node_count);
        let Some(last) = cycle.last() else {
            return steps;
        };
        if last.at_ms >= options.fault_window_ms {
            return steps;
        }
        at_ms = last.at_ms + rng.range_inclusive(200, 600);
        steps.extend(cycle);
    }
}

fn one_cycle(rng: &mut Rng, start_ms: u64, node_count: usize) -> Vec<Step> {
    let mut steps = Vec::new();
    let mut push = |at_ms: u64, action: Action| steps.push(Step { at_ms, action });
    let leader = NodeTarget::Leader;
    push(
        start_ms,
        request(leader, RequestKind::Put, rng.range_inclusive(4, 16)),
    );
    let fault_ms = start_ms + rng.range_inclusive(30, 150);
    push(fault_ms, clock_fault(rng));
    push(fault_ms, Action::Isolate { target: leader });
    let writes_ms = fault_ms + rng.range_inclusive(250, 700);
    push(
        writes_ms,
        request(leader, RequestKind::Put, rng.range_inclusive(4, 16)),
    );
    let mut reads_ms = writes_ms;
    for _ in 0..rng.range_inclusive(1, 3) {
        reads_ms += rng.range_inclusive(5, 80);
        for index in 0..node_count {
            let server = NodeTarget::Node(NodeId(index as u16));
            push(
                reads_ms,
                request(server, RequestKind::Get, rng.range_inclusive(1, 3)),
            );
        }
        push(reads_ms, request(leader, RequestKind::Get, 1));
    }
    let heal_ms = reads_ms + rng.range_inclusive(50, 400);
    push(heal_ms, Action::Heal);
    for index in 0..node_count {
        let target = NodeTarget::Node(NodeId(index as u16));
        push(heal_ms, Action::ClockDrift { target, ppm: 0 });
    }
    steps
}

fn request(target: NodeTarget, kind: RequestKind, count: u64) -> Action {
    Action::Request {
        count: count as u32,
        target,
        kind,
    }
}

/// The leader's clock slowed or set back: the two faults that stretch a lease past its true end.
fn clock_fault(rng: &mut Rng) -> Action {
    let target = NodeTarget::Leader;
    if rng.chance_ppm(PPM_ONE / 2) {
        let ppm = -(rng.range_inclusive(300_000, 900_000) as i64);
        Action::ClockDrift { target, ppm }
    } else {
        let by_ms = -(rng.range_inclusive(300, 2_000) as i64);
        Action::ClockJump { target, by_ms }
    }
}
