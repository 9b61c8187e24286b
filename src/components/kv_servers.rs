//! Redis-style lock servers (one for a single Redis lock, five for Redlock), each on its own clock: the
//! key it holds, for whom, and until when on that clock. A clock that jumps expires a key early on one
//! server only, which is how two Redlock clients can each count a majority.

use crate::context::use_run;
use crate::format;
use leptos::prelude::*;

#[component]
pub fn KvServers() -> impl IntoView {
    let run = use_run();
    // Per server: name, its clock, and what it holds.
    let rows = Memo::new(move |_| {
        run.panel_view.with(|view| {
            let Some(coordination) = view.coordination.as_ref() else {
                return Vec::new();
            };
            let name = |index: usize| coordination.labels.get(index).cloned().unwrap_or_default();
            coordination
                .kv_servers()
                .iter()
                .map(|server| {
                    let clock = format::sim_time(server.local_clock_us.max(0) as u64);
                    let live: Vec<String> = server
                        .keys
                        .iter()
                        .filter(|(_, entry)| {
                            entry.expires_at_local_us as i64 > server.local_clock_us
                        })
                        .map(|(_, entry)| {
                            format!(
                                "key held by {} until {}",
                                name(entry.owner.index()),
                                format::sim_time(entry.expires_at_local_us)
                            )
                        })
                        .collect();
                    let holds = if live.is_empty() {
                        "no key".to_string()
                    } else {
                        live.join("; ")
                    };
                    (name(server.id.index()), clock, holds)
                })
                .collect::<Vec<_>>()
        })
    });
    let count = Memo::new(move |_| rows.with(Vec::len));
    view! {
        <Show when=move || { count.get() > 0 }>
            <section class="card kv-servers" aria-label="Lock servers" data-testid="kv-servers">
                <h2>"Lock servers " <span class="muted">"each on its own clock"</span></h2>
                <ul class="kv-list">
                    <For each=move || 0..count.get() key=|index| *index let:index>
                        <li>
                            <strong>{move || rows.with(|rows| rows.get(index).map(|row| format!("◯ {}", row.0)).unwrap_or_default())}</strong>
                            <span class="muted">{move || rows.with(|rows| rows.get(index).map(|row| format!(" clock {} · ", row.1)).unwrap_or_default())}</span>
                            <span>{move || rows.with(|rows| rows.get(index).map(|row| row.2.clone()).unwrap_or_default())}</span>
                        </li>
                    </For>
                </ul>
            </section>
        </Show>
    }
}
