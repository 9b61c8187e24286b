//! The cluster stage: one SVG with links, messages in flight and nodes on a ring. Each layer is a child
//! module drawing from the shared [`geometry`], so the children never import from this file.

pub mod geometry;
pub mod lease;
pub mod link_menu;
pub mod links;
pub mod membership_badge;
pub mod message_detail;
pub mod messages;
pub mod node;
pub mod node_popover;
pub mod timer_rings;
pub mod watches;

use crate::context::use_run;
use crate::world_text::{membership, names, partition};
use geometry::{StageGeometry, STAGE_HEIGHT, STAGE_WIDTH};
use lease::ClusterLeaseRings;
use leptos::prelude::*;
use link_menu::LinkMenu;
use links::{ClusterLinks, LinkMenuTarget};
use membership_badge::MembershipBadge;
use message_detail::{MessageDetail, MessageMenuTarget};
use messages::ClusterMessages;
use node::{node_faces, ClusterNode};
use node_popover::{NodePopover, NodePopoverTarget};
use quorumlab_sim::ids::NodeId;
use timer_rings::ClusterTimerRings;
use watches::ClusterWatches;

/// `titled` writes the run's title ("Raft playground · 5 nodes · seed 42") in the stage's top-left
/// corner, over the drawing's empty corner: the single run's stage carries it (a comparison's sides
/// have titles of their own). In the header it was the first thing to give up width, cut to "Raft pla…"
/// at 1440 px and hidden at 1280 px.
#[component]
pub fn ClusterStage(#[prop(optional)] titled: bool) -> impl IntoView {
    let run = use_run();
    let node_count = Memo::new(move |_| run.view.with(|view| view.nodes.len()));
    // Servers outside the configuration leave the ring; the ring is redrawn only when seats change.
    let on_ring = Memo::new(move |_| {
        run.view.with(|view| match membership::membership_of(view) {
            Some(membership) => membership.seats.iter().map(|seat| seat.on_ring()).collect(),
            None => vec![true; view.nodes.len()],
        })
    });
    let geometry = Memo::new(move |_| on_ring.with(|on_ring| StageGeometry::for_seats(on_ring)));
    let faces = node_faces();
    let link_menu = LinkMenuTarget(RwSignal::new(None));
    provide_context(link_menu);
    provide_context(NodePopoverTarget(RwSignal::new(None)));
    let message_menu = MessageMenuTarget(RwSignal::new(None));
    provide_context(message_menu);
    // A click or tap on the stage away from any message closes a message's menu (a touch screen
    // has no pointer leaving the dot to do it).
    let close_message_menu = move |event: leptos::ev::MouseEvent| {
        let on_message = event_target::<web_sys::Element>(&event)
            .closest("g.message")
            .ok()
            .flatten()
            .is_some();
        if !on_message {
            message_menu.0.set(None);
        }
    };
    let node_ids = move || {
        (0..node_count.get())
            .map(|index| NodeId(index as u16))
            .collect::<Vec<_>>()
    };
    let label = move || {
        run.view.with(|view| match view.leader {
            Some(leader) => format!("Cluster of {} nodes; {leader} leads", view.nodes.len()),
            None => format!("Cluster of {} nodes; no leader right now", view.nodes.len()),
        })
    };

    let svg_class = move || {
        if geometry.with(|geometry| geometry.compact) {
            "cluster-view compact"
        } else {
            "cluster-view"
        }
    };
    view! {
        <div class="stage-wrap">
        // Above the ring, in the flow: drawn over the stage it covered the top node when the stage is narrow.
        <MembershipBadge />
        <Show when=move || titled>
            <p class="scenario-title" data-testid="scenario-title">{move || run.scenario.with(|scenario| format!("{} · {} nodes · seed {}", scenario.title, scenario.node_count, scenario.seed))}</p>
        </Show>
        <svg
            class=svg_class
            data-testid="cluster-view"
            viewBox=format!("0 0 {STAGE_WIDTH} {STAGE_HEIGHT}")
            role="group"
            aria-label=label
            on:click=close_message_menu
        >
            <defs>
                <marker id="arrow-cut" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
                    <path d="M 0 0 L 10 5 L 0 10 z" class="arrow-cut"></path>
                </marker>
                <marker id="arrow-watch" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="8" markerHeight="8" orient="auto-start-reverse">
                    <path d="M 0 0 L 10 5 L 0 10 z" class="arrow-watch"></path>
                </marker>
            </defs>
            <circle class="cluster-ring" cx=STAGE_WIDTH / 2.0 cy=STAGE_HEIGHT / 2.0 r=move || geometry.with(|geometry| geometry.ring_radius)></circle>
            <ClusterLinks geometry=geometry />
            <ClusterWatches geometry=geometry />
            <ClusterMessages geometry=geometry />
            <For each=node_ids key=|node| *node let:node>
                <ClusterNode node=node geometry=geometry faces=faces />
            </For>
            // Over the nodes' ring tracks, as each small node's own ring is.
            <Show when=move || geometry.with(|geometry| geometry.compact)>
                <ClusterTimerRings geometry=geometry />
            </Show>
            <ClusterLeaseRings geometry=geometry />
        </svg>
        <LinkMenu />
        <NodePopover />
        <QuorumOverlay />
        <MessageDetail />
        </div>
    }
}

/// While the cluster is partitioned, each side's quorum verdict sits on the stage itself.
#[component]
fn QuorumOverlay() -> impl IntoView {
    let run = use_run();
    let badges = Memo::new(move |_| {
        run.view.with(|view| {
            let coordination = view.coordination.as_ref();
            view.partition_groups
                .iter()
                .map(|group| {
                    let (counted, total) = membership::counted_group(view, group);
                    let (text, can_commit) =
                        partition::group_verdict(coordination, &counted, total);
                    let members = names::name_list(coordination, group);
                    (format!("{{{members}}} {text}"), can_commit)
                })
                .collect::<Vec<_>>()
        })
    });
    view! {
        <Show when=move || badges.with(|badges| !badges.is_empty())>
            <ul class="quorum-overlay" aria-label="Quorum per partition group" data-testid="quorum-overlay">
                {move || badges.get().into_iter().map(|(text, can_commit)| {
                    view! { <li class=if can_commit { "quorum ok" } else { "quorum no" }>{text}</li> }
                }).collect_view()}
            </ul>
        </Show>
    }
}
