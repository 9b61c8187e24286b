//! Whether a card is in (or within a few pixels of) the viewport, for views that can stop following a
//! playing run while nobody can see them and catch up when they come back.
//!
//! `content-visibility: auto` alone was not enough: Chromium keeps rendering a skipped-looking card that
//! sits within its own generous margin of the viewport, so the space-time diagram just below the fold at
//! 1440×900 went on updating, and every update repainted the page's root layer (about 28 ms/s of the
//! default playground's main thread, measured 2026-12-05). An `IntersectionObserver` with a small margin
//! says "not visible" exactly when it is not.

use leptos::prelude::*;
use leptos::tachys::html::element::ElementType;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;

/// How far outside the viewport a card still counts as on screen, so that scrolling towards it finds it
/// already caught up.
const MARGIN: &str = "64px";

/// A signal that is true while `element` is within `MARGIN` of the viewport (true until first measured,
/// and true for good where the browser has no `IntersectionObserver`).
pub fn track_on_screen<E>(element: NodeRef<E>) -> RwSignal<bool>
where
    E: ElementType,
    E::Output: JsCast + Clone + 'static,
{
    let on_screen = RwSignal::new(true);
    element.on_load(move |element| {
        let element: web_sys::Element = element.unchecked_into();
        let callback = Closure::<dyn Fn(js_sys::Array)>::new(move |entries: js_sys::Array| {
            // Entries come oldest first; the last one is the element's state now.
            if let Some(entry) = entries
                .iter()
                .last()
                .and_then(|entry| entry.dyn_into::<web_sys::IntersectionObserverEntry>().ok())
            {
                _ = on_screen.try_set(entry.is_intersecting());
            }
        });
        let options = web_sys::IntersectionObserverInit::new();
        options.set_root_margin(MARGIN);
        let Ok(observer) = web_sys::IntersectionObserver::new_with_options(
            callback.as_ref().unchecked_ref(),
            &options,
        ) else {
            return;
        };
        observer.observe(&element);
        let kept = StoredValue::new_local(Some((observer, callback)));
        on_cleanup(move || {
            if let Some(Some((observer, _callback))) = kept.try_update_value(Option::take) {
                observer.disconnect();
            }
        });
    });
    on_screen
}
