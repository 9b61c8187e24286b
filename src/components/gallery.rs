//! The instructors' gallery: a sheet listing every example scenario (and any imported this session)
//! with what it shows, what to try and what the class should see. Opening a card goes through the
//! address (`#/gallery/<id>`, see `crate::gallery::route`), so a link opens it, back and forward move
//! between what was opened. "Open" plays; "Demo" (a `/demo` address) opens paused with the fault
//! schedule showing, and a card marked `demo` makes that its main button. "Can it break?" (a `/search`
//! address) opens it paused with the search card open, the invariant its story breaks chosen (any,
//! when it breaks none) and Go focused: one more key press searches it.

use crate::components::schedule_lane::ScheduleShown;
use crate::context::notice::Notice;
use crate::context::use_notices;
use crate::experiment::presets::PRESETS;
use crate::experiment::sheet::go_to_experiment;
use crate::explore::search::{Preset, SearchState};
use crate::gallery::kept::{self, KeptImport};
use crate::gallery::route::{
    gallery_fragment, go_to, is_gallery_fragment, parse_gallery_route, GalleryRoute,
};
use crate::gallery::{
    find, imported_item, no_card, offers_search, remember, search_invariant, GalleryItem,
};
use crate::lesson::live;
use crate::link_readers::OpeningShown;
use crate::scenario_reader::{with_reader, ScenarioReader, READER_MISSING};
use crate::share::view_options;
use crate::state::AppState;
use crate::transfer::import_scenario;
use crate::web_io;
use leptos::prelude::*;

/// The gallery's own state, shared through context: whether the sheet is open, and the scenarios
/// imported (kept in this browser's storage, so they are there on the next visit too).
#[derive(Clone, Copy)]
pub struct GalleryState {
    pub open: RwSignal<bool>,
    pub imported: RwSignal<Vec<GalleryItem>>,
    /// The card last opened from its address: while its run is on screen, it is the gallery deck's
    /// current slide (`components::deck`).
    pub opened: RwSignal<Option<String>>,
    /// The built-in cards: empty until the scenario reader has arrived (`crate::scenario_reader`).
    built_in: RwSignal<Vec<GalleryItem>>,
    imports_so_far: StoredValue<usize>,
    /// What storage holds: the imports' texts, to parse again on the next visit.
    kept: StoredValue<Vec<KeptImport>>,
    /// The search card's state, which a `/search` address shows ready.
    search: SearchState,
}

impl GalleryState {
    /// Makes the gallery's state, provides it, and opens what the address names once the page starts.
    /// The cards (built-in and kept) are read when the scenario reader arrives; an address naming a
    /// card waits for them, with the "Opening the link…" line showing.
    pub fn install(state: AppState) -> GalleryState {
        let gallery = GalleryState {
            open: RwSignal::new(false),
            imported: RwSignal::new(Vec::new()),
            opened: RwSignal::new(None),
            built_in: RwSignal::new(Vec::new()),
            imports_so_far: StoredValue::new(0),
            kept: StoredValue::new(Vec::new()),
            search: expect_context::<SearchState>(),
        };
        provide_context(gallery);
        let schedule = ScheduleShown::install();
        let opening = is_gallery_fragment(&web_io::location_hash()).then(OpeningShown::start);
        with_reader(move |reader| {
            drop(opening);
            let Ok(reader) = reader else {
                return follow_address(state, gallery, schedule);
            };
            gallery.built_in.set((reader.gallery_cards)());
            if let Some(problem) = gallery.restore_kept(reader) {
                state.parts().notices.notice.set(Some(Notice {
                    text: problem,
                    is_error: true,
                }));
            }
            open_from_address(state, gallery, schedule);
        });
        let listener = window_event_listener(leptos::ev::hashchange, move |_| {
            follow_address(state, gallery, schedule)
        });
        on_cleanup(move || listener.remove());
        gallery
    }

