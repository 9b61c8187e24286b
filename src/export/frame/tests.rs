use super::*;
use crate::export::PNG_SCALE;

/// A wide sans-serif: every character 0.6 of the size.
fn measure(text: &str, size: f64) -> f64 {
    text.chars().count() as f64 * size * 0.6
}

fn legend_item(label: &str) -> LegendItem {
    LegendItem {
        label: label.to_string(),
        swatch: Swatch::Circle,
        fill: "rgb(1, 2, 3)".to_string(),
        stroke: "none".to_string(),
        dash: "none".to_string(),
        opacity: "1".to_string(),
    }
}

fn no_fencing() -> PictureContext {
    let invariants = [
        ("Election Safety", true),
        ("Leader Append-Only", true),
        ("Log Matching", true),
        ("Mutual Exclusion", false),
        ("Token Monotonicity", false),
        ("No Lost Updates", false),
        ("Single Lease Holder", true),
        ("Release By Owner", true),
    ];
    PictureContext {
        title: "No fencing: a paused holder overwrites the next holder's work".to_string(),
        meta: "Simulated time 6.561 s · Cluster view".to_string(),
        caption: Some((
            "3.461 s — Token Monotonicity is broken: the store accepted token 5 from A after accepting \
             token 15"
                .to_string(),
            true,
        )),
        invariants: invariants
            .iter()
            .map(|(name, holds)| InvariantState {
                name: name.to_string(),
                holds: *holds,
            })
            .collect(),
        legend_lead: None,
        legend: ["leader", "follower", "worker", "resource", "AppendEntries ok"]
            .iter()
            .map(|label| legend_item(label))
            .collect(),
    }
}

/// Left, top, right, bottom of a placed text or mark.
fn extent(item: &Placed) -> [f64; 4] {
    match item {
        Placed::Text {
            x, y, size, text, ..
        } => [*x, y - size, x + measure(text, *size), y + size * 0.3],
        Placed::Bar {
            x,
            y,
            width,
            height,
            ..
        } => [*x, *y, x + width, y + height],
        Placed::Swatch { x, y, size, .. } => [
            x - size / 2.0,
            y - size / 2.0,
            x + size / 2.0,
            y + size / 2.0,
        ],
    }
}

fn overlap(a: [f64; 4], b: [f64; 4]) -> bool {
    a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3]
}

#[test]
fn wrapped_lines_fit_and_keep_every_word_in_order() {
    let text = "3.461 s — Token Monotonicity is broken: the store accepted token 5 from A after accepting token 15";
    let lines = wrap(text, 300.0, 20.0, &measure);
    assert!(lines.len() > 1, "{lines:?}");
    for line in &lines {
        assert!(
            measure(line, 20.0) <= 300.0 || !line.contains(' '),
            "{line}"
        );
    }
    assert_eq!(lines.join(" "), text);
    assert_eq!(wrap("   ", 300.0, 20.0, &measure), Vec::<String>::new());
    assert_eq!(
        wrap("unbreakable-very-long-word", 10.0, 20.0, &measure),
        vec!["unbreakable-very-long-word"]
    );
}

#[test]
fn nothing_overlaps_the_drawing_or_anything_else_and_all_stays_inside() {
    for (width, height) in [(1000.0, 800.0), (962.0, 208.0), (360.0, 220.0)] {
        let frame = layout_frame(width, height, &no_fencing(), &measure);
        let drawing = [
            frame.drawing_x,
            frame.drawing_y,
            frame.drawing_x + width,
            frame.drawing_y + height,
        ];
        assert!(drawing[0] >= 0.0 && drawing[2] <= frame.width);
        for (index, item) in frame.items.iter().enumerate() {
            let box_ = extent(item);
            assert!(
                box_[0] >= 0.0
                    && box_[2] <= frame.width + 0.01
                    && box_[1] >= 0.0
                    && box_[3] <= frame.height,
                "{item:?} leaves a {}×{} frame",
                frame.width,
                frame.height
            );
            assert!(!overlap(box_, drawing), "{item:?} covers the drawing");
            for other in &frame.items[index + 1..] {
                assert!(!overlap(box_, extent(other)), "{item:?} overlaps {other:?}");
            }
        }
    }
}

