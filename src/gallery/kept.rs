//! Imported scenarios kept across visits: each one's number, file name and text, stored in this
//! browser's localStorage under [`STORAGE_KEY`], so an instructor who prepared a demo the day before
//! finds it in the gallery in front of the class. The text is kept rather than the parsed scenario, so
//! a later version of the app parses it afresh (and says which one it can no longer read). Plain Rust,
//! tested natively; `components::gallery` reads and writes the storage.

use super::MAX_IMPORTED;
use serde::{Deserialize, Serialize};

/// The localStorage key holding the kept imports, as JSON.
pub const STORAGE_KEY: &str = "quorumlab.gallery.imported";
/// A scenario longer than this joins the gallery for the visit only: browsers give a site a few
/// megabytes of storage, and twenty large files would fill it.
pub const MAX_KEPT_TEXT_BYTES: usize = 100_000;

/// One imported scenario as stored.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct KeptImport {
    /// Its gallery id is `imported-<number>`, the same on every visit.
    pub number: usize,
    pub file_name: String,
    pub text: String,
}

/// The stored form of `kept`.
pub fn encode(kept: &[KeptImport]) -> String {
    serde_json::to_string(kept).unwrap_or_else(|_| "[]".into())
}

/// What storage held, newest last. Unreadable storage (another app's key, a hand edit) keeps nothing
/// and says why; entries past the limits are dropped, so no stored value can grow the gallery beyond
/// [`MAX_IMPORTED`] cards.
pub fn decode(stored: &str) -> Result<Vec<KeptImport>, String> {
    let mut kept: Vec<KeptImport> = serde_json::from_str(stored)
        .map_err(|error| format!("the kept imports could not be read ({error})"))?;
    kept.retain(|entry| entry.number > 0 && entry.text.len() <= MAX_KEPT_TEXT_BYTES);
    if kept.len() > MAX_IMPORTED {
        kept.drain(..kept.len() - MAX_IMPORTED);
    }
    Ok(kept)
}

/// Adds `entry` unless its text is too long to keep (then false); the oldest gives way past
/// [`MAX_IMPORTED`], as the gallery's own list does.
pub fn keep(kept: &mut Vec<KeptImport>, entry: KeptImport) -> bool {
    if entry.text.len() > MAX_KEPT_TEXT_BYTES {
        return false;
    }
    kept.push(entry);
    if kept.len() > MAX_IMPORTED {
        kept.remove(0);
    }
    true
}

/// Drops the import numbered `number`; false when none was kept.
pub fn forget(kept: &mut Vec<KeptImport>, number: usize) -> bool {
    let before = kept.len();
    kept.retain(|entry| entry.number != number);
    kept.len() != before
}

/// The number of an imported card's id (`imported-3` is 3).
pub fn number_of(id: &str) -> Option<usize> {
    id.strip_prefix(super::IMPORTED_PREFIX)?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(number: usize, text: &str) -> KeptImport {
        KeptImport {
            number,
            file_name: format!("demo-{number}.toml"),
            text: text.into(),
        }
    }

    #[test]
    fn what_is_kept_reads_back_the_same() {
        let kept = vec![entry(1, "nodes = 3\n"), entry(4, "# “quoted”\nnodes = 5\n")];
        assert_eq!(decode(&encode(&kept)), Ok(kept));
    }

    #[test]
    fn unreadable_storage_keeps_nothing_and_says_why() {
        for stored in ["", "not json", "{\"number\": 1}", "[{\"number\": \"one\"}]"] {
            let problem = decode(stored).expect_err(stored);
            assert!(
                problem.starts_with("the kept imports could not be read"),
                "{problem}"
            );
        }
    }

    #[test]
    fn stored_entries_past_the_limits_are_dropped() {
        let mut stored: Vec<KeptImport> = (1..=MAX_IMPORTED + 5).map(|n| entry(n, "x")).collect();
        stored.push(entry(0, "a number no import gets"));
        stored.push(entry(99, &"#".repeat(MAX_KEPT_TEXT_BYTES + 1)));
        let kept = decode(&encode(&stored)).unwrap();
        assert_eq!(kept.len(), MAX_IMPORTED);
        assert_eq!(
            kept.first().map(|entry| entry.number),
            Some(6),
            "the oldest gave way"
        );
        assert_eq!(
            kept.last().map(|entry| entry.number),
            Some(MAX_IMPORTED + 5)
        );
    }

    #[test]
    fn keeping_drops_the_oldest_and_refuses_a_text_too_long() {
        let mut kept = Vec::new();
        for number in 1..=MAX_IMPORTED + 1 {
            assert!(keep(&mut kept, entry(number, "nodes = 3")));
        }
        assert_eq!(kept.len(), MAX_IMPORTED);
        assert_eq!(kept[0].number, 2);
        let long = entry(50, &"#".repeat(MAX_KEPT_TEXT_BYTES + 1));
        assert!(!keep(&mut kept, long));
        assert_eq!(kept.len(), MAX_IMPORTED);
    }

    #[test]
    fn forgetting_removes_only_that_number() {
        let mut kept = vec![entry(1, "a"), entry(2, "b")];
        assert!(forget(&mut kept, 1));
        assert!(!forget(&mut kept, 1));
        assert_eq!(kept, vec![entry(2, "b")]);
        assert_eq!(number_of("imported-12"), Some(12));
        assert_eq!(number_of("leader-crash"), None);
        assert_eq!(number_of("imported-x"), None);
    }
}
