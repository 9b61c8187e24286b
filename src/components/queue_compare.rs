//! The work queue's lesson in one table: the same jobs, the same seed and the same scripted faults, run
//! once with workers that own accounts by partition (no lock at all) and once under one global lock.
//! Both columns are measured headless when the scenario opens (each run takes a few milliseconds, so
//! there is no reason to guess): jobs per second, lock traffic, and whether the checkers found anything.
//! Below, this run's own progress so far, and how many of its workers are waiting for the lock now.

use crate::context::use_run;
use leptos::prelude::*;
use quorumlab_sim::runner::{run_scenario, RunReport};
use quorumlab_sim::scenario::Scenario;
use quorumlab_sim::worker::Phase;

/// One configuration's numbers over the whole scenario.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QueueNumbers {
    pub partitioned: bool,
    pub jobs: u64,
    pub jobs_per_1000_seconds: u64,
    /// Lock requests the workers sent (zero when nobody takes a lock).
    pub lock_requests: u64,
    pub lock_grants: u64,
    /// Invariants the checkers found broken (empty: correctness holds).
    pub violated: Vec<String>,
}

impl QueueNumbers {
    fn from_report(partitioned: bool, report: &RunReport) -> QueueNumbers {
        let world = &report.world;
        let throughput = world.throughput.as_ref();
        QueueNumbers {
            partitioned,
            jobs: throughput.map_or(0, |throughput| throughput.jobs),
            jobs_per_1000_seconds: throughput
                .map_or(0, |throughput| throughput.jobs_per_1000_seconds),
            lock_requests: world
                .contention
                .as_ref()
                .map_or(0, |minutes| minutes.iter().sum()),
            lock_grants: world
                .locks
                .as_ref()
                .map_or(0, |locks| locks.grants.len() as u64),
            violated: world
                .violation_counts
                .iter()
                .filter(|(_, count)| **count > 0)
                .map(|(name, _)| name.clone())
                .collect(),
        }
    }

    pub fn jobs_per_second_text(&self) -> String {
        format!("{:.1}", self.jobs_per_1000_seconds as f64 / 1_000.0)
    }

    pub fn correctness_text(&self) -> String {
        if self.violated.is_empty() {
            "holds ✓".to_string()
        } else {
            format!("broken ✗ ({})", self.violated.join(", "))
        }
    }
}

/// Both configurations of a work-queue scenario, partitioned first; `None` for any other protocol, or if
/// either run fails to start (the scenario was already checked, so that would be a bug, not bad input).
pub fn compare(scenario: &Scenario) -> Option<[QueueNumbers; 2]> {
    scenario.protocol.work_queue()?;
    let run = |partitioned: bool| {
        let mut variant = scenario.clone();
        let (_, queue) = variant.protocol.work_queue_mut()?;
        queue.partitioned = partitioned;
        run_scenario(&variant)
            .ok()
            .map(|report| QueueNumbers::from_report(partitioned, &report))
    };
    Some([run(true)?, run(false)?])
}

/// The sentence under the table: how much faster partitions are, and what the checkers say of both.
pub fn verdict_sentence(numbers: &[QueueNumbers; 2]) -> String {
    let speed = format!(
        "Owning accounts by partition gets through jobs {} as fast as taking the lock",
        speedup_text(numbers)
    );
    let broken: Vec<String> = numbers
        .iter()
        .filter(|entry| !entry.violated.is_empty())
        .map(|entry| {
            let name = if entry.partitioned {
                "partitioned"
            } else {
                "global lock"
            };
            format!("{name}: {}", entry.violated.join(", "))
        })
        .collect();
    if broken.is_empty() {
        format!("{speed}, and the checkers find nothing wrong in either.")
    } else {
        format!("{speed}; the checkers found: {}.", broken.join("; "))
    }
}

/// How many times faster the partitioned queue got through its jobs, to one decimal ("—" if the lock
/// did nothing at all).
pub fn speedup_text(numbers: &[QueueNumbers; 2]) -> String {
    let [partitioned, global] = numbers;
    if global.jobs_per_1000_seconds == 0 {
        return "—".to_string();
    }
    let ratio = partitioned.jobs_per_1000_seconds as f64 / global.jobs_per_1000_seconds as f64;
    format!("{ratio:.1}×")
}

