//! `quorumlab`: the headless runner. Runs scenario files, chaos sweeps and a benchmark, with no browser.
//!
//! Exit codes: 0 done (a run that found violations is still done: they are in the report); 1 a sweep
//! found failing seeds (or a completion code given to `verify` is malformed); 2 bad input (usage,
//! flags, unreadable or invalid scenario), with the message on stderr.

mod cli;

use cli::Outcome;
use std::process::ExitCode;

const USAGE: &str = "\
usage:
  quorumlab run FILE [--seed N] [--duration-ms N] [--trace OUT.jsonl] [--history]
      --history adds whether what the clients saw is linearizable (a `history` block)
  quorumlab history check FILE   (a Jepsen-style history, EDN or JSON lines: its verdict as JSON;
      docs/history-format.md)
  quorumlab history export FILE [--seed N]   (run a scenario; print its client history in that format)
  quorumlab history generate [--ops 200] [--clients 5] [--keys 3] [--seed 33]   (a synthetic one)
  quorumlab replay TRACE.jsonl   (a trace file exported from the app; exit 1 if it does not reproduce)
  quorumlab check FILE...
  quorumlab experiment FILE [--trials N] [--json OUT.json] [--csv OUT.csv] [--emit-trial LINE:TRIAL]
      (format: sim/EXPERIMENTS.md; JSON to stdout unless --json; line summaries on stderr)
  quorumlab explore FILE [--invariant NAME] [--depth D] [--faults F] [--drops K] [--holds K] [--states N]
      [--grain-ms G] [--horizon-ms T] [--from-ms S] [--pause-ms A,B] [--symmetry] [--without-steps]
      [--emit-scenario OUT.toml]
      (the shortest fault schedule that breaks an invariant, within the bounds; JSON report)
  quorumlab sweep [--protocol raft] --seeds N [--nodes K] [--chaos | --profile P] [--variant V] [--first-seed S] [--jobs J]
  quorumlab sweep --all [--world NAME] [--seeds N] [--raft-seeds N] [--holder-seeds N] [--first-seed S]
  quorumlab sweep [--protocol raft] --emit-scenario SEED [--nodes K] [--chaos | --profile P] [--variant V]
      profiles: calm (no faults, the default), mixed (= --chaos), leader-churn, membership
      variants: raft's are default (membership changes through the log) and direct (with --profile
      membership: configurations edited by hand, unsafe on purpose); a wrong name lists a protocol's own
  quorumlab verify CODE... | --file F   (learners' completion codes; stdin when none given; JSON report;
      exit 1 if any code is malformed; docs/completion-codes.md)
  quorumlab grade ROLE FILE [--seeds N] [--states N]   (a learner's script for a guided-lab role:
      store-write, release or job-guard; verdict as JSON; exit 0 pass, 1 a property broke;
      docs/learner-code.md)
  quorumlab bench [--nodes N] [--seconds SIMULATED_SECONDS]
  quorumlab bench --bare-loop [--events N]   (the bare event-queue loop, the reference)

exit codes: 0 done, 1 sweep found failing seeds, a replay diverged, a code is malformed or a graded
  script broke a property, 2 bad input
scenario format: sim/SCENARIOS.md";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let outcome = match args.first().map(String::as_str) {
        Some("run") => cli::run::run_command(&args[1..]),
        Some("sweep") => cli::sweep::sweep_command(&args[1..]),
        Some("bench") => cli::bench::bench_command(&args[1..]),
        Some("replay") => cli::replay::replay_command(&args[1..]),
        Some("check") => cli::check::check_command(&args[1..]),
        Some("experiment") => cli::experiment::experiment_command(&args[1..]),
        Some("explore") => cli::explore::explore_command(&args[1..]),
        Some("history") => cli::history::history_command(&args[1..]),
        Some("verify") => cli::verify::verify_command(&args[1..]),
        Some("grade") => cli::grade::grade_command(&args[1..]),
        Some("help" | "--help" | "-h") => {
            println!("{USAGE}");
            Outcome::Success
        }
        Some(other) => Outcome::BadInput(format!("unknown command `{other}`\n{USAGE}")),
        None => Outcome::BadInput(format!("missing command\n{USAGE}")),
    };
    outcome.exit_code()
}
