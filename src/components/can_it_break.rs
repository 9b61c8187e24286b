//! "Can it break?" beside the invariant badges: a button that opens a small form (where the search
//! starts, what it looks for, its budget), Go and Cancel, the progress while it runs, and the result
//! (`can_it_break_result`). The search itself runs in the search worker (`crate::explore`), so the
//! cluster keeps drawing. Every control is a native button, select or number field: keyboard and
//! touch work as for any form, and the fields are sized for a finger and a projector alike.

use crate::components::can_it_break_budget::{
    BudgetField, BudgetForm, FaultKindsField, LookAheadField,
};
use crate::components::can_it_break_result::SearchResult;
use crate::context::use_run;
use crate::explore::question::{Budget, Question, Sought, Start, MAX_PAGE_STATES};
use crate::explore::search::{progress_words, Preset, SearchState, SearchStatus};
use crate::state::AppState;
use crate::world_text::capabilities::relevant_invariants;
use leptos::prelude::*;
use quorumlab_sim::explore::request::MAX_DEPTH;
use quorumlab_sim::lesson::checkpoint_names;

/// The select's value for "any invariant" and for "an example of a checkpoint".
const ANY: &str = "any";
const EXAMPLE: &str = "example";

/// What the form holds; read into a [`Question`] when Go is pressed.
#[derive(Clone, Copy)]
struct Form {
    start: RwSignal<Start>,
    sought: RwSignal<String>,
    checkpoint: RwSignal<String>,
    budget: BudgetForm,
}

impl Form {
    fn question(self) -> Question {
        let sought = match self.sought.get_untracked().as_str() {
            ANY => Sought::Invariant(None),
            EXAMPLE => Sought::Example(self.checkpoint.get_untracked().trim().to_string()),
            name => Sought::Invariant(Some(name.to_string())),
        };
        Question {
            start: self.start.get_untracked(),
            sought,
            budget: self.budget.budget.get_untracked(),
        }
    }
}

#[component]
pub fn CanItBreak() -> impl IntoView {
    let search = expect_context::<SearchState>();
    let state = expect_context::<AppState>();
    let run = use_run();
    let form = Form {
        start: RwSignal::new(Start::Beginning),
        sought: RwSignal::new(ANY.to_string()),
        checkpoint: RwSignal::new(String::new()),
        budget: BudgetForm {
            budget: RwSignal::new(Budget::default()),
            problem: RwSignal::new(None),
        },
    };
    // Another world has other invariants: the choice goes back to "any" (a new run of the same
    // world, such as "Play it" opens, keeps it). A search of the world that was replaced, or its
    // result, would describe what is gone. A preset (the gallery's "Can it break?") is taken once
    // its world is on screen, whether this card was already drawn or arrives after it.
    let kind = Memo::new(move |_| run.scenario.with(|scenario| scenario.protocol.kind()));
    Effect::new(move |before: Option<quorumlab_sim::ProtocolKind>| {
        let kind_now = kind.get();
        let preset = search
            .preset
            .with(|preset| preset.clone().filter(|preset| preset.kind == kind_now));
        let replaced = before.is_some_and(|before| before != kind_now);
        if replaced || preset.is_some() {
            search.end();
            search.status.set(SearchStatus::Idle);
        }
        match preset {
            Some(preset) => take_preset(form, search, preset),
            None if before != Some(kind_now) => form.sought.set(ANY.to_string()),
            None => {}
        }
        kind_now
    });
    on_cleanup(move || search.end());
    // A search ends with this card (above), so while it stands every answer reaches the lesson.
    crate::lesson::search_answer::install(state, search);
    let toggle = move |_| search.open.update(|open| *open = !*open);
    view! {
        <section class="card checkers can-it-break" aria-label="Can it break?" data-testid="can-it-break">
            <button class="can-it-break-toggle" data-testid="can-it-break-open"
                aria-expanded=move || search.open.get().to_string() on:click=toggle>
                "Can it break?"
            </button>
            <Show when=move || search.open.get()>
                <SearchForm form=form />
                <SearchButtons form=form state=state />
                <SearchProgress />
                <SearchResult />
            </Show>
        </section>
    }
}

/// Shows `preset`'s question ready: the card open, its invariant chosen, and Go focused (in view).
fn take_preset(form: Form, search: SearchState, preset: Preset) {
    form.start.set(Start::Beginning);
    form.sought
        .set(preset.invariant.unwrap_or_else(|| ANY.to_string()));
    search.open.set(true);
    search.preset.set(None);
    request_animation_frame(show_ready);
}

/// Brings the card's question to the top of the window (what it looks for, the budget and Go below
/// it, all in view from a phone up), then focuses Go, which is then in view and needs no scroll.
fn show_ready() {
    let goal = web_sys::window()
        .and_then(|window| window.document())
        .and_then(|document| {
            document
                .query_selector("[data-testid=search-goal]")
                .ok()
                .flatten()
        });
    // Its label ("Look for") too: the select's own top edge sat at the window's edge on a phone.
    if let Some(field) = goal.map(|goal| goal.parent_element().unwrap_or(goal)) {
        field.scroll_into_view_with_bool(true);
    }
    crate::web_io::focus_element("[data-testid=search-go]");
}

