//! The invoice scheduler, minute by minute: one row per instance, one column per simulated minute, a
//! filled cell where that instance generated the minute's invoices, and under them a row that counts
//! each minute's invoices.
//!
//! Every minute gets a column, invoiced or not. The lessons are about the minutes that go wrong: a
//! minute nobody invoiced (a crash, a clock that jumped) and a minute invoiced twice (a pause). A strip
//! drawn only from the invoices that arrived would have no column for a missed minute at all, and would
//! read as unbroken work exactly when the story is a gap. So the columns run from minute 1 to the
//! minute now under way (or the newest invoiced, if a clock ahead of the world's already named a later
//! one), a minute that has ended with no invoice is marked missed (✕, hatched), and a doubled one is
//! marked with its count (`2×`): never by colour alone. A minute is judged once it has ended, as the
//! `missed_invoice` checkpoint judges it, so the minute under way is not called missed early.

use crate::context::use_run;
use leptos::prelude::*;
use quorumlab_sim::view::ClusterView;

/// Minutes drawn, newest at the right.
const MINUTES_SHOWN: u64 = 30;

/// How one minute went.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum MinuteOutcome {
    /// Invoiced once.
    Once,
    /// Invoiced by two or more instances (the count).
    Doubled(usize),
    /// Ended with no invoice.
    Missed,
    /// Still under way (or not yet begun on the world's clock) with no invoice so far.
    Open,
}

