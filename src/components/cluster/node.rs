//! One node on the ring: role by colour and by icon, term, status glyphs, clock badge, and the
//! election-timeout ring that drains and visibly refills on every heartbeat. In a coordination world a
//! node shows its name (`A`, `store`) and a shape for its kind: circle for a server, rounded square for
//! a worker, diamond for a Paxos learner, hexagon for the resource.

use super::geometry::{StageGeometry, STAGE_WIDTH};
use super::node_popover::NodePopoverTarget;
use super::timer_rings::timer_remaining;
use crate::caption_fit::{caption_font_px, split_caption, CaptionRun};
use crate::context::playback::Kiosk;
use crate::context::{use_playback, use_run, use_selection};
use crate::format;
use crate::world_text::byzantine::{liar_label, restart_liar_label};
use crate::world_text::capabilities::runs_raft;
use crate::world_text::membership::{membership_of, Seat};
use crate::world_text::node_kind::NodeKind;
use crate::world_text::paxos::{learner_why, paxos_state};
use crate::world_text::pbft::pbft_state;
use leptos::prelude::*;
use quorumlab_sim::action::ByzantineMode;
use quorumlab_sim::config::ProtocolConfig;
use quorumlab_sim::ids::NodeId;
use quorumlab_sim::protocol::RoleLabel;
use quorumlab_sim::units::Term;
use quorumlab_sim::view::{ClusterView, NodeView};
use quorumlab_sim::view_coordination::{CoordinationView, WorldView};
use quorumlab_sim::world::NodeStatus;

/// Partition groups have this many halo colours (`--group-0` … in style/main.css).
const GROUP_COLOURS: usize = 4;

/// The parts of a node that change rarely, so the node's DOM updates only when they do.
#[derive(Clone, Debug, PartialEq)]
pub struct NodeFace {
    status: NodeStatus,
    role: RoleLabel,
    term: Term,
    queued_inputs: u64,
    clock_offset_us: i64,
    clock_drift_ppm: i64,
    group: Option<usize>,
    votes: usize,
    lease_holds: Option<bool>,
    /// The node's name (`n1`, `A`, `store`) and what kind of actor it is.
    label: String,
    kind: NodeKind,
    /// What this world calls the kind (`candidate` in the ZooKeeper recipe, `instance` in the scheduler).
    kind_word: &'static str,
    /// Servers without Raft (Redis-style) have no term to show.
    raft: bool,
    /// What the server is called in this world ("lock server", "acceptor").
    server_word: &'static str,
    /// The node's state in its world's own words: a Paxos node's promise and accepted value (or what it
    /// learned), a PBFT replica's view or a PBFT client's replies.
    world_state: Option<String>,
    /// Why a Paxos learner actor knows its value: the majority and the ballot, a second line under its
    /// caption, so neither line is wider than an acceptor's.
    why: Option<String>,
    /// How the node lies right now (never while crashed: a node that is down sends nothing).
    lying: Option<ByzantineMode>,
    /// A crashed liar's mode, which it lies in again once restarted: drawn in words, without the ring.
    lies_after_restart: Option<ByzantineMode>,
    /// Its seat in the configuration the ring is drawn by (plain Raft clusters only).
    seat: Option<Seat>,
    /// Its disk's own write time, ms, when it was given a slow disk.
    slow_disk_ms: Option<(u64, u64)>,
}

/// What a node of a world without Raft holds in its world's own terms (a Paxos acceptor's promise, a
/// PBFT replica's view, or its row on its world's card), for its caption.
fn world_state(coordination: &CoordinationView, node: NodeId) -> Option<String> {
    match coordination.world.as_ref()? {
        WorldView::Paxos(paxos) => paxos_state(paxos, node, &coordination.labels),
        WorldView::Pbft(pbft) => pbft_state(pbft, node),
        // A world that describes itself in rows: the node's own row, in its words.
        world => world
            .rows(&coordination.labels)?
            .rows
            .into_iter()
            .find(|row| row.node == Some(node))
            .map(|row| row.caption.unwrap_or(row.value)),
    }
}

