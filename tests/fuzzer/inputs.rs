//! Which input comes next: a target, then a source — random bytes, the grammar, or a mutation of a
//! seed input — in proportions that spend most of the budget where parsers are deepest.

use super::code::{forged_code, random_code, resealed_mutation as resealed_mutation_of_code};
use super::corpus::Corpus;
use super::grammar::{forged_run, generated_session, scenario_text};
use super::link::{random_link, resealed_mutation};
use super::mutate::mutate;
use super::random::Random;
use super::targets::Target;
use quorumlab::share::replay::capture;
use quorumlab::share::{encode_fragment, SharedRun};
use quorumlab::transfer::trace::trace_file_text;
use quorumlab_sim::runner::world_config;
use quorumlab_sim::trace_file::write_trace_file;
use quorumlab_sim::World;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Source {
    /// A corpus entry as it is (each once, before the drawn inputs).
    Seed,
    RandomBytes,
    Grammar,
    Mutation,
}

impl Source {
    pub const ALL: [Source; 4] = [
        Source::Seed,
        Source::RandomBytes,
        Source::Grammar,
        Source::Mutation,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Source::Seed => "seed",
            Source::RandomBytes => "random bytes",
            Source::Grammar => "grammar",
            Source::Mutation => "mutation",
        }
    }
}

/// Share of the drawn inputs per target, in `Target::ALL` order.
const TARGET_WEIGHTS: [u64; 7] = [25, 10, 25, 30, 10, 8, 8];

pub fn draw(random: &mut Random, corpus: &Corpus) -> (Target, Source, String) {
    let target = Target::ALL[random.weighted(&TARGET_WEIGHTS)];
    let source =
        [Source::RandomBytes, Source::Grammar, Source::Mutation][random.weighted(&[8, 27, 65])];
    let text = match (target, source) {
        (_, Source::RandomBytes) => random_text(random, target),
        (Target::Scenario, Source::Grammar) => scenario_text(random),
        (Target::Lesson, Source::Grammar) => generated_lesson(random, corpus),
        (Target::TraceFile, Source::Grammar) => generated_export(random, false),
        (Target::ShareLink, Source::Grammar) => generated_export(random, true),
        (Target::CompletionCode, Source::Grammar) => {
            let code = random.pick(&corpus.codes).clone();
            forged_code(random, &code)
        }
        (Target::History, Source::Grammar) => super::history::generated_history(random),
        (Target::Import, Source::Grammar) => match random.percent(60) {
            true => scenario_text(random),
            false => generated_export(random, false),
        },
        (_, _) => mutation(random, corpus, target),
    };
    (target, source, text)
}

fn random_text(random: &mut Random, target: Target) -> String {
    if target == Target::ShareLink {
        return random_link(random);
    }
    if target == Target::CompletionCode {
        return random_code(random);
    }
    let count = random.between(0, 2_000) as usize;
    let text = String::from_utf8_lossy(&random.bytes(count)).into_owned();
    // Half start like the format, so the first check is passed now and then.
    match (target, random.percent(50)) {
        (Target::TraceFile, true) => format!("{{\"kind\":\"header\",{text}"),
        (Target::Lesson, true) => format!("+++\n{text}"),
        (Target::History, true) => format!("{{:process 0, :type :invoke, {text}"),
        _ => text,
    }
}

fn mutation(random: &mut Random, corpus: &Corpus, target: Target) -> String {
    let every: Vec<&String> = corpus
        .scenarios
        .iter()
        .chain(&corpus.lessons)
        .chain(&corpus.traces)
        .chain(&corpus.links)
        .chain(&corpus.histories)
        .collect();
    let other = random.pick(&every).as_str();
    let seeds = match target {
        Target::Scenario => &corpus.scenarios,
        Target::Lesson => &corpus.lessons,
        Target::TraceFile => &corpus.traces,
        Target::ShareLink if random.percent(5) => &corpus.lesson_routes,
        Target::ShareLink => &corpus.links,
        Target::Import if random.percent(50) => &corpus.traces,
        Target::Import => &corpus.scenarios,
        Target::CompletionCode => &corpus.codes,
        Target::History => &corpus.histories,
    };
    let seed = random.pick(seeds);
    if target == Target::CompletionCode && random.percent(60) {
        let other_code = random.pick(&corpus.codes);
        return resealed_mutation_of_code(random, seed, other_code);
    }
    if target == Target::ShareLink && random.percent(60) {
        let other_link = random.pick(&corpus.links);
        return resealed_mutation(random, seed, other_link);
    }
    mutate(random, seed, other)
}

/// A trace file or share link of a generated run (the grammar's scenario, learner actions on it), or
/// of a forged one (see `grammar::forged_run`).
fn generated_export(random: &mut Random, link: bool) -> String {
    if random.percent(15) {
        if let Some(forged) = forged_export(random, link) {
            return forged;
        }
    }
    let Some(session) = generated_session(random) else {
        return scenario_text(random);
    };
    match link {
        true => encode_fragment(&capture(&session)).unwrap_or_else(|error| error.to_string()),
        false => trace_file_text(&session),
    }
}

const CHECKPOINTS: &[&str] = &[
    "leader_changed",
    "term_at_least(3)",
    "term_at_least(18446744073709551616)",
    "no_leader_for_ms(500)",
    "node_crashed(leader)",
    "node_crashed(n9)",
    "node_paused",
    "node_paused(A)",
    "partitioned",
    "commit_index_at_least(2)",
    "two_clients_believe_they_hold_lock",
    "jobs_done_while_paused(3)",
    "node_caught_up(n2)",
    "made_up_checkpoint",
    "term_at_least(",
];

/// A real lesson with one more step written from the grammar before its first step.
fn generated_lesson(random: &mut Random, corpus: &Corpus) -> String {
    let lesson = random.pick(&corpus.lessons);
    let placeholder = random.pick(&["", "{leader}", "{paused}", "{nobody}", "{"]);
    let action = random.pick(&["crash", "pause", "request", "heal", "resume", "teleport"]);
    let target = random.pick(&["leader", "n1", "A", "store", "n99"]);
    let step = format!(
        "[[step]]\ninstruction = \"Do it {placeholder}\"\ncheckpoint = \"{}\"\nsolution = [{{ after_ms = {}, do = \"{action}\", target = \"{target}\" }}]\nwithin_ms = {}\n\n",
        random.pick(CHECKPOINTS),
        super::grammar::number(random, 2_000),
        super::grammar::number(random, 5_000),
    );
    match lesson.find("[[step]]") {
        Some(at) => format!("{}{step}{}", &lesson[..at], &lesson[at..]),
        None => lesson.clone(),
    }
}

/// A forged run as a link, or as a trace file whose end line points at the run's position (its
/// fingerprint is the fresh world's, so a replay that finishes is told it diverged).
fn forged_export(random: &mut Random, link: bool) -> Option<String> {
    let (scenario, actions, position) = forged_run(random)?;
    if link {
        let run = SharedRun {
            scenario,
            actions,
            position,
            lesson: None,
        };
        return encode_fragment(&run).ok();
    }
    let world = World::new(world_config(&scenario)).ok()?;
    let text = write_trace_file(&scenario, &actions, &world);
    Some(text.replacen(
        "\"position_us\":0,",
        &format!("\"position_us\":{},", position.as_micros()),
        1,
    ))
}
