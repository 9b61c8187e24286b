//! The legend of an exported drawing: what its colours and shapes mean, in the page's own words — the
//! roles and kinds a node's caption writes ("leader", "worker", "resource"), the message kinds the
//! page names in its labels and hover captions ("AppendEntries ok"), the fates a message's caption
//! tells ("lost", "handled late") and the diagram's own hint ("each line is a node; each arrow a
//! message").
//!
//! Only what the drawing shows is explained: an entry is kept when its element is in the drawing, and
//! its swatch is painted with that element's computed fill and stroke, so the legend's colours are the
//! picture's colours, in the theme it was exported in.

use super::frame::{LegendItem, Swatch};
use super::Picture;
use std::collections::BTreeSet;
use wasm_bindgen::JsCast;
use web_sys::{Element, Window};

/// A legend entry that may apply: the element whose paint it shows, and its words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LegendKey {
    pub selector: &'static str,
    pub label: &'static str,
    pub swatch: Swatch,
}

const fn key(selector: &'static str, label: &'static str, swatch: Swatch) -> LegendKey {
    LegendKey {
        selector,
        label,
        swatch,
    }
}

const CLUSTER_KEYS: [LegendKey; 11] = [
    key(
        ".node.role-leader circle.node-body",
        "leader",
        Swatch::Circle,
    ),
    key(
        ".node.role-follower.status-up circle.node-body",
        "follower",
        Swatch::Circle,
    ),
    key(
        ".node.role-candidate circle.node-body, .node.role-pre-candidate circle.node-body",
        "candidate",
        Swatch::Circle,
    ),
    key(".node-body.kind-learner", "learner", Swatch::Diamond),
    key(".node-body.kind-worker", "worker", Swatch::Square),
    key(".node-body.kind-resource", "resource", Swatch::Hexagon),
    key(".node.status-paused .node-body", "paused", Swatch::Circle),
    key(".node.status-crashed .node-body", "crashed", Swatch::Circle),
    key(
        ".lease-arc.own",
        "lease left, on the client's own clock",
        Swatch::Ring,
    ),
    key(
        ".lease-arc.service",
        "lease left, on the service's clock",
        Swatch::Ring,
    ),
    key(
        ".message.dropped .drop-mark, .bulk.msg-dropped",
        "lost on the way",
        Swatch::Cross,
    ),
];

const SPACE_TIME_KEYS: [LegendKey; 5] = [
    key(".st-lane.leader .st-lane-line", "★ leader", Swatch::Stroke),
    key(".st-lane.paused .st-lane-line", "paused", Swatch::Stroke),
    key(".st-lane.crashed .st-lane-line", "crashed", Swatch::Stroke),
    key(".st-drop", "lost", Swatch::Cross),
    key(".st-queued", "handled late", Swatch::Ring),
];

/// The hint the space-time diagram shows over its lanes.
pub const SPACE_TIME_LEAD: &str = "each line is a node; each arrow a message";

/// Message kinds named in the legend at most (the common ones come first in a run anyway).
pub const MAX_MESSAGE_KINDS: usize = 6;

/// The fixed entries that may apply to `picture`.
pub fn legend_keys(picture: Picture) -> &'static [LegendKey] {
    match picture {
        Picture::Cluster => &CLUSTER_KEYS,
        Picture::SpaceTime => &SPACE_TIME_KEYS,
    }
}

/// The sentence before the legend's entries, if the drawing has one.
pub fn legend_lead(picture: Picture) -> Option<&'static str> {
    (picture == Picture::SpaceTime).then_some(SPACE_TIME_LEAD)
}

/// The element painted like a message of `kind` in `picture` (a live message, not a lost one).
pub fn message_selector(picture: Picture, kind: &str) -> String {
    let kind = kind.replace(['\\', '"'], "");
    match picture {
        Picture::Cluster => {
            format!(".message:not(.dropped)[data-kind=\"{kind}\"] circle:not(.message-hit)")
        }
        Picture::SpaceTime => format!(".st-arrow:not(.dropped)[data-kind=\"{kind}\"] .st-line"),
    }
}

/// Distinct message kinds in the order they are listed, at most [`MAX_MESSAGE_KINDS`].
pub fn distinct_kinds<'a>(kinds: impl IntoIterator<Item = &'a str>) -> Vec<String> {
    let mut seen = BTreeSet::new();
    kinds
        .into_iter()
        .filter(|kind| !kind.is_empty() && seen.insert(kind.to_string()))
        .take(MAX_MESSAGE_KINDS)
        .map(str::to_string)
        .collect()
}

