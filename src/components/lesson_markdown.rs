//! Lesson markdown as DOM nodes: each block and inline run read by `lesson::markdown` becomes an element
//! built through the view macro, with the lesson's words as text nodes. Nothing is parsed as HTML, so a
//! lesson cannot inject markup whatever it contains.
//!
//! Checklist items are numbered across the whole lesson (the panel renders the text in pieces); the
//! caller passes a counter and, for the mastery checklist, a builder for each item's checkbox.

use crate::lesson::markdown::{Block, Inline};
use crate::state::AppState;
use leptos::prelude::*;
use quorumlab_sim::lesson::LiveName;

/// Builds the control in front of checklist item `index` (its text is passed along as its label).
pub type ChecklistItem<'a> = &'a dyn Fn(usize, AnyView) -> AnyView;

pub fn inlines_view(inlines: &[Inline]) -> AnyView {
    inlines
        .iter()
        .map(|inline| match inline {
            Inline::Text(text) => text.clone().into_any(),
            Inline::Strong(inner) => view! { <strong>{inlines_view(inner)}</strong> }.into_any(),
            Inline::Emphasis(inner) => view! { <em>{inlines_view(inner)}</em> }.into_any(),
            Inline::Code(text) => view! { <code>{text.clone()}</code> }.into_any(),
            Inline::Live(name) => live_name_view(*name),
            Inline::Compare {
                label,
                example,
                variations,
            } => compare_link_view(label, example, variations),
        })
        .collect_view()
        .into_any()
}

/// A name from the run, kept current while it is on screen (it follows the panels' snapshot, so a
/// playing run redraws it at most ten times a second, and only when the name changes).
fn live_name_view(name: LiveName) -> AnyView {
    let state = expect_context::<AppState>();
    let value = Memo::new(move |_| state.panel_view.with(|view| name.value(view)));
    view! {
        <span class="live-name" data-testid="live-name" data-live=name.placeholder()
            title="Who this is in the run right now">{value}</span>
    }
    .into_any()
}

/// A button that opens compare mode as the lesson names it; a name that does not fit says why.
fn compare_link_view(label: &str, example: &str, variations: &str) -> AnyView {
    let state = expect_context::<AppState>();
    let (example, variations) = (example.to_string(), variations.to_string());
    let open = move |_| {
        let opened = crate::compare::open::example(&example).and_then(|base| {
            let chosen = crate::compare::open::variations_named(&variations)?;
            crate::compare::open::open_compare(state, base, chosen)
        });
        if let Err(reason) = opened {
            state.notice.set(Some(crate::state::Notice {
                text: format!("Cannot compare: {reason}"),
                is_error: true,
            }));
        }
    };
    view! {
        <button class="link compare-link" data-testid="lesson-compare" on:click=open
            title="Open both runs side by side on one clock">{label.to_string()}</button>
    }
    .into_any()
}

/// Headings move down one level (at least `h3`): the panel's own title is the `h2`.
fn heading_view(level: u8, text: &[Inline]) -> AnyView {
    let content = inlines_view(text);
    match level {
        0..=2 => view! { <h3>{content}</h3> }.into_any(),
        3 => view! { <h4>{content}</h4> }.into_any(),
        4 => view! { <h5>{content}</h5> }.into_any(),
        _ => view! { <h6>{content}</h6> }.into_any(),
    }
}

/// The blocks as elements. `next_item` numbers checklist items; `item` builds each one's control, or
/// (when `None`) the item shows a read-only tick mark.
pub fn blocks_view(
    blocks: &[Block],
    next_item: &mut usize,
    item: Option<ChecklistItem>,
) -> AnyView {
    let mut views = Vec::with_capacity(blocks.len());
    for block in blocks {
        views.push(match block {
            Block::Heading { level, text } => heading_view(*level, text),
            Block::Paragraph(text) => view! { <p>{inlines_view(text)}</p> }.into_any(),
            Block::List(items) => view! {
                <ul>{items.iter().map(|text| view! { <li>{inlines_view(text)}</li> }).collect_view()}</ul>
            }
            .into_any(),
            Block::Checklist(items) => {
                let mut rows = Vec::with_capacity(items.len());
                for (ticked, text) in items {
                    let index = *next_item;
                    *next_item += 1;
                    let label = inlines_view(text);
                    rows.push(match item {
                        Some(build) => view! { <li class="checklist-item">{build(index, label)}</li> }.into_any(),
                        None => {
                            let mark = if *ticked { "☑ " } else { "☐ " };
                            view! { <li class="checklist-item"><span aria-hidden="true">{mark}</span>{label}</li> }.into_any()
                        }
                    });
                }
                view! { <ul class="checklist">{rows}</ul> }.into_any()
            }
            Block::Code { text, .. } => view! { <pre class="lesson-code"><code>{text.clone()}</code></pre> }.into_any(),
        });
    }
    views.into_any()
}
