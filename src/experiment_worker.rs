//! The experiments' Web Worker. It runs whole experiments (`quorumlab::experiment::work`) off the
//! page's thread, so the cluster keeps drawing at full speed while a thousand trials run, and it is a
//! binary of its own so the engine's experiment code loads only when a learner first runs one.
//!
//! It only moves strings: each message from the page is a `ToWorker` in JSON, each answer a
//! `FromWorker`. The first thing it says is `Ready`, because a worker drops messages that arrive
//! before its handler exists and its wasm loads asynchronously; the page sends nothing before then.
//! Natively this binary does nothing (the workspace's native build compiles every binary).

#[cfg(target_arch = "wasm32")]
fn main() {
    use quorumlab::experiment::messages::{FromWorker, ToWorker};
    use quorumlab::experiment::work::Workbench;
    use std::cell::RefCell;
    use wasm_bindgen::prelude::*;
    use wasm_bindgen::JsCast;

    console_error_panic_hook::set_once();
    let scope: web_sys::DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    let answer_scope = scope.clone();
    let post = move |message: FromWorker| {
        let _ = answer_scope.post_message(&JsValue::from_str(&message.to_json()));
    };
    let workbench = RefCell::new(Workbench::default());
    let clock_ms = || js_sys::Date::now();
    let answering = post.clone();
    let on_message =
        Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |event: web_sys::MessageEvent| {
            let mut post = answering.clone();
            match event.data().as_string().map_or_else(
                || Err("a request to the worker must be text".to_string()),
                |text| ToWorker::from_json(&text),
            ) {
                Ok(request) => workbench.borrow_mut().handle(request, &mut post, &clock_ms),
                Err(error) => post(FromWorker::Failed { error }),
            }
        });
    scope.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    on_message.forget();
    post(FromWorker::Ready);
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {}
