//! Share links in a real browser: a link in the address opens the same run (same trace hash shown), a
//! bad link says why and falls back to the default run, and the Share button writes a link that
//! reproduces what is on screen.
#![cfg(target_arch = "wasm32")]

use gloo_timers::future::TimeoutFuture;
use quorumlab::session::Session;
use quorumlab::share::replay::{capture, open};
use quorumlab::share::{decode_fragment, encode_fragment};
use quorumlab::web_io;
use quorumlab_sim::action::{Action, NodeTarget};
use quorumlab_sim::scenario::Scenario;
use quorumlab_sim::time::SimTime;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};

wasm_bindgen_test_configure!(run_in_browser);

fn document() -> web_sys::Document {
    web_sys::window()
        .expect("window")
        .document()
        .expect("document")
}

/// Mounts the app into a fresh element and returns the element plus the handle that unmounts it.
fn mount() -> (web_sys::Element, impl Drop) {
    let host = document().create_element("div").expect("div");
    document()
        .body()
        .expect("body")
        .append_child(&host)
        .expect("append");
    let handle = leptos::mount::mount_to(host.clone().unchecked_into(), quorumlab::app::App);
    (host, handle)
}

fn text_of(host: &web_sys::Element, testid: &str) -> String {
    host.query_selector(&format!("[data-testid={testid}]"))
        .expect("query")
        .and_then(|element| element.text_content())
        .unwrap_or_default()
}

/// The run fingerprint the header carries (its attribute: before the first event the text says "not
/// started", the attribute still holds the hash).
fn fingerprint_of(host: &web_sys::Element) -> String {
    host.query_selector("[data-testid=trace-hash]")
        .expect("query")
        .and_then(|element| element.get_attribute("data-trace-hash"))
        .unwrap_or_default()
}

fn hex(hash: u64) -> String {
    format!("{hash:016x}")
}

fn crashed_leader_run() -> Session {
    let mut session = Session::new(Scenario::new("web share", 5, 10_000)).expect("session");
    session.advance_to(SimTime::from_ms(1_200));
    session.apply(&Action::Crash {
        target: NodeTarget::Leader,
    });
    session.advance_to(SimTime::from_ms(2_000));
    session
}

#[wasm_bindgen_test]
fn a_share_link_in_the_address_opens_the_same_run() {
    let original = crashed_leader_run();
    let fragment = encode_fragment(&capture(&original)).expect("shareable");
    web_io::replace_fragment(&fragment).expect("address updated");

    let (host, handle) = mount();
    assert_eq!(fingerprint_of(&host), hex(original.world().trace_hash()));
    assert!(text_of(&host, "notice").contains("Opened a shared run"));
    assert!(text_of(&host, "scenario-title").contains("web share"));
    drop(handle);
    web_io::replace_fragment("").expect("address reset");
}

#[wasm_bindgen_test]
fn a_damaged_link_says_why_and_shows_the_default_run() {
    web_io::replace_fragment("#/run/v1/AAAAAA").expect("address updated");
    let (host, handle) = mount();
    let notice = text_of(&host, "notice");
    assert!(
        notice.starts_with("This link could not be opened: the link is damaged"),
        "{notice}"
    );
    assert!(text_of(&host, "scenario-title").contains("Raft playground"));
    drop(handle);
    web_io::replace_fragment("").expect("address reset");
}

#[wasm_bindgen_test]
async fn the_share_button_writes_a_link_to_what_is_on_screen() {
    web_io::replace_fragment("").expect("address reset");
    let (host, handle) = mount();
    TimeoutFuture::new(300).await;
    let button = host
        .query_selector("[data-testid=share-button]")
        .expect("query")
        .expect("share button")
        .unchecked_into::<web_sys::HtmlElement>();
    button.click();
    TimeoutFuture::new(100).await;

    let fragment = web_io::location_hash();
    assert!(fragment.starts_with("#/run/v4/"), "{fragment}");
    let shown = fingerprint_of(&host);
    let reopened = open(decode_fragment(&fragment).expect("decodes")).expect("opens");
    assert_eq!(hex(reopened.world().trace_hash()), shown);
    drop(handle);
    web_io::replace_fragment("").expect("address reset");
}

#[wasm_bindgen_test]
async fn a_link_pasted_into_an_open_tab_opens_without_a_reload() {
    web_io::replace_fragment("").expect("address reset");
    let (host, handle) = mount();
    let original = crashed_leader_run();
    let fragment = encode_fragment(&capture(&original)).expect("shareable");
    // Setting location.hash (unlike replaceState) fires `hashchange`, as editing the address bar does.
    web_sys::window()
        .expect("window")
        .location()
        .set_hash(&fragment)
        .expect("hash set");
    TimeoutFuture::new(200).await;
    assert_eq!(fingerprint_of(&host), hex(original.world().trace_hash()));
    assert!(text_of(&host, "scenario-title").contains("web share"));
    drop(handle);
    web_io::replace_fragment("").expect("address reset");
}

fn click(host: &web_sys::Element, testid: &str) {
    host.query_selector(&format!("[data-testid={testid}]"))
        .expect("query")
        .unwrap_or_else(|| panic!("{testid} rendered"))
        .unchecked_into::<web_sys::HtmlElement>()
        .click();
}

#[wasm_bindgen_test]
async fn export_reports_the_file_and_a_bad_import_changes_nothing() {
    web_io::replace_fragment("").expect("address reset");
    let (host, handle) = mount();
    click(&host, "export-toml");
    TimeoutFuture::new(50).await;
    let notice = text_of(&host, "notice");
    assert!(
        notice.starts_with("Exported raft-playground.toml"),
        "{notice}"
    );

    let textarea = host
        .query_selector("[data-testid=import-text]")
        .expect("query")
        .expect("import box");
    web_sys::js_sys::Reflect::set(&textarea, &"value".into(), &"nodes = 0\n".into())
        .expect("value set");
    textarea
        .dispatch_event(&web_sys::Event::new("input").expect("event"))
        .expect("input dispatched");
    click(&host, "import-button");
    TimeoutFuture::new(50).await;
    let error = text_of(&host, "import-error");
    assert!(
        error.starts_with("Not imported: pasted scenario:1:"),
        "{error}"
    );
    assert!(text_of(&host, "scenario-title").contains("Raft playground"));
    drop(handle);
}