#[component]
pub fn QueueCompare() -> impl IntoView {
    let run = use_run();
    let numbers = Memo::new(move |_| run.scenario.with(compare));
    let this_partitioned = Memo::new(move |_| {
        run.scenario.with(|scenario| {
            matches!(scenario.protocol.work_queue(), Some((_, queue)) if queue.partitioned)
        })
    });
    let live = Memo::new(move |_| {
        run.panel_view.with(|view| {
            let workers = view.coordination.as_ref().map(|coordination| coordination.workers.as_slice()).unwrap_or_default();
            let jobs: u64 = workers.iter().map(|worker| worker.jobs_done).sum();
            let waiting = workers
                .iter()
                .filter(|worker| matches!(worker.phase, Phase::Acquiring | Phase::Waiting))
                .count();
            let seconds = view.now_us as f64 / 1_000_000.0;
            format!(
                "This run so far: {jobs} jobs in {seconds:.1} s; right now {waiting} of {} workers wait for the lock.",
                workers.len()
            )
        })
    });
    let column = move |partitioned: bool| {
        let mine = this_partitioned.get() == partitioned;
        let name = if partitioned {
            "partitioned, no lock"
        } else {
            "one global lock"
        };
        let suffix = if mine { " (this run)" } else { "" };
        view! { <th scope="col" class=if mine { "this-run" } else { "" }>{format!("{name}{suffix}")}</th> }
    };
    let row =
        move |label: &'static str, testid: &'static str, pick: fn(&QueueNumbers) -> String| {
            view! {
                <tr data-testid=testid>
                    <th scope="row">{label}</th>
                    {move || numbers.with(|numbers| numbers.as_ref().map(|numbers| {
                        numbers.iter().map(|entry| view! { <td>{pick(entry)}</td> }).collect_view()
                    }))}
                </tr>
            }
        };
    view! {
        <Show when=move || numbers.with(Option::is_some)>
            <section class="card queue-compare" aria-label="Work queue: partitioned against one global lock" data-testid="queue-compare">
                <h2>"Partitioned or locked?"</h2>
                <p class="hint">"Both runs use this scenario's seed and scripted faults (not your clicks), measured to the end."</p>
                <table>
                    <thead><tr><th scope="col">""</th>{move || column(true)}{move || column(false)}</tr></thead>
                    <tbody>
                        {row("jobs per second", "queue-jobs-per-second", QueueNumbers::jobs_per_second_text)}
                        {row("jobs done", "queue-jobs", |entry| entry.jobs.to_string())}
                        {row("lock requests", "queue-lock-requests", |entry| entry.lock_requests.to_string())}
                        {row("locks granted", "queue-lock-grants", |entry| entry.lock_grants.to_string())}
                        {row("correctness", "queue-correctness", QueueNumbers::correctness_text)}
                    </tbody>
                </table>
                <p data-testid="queue-speedup">
                    {move || numbers.with(|numbers| numbers.as_ref().map(verdict_sentence))}
                </p>
                <p class="muted" data-testid="queue-live">{move || live.get()}</p>
            </section>
        </Show>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use quorumlab_sim::scenario::parse_scenario;

    fn example(name: &str) -> Scenario {
        let (_, text) = quorumlab_sim::scenario::EXAMPLES
            .iter()
            .find(|(file, _)| *file == name)
            .expect("example exists");
        parse_scenario(text, name).expect("example parses")
    }

    #[test]
    fn both_configurations_are_measured_from_either_file() {
        let from_partitioned = compare(&example("queue-partitioned.toml")).expect("a work queue");
        let from_global = compare(&example("queue-global-lock.toml")).expect("a work queue");
        assert_eq!(
            from_partitioned, from_global,
            "same workload, same seed, same numbers"
        );
        let [partitioned, global] = from_partitioned;
        assert!(partitioned.partitioned && !global.partitioned);
        assert!(partitioned.jobs_per_1000_seconds > 2 * global.jobs_per_1000_seconds);
        assert_eq!(partitioned.lock_requests, 0, "nobody asks for a lock");
        assert!(global.lock_requests > 0 && global.lock_grants > 0);
        assert_eq!(partitioned.correctness_text(), "holds ✓");
        assert_eq!(global.correctness_text(), "holds ✓");
    }

    #[test]
    fn other_protocols_have_nothing_to_compare() {
        assert_eq!(compare(&example("fencing-pause.toml")), None);
    }

    #[test]
    fn texts_read_as_numbers_and_verdicts() {
        let mut numbers = QueueNumbers {
            partitioned: true,
            jobs: 10,
            jobs_per_1000_seconds: 56_800,
            lock_requests: 0,
            lock_grants: 0,
            violated: Vec::new(),
        };
        assert_eq!(numbers.jobs_per_second_text(), "56.8");
        let global = QueueNumbers {
            partitioned: false,
            jobs_per_1000_seconds: 9_900,
            ..numbers.clone()
        };
        assert_eq!(speedup_text(&[numbers.clone(), global.clone()]), "5.7×");
        assert!(verdict_sentence(&[numbers.clone(), global.clone()])
            .ends_with("nothing wrong in either."));
        numbers.violated.push("No Lost Updates".to_string());
        assert_eq!(numbers.correctness_text(), "broken ✗ (No Lost Updates)");
        let sentence = verdict_sentence(&[numbers, global]);
        assert!(
            sentence.ends_with("found: partitioned: No Lost Updates."),
            "{sentence}"
        );
    }
}
