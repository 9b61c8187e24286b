//! Lists whose rows come and go all the time (messages in flight, space-time arrows) are rebuilt from
//! scratch every so often, and their rows read list-owned copies of the app's signals, never the
//! long-lived signals themselves.
//!
//! Why: in the reactive graph Leptos 0.8 uses, a source keeps a weak entry for every effect that ever
//! read it until that effect runs again, and an effect dropped with its row never does; and `<For>`
//! keeps a weak entry for every row it ever made in its parent owner. Each entry pins the dropped
//! row's allocation, and a signal clones its whole subscriber list every time it changes. Measured in
//! the browser with a counting allocator (an hour of 5-node Raft at 20×): the wasm heap grew by about
//! 4 MB per simulated minute, almost all of it row owners and attribute effects of the message dots
//! and space-time arrows. A list built inside [`recycled`] lives until the next recycle epoch; then its
//! owner, its `<For>` and the copies its rows subscribed to are dropped together, and with them every
//! entry the rows left behind.

use crate::context::generation::Part;
use crate::context::use_run;
use leptos::prelude::*;

/// The view `build` makes, made again at every recycle epoch (`Part::Recycle` of `RunContext::generation`). Signals,
/// memos and `<For>`s created inside `build` belong to that one epoch.
pub fn recycled<V, F>(build: F) -> impl IntoView
where
    F: Fn() -> V + Send + Sync + 'static,
    V: IntoView + 'static,
{
    let run = use_run();
    move || {
        run.generation.of(Part::Recycle).track();
        build()
    }
}
