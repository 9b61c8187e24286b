//! The lease drawn as a ring around each lock client on the cluster ring. Two arcs count down together:
//! the thick inner one in the client's own time (what it believes is left), the thin outer one in the service's
//! time (what the lock service's leader, or the Redis-style servers, will actually honour). A pause or a
//! clock fault pulls them apart: the inner arc still shows time left while the outer one is empty,
//! which is exactly the moment a client writes with a lock it no longer holds.

use super::geometry::StageGeometry;
use crate::context::use_run;
use crate::world_text::leases::lease_fraction;
use leptos::prelude::*;
use quorumlab_sim::ids::NodeId;
use quorumlab_sim::view_coordination::CoordinationView;

/// What is left of one client's lease, as fractions of its length.
#[derive(Clone, Debug, PartialEq)]
pub struct LeaseRing {
    pub node: NodeId,
    pub name: String,
    /// On the client's own clock.
    pub own_left: f64,
    /// On the clock of whoever enforces it: the service's leader, or the Redis-style servers.
    pub service_left: f64,
}

/// The service's side of `owner`'s lease: the latest deadline the leader keeps for its leases (with
/// `holding_only`, only a lease that holds a lock: a worker queued for the lock has a lease but nothing
/// yet to lose), or the longest time left on any Redis-style server that has its key.
fn service_left(
    coordination: &CoordinationView,
    owner: NodeId,
    ttl_us: u64,
    holding_only: bool,
) -> f64 {
    if let Some(service) = &coordination.service {
        let holds = |lease: u64| {
            service
                .locks
                .iter()
                .any(|lock| lock.holder.is_some_and(|hold| hold.lease == lease))
        };
        return service
            .leases
            .iter()
            .filter(|lease| lease.lease.owner == owner)
            .filter(|lease| !holding_only || holds(lease.lease.id))
            .filter_map(|lease| {
                let deadline_us = lease.deadline_us?;
                let length_us = (lease.lease.ttl_ms * 1_000).max(1);
                Some(lease_fraction(
                    deadline_us,
                    service.leader_clock_us as i64,
                    length_us,
                ))
            })
            .fold(0.0, f64::max);
    }
    coordination
        .kv_servers()
        .iter()
        .flat_map(|server| {
            server
                .keys
                .iter()
                .filter(|(_, entry)| entry.owner == owner)
                .map(|(_, entry)| {
                    lease_fraction(entry.expires_at_local_us, server.local_clock_us, ttl_us)
                })
        })
        .fold(0.0, f64::max)
}

/// One ring per lock client, scheduler instance or election candidate that holds (or believes it
/// holds) a lease; `ttl_us` is the world's lease length, for the client's side.
pub fn lease_rings(coordination: &CoordinationView, ttl_us: u64) -> Vec<LeaseRing> {
    let name = |node: NodeId| {
        coordination
            .labels
            .get(node.index())
            .cloned()
            .unwrap_or_else(|| node.to_string())
    };
    // Lock clients: the lease that holds the lock. Instances and candidates: their leadership lease or
    // session, which is the thing they hold.
    let mut own: Vec<(NodeId, f64, bool)> = coordination
        .workers
        .iter()
        .map(|worker| {
            let left = worker.belief.map_or(0.0, |belief| {
                lease_fraction(belief.lease_until_local_us, worker.local_clock_us, ttl_us)
            });
            (worker.id, left, true)
        })
        .collect();
    if let Some(scheduler) = coordination.scheduler() {
        own.extend(scheduler.instances.iter().map(|instance| {
            let left = lease_fraction(
                instance.lease_until_local_us,
                instance.local_clock_us,
                ttl_us,
            );
            (instance.id, left, false)
        }));
    }
    own.extend(coordination.candidates().iter().map(|candidate| {
        let left = candidate.session.map_or(0.0, |_| {
            lease_fraction(
                candidate.session_until_local_us,
                candidate.local_clock_us,
                ttl_us,
            )
        });
        (candidate.id, left, false)
    }));
    own.into_iter()
        .map(|(node, own_left, holding_only)| LeaseRing {
            node,
            name: name(node),
            own_left,
            service_left: service_left(coordination, node, ttl_us, holding_only),
        })
        .collect()
}

/// How the two arcs read to a screen reader (and in the tooltip): never colour or thickness alone.
pub fn ring_sentence(ring: &LeaseRing) -> String {
    format!(
        "{}'s lease: {:.0}% left on its own clock, {:.0}% on the service's",
        ring.name,
        ring.own_left * 100.0,
        ring.service_left * 100.0
    )
}

#[component]
pub fn ClusterLeaseRings(geometry: Memo<StageGeometry>) -> impl IntoView {
    let run = use_run();
    let ttl_us = Memo::new(move |_| run.scenario.with(crate::world_text::leases::lease_ttl_us));
    let rings = Memo::new(move |_| {
        let ttl_us = ttl_us.get();
        run.view.with(|view| {
            view.coordination
                .as_ref()
                .map(|coordination| lease_rings(coordination, ttl_us))
                .unwrap_or_default()
        })
    });
    let count = Memo::new(move |_| rings.with(Vec::len));
    view! {
        <g class="lease-rings">
            <For each=move || 0..count.get() key=|index| *index let:index>
                <LeaseRingView rings=rings index=index geometry=geometry />
            </For>
        </g>
    }
}