#[component]
fn SearchForm(form: Form) -> impl IntoView {
    let run = use_run();
    let node_count = Signal::derive(move || run.scenario.with(|scenario| scenario.actor_count()));
    let invariants = move || {
        run.scenario
            .with(|scenario| relevant_invariants(scenario.protocol.kind()))
    };
    let set_start = move |start: Start| move |_| form.start.set(start);
    view! {
        <fieldset class="search-start">
            <legend>"Start from"</legend>
            <label><input type="radio" name="search-start" data-testid="search-from-start"
                prop:checked=move || form.start.get() == Start::Beginning on:change=set_start(Start::Beginning) />
                "the start, without the scripted faults"</label>
            <label><input type="radio" name="search-start" data-testid="search-from-now"
                prop:checked=move || form.start.get() == Start::Now on:change=set_start(Start::Now) />
                "this moment, with the run so far"</label>
        </fieldset>
        <label class="search-field">"Look for"
            <select data-testid="search-goal" prop:value=move || form.sought.get()
                on:change=move |event| form.sought.set(event_target_value(&event))>
                <option value=ANY>"a break of any invariant"</option>
                {move || invariants().into_iter().map(|name| view! {
                    <option value=name>{format!("a break of {name}")}</option>
                }).collect_view()}
                <option value=EXAMPLE>"an example of a checkpoint…"</option>
            </select>
        </label>
        <Show when=move || form.sought.get() == EXAMPLE>
            <label class="search-field">"Checkpoint"
                <input type="text" list="search-checkpoints" data-testid="search-checkpoint"
                    placeholder="resource_rejected_stale_token" prop:value=move || form.checkpoint.get()
                    on:change=move |event| form.checkpoint.set(event_target_value(&event)) />
            </label>
            <datalist id="search-checkpoints">
                {checkpoint_names().map(|name| view! { <option value=name /> }).collect_view()}
            </datalist>
        </Show>
        <div class="search-budget">
            <BudgetField label="Depth (steps)" test_id="search-depth" max=u64::from(MAX_DEPTH) form=form.budget
                read=|budget| u64::from(budget.max_depth) write=|budget, value| budget.max_depth = value as u32 />
            <BudgetField label="Faults" test_id="search-faults" max=6 form=form.budget
                read=|budget| u64::from(budget.max_faults) write=|budget, value| budget.max_faults = value as u32 />
            <BudgetField label="States" test_id="search-states" max=MAX_PAGE_STATES form=form.budget
                read=|budget| budget.max_states write=|budget, value| budget.max_states = value />
            <LookAheadField form=form.budget />
        </div>
        <FaultKindsField form=form.budget node_count=node_count />
        <Show when=move || form.budget.problem.with(Option::is_some)>
            <p class="error" role="alert" data-testid="search-budget-error">
                {move || form.budget.problem.get().unwrap_or_default()}</p>
        </Show>
    }
}

#[component]
fn SearchButtons(form: Form, state: AppState) -> impl IntoView {
    let search = expect_context::<SearchState>();
    let busy = move || {
        matches!(
            search.status.get(),
            SearchStatus::Starting | SearchStatus::Running { .. }
        )
    };
    view! {
        <div class="search-buttons">
            <button class="primary" data-testid="search-go" disabled=busy
                on:click=move |_| search.go(state, &form.question())>"Go"</button>
            <button data-testid="search-cancel" disabled=move || !busy()
                on:click=move |_| search.cancel()>"Cancel"</button>
        </div>
    }
}

#[component]
fn SearchProgress() -> impl IntoView {
    let search = expect_context::<SearchState>();
    let words = move || match search.status.get() {
        SearchStatus::Starting => "Starting the search…".to_string(),
        SearchStatus::Running {
            progress,
            elapsed_ms,
        } => format!("Searching: {}", progress_words(&progress, elapsed_ms)),
        SearchStatus::Cancelled { progress } => format!(
            "Cancelled after {} states (depth {} reached). Nothing is proven either way.",
            crate::format::thousands(progress.states),
            progress.depth
        ),
        SearchStatus::Failed(problem) => format!("The search could not run: {problem}"),
        SearchStatus::Idle | SearchStatus::Finished(_) => String::new(),
    };
    view! {
        <p class="search-progress" role="status" data-testid="search-progress"
            data-state=move || match search.status.get() {
                SearchStatus::Idle => "idle",
                SearchStatus::Starting => "starting",
                SearchStatus::Running { .. } => "running",
                SearchStatus::Finished(_) => "finished",
                SearchStatus::Cancelled { .. } => "cancelled",
                SearchStatus::Failed(_) => "failed",
            }>{words}</p>
    }
}
