//! A world's state as a card of plain rows, for a world whose folder describes itself in words rather
//! than through a panel the app draws for it alone. The app shows any world's rows the same way (its
//! `world_panel` component), so a new world needs no app code to have a card.

use crate::base::ids::NodeId;
use serde::Serialize;

/// The card: a title, a few words on what it shows, and one row per line.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize)]
pub struct PanelRows {
    /// The world's short title ("Paxos"); with `world` it also names the card for tests and styles.
    pub title: &'static str,
    /// The world's registry name (`paxos`): the card is `paxos-panel`.
    pub world: &'static str,
    /// What the rows show, in a few words.
    pub subtitle: &'static str,
    pub rows: Vec<PanelRow>,
}

/// One line of the card: a short label in bold and its value in words.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct PanelRow {
    /// The node the row is about, if any (a summary row has none).
    pub node: Option<NodeId>,
    pub label: String,
    pub value: String,
    /// A few words for the node's caption on the cluster drawing, where `value` is too long for it.
    pub caption: Option<String>,
}

impl PanelRow {
    pub fn new(node: Option<NodeId>, label: String, value: String) -> PanelRow {
        PanelRow {
            node,
            label,
            value,
            caption: None,
        }
    }

    /// The same row with a shorter text for the node's caption.
    pub fn captioned(self, caption: String) -> PanelRow {
        PanelRow {
            caption: Some(caption),
            ..self
        }
    }
}
