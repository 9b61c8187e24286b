//! A tiny markdown reader for lesson text: just the subset the lessons use, read into plain values.
//!
//! Blocks: `#` headings, paragraphs (lines joined until a blank line), `-` lists whose items may wrap onto
//! indented lines, `- [ ]` / `- [x]` checklists, and fenced code blocks (three backticks). Inline:
//! `**bold**`, `*italic*`, `` `code` `` and live names (`{paused}`: filled from the run where shown, see
//! `quorumlab_sim::lesson::LiveName`); a marker without its closing partner stays literal text.
//! Anything else is shown as the text it is. The components turn these values into DOM nodes one by
//! one, so a lesson can never inject markup: there is no HTML in, and no `innerHTML` out. Writing this
//! (about a hundred lines) instead of pulling in a markdown crate keeps the app's first load small.

use quorumlab_sim::lesson::{leading_placeholder, LiveName};

/// One block of a lesson.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Block {
    /// Level 1 to 6, as the number of `#`s.
    Heading {
        level: u8,
        text: Vec<Inline>,
    },
    Paragraph(Vec<Inline>),
    List(Vec<Vec<Inline>>),
    /// Items with whether the file already ticks them (`- [x]`).
    Checklist(Vec<(bool, Vec<Inline>)>),
    /// The text between the fences, lines kept; `language` is what follows the opening fence.
    Code {
        language: String,
        text: String,
    },
}

/// A run of text with its emphasis.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Inline {
    Text(String),
    Strong(Vec<Inline>),
    Emphasis(Vec<Inline>),
    Code(String),
    /// `{paused}`, `{lock_holder}`...: a name only the run knows, filled in where it is shown.
    Live(LiveName),
    /// `[words](compare:fencing-pause.toml/fencing)`: a button opening compare mode on that example
    /// with those options (comma-separated variation names) flipped on the right.
    Compare {
        label: String,
        example: String,
        variations: String,
    },
    /// `[words](gallery:redis-unsafe-release)`: a link opening that example from the instructors'
    /// gallery (`#/gallery/<id>`), so prose that names a scenario file has a browser route to it.
    Gallery {
        label: String,
        id: String,
    },
    /// `[run the experiment](experiment:randomness)`: a button opening the experiment sheet on that
    /// preset over the lesson (which stays open behind it).
    Experiment {
        label: String,
        preset: String,
    },
    /// `[Run settings](control:run-settings)`: a button that brings a control of the page on screen,
    /// for a step that needs one far from the lesson (see `lesson::reach`).
    Control {
        label: String,
        control: PageControl,
    },
}

/// A control of the page a lesson can point at by name (`control:<name>`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PageControl {
    /// The Run settings card, at its world's own options.
    RunSettings,
}

impl PageControl {
    fn from_name(name: &str) -> Option<PageControl> {
        match name {
            "run-settings" => Some(PageControl::RunSettings),
            _ => None,
        }
    }
}

/// Reads `source` into blocks.
pub fn parse_blocks(source: &str) -> Vec<Block> {
    let mut blocks = Vec::new();
    let mut lines = source.lines().peekable();
    while let Some(line) = lines.next() {
        let trimmed = line.trim();
        if trimmed.is_empty() {
            continue;
        }
        if let Some(language) = trimmed.strip_prefix("```") {
            let mut code = Vec::new();
            for inner in lines.by_ref() {
                if inner.trim_start().starts_with("```") {
                    break;
                }
                code.push(inner);
            }
            blocks.push(Block::Code {
                language: language.trim().to_string(),
                text: code.join("\n"),
            });
        } else if let Some((level, text)) = heading(trimmed) {
            blocks.push(Block::Heading {
                level,
                text: parse_inlines(text),
            });
        } else if list_item(line).is_some() {
            let mut items = vec![list_item(line).unwrap_or_default().to_string()];
            while let Some(next) = lines.peek() {
                if let Some(item) = list_item(next) {
                    items.push(item.to_string());
                } else if next.starts_with("  ") && !next.trim().is_empty() {
                    let last = items.last_mut().expect("the list has its first item");
                    last.push(' ');
                    last.push_str(next.trim());
                } else {
                    break;
                }
                lines.next();
            }
            blocks.push(list_block(items));
        } else {
            let mut text = trimmed.to_string();
            while let Some(next) = lines.peek() {
                let next = next.trim();
                if next.is_empty()
                    || next.starts_with("```")
                    || heading(next).is_some()
                    || list_item(next).is_some()
                {
                    break;
                }
                text.push(' ');
                text.push_str(next);
                lines.next();
            }
            blocks.push(Block::Paragraph(parse_inlines(&text)));
        }
    }
    blocks
}

