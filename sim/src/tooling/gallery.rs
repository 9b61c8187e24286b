//! The instructors' gallery: what each example scenario is for, as data beside the scenarios
//! (`sim/gallery.toml`, compiled in). Each note gives a one-line summary, what to try in front of a
//! class and what the class should see; `demo` marks the examples worth opening paused with their
//! fault schedule showing. The app lists these; tests check every example has exactly one note.

use crate::tooling::scenario::all_examples;
use serde::Deserialize;

/// The notes file as written.
pub const NOTES_TOML: &str = include_str!("../../gallery.toml");

/// What the gallery says about one example.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GalleryNote {
    /// The example's file name in `sim/scenarios/`.
    pub file: String,
    pub summary: String,
    #[serde(rename = "try")]
    pub try_this: String,
    pub see: String,
    #[serde(default)]
    pub demo: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NotesFile {
    entry: Vec<GalleryNote>,
}

/// One gallery item: the example's id (its file name without `.toml`), its TOML and its note.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GalleryExample {
    pub id: String,
    pub file: &'static str,
    pub text: &'static str,
    pub note: GalleryNote,
}

/// The id an example goes by in addresses: its file name without `.toml`.
pub fn example_id(file: &str) -> &str {
    file.strip_suffix(".toml").unwrap_or(file)
}

/// Reads a notes file; the error names what is wrong with it.
pub fn parse_notes(text: &str) -> Result<Vec<GalleryNote>, String> {
    let notes: NotesFile =
        toml::from_str(text).map_err(|error| format!("gallery notes: {error}"))?;
    Ok(notes.entry)
}

/// Every example in the notes' order, each with its note. Examples without a note come last, with an
/// empty one, so a forgotten note hides nothing (a test refuses it anyway).
pub fn examples() -> Vec<GalleryExample> {
    let notes = parse_notes(NOTES_TOML).unwrap_or_default();
    let mut listed: Vec<GalleryExample> = notes
        .into_iter()
        .filter_map(|note| {
            let (file, text) = all_examples().find(|(file, _)| *file == note.file)?;
            Some(GalleryExample {
                id: example_id(file).to_string(),
                file,
                text,
                note,
            })
        })
        .collect();
    for (file, text) in all_examples() {
        if !listed.iter().any(|example| example.file == file) {
            listed.push(GalleryExample {
                id: example_id(file).to_string(),
                file,
                text,
                note: GalleryNote {
                    file: file.to_string(),
                    summary: String::new(),
                    try_this: String::new(),
                    see: String::new(),
                    demo: false,
                },
            });
        }
    }
    listed
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tooling::scenario::parse_scenario;

    #[test]
    fn every_example_has_exactly_one_complete_note() {
        let notes = parse_notes(NOTES_TOML).expect("the notes file reads");
        for (file, _) in all_examples() {
            let count = notes.iter().filter(|note| note.file == file).count();
            assert_eq!(count, 1, "{file} has {count} notes");
        }
        for note in &notes {
            assert!(
                all_examples().any(|(file, _)| file == note.file),
                "a note for {}, which is not an example",
                note.file
            );
            for (field, text) in [
                ("summary", &note.summary),
                ("try", &note.try_this),
                ("see", &note.see),
            ] {
                assert!(!text.trim().is_empty(), "{}: empty {field}", note.file);
            }
        }
        assert!(examples()
            .iter()
            .all(|example| !example.note.see.is_empty()));
    }

    #[test]
    fn the_gallery_lists_every_example_once_and_each_parses() {
        let listed = examples();
        assert_eq!(listed.len(), all_examples().count());
        for example in &listed {
            assert!(
                parse_scenario(example.text, example.file).is_ok(),
                "{}",
                example.file
            );
            assert_eq!(format!("{}.toml", example.id), example.file);
        }
    }

    #[test]
    fn a_bad_notes_file_is_an_error_that_names_the_key() {
        let error = parse_notes("[[entry]]\nfile = \"a.toml\"\nsumary = \"x\"\n").unwrap_err();
        assert!(error.contains("sumary"), "{error}");
        // A note with a missing field is refused too, not filled with nothing.
        assert!(parse_notes("[[entry]]\nfile = \"a.toml\"\n").is_err());
    }
}
