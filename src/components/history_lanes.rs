//! "What the clients saw": the Raft world's client operations on lanes along simulated time, under
//! the linearizability verdict on them, with the witness of a refusal marked. A click (or Enter) on an
//! operation seeks the run to the instant it was answered and selects the node that answered it: the
//! space-time diagram and the inspector then show that node at that moment.
//!
//! The panel starts folded and computes nothing while folded, so the first paint never pays for it.
//! Open, it asks the checker again only when the history could have changed: when the panel view
//! moves (which the app already throttles to every few frames while playing) and the client log
//! holds a different set of events than last time. While playing it asks at most every
//! [`LIVE_INTERVAL_MS`] of wall time, with a small budget ([`LIVE_BUDGET`]) so a hard history costs a
//! frame a few milliseconds at most and reads "undecided" until paused; paused, it asks at once with
//! the app's full budget (`Budget::APP`). A bound reached is said as such, never as a verdict.

use crate::components::history_jump::{Jump, JumpNote};
use crate::components::history_transfer::{HistoryTransfer, Imported};
use crate::context::{use_playback, use_run, use_selection};
use crate::history_view::{judge, lay_out, verdict_parts, Bar, Judged, Lanes};
use crate::state::controls::use_controls;
use leptos::prelude::*;
use quorumlab_sim::linearizable::Budget;

/// Wall time between two checks while the run plays.
const LIVE_INTERVAL_MS: f64 = 300.0;

/// The budget of a check made while playing: a tenth of the app's.
const LIVE_BUDGET: Budget = Budget {
    configurations: 20_000,
    cache_bytes: 2 * 1024 * 1024,
    ops_per_partition: 2_000,
};

fn wall_ms() -> f64 {
    web_sys::window()
        .and_then(|window| window.performance())
        .map_or(0.0, |clock| clock.now())
}

/// Unfolds the panel and brings it into view (for links elsewhere on the page, such as a badge).
pub fn reveal_history(open: RwSignal<bool>) {
    open.set(true);
    let panel = web_sys::window()
        .and_then(|window| window.document())
        .and_then(|document| {
            document
                .query_selector("[data-testid=history-view]")
                .ok()
                .flatten()
        });
    if let Some(panel) = panel {
        panel.scroll_into_view();
    }
}

#[component]
pub fn HistoryLanes() -> impl IntoView {
    let run = use_run();
    let has_history = Memo::new(move |_| {
        run.scenario
            .with(|scenario| crate::history_view::has_history_model(&scenario.protocol))
    });
    let open = use_selection().history_open;
    view! {
        <Show when=move || has_history.get()>
            <section class="card history-view" aria-label="What the clients saw" data-testid="history-view">
                <h2>
                    <button class="hv-toggle" data-testid="history-toggle" aria-expanded=move || open.get().to_string()
                        on:click=move |_| open.update(|open| *open = !*open)>
                        <span aria-hidden="true">{move || if open.get() { "▾ " } else { "▸ " }}</span>
                        "What the clients saw"
                    </button>
                </h2>
                <Show when=move || open.get()>
                    <HistoryBody />
                </Show>
            </section>
        </Show>
    }
}

