//! The timeline under the cluster: scrub to any past moment (exact, via snapshots and replay), with marks
//! for faults, leader changes and violations. Acting in the past discards the old future and starts a new
//! one from there.

use crate::context::generation::Part;
use crate::context::use_run;
use crate::format;
use crate::state::controls::use_controls;
use crate::world_text::capabilities::tokens_fence;
use crate::world_text::hold_words::reworded_holds;
use leptos::prelude::*;

/// Share of the track after which a mark's tip opens to the left of it.
const TIP_LEFTWARDS_FROM: f64 = 0.6;

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Mark {
    at_us: u64,
    kind: &'static str,
    label: String,
}

#[component]
pub fn Timeline() -> impl IntoView {
    let run = use_run();
    let controls = use_controls();
    let horizon_us = move || {
        run.horizon_us
            .get()
            .max(run.panel_view.with(|view| view.now_us))
            .max(1)
    };
    let leader_count = Memo::new(move |_| {
        run.panel_view
            .with(|view| (view.leader, view.violation_count))
    });
    let marks = Memo::new(move |_| {
        run.generation.of(Part::History).track();
        let _leader_changed = leader_count.get();
        let tokens = run
            .scenario
            .with(|scenario| tokens_fence(scenario.protocol.kind()));
        run.with_session(|session| {
            let name = |node| session.node_label(node);
            let mut marks: Vec<Mark> = session
                .actions()
                .iter()
                .map(|recorded| Mark {
                    at_us: recorded.at.as_micros(),
                    kind: "fault",
                    label: format::describe_action_named(&recorded.action, &name),
                })
                .collect();
            marks.extend(session.leaders().iter().map(|leader| Mark {
                at_us: leader.elected_at_ms * 1_000,
                kind: "leader",
                label: format!("{} leads term {}", leader.node, leader.term),
            }));
            marks.extend(session.violations().iter().map(|violation| Mark {
                at_us: violation.at_ms * 1_000,
                kind: "violation",
                label: format!(
                    "{}: {}",
                    violation.invariant,
                    reworded_holds(&violation.detail, tokens)
                ),
            }));
            marks
        })
    });
    // The mark last pressed: its label stays written under the track, since a touch screen cannot
    // hover to show the tip (pressing it again hides it; scrubbing forgets it).
    let chosen = RwSignal::new(None::<Mark>);
    let on_input = move |event| {
        chosen.set(None);
        if let Ok(time_us) = event_target_value(&event).parse::<u64>() {
            controls.seek_us(time_us);
        }
    };
    let chosen_text = move || {
        chosen.with(|mark| {
            mark.as_ref()
                .map(|mark| format!("{} — {}", format::sim_time(mark.at_us), mark.label))
        })
    };
    view! {
        <div class="timeline" data-testid="timeline">
            <div class="timeline-marks" aria-hidden="true">
                <For each=move || marks.get() key=|mark| mark.clone() let:mark>
                    <button
                        class={
                            let mark = mark.clone();
                            move || {
                                let pressed = chosen.with(|chosen| chosen.as_ref() == Some(&mark));
                                // A mark in the right part of the track opens its tip leftwards, on screen.
                                let late = mark.at_us as f64 > TIP_LEFTWARDS_FROM * horizon_us() as f64;
                                format!(
                                    "mark mark-{}{}{}",
                                    mark.kind,
                                    if pressed { " chosen" } else { "" },
                                    if late { " late" } else { "" }
                                )
                            }
                        }
                        style=move || format!("left: {:.3}%", 100.0 * mark.at_us as f64 / horizon_us() as f64)
                        on:click={
                            let mark = mark.clone();
                            move |_| {
                                controls.seek_us(mark.at_us + 1_000);
                                let again = chosen.with_untracked(|chosen| chosen.as_ref() == Some(&mark));
                                chosen.set((!again).then(|| mark.clone()));
                            }
                        }
                        tabindex="-1"
                    >
                        <span class="mark-tip">{format!("{} — {}", format::sim_time(mark.at_us), mark.label)}</span>
                    </button>
                </For>
            </div>
            <input
                type="range"
                class="scrubber"
                min="0"
                step="1000"
                aria-label="Timeline: drag to travel back in time"
                data-testid="scrubber"
                prop:max=move || horizon_us().to_string()
                prop:value=move || run.panel_view.with(|view| view.now_us).to_string()
                on:input=on_input
            />
            <Show when=move || chosen.with(Option::is_some)>
                <p class="mark-chosen" data-testid="mark-chosen">{chosen_text}</p>
            </Show>
            <div class="timeline-legend">
                <span class="legend fault">"fault / action"</span>
                <span class="legend leader">"new leader"</span>
                <span class="legend violation">"violation"</span>
                <span class="muted">{move || format!("recorded up to {}", format::sim_time(horizon_us()))}</span>
            </div>
        </div>
    }
}