#[test]
fn the_caption_is_projector_sized_in_the_png_even_for_a_phone_drawing() {
    for width in [360.0, 962.0, 1000.0, 1800.0] {
        let frame = layout_frame(width, 200.0, &no_fencing(), &measure);
        let caption_px = frame
            .items
            .iter()
            .find_map(|item| match item {
                Placed::Text {
                    role: TextRole::Caption,
                    size,
                    ..
                } => Some(*size),
                _ => None,
            })
            .expect("a caption");
        assert!(
            caption_px * PNG_SCALE >= 20.0,
            "{caption_px} at width {width}"
        );
        let smallest = frame
            .items
            .iter()
            .filter_map(|item| match item {
                Placed::Text { size, .. } => Some(*size),
                _ => None,
            })
            .fold(f64::MAX, f64::min);
        assert!(
            smallest * PNG_SCALE >= 24.0,
            "smallest text {smallest} at width {width}"
        );
    }
}

#[test]
fn a_violated_invariant_says_so_in_words_and_in_red() {
    let frame = layout_frame(1000.0, 800.0, &no_fencing(), &measure);
    let invariants: Vec<(&str, &TextRole, Tone, bool)> = frame
        .items
        .iter()
        .filter_map(|item| match item {
            Placed::Text {
                role: role @ TextRole::Invariant { .. },
                text,
                tone,
                bold,
                ..
            } => Some((text.as_str(), role, *tone, *bold)),
            _ => None,
        })
        .collect();
    assert_eq!(invariants.len(), 8);
    let violated = invariants
        .iter()
        .find(|(text, ..)| text.contains("Mutual Exclusion"))
        .unwrap();
    assert_eq!(violated.0, "✗ Mutual Exclusion: violated");
    assert_eq!(
        violated.1,
        &TextRole::Invariant {
            name: "Mutual Exclusion".to_string(),
            holds: false
        }
    );
    assert_eq!((violated.2, violated.3), (Tone::Danger, true));
    let holding = invariants
        .iter()
        .find(|(text, ..)| text.contains("Election Safety"))
        .unwrap();
    assert_eq!((holding.0, holding.2), ("✓ Election Safety", Tone::Ok));
}

#[test]
fn every_legend_entry_has_its_swatch_beside_its_word() {
    let frame = layout_frame(1000.0, 800.0, &no_fencing(), &measure);
    let swatches: Vec<usize> = frame
        .items
        .iter()
        .filter_map(|item| match item {
            Placed::Swatch { index, .. } => Some(*index),
            _ => None,
        })
        .collect();
    assert_eq!(swatches, vec![0, 1, 2, 3, 4]);
    let words = frame
        .items
        .iter()
        .filter(|item| {
            matches!(
                item,
                Placed::Text {
                    role: TextRole::Legend,
                    ..
                }
            )
        })
        .count();
    assert_eq!(words, 5);
}

#[test]
fn without_a_caption_invariants_or_legend_only_the_title_and_time_are_added() {
    let context = PictureContext {
        title: "Raft playground".to_string(),
        meta: "Simulated time 0 ms · Cluster view".to_string(),
        ..PictureContext::default()
    };
    let frame = layout_frame(1000.0, 800.0, &context, &measure);
    assert_eq!(frame.items.len(), 2);
    assert!(
        frame.height < 800.0 + 6.5 * frame.text_px,
        "{}",
        frame.height
    );
}

#[test]
fn a_tall_drawing_gets_its_story_beside_it_and_a_wide_one_under_it() {
    let cluster = layout_frame(1000.0, 800.0, &no_fencing(), &measure);
    assert!(
        cluster.width / cluster.height > 1.5,
        "a slide-shaped {}×{}",
        cluster.width,
        cluster.height
    );
    let diagram = layout_frame(962.0, 208.0, &no_fencing(), &measure);
    for (frame, width, height, beside) in [
        (&cluster, 1000.0, 800.0, true),
        (&diagram, 962.0, 208.0, false),
    ] {
        for item in &frame.items {
            if let Placed::Text {
                role: TextRole::Title | TextRole::Meta,
                ..
            } = item
            {
                continue;
            }
            let [left, top, ..] = extent(item);
            if beside {
                assert!(
                    left >= frame.drawing_x + width,
                    "{item:?} is beside the drawing"
                );
            } else {
                assert!(
                    top >= frame.drawing_y + height,
                    "{item:?} is under the drawing"
                );
            }
        }
    }
}
