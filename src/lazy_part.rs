//! Parts of the app that arrive when first used, and what the page shows while they arrive — or if
//! they cannot.
//!
//! The first module holds what the default playground needs to draw its cluster and run. A sheet or a
//! mode the learner may never open (the experiment sheet, the gallery, compare mode, …) and the panels
//! below and beside the cluster are reached through a split function: the build
//! (`scripts/build/split-app.mjs`) moves that function, and all the code only it reaches, into a wasm
//! part of its own, which the page fetches the first time the function is called. Functions that name
//! the same part in their attribute share one file.
//!
//! Only the app's own build splits: Trunk builds it with the cargo feature `split` (index.html), under
//! which the attribute
//! `#[cfg_attr(feature = "split", leptos::wasm_split::wasm_split(PART, wasm_split_path = ::leptos::wasm_split, fallible))]`
//! makes such a function load its part before it runs. Every other build (native and wasm tests, the
//! workers, clippy) keeps it an ordinary function, since no split step follows to resolve its import.
//! `arrival!(call)` is the one way to call it in both: a future of the call's result.
//!
//! A part can fail to arrive (the learner went offline before the service worker had it, a server
//! error). `fallible` turns that into [`PartMissing`] instead of a panic, which would stop the whole
//! app; the page then says which part is missing and offers to try again, and the loader forgets the
//! failure, so the next attempt fetches afresh. One Try again retries every place still missing a
//! part, since several places often wait for the same one. Leptos' own `#[lazy]` has no such option,
//! which is why the attribute above is spelled out.
//!
//! A split function returns the part's *code* — a plain function that draws it — not a view. The
//! place that shows the part calls that function itself, synchronously, inside its own reactive
//! closure, exactly as it drew the part before it was split: the part's signals, effects and DOM share
//! one owner and go together. (Building the view inside a `Suspend` instead made the part's setup and
//! its mounted effects belong to different owners; when a lesson's panel was rebuilt, old effects
//! outlived the signals they read and panicked.) The code, once here, is remembered by the part's
//! name, so a place drawn again later draws at once, with no loading state in between.

use leptos::prelude::*;
use std::any::Any;
use std::cell::RefCell;
use std::collections::HashMap;
use std::future::Future;

/// A part's code could not be fetched; nothing of it ran.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PartMissing;

#[cfg(feature = "split")]
impl From<leptos::wasm_split::SplitLoaderError> for PartMissing {
    fn from(_: leptos::wasm_split::SplitLoaderError) -> Self {
        PartMissing
    }
}

/// A future of a split function's result: awaited where the build splits, called directly elsewhere.
#[cfg(feature = "split")]
#[macro_export]
macro_rules! arrival {
    ($call:expr) => {
        async move { $call.await }
    };
}

/// A future of a split function's result: awaited where the build splits, called directly elsewhere.
#[cfg(not(feature = "split"))]
#[macro_export]
macro_rules! arrival {
    ($call:expr) => {
        async move { $call }
    };
}

thread_local! {
    /// Each part's code that has arrived, by the part's name.
    static ARRIVED: RefCell<HashMap<&'static str, Box<dyn Any>>> = RefCell::new(HashMap::new());
    /// Bumped by any Try again: every place still missing a part tries again, so one press fills in
    /// all the places that wait for the same part. Reference-counted rather than owned by whichever
    /// view first asked, so it outlives that view.
    static TRY_AGAIN: ArcRwSignal<u32> = ArcRwSignal::new(0);
}

/// Where a place's part stands.
#[derive(Clone, Copy)]
enum Arrival<Code> {
    Loading,
    Here(Code),
    Missing,
}

/// The code of part `what` if it has already arrived.
fn arrived<Code: Copy + 'static>(what: &'static str) -> Option<Code> {
    ARRIVED.with(|arrived| arrived.borrow().get(what)?.downcast_ref::<Code>().copied())
}

