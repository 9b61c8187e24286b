//! The budget of a "Can it break?" search, as the card's fields: the whole numbers (depth, faults,
//! states), how far to look ahead in seconds (tenths allowed: the forgetful acceptors' break lies in
//! the first tenth of a second, and a whole second of one-link cuts costs five times the states), and
//! the kinds of fault the search may use, one checkbox each. "Cut one link at a time" is offered only
//! where the world has at least three nodes: with two, cutting their one link is isolating either.
//!
//! A value the budget cannot take is put back to the last good one, and the card says why, so a typo
//! is never silently replaced.

use crate::explore::question::{Budget, FaultKinds, MAX_HORIZON_S, MIN_HORIZON_MS};
use leptos::prelude::*;

/// The card's budget and why the last value typed was not taken.
#[derive(Clone, Copy)]
pub struct BudgetForm {
    pub budget: RwSignal<Budget>,
    pub problem: RwSignal<Option<String>>,
}

/// One whole number of the budget, from 1 to `max`.
#[component]
pub fn BudgetField(
    label: &'static str,
    test_id: &'static str,
    max: u64,
    form: BudgetForm,
    read: fn(&Budget) -> u64,
    write: fn(&mut Budget, u64),
) -> impl IntoView {
    let change = move |event| {
        let text = event_target_value(&event);
        match text.trim().parse::<u64>() {
            Ok(value) if (1..=max).contains(&value) => {
                form.problem.set(None);
                form.budget.update(|budget| write(budget, value))
            }
            _ => {
                let kept = crate::format::thousands(form.budget.with_untracked(read));
                let allowed = format!("a whole number from 1 to {}", crate::format::thousands(max));
                form.problem
                    .set(Some(budget_problem(label, &text, &allowed, &kept)));
                // Put the field back: the signal did not change, so set it to itself.
                form.budget.update(|_| {});
            }
        }
    };
    view! {
        <label class="search-number">{label}
            <input type="number" inputmode="numeric" min="1" max=max.to_string() data-testid=test_id
                prop:value=move || form.budget.with(read).to_string() on:change=change />
        </label>
    }
}

/// How far ahead to look, in seconds with at most three decimals, from 0.1 to the page's limit.
#[component]
pub fn LookAheadField(form: BudgetForm) -> impl IntoView {
    let label = "Look ahead (s)";
    let change = move |event| {
        let text = event_target_value(&event);
        match seconds_to_ms(&text) {
            Some(ms) if (MIN_HORIZON_MS..=MAX_HORIZON_S * 1_000).contains(&ms) => {
                form.problem.set(None);
                form.budget.update(|budget| budget.horizon_ms = ms)
            }
            _ => {
                let kept = ms_as_seconds(form.budget.with_untracked(|budget| budget.horizon_ms));
                let allowed = format!("a number of seconds from 0.1 to {MAX_HORIZON_S}");
                form.problem
                    .set(Some(budget_problem(label, &text, &allowed, &kept)));
                form.budget.update(|_| {});
            }
        }
    };
    view! {
        <label class="search-number">{label}
            <input type="number" inputmode="decimal" min="0.1" step="0.1" max=MAX_HORIZON_S.to_string()
                data-testid="search-horizon"
                prop:value=move || ms_as_seconds(form.budget.with(|budget| budget.horizon_ms))
                on:change=change />
        </label>
    }
}

