//! Lesson markdown as DOM nodes: each block and inline run read by `lesson::markdown` becomes an element
//! built through the view macro, with the lesson's words as text nodes. Nothing is parsed as HTML, so a
//! lesson cannot inject markup whatever it contains.
//!
//! Checklist items are numbered across the whole lesson (the panel renders the text in pieces); the
//! caller passes a counter and, for the mastery checklist, a builder for each item's checkbox.

use crate::context::generation::Part;
use crate::context::notice::Notice;
use crate::context::{use_lesson, use_notices, use_run};
use crate::gallery::route::{gallery_fragment, GalleryRoute};
use crate::lesson::compare::{open_lesson_run, open_link_when_here, CompareLink, LinkOpened};
use crate::lesson::markdown::{Block, Inline};
use crate::state::controls::use_controls;
use leptos::prelude::*;
use quorumlab_sim::lesson::LiveName;

/// Builds the control in front of checklist item `index` (its text is passed along as its label).
pub type ChecklistItem<'a> = &'a dyn Fn(usize, AnyView) -> AnyView;

/// Where a piece of lesson text sits, which decides what its compare links compare (see
/// `lesson::compare`): a step's own text compares the lesson's run, prose opens the named example.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LinkScope {
    Prose,
    Step,
}

/// Why a compare link did nothing when the code that opens it could not be fetched.
const PART_MISSING: &str =
    "the code that opens comparisons could not be loaded (check the connection and try again)";

pub fn inlines_view(inlines: &[Inline], scope: LinkScope) -> AnyView {
    inlines
        .iter()
        .map(|inline| match inline {
            Inline::Text(text) => text.clone().into_any(),
            Inline::Strong(inner) => {
                view! { <strong>{inlines_view(inner, scope)}</strong> }.into_any()
            }
            Inline::Emphasis(inner) => view! { <em>{inlines_view(inner, scope)}</em> }.into_any(),
            Inline::Code(text) => view! { <code>{text.clone()}</code> }.into_any(),
            Inline::Live(name) => live_name_view(*name),
            Inline::Compare {
                label,
                example,
                variations,
            } => compare_link_view(
                label,
                CompareLink {
                    example: example.clone(),
                    variations: variations.clone(),
                },
                scope,
            ),
            Inline::Gallery { label, id } => view! {
                <a class="gallery-link" data-testid="lesson-gallery-link" href=gallery_fragment(&GalleryRoute::Open { id: id.clone(), demo: false })
                    title="Open this example from the gallery (the lesson closes; Back returns to it)">{label.clone()}</a>
            }
            .into_any(),
            Inline::Experiment { label, preset } => {
                let preset = preset.clone();
                // Read now, while rendering: a click handler runs outside any reactive owner.
                let sheet = use_context::<crate::experiment::sheet::ExperimentSheetState>();
                let state = use_context::<crate::state::AppState>();
                view! {
                    <button class="link experiment-link" data-testid="lesson-experiment-link"
                        on:click=move |_| if let (Some(sheet), Some(state)) = (sheet, state) {
                            crate::experiment::sheet::open_over_lesson(sheet, state, &preset)
                        }
                        title="Open the experiment (the lesson stays open behind it)">{format!("{label} ↗")}</button>
                }
                .into_any()
            }
            Inline::Control { label, control } => {
                let control = *control;
                view! {
                    <button class="link control-link" data-testid="lesson-control-link"
                        on:click=move |_| crate::lesson::reach::show_control(control)
                        title="Bring this control on screen">{format!("{label} ↘")}</button>
                }
                .into_any()
            }
        })
        .collect_view()
        .into_any()
}

/// Provided by a step's card around its text: once that step is done, the live names in it say what
/// they said when it ticked, instead of following the run on.
#[derive(Clone, Copy, Debug)]
pub struct StepText(pub usize);