    /// Adds an imported scenario to the gallery and keeps it in this browser for later visits.
    /// Returns where it went: kept, or for this visit only and why.
    pub fn add_import(
        &self,
        file_name: &str,
        text: &str,
        scenario: quorumlab_sim::scenario::Scenario,
    ) -> Result<(), String> {
        let number = self.imports_so_far.get_value() + 1;
        self.imports_so_far.set_value(number);
        let item = imported_item(number, file_name, text, scenario);
        self.imported.update(|imported| remember(imported, item));
        let entry = KeptImport {
            number,
            file_name: file_name.to_string(),
            text: text.to_string(),
        };
        let mut kept_now = self.kept.get_value();
        if !kept::keep(&mut kept_now, entry) {
            return Err(format!(
                "the file is over {} KB, too long to keep in the browser",
                kept::MAX_KEPT_TEXT_BYTES / 1_000
            ));
        }
        self.kept.set_value(kept_now);
        self.save_kept()
    }

    /// Takes an imported card out of the gallery and out of storage.
    pub fn remove_import(&self, id: &str) -> Result<(), String> {
        self.imported
            .update(|imported| imported.retain(|item| item.id != id));
        let Some(number) = kept::number_of(id) else {
            return Ok(());
        };
        let mut kept_now = self.kept.get_value();
        if kept::forget(&mut kept_now, number) {
            self.kept.set_value(kept_now);
            return self.save_kept();
        }
        Ok(())
    }

    fn save_kept(&self) -> Result<(), String> {
        let stored = self.kept.with_value(|kept_now| kept::encode(kept_now));
        storage()
            .ok_or("this browser gives the page no storage")?
            .set_item(kept::STORAGE_KEY, &stored)
            .map_err(|_| {
                "the browser refused to store it (storage full or private mode)".to_string()
            })
    }

    /// Puts the kept imports back in the gallery, each parsed afresh. Returns what could not be read.
    fn restore_kept(&self, reader: ScenarioReader) -> Option<String> {
        let stored = storage()?.get_item(kept::STORAGE_KEY).ok().flatten()?;
        let entries = match kept::decode(&stored) {
            Ok(entries) => entries,
            Err(problem) => {
                return Some(format!(
                    "The gallery's imports were not restored: {problem}."
                ))
            }
        };
        let mut unreadable = Vec::new();
        let mut items = Vec::new();
        for entry in &entries {
            match (reader.import)(&entry.text, &entry.file_name) {
                Ok(scenario) => items.push(imported_item(
                    entry.number,
                    &entry.file_name,
                    &entry.text,
                    scenario,
                )),
                Err(problem) => unreadable.push(format!("{} ({problem})", entry.file_name)),
            }
        }
        let highest = entries.iter().map(|entry| entry.number).max().unwrap_or(0);
        self.imports_so_far.set_value(highest);
        self.imported.set(items);
        self.kept.set_value(entries);
        (!unreadable.is_empty()).then(|| {
            format!(
                "Kept gallery imports this version cannot read (still stored; remove them from the gallery): {}.",
                unreadable.join("; ")
            )
        })
    }

    /// Every card in the gallery's order: the built-in ones, then this browser's imports.
    pub fn cards(&self) -> Vec<GalleryItem> {
        let imported = self.imported.get();
        self.built_in
            .with(|built_in| built_in.iter().chain(&imported).cloned().collect())
    }

    fn item(&self, id: &str) -> Option<GalleryItem> {
        let imported = self.imported.get_untracked();
        self.built_in
            .with_untracked(|built_in| find(built_in, &imported, id).cloned())
    }

    fn no_card(&self, id: &str) -> String {
        let imported = self.imported.get_untracked();
        self.built_in
            .with_untracked(|built_in| no_card(built_in, &imported, id))
    }
}

/// Follows a new address: a gallery one once the scenario reader is here (at once, after the first
/// time); any other closes the list (back past the gallery) at once.
fn follow_address(state: AppState, gallery: GalleryState, schedule: ScheduleShown) {
    if !is_gallery_fragment(&web_io::location_hash()) {
        gallery.open.set(false);
        return;
    }
    let opening = OpeningShown::start();
    with_reader(move |reader| {
        drop(opening);
        match reader {
            Ok(_) => open_from_address(state, gallery, schedule),
            Err(_) => state.parts().notices.notice.set(Some(Notice {
                text: format!("This gallery address could not be opened: {READER_MISSING}."),
                is_error: true,
            })),
        }
    });
}

