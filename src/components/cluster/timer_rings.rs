//! Election-timeout rings: how much of each node's timeout is left, drawn as an arc that drains
//! clockwise from twelve o'clock. A small cluster draws each ring inside its node; a large one draws
//! all rings as three paths (leaders, paused nodes, the rest), so a frame sets three attributes
//! instead of one per node — at 51 nodes the per-node updates and their bookkeeping in the reactive
//! graph were most of the page's script time.

use super::geometry::StageGeometry;
use crate::context::use_run;
use leptos::prelude::*;
use quorumlab_sim::protocol::RoleLabel;
use quorumlab_sim::view::NodeView;
use quorumlab_sim::world::NodeStatus;
use std::fmt::Write;

/// Fraction of the election timeout still to run, from the node's timer as true-time instants.
pub fn timer_remaining(node: &NodeView, now_us: u64) -> Option<f64> {
    let timer = node
        .timers
        .iter()
        .find(|timer| timer.kind == "election" || timer.kind == "check quorum")?;
    let total_us = timer.due_at_us.saturating_sub(timer.started_at_us).max(1) as f64;
    let left_us = timer.due_at_us.saturating_sub(now_us) as f64;
    Some((left_us / total_us).clamp(0.0, 1.0))
}

/// Appends to `path` the arc of a ring of `radius` around (`x`, `y`) covering `remaining` of it.
fn push_arc(path: &mut String, x: f64, y: f64, radius: f64, remaining: f64) {
    if remaining <= 0.0 {
        return;
    }
    if remaining >= 0.999 {
        // A full circle is two half arcs: one arc cannot end where it starts.
        let _ = write!(
            path,
            "M{x:.1} {top:.1}A{radius:.1} {radius:.1} 0 1 1 {x:.1} {bottom:.1}A{radius:.1} {radius:.1} 0 1 1 {x:.1} {top:.1}",
            top = y - radius,
            bottom = y + radius,
        );
        return;
    }
    let angle = std::f64::consts::TAU * remaining;
    let end_x = x + radius * angle.sin();
    let end_y = y - radius * angle.cos();
    let large_arc = u8::from(angle > std::f64::consts::PI);
    let _ = write!(
        path,
        "M{x:.1} {top:.1}A{radius:.1} {radius:.1} 0 {large_arc} 1 {end_x:.1} {end_y:.1}",
        top = y - radius,
    );
}

/// Which of the three paths a node's ring belongs to (crashed nodes have none).
fn ring_kind(node: &NodeView) -> Option<usize> {
    match (node.status, node.role) {
        (NodeStatus::Crashed, _) => None,
        (NodeStatus::Paused, _) => Some(1),
        (_, RoleLabel::Leader) => Some(0),
        _ => Some(2),
    }
}

/// All rings of a large cluster, drawn over the nodes' ring tracks.
#[component]
pub fn ClusterTimerRings(geometry: Memo<StageGeometry>) -> impl IntoView {
    let run = use_run();
    let paths = Memo::new(move |_| {
        geometry.with(|geometry| {
            let radius = geometry.node_radius + geometry.timer_gap;
            run.view.with(|view| {
                let mut paths: [String; 3] = Default::default();
                for node in &view.nodes {
                    let (Some(kind), Some(remaining)) =
                        (ring_kind(node), timer_remaining(node, view.now_us))
                    else {
                        continue;
                    };
                    let at = geometry.position(node.id);
                    push_arc(&mut paths[kind], at.x, at.y, radius, remaining);
                }
                paths
            })
        })
    });
    let path = move |kind: usize| move || paths.with(|paths| paths[kind].clone());
    view! {
        <g class="timer-rings" aria-hidden="true">
            <g class="role-leader"><path class="timer-ring" d=path(0)></path></g>
            <g class="status-paused"><path class="timer-ring" d=path(1)></path></g>
            <g><path class="timer-ring" d=path(2)></path></g>
        </g>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_arc_covers_the_remaining_share_clockwise_from_the_top() {
        let mut quarter = String::new();
        push_arc(&mut quarter, 100.0, 100.0, 10.0, 0.25);
        assert_eq!(quarter, "M100.0 90.0A10.0 10.0 0 0 1 110.0 100.0");
        let mut three_quarters = String::new();
        push_arc(&mut three_quarters, 100.0, 100.0, 10.0, 0.75);
        assert_eq!(three_quarters, "M100.0 90.0A10.0 10.0 0 1 1 90.0 100.0");
        let mut none = String::new();
        push_arc(&mut none, 100.0, 100.0, 10.0, 0.0);
        assert!(none.is_empty());
        let mut full = String::new();
        push_arc(&mut full, 100.0, 100.0, 10.0, 1.0);
        assert_eq!(full.matches('A').count(), 2, "{full}");
    }
}
