//! The card of a world that describes its own state in words (`WorldView::rows`): a title, a few words
//! on what it shows and one line per row. Any world can have one without app code of its own.
//!
//! The card is drawn again whenever its words change (a `Memo` of the rows), rather than row by row:
//! it is a handful of short lines, and one plain view keeps the app's code small.

use crate::context::use_run;
use leptos::prelude::*;

#[component]
pub fn WorldPanel() -> impl IntoView {
    let run = use_run();
    let card = Memo::new(move |_| {
        run.panel_view.with(|view| {
            let coordination = view.coordination.as_ref()?;
            coordination.world.as_ref()?.rows(&coordination.labels)
        })
    });
    move || {
        card.get().filter(|card| !card.rows.is_empty()).map(|card| {
            let rows = card
                .rows
                .into_iter()
                .map(|row| view! { <li><strong>{row.label}</strong>" "<span>{row.value}</span></li> })
                .collect_view();
            view! {
                <section
                    class=format!("card world-panel {}-panel", card.world)
                    aria-label=format!("{} state", card.title)
                    data-testid=format!("{}-panel", card.world)
                >
                    <h2>{card.title} " " <span class="muted">{card.subtitle}</span></h2>
                    <ul class="kv-list">{rows}</ul>
                </section>
            }
        })
    }
}
