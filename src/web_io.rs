//! The few browser calls sharing and file transfer need: the address fragment, the clipboard, a file
//! download (text or a picture) and reading a chosen file; and moving focus or scroll for a panel that
//! just opened. Each one degrades quietly (returns `None` or
//! reports failure to its callback) instead of throwing, so a browser that refuses the clipboard never
//! puts an error in the console.

use std::cell::Cell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::js_sys::{Array, Function, Reflect};

/// `location.hash`, or empty when there is none (or no window, as in native tests).
pub fn location_hash() -> String {
    web_sys::window()
        .and_then(|window| window.location().hash().ok())
        .unwrap_or_default()
}

/// Whether a service worker (`public/sw.js`) answers this page's requests, so what it fetches now is
/// kept for a visit without network.
pub fn service_worker_controls_page() -> bool {
    let Some(window) = web_sys::window() else {
        return false;
    };
    Reflect::get(&window.navigator(), &JsValue::from_str("serviceWorker"))
        .and_then(|container| Reflect::get(&container, &JsValue::from_str("controller")))
        .is_ok_and(|controller| !controller.is_null() && !controller.is_undefined())
}

/// Tells `public/boot.js` that the page's own first parts have arrived, so the service worker may now
/// fetch every file of the app for offline use without competing with them.
pub fn announce_first_parts_arrived() {
    if let (Some(window), Ok(event)) = (web_sys::window(), web_sys::Event::new("quorumlab-ready")) {
        _ = window.dispatch_event(&event);
    }
}

/// Whether the system asks for reduced motion (`prefers-reduced-motion: reduce`); false without a window.
pub fn prefers_reduced_motion() -> bool {
    matches_media("(prefers-reduced-motion: reduce)")
}

/// Whether the page matches the CSS media `query` now; false without a window (native tests).
pub fn matches_media(query: &str) -> bool {
    let Some(window) = web_sys::window() else {
        return false;
    };
    let query = JsValue::from_str(query);
    Reflect::get(&window, &JsValue::from_str("matchMedia"))
        .ok()
        .and_then(|match_media| match_media.dyn_into::<Function>().ok())
        .and_then(|match_media| match_media.call1(&window, &query).ok())
        .and_then(|list| Reflect::get(&list, &JsValue::from_str("matches")).ok())
        .is_some_and(|matches| matches.is_truthy())
}

/// The page's address without its fragment (where the app is served, whatever the path).
pub fn page_address() -> Option<String> {
    let href = web_sys::window()?.location().href().ok()?;
    Some(href.split('#').next().unwrap_or_default().to_string())
}

/// Replaces the address's fragment without reloading or adding a history entry; returns the address.
pub fn replace_fragment(fragment: &str) -> Option<String> {
    let window = web_sys::window()?;
    let href = window.location().href().ok()?;
    let base = href.split('#').next().unwrap_or_default();
    let address = format!("{base}{fragment}");
    window
        .history()
        .ok()?
        .replace_state_with_url(&JsValue::NULL, "", Some(&address))
        .ok()?;
    Some(address)
}

/// Copies `text` when the page may use the clipboard; `done(true)` once it is there. Refusal (no
/// clipboard, no permission, not a secure page) is `done(false)`, handled, never a console error.
pub fn copy_text(text: &str, done: impl FnOnce(bool) + 'static) {
    let promise = web_sys::window()
        .and_then(|window| Reflect::get(&window.navigator(), &"clipboard".into()).ok())
        .filter(|clipboard| clipboard.is_object())
        .and_then(|clipboard| call_method(&clipboard, "writeText", &[text.into()]));
    match promise {
        Some(promise) => when_settled(&promise, move |outcome| done(outcome.is_ok())),
        None => done(false),
    }
}

/// Offers `text` as a file download named `file_name`.
pub fn download_text(file_name: &str, mime_type: &str, text: &str) -> Result<(), String> {
    let parts = Array::of1(&JsValue::from_str(text));
    let options = web_sys::BlobPropertyBag::new();
    options.set_type(mime_type);
    let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &options)
        .map_err(|_| "the browser could not make the file")?;
    download_blob(file_name, &blob)
}

