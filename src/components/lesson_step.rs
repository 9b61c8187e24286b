//! One step of the open lesson: its instruction, its predict-then-reveal questions, and where it stands
//! (done with what happened, open with the latest "not yet", or locked until the steps before it are
//! done). The open step has the "show me" button.
//!
//! A prediction is asked before the step happens: a pick is locked in, and its verdict and explanation
//! are revealed when the step ticks in the run (or on "Reveal now"). The instruction stays visible
//! throughout, so the question never blocks the lab. The open step is also shown at the top of the
//! lesson panel ([`CurrentStepCard`]), so what to do now sits beside the cluster without scrolling.

use crate::components::lesson_markdown::{blocks_view, inlines_view, LinkScope, StepText};
use crate::context::generation::Part;
use crate::context::lesson::LessonContext;
use crate::context::{use_lesson, use_playback};
use crate::lesson::live;
use crate::lesson::markdown::{parse_blocks, parse_inlines};
use crate::state::controls::use_controls;
use leptos::prelude::*;
use quorumlab_sim::lesson::{LessonStep, Prediction};

#[derive(Clone, Copy, PartialEq, Eq)]
enum StepState {
    Done,
    Open,
    Locked,
}

impl StepState {
    fn name(self) -> &'static str {
        match self {
            StepState::Done => "done",
            StepState::Open => "open",
            StepState::Locked => "locked",
        }
    }

    /// A mark that does not rely on colour.
    fn mark(self) -> &'static str {
        match self {
            StepState::Done => "✓",
            StepState::Open => "▶",
            StepState::Locked => "○",
        }
    }
}

fn step_state(lessons: LessonContext, index: usize) -> StepState {
    lessons.generation.of(Part::Lesson).track();
    let current = lessons
        .with_tracker(|tracker| tracker.current_step())
        .unwrap_or(0);
    match index.cmp(&current) {
        std::cmp::Ordering::Less => StepState::Done,
        std::cmp::Ordering::Equal => StepState::Open,
        std::cmp::Ordering::Greater => StepState::Locked,
    }
}

#[component]
pub fn StepCard(index: usize, step: LessonStep) -> impl IntoView {
    let lessons = use_lesson();
    let status = Memo::new(move |_| step_state(lessons, index));
    let number = index + 1;
    // The live names in this card's text stop following the run once the step ticks.
    provide_context(StepText(index));
    let instruction = {
        let mut items = 0;
        blocks_view(
            &parse_blocks(&step.instruction),
            &mut items,
            None,
            LinkScope::Step,
        )
    };
    let predictions = step
        .predict
        .iter()
        .enumerate()
        .map(|(question, prediction)| {
            let done = Signal::derive(move || status.get() == StepState::Done);
            view! { <PredictQuestion step=index question=question prediction=prediction.clone() done=done /> }
        })
        .collect_view();
    let what_happened = move || {
        lessons.generation.of(Part::Lesson).track();
        lessons
            .with_tracker(|tracker| tracker.done(index).map(str::to_string))
            .flatten()
            .unwrap_or_default()
    };
    let label = move || format!("Step {number}, {}", status.get().name());
    // The body is built once and hidden while locked, so answers already picked survive the tick.
    view! {
        <li class=move || format!("lesson-step {}", status.get().name()) data-testid=format!("lesson-step-{number}")
            data-state=move || status.get().name() aria-label=label>
            <div class="lesson-step-head">
                <span class="lesson-step-mark" aria-hidden="true">{move || status.get().mark()}</span>
                <span>{format!("Step {number}")}</span>
                <span class="muted">{move || match status.get() { StepState::Done => "done", StepState::Open => "your turn", StepState::Locked => "locked" }}</span>
            </div>
            <p class="muted" hidden=move || status.get() != StepState::Locked>
                {format!("Finish step {} to unlock this one.", number.saturating_sub(1))}
            </p>
            <div class="lesson-step-body" hidden=move || status.get() == StepState::Locked>
                <div class="lesson-instruction">{instruction}</div>
                <p class="lesson-step-result" data-testid="step-result" hidden=move || status.get() != StepState::Done>
                    <strong>"✓ What happened: "</strong>{what_happened}
                </p>
                <Show when=move || status.get() == StepState::Open>
                    <OpenStepControls announce=true />
                </Show>
                {predictions}
            </div>
        </li>
    }
    .into_any()
}

