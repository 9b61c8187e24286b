//! Parts of the app that arrive when first used, and what the page shows while they arrive.
//!
//! The first module holds what the default playground needs. A sheet or a mode the learner may never
//! open (the experiment sheet, the gallery, compare mode, …) is reached through a Leptos `#[lazy]`
//! function: the build (`scripts/build/split-app.mjs`) moves that function, and all the code only it
//! reaches, into a wasm part of its own, which the page fetches the first time the function is called.
//! Only the app's own build splits: Trunk builds it with the cargo feature `split` (index.html), under
//! which `#[cfg_attr(feature = "split", lazy)]` makes such a function lazy. Every other build (native
//! and wasm tests, the experiments' worker, clippy) keeps it an ordinary function, since no split step
//! follows to resolve its import. `arrival!(call)` is the one way to call it in both: a future of the
//! call's result.
//!
//! A part's view is built inside a `Suspend`, so it is owned by the place it is shown, reads that
//! place's context as if it were built there, and shows a loading state until the part is in. The
//! body is built untracked: a signal its setup happens to read must not rebuild the whole part.

use leptos::prelude::*;
use std::future::Future;

/// A future of a lazy function's result: awaited where the build splits, called directly elsewhere.
#[cfg(feature = "split")]
#[macro_export]
macro_rules! arrival {
    ($call:expr) => {
        async move { $call.await }
    };
}

/// A future of a lazy function's result: awaited where the build splits, called directly elsewhere.
#[cfg(not(feature = "split"))]
#[macro_export]
macro_rules! arrival {
    ($call:expr) => {
        async move { $call }
    };
}

/// The part `load` returns, in place, once its code has arrived; `what` names it while it loads.
pub fn lazy_part<Load, Arrival>(what: &'static str, load: Load) -> impl IntoView
where
    Load: FnOnce() -> Arrival + Send + 'static,
    Arrival: Future<Output = AnyView> + Send + 'static,
{
    view! {
        <Suspense fallback=move || view! { <LoadingPart what=what /> }>
            {Suspend::new(load())}
        </Suspense>
    }
}

/// A lazily loaded sheet: while it arrives, an empty sheet over the page says what is coming, so a
/// link that opens straight into it shows where the learner is going.
pub fn lazy_sheet<Load, Arrival>(what: &'static str, load: Load) -> impl IntoView
where
    Load: FnOnce() -> Arrival + Send + 'static,
    Arrival: Future<Output = AnyView> + Send + 'static,
{
    let fallback = move || {
        view! {
            <div class="sheet-backdrop">
                <div class="sheet lazy-sheet" role="dialog" aria-modal="true" aria-busy="true" aria-label=what>
                    <LoadingPart what=what />
                </div>
            </div>
        }
    };
    view! { <Suspense fallback=fallback>{Suspend::new(load())}</Suspense> }
}

/// The words while a part loads.
#[component]
fn LoadingPart(what: &'static str) -> impl IntoView {
    view! { <p class="lazy-loading" role="status" data-testid="lazy-loading">{format!("Loading {what}…")}</p> }
}
