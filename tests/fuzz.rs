//! The fuzzer (issue 17, "Hard to break"): every parser a user can feed — scenario files, lesson
//! files, trace files (as `quorumlab replay` reads them and as the app imports them), share links,
//! the app's Import and the history panel's Import history — is given seeded inputs: each seed input as it is, then random bytes, scenarios
//! written from the format's grammar (and runs made from them, exported as links and trace files) and
//! mutations of the seeds. Every path is timed; a panic, a wrong answer (see `fuzzer::targets`) or a
//! path over the time limit is a finding, printed with a minimal reproduction, and fails the test.
//!
//! It lives in the app crate because that is the one crate that sees every parser: share links and
//! the Import panel are the app's, the rest the engine's. A plain `cargo test --workspace` runs a
//! small fixed budget unoptimised; `./x test`'s `fuzz` stage (`scripts/stages.sh`) runs a fixed seed
//! for about a minute, and `./x fuzz [--inputs N] [--seed S]` as long as asked, both in the `fuzz`
//! profile (optimised, with debug assertions and overflow checks); the `native` stage skips this test
//! so it does not run twice. Settings, all optional:
//!
//! - `QUORUMLAB_FUZZ_INPUTS` — drawn inputs after the seeds (default 1000: about 30 s here);
//! - `QUORUMLAB_FUZZ_SEED` — the seed (default 2026);
//! - `QUORUMLAB_FUZZ_LIMIT_MS` — most CPU time one path may take on one input (default 5000 here,
//!   where the build is unoptimised; `./x fuzz` sets 1500);
//! - `QUORUMLAB_FUZZ_ONLY` — run just input N of the seed (what a finding says to run);
//! - `QUORUMLAB_FUZZ_VERBOSE` — print every refusal (to see where the inputs stop).
#![cfg(not(target_arch = "wasm32"))]

mod fuzzer;

use fuzzer::budget::{quiet_panics, Watchdog};
use fuzzer::corpus::Corpus;
use fuzzer::finding::{attempt, describe, shrink, Failure, Finding};
use fuzzer::inputs::{draw, Source};
use fuzzer::random::Random;
use fuzzer::targets::Target;
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

/// How often a long run says how far it has got.
const PROGRESS_EVERY: u64 = 10_000;

fn setting(name: &str, default: u64) -> u64 {
    match std::env::var(name) {
        Ok(text) => text
            .trim()
            .parse()
            .unwrap_or_else(|_| panic!("{name}={text:?} is not a whole number")),
        Err(_) => default,
    }
}

/// What the run saw, for the summary.
#[derive(Default)]
struct Tally {
    /// Inputs and how many were accepted, per target and source.
    counts: BTreeMap<(Target, Source), (u64, u64)>,
    /// The slowest path of each target: (CPU time, wall time, path, input index).
    slowest: BTreeMap<Target, (Duration, Duration, &'static str, Option<u64>)>,
    findings: Vec<Finding>,
}

struct Run {
    seed: u64,
    limit: Duration,
    watchdog: Watchdog,
    tally: Tally,
}

impl Run {
    fn try_input(&mut self, target: Target, source: Source, index: Option<u64>, text: String) {
        self.watchdog.watch(Some(format!(
            "  target: {}, {} input {index:?} of seed {}\n  input: {:?}",
            target.name(),
            source.name(),
            self.seed,
            text.chars().take(20_000).collect::<String>()
        )));
        let attempt = attempt(target, &text);
        let mut failure = attempt.failure;
        for (path, timing) in &attempt.clock.paths {
            let slowest = self.tally.slowest.entry(target).or_insert((
                Duration::ZERO,
                Duration::ZERO,
                path,
                index,
            ));
            if timing.judged() > slowest.0 {
                *slowest = (timing.judged(), timing.wall, path, index);
            }
            if failure.is_none() && timing.judged() > self.limit {
                failure = self.slow_again(target, &text, path, timing.judged());
            }
        }
        self.watchdog.watch(None);
        let counts = self.tally.counts.entry((target, source)).or_default();
        counts.0 += 1;
        counts.1 += u64::from(attempt.accepted);
        let refused_seed = source == Source::Seed && failure.is_none() && !attempt.accepted;
        if let Some(failure) = failure {
            let input = match failure {
                Failure::Slow { .. } => text,
                _ => shrink(target, &text, &failure),
            };
            self.report(target, source, index, failure, input);
        } else if refused_seed {
            let failure =
                Failure::Wrong("a seed input (an example or a real export) was refused".into());
            self.report(target, source, index, failure, text);
        }
    }

