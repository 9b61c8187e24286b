//! Sharing in the page: opening a run from the address when the app starts, the header's Share button,
//! and the run's fingerprint (its trace hash), which two tabs showing the same run agree on.

use crate::context::notice::{Notice, NoticeContext};
use crate::context::run::RunContext;
use crate::context::{use_notices, use_playback, use_run};
use crate::lesson::live;
use crate::link_readers::{with_readers, READERS_MISSING};
use crate::share::provenance::{made_here, replay_difference};
use crate::share::replay::{capture, open};
use crate::share::view_options::{self, ViewOptions};
use crate::share::ShareError;
use crate::share::{encode_fragment, is_share_fragment, SharedRun};
use crate::state::controls::{use_controls, Controls};
use crate::state::AppState;
use crate::theme::ThemeState;
use crate::web_io;
use leptos::prelude::*;
use quorumlab_sim::behaviour::scenario_hash;

/// If the address holds a share link, replays it and shows it paused at the shared instant, the way the
/// sharer showed it (speed, presenter mode, schedule); a link that cannot be opened leaves the page as
/// it was and says why. The link's reader arrives as a part (`crate::link_readers`).
pub fn open_from_address(state: AppState) {
    let fragment = web_io::location_hash();
    if !is_share_fragment(&fragment) {
        return;
    }
    with_readers(move |readers| match readers {
        Ok(readers) => open_fragment(state, &fragment, readers.decode_fragment),
        Err(_) => state.parts().notices.notice.set(Some(Notice {
            text: format!("This link could not be opened: {READERS_MISSING}. Nothing was changed."),
            is_error: true,
        })),
    });
}

fn open_fragment(
    state: AppState,
    fragment: &str,
    decode_fragment: fn(&str) -> Result<SharedRun, ShareError>,
) {
    let (run_part, query) = view_options::split(fragment);
    let decoded = ViewOptions::parse(query.unwrap_or(""))
        .and_then(|view| decode_fragment(run_part).map(|run| (run, view)));
    // A link made inside a lesson reopens it, so the course must be here first.
    let needs_course = matches!(&decoded, Ok((run, _)) if run.lesson.is_some());
    if needs_course && !state.parts().lesson.course_settled() {
        live::when_course_loaded(state, open_from_address);
        return;
    }
    let opened = decoded.and_then(|(run, view)| {
        let lesson = run.lesson.clone();
        open(run).map(|session| (session, lesson, view))
    });
    let notice = match opened {
        Ok((mut session, lesson, view)) => {
            let mut text = format!(
                "Opened a shared run: {} · seed {}, paused at {}",
                session.scenario().title,
                session.scenario().seed,
                session.now()
            );
            let difference = replay_difference(
                &view,
                scenario_hash(session.scenario()),
                session.trace_hash(),
            );
            // A link made inside a lesson reopens that lesson at its step.
            if let Some(unknown) = live::resume_shared(state, &mut session, lesson.as_ref()) {
                text.push_str(&format!(" ({unknown})"));
            }
            if let Some(difference) = &difference {
                text.push_str(&format!(". But {difference}."));
            }
            state.open_session(session, view.plays_at_once());
            show_as_shared(state, view);
            Notice {
                text,
                is_error: difference.is_some(),
            }
        }
        Err(error) => Notice {
            text: format!("This link could not be opened: {error}. Nothing was changed."),
            is_error: true,
        },
    };
    state.parts().notices.notice.set(Some(notice));
}

/// Puts the page the way the link's view options say; what they do not name stays as it is.
fn show_as_shared(state: AppState, view: ViewOptions) {
    let playback = state.parts().playback;
    if let Some(speed) = view.speed {
        state.set_speed(speed);
    }
    if let Some(presenter) = view.presenter {
        playback.presenter.set(presenter);
    }
    if let Some(open) = view.schedule_open {
        playback.schedule_open.set(open);
    }
    if let Some(embedded) = view.embedded {
        playback.embedded.set(embedded);
    }
    if let Some(kiosk) = view.kiosk {
        playback.kiosk.set(kiosk);
    }
    // Present when the link is opened with the page (the theme is installed before), which is where an
    // embed's address is read.
    if let (Some(choice), Some(theme)) = (view.theme, use_context::<ThemeState>()) {
        theme.show_for_this_page(choice);
    }
}

#[component]
pub fn ShareButton() -> impl IntoView {
    let run = use_run();
    let notices = use_notices();
    let playback = use_playback();
    let controls = use_controls();
    // A link pasted into the address bar of an open tab changes only the fragment: no reload follows,
    // so open it here. (`replaceState` in `publish_link` fires no `hashchange`.)
    let listener = window_event_listener(leptos::ev::hashchange, move |_| {
        open_from_address(controls.root())
    });
    on_cleanup(move || listener.remove());
    let share = move |_| {
        let view = ViewOptions::of_page(
            playback.speed.get_untracked(),
            playback.presenter.get_untracked(),
            playback.schedule_open.get_untracked(),
        );
        let fragment = moment_on_screen(run, controls).map(|moment| moment.with_view(view));
        match fragment {
            Ok(fragment) => publish_link(notices, &fragment),
            Err(error) => notices.notice.set(Some(Notice {
                text: error.refusal_text(),
                is_error: true,
            })),
        }
    };
    view! {
        <button on:click=share data-testid="share-button"
            title="Put a link to this exact moment of this run in the address bar and the clipboard">"Share"</button>
    }
}

