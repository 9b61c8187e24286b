//! The app's state, owned in one place (the top component): the composition root of the run.
//!
//! The simulation lives in a non-reactive `StoredValue` and is mutated only through the methods here;
//! after each change the latest `ClusterView` is published to a signal that components read. Components
//! never reach into the world directly, nor into this root: they read its narrow parts
//! (`crate::context`) and act through its controls (`controls::Controls`). What an action sets off is
//! composed in `action_path` from one small adapter per concern (branch, lesson, compare); what a
//! frame sets off, in `crate::frame_loop`.

mod action_path;
mod branch_adapter;
pub mod controls;
mod follow;
mod lesson_adapter;

use crate::caption::{next_caption, CaptionPace, MAX_TRAIL_WALL_MS};
use crate::compare::hook::{CompareHook, Side};
use crate::context::generation::Part;
use crate::context::hover::HoverContext;
use crate::context::lesson::LessonContext;
use crate::context::notice::{Notice, NoticeContext};
use crate::context::playback::PlaybackContext;
use crate::context::run::RunContext;
use crate::context::selection::SelectionContext;
use crate::context::story::StoryContext;
use crate::context::Parts;
use crate::narration::NarrationView;
use crate::session::{Session, MAX_SPEED, MIN_SPEED, SIMULATED_US_PER_WALL_MS_AT_1X};
use leptos::prelude::*;
use quorumlab_sim::scenario::Scenario;
use quorumlab_sim::time::SimTime;

/// A caption age that counts as read: the next caption may replace it at once (an action, a seek or a
/// new run asks for the newest words now).
const CAPTION_READ: u32 = u32::MAX;

/// How often, in wall time, text panels follow a playing simulation (see `AppState::panel_view`).
const PANEL_REFRESH_MS: f64 = 100.0;
/// Panel refreshes between recycle epochs (about twenty seconds of playing): how often the lists whose
/// rows churn are rebuilt, to drop what their old rows left behind (`components::recycle`).
const RECYCLE_EVERY_REFRESHES: u32 = 200;

/// The root holds no signal of its own: every one lives in its narrow parts (`AppState::parts`), which
/// components read through `crate::context`; the root keeps only the frame loop's bookkeeping and the
/// compare hook. The drivers that take the root whole (the lesson's `crate::lesson::live` and
/// `show_me`, compare mode) reach the same parts through `parts()`.
#[derive(Clone, Copy)]
pub struct AppState {
    /// Every signal of this run, in the narrow parts components read (`crate::context`).
    parts: Parts,
    /// Wall time since the panel view was last refreshed during playback (see `PANEL_REFRESH_MS`).
    panel_age_ms: StoredValue<f64>,
    caption_age_refreshes: StoredValue<u32>,
    refreshes_since_recycle: StoredValue<u32>,
    /// Compare mode: the right side this run leads, or the left side this run follows.
    compare: CompareHook<AppState>,
}

impl AppState {
    pub fn new(scenario: Scenario) -> AppState {
        let session = Session::new(scenario.clone()).unwrap_or_else(|_| {
            Session::new(default_scenario()).expect("the default scenario is valid")
        });
        // Each part makes its own signals; the state keeps the same handles (see `AppState::parts`).
        let run = RunContext::new(session, scenario);
        let playback = PlaybackContext::new(crate::web_io::prefers_reduced_motion());
        let selection = SelectionContext::new();
        let hover = HoverContext::new();
        let notices = NoticeContext::new();
        let story = StoryContext::new();
        let lesson = LessonContext::new(run.generation);
        AppState {
            parts: Parts {
                run,
                playback,
                selection,
                hover,
                notices,
                story,
                lesson,
            },
            panel_age_ms: StoredValue::new(0.0),
            caption_age_refreshes: StoredValue::new(0),
            refreshes_since_recycle: StoredValue::new(0),
            compare: CompareHook::new(),
        }
    }

    /// Provides this state (read by components only as `controls::Controls`) and its narrow parts (one [`Parts`] value, read through `context::use_*`)
    /// as contexts, for the components below (the page's own, or a comparison's right side).
    pub fn provide(self) {
        provide_context(self);
        provide_context(self.parts());
    }

    /// The same signal handles as this state's fields, in their narrow parts (see `crate::context`).
    pub fn parts(&self) -> Parts {
        self.parts
    }

    /// Compare mode's hook: the side this run leads or follows.
    pub fn compare(&self) -> CompareHook<AppState> {
        self.compare
    }