/// `## Title` → (2, "Title"); at most six `#`s, and a space must follow them.
fn heading(line: &str) -> Option<(u8, &str)> {
    let level = line
        .chars()
        .take_while(|character| *character == '#')
        .count();
    let rest = line[level..].strip_prefix(' ')?;
    (1..=6).contains(&level).then(|| (level as u8, rest.trim()))
}

/// The text of a `- item` line (not indented more than a continuation would be).
fn list_item(line: &str) -> Option<&str> {
    line.trim_start_matches(' ')
        .strip_prefix("- ")
        .filter(|_| line.len() - line.trim_start_matches(' ').len() < 2)
}

/// A list, or a checklist when every item starts with `[ ]` or `[x]`.
fn list_block(items: Vec<String>) -> Block {
    let checks: Option<Vec<(bool, Vec<Inline>)>> = items
        .iter()
        .map(|item| {
            let ticked = if item.starts_with("[ ] ") {
                false
            } else if item.starts_with("[x] ") || item.starts_with("[X] ") {
                true
            } else {
                return None;
            };
            Some((ticked, parse_inlines(&item[4..])))
        })
        .collect();
    match checks {
        Some(checks) => Block::Checklist(checks),
        None => Block::List(items.iter().map(|item| parse_inlines(item)).collect()),
    }
}

/// Reads emphasis and code spans in one line of text.
pub fn parse_inlines(text: &str) -> Vec<Inline> {
    let mut inlines = Vec::new();
    let mut plain = String::new();
    let mut rest = text;
    while let Some(character) = rest.chars().next() {
        let span = match character {
            '`' => closed(rest, "`").map(|(inner, after)| (Inline::Code(inner.to_string()), after)),
            '{' => live_name(rest),
            '[' => compare_link(rest)
                .or_else(|| gallery_link(rest))
                .or_else(|| control_link(rest))
                .or_else(|| experiment_link(rest)),
            '*' if rest.starts_with("**") => closed(rest, "**")
                .map(|(inner, after)| (Inline::Strong(parse_inlines(inner)), after)),
            '*' => closed(rest, "*")
                .map(|(inner, after)| (Inline::Emphasis(parse_inlines(inner)), after)),
            _ => None,
        };
        match span {
            Some((inline, after)) => {
                if !plain.is_empty() {
                    inlines.push(Inline::Text(std::mem::take(&mut plain)));
                }
                inlines.push(inline);
                rest = after;
            }
            None => {
                plain.push(character);
                rest = &rest[character.len_utf8()..];
            }
        }
    }
    if !plain.is_empty() {
        inlines.push(Inline::Text(plain));
    }
    inlines
}

/// For `text` starting with a known `{placeholder}`: it, and what follows it.
fn live_name(text: &str) -> Option<(Inline, &str)> {
    let word = leading_placeholder(text)?;
    let name = LiveName::from_placeholder(word)?;
    Some((Inline::Live(name), &text[word.len() + 2..]))
}

/// For `text` starting with `[words](compare:example/options)`: the link, and what follows it. Any
/// other bracket stays text.
fn compare_link(text: &str) -> Option<(Inline, &str)> {
    let (label, after_label) = text[1..].split_once("](compare:")?;
    let (target, after) = after_label.split_once(')')?;
    let (example, variations) = target.split_once('/')?;
    let plain = |part: &str| !part.is_empty() && !part.contains(['[', ']', '(', ' ']);
    (plain(example) && plain(variations) && !label.is_empty() && !label.contains(']')).then(|| {
        let link = Inline::Compare {
            label: label.to_string(),
            example: example.to_string(),
            variations: variations.to_string(),
        };
        (link, after)
    })
}

/// For `text` starting with `[words](gallery:id)`: the link, and what follows it.
fn gallery_link(text: &str) -> Option<(Inline, &str)> {
    let (label, after_label) = text[1..].split_once("](gallery:")?;
    let (id, after) = after_label.split_once(')')?;
    let plain_id = !id.is_empty()
        && id.chars().all(|character| {
            character.is_ascii_lowercase() || character.is_ascii_digit() || character == '-'
        });
    (plain_id && !label.is_empty() && !label.contains(']')).then(|| {
        let link = Inline::Gallery {
            label: label.to_string(),
            id: id.to_string(),
        };
        (link, after)
    })
}