/// Where the part stands for a new place: here at once if it already arrived, else fetched now (and
/// again on every Try again while it is missing).
fn arrival_of<Code, Load, Fetched>(what: &'static str, load: Load) -> RwSignal<Arrival<Code>>
where
    Code: Copy + Send + Sync + 'static,
    Load: Fn() -> Fetched + 'static,
    Fetched: Future<Output = Result<Code, PartMissing>> + 'static,
{
    if let Some(code) = arrived::<Code>(what) {
        return RwSignal::new(Arrival::Here(code));
    }
    let state = RwSignal::new(Arrival::Loading);
    let fetch = move || {
        let fetched = load();
        leptos::task::spawn_local(async move {
            let arrival = match fetched.await {
                Ok(code) => {
                    ARRIVED.with(|arrived| arrived.borrow_mut().insert(what, Box::new(code)));
                    Arrival::Here(code)
                }
                Err(PartMissing) => Arrival::Missing,
            };
            // The place may be gone by now (a sheet closed while its part was on the way).
            _ = state.try_set(arrival);
        });
    };
    fetch();
    let try_again = TRY_AGAIN.with(ArcRwSignal::clone);
    let pressed_before = try_again.get_untracked();
    Effect::new(move |_| {
        if try_again.get() != pressed_before && matches!(state.get_untracked(), Arrival::Missing) {
            state.set(Arrival::Loading);
            fetch();
        }
    });
    state
}

/// Part `what` in place: `load` fetches its code (a split function), `draw` draws it with that code
/// once it is here. Until then a line says it is loading, or that it could not be fetched.
pub fn lazy_part<Code, Load, Fetched, Draw>(
    what: &'static str,
    load: Load,
    draw: Draw,
) -> impl IntoView
where
    Code: Copy + Send + Sync + 'static,
    Load: Fn() -> Fetched + 'static,
    Fetched: Future<Output = Result<Code, PartMissing>> + 'static,
    Draw: Fn(Code) -> AnyView + Send + Sync + 'static,
{
    lazy_place(what, load, draw, |waiting, _| waiting)
}

/// A lazily loaded sheet: while it arrives, an empty sheet over the page says what is coming, so a
/// link that opens straight into it shows where the learner is going. `close` is how the sheet's own
/// Close would leave it, offered beside Try again when the part cannot arrive.
pub fn lazy_sheet<Code, Load, Fetched, Draw, Close>(
    what: &'static str,
    load: Load,
    draw: Draw,
    close: Close,
) -> impl IntoView
where
    Code: Copy + Send + Sync + 'static,
    Load: Fn() -> Fetched + 'static,
    Fetched: Future<Output = Result<Code, PartMissing>> + 'static,
    Draw: Fn(Code) -> AnyView + Send + Sync + 'static,
    Close: Fn() + Copy + Send + Sync + 'static,
{
    lazy_place(what, load, draw, move |waiting, missing| {
        let close_button = missing.then(|| {
            view! { <button data-testid="lazy-close" on:click=move |_| close()>"Close"</button> }
        });
        view! { <EmptySheet what=what>{waiting}{close_button}</EmptySheet> }.into_any()
    })
}

/// The place of part `what`: its drawing once the code is here; until then the loading line or the
/// missing-part card, inside `frame` (which is told whether the part is missing).
fn lazy_place<Code, Load, Fetched, Draw, Frame>(
    what: &'static str,
    load: Load,
    draw: Draw,
    frame: Frame,
) -> impl IntoView
where
    Code: Copy + Send + Sync + 'static,
    Load: Fn() -> Fetched + 'static,
    Fetched: Future<Output = Result<Code, PartMissing>> + 'static,
    Draw: Fn(Code) -> AnyView + Send + Sync + 'static,
    Frame: Fn(AnyView, bool) -> AnyView + Send + Sync + 'static,
{
    let state = arrival_of(what, load);
    move || match state.get() {
        Arrival::Here(code) => untrack(|| draw(code)),
        Arrival::Loading => frame(view! { <LoadingPart what=what /> }.into_any(), false),
        Arrival::Missing => frame(view! { <MissingPart what=what /> }.into_any(), true),
    }
}

/// A sheet over the page with nothing of its own yet.
#[component]
fn EmptySheet(what: &'static str, children: Children) -> impl IntoView {
    view! {
        <div class="sheet-backdrop">
            <div class="sheet lazy-sheet" role="dialog" aria-modal="true" aria-label=what>{children()}</div>
        </div>
    }
}

/// The words while a part loads.
#[component]
fn LoadingPart(what: &'static str) -> impl IntoView {
    view! { <p class="lazy-loading" role="status" aria-busy="true" data-testid="lazy-loading">{format!("Loading {what}…")}</p> }
}

/// A part that did not arrive: which one, the likely reason, and a way to fetch it again.
#[component]
fn MissingPart(what: &'static str) -> impl IntoView {
    let try_again = TRY_AGAIN.with(ArcRwSignal::clone);
    view! {
        <div class="lazy-missing" role="alert" data-testid="lazy-missing">
            <p>{format!(
                "Could not load {what}: the page could not fetch its code. If you are offline, reconnect; \
                 the rest of the page still works."
            )}</p>
            <button data-testid="lazy-retry" on:click=move |_| try_again.update(|count| *count += 1)>"Try again"</button>
        </div>
    }
}