/// A name from the run, kept current while it is on screen (it follows the panels' snapshot, so a
/// playing run redraws it at most ten times a second, and only when the name changes); in a step that
/// is done, the name as it was at its tick. While it names a node it is a button: a tap scrolls to that
/// node and selects it, so on a phone the node the text points at is one tap away.
fn live_name_view(name: LiveName) -> AnyView {
    let lessons = use_lesson();
    let run = use_run();
    let step = use_context::<StepText>();
    let at_tick = Memo::new(move |_| {
        let StepText(step) = step?;
        lessons.generation.of(Part::Lesson).track();
        lessons
            .with_tracker(|tracker| tracker.name_at_tick(step, name))
            .flatten()
    });
    let value = Memo::new(move |_| match at_tick.get() {
        Some((value, _)) => value,
        None => run.panel_view.with(|view| name.value(view)),
    });
    let first_node = Memo::new(move |_| match at_tick.get() {
        Some((_, node)) => node,
        None => run
            .panel_view
            .with(|view| name.nodes(view).first().copied()),
    });
    let reach = move |_| {
        if let Some(node) = first_node.get_untracked() {
            crate::lesson::reach::reach_node(node);
        }
    };
    view! {
        <button class="live-name" data-testid="live-name" data-live=name.placeholder()
            disabled=move || first_node.get().is_none()
            aria-label=move || format!("{}: show it on the cluster", value.get())
            title="Who this is in the run right now: tap to select it on the cluster" on:click=reach>{value}</button>
    }
    .into_any()
}

/// A button that opens compare mode as the lesson names it; a name that does not fit says why.
fn compare_link_view(label: &str, link: CompareLink, scope: LinkScope) -> AnyView {
    let run = use_run();
    let notices = use_notices();
    let lessons = use_lesson();
    let controls = use_controls();
    let open = move |_| {
        let lesson_run = match scope {
            LinkScope::Step => open_lesson_run(controls.root()),
            LinkScope::Prose => None,
        };
        let lesson_was_open = lessons.active.get_untracked().is_some();
        let (link, example) = (link.clone(), link.example.clone());
        leptos::task::spawn_local(async move {
            let opened = crate::arrival!(open_link_when_here(controls.root(), link, lesson_run))
                .await
                .unwrap_or_else(|_| Err(PART_MISSING.to_string()));
            let notice = match opened {
                Ok(LinkOpened::BesideLesson) => Some(Notice {
                    text: format!(
                        "Compared from {}: the lesson goes on and is checked on the left run; \
                         the right one gets every action at the same instant",
                        run.with_session(|session| {
                            crate::format::sim_time(session.now().as_micros())
                        })
                    ),
                    is_error: false,
                }),
                Ok(LinkOpened::Example) if lesson_was_open => Some(Notice {
                    text: format!(
                        "The lesson is closed: this comparison runs the example {example} from its \
                         start, not the lesson's run (Lessons, or L, opens it again)"
                    ),
                    is_error: false,
                }),
                Ok(LinkOpened::Example) => None,
                Err(reason) => Some(Notice {
                    text: format!("Cannot compare: {reason}"),
                    is_error: true,
                }),
            };
            if notice.is_some() {
                notices.notice.set(notice);
            }
        });
    };
    let title = match scope {
        LinkScope::Step => {
            "Set beside the lesson's run a second one with the option flipped, on one clock"
        }
        LinkScope::Prose => "Open both runs side by side on one clock",
    };
    view! {
        <button class="link compare-link" data-testid="lesson-compare" data-scope=match scope { LinkScope::Step => "step", LinkScope::Prose => "prose" }
            on:click=open title=title>{label.to_string()}</button>
    }
    .into_any()
}

/// Headings move down one level (at least `h3`): the panel's own title is the `h2`.
fn heading_view(level: u8, text: &[Inline], scope: LinkScope) -> AnyView {
    let content = inlines_view(text, scope);
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
    scope: LinkScope,
) -> AnyView {
    let mut views = Vec::with_capacity(blocks.len());
    for block in blocks {
        views.push(match block {
            Block::Heading { level, text } => heading_view(*level, text, scope),
            Block::Paragraph(text) => view! { <p>{inlines_view(text, scope)}</p> }.into_any(),
            Block::List(items) => view! {
                <ul>{items.iter().map(|text| view! { <li>{inlines_view(text, scope)}</li> }).collect_view()}</ul>
            }
            .into_any(),
            Block::Checklist(items) => {
                let mut rows = Vec::with_capacity(items.len());
                for (ticked, text) in items {
                    let index = *next_item;
                    *next_item += 1;
                    let label = inlines_view(text, scope);
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
