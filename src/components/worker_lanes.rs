//! One lane per lock client: what the worker believes, on its own clock, next to the truth as the lock
//! service's leader (or the Redis servers) see it, on theirs. The two lease bars count down in those two
//! times; when a pause or a clock jump pulls them apart, a worker believes a lock it no longer holds.
//! A banner shows when two clients both believe they hold the lock at once (Redlock's failure).

use crate::components::malformed_write::MalformedWriteControl;
use crate::context::use_run;
use crate::format;
use crate::world_text::beliefs::{belief_sentence, believed_holders, double_holder_sentence};
use crate::world_text::capabilities::tokens_fence;
use crate::world_text::contention::contention_sentence;
use crate::world_text::leases::lease_fraction;
use crate::world_text::lock_delay::lock_delay_lines;
use leptos::prelude::*;
use quorumlab_sim::lockservice::etcd::lock_key;
use quorumlab_sim::view::ClusterView;
use quorumlab_sim::view_coordination::{CoordinationView, ServiceView, WorkerView};
use quorumlab_sim::world::NodeStatus;

#[derive(Clone, Debug, PartialEq)]
struct Lane {
    name: String,
    paused: bool,
    belief: String,
    truth: String,
    /// Lease left, as a fraction: on the worker's clock, and on the service's.
    local_left: f64,
    service_left: f64,
}

fn name(coordination: &CoordinationView, index: usize) -> String {
    coordination
        .labels
        .get(index)
        .cloned()
        .unwrap_or_else(|| format!("n{}", index + 1))
}

/// The truth about `worker` on the service's clock, and the fraction of its lease left there.
fn truth(coordination: &CoordinationView, worker: &WorkerView, ttl_us: u64) -> (String, f64) {
    if let Some(service) = &coordination.service {
        let leader = name(coordination, service.leader.index());
        let clock = format::sim_time(service.leader_clock_us);
        let hold = service
            .locks
            .iter()
            .find_map(|lock| lock.holder.filter(|hold| hold.owner == worker.id));
        let lease_of = |id: u64| service.leases.iter().find(|lease| lease.lease.id == id);
        if let Some(hold) = hold {
            let deadline = lease_of(hold.lease).and_then(|lease| lease.deadline_us);
            let left = deadline.map_or(0.0, |deadline| {
                lease_fraction(deadline, service.leader_clock_us as i64, ttl_us)
            });
            let until = deadline.map_or_else(|| "?".to_string(), format::sim_time);
            return (
                format!(
                    "{leader} (at {clock}): holds it with key {}, token {}, until {until}",
                    lock_key(hold_key(service, hold.lease), hold.lease),
                    hold.token
                ),
                left,
            );
        }
        let waiting = service.locks.iter().any(|lock| {
            lock.waiters
                .iter()
                .any(|id| lease_of(*id).is_some_and(|lease| lease.lease.owner == worker.id))
        });
        let holder = service
            .locks
            .iter()
            .find_map(|lock| lock.holder)
            .map(|hold| format!("{} holds it", name(coordination, hold.owner.index())))
            .unwrap_or_else(|| "nobody holds it".to_string());
        let mine = if waiting {
            "queued, watching the key before its own"
        } else {
            "no hold"
        };
        return (format!("{leader} (at {clock}): {mine}; {holder}"), 0.0);
    }
    if !coordination.kv_servers().is_empty() {
        let mut holding = Vec::new();
        let mut left: f64 = 0.0;
        for server in coordination.kv_servers() {
            for (_, entry) in &server.keys {
                if entry.owner == worker.id
                    && entry.expires_at_local_us as i64 > server.local_clock_us
                {
                    holding.push(name(coordination, server.id.index()));
                    left = left.max(lease_fraction(
                        entry.expires_at_local_us,
                        server.local_clock_us,
                        ttl_us,
                    ));
                }
            }
        }
        let total = coordination.kv_servers().len();
        return if holding.is_empty() {
            (format!("its key on 0 of {total} servers"), 0.0)
        } else {
            (
                format!(
                    "its key on {} of {total} servers ({})",
                    holding.len(),
                    holding.join(", ")
                ),
                left,
            )
        };
    }
    ("no service leader right now".to_string(), 0.0)
}

/// The key `lease` was created for (every lease belongs to one lock).
fn hold_key(service: &ServiceView, lease: u64) -> u32 {
    service
        .leases
        .iter()
        .find(|known| known.lease.id == lease)
        .map_or(0, |known| known.lease.key)
}