/// Offers `blob` (a picture, a text file) as a file download named `file_name`.
pub fn download_blob(file_name: &str, blob: &web_sys::Blob) -> Result<(), String> {
    let document = web_sys::window()
        .and_then(|window| window.document())
        .ok_or("no document")?;
    let address = web_sys::Url::create_object_url_with_blob(blob)
        .map_err(|_| "the browser could not make a download address")?;
    let anchor = document
        .create_element("a")
        .ok()
        .and_then(|element| element.dyn_into::<web_sys::HtmlAnchorElement>().ok())
        .ok_or("the browser could not make a link")?;
    anchor.set_href(&address);
    anchor.set_download(file_name);
    anchor.click();
    // Some browsers start reading the blob only after the click returns: free it a little later.
    gloo_timers::callback::Timeout::new(10_000, move || {
        let _ = web_sys::Url::revoke_object_url(&address);
    })
    .forget();
    Ok(())
}

/// Reads the first file chosen in a file input as text; `done` gets the text or why it failed.
pub fn read_chosen_file(
    input: &web_sys::HtmlInputElement,
    max_bytes: usize,
    done: impl FnOnce(Result<(String, String), String>) + 'static,
) {
    let Some(file) = input.files().and_then(|files| files.get(0)) else {
        return done(Err("no file was chosen".into()));
    };
    let name = file.name();
    // Refused before reading: a huge file would otherwise be held in memory just to be turned down.
    if file.size() > max_bytes as f64 {
        return done(Err(format!(
            "{name} is {} bytes; files may be at most {max_bytes} bytes",
            file.size()
        )));
    }
    let Some(promise) = call_method(&file, "text", &[]) else {
        return done(Err(format!("{name} could not be read")));
    };
    when_settled(&promise, move |outcome| {
        done(match outcome.ok().and_then(|text| text.as_string()) {
            Some(text) => Ok((name, text)),
            None => Err(format!("{name} could not be read as text")),
        })
    });
}

/// Calls `target.method(arguments…)`, catching a throw.
fn call_method(target: &JsValue, method: &str, arguments: &[JsValue]) -> Option<JsValue> {
    let function = Reflect::get(target, &method.into())
        .ok()?
        .dyn_into::<Function>()
        .ok()?;
    function
        .apply(target, &arguments.iter().collect::<Array>())
        .ok()
}

/// The one callback a promise settles, shared by its resolve and reject handlers.
type Settled = Rc<Cell<Option<Box<dyn FnOnce(Result<JsValue, JsValue>)>>>>;

/// Runs `done` once with the promise's value or its rejection (handled, so never "uncaught").
fn when_settled(promise: &JsValue, done: impl FnOnce(Result<JsValue, JsValue>) + 'static) {
    let done: Settled = Rc::new(Cell::new(Some(Box::new(done))));
    let settle = |done: Settled, ok: bool| {
        move |value: JsValue| {
            if let Some(done) = done.take() {
                done(if ok { Ok(value) } else { Err(value) });
            }
        }
    };
    let resolved = Closure::once_into_js(settle(done.clone(), true));
    let rejected = Closure::once_into_js(settle(done.clone(), false));
    if call_method(promise, "then", &[resolved, rejected]).is_none() {
        if let Some(done) = done.take() {
            done(Err(JsValue::UNDEFINED));
        }
    }
}

/// Moves keyboard focus to the first element matching `selector`, if there is one (dialogs opening, a
/// schedule mark after it moved).
pub fn focus_element(selector: &str) {
    let element = web_sys::window()
        .and_then(|window| window.document())
        .and_then(|document| document.query_selector(selector).ok().flatten())
        .and_then(|element| element.dyn_into::<web_sys::HtmlElement>().ok());
    if let Some(element) = element {
        let _ = element.focus();
    }
}
