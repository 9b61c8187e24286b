//! The top-level component: owns the state, lays out the page, starts the frame loop and the keyboard.

use crate::components::after_first_paint::{RunDetails, ScheduleEditor, SideDetails, WorldPanels};
use crate::components::checker_badges::CheckerBadges;
use crate::components::cluster::ClusterStage;
use crate::components::compare_picker::ComparePicker;
use crate::components::compare_stage::CompareStage;
use crate::components::deck::{DeckBar, DeckBlank, DeckState};
use crate::components::deck_page::DeckPage;
use crate::components::embed_button::EmbedButton;
use crate::components::experiment_sheet::ExperimentSheet;
use crate::components::export_menu::ExportMenu;
use crate::components::gallery::{GalleryButton, GallerySheet, GalleryState};
use crate::components::lesson_list::LessonList;
use crate::components::lesson_panel::LessonPanel;
use crate::components::lesson_toast::LessonTickToast;
use crate::components::narration::NarrationCaption;
use crate::components::playback::PlaybackBar;
use crate::components::protocol_picker::ProtocolPicker;
use crate::components::share_button::{self, RunFingerprint, ShareButton};
use crate::components::shortcuts::ShortcutSheet;
use crate::components::theme_toggle::ThemeToggle;
use crate::components::timeline::Timeline;
use crate::components::verify_codes::VerifySheet;
use crate::context::playback::Kiosk;
use crate::context::{use_notices, use_playback};
use crate::experiment::sheet::ExperimentSheetState;
use crate::frame_loop;
use crate::keyboard;
use crate::lesson::live;
use crate::state::controls::use_controls;
use crate::state::{default_scenario, AppState};
use crate::theme::ThemeState;
use leptos::prelude::*;

#[component]
pub fn App() -> impl IntoView {
    let state = AppState::new(default_scenario());
    state.provide();
    provide_context(ThemeState::install());
    share_button::open_from_address(state);
    crate::compare::address::install(state);
    live::open_from_address(state);
    // Before the gallery: a `/search` address shows the search ready.
    provide_context(crate::explore::search::SearchState::new());
    let gallery = GalleryState::install(state);
    DeckState::install(state, gallery);
    ExperimentSheetState::install(state);
    live::install(state);
    live::prefetch_for_offline(state);
    frame_loop::start(state);
    keyboard::install(state);

    let parts = state.parts();
    let app_class = move || {
        let playback = parts.playback;
        let mut class = String::from("app");
        if playback.presenter.get() {
            class.push_str(" presenter");
        }
        if playback.embedded.get() {
            class.push_str(" embedded");
        }
        match playback.kiosk.get() {
            Kiosk::Full => {}
            Kiosk::Locked => class.push_str(" kiosk-locked"),
            Kiosk::Hidden => class.push_str(" kiosk-locked kiosk-hidden"),
        }
        class
    };
    view! {
        <div class=app_class data-testid="app-root">
            <header class="app-header">
                <h1 class="brand">"Quorum Lab"</h1>
                <p class="tagline">"Break a cluster on purpose. Watch what coordination really costs."</p>
                <span class="spacer"></span>
                <button on:click=move |_| state.parts().lesson.list_open.set(true) data-testid="lessons-button"
                    aria-label="Lessons (L)">"Lessons (L)"</button>
                <ProtocolPicker />
                <GalleryButton />
                <ComparePicker />
                <RunFingerprint />
                <ShareButton />
                <EmbedButton />
                <ExportMenu />
                <button on:click=move |_| parts.playback.presenter.update(|on| *on = !*on) aria-pressed=move || parts.playback.presenter.get().to_string()
                    data-testid="presenter-toggle">"Presenter (F)"</button>
                <ThemeToggle />
                <button class="help-button" on:click=move |_| parts.notices.help_open.set(true) aria-label="Keyboard shortcuts (?)">"?"</button>
            </header>
            <DeckBar />
            <NoticeBar />
            <crate::link_readers::OpeningLink />
            <ReplacedFutureBar />
            <main class=move || if state.parts().lesson.active.with(Option::is_some) { "workspace with-lesson" } else { "workspace" }>
                <LessonPanel />
                <section class="stage-column" aria-label="Cluster">
                    <Show when=move || state.compare().is_comparing() fallback=|| view! {
                        <div class="cluster-panel"><ClusterStage titled=true /><NarrationCaption /><LessonTickToast /></div>
                    }><CompareStage /></Show>
                    <WorldPanels />
                    <Timeline />
                    <ScheduleEditor />
                    <PlaybackBar />
                    <RunDetails />
                </section>
                <aside class="side-column" aria-label="Controls and details">
                    <CheckerBadges />
                    <SideDetails />
                </aside>
            </main>
            <ShortcutSheet />
            <LessonList />
            <VerifySheet />
            <GallerySheet />
            <ExperimentSheet />
            <DeckPage />
            <DeckBlank />
        </div>
    }
}

#[component]
fn NoticeBar() -> impl IntoView {
    let notices = use_notices();
    let playback = use_playback();
    Effect::new(move |_| {
        if !playback.playing.get() {
            return;
        }
        let Some(paused_only) = notices.true_while_paused.get() else {
            return;
        };
        notices.true_while_paused.set(None);
        if notices
            .notice
            .with_untracked(|notice| notice.as_ref() == Some(&paused_only))
        {
            notices.notice.set(None);
        }
    });
    view! {
        <Show when=move || notices.notice.with(Option::is_some)>
            <div class=move || if notices.notice.with(|notice| notice.as_ref().is_some_and(|notice| notice.is_error)) { "notice error" } else { "notice" }
                role="status" data-testid="notice">
                <span>{move || notices.notice.with(|notice| notice.as_ref().map(|notice| notice.text.clone()).unwrap_or_default())}</span>
                <button class="link" on:click=move |_| notices.notice.set(None) aria-label="Dismiss">"✕"</button>
            </div>
        </Show>
    }
}

/// After acting in the past: says that the recorded future was replaced, and offers it back.
#[component]
fn ReplacedFutureBar() -> impl IntoView {
    let notices = use_notices();
    let controls = use_controls();
    let text = move || {
        notices.replaced_future.with(|replaced| {
            replaced.as_ref().map(|replaced| {
                format!(
                    "You acted at {}, in the past: the run recorded up to {} was replaced by a new future from there.",
                    crate::format::sim_time(replaced.acted_at.as_micros()),
                    crate::format::sim_time(replaced.horizon.as_micros())
                )
            })
        })
    };
    view! {
        <Show when=move || text().is_some()>
            <div class="notice branch" role="status" data-testid="replaced-future">
                <span>{move || text().unwrap_or_default()}</span>
                <button data-testid="restore-future" on:click=move |_| controls.restore_replaced_future()>"Bring the old future back"</button>
                <button class="link" on:click=move |_| notices.replaced_future.set(None) aria-label="Keep the new future">"Keep the new one"</button>
            </div>
        </Show>
    }
}