impl NodeFace {
    fn from_view(node: &NodeView, view: &ClusterView, seat: Option<Seat>) -> NodeFace {
        let groups = &view.partition_groups;
        let coordination = view.coordination.as_ref();
        let label = coordination
            .and_then(|coordination| coordination.labels.get(node.id.index()).cloned())
            .unwrap_or_else(|| node.id.to_string());
        let kind = NodeKind::of_label(&label);
        // A view without coordination actors is the plain cluster's.
        let protocol = coordination.map_or(ProtocolConfig::default().kind(), |coordination| {
            coordination.kind
        });
        let raft = kind == NodeKind::Server && runs_raft(protocol);
        NodeFace {
            server_word: server_word(protocol),
            world_state: coordination.and_then(|coordination| world_state(coordination, node.id)),
            why: coordination
                .and_then(|coordination| coordination.paxos())
                .and_then(|paxos| learner_why(paxos, node.id, &coordination_labels(view))),
            lying: node.lying_now(),
            lies_after_restart: node.lies_after_restart(),
            seat,
            slow_disk_ms: node.disk_slowed.then_some(node.persist_ms),
            kind_word: kind.word_in(protocol),
            label,
            kind,
            raft,
            status: node.status,
            role: node.role,
            term: node.term,
            queued_inputs: node.queued_inputs,
            clock_offset_us: node.clock_offset_us,
            clock_drift_ppm: node.clock_drift_ppm,
            group: groups.iter().position(|group| group.contains(&node.id)),
            votes: node.votes_from.len(),
            lease_holds: node.lease_holds,
        }
    }

    fn role_word(&self) -> &'static str {
        match self.role {
            RoleLabel::Leader => "leader",
            RoleLabel::Candidate => "candidate",
            RoleLabel::PreCandidate => "pre-candidate",
            RoleLabel::Follower => "follower",
        }
    }

    fn role_icon(&self) -> &'static str {
        if !self.raft {
            return "";
        }
        match self.role {
            RoleLabel::Leader => "★",
            RoleLabel::Candidate | RoleLabel::PreCandidate => "?",
            RoleLabel::Follower => "",
        }
    }

    fn caption(&self) -> String {
        if !self.raft {
            let kind = match self.kind {
                NodeKind::Server => self.server_word,
                _ => self.kind_word,
            };
            return match (self.status, &self.world_state) {
                (NodeStatus::Crashed, _) => format!("{kind} · crashed"),
                (_, Some(state)) => format!("{kind} · {state}"),
                _ => kind.to_string(),
            };
        }
        // A crashed server holds no role: what it believed went with its memory.
        if self.status == NodeStatus::Crashed {
            return "crashed".to_string();
        }
        // A learner or an outsider is that first: its role says little while nobody counts it.
        if let Some(word) = self.seat.and_then(Seat::word) {
            return format!("{word} · term {}", self.term);
        }
        let base = format!("{} · term {}", self.role_word(), self.term);
        match (self.role, self.lease_holds) {
            (RoleLabel::Candidate | RoleLabel::PreCandidate, _) => {
                format!("{base} · {} votes", self.votes)
            }
            (RoleLabel::Leader, Some(true)) => format!("{base} · lease ok"),
            (RoleLabel::Leader, Some(false)) => format!("{base} · lease expired"),
            _ => base,
        }
    }

    /// The words above the node: a skewed clock and a slow disk, the faults that do not show in its
    /// colour or its caption.
    fn clock_badge(&self) -> Option<String> {
        let disk = self
            .slow_disk_ms
            .map(|(min_ms, max_ms)| match min_ms == max_ms {
                true => format!("disk {}", crate::node_actions::pause_text(Some(min_ms))),
                false => format!("disk {min_ms}–{max_ms} ms"),
            });
        match (self.clock_words(), disk) {
            (Some(clock), Some(disk)) => Some(format!("{clock} · {disk}")),
            (clock, disk) => clock.or(disk),
        }
    }

    fn clock_words(&self) -> Option<String> {
        // Offsets under a millisecond are rounding from drift, not something to show.
        let offset_shown = self.clock_offset_us.abs() >= 1_000;
        match (offset_shown, self.clock_drift_ppm != 0) {
            (false, false) => None,
            (true, false) => Some(format!(
                "clock {}",
                format::clock_offset(self.clock_offset_us)
            )),
            (false, true) => Some(format!("clock {}", format::drift(self.clock_drift_ppm))),
            (true, true) => Some(format!(
                "clock {} {}",
                format::clock_offset(self.clock_offset_us),
                format::drift(self.clock_drift_ppm)
            )),
        }
    }

    /// Begins with the words drawn on the node, in their order (name, caption, clock, waiting inputs),
    /// so what a screen reader says and what voice control can be told match what is seen.
    fn accessible_label(&self, node: NodeId) -> String {
        let mut parts = vec![format!("{} {}", self.label, self.caption())];
        parts.extend(self.why.clone());
        parts.extend(self.lying.map(|mode| liar_label(mode).to_string()));
        parts.extend(self.lies_after_restart.map(restart_liar_label));
        parts.extend(self.clock_badge());
        if self.queued_inputs > 0 {
            parts.push(format!("{} inputs waiting", self.queued_inputs));
        }
        match self.status {
            NodeStatus::Paused => parts.push("paused".to_string()),
            NodeStatus::Crashed if self.raft => {
                parts.push(format!("term {} kept on disk", self.term))
            }
            _ => {}
        }
        if self.label != node.to_string() {
            parts.push(format!("node {node}"));
        }
        parts.join(", ")
    }
}

