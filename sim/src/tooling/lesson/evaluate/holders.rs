//! Checkpoints about one lock holder's fate: a pause shorter than its lease that costs it nothing, a
//! crash after which the restarted process asks for the lock again holding nothing, a `SET NX` whose
//! reply was lost so the client cannot tell whether it holds the key, and a queue of workers behind one
//! holder.
//!
//! Each remembers the holder it saw struck (paused, crashed, unanswered) and then waits for what must
//! follow; nothing that happened before the step began is remembered, so an earlier step never ticks
//! these.

use super::{counted, Verdict};
use crate::base::ids::NodeId;
use crate::base::time::SimTime;
use crate::base::units::FencingToken;
use crate::engine::world::{NodeStatus, World};
use crate::protocols::worker::{Phase, Worker};
use std::collections::BTreeMap;

/// What the holder checkpoints remember between checks.
#[derive(Clone, Debug, Default)]
pub(super) struct HolderWatch {
    /// A holder seen paused: its token, when the pause was first seen, and its jobs then.
    paused: Option<(NodeId, FencingToken, SimTime, u64)>,
    /// A paused holder seen running again with its lease: its token, how long it was paused, its jobs
    /// at the pause, and the store's refusals when it resumed.
    resumed: Option<(NodeId, FencingToken, u64, u64, u64)>,
    /// A holder seen crashed: its token and its lock requests then.
    crashed: Option<(NodeId, FencingToken, u64)>,
    /// The token each running holder believed it held at the previous check (a crash wipes the
    /// belief, so the holder must be known before it falls).
    holders_seen: BTreeMap<NodeId, FencingToken>,
    /// Per worker: the value of a `SET NX` seen applied on a server while the worker did not know.
    set_unknowingly: BTreeMap<NodeId, u64>,
    /// Per worker: timed-out operations when the step began.
    unknown_at_start: BTreeMap<NodeId, u64>,
    /// The longest queue behind the lock seen since the step began.
    longest_queue: usize,
    /// The most grants seen in one second since the step began (the Workers panel's count), or the
    /// jobs per second before it if more.
    best_grants: u64,
    /// Jobs finished and the time when the step began (for the rate of grants before and after).
    jobs_at_start: Option<(u64, SimTime)>,
}

/// Every worker with its node id.
pub(super) fn workers(world: &World) -> impl Iterator<Item = (NodeId, &Worker)> + '_ {
    let layout = world.layout();
    let count = layout.map_or(0, |layout| layout.workers);
    (0..count).filter_map(move |index| {
        let node = layout?.worker(index);
        Some((node, world.nodes()[node.index()].actor.as_worker()?))
    })
}

fn status(world: &World, node: NodeId) -> NodeStatus {
    world.nodes()[node.index()].status
}

/// The holder and token of every key, as the lock service's leader sees them.
fn service_holds(world: &World) -> Vec<(NodeId, FencingToken)> {
    world
        .coordination_view()
        .and_then(|view| view.service)
        .map(|service| {
            service
                .locks
                .iter()
                .filter_map(|lock| lock.holder.as_ref())
                .map(|hold| (hold.owner, hold.token))
                .collect()
        })
        .unwrap_or_default()
}

fn store_refusals(world: &World) -> u64 {
    super::coordination::store(world).map_or(0, |store| store.rejected)
}

impl HolderWatch {
    pub(super) fn begin(world: &World) -> HolderWatch {
        let jobs: u64 = workers(world).map(|(_, worker)| worker.jobs_done).sum();
        let holds = service_holds(world);
        // A step may begin with the holder already down (crashed by the step before).
        let crashed = workers(world).find_map(|(node, worker)| {
            let (_, token) = holds.iter().find(|(owner, _)| *owner == node)?;
            (status(world, node) == NodeStatus::Crashed).then_some((
                node,
                *token,
                worker.lock_requests,
            ))
        });
        HolderWatch {
            crashed,
            unknown_at_start: workers(world)
                .map(|(node, worker)| (node, worker.unknown_outcomes))
                .collect(),
            jobs_at_start: Some((jobs, world.now())),
            ..HolderWatch::default()
        }
    }