/// The legend of the live drawing `svg`, painted as its styles compute now (call it under the export's
/// theme).
pub fn read_legend(window: &Window, svg: &Element, picture: Picture) -> Vec<LegendItem> {
    let mut items: Vec<LegendItem> = legend_keys(picture)
        .iter()
        .filter_map(|key| legend_item(window, svg, key.selector, key.label, key.swatch))
        .collect();
    let kinds = message_kinds(svg);
    let swatch = match picture {
        Picture::Cluster => Swatch::Dot,
        Picture::SpaceTime => Swatch::Stroke,
    };
    let messages = distinct_kinds(kinds.iter().map(String::as_str))
        .into_iter()
        .filter_map(|kind| {
            let selector = message_selector(picture, &kind);
            legend_item(window, svg, &selector, &kind, swatch)
        })
        .collect();
    items.extend(merge_alike(messages));
    items
}

/// Entries painted alike become one, their words joined ("LeaseGrant + Txn, LeaseRevoke ok"): two
/// identical swatches side by side would suggest a difference the drawing does not show.
pub fn merge_alike(items: Vec<LegendItem>) -> Vec<LegendItem> {
    let mut merged: Vec<LegendItem> = Vec::new();
    for item in items {
        let alike = merged.iter_mut().find(|kept| {
            (
                kept.swatch,
                &kept.fill,
                &kept.stroke,
                &kept.dash,
                &kept.opacity,
            ) == (
                item.swatch,
                &item.fill,
                &item.stroke,
                &item.dash,
                &item.opacity,
            )
        });
        match alike {
            Some(kept) => kept.label = format!("{}, {}", kept.label, item.label),
            None => merged.push(item),
        }
    }
    merged
}

fn message_kinds(svg: &Element) -> Vec<String> {
    let Ok(list) = svg.query_selector_all("[data-kind]") else {
        return Vec::new();
    };
    (0..list.length())
        .filter_map(|index| list.item(index)?.dyn_into::<Element>().ok())
        .filter_map(|element| element.get_attribute("data-kind"))
        .collect()
}

fn legend_item(
    window: &Window,
    svg: &Element,
    selector: &str,
    label: &str,
    swatch: Swatch,
) -> Option<LegendItem> {
    let element = svg.query_selector(selector).ok().flatten()?;
    let style = window.get_computed_style(&element).ok().flatten()?;
    let read = |property: &str| style.get_property_value(property).unwrap_or_default();
    Some(LegendItem {
        label: label.to_string(),
        swatch,
        fill: read("fill"),
        stroke: read("stroke"),
        dash: read("stroke-dasharray"),
        opacity: read("opacity"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn message_kinds_are_named_once_each_in_order_and_few() {
        let kinds = [
            "Heartbeat",
            "AppendEntries",
            "Heartbeat",
            "",
            "RequestVote",
            "a",
            "b",
            "c",
            "d",
        ];
        assert_eq!(
            distinct_kinds(kinds),
            vec!["Heartbeat", "AppendEntries", "RequestVote", "a", "b", "c"]
        );
    }

    #[test]
    fn kinds_painted_alike_share_one_entry() {
        let item = |label: &str, stroke: &str| LegendItem {
            label: label.to_string(),
            swatch: Swatch::Stroke,
            fill: "none".to_string(),
            stroke: stroke.to_string(),
            dash: "none".to_string(),
            opacity: "1".to_string(),
        };
        let merged = merge_alike(vec![
            item("LeaseGrant + Txn", "rgb(77, 91, 105)"),
            item("AppendEntries", "rgb(143, 92, 0)"),
            item("LeaseRevoke ok", "rgb(77, 91, 105)"),
        ]);
        let labels: Vec<&str> = merged.iter().map(|item| item.label.as_str()).collect();
        assert_eq!(
            labels,
            vec!["LeaseGrant + Txn, LeaseRevoke ok", "AppendEntries"]
        );
    }

    #[test]
    fn a_kind_cannot_break_out_of_its_selector() {
        assert_eq!(
            message_selector(Picture::SpaceTime, "Vote \"granted\"\\"),
            ".st-arrow:not(.dropped)[data-kind=\"Vote granted\"] .st-line"
        );
        assert_eq!(
            message_selector(Picture::Cluster, "AppendEntries ok"),
            ".message:not(.dropped)[data-kind=\"AppendEntries ok\"] circle:not(.message-hit)"
        );
    }

    #[test]
    fn each_drawing_has_its_own_words() {
        let words = |picture| {
            legend_keys(picture)
                .iter()
                .map(|key| key.label)
                .collect::<Vec<_>>()
        };
        assert!(words(Picture::Cluster).contains(&"worker"));
        assert!(words(Picture::SpaceTime).contains(&"lost"));
        assert_eq!(legend_lead(Picture::SpaceTime), Some(SPACE_TIME_LEAD));
        assert_eq!(legend_lead(Picture::Cluster), None);
    }
}
