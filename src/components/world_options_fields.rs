//! The settings panel's "This world's options": one field per option the world's registry entry
//! declares (a tick for a flag, a list for a choice, a number box with its limits), each with its
//! sentence from the entry. They apply with the rest of the settings, to a fresh run.

use crate::settings_form::world_options::WorldOptionField;
use crate::settings_form::SettingsForm;
use leptos::prelude::*;
use quorumlab_sim::entry::OptionValue;

#[component]
pub fn WorldOptionsFields(form: RwSignal<SettingsForm>) -> impl IntoView {
    // The fields themselves change only with the world; their values are read one by one, so typing
    // in one box does not rebuild the others (which would drop the keyboard focus).
    let fields = Memo::new(move |_| {
        form.with(|form| {
            form.world_options
                .iter()
                .map(|field| WorldOptionField {
                    text: String::new(),
                    checked: false,
                    ..field.clone()
                })
                .collect::<Vec<_>>()
        })
    });
    view! {
        <Show when=move || fields.with(|fields| !fields.is_empty())>
            <fieldset class="world-options" data-testid="world-options">
                <legend>"This world's options"</legend>
                {move || fields.get().into_iter().enumerate().map(|(index, field)| option_field(form, index, field)).collect_view()}
            </fieldset>
        </Show>
    }
}

fn option_field(form: RwSignal<SettingsForm>, index: usize, field: WorldOptionField) -> AnyView {
    let text = move || {
        form.with(|form| {
            form.world_options
                .get(index)
                .map(|field| field.text.clone())
                .unwrap_or_default()
        })
    };
    let checked = move || {
        form.with(|form| {
            form.world_options
                .get(index)
                .is_some_and(|field| field.checked)
        })
    };
    let set_text = move |value: String| {
        form.update(|form| {
            if let Some(field) = form.world_options.get_mut(index) {
                field.text = value;
            }
        })
    };
    let set_checked = move |value: bool| {
        form.update(|form| {
            if let Some(field) = form.world_options.get_mut(index) {
                field.checked = value;
            }
        })
    };
    let label = field.label();
    let about = field.about;
    let testid = field.test_id();
    let limits = field.limits();
    // An option one of whose values is unsafe on purpose: its sentence says which, the bar draws the eye.
    let unsafe_words = about.contains("UNSAFE");
    let control = match field.value_kind {
        OptionValue::Flag => view! {
            <label class="check">
                <input type="checkbox" data-testid=testid prop:checked=checked
                    on:change=move |event| set_checked(event_target_checked(&event)) />
                <span>{label}</span>
            </label>
        }
        .into_any(),
        OptionValue::Choice { names, .. } => view! {
            <label class="field">
                <span>{label}</span>
                <select data-testid=testid prop:value=text on:change=move |event| set_text(event_target_value(&event))>
                    {names.iter().map(|name| {
                        let name: &'static str = name;
                        view! { <option value=name selected=move || text() == name>{name}</option> }
                    }).collect_view()}
                </select>
            </label>
        }
        .into_any(),
        OptionValue::Unsigned { .. } => view! {
            <label class="field">
                <span>{label}" · "{limits}</span>
                <input type="text" inputmode="numeric" data-testid=testid prop:value=text
                    on:change=move |event| set_text(event_target_value(&event)) />
            </label>
        }
        .into_any(),
    };
    view! {
        <div class="world-option" class:unsafe-option=unsafe_words>
            {control}
            <p class="hint">{about}</p>
        </div>
    }
    .into_any()
}
