//! The invoice scheduler, minute by minute: one row per instance, one column per simulated minute, a
//! filled cell where that instance generated the minute's invoices. A minute invoiced twice is a
//! duplicate: its column is red and marked with the count (`2×`) (not by colour alone).

use crate::state::AppState;
use leptos::prelude::*;

/// Minutes drawn, newest at the right.
const MINUTES_SHOWN: usize = 30;

#[derive(Clone, Debug, PartialEq, Eq)]
struct Strip {
    /// Instance name, whether it believes it leads, runs so far.
    instances: Vec<(String, bool, u64)>,
    /// Per minute: the minute and, per instance (in `instances` order), whether it invoiced it.
    minutes: Vec<(u64, Vec<bool>)>,
    duplicates: usize,
}

fn strip(view: &quorumlab_sim::view::ClusterView) -> Option<Strip> {
    let coordination = view.coordination.as_ref()?;
    let scheduler = coordination.scheduler.as_ref()?;
    let name = |index: usize| coordination.labels.get(index).cloned().unwrap_or_default();
    let instances = scheduler
        .instances
        .iter()
        .map(|instance| {
            (
                name(instance.id.index()),
                instance.believes_it_leads,
                instance.runs,
            )
        })
        .collect();
    let skip = scheduler.minutes.len().saturating_sub(MINUTES_SHOWN);
    let minutes = scheduler
        .minutes
        .iter()
        .skip(skip)
        .map(|(minute, by)| {
            let cells = scheduler
                .instances
                .iter()
                .map(|instance| by.contains(&instance.id))
                .collect();
            (*minute, cells)
        })
        .collect();
    let duplicates = scheduler
        .minutes
        .iter()
        .filter(|(_, by)| by.len() > 1)
        .count();
    Some(Strip {
        instances,
        minutes,
        duplicates,
    })
}

#[component]
pub fn SchedulerStrip() -> impl IntoView {
    let state = expect_context::<AppState>();
    let data = Memo::new(move |_| state.panel_view.with(strip));
    view! {
        <Show when=move || data.with(Option::is_some)>
            <section class="card scheduler-strip" aria-label="Invoices per minute" data-testid="scheduler-strip">
                <h2>"Invoices per minute "
                    <span class="muted">{move || data.with(|data| data.as_ref().map(|data| match data.duplicates { 0 => "no minute invoiced twice".to_string(), 1 => "1 minute invoiced twice or more".to_string(), count => format!("{count} minutes invoiced twice or more") }).unwrap_or_default())}</span>
                </h2>
                {move || data.with(|data| data.as_ref().map(|data| {
                    let rows = data.instances.iter().enumerate().map(|(row, (name, leads, runs))| {
                        let cells = data.minutes.iter().map(|(minute, cells)| {
                            let count = cells.iter().filter(|cell| **cell).count();
                            let duplicate = count > 1;
                            let class = match (cells[row], duplicate) {
                                (true, true) => "minute ran duplicate",
                                (true, false) => "minute ran",
                                (false, true) => "minute duplicate",
                                (false, false) => "minute",
                            };
                            let title = format!("minute {minute}");
                            view! { <span class=class title=title>{if cells[row] && duplicate { format!("{count}×") } else { String::new() }}</span> }
                        }).collect::<Vec<_>>();
                        view! {
                            <div class="strip-row">
                                <span class="strip-name">{format!("▢ {name}{}", if *leads { " ★" } else { "" })}</span>
                                <span class="strip-cells">{cells}</span>
                                <span class="strip-runs muted">{format!("{runs} runs")}</span>
                            </div>
                        }
                    }).collect::<Vec<_>>();
                    view! { <div class="strip-grid">{rows}</div> }
                }))}
            </section>
        </Show>
    }
}
