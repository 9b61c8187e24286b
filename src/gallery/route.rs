//! Gallery addresses: `#/gallery` (the list), `#/gallery/<id>`, `#/gallery/<id>/demo` and
//! `#/gallery/<id>/search` (opened paused with "Can it break?" ready). Reading one
//! checks only its shape; whether the id names a card is the gallery's question, so each refusal can
//! say exactly what is wrong.

use quorumlab_sim::scenario::shown;

pub const GALLERY_PREFIX: &str = "#/gallery";

/// A gallery address, as read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GalleryRoute {
    /// The list itself.
    List,
    /// One scenario; `demo` opens it paused with its fault schedule showing.
    Open { id: String, demo: bool },
    /// One scenario, paused, with the "Can it break?" card open and ready to search it.
    Search { id: String },
}

/// Goes to a gallery address: a new history entry, so back returns to what was there before.
pub fn go_to(route: &GalleryRoute) {
    if let Some(window) = web_sys::window() {
        let _ = window.location().set_hash(&gallery_fragment(route));
    }
}

/// Opens the gallery (the `G` shortcut).
pub fn open_gallery() {
    go_to(&GalleryRoute::List);
}

/// Whether `fragment` is meant as a gallery address at all.
pub fn is_gallery_fragment(fragment: &str) -> bool {
    fragment == GALLERY_PREFIX || fragment.starts_with("#/gallery/")
}

/// The address of the list, or of one scenario.
pub fn gallery_fragment(route: &GalleryRoute) -> String {
    match route {
        GalleryRoute::List => GALLERY_PREFIX.to_string(),
        GalleryRoute::Open { id, demo: false } => format!("{GALLERY_PREFIX}/{id}"),
        GalleryRoute::Open { id, demo: true } => format!("{GALLERY_PREFIX}/{id}/demo"),
        GalleryRoute::Search { id } => format!("{GALLERY_PREFIX}/{id}/search"),
    }
}

/// Reads a gallery address; the error says what is wrong with it.
pub fn parse_gallery_route(fragment: &str) -> Result<GalleryRoute, String> {
    if !is_gallery_fragment(fragment) {
        return Err(format!("a gallery address starts with `{GALLERY_PREFIX}`"));
    }
    let rest = fragment[GALLERY_PREFIX.len()..].trim_matches('/');
    if rest.is_empty() {
        return Ok(GalleryRoute::List);
    }
    let mut parts = rest.split('/');
    let mut id = parts.next().unwrap_or_default().to_string();
    // A world's own examples are named for its folder: `two-phase-commit/coordinator-crash`.
    if quorumlab_sim::registry::by_name(&id).is_some() {
        if let Some(file) = parts.next() {
            id = format!("{id}/{file}");
        }
    }
    let well_formed = |segment: &str| {
        !segment.is_empty()
            && segment.chars().all(|character| {
                character.is_ascii_lowercase() || character.is_ascii_digit() || character == '-'
            })
    };
    if id.len() > 64 || !id.split('/').all(well_formed) {
        return Err(format!(
            "`{}` is not a scenario id (lowercase letters, digits and dashes)",
            shown(&id)
        ));
    }
    match (parts.next(), parts.next()) {
        (None, _) => Ok(GalleryRoute::Open { id, demo: false }),
        (Some("demo"), None) => Ok(GalleryRoute::Open { id, demo: true }),
        (Some("search"), None) => Ok(GalleryRoute::Search { id }),
        _ => {
            Err("after the scenario id the address may only hold `/demo` or `/search`".to_string())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn open(id: &str, demo: bool) -> GalleryRoute {
        GalleryRoute::Open {
            id: id.to_string(),
            demo,
        }
    }

    #[test]
    fn every_form_round_trips() {
        for route in [
            GalleryRoute::List,
            open("split-vote", false),
            open("one-node", true),
            GalleryRoute::Search {
                id: "paxos-forgetful-acceptor".to_string(),
            },
            GalleryRoute::Search {
                id: "two-phase-commit/coordinator-crash".to_string(),
            },
        ] {
            assert_eq!(parse_gallery_route(&gallery_fragment(&route)), Ok(route));
        }
        assert_eq!(parse_gallery_route("#/gallery/"), Ok(GalleryRoute::List));
        assert_eq!(
            parse_gallery_route("#/gallery/split-vote/demo/"),
            Ok(open("split-vote", true))
        );
    }

    #[test]
    fn a_worlds_own_example_keeps_its_folder_in_the_id() {
        let id = "two-phase-commit/coordinator-crash";
        assert_eq!(
            parse_gallery_route(&format!("#/gallery/{id}/demo")),
            Ok(open(id, true))
        );
        assert_eq!(
            parse_gallery_route(&format!("#/gallery/{id}")),
            Ok(open(id, false))
        );
        // Only a world's name opens a folder: any other first part is a whole id.
        assert!(parse_gallery_route("#/gallery/split-vote/coordinator-crash").is_err());
        assert!(parse_gallery_route("#/gallery/two-phase-commit/").is_ok());
        let refused = parse_gallery_route("#/gallery/two-phase-commit/Crash").unwrap_err();
        assert!(refused.contains("not a scenario id"), "{refused}");
    }

    #[test]
    fn malformed_addresses_say_what_is_wrong() {
        let error = |fragment| parse_gallery_route(fragment).unwrap_err();
        assert!(error("#/gallery/Split").contains("`Split` is not a scenario id"));
        assert!(error("#/gallery/a/play").contains("only hold `/demo`"));
        assert!(error("#/gallery/a/demo/x").contains("only hold `/demo`"));
        assert!(error("#/gallery/a/search/x").contains("or `/search`"));
        assert!(error("#/galleryx").contains("starts with"));
        assert!(!error("#/gallery/a\u{7}").chars().any(char::is_control));
        assert!(!is_gallery_fragment("#/lesson/a") && !is_gallery_fragment("#/run/v4/x"));
    }
}