/// Shows what a gallery address names: the list, or one scenario opened fresh. Any other address
/// closes the list (back past the gallery).
fn open_from_address(state: AppState, gallery: GalleryState, schedule: ScheduleShown) {
    let fragment = web_io::location_hash();
    if !is_gallery_fragment(&fragment) {
        gallery.open.set(false);
        return;
    }
    let (route_part, query) = view_options::split(&fragment);
    let opened = parse_gallery_route(route_part).and_then(|route| match route {
        GalleryRoute::List => {
            gallery.open.set(true);
            Ok(())
        }
        GalleryRoute::Open { id, demo } => match gallery.item(&id) {
            Some(item) => {
                let presenter = crate::deck::presenter_asked(query)?;
                let how = if demo { Opening::Demo } else { Opening::Play };
                open_item(state, gallery, schedule, &item, how);
                if presenter {
                    state.parts().playback.presenter.set(true);
                }
                Ok(())
            }
            None => Err(gallery.no_card(&id)),
        },
        GalleryRoute::Search { id } => match gallery.item(&id) {
            Some(item) => {
                open_item(state, gallery, schedule, &item, Opening::Search);
                Ok(())
            }
            None => Err(gallery.no_card(&id)),
        },
    });
    if let Err(reason) = opened {
        state.parts().notices.notice.set(Some(Notice {
            text: format!("This gallery address could not be opened: {reason}."),
            is_error: true,
        }));
    }
}

/// How a card's scenario opens.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Opening {
    Play,
    /// Paused, with the fault schedule showing.
    Demo,
    /// Paused, with "Can it break?" open and ready.
    Search,
}

fn open_item(
    state: AppState,
    gallery: GalleryState,
    schedule: ScheduleShown,
    item: &GalleryItem,
    how: Opening,
) {
    if state.parts().lesson.active.with_untracked(Option::is_some) {
        live::close_lesson(state);
    }
    state.restart(item.scenario.clone());
    state.parts().playback.playing.set(how == Opening::Play);
    if how == Opening::Demo {
        schedule.0.set(true);
    }
    show_page_top();
    gallery.open.set(false);
    gallery.opened.set(Some(item.id.clone()));
    let notice = Notice {
        text: format!("Opened from the gallery: {}", item.title),
        is_error: false,
    };
    let notices = state.parts().notices;
    if how == Opening::Search {
        let invariant = search_invariant(&item.scenario);
        let sought = invariant
            .as_deref()
            .map_or("a break of any invariant".to_string(), |name| {
                format!("a break of {name}")
            });
        gallery.search.preset.set(Some(Preset {
            kind: item.scenario.protocol.kind(),
            invariant,
        }));
        notices.say_while_paused(Notice {
            text: format!(
                "{} (paused, with “Can it break?” ready to look for {sought}; press Go)",
                notice.text
            ),
            ..notice
        });
    } else if how == Opening::Demo {
        notices.say_while_paused(Notice {
            text: format!(
                "{} (paused, with its fault schedule under the timeline; press Play or Space to start)",
                notice.text
            ),
            ..notice
        });
    } else {
        notices.notice.set(Some(notice));
    }
}

/// An opened scenario starts at the top of the page: header, cluster and play bar in view. (It used to
/// scroll the schedule lane into view, which at 1440×900 hid the header and the cluster's top, and
/// presenter mode kept that scroll.)
fn show_page_top() {
    if let Some(window) = web_sys::window() {
        window.scroll_to_with_x_and_y(0.0, 0.0);
    }
}

/// The header's button that opens the gallery.
#[component]
pub fn GalleryButton() -> impl IntoView {
    view! {
        <button data-testid="gallery-button" aria-label="Scenario gallery (G)"
            title="Scenario gallery (G)" on:click=move |_| go_to(&GalleryRoute::List)>"Gallery"</button>
    }
}

/// The gallery sheet: its code arrives the first time it opens (`crate::lazy_part`).
#[component]
pub fn GallerySheet() -> impl IntoView {
    let gallery = expect_context::<GalleryState>();
    view! {
        <Show when=move || gallery.open.get()>
            {crate::lazy_part::lazy_sheet("the scenario gallery", || crate::arrival!(gallery_sheet_code()), |draw: fn() -> AnyView| draw(), move || gallery.open.set(false))}
        </Show>
    }
}

#[cfg_attr(feature = "split", leptos::wasm_split::wasm_split(gallery_sheet, wasm_split_path = ::leptos::wasm_split, fallible))]
fn gallery_sheet_code() -> Result<fn() -> AnyView, crate::lazy_part::PartMissing> {
    Ok(|| view! { <GallerySheetOpen /> }.into_any())
}