impl MinuteOutcome {
    fn class(self) -> &'static str {
        match self {
            MinuteOutcome::Once => "once",
            MinuteOutcome::Doubled(_) => "doubled",
            MinuteOutcome::Missed => "missed",
            MinuteOutcome::Open => "open",
        }
    }

    /// The count row's mark: words or a count, so colour is never the only sign.
    fn mark(self) -> String {
        match self {
            MinuteOutcome::Once => "1".to_string(),
            MinuteOutcome::Doubled(count) => format!("{count}×"),
            MinuteOutcome::Missed => "✕".to_string(),
            MinuteOutcome::Open => String::new(),
        }
    }

    fn describe(self, minute: u64) -> String {
        match self {
            MinuteOutcome::Once => format!("minute {minute}: invoiced once"),
            MinuteOutcome::Doubled(count) => format!("minute {minute}: invoiced {count} times"),
            MinuteOutcome::Missed => format!("minute {minute}: missed, no invoice"),
            MinuteOutcome::Open => format!("minute {minute}: under way"),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct Minute {
    number: u64,
    /// Per instance (in `Strip::instances` order), whether it invoiced this minute.
    by: Vec<bool>,
    outcome: MinuteOutcome,
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct Strip {
    /// Instance name, whether it believes it leads, runs so far.
    instances: Vec<(String, bool, u64)>,
    minutes: Vec<Minute>,
}

impl Strip {
    fn numbers_with(&self, wanted: fn(MinuteOutcome) -> bool) -> Vec<u64> {
        self.minutes
            .iter()
            .filter(|minute| wanted(minute.outcome))
            .map(|minute| minute.number)
            .collect()
    }

    /// The heading's summary: which minutes were missed and which doubled, in words.
    fn summary(&self) -> String {
        let missed = self.numbers_with(|outcome| outcome == MinuteOutcome::Missed);
        let doubled = self.numbers_with(|outcome| matches!(outcome, MinuteOutcome::Doubled(_)));
        let missed = match missed.as_slice() {
            [] => "no minute missed".to_string(),
            [one] => format!("minute {one} missed"),
            many => format!("minutes {} missed", numbers_text(many)),
        };
        let doubled = match doubled.as_slice() {
            [] => "no minute invoiced twice".to_string(),
            [one] => format!("minute {one} invoiced twice or more"),
            many => format!("minutes {} invoiced twice or more", numbers_text(many)),
        };
        format!("{missed} · {doubled}")
    }
}

/// `2, 3, 8, 12–14`: runs of consecutive minutes written as ranges.
fn numbers_text(numbers: &[u64]) -> String {
    let mut runs: Vec<(u64, u64)> = Vec::new();
    for &number in numbers {
        match runs.last_mut() {
            Some((_, end)) if *end + 1 == number => *end = number,
            _ => runs.push((number, number)),
        }
    }
    runs.iter()
        .map(|(start, end)| match end - start {
            0 => start.to_string(),
            1 => format!("{start}, {end}"),
            _ => format!("{start}–{end}"),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

fn strip(view: &ClusterView) -> Option<Strip> {
    let coordination = view.coordination.as_ref()?;
    let scheduler = coordination.scheduler()?;
    let name = |index: usize| coordination.labels.get(index).cloned().unwrap_or_default();
    let instances = scheduler
        .instances
        .iter()
        .map(|instance| {
            let label = name(instance.id.index());
            (label, instance.believes_it_leads, instance.runs)
        })
        .collect();
    let minute_us = scheduler.minute_ms.max(1) * 1_000;
    let under_way = view.now_us / minute_us;
    let newest_invoiced = scheduler.minutes.iter().map(|(minute, _)| *minute).max();
    let last = newest_invoiced.map_or(under_way, |newest| newest.max(under_way));
    // Minute 0 is under way when the run starts, so no instance's timer names it: start at 1, unless a
    // clock behind the world's did invoice it.
    let earliest = newest_invoiced
        .and(scheduler.minutes.iter().map(|(minute, _)| *minute).min())
        .map_or(1, |oldest| oldest.min(1));
    let first = earliest.max((last + 1).saturating_sub(MINUTES_SHOWN));
    let minutes = (first..=last)
        .map(|number| {
            let invoiced = scheduler
                .minutes
                .iter()
                .find(|(minute, _)| *minute == number)
                .map(|(_, by)| by.as_slice())
                .unwrap_or_default();
            let by: Vec<bool> = scheduler
                .instances
                .iter()
                .map(|instance| invoiced.contains(&instance.id))
                .collect();
            let outcome = match invoiced.len() {
                0 if (number + 1) * minute_us <= view.now_us => MinuteOutcome::Missed,
                0 => MinuteOutcome::Open,
                1 => MinuteOutcome::Once,
                count => MinuteOutcome::Doubled(count),
            };
            Minute {
                number,
                by,
                outcome,
            }
        })
        .collect();
    Some(Strip { instances, minutes })
}

fn instance_row(data: &Strip, row: usize) -> impl IntoView {
    let (name, leads, runs) = data.instances[row].clone();
    let cells = data
        .minutes
        .iter()
        .map(|minute| {
            let ran = minute.by[row];
            let class = format!(
                "minute {}{}",
                minute.outcome.class(),
                if ran { " ran" } else { "" }
            );
            let mark = match (ran, minute.outcome) {
                (true, MinuteOutcome::Doubled(count)) => format!("{count}×"),
                _ => String::new(),
            };
            view! { <span class=class title=minute.outcome.describe(minute.number)>{mark}</span> }
        })
        .collect::<Vec<_>>();
    view! {
        <div class="strip-row">
            <span class="strip-name">{format!("▢ {name}{}", if leads { " ★" } else { "" })}</span>
            <span class="strip-cells">{cells}</span>
            <span class="strip-runs muted">{format!("{runs} runs")}</span>
        </div>
    }
}

/// The minute numbers above the columns and the count of invoices under them.
fn label_rows(data: &Strip) -> (AnyView, AnyView) {
    let numbers = data
        .minutes
        .iter()
        .map(|minute| view! { <span class="minute-number">{minute.number}</span> })
        .collect::<Vec<_>>();
    let counts = data
        .minutes
        .iter()
        .map(|minute| {
            view! {
                <span class=format!("minute-count {}", minute.outcome.class()) data-testid="strip-minute"
                    data-minute=minute.number data-outcome=minute.outcome.class()
                    title=minute.outcome.describe(minute.number)>{minute.outcome.mark()}</span>
            }
        })
        .collect::<Vec<_>>();
    (
        view! {
            <div class="strip-row strip-labels" aria-hidden="true">
                <span class="strip-name muted">"minute"</span>
                <span class="strip-cells">{numbers}</span>
                <span></span>
            </div>
        }
        .into_any(),
        view! {
            <div class="strip-row strip-counts">
                <span class="strip-name muted">"invoices"</span>
                <span class="strip-cells">{counts}</span>
                <span></span>
            </div>
        }
        .into_any(),
    )
}

#[component]
pub fn SchedulerStrip() -> impl IntoView {
    let run = use_run();
    let data = Memo::new(move |_| run.panel_view.with(strip));
    let summary = move || data.with(|data| data.as_ref().map(Strip::summary).unwrap_or_default());
    view! {
        <Show when=move || data.with(Option::is_some)>
            <section class="card scheduler-strip" aria-label="Invoices per minute" data-testid="scheduler-strip">
                <h2>"Invoices per minute " <span class="muted" data-testid="strip-summary">{summary}</span></h2>
                {move || data.with(|data| data.as_ref().map(|data| {
                    let (numbers, counts) = label_rows(data);
                    let rows = (0..data.instances.len()).map(|row| instance_row(data, row)).collect::<Vec<_>>();
                    view! { <div class="strip-grid">{numbers}{rows}{counts}</div> }
                }))}
                <p class="strip-legend muted">
                    <span class="legend-cell once"></span>" invoiced · "
                    <span class="legend-cell missed">"✕"</span>" missed (a minute ended with no invoice) · "
                    <span class="legend-cell doubled">"2×"</span>" invoiced twice"
                </p>
            </section>
        </Show>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::Session;
    use quorumlab_sim::action::{Action, NodeTarget};
    use quorumlab_sim::scenario::parse_scenario;
    use quorumlab_sim::time::SimTime;

    fn lesson_one_session() -> Session {
        let text = include_str!("../../lessons/scenarios/scheduler-lease-calm.toml");
        Session::new(parse_scenario(text, "scheduler-lease-calm.toml").unwrap()).unwrap()
    }

    fn outcomes(strip: &Strip) -> Vec<(u64, MinuteOutcome)> {
        strip
            .minutes
            .iter()
            .map(|minute| (minute.number, minute.outcome))
            .collect()
    }

    #[test]
    fn a_calm_run_has_a_column_for_every_minute_and_none_missed() {
        let mut session = lesson_one_session();
        session.advance_to(SimTime::from_ms(6_500));
        let strip = strip(&session.view()).expect("a scheduler");
        let numbers: Vec<u64> = strip.minutes.iter().map(|minute| minute.number).collect();
        assert_eq!(numbers, (1..=6).collect::<Vec<_>>());
        assert!(strip.minutes[..5]
            .iter()
            .all(|minute| minute.outcome == MinuteOutcome::Once));
        assert_eq!(
            strip.summary(),
            "no minute missed · no minute invoiced twice"
        );
    }

    #[test]
    fn a_crashed_leader_leaves_columns_marked_missed() {
        let mut session = lesson_one_session();
        session.advance_to(SimTime::from_ms(3_300));
        let holder = strip(&session.view())
            .unwrap()
            .instances
            .iter()
            .position(|(_, leads, _)| *leads)
            .expect("someone leads");
        let node = session
            .view()
            .coordination
            .unwrap()
            .scheduler()
            .unwrap()
            .instances[holder]
            .id;
        session.apply(&Action::Crash {
            target: NodeTarget::Node(node),
        });
        session.advance_to(SimTime::from_ms(9_500));
        let strip = strip(&session.view()).unwrap();
        let missed: Vec<u64> = outcomes(&strip)
            .into_iter()
            .filter(|(_, outcome)| *outcome == MinuteOutcome::Missed)
            .map(|(minute, _)| minute)
            .collect();
        assert!(!missed.is_empty(), "{:?}", outcomes(&strip));
        assert!(
            strip
                .minutes
                .iter()
                .any(|minute| minute.number == missed[0]),
            "the missed minute has its own column"
        );
        assert!(
            strip.summary().contains("missed") && !strip.summary().starts_with("no minute missed")
        );
        // The minute under way is not called missed before it ends.
        assert_eq!(strip.minutes.last().unwrap().number, 9);
    }

    #[test]
    fn minute_runs_read_as_ranges() {
        assert_eq!(numbers_text(&[2, 3, 8, 9, 12, 13, 14]), "2, 3, 8, 9, 12–14");
        assert_eq!(numbers_text(&[5]), "5");
        assert_eq!(numbers_text(&[]), "");
    }
}
