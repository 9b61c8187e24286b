//! "Compare with…": the options of the run shown that can be set differently on a second side. Picking
//! one starts both runs from the beginning side by side; picking another while comparing flips it too,
//! and picking a flipped one again sets it back (with none left, one run remains).

use crate::compare::open::open_compare;
use crate::state::{AppState, Notice};
use leptos::prelude::*;
use quorumlab_sim::compare::variation::Variation;
use quorumlab_sim::scenario::Scenario;

/// The options `scenario` can be compared on, each with its words ("fencing on vs fencing off").
fn offers(scenario: &Scenario) -> Vec<(Variation, String)> {
    Variation::ALL
        .iter()
        .filter_map(|variation| {
            let here = variation.value(scenario)?;
            let there = variation.apply(scenario).ok()?;
            let there = variation.value(&there)?;
            Some((*variation, format!("{here} vs {there}")))
        })
        .collect()
}

fn toggled(chosen: &[Variation], variation: Variation) -> Vec<Variation> {
    if chosen.contains(&variation) {
        chosen
            .iter()
            .copied()
            .filter(|kept| *kept != variation)
            .collect()
    } else {
        chosen.iter().copied().chain([variation]).collect()
    }
}

#[component]
pub fn ComparePicker() -> impl IntoView {
    let state = expect_context::<AppState>();
    let hook = state.compare;
    let offered = Memo::new(move |_| state.scenario.with(offers));
    let pick = move |name: String| {
        let Some(variation) = Variation::by_name(&name) else {
            return;
        };
        let chosen = toggled(&hook.variations.get_untracked(), variation);
        if chosen.is_empty() {
            hook.end();
            return;
        }
        let base = state.scenario.get_untracked();
        if let Err(reason) = open_compare(state, base, chosen) {
            state.notice.set(Some(Notice {
                text: format!("Cannot compare: {reason}"),
                is_error: true,
            }));
        }
    };
    view! {
        // The first choice names the control, so the header needs no label beside it (it must fit one line).
        <label class="compare-picker">
            <select data-testid="compare-picker" aria-label="Compare with the same run with an option changed"
                prop:value=move || {
                    // Back to the prompt after every pick, so picking the same option again is a change.
                    hook.variations.track();
                    ""
                }
                disabled=move || offered.with(Vec::is_empty)
                on:change=move |event| pick(event_target_value(&event))>
                <option value="">{move || if hook.is_comparing() { "Compare: add or remove…" } else { "Compare with…" }}</option>
                {move || offered.get().into_iter().map(|(variation, words)| {
                    let mark = move || if hook.variations.with(|chosen| chosen.contains(&variation)) { "✓ " } else { "" };
                    view! { <option value=variation.name()>{mark}{words}</option> }
                }).collect_view()}
            </select>
        </label>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compare::open::example;

    #[test]
    fn the_fenced_lock_service_offers_fencing_and_redlock() {
        let offered = offers(&example("fencing-pause.toml").unwrap());
        let names: Vec<&str> = offered
            .iter()
            .map(|(variation, _)| variation.name())
            .collect();
        assert!(
            names.contains(&"fencing") && names.contains(&"redlock"),
            "{names:?}"
        );
        assert!(offered
            .iter()
            .any(|(_, words)| words == "fencing on vs fencing off"));
        assert!(offers(&example("zk-herd.toml").unwrap())
            .iter()
            .any(|(variation, _)| *variation == Variation::ZkRecipe));
    }

    #[test]
    fn picking_a_chosen_option_again_removes_it() {
        let chosen = toggled(&[], Variation::Fencing);
        assert_eq!(chosen, vec![Variation::Fencing]);
        assert!(toggled(&chosen, Variation::Fencing).is_empty());
    }
}
