//! "Compare with…": the options of the run shown that can be set differently on a second side. Picking
//! one keeps the run shown where it is and sets beside it a second run replayed to the same moment
//! with the same actions; picking another while comparing flips it too (the right side is replayed
//! again, still at the same moment), and picking a flipped one again sets it back (with none left, one
//! run remains).

use crate::compare::open::open_compare_here;
use crate::context::notice::Notice;
use crate::context::{use_notices, use_run};
use crate::state::controls::use_controls;
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

/// Whether `key`, pressed on the picker while it is closed, would pick an option on its own: a closed
/// `<select>` selects (and reports a change for) whatever option a typed letter or an arrow lands on, so
/// "L" meant for the lesson list opened a comparison with the first option starting with "l". Those
/// keys are kept from it; Space, Enter and Alt+↓ still open its list, where arrows and letters move
/// and only Enter or a click chooses.
pub fn would_pick_while_closed(key: &str, alt: bool) -> bool {
    let printable = key.chars().count() == 1 && key != " ";
    let moves = matches!(
        key,
        "ArrowUp"
            | "ArrowDown"
            | "ArrowLeft"
            | "ArrowRight"
            | "Home"
            | "End"
            | "PageUp"
            | "PageDown"
    );
    !alt && (printable || moves)
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
    let run = use_run();
    let notices = use_notices();
    let controls = use_controls();
    let hook = controls.compare();
    let offered = Memo::new(move |_| run.scenario.with(offers));
    let pick = move |name: String| {
        let Some(variation) = Variation::by_name(&name) else {
            return;
        };
        let chosen = toggled(&hook.variations.get_untracked(), variation);
        if chosen.is_empty() {
            hook.end();
            return;
        }
        let notice = match open_compare_here(controls.root(), chosen) {
            Ok(()) => Notice {
                text: format!(
                    "Compared from {}: the right side replayed the same actions to this moment",
                    run.with_session(|session| crate::format::sim_time(session.now().as_micros()))
                ),
                is_error: false,
            },
            Err(reason) => Notice {
                text: format!("Cannot compare: {reason}"),
                is_error: true,
            },
        };
        notices.notice.set(Some(notice));
    };
    // Closed, the picker says what is being compared, so the choice stays readable once made.
    let prompt = move || {
        hook.variations.with(|chosen| {
            if chosen.is_empty() {
                "Compare with…".to_string()
            } else {
                let names: Vec<&str> = chosen.iter().map(|variation| variation.name()).collect();
                format!("Compare: {}", names.join(" + "))
            }
        })
    };
    view! {
        // The first choice names the control, so the header needs no label beside it (it must fit one line).
        <label class="compare-picker" data-right-sides-alive=move || {
            // For browser tests: right sides still holding signals (freed a tick after each close).
            hook.released.track();
            hook.partner.track();
            crate::compare::hook::right_sides_alive().to_string()
        }>
            <select data-testid="compare-picker" aria-label="Compare with the same run with an option changed"
                title=prompt
                prop:value=move || {
                    // Back to the prompt after every pick, so picking the same option again is a change.
                    hook.variations.track();
                    ""
                }
                disabled=move || offered.with(Vec::is_empty)
                on:keydown=move |event| if would_pick_while_closed(&event.key(), event.alt_key()) { event.prevent_default(); }
                on:change=move |event| pick(event_target_value(&event))>
                <option value="">{prompt}</option>
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
    fn letters_and_arrows_on_the_closed_picker_are_kept_from_it() {
        for key in ["l", "L", "f", "ArrowDown", "ArrowUp", "End"] {
            assert!(would_pick_while_closed(key, false), "{key}");
        }
        for key in [" ", "Enter", "Tab", "Escape", "Shift"] {
            assert!(!would_pick_while_closed(key, false), "{key}");
        }
        assert!(
            !would_pick_while_closed("ArrowDown", true),
            "Alt+↓ opens the list"
        );
    }

    #[test]
    fn picking_a_chosen_option_again_removes_it() {
        let chosen = toggled(&[], Variation::Fencing);
        assert_eq!(chosen, vec![Variation::Fencing]);
        assert!(toggled(&chosen, Variation::Fencing).is_empty());
    }
}