/// The open step's live verdict and its "show me" button. Only one copy `announce`s its verdict, so a
/// screen reader hears it once.
#[component]
fn OpenStepControls(announce: bool) -> impl IntoView {
    let lessons = use_lesson();
    let controls = use_controls();
    let pending = move || {
        lessons.generation.of(Part::Lesson).track();
        lessons
            .with_tracker(|tracker| tracker.pending_count())
            .unwrap_or(0)
    };
    // While comparing, the lesson judges one side only; it says which, so a tick is never a puzzle.
    let judged_side = move || {
        controls.compare().is_comparing().then(|| {
            controls.compare().labels.with(|labels| {
                format!(
                    "Checked on the left run ({}). The right run ({}) gets every action at the same instant.",
                    labels.left, labels.right
                )
            })
        })
    };
    // The step before this one ticked on a run that is still on screen; this step has a world of its own.
    let next_world = move || {
        lessons.next_world.get().map(|step| {
            let number = step + 1;
            view! {
                <div class="lesson-next-world" data-testid="next-world" role="status">
                    <p>{format!("The run on screen is the one step {step} happened in: its badges, narration and timeline still show what happened. Step {number} starts from a fresh run.")}</p>
                    <button class="primary" data-testid="open-step-world" on:click=move |_| live::open_next_world(controls.root())>
                        {format!("Open step {number}'s world")}
                    </button>
                </div>
            }
        })
    };
    view! {
        {next_world}
        {move || judged_side().map(|words| view! { <p class="lesson-compare-side" data-testid="lesson-compare-side">{words}</p> })}
        <p class="lesson-verdict" aria-live=if announce { "polite" } else { "off" } data-testid="step-verdict">
            {move || {
                let verdict = lessons.verdict.get();
                if verdict.is_empty() { String::new() } else { format!("Not yet: {verdict}") }
            }}
        </p>
        <div class="row">
            <button class="primary" data-testid="show-me" on:click=move |_| crate::lesson::show_me::show_me(controls.root())
                title="Perform this step's actions for you, through the same controls (they appear in the timeline)">
                "Show me"
            </button>
            <span class="muted">{move || match pending() { 0 => String::new(), count => format!("{count} action(s) waiting for their moment") }}</span>
        </div>
    }
}

/// A multiple-choice question. A pick is locked in; its verdict and explanation are revealed when the
/// step happens in the run (or when the learner asks), so the answer never comes before the evidence.
#[component]
fn PredictQuestion(
    step: usize,
    question: usize,
    prediction: Prediction,
    done: Signal<bool>,
) -> impl IntoView {
    // Kept in the lesson's state, not here: this view is rebuilt when the step's own world opens.
    let predictions = use_lesson().predictions;
    let pick = move || predictions.with(|all| all.pick(step, question));
    let picked = Signal::derive(move || pick().map(|pick| pick.option));
    let revealed = move || pick().is_some_and(|pick| pick.revealed_early) || done.get();
    let options = prediction.options.clone();
    let feedback = move || {
        let option = picked.get().and_then(|index| options.get(index).cloned())?;
        if !revealed() {
            return Some(view! {
                <p class="predict-feedback locked" data-testid="predict-feedback" aria-live="polite">
                    <strong>"Locked in. "</strong>"The answer shows when this step happens in the run. "
                    <button class="link" data-testid="predict-reveal" on:click=move |_| predictions.update(|all| all.reveal_early(step, question))>"Reveal now"</button>
                </p>
            }
            .into_any());
        }
        let verdict = if option.correct {
            "✓ Right: "
        } else {
            "✗ Not quite: "
        };
        let evidence = if done.get() {
            " What the run showed is in the step's result above."
        } else {
            ""
        };
        Some(view! {
            <p class=if option.correct { "predict-feedback right" } else { "predict-feedback wrong" }
                data-testid="predict-feedback" aria-live="polite">
                <strong>{verdict}</strong>{inlines_view(&parse_inlines(&option.explanation), LinkScope::Step)}{evidence}
            </p>
        }
        .into_any())
    };
    let buttons = prediction
        .options
        .iter()
        .enumerate()
        .map(|(index, option)| {
            view! {
                <li>
                    <button class="predict-option" aria-pressed=move || (picked.get() == Some(index)).to_string()
                        disabled=move || picked.get().is_some() && picked.get() != Some(index)
                        data-testid="predict-option" on:click=move |_| predictions.update(|all| all.lock_in(step, question, index))>
                        {inlines_view(&parse_inlines(&option.text), LinkScope::Step)}
                    </button>
                </li>
            }
        })
        .collect_view();
    view! {
        <div class="predict" role="group" aria-label=format!("Prediction {} for step {}", question + 1, step + 1)
            data-testid="predict">
            <p class="predict-question"><strong>"Predict: "</strong>{inlines_view(&parse_inlines(&prediction.question), LinkScope::Step)}</p>
            <ul class="predict-options">{buttons}</ul>
            {feedback}
        </div>
    }
    .into_any()
}

