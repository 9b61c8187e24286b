//! The history import (the history panel's Import history, `quorumlab history check`) as a fuzz
//! target: Jepsen-style operation lines in EDN or JSON, read by `linearizable::import` and checked
//! with the app's budget, exactly as the panel does (`components::history_transfer::import_text`).
//!
//! A refusal must be one short line naming where the file went wrong; a history that reads is
//! checked (any verdict, "undecided" included, within the fuzzer's time limit), and written out
//! again it must read back to as many ops. The grammar writes plausible lines with mistakes in them
//! now and then: unknown functions, bad types, a completion with nothing open, times going back,
//! nesting, huge numbers, unbalanced brackets.

use super::random::Random;
use super::targets::Verdict;
use quorumlab::components::history_transfer::import_text;
use quorumlab_sim::linearizable::export::export_history;
use quorumlab_sim::linearizable::import::import_history;

/// A history of a few dozen lines from the format's grammar: each process invokes, then completes
/// what it invoked; now and then a line is wrong on purpose.
pub fn generated_history(random: &mut Random) -> String {
    let json = random.percent(25);
    let with_time = random.percent(50);
    let mut time = random.between(0, 1_000);
    let mut open: Vec<Option<(&str, u64)>> = vec![None; random.between(1, 5) as usize];
    let mut out = String::new();
    for _ in 0..random.between(1, 60) {
        let process = random.below(open.len());
        time = if random.percent(2) {
            time / 2
        } else {
            time + random.between(0, 50)
        };
        let time = with_time.then_some(time);
        let line = if random.percent(6) {
            let kind = *random.pick(&["invoke", "ok", "fail", "info", "nemesis", "bogus"]);
            let function = *random.pick(&["read", "write", "cas", "append", ""]);
            let value = *random.pick(&["nil", "-1", "18446744073709551616", "[1 2 3]", "\"s\""]);
            history_line(json, process as u64, kind, function, 1, value, time)
        } else {
            match open[process].take() {
                None => {
                    let function = *random.pick(&["read", "write", "put", "get"]);
                    let key = random.between(0, 3);
                    open[process] = Some((function, key));
                    let value = match function {
                        "read" | "get" => "nil".to_string(),
                        _ => random.between(0, 20).to_string(),
                    };
                    history_line(json, process as u64, "invoke", function, key, &value, time)
                }
                Some((function, key)) => {
                    let kind = *random.pick(&["ok", "ok", "ok", "fail", "info"]);
                    let value = random.between(0, 20).to_string();
                    history_line(json, process as u64, kind, function, key, &value, time)
                }
            }
        };
        out.push_str(&line);
        if random.percent(2) {
            let garbage = *random.pick(&["{", "[[[[", "}", "\"", ";", ":process", "\u{0}"]);
            out.push_str(garbage);
        }
        out.push('\n');
    }
    out
}

fn history_line(
    json: bool,
    process: u64,
    kind: &str,
    function: &str,
    key: u64,
    value: &str,
    time: Option<u64>,
) -> String {
    if json {
        let value = if value == "nil" { "null" } else { value };
        let time = time.map_or(String::new(), |time| format!(", \"time\": {time}"));
        return format!(
            "{{\"process\": {process}, \"type\": \"{kind}\", \"f\": \"{function}\", \"value\": [{key}, {value}]{time}}}"
        );
    }
    let time = time.map_or(String::new(), |time| format!(", :time {time}"));
    let process = if kind == "nemesis" {
        ":nemesis".to_string()
    } else {
        process.to_string()
    };
    let kind = if kind == "nemesis" { "info" } else { kind };
    format!("{{:process {process}, :type :{kind}, :f :{function}, :value [{key} {value}]{time}}}")
}

/// Reads `text` as the panel does; a history that reads is written again and read back.
pub fn history(text: &str) -> Result<Verdict, String> {
    let imported = match import_text("fuzz.edn", text) {
        Ok(imported) => imported,
        Err(error) => return super::targets::readable(error),
    };
    let ops = &imported.judged.ops;
    let written = export_history(ops, &|node| node.to_string());
    match import_history(&written) {
        Ok(again) if again.len() == ops.len() => Ok(Verdict::Accepted),
        Ok(again) => Err(format!(
            "{} ops written out read back as {}: {written:?}",
            ops.len(),
            again.len()
        )),
        Err(error) => Err(format!("a history written out does not read back: {error}")),
    }
}
