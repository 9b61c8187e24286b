//! The protocol picker: plain Raft, or one of the coordination examples (locks with and without
//! fencing, Redis and Redlock, the invoice scheduler, ZooKeeper recipes, the work queue). Choosing one
//! starts a fresh run of that scenario. The examples are `scenario::EXAMPLES`, the same files the CLI
//! and the tests run.

use crate::state::{default_scenario, AppState};
use leptos::prelude::*;
use quorumlab_sim::scenario::{parse_scenario, Scenario, EXAMPLES};

/// One choice: its option value (the file name, or `raft`) and the scenario it starts.
#[derive(Clone, Debug)]
struct Choice {
    value: &'static str,
    scenario: Scenario,
}

/// Raft first, then every coordination example that parses, in teaching order.
fn choices() -> Vec<Choice> {
    let mut choices = vec![Choice {
        value: "raft",
        scenario: default_scenario(),
    }];
    for (name, text) in EXAMPLES {
        if let Ok(scenario) = parse_scenario(text, name) {
            if scenario.protocol_name() != "raft" {
                choices.push(Choice {
                    value: name,
                    scenario,
                });
            }
        }
    }
    choices
}

#[component]
pub fn ProtocolPicker() -> impl IntoView {
    let state = expect_context::<AppState>();
    let choices = StoredValue::new(choices());
    // The option matching the running scenario, if any (a share link or lesson may run something else).
    let current = move || {
        let title = state.scenario.with(|scenario| scenario.title.clone());
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
            state.restart(scenario);
            state.playing.set(true);
        }
    };
    view! {
        <label class="protocol-picker">
            <span class="muted">"Protocol"</span>
            <select data-testid="protocol-picker" aria-label="Protocol or example"
                prop:value=current
                on:change=move |event| pick(event_target_value(&event))>
                <option value="" disabled=true>"(custom run)"</option>
                {choices.with_value(|choices| choices.iter().map(|choice| {
                    let label = if choice.value == "raft" {
                        "Raft".to_string()
                    } else {
                        choice.scenario.title.clone()
                    };
                    view! { <option value=choice.value>{label}</option> }
                }).collect::<Vec<_>>())}
            </select>
        </label>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn raft_first_then_every_coordination_example() {
        let choices = choices();
        assert_eq!(choices[0].value, "raft");
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
            .all(|choice| choice.scenario.protocol_name() != "raft"));
    }
}
