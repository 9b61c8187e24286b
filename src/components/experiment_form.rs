//! The experiment sheet's form: a preset, what to measure (and, for a checkpoint's time to tick,
//! which lesson checkpoint), the timing to sweep and its values, the trials per value, how long a
//! trial waits, and the first seed. Each field changes
//! `ExperimentSheetState::form`; a value that is not a number is refused by name and leaves the
//! form as it was. Nothing here runs anything: the Run button below does.

use crate::experiment::form::{key_label, ExperimentForm, MeasureChoice, KEYS};
use crate::experiment::presets::{preset, PRESETS};
use crate::experiment::sheet::{ExperimentSheetState, RunStatus};
use crate::state::AppState;
use leptos::prelude::*;
use quorumlab_sim::lesson::checkpoint_names;

/// A number field's change: applied to the form, or refused with `what` named.
fn change_number(
    sheet: ExperimentSheetState,
    text: String,
    what: &str,
    apply: fn(&mut ExperimentForm, u64),
) {
    match text.trim().parse::<u64>() {
        Ok(value) => sheet.form.update(|form| apply(form, value)),
        Err(_) => sheet.status.set(RunStatus::Failed(format!(
            "{what}: write a whole number, not “{}”",
            text.trim()
        ))),
    }
}

#[component]
pub fn ExperimentFormFields() -> impl IntoView {
    let sheet = expect_context::<ExperimentSheetState>();
    let state = expect_context::<AppState>();
    let busy = move || {
        matches!(
            sheet.status.get(),
            RunStatus::Starting | RunStatus::Running { .. }
        )
    };
    let question = move || {
        preset(sheet.preset_id.get())
            .map(|preset| preset.question)
            .unwrap_or_default()
    };
    let choose_preset = move |event| {
        if let Some(chosen) = preset(&event_target_value(&event)) {
            sheet.choose(state, chosen);
            sheet.status.set(RunStatus::Idle);
        }
    };
    let choose_measure = move |event| {
        if let Some(measure) = MeasureChoice::from_id(&event_target_value(&event)) {
            sheet.form.update(|form| form.measure = measure);
        }
    };
    let watches_checkpoint = move || sheet.form.get().measure == MeasureChoice::CheckpointTime;
    let choose_key = move |event| {
        let name = event_target_value(&event);
        if let Some(key) = KEYS.into_iter().find(|key| key.name() == name) {
            sheet.form.update(|form| form.key = key);
        }
    };
    view! {
        <div class="experiment-form">
            <label class="experiment-field wide">"Experiment"
                <select data-testid="experiment-preset" prop:value=move || sheet.preset_id.get() on:change=choose_preset disabled=busy>
                    {PRESETS.iter().map(|preset| view! { <option value=preset.id>{preset.title}</option> }).collect_view()}
                </select>
            </label>
            <p class="muted experiment-question" data-testid="experiment-question">{question}</p>
            <label class="experiment-field choice">"Measure"
                <select data-testid="experiment-measure" prop:value=move || sheet.form.get().measure.id() on:change=choose_measure disabled=busy>
                    {MeasureChoice::ALL.iter().map(|measure| view! { <option value=measure.id()>{measure.label()}</option> }).collect_view()}
                </select>
            </label>
            <label class="experiment-field choice">"Sweep"
                <select data-testid="experiment-key" prop:value=move || sheet.form.get().key.name() on:change=choose_key disabled=busy>
                    {KEYS.iter().map(|key| view! { <option value=key.name()>{key_label(*key)}</option> }).collect_view()}
                </select>
            </label>
            {move || watches_checkpoint().then(|| view! {
                <label class="experiment-field wide">"Lesson checkpoint"
                    <input type="text" list="experiment-checkpoints" data-testid="experiment-checkpoint" spellcheck="false" disabled=busy
                        placeholder="leader_changed" prop:value=move || sheet.form.get().checkpoint
                        on:change=move |event| sheet.form.update(|form| form.checkpoint = event_target_value(&event)) />
                    <datalist id="experiment-checkpoints">
                        {checkpoint_names().map(|name| view! { <option value=name></option> }).collect_view()}
                    </datalist>
                </label>
            })}
            <label class="experiment-field wide">"Values (one line each, comma-separated)"
                <input type="text" data-testid="experiment-values" spellcheck="false" disabled=busy
                    prop:value=move || sheet.form.get().values_text
                    on:change=move |event| sheet.form.update(|form| form.values_text = event_target_value(&event)) />
            </label>
            <label class="experiment-field">"Trials per value"
                <input type="number" min="1" max="10000" data-testid="experiment-trials" disabled=busy
                    prop:value=move || sheet.form.get().trials.to_string()
                    on:change=move |event| change_number(sheet, event_target_value(&event), "trials per value", |form, value| form.trials = value) />
            </label>
            <label class="experiment-field">{move || sheet.form.get().measure.bound_label()}
                <input type="number" min="1" data-testid="experiment-bound" disabled=busy
                    prop:value=move || sheet.form.get().bound_ms.to_string()
                    on:change=move |event| change_number(sheet, event_target_value(&event), "wait for a leader", |form, value| form.bound_ms = value) />
            </label>
            <label class="experiment-field">"First seed"
                <input type="number" min="0" data-testid="experiment-seed" disabled=busy
                    prop:value=move || sheet.form.get().first_seed.to_string()
                    on:change=move |event| change_number(sheet, event_target_value(&event), "first seed", |form, value| form.first_seed = value) />
            </label>
        </div>
    }
}