/// For `text` starting with `[words](control:name)` naming a known control: the link, and what follows.
fn control_link(text: &str) -> Option<(Inline, &str)> {
    let (label, after_label) = text[1..].split_once("](control:")?;
    let (name, after) = after_label.split_once(')')?;
    let control = PageControl::from_name(name)?;
    (!label.is_empty() && !label.contains(']')).then(|| {
        let link = Inline::Control {
            label: label.to_string(),
            control,
        };
        (link, after)
    })
}

/// For `text` starting with `[words](experiment:preset)` naming a known preset: the link, and what
/// follows.
fn experiment_link(text: &str) -> Option<(Inline, &str)> {
    let (label, after_label) = text[1..].split_once("](experiment:")?;
    let (preset, after) = after_label.split_once(')')?;
    crate::experiment::presets::preset(preset)?;
    (!label.is_empty() && !label.contains(']')).then(|| {
        let link = Inline::Experiment {
            label: label.to_string(),
            preset: preset.to_string(),
        };
        (link, after)
    })
}

/// For `text` starting with `marker`: the non-empty text up to the closing marker, and what follows it.
fn closed<'a>(text: &'a str, marker: &str) -> Option<(&'a str, &'a str)> {
    let body = &text[marker.len()..];
    let end = body.find(marker)?;
    (end > 0 && !body.starts_with(' ')).then(|| (&body[..end], &body[end + marker.len()..]))
}