    /// Reads the session without reacting to it (for one-off questions such as the action list).
    pub fn with_session<T>(&self, read: impl FnOnce(&Session) -> T) -> T {
        self.parts.run.session.with_value(read)
    }

    /// Changes the session through `change`, then republishes the view (for a driver such as an open
    /// lesson's; actions that should reach the timeline's marks also bump `Part::History`).
    pub fn update_session<T>(&self, change: impl FnOnce(&mut Session) -> T) -> Option<T> {
        let result = self.parts.run.session.try_update_value(change);
        self.publish();
        result
    }

    fn publish(&self) {
        self.publish_with_panels(true);
    }

    fn publish_with_panels(&self, refresh_panels: bool) {
        let (view, horizon) = self
            .parts()
            .run
            .session
            .with_value(|session| (session.view(), session.horizon().as_micros()));
        if refresh_panels {
            self.panel_age_ms.set_value(0.0);
            self.parts.run.panel_view.set(view.clone());
            self.parts.run.horizon_us.set(horizon);
            self.publish_narration();
            self.count_refresh_for_recycling();
        }
        self.parts.run.view.set(view);
        self.lead_partner(refresh_panels);
    }

    fn count_refresh_for_recycling(&self) {
        let refreshes = self.refreshes_since_recycle.get_value() + 1;
        if refreshes >= RECYCLE_EVERY_REFRESHES {
            self.refreshes_since_recycle.set_value(0);
            self.parts.run.generation.bump(Part::Recycle);
        } else {
            self.refreshes_since_recycle.set_value(refreshes);
        }
    }

    fn publish_narration(&self) {
        let Some(narration) = self
            .parts()
            .run
            .session
            .try_update_value(|session| NarrationView::of(session.narration()))
        else {
            return;
        };
        let age = self.caption_age_refreshes.get_value().saturating_add(1);
        let speed = self.parts.playback.speed.get_untracked();
        let now_us = self.with_session(|session| session.now().as_micros());
        let trail_us = (MAX_TRAIL_WALL_MS * speed * SIMULATED_US_PER_WALL_MS_AT_1X) as u64;
        let pace = CaptionPace {
            playing: self.parts.playback.playing.get_untracked(),
            refreshes_since_change: age,
            oldest_us: now_us.saturating_sub(trail_us),
        };
        let current = self.parts.story.caption.get_untracked();
        match next_caption(current.as_ref(), &narration.lines, pace) {
            Some(next) => {
                self.parts.story.caption.set(next.cloned());
                self.caption_age_refreshes.set_value(0);
            }
            None => self.caption_age_refreshes.set_value(age),
        }
        if self
            .parts
            .story
            .narration
            .with_untracked(|shown| *shown != narration)
        {
            self.parts.story.narration.set(narration);
        }
    }

    /// Called once per animation frame with the wall-clock time since the previous frame. Returns
    /// false once the app has been unmounted, which ends the frame loop. While playing, `drive` (an
    /// open lesson's driver, composed in by `crate::frame_loop`) may advance the run itself, returning
    /// true when it did; otherwise the run plays on its own.
    pub fn on_frame(&self, wall_ms: f64, drive: fn(AppState, f64, f64) -> bool) -> bool {
        let Some(playing) = self.parts.playback.playing.try_get_untracked() else {
            return false;
        };
        if !playing {
            // Paused with panels a few frames behind: bring them level once, so what is read matches.
            if self.panel_age_ms.get_value() > 0.0 {
                self.publish();
            }
            return true;
        }
        let speed = self.parts.playback.speed.get_untracked();
        if drive(*self, wall_ms, speed) {
            return true;
        }
        let moved = self
            .parts()
            .run
            .session
            .try_update_value(|session| session.advance_frame(wall_ms, speed))
            .unwrap_or(false);
        if moved {
            let panel_age_ms = self.panel_age_ms.get_value() + wall_ms;
            self.panel_age_ms.set_value(panel_age_ms);
            self.publish_with_panels(panel_age_ms >= PANEL_REFRESH_MS);
        }
        true
    }

    pub fn toggle_playing(&self) {
        if let Some(leader) = self.compare.leader() {
            return leader.toggle_playing();
        }
        self.parts.playback.stepped.set(None);
        lesson_adapter::learner_took_the_clock(self);
        self.parts
            .playback
            .playing
            .update(|playing| *playing = !*playing);
        if self.parts.playback.playing.get_untracked() {
            // Going on from a lesson's "look now" moment: the note was about the paused picture.
            self.parts.lesson.pacing.look_now.set(None);
        } else {
            // The panels may be a few frames behind; a paused picture is read closely, so level them now.
            self.publish();
        }
    }

