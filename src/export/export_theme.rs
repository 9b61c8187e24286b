//! Reading a drawing's colours in the theme the picture asks for, whatever the page shows.
//!
//! Every colour of the page is a variable written `light-dark(light, dark)` (style/theme.css), and
//! `light-dark()` is resolved where a variable is *used*, by the `color-scheme` of that element. So the
//! light colours of a drawing are what its computed styles say once its panel has `color-scheme: light`.
//! To read them, the panel (the drawing's backdrop, an ancestor of the drawing) gets the attribute
//! `data-export-theme="light"` for as long as the copy is styled, and loses it right after; a rule in
//! style/access.css turns that attribute into `color-scheme: light`. All of it happens in one task, so the
//! browser never paints the light panel; reading a computed style makes the browser apply the change
//! to the styles at once.
//!
//! Why not map the dark colours to light ones, or copy the light values out of the stylesheet: either
//! would be a second list of the theme's colours that drifts from style/theme.css. Why not switch
//! `<html data-theme>`: that would restyle the whole page (and its charts, which listen), not one panel.
//!
//! Transitions are the catch: a node's fill eases over 0.2 s, and a computed style read during a
//! transition gives the value it starts from (the dark one). `data-export-still` turns transitions off
//! in the panel for the whole read, and stays on until the panel's styles are back to the screen's, so
//! giving the light colours back starts no easing either (which would be a visible flash).

use super::ExportTheme;
use web_sys::{Element, Window};

const THEME_ATTRIBUTE: &str = "data-export-theme";
const STILL_ATTRIBUTE: &str = "data-export-still";

/// Runs `read` with `backdrop` (and everything in it) styled in `theme`, then puts the screen's styles
/// back.
pub fn under_theme<T>(
    window: &Window,
    backdrop: &Element,
    theme: ExportTheme,
    read: impl FnOnce() -> T,
) -> T {
    let _ = backdrop.set_attribute(STILL_ATTRIBUTE, "");
    if theme == ExportTheme::Light {
        let _ = backdrop.set_attribute(THEME_ATTRIBUTE, "light");
    }
    let result = read();
    if theme == ExportTheme::Light {
        let _ = backdrop.remove_attribute(THEME_ATTRIBUTE);
        // Styles applied back with transitions still off, before they are turned on again.
        flush_styles(window, backdrop);
    }
    let _ = backdrop.remove_attribute(STILL_ATTRIBUTE);
    result
}

/// Makes the browser apply pending style changes now: reading a computed value needs them applied.
fn flush_styles(window: &Window, element: &Element) {
    if let Ok(Some(style)) = window.get_computed_style(element) {
        let _ = style.get_property_value("color");
    }
}
