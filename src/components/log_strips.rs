//! Each node's log as a strip of boxes coloured by term, with the commit index marked, so a follower
//! that is behind looks behind. Nodes go by the names the ring gives them (`A`, `store` in a
//! coordination world).

use crate::context::{use_run, use_selection};
use crate::format;
use crate::world_text::capabilities::runs_raft;
use crate::world_text::names::node_name;
use leptos::prelude::*;
use quorumlab_sim::ids::NodeId;
use quorumlab_sim::view::NodeView;

/// Newest entries drawn per strip.
const SHOWN_ENTRIES: usize = 12;
/// Above this many nodes only the leader's and the selected node's strips are shown.
const ALL_STRIPS_UP_TO_NODES: usize = 9;

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Strip {
    node: NodeId,
    name: String,
    /// (index, term) of the shown entries, oldest first.
    entries: Vec<(u64, u64)>,
    /// The configuration entry this node counts by, when it is older than the shown entries: drawn
    /// first, before a gap, so the quorum badge's "config at index N" always has its entry on screen.
    /// The term is `None` when the entry is older than the view carries.
    pinned_config: Option<(u64, Option<u64>)>,
    /// Indexes among them that hold a configuration entry.
    config_entries: Vec<u64>,
    /// Who this node counts as voters, and the entry that says so (0: the starting cluster).
    voters: Vec<NodeId>,
    config_index: u64,
    commit_index: u64,
    log_len: u64,
    is_leader: bool,
}

fn strip_for(node: &NodeView, name: String, is_leader: bool, newest_index_overall: u64) -> Strip {
    let first_shown = newest_index_overall
        .saturating_sub(SHOWN_ENTRIES as u64 - 1)
        .max(1);
    let entries = node
        .log_terms
        .iter()
        .enumerate()
        .map(|(offset, term)| (node.log_terms_from_index.0 + offset as u64, term.0))
        .filter(|(index, _)| *index >= first_shown)
        .collect();
    Strip {
        node: node.id,
        name,
        entries,
        pinned_config: pinned_config(node, first_shown),
        config_entries: node.config_entries.iter().map(|index| index.0).collect(),
        voters: node.voters.clone(),
        config_index: node.config_index.0,
        commit_index: node.commit_index.0,
        log_len: node.log_len,
        is_leader,
    }
}

fn pinned_config(node: &NodeView, first_shown: u64) -> Option<(u64, Option<u64>)> {
    let index = node.config_index.0;
    if index == 0 || index >= first_shown || index > node.log_len {
        return None;
    }
    let term = index
        .checked_sub(node.log_terms_from_index.0)
        .and_then(|offset| node.log_terms.get(offset as usize))
        .map(|term| term.0);
    Some((index, term))
}

impl Strip {
    /// A configuration entry's tooltip and accessible name; the one this node counts by names its voters.
    fn config_label(&self, index: u64, term: Option<u64>) -> String {
        let base = match term {
            Some(term) => {
                format!("index {index}, term {term}: configuration entry (changes who votes)")
            }
            None => format!("index {index}: configuration entry (changes who votes)"),
        };
        if index == self.config_index {
            format!(
                "{base}; {} counts {} by it",
                self.name,
                format::node_list(&self.voters)
            )
        } else {
            base
        }
    }
}

