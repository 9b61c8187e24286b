//! The instructors' gallery as the page holds it: every example scenario with its notes (from
//! `quorumlab_sim::gallery`), plus the scenarios an instructor imported (kept in this browser, see
//! `kept`), and the addresses that open them. Plain Rust, tested natively; the dialog is
//! `components::gallery`.
//!
//! Addresses: `#/gallery` shows the list; `#/gallery/<id>` opens an example (paused with its fault
//! schedule showing when its note says `demo`), `#/gallery/<id>/demo` opens any of them that way.
//! Imported scenarios go by `imported-1`, `imported-2`, ..., the same on every visit.

pub mod kept;
pub mod route;

use quorumlab_sim::gallery::examples;
use quorumlab_sim::scenario::{parse_scenario, shown, Scenario};
use quorumlab_sim::suggest::did_you_mean;

/// The invariant the gallery's "Can it break?" looks for: the one the scenario's own story breaks first
/// (can the search find the break on its own, and a shorter way?), or `None`, any invariant, when the
/// story breaks none (a safe design: does anything break within the bounds?). The story is played
/// headless to its end, as `quorumlab run` plays it: a fraction of a second for any example.
pub fn search_invariant(scenario: &Scenario) -> Option<String> {
    let report = quorumlab_sim::runner::run_scenario(scenario).ok()?;
    let listed: Vec<&str> = scenario
        .protocol
        .entry()
        .invariants()
        .map(|invariant| invariant.name)
        .collect();
    report
        .world
        .violations
        .iter()
        .min_by_key(|violation| violation.at_ms)
        .map(|violation| violation.invariant.clone())
        .filter(|name| listed.contains(&name.as_str()))
}

/// Whether a card offers "Can it break?": its world lists invariants for the search to break (every
/// registered world does; the test below keeps it so).
pub fn offers_search(scenario: &Scenario) -> bool {
    scenario.protocol.entry().invariants().next().is_some()
}

/// Imported scenarios kept, at most (older ones give way).
pub const MAX_IMPORTED: usize = 20;
/// The prefix of an imported scenario's id.
pub const IMPORTED_PREFIX: &str = "imported-";

/// One card of the gallery.
#[derive(Clone, Debug, PartialEq)]
pub struct GalleryItem {
    pub id: String,
    pub title: String,
    pub summary: String,
    pub try_this: String,
    pub see: String,
    /// Opened paused, with the fault schedule showing, even without `/demo` in the address.
    pub demo: bool,
    pub scenario: Scenario,
    pub imported: bool,
}

/// Every example that parses, in the notes' order (Raft first).
pub fn built_in() -> Vec<GalleryItem> {
    examples()
        .into_iter()
        .filter_map(|example| {
            let scenario = parse_scenario(example.text, example.file).ok()?;
            Some(GalleryItem {
                id: example.id,
                title: scenario.title.clone(),
                summary: example.note.summary,
                try_this: example.note.try_this,
                see: example.note.see,
                demo: example.note.demo,
                scenario,
                imported: false,
            })
        })
        .collect()
}

/// A gallery card for a scenario an instructor imported: its file's opening comment is its summary.
pub fn imported_item(
    number: usize,
    file_name: &str,
    text: &str,
    scenario: Scenario,
) -> GalleryItem {
    let comment: Vec<&str> = text
        .lines()
        .map(str::trim)
        .take_while(|line| line.starts_with('#'))
        .map(|line| line.trim_start_matches('#').trim())
        .collect();
    let summary = if comment.is_empty() {
        format!("Imported from {file_name}.")
    } else {
        comment.join(" ")
    };
    GalleryItem {
        id: format!("{IMPORTED_PREFIX}{number}"),
        title: scenario.title.clone(),
        summary,
        try_this: String::new(),
        see: String::new(),
        demo: false,
        scenario,
        imported: true,
    }
}

/// Adds `item` to the session's imported list, dropping the oldest past [`MAX_IMPORTED`].
pub fn remember(imported: &mut Vec<GalleryItem>, item: GalleryItem) {
    imported.push(item);
    if imported.len() > MAX_IMPORTED {
        imported.remove(0);
    }
}