/// The open panel: checks when due and draws the result.
#[component]
fn HistoryBody() -> impl IntoView {
    let run = use_run();
    let playback = use_playback();
    let judged: RwSignal<Option<Judged>> = RwSignal::new(None);
    let last = StoredValue::new((None::<(usize, u64, u64)>, f64::NEG_INFINITY, false));
    Effect::new(move |_| {
        run.panel_view.track();
        let playing = playback.playing.get();
        let now = wall_ms();
        let (key, checked_at, was_playing) = last.get_value();
        if playing && now - checked_at < LIVE_INTERVAL_MS {
            return;
        }
        let (fresh, result) = run.with_session(|session| {
            let world = session.world();
            let fresh =
                quorumlab_sim::client_log::ClientLog::content_key(&world.client_log().ops());
            // A check made while playing had the small budget: redo it once paused.
            if Some(fresh) == key && (playing || !was_playing) {
                return (fresh, None);
            }
            let budget = if playing { LIVE_BUDGET } else { Budget::APP };
            (fresh, Some(judge(world, budget)))
        });
        if let Some(result) = result {
            last.set_value((Some(fresh), now, playing));
            judged.set(Some(result));
        }
    });
    // A new refusal: bring the op that cannot be placed into the lanes' view, which scroll sideways on
    // narrow screens (a phone shows about a third of the time axis).
    Effect::new(move |_| {
        let refused = judged.with(|judged| {
            judged
                .as_ref()
                .and_then(|judged| judged.stuck.filter(|_| judged.ops.len() > 1))
        });
        if refused.is_some() {
            request_animation_frame(|| {
                centre_in_lanes("[data-testid=history-op][data-role=stuck]")
            });
        }
    });
    let imported: RwSignal<Option<Imported>> = RwSignal::new(None);
    let jump: RwSignal<Option<Jump>> = RwSignal::new(None);
    let showing_import = Memo::new(move |_| imported.with(Option::is_some));
    let lanes = Memo::new(move |_| {
        if let Some(lanes) = imported.with(|imported| {
            imported
                .as_ref()
                .map(|imported| lay_out(&imported.judged, 0))
        }) {
            return Some(lanes);
        }
        let now_us = run.panel_view.with(|view| view.now_us);
        judged.with(|judged| judged.as_ref().map(|judged| lay_out(judged, now_us)))
    });
    // A jump redraws the lanes up to the instant it went to, where the clicked op now ends, at the
    // right edge; the redrawn lanes start scrolled to the left. On a narrow screen that would leave the
    // op out of view, so every redraw after a click brings the clicked op back into view (when the
    // lanes show the run and the op is drawn).
    Effect::new(move |_| {
        lanes.track();
        let clicked = jump.with_untracked(|jump| jump.as_ref().map(|jump| jump.op));
        if let (Some(op), false) = (clicked, showing_import.get_untracked()) {
            let selector = format!("[data-testid=history-op][data-op=\"{op}\"]");
            // Two frames on: the redrawn lanes are in the page and laid out by then.
            request_animation_frame(move || {
                request_animation_frame(move || centre_in_lanes(&selector));
            });
        }
    });
    let verdict = move || {
        let words = |judged: &Judged| (judged.kind, verdict_parts(&judged.words));
        imported
            .with(|imported| imported.as_ref().map(|imported| words(&imported.judged)))
            .or_else(|| judged.with(|judged| judged.as_ref().map(words)))
    };
    view! {
        <div class="hv-body">
            <HistoryTransfer imported=imported />
            <Show when=move || showing_import.get()>
                <p class="hv-imported" data-testid="history-imported" role="status">
                    <strong>"Imported: "</strong>
                    {move || imported.with(|imported| imported.as_ref().map(|imported| imported.name.clone()))}
                    " — not the run. Its operations are drawn on their own time axis; clicking one goes nowhere. "
                    <span data-testid="history-import-time">{move || imported.with(|imported| imported.as_ref().and_then(|imported| imported.check_ms).map(|ms| format!("Read and checked in {ms:.1} ms.")))}</span>
                    <button data-testid="history-back-to-run" on:click=move |_| imported.set(None)>"Back to the run"</button>
                </p>
            </Show>
            {move || verdict().map(|(kind, (head, rest))| view! {
                <p class=kind.class() data-testid="history-verdict" role="status">
                    <span class="hv-mark" aria-hidden="true">{kind.mark()}</span>
                    <strong>{head}</strong>
                    {(!rest.is_empty()).then(|| format!(": {rest}"))}
                </p>
            })}
            <Show when=move || !showing_import.get()>
                <JumpNote jump=jump />
            </Show>
            <HistoryKey />
            {move || lanes.get().map(|lanes| view! { <LaneGrid lanes=lanes of_the_run=!showing_import.get_untracked() jump=jump /> })}
        </div>
    }
}

/// Scrolls the lanes sideways so the op `selector` finds is in the middle, when it is out of view
/// (its start, or its end up to 120 px in).
fn centre_in_lanes(selector: &str) {
    let Some(document) = web_sys::window().and_then(|window| window.document()) else {
        return;
    };
    let find = |selector: &str| document.query_selector(selector).ok().flatten();
    let (Some(scroll), Some(op)) = (find(".hv-scroll"), find(selector)) else {
        return;
    };
    // Measured on screen, not by offsets: the bar's offset parent is not the scrolling box.
    let visible = f64::from(scroll.client_width());
    let shown = f64::from(scroll.scroll_left());
    let (bar, frame) = (
        op.get_bounding_client_rect(),
        scroll.get_bounding_client_rect(),
    );
    let left = bar.left() - frame.left() + shown;
    let width = bar.width();
    if left < shown || left + width.min(120.0) > shown + visible {
        let middle = left + width.min(visible) / 2.0;
        scroll.set_scroll_left((middle - visible / 2.0).max(0.0) as i32);
    }
}