/// The open step again, at the top of the lesson panel: its instruction, verdict and "show me", so the
/// step, the cluster and the node's actions are in view together. Its predictions stay in the full card.
#[component]
pub fn CurrentStepCard(steps: Vec<LessonStep>) -> impl IntoView {
    let lessons = use_lesson();
    let steps = StoredValue::new_local(steps);
    let current = move || {
        lessons.generation.of(Part::Lesson).track();
        lessons
            .with_tracker(|tracker| tracker.current_step())
            .unwrap_or(0)
    };
    move || {
        let index = current();
        let step = steps.with_value(|steps| steps.get(index).cloned())?;
        let mut items = 0;
        let instruction = blocks_view(
            &parse_blocks(&step.instruction),
            &mut items,
            None,
            LinkScope::Step,
        );
        // A step that asks for a speed says so, so a faster run is never a surprise.
        let speed = step.pacing.playback_percent.map(|percent| {
            format!(
                "This step plays at {} so the wait is short; the speed control in the playback bar changes it.",
                crate::components::playback::speed_label(percent as f64 / 10.0)
            )
        });
        // The questions live in the step's own card (its picks must survive the tick); this opens the
        // steps, which are folded away on a phone, and scrolls to them.
        let number = index + 1;
        let predictions = (!step.predict.is_empty()).then(|| {
            view! {
                <p class="muted">"Predict first: "
                    <button class="link" data-testid="go-to-predict"
                        on:click=move |_| crate::lesson::reach::show_predictions(number)>
                        {format!("answer step {number}'s question")}
                    </button>
                    " before you act."
                </p>
            }
        });
        Some(view! {
            <section class="current-step" data-testid="current-step" aria-label=format!("Now: step {}", index + 1)>
                <p class="current-step-kicker">{format!("▶ Now: step {}", index + 1)}</p>
                <div class="lesson-instruction">{instruction}</div>
                {predictions}
                {speed.map(|words| view! { <p class="muted" data-testid="step-speed">{words}</p> })}
                <LookNowNote />
                <OpenStepControls announce=false />
            </section>
        })
    }
}

/// The open step's "look now" moment: the run stopped where the step points, and says what to see.
#[component]
fn LookNowNote() -> impl IntoView {
    let playback = use_playback();
    let lessons = use_lesson();
    let controls = use_controls();
    let look_now = lessons.pacing.look_now;
    move || {
        let look = look_now.get().filter(|_| !playback.playing.get())?;
        let mut items = 0;
        let say = blocks_view(&parse_blocks(&look.say), &mut items, None, LinkScope::Step);
        Some(view! {
            <div class="lesson-look-now" data-testid="look-now" role="status">
                <p><strong>"Look now. "</strong>"The run is paused at the moment this step is about."</p>
                {say}
                <button class="primary" data-testid="look-now-go-on" on:click=move |_| controls.toggle_playing()>"▶ Go on"</button>
            </div>
        })
    }
}
