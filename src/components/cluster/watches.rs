//! Watch arrows for the ZooKeeper-style election: an arrow from each candidate to the candidate whose
//! znode it watches, as the service's leader holds the watches. In the herd recipe every arrow points at
//! the one leader (so when it goes, everyone is woken at once); in the sequential recipe each candidate
//! points at its predecessor only, a chain where a departure wakes a single watcher.

use super::geometry::StageGeometry;
use crate::context::use_run;
use crate::layout::{pull_toward, Point};
use leptos::prelude::*;
use quorumlab_sim::ids::NodeId;
use quorumlab_sim::view_coordination::CoordinationView;

/// One watch: `watcher` is told when `owner`'s znode changes or goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct WatchArrow {
    pub watcher: NodeId,
    pub owner: NodeId,
}

/// The watches the service's leader holds, as arrows between candidates (watches on a znode that is
/// already gone, and a candidate watching its own znode, draw nothing). Sorted, without repeats.
pub fn watch_arrows(coordination: &CoordinationView) -> Vec<WatchArrow> {
    let Some(service) = &coordination.service else {
        return Vec::new();
    };
    let mut arrows: Vec<WatchArrow> = service
        .watches
        .iter()
        .filter_map(|(path, watchers)| {
            let owner = service
                .znodes
                .iter()
                .find(|znode| znode.path == *path)?
                .owner;
            Some(watchers.iter().map(move |watcher| WatchArrow {
                watcher: *watcher,
                owner,
            }))
        })
        .flatten()
        .filter(|arrow| arrow.watcher != arrow.owner)
        .collect();
    arrows.sort_by_key(|arrow| (arrow.watcher, arrow.owner));
    arrows.dedup();
    arrows
}

/// A gentle curve from `from` to `to` bowing to the right of the way it travels, so an arrow never hides
/// under the straight network link between the same two nodes.
fn curve(from: Point, to: Point, bow: f64) -> String {
    let (dx, dy) = (to.x - from.x, to.y - from.y);
    let length = (dx * dx + dy * dy).sqrt().max(1.0);
    let middle = Point {
        x: (from.x + to.x) / 2.0 - dy / length * bow,
        y: (from.y + to.y) / 2.0 + dx / length * bow,
    };
    format!(
        "M {:.1} {:.1} Q {:.1} {:.1} {:.1} {:.1}",
        from.x, from.y, middle.x, middle.y, to.x, to.y
    )
}

#[component]
pub fn ClusterWatches(geometry: Memo<StageGeometry>) -> impl IntoView {
    let run = use_run();
    let arrows = Memo::new(move |_| {
        run.view.with(|view| {
            view.coordination
                .as_ref()
                .map(|coordination| {
                    watch_arrows(coordination)
                        .into_iter()
                        .map(|arrow| {
                            let name = |node: NodeId| {
                                coordination
                                    .labels
                                    .get(node.index())
                                    .cloned()
                                    .unwrap_or_else(|| node.to_string())
                            };
                            (arrow, name(arrow.watcher), name(arrow.owner))
                        })
                        .collect::<Vec<_>>()
                })
                .unwrap_or_default()
        })
    });
    view! {
        <g class="watch-arrows" role="img" aria-label="Watches: who is told when a znode changes">
            <For each=move || arrows.get() key=|row| row.clone() let:row>
                {
                    let (arrow, watcher, owner) = row;
                    let path = move || {
                        geometry.with(|geometry| {
                            let (start, end) = (geometry.position(arrow.watcher), geometry.position(arrow.owner));
                            let margin = geometry.node_radius + geometry.timer_gap + 6.0;
                            curve(pull_toward(start, end, margin), pull_toward(end, start, margin), 28.0)
                        })
                    };
                    view! {
                        <path class="watch-arrow" d=path marker-end="url(#arrow-watch)"
                            data-testid="watch-arrow" data-watcher=watcher.clone() data-owner=owner.clone()>
                            <title>{format!("{watcher} watches {owner}'s znode")}</title>
                        </path>
                    }
                }
            </For>
        </g>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use quorumlab_sim::lockservice::{ZNode, ZPath};
    use quorumlab_sim::view_coordination::ServiceView;

    fn election(znodes: Vec<ZNode>, watches: Vec<(ZPath, Vec<NodeId>)>) -> CoordinationView {
        CoordinationView {
            service: Some(ServiceView {
                leader: NodeId(0),
                leader_clock_us: 0,
                revision: 1,
                leases: Vec::new(),
                locks: Vec::new(),
                znodes,
                watches,
                lock_delays: Vec::new(),
            }),
            ..crate::world_text::bare_view(
                quorumlab_sim::ProtocolKind::Zookeeper,
                &["n1", "n2", "n3", "A", "B", "C"],
            )
        }
    }

    fn znode(path: ZPath, owner: u16) -> ZNode {
        ZNode {
            path,
            session: owner as u64,
            owner: NodeId(owner),
        }
    }

    #[test]
    fn the_herd_points_at_the_leader() {
        let view = election(
            vec![znode(ZPath::Leader, 3)],
            vec![(ZPath::Leader, vec![NodeId(4), NodeId(5), NodeId(3)])],
        );
        let arrows = watch_arrows(&view);
        assert_eq!(arrows.len(), 2, "the leader does not watch itself");
        assert!(arrows.iter().all(|arrow| arrow.owner == NodeId(3)));
    }

    #[test]
    fn sequential_candidates_each_point_at_their_predecessor() {
        let view = election(
            vec![
                znode(ZPath::Candidate(1), 3),
                znode(ZPath::Candidate(2), 4),
                znode(ZPath::Candidate(3), 5),
            ],
            vec![
                (ZPath::Candidate(1), vec![NodeId(4)]),
                (ZPath::Candidate(2), vec![NodeId(5)]),
                // A watch on a znode already gone draws nothing.
                (ZPath::Candidate(9), vec![NodeId(3)]),
            ],
        );
        let arrows = watch_arrows(&view);
        let pairs: Vec<(u16, u16)> = arrows
            .iter()
            .map(|arrow| (arrow.watcher.0, arrow.owner.0))
            .collect();
        assert_eq!(pairs, [(4, 3), (5, 4)]);
    }

    #[test]
    fn no_service_leader_means_no_arrows() {
        let mut view = election(
            vec![znode(ZPath::Leader, 3)],
            vec![(ZPath::Leader, vec![NodeId(4)])],
        );
        view.service = None;
        assert!(watch_arrows(&view).is_empty());
    }
}
