//! Light or dark: the reader's choice (follow the system, light, or dark), remembered in localStorage.
//!
//! The colours themselves are CSS variables written as `light-dark(light, dark)` (style/main.css), so
//! the stylesheet alone follows `prefers-color-scheme`. A choice other than "system" is applied as
//! `data-theme` on `<html>`, which pins `color-scheme`; the inline script in index.html does the same
//! before the first paint, so a reload never flashes the other theme. The app also needs to know the
//! theme in effect: the charts paint a canvas, which CSS cannot recolour, and repaint when it changes.

use leptos::prelude::*;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// The localStorage key; index.html's inline script reads the same one.
pub const STORAGE_KEY: &str = "quorumlab-theme";
const SYSTEM_LIGHT_QUERY: &str = "(prefers-color-scheme: light)";

/// What the reader picked in the header.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ThemeChoice {
    System,
    Light,
    Dark,
}

/// The theme in effect.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Theme {
    Light,
    Dark,
}

impl ThemeChoice {
    pub const ALL: [ThemeChoice; 3] = [ThemeChoice::System, ThemeChoice::Light, ThemeChoice::Dark];

    /// The stored word, also the value of `data-theme` (none for `System`).
    pub fn as_str(self) -> &'static str {
        match self {
            ThemeChoice::System => "system",
            ThemeChoice::Light => "light",
            ThemeChoice::Dark => "dark",
        }
    }

    /// A stored word back to a choice; anything else (missing, edited by hand) means "system".
    pub fn from_stored(text: Option<&str>) -> ThemeChoice {
        match text {
            Some("light") => ThemeChoice::Light,
            Some("dark") => ThemeChoice::Dark,
            _ => ThemeChoice::System,
        }
    }

    pub fn resolve(self, system_prefers_light: bool) -> Theme {
        match (self, system_prefers_light) {
            (ThemeChoice::Light, _) | (ThemeChoice::System, true) => Theme::Light,
            (ThemeChoice::Dark, _) | (ThemeChoice::System, false) => Theme::Dark,
        }
    }
}

/// The choice and the system's preference, shared through context.
#[derive(Clone, Copy)]
pub struct ThemeState {
    pub choice: RwSignal<ThemeChoice>,
    /// Whether the system asks for light; follows the system live (a media query listener).
    pub system_light: RwSignal<bool>,
    /// False once a link chose the theme for this page alone (an embed in a slide): nothing is stored
    /// then, so the viewer's own choice is there the next time they open the app.
    pub remembered: RwSignal<bool>,
}

impl ThemeState {
    pub fn resolved(&self) -> Theme {
        self.choice.get().resolve(self.system_light.get())
    }

    /// Reads the stored choice, listens to the system, and keeps `<html data-theme>` and storage in step.
    pub fn install() -> ThemeState {
        let stored = storage().and_then(|storage| storage.get_item(STORAGE_KEY).ok().flatten());
        let theme = ThemeState {
            choice: RwSignal::new(ThemeChoice::from_stored(stored.as_deref())),
            system_light: RwSignal::new(false),
            remembered: RwSignal::new(true),
        };
        if let Some(query) = system_light_query() {
            theme.system_light.set(query.matches());
            let system_light = theme.system_light;
            let listener = Closure::<dyn Fn(web_sys::MediaQueryListEvent)>::new(
                move |event: web_sys::MediaQueryListEvent| {
                    _ = system_light.try_set(event.matches())
                },
            );
            let _ =
                query.add_event_listener_with_callback("change", listener.as_ref().unchecked_ref());
            // The listener lives as long as the page (the app is never unmounted).
            listener.forget();
        }
        Effect::new(move |_| apply(theme.choice.get(), theme.remembered.get_untracked()));
        theme
    }

    /// Shows `choice` on this page without storing it.
    pub fn show_for_this_page(&self, choice: ThemeChoice) {
        self.remembered.set(false);
        self.choice.set(choice);
    }
}

fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok().flatten()
}

fn system_light_query() -> Option<web_sys::MediaQueryList> {
    web_sys::window()?
        .match_media(SYSTEM_LIGHT_QUERY)
        .ok()
        .flatten()
}

/// Puts `choice` on `<html>` and, if `remember`, in storage; a refused write (private mode) only loses
/// the memory.
fn apply(choice: ThemeChoice, remember: bool) {
    let root = web_sys::window()
        .and_then(|window| window.document())
        .and_then(|document| document.document_element());
    if let Some(root) = root {
        let _ = match choice {
            ThemeChoice::System => root.remove_attribute("data-theme"),
            _ => root.set_attribute("data-theme", choice.as_str()),
        };
    }
    if let Some(storage) = storage().filter(|_| remember) {
        let _ = storage.set_item(STORAGE_KEY, choice.as_str());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stored_word_round_trips_and_anything_else_follows_the_system() {
        for choice in ThemeChoice::ALL {
            assert_eq!(ThemeChoice::from_stored(Some(choice.as_str())), choice);
        }
        assert_eq!(ThemeChoice::from_stored(None), ThemeChoice::System);
        assert_eq!(ThemeChoice::from_stored(Some("Light")), ThemeChoice::System);
    }

    #[test]
    fn only_system_follows_the_system() {
        assert_eq!(ThemeChoice::System.resolve(true), Theme::Light);
        assert_eq!(ThemeChoice::System.resolve(false), Theme::Dark);
        assert_eq!(ThemeChoice::Dark.resolve(true), Theme::Dark);
        assert_eq!(ThemeChoice::Light.resolve(false), Theme::Light);
    }
}
