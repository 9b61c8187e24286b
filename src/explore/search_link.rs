//! The page's end of the search worker: starts it, holds the request until it says it is ready, hands
//! every answer on, and ends it (Cancel, a new search, the panel closing) by terminating it, which is
//! immediate whatever the search is doing (the same reasoning as the experiment worker's link).

use super::messages::{FromSearch, ToSearch};
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// Trunk writes the worker beside index.html under its binary's own name, unhashed, with a loader.
const WORKER_SCRIPT: &str = "explore-worker_loader.js";

pub struct SearchLink {
    worker: web_sys::Worker,
    ready: Rc<Cell<bool>>,
    waiting: Rc<RefCell<Vec<String>>>,
    _on_message: Closure<dyn FnMut(web_sys::MessageEvent)>,
    _on_error: Closure<dyn FnMut(web_sys::ErrorEvent)>,
}

impl SearchLink {
    /// Starts a worker; `on_answer` gets each of its answers, and a `Failed` if it cannot start.
    pub fn start(on_answer: impl Fn(FromSearch) + Clone + 'static) -> Result<SearchLink, String> {
        let options = web_sys::WorkerOptions::new();
        let worker = web_sys::Worker::new_with_options(WORKER_SCRIPT, &options)
            .map_err(|_| "this browser could not start the search worker".to_string())?;
        let ready = Rc::new(Cell::new(false));
        let waiting: Rc<RefCell<Vec<String>>> = Rc::default();
        let on_message = {
            let (worker, ready, waiting, on_answer) = (
                worker.clone(),
                ready.clone(),
                waiting.clone(),
                on_answer.clone(),
            );
            Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |event: web_sys::MessageEvent| {
                let text = event.data().as_string().unwrap_or_default();
                match FromSearch::from_json(&text) {
                    Ok(FromSearch::Ready) => {
                        ready.set(true);
                        for request in waiting.borrow_mut().drain(..) {
                            let _ = worker.post_message(&JsValue::from_str(&request));
                        }
                    }
                    Ok(answer) => on_answer(answer),
                    Err(error) => on_answer(FromSearch::Failed { error }),
                }
            })
        };
        let on_error = Closure::<dyn FnMut(web_sys::ErrorEvent)>::new(
            move |event: web_sys::ErrorEvent| {
                event.prevent_default();
                let detail = event.message();
                let error = if detail.is_empty() {
                    "the search worker could not be loaded (is the page offline on its first visit?)".to_string()
                } else {
                    format!("the search worker stopped: {detail}")
                };
                on_answer(FromSearch::Failed { error });
            },
        );
        worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
        Ok(SearchLink {
            worker,
            ready,
            waiting,
            _on_message: on_message,
            _on_error: on_error,
        })
    }

    /// Sends `request` now, or as soon as the worker is ready.
    pub fn send(&self, request: &ToSearch) {
        let text = request.to_json();
        if self.ready.get() {
            let _ = self.worker.post_message(&JsValue::from_str(&text));
        } else {
            self.waiting.borrow_mut().push(text);
        }
    }
}

impl Drop for SearchLink {
    fn drop(&mut self) {
        self.worker.terminate();
    }
}