    /// A slow path measured once more: only twice over the limit is it a finding.
    fn slow_again(
        &self,
        target: Target,
        text: &str,
        path: &'static str,
        first: Duration,
    ) -> Option<Failure> {
        let again = attempt(target, text)
            .clock
            .paths
            .iter()
            .find(|(name, _)| *name == path)
            .map_or(Duration::ZERO, |(_, timing)| timing.judged());
        (again > self.limit).then_some(Failure::Slow { path, first, again })
    }

    fn report(
        &mut self,
        target: Target,
        source: Source,
        index: Option<u64>,
        failure: Failure,
        input: String,
    ) {
        let finding = Finding {
            target,
            source: source.name(),
            index,
            failure,
            input,
        };
        eprintln!("{}", describe(&finding, self.seed));
        self.tally.findings.push(finding);
    }
}

#[test]
fn every_parser_survives_the_fuzzer() {
    let inputs = setting("QUORUMLAB_FUZZ_INPUTS", 1_000);
    let seed = setting("QUORUMLAB_FUZZ_SEED", 2026);
    let limit = Duration::from_millis(setting("QUORUMLAB_FUZZ_LIMIT_MS", 5_000));
    let only = std::env::var("QUORUMLAB_FUZZ_ONLY")
        .ok()
        .map(|_| setting("QUORUMLAB_FUZZ_ONLY", 0));
    let started = Instant::now();
    let corpus = Corpus::build();
    quiet_panics();
    let mut run = Run {
        seed,
        limit,
        watchdog: Watchdog::start(Duration::from_secs(30).max(limit * 20)),
        tally: Tally::default(),
    };
    if only.is_none() {
        for (target, seeds) in seed_inputs(&corpus) {
            for text in seeds {
                run.try_input(target, Source::Seed, None, text.clone());
            }
        }
    }
    let indices = match only {
        Some(index) => index..index + 1,
        None => 0..inputs,
    };
    for index in indices {
        let mut random = Random::for_input(seed, index);
        let (target, source, text) = draw(&mut random, &corpus);
        run.try_input(target, source, Some(index), text);
        if (index + 1) % PROGRESS_EVERY == 0 {
            println!(
                "fuzz: {} of {inputs} inputs after {:.0} s, {} finding(s)",
                index + 1,
                started.elapsed().as_secs_f64(),
                run.tally.findings.len()
            );
        }
    }
    print_summary(&run, started.elapsed());
    assert!(
        run.tally.findings.is_empty(),
        "{} finding(s); each is printed above with its reproduction",
        run.tally.findings.len()
    );
}

fn seed_inputs(corpus: &Corpus) -> Vec<(Target, &Vec<String>)> {
    vec![
        (Target::Scenario, &corpus.scenarios),
        (Target::Lesson, &corpus.lessons),
        (Target::TraceFile, &corpus.traces),
        (Target::ShareLink, &corpus.links),
        (Target::ShareLink, &corpus.lesson_routes),
        (Target::Import, &corpus.scenarios),
        (Target::Import, &corpus.traces),
        (Target::CompletionCode, &corpus.codes),
        (Target::History, &corpus.histories),
    ]
}

fn print_summary(run: &Run, elapsed: Duration) {
    let total: u64 = run.tally.counts.values().map(|(tried, _)| tried).sum();
    println!(
        "fuzz: seed {}, {total} inputs in {:.1} s, limit {} ms of CPU time per path, {} finding(s)",
        run.seed,
        elapsed.as_secs_f64(),
        run.limit.as_millis(),
        run.tally.findings.len()
    );
    for target in Target::ALL {
        let by_source: Vec<String> = Source::ALL
            .iter()
            .filter_map(|source| {
                let (tried, _) = run.tally.counts.get(&(target, *source))?;
                let accepted = run.tally.counts[&(target, *source)].1;
                Some(format!("{} {tried} ({accepted} accepted)", source.name()))
            })
            .collect();
        let slowest =
            run.tally
                .slowest
                .get(&target)
                .map_or(String::new(), |(cpu, wall, path, index)| {
                    format!(
                        "; slowest `{path}` {} ms CPU ({} ms wall), input {}",
                        cpu.as_millis(),
                        wall.as_millis(),
                        index.map_or("seed".to_string(), |index| index.to_string())
                    )
                });
        println!("  {:<14} {}{slowest}", target.name(), by_source.join(", "));
    }
}