    /// A holder paused for at least one renewal interval, yet less than its lease, that runs on with
    /// the same token and finishes its job with nothing refused at the store.
    pub(super) fn lease_kept_through_pause(&mut self, world: &World) -> Verdict {
        let renew_ms = world
            .config()
            .protocol
            .lock_options()
            .map_or(0, |options| options.renew_ms);
        if let Some((node, token, paused_ms, jobs, refusals)) = self.resumed {
            let label = world.node_label(node);
            let worker = world.nodes()[node.index()].actor.as_worker();
            let finished = worker.is_some_and(|worker| worker.jobs_done > jobs);
            if store_refusals(world) > refusals {
                self.resumed = None;
                return Verdict::not_yet(format!(
                    "the store refused an access after {label} woke: pause it again, for less than \
                     its lease"
                ));
            }
            if finished {
                return Verdict::yes(format!(
                    "{label} was paused for {paused_ms} ms, missed its keep-alives, kept its lease \
                     and token {token}, and finished its job; the store refused nothing"
                ));
            }
            return Verdict::not_yet(format!(
                "{label} woke still holding token {token}; waiting for it to finish its job"
            ));
        }
        if let Some((node, token, since, jobs)) = self.paused {
            let label = world.node_label(node);
            let paused_ms = world.now().saturating_since(since) / 1_000;
            match status(world, node) {
                NodeStatus::Paused => {
                    return Verdict::not_yet(format!(
                        "{label} is paused holding token {token} ({paused_ms} ms so far); resume \
                         it before its lease runs out"
                    ))
                }
                NodeStatus::Crashed => self.paused = None,
                NodeStatus::Up => {
                    self.paused = None;
                    let still_holds = workers(world).any(|(id, worker)| {
                        id == node && worker.belief.is_some_and(|belief| belief.token == token)
                    });
                    if paused_ms < renew_ms {
                        return Verdict::not_yet(format!(
                            "{label} was paused for only {paused_ms} ms, less than one renewal \
                             interval ({renew_ms} ms): pause it longer, but less than its lease"
                        ));
                    }
                    if !still_holds {
                        return Verdict::not_yet(format!(
                            "{label} was paused for {paused_ms} ms and lost its lock: pause it for \
                             less than its lease"
                        ));
                    }
                    self.resumed = Some((node, token, paused_ms, jobs, store_refusals(world)));
                    return self.lease_kept_through_pause(world);
                }
            }
        }
        let paused_holder = workers(world).find_map(|(node, worker)| {
            let belief = worker.belief?;
            (status(world, node) == NodeStatus::Paused).then_some((
                node,
                belief.token,
                worker.jobs_done,
            ))
        });
        match paused_holder {
            Some((node, token, jobs)) => {
                self.paused = Some((node, token, world.now(), jobs));
                Verdict::not_yet(format!(
                    "{} is paused holding token {token}",
                    world.node_label(node)
                ))
            }
            None => Verdict::not_yet("no lock holder is paused".into()),
        }
    }