    pub fn step_once(&self) {
        if let Some(leader) = self.compare.leader() {
            return leader.step_once();
        }
        lesson_adapter::learner_took_the_clock(self);
        self.parts.playback.playing.set(false);
        if self.step_with_partner() {
            return;
        }
        let told = self
            .parts()
            .run
            .session
            .try_update_value(|session| session.step_and_tell());
        self.parts
            .playback
            .stepped
            .set(Some(told.flatten().unwrap_or_else(|| {
                "Nothing left to happen: every node is idle".to_string()
            })));
        self.publish();
    }

    /// Back to the previous instant that had events (the picture before the last step).
    pub fn step_back(&self) {
        if let Some(leader) = self.compare.leader() {
            return leader.step_back();
        }
        lesson_adapter::learner_took_the_clock(self);
        self.parts.playback.playing.set(false);
        let moved = self
            .parts()
            .run
            .session
            .try_update_value(Session::step_back)
            .unwrap_or(false);
        let now = self
            .parts()
            .run
            .session
            .with_value(|session| crate::format::sim_time(session.now().as_micros()));
        self.parts.playback.stepped.set(Some(if moved {
            format!("Back one event, to {now}")
        } else {
            "Already at the start of the run".to_string()
        }));
        self.publish();
    }

    pub fn seek_us(&self, time_us: u64) {
        if let Some(leader) = self.compare.leader() {
            return leader.seek_us(time_us);
        }
        // Moving through time is taking control: the lesson stops waiting (and stays paused).
        lesson_adapter::learner_took_the_clock(self);
        self.parts.playback.playing.set(false);
        // "Back one event, to 12.963 s" is no longer where the run stands.
        self.parts.playback.stepped.set(None);
        self.parts
            .run
            .session
            .update_value(|session| session.seek(SimTime(time_us)));
        self.publish();
    }

    pub fn set_speed(&self, speed: f64) {
        if speed.is_finite() {
            self.parts
                .playback
                .speed
                .set(speed.clamp(MIN_SPEED, MAX_SPEED));
        }
    }

    /// Starts a fresh run from `scenario` (new seed, new size or new timing). Bad settings are refused
    /// with a notice and change nothing.
    pub fn restart(&self, scenario: Scenario) {
        match Session::new(scenario.clone()) {
            Ok(session) => {
                self.compare.end();
                self.parts.run.session.set_value(session);
                self.parts.run.scenario.set(scenario);
                self.forget_story();
                self.parts.selection.selected.set(None);
                self.parts.notices.notice.set(None);
                self.parts.run.generation.bump(Part::History);
                self.publish();
            }
            Err(reason) => self.parts.notices.notice.set(Some(Notice {
                text: format!("Settings not applied: {reason}"),
                is_error: true,
            })),
        }
    }

    /// Replaces the run with `session` (one replayed from a share link), playing or paused there.
    pub fn open_session(&self, session: Session, playing: bool) {
        self.compare.end();
        self.parts.run.scenario.set(session.scenario().clone());
        self.parts.run.session.set_value(session);
        self.forget_story();
        self.parts.playback.playing.set(playing);
        self.parts.selection.selected.set(None);
        self.parts.run.generation.bump(Part::History);
        self.publish();
    }
}

impl AppState {
    /// A new run starts a new story: no caption, step note or highlight carried over from the last.
    fn forget_story(&self) {
        self.parts.notices.replaced_future.set(None);
        self.parts.story.caption.set(None);
        self.caption_age_refreshes.set_value(CAPTION_READ);
        self.parts.playback.stepped.set(None);
        self.parts.selection.highlighted.set(Vec::new());
    }
}

impl Side for AppState {
    fn for_scenario(scenario: Scenario) -> AppState {
        AppState::new(scenario)
    }

    fn hook(&self) -> CompareHook<AppState> {
        self.compare
    }

    fn with_session<T>(&self, read: impl FnOnce(&Session) -> T) -> T {
        AppState::with_session(self, read)
    }
}

/// What the page shows when it opens: five nodes, default timing, left alone to elect a leader.
pub fn default_scenario() -> Scenario {
    let mut scenario = Scenario::new("Raft playground", 5, 600_000);
    scenario.seed = 1;
    scenario
}
