//! Reading share and compare links, as a part that arrives when a link is opened.
//!
//! Most visits start from the bare address, so the code that reads a link (the current format, every
//! earlier version's reader, the checks on what a link claims) is not in the first module: the page
//! asks for it only when the address holds a link (`crate::lazy_part` explains parts). While it
//! arrives, a line under the header says a link is being opened; if it cannot arrive (offline before
//! the service worker kept it), the notice bar says so and nothing else changes.
//!
//! This module sits above `share` and `compare` (it hands out functions of both), so neither has to
//! name the other's reader.

use crate::compare::link::open_pair_link;
use crate::lazy_part::PartMissing;
use crate::session::Session;
use crate::share::{decode_fragment, ShareError, SharedRun};
use leptos::prelude::*;
use std::cell::Cell;

/// The link part's functions.
#[derive(Clone, Copy)]
pub struct LinkReaders {
    /// A share link's run (`share::decode_fragment`).
    pub decode_fragment: fn(&str) -> Result<SharedRun, ShareError>,
    /// Both sides of a compare link, replayed (`compare::link::open_pair_link`).
    pub open_pair_link: fn(&str) -> Result<(Session, Session), String>,
}

thread_local! {
    static ARRIVED: Cell<Option<LinkReaders>> = const { Cell::new(None) };
    /// How many links wait for the readers; the header's line shows while any does.
    static WAITING: ArcRwSignal<usize> = ArcRwSignal::new(0);
}

/// Runs `then` with the readers: at once when they are here (always, natively), else once their part
/// has arrived or failed to.
pub fn with_readers(then: impl FnOnce(Result<LinkReaders, PartMissing>) + 'static) {
    if let Some(readers) = here() {
        then(Ok(readers));
        return;
    }
    let shown = OpeningShown::start();
    leptos::task::spawn_local(async move {
        let fetched = crate::arrival!(link_readers()).await;
        if let Ok(readers) = fetched {
            ARRIVED.with(|arrived| arrived.set(Some(readers)));
        }
        drop(shown);
        then(fetched);
    });
}

/// While one is held, the header's "Opening the link…" line shows: a link is waiting for a part
/// (these readers, or another part the address needs, such as the gallery's cards).
pub struct OpeningShown(ArcRwSignal<usize>);

impl OpeningShown {
    pub fn start() -> OpeningShown {
        let waiting = WAITING.with(ArcRwSignal::clone);
        waiting.update(|count| *count += 1);
        OpeningShown(waiting)
    }
}

impl Drop for OpeningShown {
    fn drop(&mut self) {
        self.0.update(|count| *count = count.saturating_sub(1));
    }
}

fn here() -> Option<LinkReaders> {
    #[cfg(not(feature = "split"))]
    let here = Some(the_readers());
    #[cfg(feature = "split")]
    let here = ARRIVED.with(Cell::get);
    here
}

/// The sentence for a link whose readers could not arrive.
pub const READERS_MISSING: &str =
    "the code that reads links could not be loaded (check the connection and reload)";

#[cfg_attr(feature = "split", leptos::wasm_split::wasm_split(link_readers, wasm_split_path = ::leptos::wasm_split, fallible))]
fn link_readers() -> Result<LinkReaders, PartMissing> {
    Ok(the_readers())
}

fn the_readers() -> LinkReaders {
    LinkReaders {
        decode_fragment,
        open_pair_link,
    }
}

/// "Opening the link…" while a link waits for its readers.
#[component]
pub fn OpeningLink() -> impl IntoView {
    let waiting = WAITING.with(ArcRwSignal::clone);
    move || {
        (waiting.get() > 0).then(|| {
            view! {
                <div class="notice" role="status" aria-busy="true">
                    <span data-testid="lazy-loading">"Opening the link…"</span>
                </div>
            }
        })
    }
}