fn lanes(view: &ClusterView, ttl_us: u64) -> Vec<Lane> {
    let Some(coordination) = view.coordination.as_ref() else {
        return Vec::new();
    };
    coordination
        .workers
        .iter()
        .map(|worker| {
            let paused = view
                .nodes
                .get(worker.id.index())
                .is_some_and(|node| node.status == NodeStatus::Paused);
            let (truth, service_left) = truth(coordination, worker, ttl_us);
            let tokens = tokens_fence(coordination.kind);
            Lane {
                name: name(coordination, worker.id.index()),
                paused,
                belief: belief_sentence(worker, paused, tokens),
                truth,
                local_left: worker.belief.map_or(0.0, |belief| {
                    lease_fraction(belief.lease_until_local_us, worker.local_clock_us, ttl_us)
                }),
                service_left,
            }
        })
        .collect()
}

#[component]
pub fn WorkerLanes() -> impl IntoView {
    let run = use_run();
    let ttl_us = Memo::new(move |_| run.scenario.with(crate::world_text::leases::lease_ttl_us));
    let lanes = Memo::new(move |_| {
        let ttl_us = ttl_us.get();
        run.panel_view.with(|view| lanes(view, ttl_us))
    });
    let double = Memo::new(move |_| {
        run.panel_view.with(|view| {
            view.coordination
                .as_ref()
                .map(|coordination| {
                    believed_holders(coordination)
                        .into_iter()
                        .map(str::to_string)
                        .collect::<Vec<_>>()
                })
                .unwrap_or_default()
        })
    });
    let delays = Memo::new(move |_| {
        run.panel_view.with(|view| {
            view.coordination
                .as_ref()
                .map(lock_delay_lines)
                .unwrap_or_default()
        })
    });
    let contention = Memo::new(move |_| {
        run.panel_view.with(|view| {
            view.coordination
                .as_ref()
                .and_then(contention_sentence)
                .unwrap_or_default()
        })
    });
    let count = Memo::new(move |_| lanes.with(Vec::len));
    view! {
        <Show when=move || { count.get() > 0 }>
            <section class="card worker-lanes" aria-label="Workers: belief and truth" data-testid="worker-lanes">
                <h2>"Workers " <span class="muted">"belief (own clock) · truth (service clock)"</span></h2>
                <p class="lock-contention" data-testid="lock-contention">{move || contention.get()}</p>
                <Show when=move || double.with(|holders| holders.len() >= 2)>
                    <p class="double-holder" role="alert" data-testid="double-holder-banner">
                        "⚠ " {move || double.with(|holders| double_holder_sentence(holders))}
                    </p>
                </Show>
                <For each=move || delays.get() key=|line| line.clone() let:line>
                    // Words alone, with the warning border: an emoji glyph drew as an empty box
                    // where no emoji font is installed.
                    <p class="lock-delay-line" role="status" data-testid="lock-delay-line">{line}</p>
                </For>
                <ul class="lanes">
                    <For each=move || 0..count.get() key=|index| *index let:index>
                        <LaneRow lanes=lanes index=index />
                    </For>
                </ul>
                <MalformedWriteControl />
            </section>
        </Show>
    }
}

#[component]
fn LaneRow(lanes: Memo<Vec<Lane>>, index: usize) -> impl IntoView {
    let lane = Memo::new(move |_| lanes.with(|lanes| lanes.get(index).cloned()));
    let read = move |pick: fn(&Lane) -> String| {
        move || lane.with(|lane| lane.as_ref().map(pick).unwrap_or_default())
    };
    let width = move |pick: fn(&Lane) -> f64| {
        move || {
            let fraction = lane.with(|lane| lane.as_ref().map_or(0.0, pick));
            format!("width: {:.1}%", fraction * 100.0)
        }
    };
    let class = move || {
        if lane.with(|lane| lane.as_ref().is_some_and(|lane| lane.paused)) {
            "lane paused"
        } else {
            "lane"
        }
    };
    view! {
        <li class=class data-testid=read(|lane| format!("lane-{}", lane.name))>
            <span class="lane-name">{read(|lane| format!("▢ {}", lane.name))}</span>
            <div class="lane-side">
                <span class="lane-belief">{read(|lane| lane.belief.clone())}</span>
                <span class="lease-bar local" title="lease left on the worker's clock"><span style=width(|lane| lane.local_left)></span></span>
            </div>
            <div class="lane-side">
                <span class="lane-truth">{read(|lane| lane.truth.clone())}</span>
                <span class="lease-bar service" title="lease left on the service's clock"><span style=width(|lane| lane.service_left)></span></span>
            </div>
        </li>
    }
}
