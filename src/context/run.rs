//! The run itself as components read it: the session (read-only from here), its published views, its
//! scenario and the generation number that says when its history or its long lists should be redrawn.

use crate::context::generation::Generation;
use crate::session::Session;
use leptos::prelude::*;
use quorumlab_sim::scenario::Scenario;
use quorumlab_sim::view::ClusterView;

#[derive(Clone, Copy)]
pub struct RunContext {
    /// Changed only by the composition root (`crate::state::AppState`), which also builds this part
    /// from its own handles; components read it through [`RunContext::with_session`].
    pub(crate) session: StoredValue<Session, LocalStorage>,
    /// The latest snapshot of the cluster; rebuilt after every frame or action that changed something.
    pub view: RwSignal<ClusterView>,
    /// The same snapshot for panels of text and tables (inspector, logs, lanes): while playing it follows
    /// `view` at most every few frames (see `crate::state`); after an action, a step or a seek at once.
    pub panel_view: RwSignal<ClusterView>,
    /// The furthest simulated time recorded (the timeline's end); refreshed with `panel_view`.
    pub horizon_us: RwSignal<u64>,
    pub scenario: RwSignal<Scenario>,
    /// The app's one generation number: when the history, the lesson shown, the course, progress or
    /// the recycle epoch last changed (see `crate::context::generation`).
    pub generation: Generation,
}

impl RunContext {
    /// A run of `session`, whose scenario is `scenario` (the one asked for, which may differ from the
    /// session's own when that one was refused and the default opened instead).
    pub fn new(session: Session, scenario: Scenario) -> RunContext {
        let view = session.view();
        RunContext {
            session: StoredValue::new_local(session),
            panel_view: RwSignal::new(view.clone()),
            view: RwSignal::new(view),
            horizon_us: RwSignal::new(0),
            scenario: RwSignal::new(scenario),
            generation: Generation::new(),
        }
    }

    /// Reads the session without reacting to it (for one-off questions such as the action list).
    pub fn with_session<T>(&self, read: impl FnOnce(&Session) -> T) -> T {
        self.session.with_value(read)
    }
}
