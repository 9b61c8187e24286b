//! The holder-aimed chaos profile (issue 17, bug 9): under the very same profile every unsafe
//! configuration a registry entry lists is caught in at least 90% of seeds, and every safe one breaks no
//! checker at all. The configurations come from the registry, so a new world's are tested here too.

use quorumlab_sim::action::Action;
use quorumlab_sim::chaos::holders::holder_run;
use quorumlab_sim::chaos::locks::LockChaosOptions;
use quorumlab_sim::registry;
use quorumlab_sim::runner::run_scenario;
use quorumlab_sim::scenario::{parse_scenario, to_toml_string};
use quorumlab_sim::sweep::run_holder_seed;

/// Seeds per configuration: a fixed range, so the rates are the same on every machine.
const SEEDS: std::ops::RangeInclusive<u64> = 1..=100;

/// Each unsafe configuration must be caught in at least this share of the seeds.
const CATCH_PERCENT: u64 = 90;

fn every_configuration() -> impl Iterator<Item = (LockChaosOptions, bool)> {
    registry::ENTRIES.iter().flat_map(|entry| {
        entry.sweep.variants.iter().filter_map(|variant| {
            LockChaosOptions::new(entry.kind, variant.name).map(|options| (options, variant.safe))
        })
    })
}

/// The seeds of `SEEDS` whose run broke a checker, with the invariants each broke.
fn caught_seeds(options: &LockChaosOptions) -> Vec<(u64, Vec<String>)> {
    SEEDS
        .filter_map(|seed| {
            let outcome = run_holder_seed(seed, options).expect("runs");
            outcome
                .broke_a_checker()
                .then(|| (seed, outcome.violations.keys().cloned().collect()))
        })
        .collect()
}

#[test]
fn every_unsafe_configuration_is_caught_in_nine_seeds_of_ten() {
    let mut unsafe_count = 0;
    for (options, safe) in every_configuration() {
        if safe {
            continue;
        }
        unsafe_count += 1;
        let caught = caught_seeds(&options).len() as u64;
        let seeds = SEEDS.count() as u64;
        assert!(
            caught * 100 >= CATCH_PERCENT * seeds,
            "{:?} {}: caught in {caught} of {seeds} seeds",
            options.protocol,
            options.variant
        );
    }
    // Lock service and work queue unfenced, three Redis, two Redlock, two scheduler modes.
    assert!(
        unsafe_count >= 9,
        "only {unsafe_count} unsafe configurations"
    );
}

#[test]
fn every_safe_configuration_breaks_no_checker_under_the_same_profile() {
    let mut safe_count = 0;
    for (options, safe) in every_configuration() {
        if !safe {
            continue;
        }
        safe_count += 1;
        let caught = caught_seeds(&options);
        assert!(
            caught.is_empty(),
            "{:?} {}: {caught:?}",
            options.protocol,
            options.variant
        );
    }
    assert!(safe_count >= 7, "only {safe_count} safe configurations");
}

/// The strikes are real steps: the recorded scenario writes out as a file, reads back, and reruns to
/// the very trace of the holder-aimed run; the same seed gives the same scenario; and the holder was
/// paused for longer than twice its lease, and cut from every server.
#[test]
fn a_holder_aimed_run_is_recorded_as_the_scenario_it_was() {
    let mut struck = 0;
    for (options, _) in every_configuration() {
        let label = format!("{:?} {}", options.protocol, options.variant);
        let finished = holder_run(7, &options).expect("runs");
        let text = to_toml_string(&finished.scenario);
        let read_back = parse_scenario(&text, "holder.toml").unwrap_or_else(|error| {
            panic!("{label}: {error}\n{text}");
        });
        assert_eq!(read_back, finished.scenario, "{label}");
        let rerun = run_scenario(&read_back).expect("runs");
        assert_eq!(
            rerun.world.trace_hash,
            finished.run.report().world.trace_hash,
            "{label}: the file reruns the holder-aimed run"
        );
        assert_eq!(
            holder_run(7, &options).unwrap().scenario,
            finished.scenario,
            "{label}"
        );
        let ttl_ms = finished
            .scenario
            .protocol
            .lock_options()
            .unwrap()
            .lease_ttl_ms;
        let long_pauses = finished.scenario.steps.iter().filter(|step| {
            matches!(step.action, Action::Pause { duration_ms: Some(ms), .. } if ms > 2 * ttl_ms)
        });
        if !anyone_held(&finished.run) {
            // Nobody takes a lock here (a partitioned work queue, a scheduler that never coordinates):
            // there is no holder to strike.
            assert_eq!(long_pauses.count(), 0, "{label}");
            continue;
        }
        struck += 1;
        assert!(long_pauses.count() > 0, "{label}: no holder was struck");
        let cuts = finished
            .scenario
            .steps
            .iter()
            .filter(|step| matches!(step.action, Action::Cut { both: true, .. }))
            .count();
        assert!(cuts >= options.server_count(), "{label}: {cuts} cuts");
    }
    assert!(
        struck >= 13,
        "holders struck in only {struck} configurations"
    );
}

/// Whether the trace shows any actor granted a lock, believing it holds one, or leading.
fn anyone_held(run: &quorumlab_sim::runner::ScenarioRun) -> bool {
    use quorumlab_sim::actor::Fact;
    use quorumlab_sim::lockservice::LockFact;
    use quorumlab_sim::redlock::BeliefFact;
    use quorumlab_sim::scheduler::SchedulerFact;
    use quorumlab_sim::trace::TraceEvent;
    run.world().trace().records().any(|record| {
        matches!(
            &record.event,
            TraceEvent::Observe {
                fact: Fact::Lock(LockFact::LockGranted { .. })
                    | Fact::Belief(BeliefFact::LockBelief { .. })
                    | Fact::Scheduler(SchedulerFact::SchedulerLeader { leads: true }),
                ..
            }
        )
    })
}

/// The profile is what catches them: the mixed profile, over the same seeds, catches the unfenced
/// lock service far less often.
#[test]
fn the_mixed_profile_catches_the_unfenced_lock_service_less_often() {
    let entry = registry::by_name("lock-service").unwrap();
    let options = LockChaosOptions::new(entry.kind, "no-fencing").unwrap();
    let mixed = SEEDS
        .filter(|seed| {
            quorumlab_sim::sweep::run_lock_seed(*seed, &options)
                .unwrap()
                .broke_a_checker()
        })
        .count();
    let holders = caught_seeds(&options).len();
    assert!(mixed < holders, "mixed {mixed}, holders {holders}");
}