/// The kinds of fault the search may use, one checkbox each.
#[component]
pub fn FaultKindsField(form: BudgetForm, node_count: Signal<usize>) -> impl IntoView {
    let kind = move |label: &'static str,
                     test_id: &'static str,
                     read: fn(&FaultKinds) -> bool,
                     write: fn(&mut FaultKinds, bool)| {
        view! {
            <label><input type="checkbox" data-testid=test_id
                prop:checked=move || form.budget.with(|budget| read(&budget.kinds))
                on:change=move |event| {
                    let on = event_target_checked(&event);
                    form.budget.update(|budget| write(&mut budget.kinds, on));
                } />
                {label}</label>
        }
    };
    let cuts_offered = move || node_count.get() >= crate::explore::question::MIN_NODES_FOR_CUTS;
    view! {
        <fieldset class="search-kinds" data-testid="search-kinds">
            <legend>"Faults it may use"</legend>
            {kind("crash and restart a node", "search-kind-crash", |kinds| kinds.crash, |kinds, on| kinds.crash = on)}
            {kind("pause a node (¼, 1 or 2 s)", "search-kind-pause", |kinds| kinds.pauses, |kinds, on| kinds.pauses = on)}
            {kind("isolate a node from all others", "search-kind-isolate", |kinds| kinds.isolate, |kinds, on| kinds.isolate = on)}
            <Show when=cuts_offered>
                {kind("cut one link at a time (two nodes stop hearing each other; the others still do)",
                    "search-kind-cut", |kinds| kinds.cut_links, |kinds, on| kinds.cut_links = on)}
            </Show>
        </fieldset>
    }
}

/// `"0.3"` as 300 ms; `None` for anything that is not a number of seconds in whole ms.
pub fn seconds_to_ms(text: &str) -> Option<u64> {
    let text = text.trim();
    let (whole, fraction) = text.split_once('.').unwrap_or((text, ""));
    let digits = |part: &str| part.chars().all(|character| character.is_ascii_digit());
    if (whole.is_empty() && fraction.is_empty()) || !digits(whole) || !digits(fraction) {
        return None;
    }
    if fraction.len() > 3 || whole.len() > 6 {
        return None;
    }
    let whole_ms = whole.parse::<u64>().unwrap_or(0) * 1_000;
    let fraction_ms = format!("{fraction:0<3}").parse::<u64>().ok()?;
    Some(whole_ms + fraction_ms)
}

/// 300 ms as `"0.3"`, 5,000 as `"5"`.
pub fn ms_as_seconds(ms: u64) -> String {
    let fraction = format!("{:03}", ms % 1_000);
    let fraction = fraction.trim_end_matches('0');
    if fraction.is_empty() {
        format!("{}", ms / 1_000)
    } else {
        format!("{}.{fraction}", ms / 1_000)
    }
}

/// The sentence for a value the budget did not take: what was typed, what is allowed, what stays.
pub fn budget_problem(label: &str, typed: &str, allowed: &str, kept: &str) -> String {
    let typed = typed.trim();
    let typed: String = typed.chars().take(24).collect();
    let what = if typed.is_empty() {
        "an empty value".to_string()
    } else {
        format!("“{typed}”")
    };
    format!("{label}: {what} is not {allowed}; it stays {kept}.")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_refused_budget_number_says_what_was_typed_what_is_allowed_and_what_stays() {
        assert_eq!(
            budget_problem(
                "States",
                " 9000000 ",
                "a whole number from 1 to 500,000",
                "20,000"
            ),
            "States: “9000000” is not a whole number from 1 to 500,000; it stays 20,000."
        );
        assert_eq!(
            budget_problem("Faults", "", "a whole number from 1 to 6", "2"),
            "Faults: an empty value is not a whole number from 1 to 6; it stays 2."
        );
        let long = "9".repeat(100);
        let shown = budget_problem("Depth (steps)", &long, "x", "3");
        assert!(shown.contains(&"9".repeat(24)) && !shown.contains(&"9".repeat(25)));
    }

    #[test]
    fn look_ahead_reads_tenths_of_a_second_and_says_them_back() {
        for (typed, ms) in [("0.3", 300), ("5", 5_000), (" 1.25 ", 1_250), (".5", 500)] {
            assert_eq!(seconds_to_ms(typed), Some(ms), "{typed}");
        }
        for typed in ["", ".", "-1", "0.0001", "1e3", "abc", "1.2.3", "9999999"] {
            assert_eq!(seconds_to_ms(typed), None, "{typed}");
        }
        assert_eq!(ms_as_seconds(300), "0.3");
        assert_eq!(ms_as_seconds(5_000), "5");
        assert_eq!(ms_as_seconds(1_250), "1.25");
    }
}