    /// A holder that crashed, came back holding nothing, and asked the service for the lock again.
    pub(super) fn crashed_holder_asked_again(&mut self, world: &World) -> Verdict {
        let Some((node, token, requests)) = self.crashed else {
            let service_holds = service_holds(world);
            let crashed_holder = workers(world).find_map(|(node, worker)| {
                // The service still lists a crashed holder until its lease runs out; a holder seen
                // running at the previous check counts too.
                let token = service_holds
                    .iter()
                    .find(|(owner, _)| *owner == node)
                    .map(|(_, token)| *token)
                    .or_else(|| self.holders_seen.get(&node).copied())?;
                (status(world, node) == NodeStatus::Crashed).then_some((
                    node,
                    token,
                    worker.lock_requests,
                ))
            });
            self.holders_seen = workers(world)
                .filter(|(node, _)| status(world, *node) == NodeStatus::Up)
                .filter_map(|(node, worker)| Some((node, worker.belief?.token)))
                .collect();
            return match crashed_holder {
                Some(found) => {
                    self.crashed = Some(found);
                    Verdict::not_yet(format!(
                        "{} crashed holding token {}; restart it",
                        world.node_label(found.0),
                        found.1
                    ))
                }
                None => Verdict::not_yet("no lock holder has crashed".into()),
            };
        };
        let label = world.node_label(node);
        let Some(worker) = world.nodes()[node.index()].actor.as_worker() else {
            return Verdict::not_yet(format!("{label} is not a worker"));
        };
        if status(world, node) != NodeStatus::Up {
            return Verdict::not_yet(format!(
                "{label} crashed holding token {token} and is {}; restart it",
                status(world, node).as_str()
            ));
        }
        let asked = worker.lock_requests > requests;
        let holds_old = worker.belief.is_some_and(|belief| belief.token <= token);
        if asked && !holds_old {
            let others = workers(world)
                .filter(|(other, _)| *other != node)
                .filter_map(|(other, worker)| Some((other, worker.belief?.token)))
                .find(|(_, other_token)| *other_token > token)
                .map_or(String::new(), |(other, other_token)| {
                    format!(
                        "; meanwhile {} holds token {other_token}",
                        world.node_label(other)
                    )
                });
            Verdict::yes(format!(
                "{label} restarted remembering no lock (it had held token {token}) and asked the \
                 service for it again{others}"
            ))
        } else {
            Verdict::not_yet(format!(
                "{label} is running again; waiting for it to ask for the lock"
            ))
        }
    }

    /// A worker's `SET NX` was applied on a server while the worker never heard so, and its timeout
    /// ran out: it cannot know whether it holds the key.
    pub(super) fn lock_reply_lost(&mut self, world: &World) -> Verdict {
        let keys: Vec<(NodeId, u64)> = world
            .layout()
            .map(|layout| {
                (0..layout.servers)
                    .filter_map(|index| world.nodes()[index].actor.as_kv_server())
                    .flat_map(|server| server.entries.values())
                    .map(|entry| (entry.owner, entry.value))
                    .collect()
            })
            .unwrap_or_default();
        for (owner, value) in keys {
            let unaware = workers(world).any(|(node, worker)| {
                node == owner
                    && worker.belief.is_none()
                    && worker.phase == Phase::Acquiring
                    && worker.client.request == value
            });
            if unaware {
                self.set_unknowingly.insert(owner, value);
            }
        }
        let timed_out = workers(world).find(|(node, worker)| {
            let before = self.unknown_at_start.get(node).copied().unwrap_or(0);
            worker.unknown_outcomes > before
                && self.set_unknowingly.get(node) == Some(&worker.client.request)
        });
        match timed_out {
            Some((node, _)) => Verdict::yes(format!(
                "{label}'s SET NX was applied on the server, but the reply never reached it; when \
                 its timeout ran out {label} could not tell whether it held the key, so it sent a \
                 compare-and-delete with its own value and gave up this attempt",
                label = world.node_label(node)
            )),
            None if self.set_unknowingly.is_empty() => {
                Verdict::not_yet("every SET NX so far was answered".into())
            }
            None => Verdict::not_yet(
                "a SET NX was applied and its reply is on its way; drop that reply".into(),
            ),
        }
    }

