//! The "Can it break?" search's Web Worker. It runs the engine's bounded search
//! (`quorumlab::explore::work`) off the page's thread, so the cluster keeps drawing at full speed
//! while thousands of schedules are replayed, and it is a binary of its own so the search code loads
//! only when a learner first asks.
//!
//! It only moves strings: each message from the page is a `ToSearch` in JSON, each answer a
//! `FromSearch`. The first thing it says is `Ready` (a worker drops messages that arrive before its
//! handler exists). Progress is posted from inside the search; the page receives it while the search
//! runs, since only the worker's thread is busy. Cancel is the page terminating the worker.
//! Natively this binary does nothing (the workspace's native build compiles every binary).

#[cfg(target_arch = "wasm32")]
fn main() {
    use quorumlab::explore::messages::{FromSearch, ToSearch};
    use quorumlab::explore::work::handle;
    use wasm_bindgen::prelude::*;
    use wasm_bindgen::JsCast;

    console_error_panic_hook::set_once();
    let scope: web_sys::DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    let answer_scope = scope.clone();
    let post = move |message: FromSearch| {
        let _ = answer_scope.post_message(&JsValue::from_str(&message.to_json()));
    };
    let clock_ms = || js_sys::Date::now();
    let answering = post.clone();
    let on_message =
        Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |event: web_sys::MessageEvent| {
            let mut post = answering.clone();
            match event.data().as_string().map_or_else(
                || Err("a request to the search worker must be text".to_string()),
                |text| ToSearch::from_json(&text),
            ) {
                Ok(request) => handle(request, &mut post, &clock_ms),
                Err(error) => post(FromSearch::Failed { error }),
            }
        });
    scope.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    on_message.forget();
    post(FromSearch::Ready);
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {}
