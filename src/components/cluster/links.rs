//! Links between nodes. Small clusters draw every link (click one to cut or restore it); large ones draw
//! only the cut links, so the ring stays readable. Cut links are dashed red; a one-way cut carries an
//! arrow pointing the way messages can no longer travel.

use super::geometry::StageGeometry;
use crate::layout::pull_toward;
use crate::state::AppState;
use leptos::prelude::*;
use quorumlab_sim::action::{Action, NodeTarget};
use quorumlab_sim::ids::NodeId;

/// The link whose menu is open (the pair, lower id first), shared by the links and the menu.
#[derive(Clone, Copy)]
pub struct LinkMenuTarget(pub RwSignal<Option<(NodeId, NodeId)>>);

/// Above this many nodes only cut links are drawn.
const ALL_LINKS_UP_TO_NODES: usize = 12;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum LinkState {
    Up,
    /// Cut only from `.0` to `.1`.
    OneWay(NodeId, NodeId),
    Both,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct LinkLine {
    low: NodeId,
    high: NodeId,
    state: LinkState,
}

fn link_lines(node_count: usize, cuts: &[(NodeId, NodeId)]) -> Vec<LinkLine> {
    let cut = |from: NodeId, to: NodeId| cuts.contains(&(from, to));
    let mut lines = Vec::new();
    for low in 0..node_count {
        for high in low + 1..node_count {
            let (low, high) = (NodeId(low as u16), NodeId(high as u16));
            let state = match (cut(low, high), cut(high, low)) {
                (true, true) => LinkState::Both,
                (true, false) => LinkState::OneWay(low, high),
                (false, true) => LinkState::OneWay(high, low),
                (false, false) => LinkState::Up,
            };
            if state != LinkState::Up || node_count <= ALL_LINKS_UP_TO_NODES {
                lines.push(LinkLine { low, high, state });
            }
        }
    }
    lines
}

#[component]
pub fn ClusterLinks(geometry: Memo<StageGeometry>) -> impl IntoView {
    let state = expect_context::<AppState>();
    let lines = Memo::new(move |_| {
        state.view.with(|view| {
            let cuts: Vec<(NodeId, NodeId)> = view
                .cut_links
                .iter()
                .map(|cut| (cut.from, cut.to))
                .collect();
            link_lines(view.nodes.len(), &cuts)
        })
    });
    view! {
        <g class="links">
            <For each=move || lines.get() key=|line| line.clone() let:line>
                <LinkView line=line geometry=geometry />
            </For>
        </g>
    }
}

#[component]
fn LinkView(line: LinkLine, geometry: Memo<StageGeometry>) -> impl IntoView {
    let (from, to) = match line.state {
        LinkState::OneWay(from, to) => (from, to),
        _ => (line.low, line.high),
    };
    let ends = move || {
        geometry.with(|geometry| {
            let (start, end) = (geometry.position(from), geometry.position(to));
            let margin = geometry.node_radius + 10.0;
            (
                pull_toward(start, end, margin),
                pull_toward(end, start, margin),
            )
        })
    };
    let class = match line.state {
        LinkState::Up => "link",
        LinkState::OneWay(..) => "link cut one-way",
        LinkState::Both => "link cut",
    };
    let marker = matches!(line.state, LinkState::OneWay(..)).then_some("url(#arrow-cut)");
    let menu = expect_context::<LinkMenuTarget>().0;
    let toggle = move |_| menu.set(Some((line.low, line.high)));
    let label = match line.state {
        LinkState::Up => format!(
            "Link {} to {}: up. Click for cut options",
            line.low, line.high
        ),
        LinkState::OneWay(from, to) => format!("Link {from} to {to} is cut one way"),
        LinkState::Both => format!("Link {} to {} is cut both ways", line.low, line.high),
    };
    view! {
        <g class=class on:click=toggle tabindex="0" role="button"
            on:keydown=move |event| {
                if event.key() == "Enter" || event.key() == " " {
                    event.prevent_default();
                    menu.set(Some((line.low, line.high)));
                }
            } aria-label=label data-testid=format!("link-{}-{}", line.low, line.high)>
            <line class="link-hit" x1=move || ends().0.x y1=move || ends().0.y x2=move || ends().1.x y2=move || ends().1.y></line>
            <line class="link-line" marker-end=marker x1=move || ends().0.x y1=move || ends().0.y x2=move || ends().1.x y2=move || ends().1.y></line>
        </g>
    }
}

/// The options for the clicked link: cut one way, cut both ways, or heal every link.
#[component]
pub fn LinkMenu() -> impl IntoView {
    let state = expect_context::<AppState>();
    let menu = expect_context::<LinkMenuTarget>().0;
    let choose = move |action: Option<Action>| {
        if let Some(action) = action {
            state.apply(action);
        }
        menu.set(None);
    };
    let cut = |from: NodeId, to: NodeId, both: bool| Action::Cut {
        from: NodeTarget::Node(from),
        to: NodeTarget::Node(to),
        both,
    };
    view! {
        {move || menu.get().map(|(low, high)| view! {
            <div class="link-menu" role="dialog" aria-label=format!("Link between {low} and {high}") data-testid="link-menu">
                <strong>{format!("Link {low} — {high}")}</strong>
                <button on:click=move |_| choose(Some(cut(low, high, false)))>{format!("Cut {low} → {high}")}</button>
                <button on:click=move |_| choose(Some(cut(high, low, false)))>{format!("Cut {high} → {low}")}</button>
                <button class="danger" on:click=move |_| choose(Some(cut(low, high, true)))>"Cut both ways"</button>
                <button on:click=move |_| choose(Some(Action::Heal))>"Heal all links"</button>
                <button class="link" on:click=move |_| choose(None)>"Close"</button>
            </div>
        })}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_clusters_list_every_pair_once() {
        let lines = link_lines(5, &[]);
        assert_eq!(lines.len(), 10);
        assert!(lines
            .iter()
            .all(|line| line.state == LinkState::Up && line.low < line.high));
    }

    #[test]
    fn cuts_are_classified_by_direction() {
        let lines = link_lines(
            3,
            &[
                (NodeId(0), NodeId(1)),
                (NodeId(1), NodeId(0)),
                (NodeId(2), NodeId(0)),
            ],
        );
        let find = |low: u16, high: u16| {
            lines
                .iter()
                .find(|line| line.low == NodeId(low) && line.high == NodeId(high))
                .unwrap()
                .state
        };
        assert_eq!(find(0, 1), LinkState::Both);
        assert_eq!(find(0, 2), LinkState::OneWay(NodeId(2), NodeId(0)));
        assert_eq!(find(1, 2), LinkState::Up);
    }

    #[test]
    fn large_clusters_draw_only_cut_links() {
        let lines = link_lines(51, &[(NodeId(3), NodeId(7))]);
        assert_eq!(lines.len(), 1);
        assert_eq!(lines[0].state, LinkState::OneWay(NodeId(3), NodeId(7)));
    }
}