    /// At least `wanted` workers wait in the lock's queue behind its holder while the grants in the
    /// last second (the Workers panel's count) are at most half the most seen in one second before:
    /// contention that costs throughput, not a long queue that keeps the lock turning over.
    pub(super) fn lock_queue_at_least(&mut self, world: &World, wanted: u64) -> Verdict {
        let view = world.coordination_view();
        let Some(service) = view.as_ref().and_then(|view| view.service.as_ref()) else {
            return Verdict::not_yet("no lock-service leader is serving right now".into());
        };
        let waiting = service
            .locks
            .iter()
            .map(|lock| lock.waiters.len())
            .max()
            .unwrap_or(0);
        self.longest_queue = self.longest_queue.max(waiting);
        let rate = self.jobs_rate_text(world);
        let Some(grants) = view.as_ref().and_then(|view| view.grants_last_second) else {
            return Verdict::not_yet(format!(
                "grants are no longer counted (the record is full); {rate}"
            ));
        };
        let best = self.best_grants.max(self.jobs_per_second_before());
        self.best_grants = best.max(grants);
        let queued = counted(waiting as u64, "worker", "workers");
        let fell = best > 0 && grants * 2 <= best;
        if waiting as u64 >= wanted && fell {
            return Verdict::yes(format!(
                "{queued} queued behind one holder at once while the grants in the last second \
                 fell to {grants}, from {best} at best; {rate}"
            ));
        }
        let longest = counted(self.longest_queue as u64, "worker", "workers");
        Verdict::not_yet(if self.longest_queue as u64 >= wanted {
            format!(
                "{longest} queued behind one holder at once, but the grants have not fallen to \
                 half their best while they waited ({grants} in the last second, {best} at best): \
                 the lock still turned over, so stall its holder; {rate}"
            )
        } else {
            format!(
                "the longest queue so far: {longest} (waiting for {wanted}); {grants} grants in \
                 the last second; {rate}"
            )
        })
    }

    /// Jobs finished per second over the whole run before the step began.
    fn jobs_per_second_before(&self) -> u64 {
        self.jobs_at_start.map_or(0, |(jobs, began)| {
            (jobs * 1_000)
                .checked_div(began.as_micros() / 1_000)
                .unwrap_or(0)
        })
    }