/// The card with `id` among the built-in and imported ones.
pub fn find<'a>(
    built_in: &'a [GalleryItem],
    imported: &'a [GalleryItem],
    id: &str,
) -> Option<&'a GalleryItem> {
    built_in.iter().chain(imported).find(|item| item.id == id)
}

/// Why no card has `id`, for the notice: an import kept in another browser, or a slip in the address
/// (answered with the closest ids, never the whole gallery).
pub fn no_card(built_in: &[GalleryItem], imported: &[GalleryItem], id: &str) -> String {
    if id.starts_with(IMPORTED_PREFIX) {
        return format!(
            "`{}` is not among this browser's imports (it was removed, or imported in another browser)",
            shown(id)
        );
    }
    let ids = built_in.iter().chain(imported).map(|item| item.id.as_str());
    format!(
        "the gallery has no scenario `{}`; {}",
        shown(id),
        did_you_mean(id, ids, "scenario", "the gallery")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn can_it_break_looks_first_for_what_the_story_breaks_and_else_for_any() {
        let cards = built_in();
        let card = |id: &str| &cards.iter().find(|item| item.id == id).unwrap().scenario;
        assert_eq!(
            search_invariant(card("paxos-forgetful-acceptor")).as_deref(),
            Some("Agreement")
        );
        assert_eq!(
            search_invariant(card("pbft-misconfigured-three")).as_deref(),
            Some("Honest Agreement")
        );
        assert_eq!(search_invariant(card("fencing-pause")), None);
        // Every built-in card offers the search, and what it preselects is one of its world's own.
        for item in &cards {
            assert!(offers_search(&item.scenario), "{}", item.id);
            if let Some(name) = search_invariant(&item.scenario) {
                let kind = item.scenario.protocol.kind();
                let listed = crate::world_text::capabilities::relevant_invariants(kind);
                assert!(listed.contains(&name.as_str()), "{}: {name}", item.id);
            }
        }
    }

    #[test]
    fn a_missing_card_is_answered_with_the_closest_ids() {
        let cards = built_in();
        let first = &cards[0].id;
        let slip = format!("{}x", first);
        assert_eq!(
            no_card(&cards, &[], &slip),
            format!("the gallery has no scenario `{slip}`; did you mean `{first}`?")
        );
        let far = no_card(&cards, &[], "zzzzzzzzzz");
        assert_eq!(
            far,
            format!(
                "the gallery has no scenario `zzzzzzzzzz`; nothing close among the {} scenarios \
                 (listed in the gallery)",
                cards.len()
            )
        );
        assert!(no_card(&cards, &[], "imported-3").contains("not among this browser's imports"));
    }

    #[test]
    fn every_example_is_a_card_raft_ones_included() {
        let cards = built_in();
        assert_eq!(cards.len(), quorumlab_sim::scenario::all_examples().count());
        for id in [
            "split-vote",
            "two-regions",
            "one-node",
            "fifty-one-nodes",
            "fencing-pause",
        ] {
            let card = find(&cards, &[], id).unwrap_or_else(|| panic!("{id}"));
            assert!(!card.see.is_empty() && !card.try_this.is_empty(), "{id}");
        }
        assert_eq!(cards[0].scenario.protocol_name(), "raft");
    }

    #[test]
    fn an_import_is_named_by_its_comment_and_the_oldest_gives_way() {
        let text = "# Two nodes, no majority after one crash\nprotocol = \"raft\"\nnodes = 2\nduration_ms = 1000\n";
        let scenario = parse_scenario(text, "mine.toml").unwrap();
        let item = imported_item(1, "mine.toml", text, scenario.clone());
        assert_eq!(item.id, "imported-1");
        assert_eq!(item.summary, "Two nodes, no majority after one crash");
        let plain = imported_item(2, "plain.toml", "nodes = 2", scenario.clone());
        assert_eq!(plain.summary, "Imported from plain.toml.");
        let mut imported = Vec::new();
        for number in 1..=MAX_IMPORTED + 2 {
            remember(
                &mut imported,
                imported_item(number, "x", "", scenario.clone()),
            );
        }
        assert_eq!(imported.len(), MAX_IMPORTED);
        assert_eq!(imported[0].id, "imported-3");
        assert!(find(&[], &imported, "imported-22").is_some());
        assert!(find(&[], &imported, "imported-1").is_none());
    }
}
