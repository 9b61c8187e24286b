//! The schedule lane's form for placing a new fault: what, on which node (and, for a partition,
//! which others go with it), when, and how much.

use super::Editor;
use crate::context::notice::NoticeContext;
use crate::context::use_notices;
use crate::context::use_run;
use crate::schedule::{partition_steps, Edit, FaultKind};
use leptos::prelude::*;
use quorumlab_sim::ids::NodeId;

/// The form that places a new fault: what, on which node, when, and how much.
#[component]
pub(super) fn AddFault(place_at_ms: RwSignal<Option<u64>>, run_edit: Editor) -> impl IntoView {
    let run = use_run();
    let notices = use_notices();
    let kind = RwSignal::new(FaultKind::Crash);
    let node = RwSignal::new(0u16);
    let amount = RwSignal::new(String::new());
    // A partition's side beyond the chosen node: the nodes ticked to be cut off with it.
    let companions = RwSignal::new(Vec::<u16>::new());
    let nodes = Memo::new(move |_| {
        let count = run.panel_view.with(|view| view.nodes.len());
        run.with_session(|session| {
            (0..count)
                .map(|node| (node as u16, session.node_label(NodeId(node as u16))))
                .collect::<Vec<_>>()
        })
    });
    let default_at_ms = move || run.panel_view.with(|view| view.now_us / 1_000) / 100 * 100 + 1_000;
    let add = move |_| {
        let fault = kind.get_untracked();
        let at_ms = place_at_ms.get_untracked().unwrap_or_else(default_at_ms);
        let value = amount.get_untracked();
        let amount = match (fault.amount(), value.trim()) {
            (None, _) => Ok(0),
            (Some((_, default)), "") => Ok(default),
            (Some((what, _)), text) => text.parse::<i64>().map_err(|_| {
                format!(
                    "`{}` is not a whole number for {what}",
                    quorumlab_sim::scenario::shown(text)
                )
            }),
        };
        let chosen = node.get_untracked();
        let placed = amount.and_then(|amount| match fault {
            FaultKind::Partition => {
                let mut side = companions.get_untracked();
                side.push(chosen);
                let node_count = nodes.with_untracked(Vec::len);
                partition_steps(&side, Some(node_count), at_ms, amount)
            }
            _ => fault.steps(chosen, at_ms, amount),
        });
        match placed {
            Ok(steps) => run_edit.run(Edit::Add { steps }),
            Err(reason) => run_edit_error(notices, reason),
        }
    };
    let at_text = move || place_at_ms.get().unwrap_or_else(default_at_ms).to_string();
    view! {
        <div class="schedule-add row" data-testid="schedule-add-form">
            <label class="field"><span>"Fault"</span>
                <select data-testid="schedule-kind" on:change=move |event| {
                    if let Some(chosen) = FaultKind::from_name(&event_target_value(&event)) { kind.set(chosen); amount.set(String::new()); }
                }>
                    {FaultKind::ALL.into_iter().map(|fault| view! { <option value=fault.name()>{fault.name()}</option> }).collect_view()}
                </select>
            </label>
            <label class="field"><span>"Node"</span>
                <select data-testid="schedule-node" on:change=move |event| node.set(event_target_value(&event).parse().unwrap_or(0))>
                    {move || nodes.get().into_iter().map(|(id, label)| view! { <option value=id.to_string()>{label}</option> }).collect_view()}
                </select>
            </label>
            <label class="field"><span>"At (ms)"</span>
                <input type="number" min="0" step="100" data-testid="schedule-at" prop:value=at_text
                    on:input=move |event| place_at_ms.set(event_target_value(&event).parse().ok()) />
            </label>
            {move || kind.get().amount().map(|(what, default)| view! {
                <label class="field"><span>{what}</span>
                    <input type="number" data-testid="schedule-amount" placeholder=default.to_string()
                        prop:value=move || amount.get() on:input=move |event| amount.set(event_target_value(&event)) />
                </label>
            })}
            <Show when=move || kind.get() == FaultKind::Partition>
                <PartitionSide node=node companions=companions nodes=nodes />
            </Show>
            <button class="primary" data-testid="schedule-add" on:click=add>"Add to the schedule"</button>
        </div>
    }
}

/// The nodes a partition cuts off together with the chosen one; every node left unticked stays on
/// the other side.
#[component]
fn PartitionSide(
    node: RwSignal<u16>,
    companions: RwSignal<Vec<u16>>,
    nodes: Memo<Vec<(u16, String)>>,
) -> impl IntoView {
    let toggle = move |id: u16, on: bool| {
        companions.update(|side| {
            side.retain(|other| *other != id);
            if on {
                side.push(id);
            }
        })
    };
    view! {
        <fieldset class="schedule-side" data-testid="schedule-partition-side">
            <legend>"Cut off with it"</legend>
            {move || nodes.get().into_iter().filter(|(id, _)| *id != node.get()).map(|(id, label)| view! {
                <label class="check">
                    <input type="checkbox" data-testid=format!("schedule-side-{label}")
                        prop:checked=move || companions.with(|side| side.contains(&id))
                        on:change=move |event| toggle(id, event_target_checked(&event)) />
                    <span>{label}</span>
                </label>
            }).collect_view()}
        </fieldset>
    }
}

fn run_edit_error(notices: NoticeContext, reason: String) {
    notices.notice.set(Some(crate::context::notice::Notice {
        text: format!("Not added: {reason}"),
        is_error: true,
    }));
}