    fn jobs_rate_text(&self, world: &World) -> String {
        let Some((jobs_then, began)) = self.jobs_at_start else {
            return String::new();
        };
        let jobs_now: u64 = workers(world).map(|(_, worker)| worker.jobs_done).sum();
        let since_ms = world.now().saturating_since(began) / 1_000;
        let per_second = |jobs: u64, ms: u64| (jobs * 1_000).checked_div(ms).unwrap_or(0);
        format!(
            "jobs per second before this step: {}, since it began: {}",
            self.jobs_per_second_before(),
            per_second(jobs_now.saturating_sub(jobs_then), since_ms)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::{
        explanation_when_met, explanation_when_never_met, watch_until_met,
    };
    use crate::tooling::lesson::Checkpoint;

    const FENCING: &str = include_str!("../../../../../lessons/scenarios/fencing-calm.toml");

    fn with_steps(steps: &str) -> String {
        format!("{FENCING}\n{steps}").replace("duration_ms = 120000", "duration_ms = 8000")
    }

    fn pause_a(duration_ms: u64) -> String {
        with_steps(&format!(
            "[[step]]\nat_ms = 1300\ndo = \"pause\"\ntarget = \"A\"\nduration_ms = {duration_ms}\n"
        ))
    }

    /// A holds token 5 at 1 300 ms (see the scenario); 600 ms is two missed renewals, within 1 s.
    #[test]
    fn a_pause_shorter_than_the_lease_costs_the_holder_nothing() {
        let explanation = explanation_when_met(
            &pause_a(600),
            Checkpoint::LeaseKeptThroughPause,
            1_000,
            5_000,
        );
        assert!(explanation.contains("kept its lease"));
    }

    #[test]
    fn a_pause_longer_than_the_lease_loses_the_lock() {
        let (met, verdict) = watch_until_met(
            &pause_a(2_500),
            Checkpoint::LeaseKeptThroughPause,
            1_000,
            6_000,
        );
        assert_eq!(met, None, "{}", verdict.explanation);
    }

    #[test]
    fn a_pause_shorter_than_a_renewal_is_not_enough() {
        explanation_when_never_met(
            &pause_a(100),
            Checkpoint::LeaseKeptThroughPause,
            1_000,
            5_000,
        );
    }

    fn crash_a(restart: bool) -> String {
        let mut steps = "[[step]]\nat_ms = 1300\ndo = \"crash\"\ntarget = \"A\"\n".to_string();
        if restart {
            steps.push_str("[[step]]\nat_ms = 3000\ndo = \"restart\"\ntarget = \"A\"\n");
        }
        with_steps(&steps)
    }

    #[test]
    fn a_restarted_holder_asks_again_holding_nothing() {
        let explanation = explanation_when_met(
            &crash_a(true),
            Checkpoint::CrashedHolderAskedAgain,
            1_000,
            6_000,
        );
        assert!(explanation.contains("asked the service for it again"));
    }

    #[test]
    fn a_holder_that_stays_down_asks_nothing() {
        let explanation = explanation_when_never_met(
            &crash_a(false),
            Checkpoint::CrashedHolderAskedAgain,
            1_000,
            6_000,
        );
        assert!(explanation.contains("restart it"), "{}", explanation);
    }

    const QUEUE: &str = include_str!("../../../../../lessons/scenarios/lock-queue-calm.toml");

    /// B holds the lock at 2 520 ms, when the workers are getting about four grants a second (see
    /// the scenario); stalled for 2 s, it keeps its 3 s lease while the others pile up behind it.
    #[test]
    fn a_stalled_holder_builds_a_queue_and_the_grants_fall() {
        let text = format!(
            "{QUEUE}\n[[step]]\nat_ms = 2520\ndo = \"pause\"\ntarget = \"B\"\nduration_ms = 2000\n"
        );
        let explanation =
            explanation_when_met(&text, Checkpoint::LockQueueAtLeast(4), 1_000, 4_500);
        assert!(
            explanation.contains("the last second fell to 0")
                && explanation.contains("jobs per second"),
            "{}",
            explanation
        );
    }

    /// Workers that barely think keep six or seven in the queue, but the lock turns over five or six
    /// times a second throughout: a queue without a fall in grants is not met.
    #[test]
    fn a_long_queue_that_keeps_moving_is_not_enough() {
        let busy = QUEUE.replace("think_ms = 2000", "think_ms = 50");
        let explanation =
            explanation_when_never_met(&busy, Checkpoint::LockQueueAtLeast(4), 1_000, 8_000);
        assert!(explanation.contains("have not fallen"), "{}", explanation);
    }

    #[test]
    fn without_a_stall_the_queue_stays_short() {
        let (met, verdict) = watch_until_met(QUEUE, Checkpoint::LockQueueAtLeast(4), 1_000, 8_000);
        assert_eq!(met, None, "{}", verdict.explanation);
    }

    const REDIS: &str = include_str!("../../../../../lessons/scenarios/redis-lock-calm.toml");

    /// Message 68 is n1's OK to B at 1 013 ms (ids are fixed by the seed).
    #[test]
    fn a_lost_set_nx_reply_leaves_the_outcome_unknown() {
        let text = format!(
            "{REDIS}\n[[step]]\nat_ms = 1014\ndo = \"drop_message\"\nmessage = 68\nfrom = \"n1\"\nto = \"B\"\n"
        );
        let explanation = explanation_when_met(&text, Checkpoint::LockReplyLost, 1_000, 3_000);
        assert!(explanation.starts_with("B's SET NX"), "{}", explanation);
    }

    #[test]
    fn answered_set_nx_replies_are_not_lost() {
        explanation_when_never_met(REDIS, Checkpoint::LockReplyLost, 1_000, 3_000);
    }
}