/// The text of `inlines` without emphasis (for labels and comparisons).
pub fn plain_text(inlines: &[Inline]) -> String {
    inlines
        .iter()
        .map(|inline| match inline {
            Inline::Text(text) | Inline::Code(text) => text.clone(),
            Inline::Strong(inner) | Inline::Emphasis(inner) => plain_text(inner),
            Inline::Live(name) => format!("{{{}}}", name.placeholder()),
            Inline::Compare { label, .. }
            | Inline::Gallery { label, .. }
            | Inline::Experiment { label, .. }
            | Inline::Control { label, .. } => label.clone(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(value: &str) -> Inline {
        Inline::Text(value.to_string())
    }

    #[test]
    fn known_placeholders_become_live_names_and_others_stay_text() {
        assert_eq!(
            parse_inlines("**Resume {paused}.** {nope} {leader}"),
            vec![
                Inline::Strong(vec![
                    text("Resume "),
                    Inline::Live(LiveName::Paused),
                    text(".")
                ]),
                text(" {nope} "),
                Inline::Live(LiveName::Leader),
            ]
        );
        assert_eq!(
            plain_text(&parse_inlines("now: {lock_holder}")),
            "now: {lock_holder}"
        );
    }

    #[test]
    fn inline_emphasis_and_code_nest_inside_bold() {
        assert_eq!(
            parse_inlines("a **b `c`** and *d* `e*f`"),
            vec![
                text("a "),
                Inline::Strong(vec![text("b "), Inline::Code("c".into())]),
                text(" and "),
                Inline::Emphasis(vec![text("d")]),
                text(" "),
                Inline::Code("e*f".into()),
            ]
        );
    }

    #[test]
    fn unmatched_markers_stay_literal_text() {
        assert_eq!(
            parse_inlines("2 * 3 = 6 and `open"),
            vec![text("2 * 3 = 6 and `open")]
        );
        assert_eq!(parse_inlines("**"), vec![text("**")]);
    }

    #[test]
    fn markup_is_kept_as_text_never_interpreted() {
        assert_eq!(
            parse_blocks("<script>alert(1)</script>"),
            vec![Block::Paragraph(vec![text("<script>alert(1)</script>")])]
        );
    }

    #[test]
    fn blocks_headings_paragraphs_lists_checklists_and_code() {
        let source = "## The idea\n\nOne line\nwraps here.\n\n- **Lease**: a lock\n  that expires.\n- second\n\n- [ ] learn\n- [x] done\n\n```toml\na = 1\n\nb = 2\n```\n#not a heading";
        assert_eq!(
            parse_blocks(source),
            vec![
                Block::Heading {
                    level: 2,
                    text: vec![text("The idea")]
                },
                Block::Paragraph(vec![text("One line wraps here.")]),
                Block::List(vec![
                    vec![
                        Inline::Strong(vec![text("Lease")]),
                        text(": a lock that expires.")
                    ],
                    vec![text("second")],
                ]),
                Block::Checklist(vec![
                    (false, vec![text("learn")]),
                    (true, vec![text("done")])
                ]),
                Block::Code {
                    language: "toml".into(),
                    text: "a = 1\n\nb = 2".into()
                },
                Block::Paragraph(vec![text("#not a heading")]),
            ]
        );
    }

    #[test]
    fn a_list_right_after_a_paragraph_line_starts_a_new_block() {
        let blocks = parse_blocks("Intro:\n- one\n- two");
        assert_eq!(blocks.len(), 2);
        assert!(matches!(&blocks[1], Block::List(items) if items.len() == 2));
    }

    #[test]
    fn every_lesson_body_reads_into_blocks_with_a_mastery_checklist() {
        for lesson in crate::lesson::course().unwrap() {
            let blocks = parse_blocks(&lesson.body);
            assert!(
                blocks
                    .iter()
                    .any(|block| matches!(block, Block::Checklist(items) if !items.is_empty())),
                "{} has a checklist",
                lesson.id
            );
        }
    }

    #[test]
    fn a_compare_link_becomes_a_button_and_other_brackets_stay_text() {
        assert_eq!(
            parse_inlines("Try [fencing on and off](compare:fencing-pause.toml/fencing) now"),
            vec![
                text("Try "),
                Inline::Compare {
                    label: "fencing on and off".into(),
                    example: "fencing-pause.toml".into(),
                    variations: "fencing".into(),
                },
                text(" now"),
            ]
        );
        for literal in [
            "[a](https://x.org)",
            "[a](compare:x.toml)",
            "[](compare:x/y)",
            "[a b",
        ] {
            assert_eq!(parse_inlines(literal), vec![text(literal)], "{literal}");
        }
    }

    #[test]
    fn a_gallery_link_names_an_example_and_odd_ids_stay_text() {
        assert_eq!(
            parse_inlines("Open [the careless release](gallery:redis-unsafe-release)."),
            vec![
                text("Open "),
                Inline::Gallery {
                    label: "the careless release".into(),
                    id: "redis-unsafe-release".into(),
                },
                text("."),
            ]
        );
        for literal in [
            "[a](gallery:)",
            "[a](gallery:Split Vote)",
            "[](gallery:x)",
            "[a](gallery:x.toml)",
        ] {
            assert_eq!(parse_inlines(literal), vec![text(literal)], "{literal}");
        }
    }

    #[test]
    fn every_gallery_link_in_a_lesson_names_a_built_in_example() {
        let ids: Vec<String> = crate::gallery::built_in()
            .into_iter()
            .map(|item| item.id)
            .collect();
        let mut links = 0;
        for lesson in quorumlab_sim::lesson::parse_lessons().expect("lessons parse") {
            let mut sources = vec![lesson.body.clone()];
            sources.extend(lesson.steps.iter().map(|step| step.instruction.clone()));
            for source in sources {
                for block in parse_blocks(&source) {
                    for inline in block_inlines(&block) {
                        if let Inline::Gallery { id, .. } = inline {
                            links += 1;
                            assert!(
                                ids.contains(&id),
                                "lesson {} links to `{id}`, which the gallery lacks",
                                lesson.id
                            );
                        }
                    }
                }
            }
        }
        assert!(
            links >= 5,
            "the lessons' edge cases link to the gallery ({links} links)"
        );
    }

    fn block_inlines(block: &Block) -> Vec<Inline> {
        match block {
            Block::Heading { text, .. } | Block::Paragraph(text) => text.clone(),
            Block::List(items) => items.concat(),
            Block::Checklist(items) => items.iter().flat_map(|(_, text)| text.clone()).collect(),
            Block::Code { .. } => Vec::new(),
        }
    }

    #[test]
    fn plain_text_drops_the_emphasis() {
        assert_eq!(plain_text(&parse_inlines("**a** *b* `c`")), "a b c");
    }

    #[test]
    fn an_experiment_link_names_a_known_preset_or_stays_text() {
        assert_eq!(
            parse_inlines("Then [run it over 200 seeds](experiment:randomness)."),
            vec![
                Inline::Text("Then ".into()),
                Inline::Experiment {
                    label: "run it over 200 seeds".into(),
                    preset: "randomness".into()
                },
                Inline::Text(".".into()),
            ]
        );
        assert_eq!(
            parse_inlines("[x](experiment:figure17)"),
            vec![Inline::Text("[x](experiment:figure17)".into())]
        );
    }

    #[test]
    fn a_control_link_names_a_known_control_or_stays_text() {
        assert_eq!(
            parse_inlines("In [Run settings](control:run-settings), set it"),
            vec![
                text("In "),
                Inline::Control {
                    label: "Run settings".into(),
                    control: PageControl::RunSettings
                },
                text(", set it"),
            ]
        );
        assert_eq!(
            parse_inlines("[x](control:nowhere)"),
            vec![text("[x](control:nowhere)")]
        );
    }
}
