//! The run told in words: a caption over the cluster (the newest turn of the story, or what the last
//! single step did) and the event log, whose lines jump to their moment and light up their nodes.

use crate::context::{use_playback, use_selection, use_story};
use crate::format;
use crate::state::controls::use_controls;
use leptos::prelude::*;
use quorumlab_sim::entry::describe::Weight;
use quorumlab_sim::narration::NarrationLine;

fn weight_class(weight: Weight) -> &'static str {
    match weight {
        Weight::Routine => "routine",
        Weight::Notable => "notable",
        Weight::Key => "notable key",
        Weight::Alarm => "alarm",
    }
}

/// The caption band at the foot of the cluster drawing. Its live region is polite and changes only as
/// often as the caption does (held about two seconds while playing), so it never floods a reader.
#[component]
pub fn NarrationCaption() -> impl IntoView {
    let playback = use_playback();
    let story = use_story();
    let text = move || {
        if let Some(stepped) = playback.stepped.get() {
            return Some(("step", format!("Step: {stepped}")));
        }
        story.caption.with(|caption| {
            caption.as_ref().map(|line| {
                let time = format::sim_time(line.at_us);
                (weight_class(line.weight), format!("{time} — {}", line.text))
            })
        })
    };
    view! {
        <p class=move || format!("narration-caption {}", text().map_or("empty", |(class, _)| class))
            data-testid="narration-caption" aria-live="polite" aria-atomic="true">
            {move || text().map(|(_, text)| text).unwrap_or_else(|| quiet_caption(playback.playing.get()).to_string())}
        </p>
    }
}

/// The caption before anything has happened: an invitation to play while paused, never while playing.
fn quiet_caption(playing: bool) -> &'static str {
    if playing {
        "Running: nothing has happened yet."
    } else {
        "Nothing has happened yet. Press play, or step through one event at a time."
    }
}

/// The event log: newest first, one button per line (time, sentence, how many it stands for).
#[component]
pub fn NarrationLog() -> impl IntoView {
    let story = use_story();
    let lines = move || {
        story
            .narration
            .with(|narration| narration.lines.iter().rev().cloned().collect::<Vec<_>>())
    };
    let quiet = move || {
        story.narration.with(|narration| {
            (narration.quiet_rounds >= 2).then(|| {
                format!(
                    "Since then: {} rounds of heartbeats, nothing else changed",
                    narration.quiet_rounds
                )
            })
        })
    };
    view! {
        <section class="card narration-log" aria-label="What happened" data-testid="narration-log">
            <h2>"What happened" <span class="muted">" — newest first; choose a line to go to that moment"</span></h2>
            <Show when=move || quiet().is_some()>
                <p class="narration-quiet muted">{move || quiet().unwrap_or_default()}</p>
            </Show>
            <ol class="narration-lines">
                // Keyed by what a line says as well as its place: another run opened in one go (an
                // imported trace, a link) has lines at the same places that say other things.
                <For each=lines key=|line| (line.ordinal, line.repeats, line.at_us, line.text.clone()) let:line>
                    <NarrationEntry line=line />
                </For>
            </ol>
        </section>
    }
}

#[component]
fn NarrationEntry(line: NarrationLine) -> impl IntoView {
    let selection = use_selection();
    let controls = use_controls();
    let nodes = line.nodes.clone();
    let hover_nodes = nodes.clone();
    let at_us = line.at_us;
    let time = format::sim_time(at_us);
    let repeats = (line.repeats > 1).then(|| format!(" ×{}", line.repeats));
    let class = format!("narration-line {}", weight_class(line.weight));
    view! {
        <li class=class>
            // Named by its own words (time, line): the spaces between the parts are not drawn (a grid)
            // but keep them words for a screen reader; the title says what a click does.
            <button class="link" title="Go to this moment" data-testid="narration-line"
                on:click=move |_| {
                    controls.seek_us(at_us);
                    selection.highlighted.set(nodes.clone());
                }
                on:mouseenter=move |_| selection.highlighted.set(hover_nodes.clone())
                on:mouseleave=move |_| selection.highlighted.set(Vec::new())>
                <span class="narration-time">{time}</span>" "
                <span class="narration-text">{line.text.clone()}</span>" "
                {repeats.map(|repeats| view! { <span class="narration-repeats">{repeats}</span> })}
            </button>
        </li>
    }
}
