//! The protocol picker: plain Raft, or one of the coordination examples (locks with and without
//! fencing, Redis and Redlock, the invoice scheduler, ZooKeeper recipes, the work queue). Choosing one
//! starts a fresh run of that scenario. The examples are `scenario::EXAMPLES`, the same files the CLI
//! and the tests run. They are read by the scenario reader (`crate::scenario_reader`), a part that
//! arrives just after the first paint: until it has, the list holds the playground and a line saying
//! the examples are on their way (or, if the part cannot arrive, that they could not be loaded).

use crate::context::{use_playback, use_run};
use crate::scenario_reader::with_reader;
use crate::state::controls::use_controls;
use crate::state::default_scenario;
use leptos::prelude::*;
use quorumlab_sim::scenario::Scenario;

/// One choice: its option value (the file name, or the Raft entry's name for the playground), the
/// text the menu shows and the scenario it starts.
#[derive(Clone, Debug)]
struct Choice {
    value: &'static str,
    label: String,
    scenario: Scenario,
}

/// Where the examples stand: on their way, here (in the choices), or not coming.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Examples {
    Arriving,
    Here,
    Missing,
}

/// The playground, named by its world's registry entry.
fn playground_choice() -> Choice {
    let playground = default_scenario();
    let entry = playground.protocol.entry();
    Choice {
        value: entry.name,
        label: entry.title.to_string(),
        scenario: playground,
    }
}

/// The playground first, then every coordination example of `examples` (parsed, in teaching order),
/// each named by its own title, since several share one world.
fn choices_with(examples: Vec<(&'static str, Scenario)>) -> Vec<Choice> {
    let coordination = examples
        .into_iter()
        .filter(|(_, scenario)| scenario.protocol.is_coordination())
        .map(|(name, scenario)| Choice {
            value: name,
            label: scenario.title.clone(),
            scenario,
        });
    std::iter::once(playground_choice())
        .chain(coordination)
        .collect()
}

#[component]
pub fn ProtocolPicker() -> impl IntoView {
    let run = use_run();
    let playback = use_playback();
    let controls = use_controls();
    let choices = RwSignal::new(vec![playground_choice()]);
    let examples = RwSignal::new(Examples::Arriving);
    with_reader(move |reader| match reader {
        Ok(reader) => {
            choices.set(choices_with((reader.examples)()));
            examples.set(Examples::Here);
        }
        Err(_) => examples.set(Examples::Missing),
    });
    // The option matching the running scenario, if any (a share link or lesson may run something else).
    let current = move || {
        let title = run.scenario.with(|scenario| scenario.title.clone());
        choices.with(|choices| {
            choices
                .iter()
                .find(|choice| choice.scenario.title == title)
                .map_or("", |choice| choice.value)
        })
    };
    let pick = move |value: String| {
        let scenario = choices.with_untracked(|choices| {
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
        choices.with(|choices| {
            choices
                .iter()
                .find(|choice| choice.value == value)
                .map_or_else(running, |choice| choice.label.clone())
        })
    };
    // The list is drawn again, whole, when the examples arrive (once), so the select's value is set
    // after its options exist: a share link may already be running one of them.
    let select = move || {
        let status = examples.get();
        let options = choices.with_untracked(|choices| {
            choices
                .iter()
                .map(|choice| view! { <option value=choice.value>{choice.label.clone()}</option> })
                .collect::<Vec<_>>()
        });
        view! {
            <select data-testid="protocol-picker" aria-label="Protocol or example"
                title=shown
                prop:value=current
                on:change=move |event| pick(event_target_value(&event))>
                <option value="" disabled=true>{running}</option>
                {options}
                {status_option(status)}
            </select>
        }
    };
    view! {
        <label class="protocol-picker">
            <span class="muted">"Protocol"</span>
            {select}
        </label>
    }
}

/// The list's last line while the examples are not in it.
fn status_option(status: Examples) -> Option<impl IntoView> {
    let (test_id, text) = match status {
        Examples::Here => return None,
        Examples::Arriving => ("picker-examples-arriving", "Examples: loading…"),
        Examples::Missing => (
            "picker-examples-missing",
            "Examples could not be loaded: reconnect and reload",
        ),
    };
    Some(view! { <option value="" disabled=true data-testid=test_id>{text}</option> })
}

#[cfg(test)]
mod tests {
    use super::*;
    use quorumlab_sim::ProtocolKind;

    #[test]
    fn raft_first_then_every_coordination_example() {
        let reader = crate::scenario_reader::the_reader();
        let choices = choices_with((reader.examples)());
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