#[component]
fn GallerySheetOpen() -> impl IntoView {
    let gallery = expect_context::<GalleryState>();
    let close = move || {
        gallery.open.set(false);
        // The address named the list: leave it, so reopening the same card later still opens it.
        if is_gallery_fragment(&web_io::location_hash()) {
            web_io::replace_fragment("");
        }
    };
    Effect::new(move |_| {
        if gallery.open.get() {
            request_animation_frame(focus_first_card);
        }
    });
    let cards = move || gallery.cards();
    view! {
        <Show when=move || gallery.open.get()>
            <div class="sheet-backdrop" on:click=move |_| close()>
                <div class="sheet gallery-sheet" role="dialog" aria-modal="true" aria-label="Scenario gallery" data-testid="gallery"
                    on:click=|event| event.stop_propagation()
                    on:keydown=move |event| if event.key() == "Escape" { event.prevent_default(); close(); }>
                    <div class="lesson-head">
                        <h2>"Scenario gallery"</h2>
                        <span class="row">
                            <a class="button" href=crate::deck::deck_fragment(&crate::deck::DeckRoute::Gallery) data-testid="gallery-deck"
                                aria-label="Print deck: every scenario's link with a QR code">"Print deck"</a>
                            <button class="link" aria-label="Close the gallery" data-testid="gallery-close" on:click=move |_| close()>"Close ✕"</button>
                        </span>
                    </div>
                    <p class="muted">"Every example scenario, ready for a class. “Open” starts it playing; “Demo” opens it paused with its fault schedule showing, so you can talk it through before pressing play (suggested on the cards where the moment is easy to miss). Each card's address opens it directly; in presenter mode PageDown and PageUp walk the cards in order."</p>
                    <ul class="gallery-cards">
                        <For each=cards key=|item| item.id.clone() let:item>
                            <GalleryCard item=item />
                        </For>
                    </ul>
                    <GalleryExperiments />
                    <GalleryImport />
                </div>
            </div>
        </Show>
    }
}

/// The experiments an instructor can run for a class, beside the scenarios: each opens the experiment
/// sheet on its preset (the address `#/experiment/<id>`).
#[component]
fn GalleryExperiments() -> impl IntoView {
    let presets = PRESETS
        .iter()
        .filter(|preset| preset.scenario_toml.is_some());
    view! {
        <section class="gallery-experiments" aria-label="Experiments" data-testid="gallery-experiments">
            <h3>"Experiments: one world over many seeds"</h3>
            <ul>
                {presets.map(|preset| view! {
                    <li>
                        <button class="button" data-testid="gallery-experiment" on:click=move |_| go_to_experiment(preset.id)>{preset.title}</button>
                        <span class="muted">{preset.question}</span>
                    </li>
                }).collect_view()}
            </ul>
        </section>
    }
}

fn focus_first_card() {
    crate::web_io::focus_element("[data-testid=gallery] [data-testid=gallery-open]");
}