/// Takes the run to the instant `op` was answered and selects the node that answered it, so the
/// space-time diagram gives that node a lane ending at that moment and the inspector shows its term,
/// its lease and its clock against true time.
fn jump_to_server(
    controls: crate::state::controls::Controls,
    selection: crate::context::selection::SelectionContext,
    jump_us: u64,
    served_by: Option<quorumlab_sim::ids::NodeId>,
) {
    controls.seek_us(jump_us);
    if let Some(node) = served_by {
        selection.selected.set(Some(node));
    }
}

/// What the bar styles mean, in words as well as looks.
#[component]
fn HistoryKey() -> impl IntoView {
    view! {
        <p class="hv-key">
            <span class="hv-op ok hv-sample">"ok"</span>
            <span class="hv-op failed hv-sample">"failed ⊘"</span>
            <span class="hv-op unknown open hv-sample">"unknown ?"</span>
            <span class="hv-op ok witness hv-sample">"witness"</span>
            <span class="hv-op ok witness stuck hv-sample">"cannot be placed"</span>
            <span class="hv-hint">"Click an operation to go to the moment it was answered, with the node that answered it selected."</span>
        </p>
    }
}

/// `of_the_run`: the lanes show the run's history, which has a "now" and a run to jump into; an
/// imported one has neither.
#[component]
fn LaneGrid(lanes: Lanes, of_the_run: bool, jump: RwSignal<Option<Jump>>) -> impl IntoView {
    let height_rem = lanes.lanes.max(1) as f64 * 1.75;
    let now_style = format!("left: {:.3}%", lanes.now_percent);
    let ticks = lanes
        .ticks
        .iter()
        .map(|(percent, text)| {
            view! { <span class="hv-tick" style=format!("left: {percent:.3}%")>{text.clone()}</span> }
        })
        .collect_view();
    let bars = lanes
        .bars
        .into_iter()
        .map(|bar| view! { <OpBar bar=bar jumps=of_the_run jump=jump /> })
        .collect_view();
    view! {
        <div class="hv-scroll">
            <div class="hv-axis" aria-hidden="true">{ticks}</div>
            <div class="hv-grid" data-testid="history-lanes" style=format!("height: {height_rem:.2}rem")>
                {of_the_run.then(|| view! { <span class="hv-now" style=now_style aria-hidden="true"></span> })}
                {bars}
            </div>
        </div>
    }
}

#[component]
fn OpBar(bar: Bar, jumps: bool, jump: RwSignal<Option<Jump>>) -> impl IntoView {
    let controls = use_controls();
    let selection = use_selection();
    let style = format!(
        "left: {:.3}%; width: {:.3}%; top: {:.2}rem",
        bar.left_percent,
        bar.width_percent,
        bar.lane as f64 * 1.75
    );
    let at_us = bar.invoked_us;
    let (jump_us, served_by) = (bar.jump_us, bar.served_by);
    let clicked = Jump {
        op: bar.index,
        op_words: bar.label.clone(),
        at_us: jump_us,
        served_by,
    };
    let class = bar.class();
    let role = match bar.role {
        crate::history_view::Role::Plain => "plain",
        crate::history_view::Role::Witness => "witness",
        crate::history_view::Role::Stuck => "stuck",
    };
    view! {
        <button class=class style=style title=bar.description.clone() aria-label=bar.description
            data-testid="history-op" data-op=bar.index data-role=role data-invoked-us=at_us
            data-jump-us=jump_us data-served-by=served_by.map(|node| node.to_string())
            on:click=move |_| if jumps {
                jump_to_server(controls, selection, jump_us, served_by);
                jump.set(Some(clicked.clone()));
            }>
            <span class="hv-label">{bar.label}</span>
        </button>
    }
}
