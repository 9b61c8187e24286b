//! The ZooKeeper election recipe as the service's leader sees it: the `/election` znodes (each owned by a
//! session, gone when the session goes), who watches which znode, each candidate's phase, and how many
//! watch notifications fired. The herd recipe wakes every candidate on each change; the
//! ephemeral-sequential recipe wakes one.

use crate::context::use_run;
use leptos::prelude::*;
use quorumlab_sim::lockservice::ZPath;
use quorumlab_sim::view_coordination::CoordinationView;
use quorumlab_sim::world::NodeStatus;
use quorumlab_sim::zookeeper::CandidatePhase;

fn path_text(path: ZPath) -> String {
    match path {
        ZPath::Leader => "/election/leader".to_string(),
        ZPath::Candidate(sequence) => format!("/election/n_{sequence:010}"),
    }
}

fn phase_text(phase: CandidatePhase) -> &'static str {
    match phase {
        CandidatePhase::OpeningSession => "opening a session",
        CandidatePhase::Creating => "creating its znode",
        CandidatePhase::Listing => "listing candidates",
        CandidatePhase::Watching => "setting a watch",
        CandidatePhase::Waiting => "waiting for its watch",
        CandidatePhase::Leading => "leading",
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct Tree {
    /// Path, owner name, session, watchers.
    znodes: Vec<(String, String, u64, String)>,
    /// Name and what it is doing.
    candidates: Vec<(String, String)>,
    notifications: u64,
}

fn tree(coordination: &CoordinationView, crashed: impl Fn(usize) -> bool) -> Option<Tree> {
    if coordination.candidates().is_empty() {
        return None;
    }
    let name = |index: usize| coordination.labels.get(index).cloned().unwrap_or_default();
    let names = |nodes: &[quorumlab_sim::ids::NodeId]| {
        nodes
            .iter()
            .map(|node| name(node.index()))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let znodes = coordination
        .service
        .as_ref()
        .map_or_else(Vec::new, |service| {
            service
                .znodes
                .iter()
                .map(|znode| {
                    let watchers = service
                        .watches
                        .iter()
                        .find(|(path, _)| *path == znode.path)
                        .map(|(_, watchers)| names(watchers))
                        .unwrap_or_default();
                    (
                        path_text(znode.path),
                        name(znode.owner.index()),
                        znode.session,
                        watchers,
                    )
                })
                .collect()
        });
    let candidates = coordination
        .candidates()
        .iter()
        .map(|candidate| {
            let watching = candidate
                .watching
                .map(|path| format!(" on {}", path_text(path)))
                .unwrap_or_default();
            let doing = if crashed(candidate.id.index()) {
                "crashed (its session expires, its znodes go)".to_string()
            } else {
                format!("{}{watching}", phase_text(candidate.phase))
            };
            (name(candidate.id.index()), doing)
        })
        .collect();
    Some(Tree {
        znodes,
        candidates,
        notifications: coordination
            .candidates()
            .iter()
            .map(|candidate| candidate.notifications)
            .sum(),
    })
}

#[component]
pub fn ZnodeTree() -> impl IntoView {
    let run = use_run();
    let data = Memo::new(move |_| {
        run.panel_view.with(|view| {
            let crashed = |index: usize| {
                view.nodes
                    .get(index)
                    .is_some_and(|node| node.status == NodeStatus::Crashed)
            };
            view.coordination
                .as_ref()
                .and_then(|coordination| tree(coordination, crashed))
        })
    });
    view! {
        <Show when=move || data.with(Option::is_some)>
            <section class="card znode-tree" aria-label="ZooKeeper election" data-testid="znode-tree">
                <h2>"Election znodes "
                    <span class="muted" data-testid="notification-count">{move || data.with(|data| data.as_ref().map(|data| format!("{} watch notifications so far", data.notifications)).unwrap_or_default())}</span>
                </h2>
                {move || data.with(|data| data.as_ref().map(|data| view! {
                    <ul class="znodes">
                        {data.znodes.iter().map(|(path, owner, session, watchers)| view! {
                            <li>
                                <code>{path.clone()}</code>
                                <span>{format!(" · {owner} (session {session})")}</span>
                                {(!watchers.is_empty()).then(|| view! { <span class="muted">{format!(" · watched by {watchers}")}</span> })}
                            </li>
                        }).collect::<Vec<_>>()}
                    </ul>
                    <ul class="candidates">
                        {data.candidates.iter().map(|(name, doing)| view! {
                            <li><strong>{format!("▢ {name}")}</strong>{format!(" {doing}")}</li>
                        }).collect::<Vec<_>>()}
                    </ul>
                }))}
            </section>
        </Show>
    }
}
