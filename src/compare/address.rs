//! Opening a compare link from the address: when the app starts, and when a link is pasted into an
//! open tab (only the fragment changes then, so no reload follows).

use crate::compare::link::is_compare_fragment;
use crate::compare::open::open_pair;
use crate::context::notice::Notice;
use crate::link_readers::{with_readers, READERS_MISSING};
use crate::session::Session;
use crate::state::AppState;
use crate::web_io;
use leptos::prelude::*;

/// Listens for pasted compare links and opens the one the page started with, if any.
pub fn install(state: AppState) {
    let listener = window_event_listener(leptos::ev::hashchange, move |_| open_from_address(state));
    on_cleanup(move || listener.remove());
    open_from_address(state);
}

/// If the address holds a compare link, replays both sides and shows them paused at the shared
/// instant; a link that cannot be opened leaves the run shown in place and says why.
fn open_from_address(state: AppState) {
    let fragment = web_io::location_hash();
    if !is_compare_fragment(&fragment) {
        return;
    }
    // The reader arrives as a part (`crate::link_readers`); the address may change meanwhile.
    with_readers(move |readers| {
        let opened = readers
            .map_err(|_| READERS_MISSING.to_string())
            .and_then(|readers| (readers.open_pair_link)(&fragment));
        show_opened(state, opened);
    });
}

fn show_opened(state: AppState, opened: Result<(Session, Session), String>) {
    let opened = opened.and_then(|(left, right)| {
        let text = format!(
            "Opened two runs side by side: {} · seed {}, paused at {}",
            left.scenario().title,
            left.scenario().seed,
            left.now()
        );
        open_pair(state, left, right).map(|()| text)
    });
    let notice = match opened {
        Ok(text) => Notice {
            text,
            is_error: false,
        },
        Err(reason) => Notice {
            text: format!("This compare link could not be opened: {reason}."),
            is_error: true,
        },
    };
    state.parts().notices.notice.set(Some(notice));
}