#[component]
fn LeaseRingView(
    rings: Memo<Vec<LeaseRing>>,
    index: usize,
    geometry: Memo<StageGeometry>,
) -> impl IntoView {
    let ring = Memo::new(move |_| rings.with(|rings| rings.get(index).cloned()));
    let node = move || ring.with(|ring| ring.as_ref().map_or(NodeId(0), |ring| ring.node));
    let transform = move || {
        let point = geometry.with(|geometry| geometry.position(node()));
        format!("translate({:.1} {:.1})", point.x, point.y)
    };
    let own_radius = move || geometry.with(|geometry| geometry.node_radius + geometry.timer_gap);
    let service_radius = move || own_radius() + 7.0;
    let arc = move |radius: f64, left: f64| {
        let circumference = std::f64::consts::TAU * radius;
        (
            format!("{circumference:.1}"),
            format!("{:.1}", circumference * (1.0 - left)),
        )
    };
    let own = move || {
        arc(
            own_radius(),
            ring.with(|ring| ring.as_ref().map_or(0.0, |ring| ring.own_left)),
        )
    };
    let service = move || {
        arc(
            service_radius(),
            ring.with(|ring| ring.as_ref().map_or(0.0, |ring| ring.service_left)),
        )
    };
    let sentence = move || ring.with(|ring| ring.as_ref().map(ring_sentence).unwrap_or_default());
    let testid = move || {
        ring.with(|ring| {
            format!(
                "lease-ring-{}",
                ring.as_ref().map_or("", |ring| ring.name.as_str())
            )
        })
    };
    view! {
        <g class="lease-ring" transform=transform data-testid=testid role="img" aria-label=sentence>
            <title>{sentence}</title>
            <circle class="lease-arc own" r=own_radius transform="rotate(-90)"
                stroke-dasharray=move || own().0 stroke-dashoffset=move || own().1></circle>
            <circle class="lease-arc service" r=service_radius transform="rotate(-90)"
                stroke-dasharray=move || service().0 stroke-dashoffset=move || service().1></circle>
        </g>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use quorumlab_sim::lockservice::{Hold, Lease};
    use quorumlab_sim::units::FencingToken;
    use quorumlab_sim::view_coordination::{LeaseView, LockView, ServiceView, WorkerView};
    use quorumlab_sim::worker::{Belief, Phase};

    fn world(belief_until_us: u64, deadline_us: Option<u64>, holding: bool) -> CoordinationView {
        CoordinationView {
            workers: vec![WorkerView {
                id: NodeId(1),
                phase: Phase::Writing,
                belief: Some(Belief {
                    lease: 7,
                    token: FencingToken(3),
                    lease_until_local_us: belief_until_us,
                }),
                local_clock_us: 1_000_000,
                jobs_done: 0,
                jobs_abandoned: 0,
                fenced_off: 0,
            }],
            service: Some(ServiceView {
                leader: NodeId(0),
                leader_clock_us: 1_000_000,
                revision: 1,
                leases: vec![LeaseView {
                    lease: Lease {
                        id: 7,
                        owner: NodeId(1),
                        key: 0,
                        ttl_ms: 1_000,
                    },
                    deadline_us,
                }],
                locks: vec![LockView {
                    key: 0,
                    holder: holding.then_some(Hold {
                        lease: 7,
                        owner: NodeId(1),
                        token: FencingToken(3),
                    }),
                    waiters: Vec::new(),
                }],
                znodes: Vec::new(),
                watches: Vec::new(),
                lock_delays: Vec::new(),
            }),
            ..crate::world_text::bare_view(
                quorumlab_sim::ProtocolKind::LockService,
                &["n1", "A", "store"],
            )
        }
    }

    #[test]
    fn both_clocks_count_down_the_same_lease() {
        let rings = lease_rings(&world(1_500_000, Some(1_250_000), true), 1_000_000);
        assert_eq!(rings.len(), 1);
        assert_eq!(rings[0].name, "A");
        assert!((rings[0].own_left - 0.5).abs() < 1e-9);
        assert!((rings[0].service_left - 0.25).abs() < 1e-9);
        assert_eq!(
            ring_sentence(&rings[0]),
            "A's lease: 50% left on its own clock, 25% on the service's"
        );
    }

    #[test]
    fn a_paused_worker_still_believes_while_the_service_has_expired_it() {
        let rings = lease_rings(&world(1_800_000, Some(900_000), true), 1_000_000);
        assert!(rings[0].own_left > 0.7);
        assert_eq!(rings[0].service_left, 0.0);
    }

    #[test]
    fn a_queued_worker_has_a_lease_but_no_lock_to_lose() {
        let rings = lease_rings(&world(0, Some(1_900_000), false), 1_000_000);
        assert_eq!(rings[0].service_left, 0.0);
        let holding = lease_rings(&world(0, Some(1_900_000), true), 1_000_000);
        assert!(holding[0].service_left > 0.8);
    }
}