/// The registry's word for a world's servers, as a caption says it ("lock server" for Redis-style).
fn server_word(protocol: quorumlab_sim::ProtocolKind) -> &'static str {
    match protocol.entry().vocabulary.server {
        "Redis server" => "lock server",
        word => word,
    }
}

fn coordination_labels(view: &ClusterView) -> Vec<String> {
    view.coordination
        .as_ref()
        .map(|coordination| coordination.labels.clone())
        .unwrap_or_default()
}

/// A flat-topped hexagon of circumradius `radius`, as SVG points.
fn hexagon(radius: f64) -> String {
    (0..6)
        .map(|corner| {
            let angle = std::f64::consts::FRAC_PI_3 * corner as f64;
            format!("{:.1},{:.1}", radius * angle.cos(), radius * angle.sin())
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// A diamond (a square on its corner) reaching `radius` a little beyond the circle's, as SVG points.
fn diamond(radius: f64) -> String {
    let reach = radius * 1.15;
    format!("0,{:.1} {reach:.1},0 0,{reach:.1} {:.1},0", -reach, -reach)
}

/// A twelve-pointed jagged ring of outer radius `radius`, as SVG points: the mark of a lying node.
fn jagged_ring(radius: f64) -> String {
    (0..24)
        .map(|corner| {
            let angle = std::f64::consts::PI / 12.0 * corner as f64;
            let reach = if corner % 2 == 0 {
                radius
            } else {
                radius - 9.0
            };
            format!("{:.1},{:.1}", reach * angle.cos(), reach * angle.sin())
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// Every node's face, computed once per view change: one memo for the cluster rather than one per
/// node, whose re-runs every frame (with their bookkeeping in the reactive graph) dominated the
/// script time of large clusters. A node's own memo then re-runs only when some face changed.
pub fn node_faces() -> Memo<Vec<NodeFace>> {
    let run = use_run();
    Memo::new(move |_| {
        run.view.with(|view| {
            let membership = membership_of(view);
            let seat = |node: NodeId| membership.as_ref().map(|membership| membership.seat(node));
            view.nodes
                .iter()
                .map(|node_view| NodeFace::from_view(node_view, view, seat(node_view.id)))
                .collect()
        })
    })
}

#[component]
pub fn ClusterNode(
    node: NodeId,
    geometry: Memo<StageGeometry>,
    faces: Memo<Vec<NodeFace>>,
) -> impl IntoView {
    let run = use_run();
    let playback = use_playback();
    let selection = use_selection();
    let face = Memo::new(move |_| faces.with(|faces| faces.get(node.index()).cloned()));
    let compact = move || geometry.with(|geometry| geometry.compact);
    let radius = move || geometry.with(|geometry| geometry.node_radius);
    let ring_radius = move || geometry.with(|geometry| geometry.node_radius + geometry.timer_gap);
    let transform = move || {
        let point = geometry.with(|geometry| geometry.position(node));
        format!("translate({:.1} {:.1})", point.x, point.y)
    };
    let classes = move || {
        let selected = selection.selected.get() == Some(node);
        let highlighted = selection.highlighted.with(|nodes| nodes.contains(&node));
        face.with(|face| match face {
            Some(face) => format!(
                "node role-{} status-{}{}{}{}{}",
                face.role_word(),
                face.status.as_str(),
                match face.seat {
                    Some(Seat::Learner) => " seat-learner",
                    Some(Seat::Outside) => " seat-outside",
                    _ => "",
                },
                if face.lying.is_some() { " liar" } else { "" },
                if selected { " selected" } else { "" },
                if highlighted { " highlighted" } else { "" }
            ),
            None => "node".to_string(),
        })
    };
    let ring_offset = move || {
        let circumference = std::f64::consts::TAU * ring_radius();
        let remaining = run.view.with(|view| {
            view.nodes
                .get(node.index())
                .and_then(|node_view| timer_remaining(node_view, view.now_us))
        });
        match remaining {
            Some(remaining) => format!("{:.1}", circumference * (1.0 - remaining)),
            None => format!("{circumference:.1}"),
        }
    };
    let dash = move || format!("{:.1}", std::f64::consts::TAU * ring_radius());
    // A liar's words go under its caption where they fit; at the stage's foot (the bottom node of a
    // four-node ring) the drawing would clip them, so they go above the node, over any clock badge.
    let liar_words_y = move || {
        let below = radius() + 52.0;
        if geometry.with(|geometry| geometry.fits_below(node, below)) {
            return below;
        }
        let clock_shown = face.with(|face| {
            face.as_ref()
                .is_some_and(|face| face.clock_badge().is_some())
        });
        -radius() - if clock_shown { 42.0 } else { 22.0 }
    };
    let popover = expect_context::<NodePopoverTarget>().0;
    // Selecting shows the node in the Inspector; the popover beside it carries the actions.
    // A locked page (an embed's kiosk) shows what a node believes but offers nothing to break it.
    let select = move || {
        selection.selected.set(Some(node));
        if playback.kiosk.get_untracked() == Kiosk::Full {
            popover.set(Some(node));
        }
    };
    let read = move |pick: fn(&NodeFace) -> String| {
        move || face.with(|face| face.as_ref().map(pick).unwrap_or_default())
    };
    // Words under the node run inward near the stage's side edges, so the drawing does not cut them.
    let phone = crate::web_io::matches_media("(max-width: 600px)");
    let font_px = move || caption_font_px(playback.presenter.get(), phone);
    let widest =
        |(first, second): (String, String)| first.chars().count().max(second.chars().count());
    let run = move |pick: fn(&NodeFace) -> String| {
        move || {
            let text = face.with(|face| face.as_ref().map(pick).unwrap_or_default());
            let node_x = geometry.with(|geometry| geometry.position(node).x);
            let chars = widest(split_caption(&text, font_px()));
            CaptionRun::for_caption(node_x, STAGE_WIDTH, chars, font_px())
        }
    };
    // The caption in one line or, when long, two (`split_caption`).
    let caption_lines = Memo::new(move |_| {
        let caption = face.with(|face| face.as_ref().map(NodeFace::caption).unwrap_or_default());
        split_caption(&format!(" {caption}"), font_px())
    });
    let caption_run = run(|face| face.caption());
    let why_run = run(|face| face.why.clone().unwrap_or_default());
    let liar_run = run(|face| {
        face.lying
            .map(|mode| format!(" ⚠ {}", liar_label(mode)))
            .unwrap_or_default()
    });
    let dormant_run = run(|face| {
        face.lies_after_restart
            .map(|mode| format!(" ⚠ {}", restart_liar_label(mode)))
            .unwrap_or_default()
    });

    view! {
        <g
            class=classes
            transform=transform
            tabindex="0"
            role="button"
            data-testid=format!("node-{node}")
            aria-label=move || face.with(|face| face.as_ref().map(|face| face.accessible_label(node)).unwrap_or_default())
            on:click=move |_| select()
            // Enter opens the actions; Space is left to the window's play / pause, as on every
            // control that is not a button (a focused node must not trap the key that runs the world).
            on:keydown=move |event| {
                if event.key() == "Enter" {
                    event.prevent_default();
                    select();
                }
            }
        >
            <Show when=move || face.with(|face| face.as_ref().is_some_and(|face| face.group.is_some()))>
                <circle
                    class=move || face.with(|face| {
                        let group = face.as_ref().and_then(|face| face.group).unwrap_or(0);
                        format!("group-halo group-{}", group % GROUP_COLOURS)
                    })
                    r=move || ring_radius() + 8.0
                ></circle>
            </Show>
            <circle class="timer-track" r=ring_radius></circle>
            // A large cluster draws every ring in one layer (`ClusterTimerRings`).
            <Show when=move || !compact()>
                <circle
                    class="timer-ring"
                    r=ring_radius
                    transform="rotate(-90)"
                    stroke-dasharray=dash
                    stroke-dashoffset=ring_offset
                ></circle>
            </Show>
            {move || match face.with(|face| face.as_ref().map_or(NodeKind::Server, |face| face.kind)) {
                NodeKind::Server => view! { <circle class="node-body" r=radius></circle> }.into_any(),
                NodeKind::Worker => view! {
                    <rect class="node-body kind-worker" x=move || -radius() * 0.9 y=move || -radius() * 0.9
                        width=move || radius() * 1.8 height=move || radius() * 1.8 rx=move || radius() * 0.35></rect>
                }.into_any(),
                NodeKind::Learner => view! {
                    <polygon class="node-body kind-learner" points=move || diamond(radius())></polygon>
                }.into_any(),
                NodeKind::Resource => view! {
                    <polygon class="node-body kind-resource" points=move || hexagon(radius())></polygon>
                }.into_any(),
            }}
            <Show when=move || face.with(|face| face.as_ref().is_some_and(|face| face.status == NodeStatus::Crashed))>
                <g class="crash-mark">
                    <line x1=move || -radius() y1=move || -radius() x2=radius y2=radius></line>
                    <line x1=radius y1=move || -radius() x2=move || -radius() y2=radius></line>
                </g>
            </Show>
            <Show when=move || face.with(|face| face.as_ref().is_some_and(|face| face.seat == Some(Seat::Learner)))>
                // Not by colour alone: a dotted ring round a learner, and the word in its caption.
                <circle class="learner-ring" data-testid=format!("learner-{node}") r=move || ring_radius() + 6.0></circle>
            </Show>
            <Show when=move || face.with(|face| face.as_ref().is_some_and(|face| face.lying.is_some()))>
                // Not by colour alone: a jagged ring round the node and the lie in words under it.
                <polygon class="liar-ring" points=move || jagged_ring(ring_radius() + 6.0)></polygon>
                <text class=move || format!("liar-label{}", liar_run().class()) data-testid=format!("liar-{node}")
                    x=move || liar_run().x(radius()) y=liar_words_y>
                    {read(|face| face.lying.map(|mode| format!(" ⚠ {}", liar_label(mode))).unwrap_or_default())}
                </text>
            </Show>
            <Show when=move || face.with(|face| face.as_ref().is_some_and(|face| face.lies_after_restart.is_some()))>
                // Down, it lies to no one (no ring); the words say what it does once restarted.
                <text class=move || format!("liar-label dormant{}", dormant_run().class()) data-testid=format!("restart-liar-{node}")
                    x=move || dormant_run().x(radius()) y=liar_words_y>
                    {read(|face| face.lies_after_restart.map(|mode| format!(" ⚠ {}", restart_liar_label(mode))).unwrap_or_default())}
                </text>
            </Show>
            <text class="node-icon" y=move || if compact() { -ring_radius() - 11.0 } else { -radius() * 0.28 }>{read(|face| face.role_icon().to_string())}</text>
            <text class="node-id" y=move || if compact() { 1.0 } else { radius() * 0.42 }>{read(|face| face.label.clone())}</text>
            <Show when=move || !compact()>
                // Each text starts with a space (not drawn: SVG drops it at the start of a line) so that
                // the node's words read as words, "n1 follower", matching its accessible name.
                <text class=move || format!("node-caption{}", caption_run().class())
                    x=move || caption_run().x(radius()) y=move || radius() + 34.0>
                    <tspan>{move || caption_lines.with(|lines| lines.0.clone())}</tspan>
                    <tspan x=move || caption_run().x(radius()) dy="1.1em">{move || caption_lines.with(|lines| lines.1.clone())}</tspan>
                </text>
                // Under the caption's second line when it has one.
                <text class=move || format!("node-caption node-why{}", why_run().class())
                    x=move || why_run().x(radius())
                    y=move || radius() + if caption_lines.with(|lines| lines.1.is_empty()) { 50.0 } else { 68.0 }>
                    {read(|face| face.why.as_ref().map(|why| format!(" {why}")).unwrap_or_default())}
                </text>
                <text class="node-clock" y=move || -radius() - 20.0>
                    {read(|face| face.clock_badge().map(|badge| format!(" {badge}")).unwrap_or_default())}
                </text>
            </Show>
            <Show when=move || face.with(|face| face.as_ref().is_some_and(|face| face.status == NodeStatus::Paused))>
                <g class="pause-mark" transform=move || format!("translate({:.1} {:.1}) scale({})", radius() * 0.7, -radius() * 0.7, if compact() { 0.55 } else { 1.0 })>
                    <circle r="15"></circle>
                    <rect x="-7" y="-8" width="5" height="16"></rect>
                    <rect x="2" y="-8" width="5" height="16"></rect>
                </g>
                <Show when=move || face.with(|face| face.as_ref().is_some_and(|face| face.queued_inputs > 0))>
                    <text class="queue-badge" x=move || radius() + 10.0 y=move || radius() * 0.3>
                        {read(|face| format!(" ✉ {}", face.queued_inputs))}
                    </text>
                </Show>
            </Show>
        </g>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn face(status: NodeStatus, kind: NodeKind, raft: bool) -> NodeFace {
        NodeFace {
            status,
            role: RoleLabel::Follower,
            term: quorumlab_sim::units::Term(3),
            queued_inputs: 0,
            clock_offset_us: 0,
            clock_drift_ppm: 0,
            group: None,
            votes: 0,
            lease_holds: None,
            label: if kind == NodeKind::Worker { "A" } else { "n1" }.to_string(),
            kind,
            kind_word: kind.word(),
            raft,
            server_word: "lock server",
            world_state: None,
            why: None,
            lying: None,
            lies_after_restart: None,
            seat: None,
            slow_disk_ms: None,
        }
    }

    #[test]
    fn a_slow_disk_is_said_above_the_node_beside_its_clock() {
        let mut server = face(NodeStatus::Up, NodeKind::Server, true);
        assert_eq!(server.clock_badge(), None);
        server.slow_disk_ms = Some((1_000, 1_000));
        assert_eq!(server.clock_badge().as_deref(), Some("disk 1 s"));
        server.clock_offset_us = 500_000;
        assert_eq!(
            server.clock_badge().as_deref(),
            Some("clock +500 ms · disk 1 s")
        );
        server.slow_disk_ms = Some((5, 7));
        assert!(server
            .accessible_label(quorumlab_sim::ids::NodeId(0))
            .contains("disk 5–7 ms"));
    }

    #[test]
    fn a_paxos_node_says_what_it_promised_accepted_or_learned() {
        let mut learner = face(NodeStatus::Up, NodeKind::Learner, false);
        learner.kind_word = NodeKind::Learner.word();
        learner.world_state = Some("knows nothing yet".into());
        assert_eq!(learner.caption(), "learner · knows nothing yet");
        let mut acceptor = face(NodeStatus::Up, NodeKind::Server, false);
        acceptor.server_word = "acceptor";
        acceptor.world_state = Some("no promise · empty".into());
        assert_eq!(acceptor.caption(), "acceptor · no promise · empty");
    }

    #[test]
    fn a_learner_and_an_outsider_say_so_before_their_term() {
        let mut learner = face(NodeStatus::Up, NodeKind::Server, true);
        learner.seat = Some(Seat::Learner);
        assert_eq!(learner.caption(), "learner · term 3");
        assert_eq!(learner.accessible_label(NodeId(0)), "n1 learner · term 3");
        let mut outside = face(NodeStatus::Up, NodeKind::Server, true);
        outside.seat = Some(Seat::Outside);
        assert_eq!(outside.caption(), "not a member · term 3");
        let mut voter = face(NodeStatus::Up, NodeKind::Server, true);
        voter.seat = Some(Seat::Voter);
        assert_eq!(voter.caption(), "follower · term 3");
    }

    #[test]
    fn a_crashed_node_says_crashed_instead_of_a_role() {
        let up = face(NodeStatus::Up, NodeKind::Server, true);
        assert_eq!(up.caption(), "follower · term 3");
        let crashed = face(NodeStatus::Crashed, NodeKind::Server, true);
        assert_eq!(crashed.caption(), "crashed");
        assert_eq!(
            crashed.accessible_label(NodeId(0)),
            "n1 crashed, term 3 kept on disk"
        );
        let worker = face(NodeStatus::Crashed, NodeKind::Worker, false);
        assert_eq!(worker.caption(), "worker · crashed");
        assert_eq!(
            worker.accessible_label(NodeId(1)),
            "A worker · crashed, node n2"
        );
        let mut crashed_liar = face(NodeStatus::Crashed, NodeKind::Server, true);
        crashed_liar.lies_after_restart = Some(ByzantineMode::Lie);
        assert_eq!(
            crashed_liar.accessible_label(NodeId(0)),
            "n1 crashed, lies again on restart: forges, term 3 kept on disk"
        );
        let mut paused = face(NodeStatus::Paused, NodeKind::Server, true);
        paused.queued_inputs = 4;
        assert_eq!(
            paused.accessible_label(NodeId(0)),
            "n1 follower · term 3, 4 inputs waiting, paused"
        );
    }
}
