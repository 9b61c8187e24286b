//! The protocol picker: plain Raft, or one of the coordination examples (locks with and without
//! fencing, Redis and Redlock, the invoice scheduler, ZooKeeper recipes, the work queue). Choosing one
//! starts a fresh run of that scenario. The examples are `scenario::EXAMPLES`, the same files the CLI
//! and the tests run.

use crate::context::{use_playback, use_run};
use crate::state::controls::use_controls;
use crate::state::default_scenario;
use leptos::prelude::*;
use quorumlab_sim::scenario::{parse_scenario, Scenario, EXAMPLES};

/// One choice: its option value (the file name, or the Raft entry's name for the playground), the
/// text the menu shows and the scenario it starts.
#[derive(Clone, Debug)]
struct Choice {
    value: &'static str,
    label: String,
    scenario: Scenario,
}

/// The playground first, then every coordination example that parses, in teaching order. The
/// playground is named by its world's registry entry; an example by its own title, since several share
/// one world.
fn choices() -> Vec<Choice> {
    let playground = default_scenario();
    let entry = playground.protocol.entry();
    let mut choices = vec![Choice {
        value: entry.name,
        label: entry.title.to_string(),
        scenario: playground,
    }];
    for (name, text) in EXAMPLES {
        if let Ok(scenario) = parse_scenario(text, name) {
            if scenario.protocol.is_coordination() {
                choices.push(Choice {
                    value: name,
                    label: scenario.title.clone(),
                    scenario,
                });
            }
        }
    }
    choices
}

#[component]
pub fn ProtocolPicker() -> impl IntoView {
    let run = use_run();
    let playback = use_playback();
    let controls = use_controls();
    let choices = StoredValue::new(choices());
    // The option matching the running scenario, if any (a share link or lesson may run something else).
    let current = move || {
        let title = run.scenario.with(|scenario| scenario.title.clone());
        choices.with_value(|choices| {
            choices
                .iter()
                .find(|choice| choice.scenario.title == title)
                .map_or("", |choice| choice.value)
        })
    };
    let pick = move |value: String| {
        let scenario = choices.with_value(|choices| {
            choices
                .iter()
                .find(|choice| choice.value == value)
                .map(|choice| choice.scenario.clone())
        });
        if let Some(scenario) = scenario {
            controls.restart(scenario);
            playback.playing.set(true);
        }
    };
    // A run the picker does not list (a lesson's, a share link's, an import) is named by its title, so
    // the closed picker never hides what is running; the tooltip shows a name the width cut short.
    let running = move || run.scenario.with(|scenario| scenario.title.clone());
    let shown = move || {
        let value = current();
        choices.with_value(|choices| {
            choices
                .iter()
                .find(|choice| choice.value == value)
                .map_or_else(running, |choice| choice.label.clone())
        })
    };
    view! {
        <label class="protocol-picker">
            <span class="muted">"Protocol"</span>
            <select data-testid="protocol-picker" aria-label="Protocol or example"
                title=shown
                prop:value=current
                on:change=move |event| pick(event_target_value(&event))>
                <option value="" disabled=true>{running}</option>
                {choices.with_value(|choices| choices.iter().map(|choice| {
                    view! { <option value=choice.value>{choice.label.clone()}</option> }
                }).collect::<Vec<_>>())}
            </select>
        </label>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use quorumlab_sim::ProtocolKind;

    #[test]
    fn raft_first_then_every_coordination_example() {
        let choices = choices();
        assert_eq!(choices[0].value, ProtocolKind::Raft.name());
        assert_eq!(choices[0].label, "Raft");
        for example in [
            "no-fencing-pause.toml",
            "redlock-clock-jump.toml",
            "zk-herd.toml",
        ] {
            assert!(choices.iter().any(|choice| choice.value == example));
        }
        assert!(choices
            .iter()
            .any(|choice| choice.value == "fencing-pause.toml"));
        assert!(choices[1..]
            .iter()
            .all(|choice| choice.scenario.protocol.kind() != ProtocolKind::Raft));
    }
}
