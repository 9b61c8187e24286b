//! An exported SVG drawn into a canvas at `scale` times its size and read back as a PNG file. The SVG is
//! loaded from a blob address of this page, so the canvas stays readable (same origin, no fonts or
//! images fetched: the file is self-contained).

use super::inline_svg::ExportedSvg;
use std::cell::Cell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::js_sys::Array;
use web_sys::{Blob, BlobPropertyBag, HtmlCanvasElement, HtmlImageElement, Url};

/// Largest side of the PNG in pixels: well above a 4K projector, far below what a canvas refuses.
const MAX_SIDE_PX: f64 = 8_192.0;

type Done = Rc<Cell<Option<Box<dyn FnOnce(Result<Blob, String>)>>>>;

/// Draws `svg` at `scale` and calls `done` once with the PNG, or with why it failed.
pub fn svg_to_png(
    svg: &ExportedSvg,
    scale: f64,
    done: impl FnOnce(Result<Blob, String>) + 'static,
) {
    let done: Done = Rc::new(Cell::new(Some(Box::new(done))));
    let fail = {
        let done = done.clone();
        move |reason: &str| {
            if let Some(done) = done.take() {
                done(Err(reason.to_string()));
            }
        }
    };
    let address = match svg_address(&svg.text) {
        Ok(address) => address,
        Err(reason) => return fail(&reason),
    };
    let Ok(image) = HtmlImageElement::new() else {
        return fail("the browser could not make an image");
    };
    let width_px = (svg.width * scale).round().clamp(1.0, MAX_SIDE_PX) as u32;
    let height_px = (svg.height * scale).round().clamp(1.0, MAX_SIDE_PX) as u32;
    let loaded = {
        let (image, address, done) = (image.clone(), address.clone(), done.clone());
        Closure::once_into_js(move || {
            let _ = Url::revoke_object_url(&address);
            let result = draw(&image, width_px, height_px);
            match result {
                Ok(canvas) => read_png(&canvas, done),
                Err(reason) => {
                    if let Some(done) = done.take() {
                        done(Err(reason));
                    }
                }
            }
        })
    };
    let failed = {
        let address = address.clone();
        let fail = fail.clone();
        Closure::once_into_js(move || {
            let _ = Url::revoke_object_url(&address);
            fail("the browser could not draw the picture");
        })
    };
    image.set_onload(Some(loaded.unchecked_ref()));
    image.set_onerror(Some(failed.unchecked_ref()));
    image.set_src(&address);
}

fn svg_address(text: &str) -> Result<String, String> {
    let options = BlobPropertyBag::new();
    options.set_type("image/svg+xml");
    let blob = Blob::new_with_str_sequence_and_options(&Array::of1(&text.into()), &options)
        .map_err(|_| "the browser could not hold the picture")?;
    Url::create_object_url_with_blob(&blob).map_err(|_| "no address for the picture".to_string())
}

fn draw(
    image: &HtmlImageElement,
    width_px: u32,
    height_px: u32,
) -> Result<HtmlCanvasElement, String> {
    let canvas = web_sys::window()
        .and_then(|window| window.document())
        .and_then(|document| document.create_element("canvas").ok())
        .and_then(|element| element.dyn_into::<HtmlCanvasElement>().ok())
        .ok_or("the browser could not make a canvas")?;
    canvas.set_width(width_px);
    canvas.set_height(height_px);
    let context = canvas
        .get_context("2d")
        .ok()
        .flatten()
        .and_then(|context| context.dyn_into::<web_sys::CanvasRenderingContext2d>().ok())
        .ok_or("the canvas has no 2D drawing")?;
    context
        .draw_image_with_html_image_element_and_dw_and_dh(
            image,
            0.0,
            0.0,
            width_px as f64,
            height_px as f64,
        )
        .map_err(|_| "the browser could not draw the picture".to_string())?;
    Ok(canvas)
}

fn read_png(canvas: &HtmlCanvasElement, done: Done) {
    let finish = {
        let done = done.clone();
        Closure::once_into_js(move |blob: JsValue| {
            if let Some(done) = done.take() {
                done(
                    blob.dyn_into::<Blob>()
                        .map_err(|_| "the canvas gave no PNG".to_string()),
                );
            }
        })
    };
    if canvas
        .to_blob_with_type(finish.unchecked_ref(), "image/png")
        .is_err()
    {
        if let Some(done) = done.take() {
            done(Err("the canvas could not be read".to_string()));
        }
    }
}
