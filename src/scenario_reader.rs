//! Reading scenario files, as a part that arrives just after the first paint.
//!
//! The default playground is built in code (`state::default_scenario`), so drawing and running it needs
//! no scenario file. Everything that reads one — the TOML parser, the scenario checks, every example's
//! text turned into a run — is needed only for what comes next: the protocol picker's examples, the
//! gallery's cards, a gallery address, the imports this browser kept. So that code is a part
//! (`crate::lazy_part` explains parts) which the picker and the gallery ask for as the page starts;
//! it is usually here before the learner has found the picker. Until then the picker offers the
//! playground alone, and a gallery address shows the "Opening the link…" line.
//!
//! If the part cannot arrive (offline before the service worker kept it), the picker says so in its
//! list and the notice bar says why a gallery address did not open; the run on screen is untouched.

use crate::gallery::GalleryItem;
use crate::lazy_part::PartMissing;
use crate::transfer::ImportError;
use quorumlab_sim::scenario::Scenario;
use std::cell::Cell;

/// The reader part's functions.
#[derive(Clone, Copy)]
pub struct ScenarioReader {
    /// An imported scenario file, checked (`transfer::import_scenario`).
    pub import: fn(&str, &str) -> Result<Scenario, ImportError>,
    /// Every example that parses, as `(file name, scenario)`, in teaching order.
    pub examples: fn() -> Vec<(&'static str, Scenario)>,
    /// The gallery's built-in cards (`gallery::built_in`).
    pub gallery_cards: fn() -> Vec<GalleryItem>,
}

thread_local! {
    static ARRIVED: Cell<Option<ScenarioReader>> = const { Cell::new(None) };
}

/// Runs `then` with the reader: at once when it is here (always, natively), else once its part has
/// arrived or failed to.
pub fn with_reader(then: impl FnOnce(Result<ScenarioReader, PartMissing>) + 'static) {
    if let Some(reader) = here() {
        then(Ok(reader));
        return;
    }
    leptos::task::spawn_local(async move {
        let fetched = crate::arrival!(scenario_reader()).await;
        if let Ok(reader) = fetched {
            ARRIVED.with(|arrived| arrived.set(Some(reader)));
        }
        then(fetched);
    });
}

fn here() -> Option<ScenarioReader> {
    #[cfg(not(feature = "split"))]
    let here = Some(the_reader());
    #[cfg(feature = "split")]
    let here = ARRIVED.with(Cell::get);
    here
}

/// The sentence for a scenario file that could not be read because the reader is missing.
pub const READER_MISSING: &str =
    "the code that reads scenario files could not be loaded (check the connection and reload)";

#[cfg_attr(feature = "split", leptos::wasm_split::wasm_split(scenario_reader, wasm_split_path = ::leptos::wasm_split, fallible))]
fn scenario_reader() -> Result<ScenarioReader, PartMissing> {
    Ok(the_reader())
}

/// The reader itself (tests call it directly; the page only through [`with_reader`]).
pub(crate) fn the_reader() -> ScenarioReader {
    ScenarioReader {
        import: crate::transfer::import_scenario,
        examples: parsed_examples,
        gallery_cards: crate::gallery::built_in,
    }
}

fn parsed_examples() -> Vec<(&'static str, Scenario)> {
    quorumlab_sim::scenario::EXAMPLES
        .iter()
        .filter_map(|(name, text)| {
            quorumlab_sim::scenario::parse_scenario(text, name)
                .ok()
                .map(|scenario| (*name, scenario))
        })
        .collect()
}
