//! Browser smoke test: mounts the app in headless Chromium (wasm-bindgen-test-runner + chromedriver).
#![cfg(target_arch = "wasm32")]

use wasm_bindgen::JsCast;
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};

wasm_bindgen_test_configure!(run_in_browser);

fn document() -> web_sys::Document {
    web_sys::window()
        .expect("window")
        .document()
        .expect("document")
}

#[wasm_bindgen_test]
fn app_mounts_with_title_and_cluster_area() {
    let host = document().create_element("div").expect("div");
    document()
        .body()
        .expect("body")
        .append_child(&host)
        .expect("append");
    let handle = leptos::mount::mount_to(host.clone().unchecked_into(), quorumlab::app::App);

    let root = host
        .query_selector("[data-testid=app-root]")
        .expect("query")
        .expect("app root rendered");
    let brand = root
        .query_selector(".brand")
        .expect("query")
        .expect("brand");
    assert_eq!(brand.text_content().as_deref(), Some("Quorum Lab"));
    assert!(host
        .query_selector("[data-testid=cluster-view]")
        .expect("query")
        .is_some());

    drop(handle);
    assert!(
        host.query_selector("[data-testid=app-root]")
            .expect("query")
            .is_none(),
        "unmount removes the app"
    );
}