#[component]
fn GalleryCard(item: GalleryItem) -> impl IntoView {
    let scenario = &item.scenario;
    let steps = scenario.steps.len();
    let facts = format!(
        "{} · {} nodes · {steps} step{} · {}",
        scenario.protocol.entry().title,
        scenario.node_count,
        if steps == 1 { "" } else { "s" },
        crate::format::sim_time(scenario.duration_ms * 1_000)
    );
    let open_route = GalleryRoute::Open {
        id: item.id.clone(),
        demo: false,
    };
    let demo_route = GalleryRoute::Open {
        id: item.id.clone(),
        demo: true,
    };
    // "Open" always plays and "Demo" always opens paused; a card marked `demo` only says which of the
    // two suits it, by making Demo the primary button.
    let (open_class, demo_class, demo_text) = if item.demo {
        ("button", "button primary", "Demo (suggested)")
    } else {
        ("button primary", "button", "Demo")
    };
    let open_label = format!("Open {}", item.title);
    let demo_label = format!("Open {} as a demo, paused", item.title);
    let search_route = GalleryRoute::Search {
        id: item.id.clone(),
    };
    let search_label = format!(
        "Can it break? Open {} paused, with the search ready",
        item.title
    );
    let offers_search = offers_search(&item.scenario);
    let remove_label = format!("Remove {} from the gallery", item.title);
    let gallery = expect_context::<GalleryState>();
    let notices = use_notices();
    let id = item.id.clone();
    let remove = move |_| {
        if let Err(problem) = gallery.remove_import(&id) {
            notices.notice.set(Some(Notice {
                text: format!("Removed from the gallery, but {problem}."),
                is_error: true,
            }));
        }
    };
    view! {
        <li class="gallery-card" data-testid="gallery-item" data-gallery-id=item.id.clone()>
            <h3>{item.title.clone()}{item.imported.then(|| view! { <span class="gallery-tag">"imported"</span> })}</h3>
            <p class="gallery-facts muted">{facts}</p>
            <p class="gallery-summary" data-testid="gallery-summary">{item.summary.clone()}</p>
            {(!item.try_this.is_empty()).then(|| view! { <p class="gallery-try"><strong>"Try: "</strong>{item.try_this.clone()}</p> })}
            {(!item.see.is_empty()).then(|| view! { <p class="gallery-see" data-testid="gallery-see"><strong>"The class should see: "</strong>{item.see.clone()}</p> })}
            <div class="row">
                <a class=open_class href=gallery_fragment(&open_route) data-testid="gallery-open" aria-label=open_label>"Open"</a>
                <a class=demo_class href=gallery_fragment(&demo_route) data-testid="gallery-demo" aria-label=demo_label>{demo_text}</a>
                {offers_search.then(|| view! {
                    <a class="button" href=gallery_fragment(&search_route) data-testid="gallery-search" aria-label=search_label>"Can it break?"</a>
                })}
                {item.imported.then(|| view! {
                    <button data-testid="gallery-remove" aria-label=remove_label on:click=remove>"Remove"</button>
                })}
            </div>
        </li>
    }
}

/// "Add your own": an instructor's scenario file joins the gallery, kept in the browser. A file the
/// scenario parser refuses shows its error and changes nothing.
#[component]
fn GalleryImport() -> impl IntoView {
    let gallery = expect_context::<GalleryState>();
    let pasted = RwSignal::new(String::new());
    let error = RwSignal::new(None::<String>);
    let added = RwSignal::new(None::<String>);
    let add = move |file_name: &str, text: &str| match import_scenario(text, file_name) {
        Ok(scenario) => {
            error.set(None);
            let title = scenario.title.clone();
            added.set(Some(match gallery.add_import(file_name, text, scenario) {
                Ok(()) => format!(
                    "Added “{title}” to the gallery; this browser keeps it for your next visits."
                ),
                Err(problem) => {
                    format!("Added “{title}” to the gallery for this visit only: {problem}.")
                }
            }));
        }
        Err(problem) => {
            added.set(None);
            error.set(Some(format!("Not added: {problem}")));
        }
    };
    let add_file = move |event: leptos::ev::Event| {
        use wasm_bindgen::JsCast;
        let Some(input) = event
            .target()
            .and_then(|target| target.dyn_into::<web_sys::HtmlInputElement>().ok())
        else {
            return;
        };
        web_io::read_chosen_file(&input, crate::transfer::MAX_IMPORT_BYTES, move |outcome| {
            match outcome {
                Ok((name, text)) => add(&name, &text),
                Err(problem) => error.set(Some(format!("Not added: {problem}"))),
            }
        });
        input.set_value("");
    };
    view! {
        <section class="gallery-import" aria-label="Add your own scenario">
            <h3>"Add your own"</h3>
            <label class="field">
                <span>"A scenario file (TOML)"</span>
                <input type="file" accept=".toml,text/plain" data-testid="gallery-import-file" on:change=add_file />
            </label>
            <label class="field">
                <span>"…or paste one"</span>
                <textarea rows="3" spellcheck="false" data-testid="gallery-import-text"
                    prop:value=pasted on:input=move |event| pasted.set(event_target_value(&event))></textarea>
            </label>
            <button data-testid="gallery-import-button" on:click=move |_| add("pasted scenario", &pasted.get_untracked())>"Add to the gallery"</button>
            <Show when=move || error.with(Option::is_some)>
                <p class="error" role="alert" data-testid="gallery-import-error">{move || error.get().unwrap_or_default()}</p>
            </Show>
            <Show when=move || added.with(Option::is_some)>
                <p class="muted" role="status" data-testid="gallery-import-added">{move || added.get().unwrap_or_default()}</p>
            </Show>
        </section>
    }
}

fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok().flatten()
}