#[component]
pub fn LogStrips() -> impl IntoView {
    let selection = use_selection();
    let run = use_run();
    let strips = Memo::new(move |_| {
        let selected = selection.selected.get();
        run.panel_view.with(|view| {
            let newest = view
                .nodes
                .iter()
                .map(|node| node.log_len)
                .max()
                .unwrap_or(0);
            view.nodes
                .iter()
                .filter(|node| {
                    view.nodes.len() <= ALL_STRIPS_UP_TO_NODES
                        || Some(node.id) == view.leader
                        || Some(node.id) == selected
                })
                .map(|node| {
                    let name = node_name(view.coordination.as_ref(), node.id);
                    strip_for(node, name, Some(node.id) == view.leader, newest)
                })
                .collect::<Vec<_>>()
        })
    });
    // Worlds whose servers keep no Raft log (Redis-style, Paxos, PBFT) show their own cards instead.
    let keeps_logs = Memo::new(move |_| {
        run.panel_view.with(|view| {
            view.coordination
                .as_ref()
                .is_none_or(|coordination| runs_raft(coordination.kind))
        })
    });
    view! {
        <Show when=move || keeps_logs.get()>
        <section class="card log-strips" aria-label="Replicated logs" data-testid="log-strips">
            <h2>"Logs"<span class="muted">" — boxes coloured by term, ▌marks the commit index, ⚙ a configuration entry"</span></h2>
            <For each=move || strips.get() key=|strip| strip.clone() let:strip>
                <div class="strip" data-testid=format!("log-{}", strip.node)>
                    <span class="strip-node">{format!("{}{}", strip.name, if strip.is_leader { " ★" } else { "" })}</span>
                    <span class="strip-boxes">
                        {strip.pinned_config.map(|(index, term)| {
                            let label = strip.config_label(index, term);
                            let colour = term.map_or_else(|| "var(--border-strong)".to_string(), format::term_color);
                            let text = term.map_or_else(|| "⚙".to_string(), |term| format!("⚙{term}"));
                            view! {
                                <span class=if index <= strip.commit_index { "entry committed config pinned" } else { "entry config pinned" } style=format!("--term-color: {colour}") aria-label=label.clone() title=label>
                                    {text}
                                </span>
                                <span class="strip-gap" aria-label="newer entries follow">"…"</span>
                            }
                        })}
                        {strip.entries.iter().map(|(index, term)| {
                            let committed = *index <= strip.commit_index;
                            let config = strip.config_entries.contains(index);
                            let class = match (committed, config) {
                                (true, true) => "entry committed config",
                                (false, true) => "entry config",
                                (true, false) => "entry committed",
                                (false, false) => "entry",
                            };
                            let marker = *index == strip.commit_index;
                            // A configuration entry is marked by a gear and a dashed outline, not colour.
                            let (label, text) = if config {
                                (strip.config_label(*index, Some(*term)), format!("⚙{term}"))
                            } else {
                                (format!("index {index}, term {term}"), term.to_string())
                            };
                            let title = config.then(|| label.clone());
                            view! {
                                <span class=class style=format!("--term-color: {}", format::term_color(*term)) aria-label=label title=title>
                                    {text}
                                </span>
                                {marker.then(|| view! { <span class="commit-mark" aria-label="commit index">"▌"</span> })}
                            }
                        }).collect_view()}
                    </span>
                    <span class="strip-meta">{format!("commit {}/{}", strip.commit_index, strip.log_len)}</span>
                </div>
            </For>
        </section>
        </Show>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::Session;
    use quorumlab_sim::scenario::{parse_scenario, EXAMPLES};
    use quorumlab_sim::time::SimTime;
    use quorumlab_sim::units::LogIndex;

    fn joined_server_view() -> NodeView {
        let (file, text) = EXAMPLES
            .iter()
            .find(|(file, _)| file.contains("raft-add-server"))
            .expect("example exists");
        let mut session = Session::new(parse_scenario(text, file).expect("parses")).expect("world");
        session.advance_to(SimTime::from_ms(2_400));
        let view = session.view();
        let leader = view.leader.expect("a leader by 2.4 s");
        view.nodes
            .into_iter()
            .find(|node| node.id == leader)
            .expect("the leader's view")
    }

    #[test]
    fn the_counted_configuration_entry_stays_drawn_after_newer_entries_push_it_out() {
        let mut node = joined_server_view();
        assert!(
            node.config_index.0 > 0,
            "the leader counts by a logged configuration"
        );
        let config_term =
            node.log_terms[(node.config_index.0 - node.log_terms_from_index.0) as usize];
        let recent = strip_for(&node, "n1".into(), true, node.log_len);
        assert_eq!(
            recent.pinned_config, None,
            "inside the shown window it is drawn in place"
        );

        // Forty newer entries arrive: the entry falls out of the newest twelve.
        node.log_terms.extend(std::iter::repeat_n(config_term, 40));
        node.log_len += 40;
        let strip = strip_for(&node, "n1".into(), true, node.log_len);
        assert!(strip
            .entries
            .iter()
            .all(|(index, _)| *index > node.config_index.0));
        assert_eq!(
            strip.pinned_config,
            Some((node.config_index.0, Some(config_term.0)))
        );
        assert!(strip
            .config_label(node.config_index.0, Some(config_term.0))
            .contains("counts"));

        // Older than the view carries: still drawn, without a term.
        let dropped = node.config_index.0 + 1 - node.log_terms_from_index.0;
        node.log_terms.drain(..dropped as usize);
        node.log_terms_from_index = LogIndex(node.config_index.0 + 1);
        let far = strip_for(&node, "n1".into(), true, node.log_len);
        assert_eq!(far.pinned_config, Some((node.config_index.0, None)));
    }
}
