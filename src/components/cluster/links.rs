//! Links between nodes. Small clusters draw every link (click one for its menu, `link_menu.rs`); large
//! ones draw only the cut links and those with settings of their own, so the ring stays readable. Cut
//! links are dashed red; a one-way cut carries an arrow pointing the way messages can no longer travel.
//! A link with its own delay or loss is drawn thicker with a long dash and says its settings in words
//! beside it ("60–90 ms"), so it is told apart by shape and text, not colour alone.

use super::geometry::StageGeometry;
use crate::context::use_run;
use crate::layout::pull_toward;
use leptos::prelude::*;
use quorumlab_sim::ids::NodeId;
use quorumlab_sim::link_settings::LinkSettings;
use quorumlab_sim::narration::actions::link_settings_text;
use quorumlab_sim::view::LinkSettingView;

/// The link whose menu is open (the pair, lower id first), shared by the links and the menu.
#[derive(Clone, Copy)]
pub struct LinkMenuTarget(pub RwSignal<Option<(NodeId, NodeId)>>);

/// Above this many nodes only cut links and links with settings of their own are drawn.
const ALL_LINKS_UP_TO_NODES: usize = 12;
/// Above this many links with settings of their own, they are drawn without words (a regions preset
/// on a large cluster would bury the ring in labels).
const LABELS_UP_TO_TUNED_LINKS: usize = 12;

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
    /// The link's own settings, with whether to write them beside it.
    tuned: Option<(LinkSettings, bool)>,
}

fn link_lines(
    node_count: usize,
    cuts: &[(NodeId, NodeId)],
    tuned: &[LinkSettingView],
) -> Vec<LinkLine> {
    let cut = |from: NodeId, to: NodeId| cuts.contains(&(from, to));
    let labelled = tuned.len() <= LABELS_UP_TO_TUNED_LINKS;
    let settings_of = |low: NodeId, high: NodeId| {
        tuned
            .iter()
            .find(|view| view.between == (low, high))
            .map(|view| (view.settings, labelled))
    };
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
            let tuned = settings_of(low, high);
            if state != LinkState::Up || tuned.is_some() || node_count <= ALL_LINKS_UP_TO_NODES {
                lines.push(LinkLine {
                    low,
                    high,
                    state,
                    tuned,
                });
            }
        }
    }
    lines
}

#[component]
pub fn ClusterLinks(geometry: Memo<StageGeometry>) -> impl IntoView {
    let run = use_run();
    let lines = Memo::new(move |_| {
        run.view.with(|view| {
            let cuts: Vec<(NodeId, NodeId)> = view
                .cut_links
                .iter()
                .map(|cut| (cut.from, cut.to))
                .collect();
            link_lines(view.nodes.len(), &cuts, &view.link_settings)
        })
    });
    // The names on the ring (`A`, `store`); empty in a plain Raft cluster, whose ids are its names.
    let labels = Memo::new(move |_| {
        run.view.with(|view| {
            view.coordination
                .as_ref()
                .map(|coordination| coordination.labels.clone())
                .unwrap_or_default()
        })
    });
    view! {
        <g class="links">
            <For each=move || lines.get() key=|line| line.clone() let:line>
                <LinkView line=line geometry=geometry labels=labels />
            </For>
        </g>
    }
}

/// What a link is called to a screen reader: its ends by the names the ring shows, its state and its
/// own network, if any.
fn link_label(line: &LinkLine, name: &dyn Fn(NodeId) -> String) -> String {
    let own = line
        .tuned
        .map(|(settings, _)| format!(", its own network: {}", link_settings_text(&settings)))
        .unwrap_or_default();
    let (low, high) = (name(line.low), name(line.high));
    match line.state {
        LinkState::Up => format!("Link {low} to {high}: up{own}. Click for its menu"),
        LinkState::OneWay(from, to) => {
            format!("Link {} to {} is cut one way{own}", name(from), name(to))
        }
        LinkState::Both => format!("Link {low} to {high} is cut both ways{own}"),
    }
}

#[component]
fn LinkView(
    line: LinkLine,
    geometry: Memo<StageGeometry>,
    labels: Memo<Vec<String>>,
) -> impl IntoView {
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
    let class = match line.tuned {
        Some(_) => format!("{class} tuned"),
        None => class.to_string(),
    };
    let marker = matches!(line.state, LinkState::OneWay(..)).then_some("url(#arrow-cut)");
    let menu = expect_context::<LinkMenuTarget>().0;
    let toggle = move |_| menu.set(Some((line.low, line.high)));
    let label = {
        let line = line.clone();
        move || {
            labels.with(|labels| {
                link_label(&line, &|node| {
                    labels
                        .get(node.index())
                        .cloned()
                        .unwrap_or_else(|| node.to_string())
                })
            })
        }
    };
    let words = line
        .tuned
        .filter(|(_, labelled)| *labelled)
        .map(|(settings, _)| link_settings_text(&settings));
    let middle = move || {
        let (start, end) = ends();
        ((start.x + end.x) / 2.0, (start.y + end.y) / 2.0 - 8.0)
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
            {words.map(|words| view! {
                <text class="link-label" x=move || middle().0 y=move || middle().1>{words}</text>
            })}
        </g>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_link_is_named_by_the_names_on_the_ring() {
        let name = |node: NodeId| match node.0 {
            5 => "A".to_string(),
            _ => node.to_string(),
        };
        let lines = link_lines(7, &[(NodeId(5), NodeId(3))], &[]);
        let cut = lines
            .iter()
            .find(|line| (line.low, line.high) == (NodeId(3), NodeId(5)))
            .unwrap();
        assert_eq!(link_label(cut, &name), "Link A to n4 is cut one way");
        let up = lines
            .iter()
            .find(|line| (line.low, line.high) == (NodeId(0), NodeId(5)))
            .unwrap();
        assert_eq!(
            link_label(up, &name),
            "Link n1 to A: up. Click for its menu"
        );
    }

    #[test]
    fn small_clusters_list_every_pair_once() {
        let lines = link_lines(5, &[], &[]);
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
            &[],
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
        let lines = link_lines(51, &[(NodeId(3), NodeId(7))], &[]);
        assert_eq!(lines.len(), 1);
        assert_eq!(lines[0].state, LinkState::OneWay(NodeId(3), NodeId(7)));
    }

    #[test]
    fn links_with_their_own_settings_are_drawn_in_any_cluster_and_labelled_while_few() {
        let slow = LinkSettingView {
            between: (NodeId(2), NodeId(9)),
            settings: LinkSettings {
                delay_ms: Some((60, 90)),
                ..LinkSettings::default()
            },
        };
        let lines = link_lines(51, &[], &[slow]);
        assert_eq!(lines.len(), 1);
        assert_eq!(lines[0].tuned, Some((slow.settings, true)));
        let many: Vec<LinkSettingView> = (1..=13)
            .map(|other| LinkSettingView {
                between: (NodeId(0), NodeId(other)),
                ..slow
            })
            .collect();
        let lines = link_lines(51, &[], &many);
        assert_eq!(lines.len(), 13);
        assert!(lines
            .iter()
            .all(|line| line.tuned == Some((slow.settings, false))));
    }
}