/// A moment of a run written as a link's run part, with what the link records of where it was made.
#[derive(Clone, Debug, PartialEq)]
pub struct Moment {
    fragment: String,
    scenario_hash: u64,
    fingerprint: u64,
}

impl Moment {
    /// The whole fragment: the run, then `view`'s options and the moment's provenance.
    pub fn with_view(&self, view: ViewOptions) -> String {
        let view = made_here(view, self.scenario_hash, self.fingerprint);
        format!("{}{}", self.fragment, view.query())
    }
}

/// Settles the run at the instant on screen and writes it as a share link's run part, with the lesson
/// and step when inside one.
pub fn moment_on_screen(run: RunContext, controls: Controls) -> Result<Moment, ShareError> {
    // Pausing settles the instant (events already due at it run), so the link shows what you see.
    let now_us = run.with_session(|session| session.now().as_micros());
    controls.seek_us(now_us);
    let lesson = live::shared_lesson(controls.root());
    run.with_session(|session| {
        let mut shared = capture(session);
        shared.lesson = lesson;
        Ok(Moment {
            fragment: encode_fragment(&shared)?,
            scenario_hash: scenario_hash(session.scenario()),
            fingerprint: session.trace_hash(),
        })
    })
}

fn publish_link(notices: NoticeContext, fragment: &str) {
    let Some(address) = web_io::replace_fragment(fragment) else {
        notices.notice.set(Some(Notice {
            text: "The browser would not let the link into the address bar".to_string(),
            is_error: true,
        }));
        return;
    };
    web_io::copy_text(&address, move |copied| {
        let text = if copied {
            "Link copied — it opens this run paused at this moment"
        } else {
            "Link ready in the address bar (the browser did not allow copying)"
        };
        let _ = notices.notice.try_set(Some(Notice {
            text: text.to_string(),
            is_error: false,
        }));
    });
}

/// While playing, the fingerprint changes with every event: it is shown at most this often then, and
/// exactly whenever the picture settles (paused, stepped, scrubbed).
const FINGERPRINT_REFRESH_MS: f64 = 1_000.0;

/// The trace hash as 16 hex digits: equal in two tabs exactly when they show the same run state.
#[component]
pub fn RunFingerprint() -> impl IntoView {
    let run = use_run();
    let playback = use_playback();
    let read = move || format!("{:016x}", run.with_session(|session| session.trace_hash()));
    // Every run's trace is empty before its first event, so every scenario would show one and the same
    // print there: say "not started" instead (the attribute keeps the hash for scripts).
    let started = move || {
        run.panel_view.track();
        run.with_session(|session| session.trace().records().next().is_some())
    };
    let hash = RwSignal::new(read());
    let shown_at_ms = StoredValue::new(f64::NEG_INFINITY);
    let catch_up_pending = StoredValue::new(false);
    Effect::new(move |_| {
        run.panel_view.track();
        let playing = playback.playing.get();
        let wall_ms = crate::frame_loop::now_ms();
        if !playing || wall_ms - shown_at_ms.get_value() >= FINGERPRINT_REFRESH_MS {
            shown_at_ms.set_value(wall_ms);
            hash.set(read());
        } else if !catch_up_pending.get_value() {
            // A run that stops moving while still "playing" (its end) must not keep a stale print.
            catch_up_pending.set_value(true);
            set_timeout(
                move || {
                    _ = catch_up_pending.try_set_value(false);
                    _ = shown_at_ms.try_set_value(crate::frame_loop::now_ms());
                    _ = hash.try_set(read());
                },
                std::time::Duration::from_millis(FINGERPRINT_REFRESH_MS as u64),
            );
        }
    });
    let class = move || {
        if playback.playing.get() {
            "run-fingerprint live"
        } else {
            "run-fingerprint"
        }
    };
    let title = move || {
        if !started() {
            "Run fingerprint: nothing has happened yet, so there is nothing to tell this run from another by."
        } else if playback.playing.get() {
            "Run fingerprint (trace hash). While the run plays it is refreshed once a second; pause to read the exact print of what you see. A share link reproduces it."
        } else {
            "Run fingerprint: the trace hash of the state shown. A share link reproduces it exactly."
        }
    };
    view! {
        <span class=class title=title>
            "run " <code data-testid="trace-hash" data-trace-hash=move || hash.get()>{move || if started() { hash.get() } else { "not started".to_string() }}</code>
        </span>
    }
}
