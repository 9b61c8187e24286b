//! Hostile programs are contained: a learner's script cannot hang a run, exhaust memory, crash the
//! engine or reach outside its arguments. Each failing call falls back to the role's refusal and is
//! logged with its line and column; a script that does not read is refused up front with its place.

use quorumlab_sim::contract::roles::{
    ReleaseRequest, ReleaseRule, StoreAccess, StoreVerdict, StoreWriteRule,
};
use quorumlab_sim::lab::sandbox::ScriptError;
use quorumlab_sim::lab::{grade, GradeOptions, RoleKind, ScriptRole};
use std::time::{Duration, Instant};

const ACCESS: StoreAccess = StoreAccess {
    write: true,
    token: 3,
    highest_seen: 2,
    idempotent: false,
    key: 1,
    applied_key: None,
};

fn store(source: &str) -> ScriptRole {
    ScriptRole::new(RoleKind::StoreWrite, source).expect("the script reads")
}

/// Calls `source`'s `decide` once; the verdict and the first logged error.
fn decide_once(source: &str) -> (StoreVerdict, Option<ScriptError>) {
    let role = store(source);
    let started = Instant::now();
    let decision = role.decide(&ACCESS);
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "a call is bounded"
    );
    assert_eq!(decision.highest_seen, 2, "a failed call changes nothing");
    (decision.verdict, role.faults().first.first().cloned())
}

fn refused_with(source: &str, words: &str) -> ScriptError {
    let (verdict, error) = decide_once(source);
    assert_eq!(verdict, StoreVerdict::Stale, "a failing call refuses");
    let error = error.expect("the failure is logged");
    assert!(
        error.message.contains(words),
        "`{}` should mention `{words}`",
        error.message
    );
    error
}

fn unreadable(source: &str) -> ScriptError {
    ScriptRole::new(RoleKind::StoreWrite, source).expect_err("the script must be refused")
}

#[test]
fn an_endless_loop_spends_its_operation_budget_and_stops() {
    // A limit names no place of its own: the error points at the function that ran into it.
    let error = refused_with("\nfn decide(access) {\n    loop { }\n}\n", "operations");
    assert_eq!((error.line, error.column), (2, 1), "{error}");
    refused_with(
        "fn decide(access) { let n = 0; while true { n += 1; } n }",
        "operations",
    );
}

#[test]
fn deep_recursion_stops_at_the_call_limit() {
    let source = "fn down(n) { down(n + 1) }\nfn decide(access) { down(0) }";
    let (verdict, error) = decide_once(source);
    assert_eq!(verdict, StoreVerdict::Stale);
    let error = error.expect("logged");
    assert!(
        error.message.to_lowercase().contains("stack") || error.message.contains("call"),
        "{}",
        error.message
    );
}

#[test]
fn huge_strings_and_arrays_stop_at_their_limits() {
    refused_with(
        "fn decide(access) { let s = \"ab\"; loop { s += s; } }",
        "too large",
    );
    refused_with(
        "fn decide(access) { let a = [1]; loop { a += a; } }",
        "too large",
    );
    let map = "fn decide(access) { let m = #{}; let k = \"k\"; loop { m[k] = 1; k += \"x\"; } }";
    // Rhai checks a map's size where it is returned, not at each new property: this one runs into
    // the operation budget first, which bounds what it can build all the same.
    refused_with(map, "operations");
    // Array methods are not in the sandbox at all.
    refused_with(
        "fn decide(access) { let a = []; loop { a.push(1); } }",
        "not found",
    );
}

#[test]
fn a_syntax_error_names_its_line_and_column() {
    let error = unreadable("fn decide(access) {\n    let x = ;\n}\n");
    assert_eq!((error.line, error.column), (2, 13), "{error}");
    assert!(error.to_string().starts_with("2:13: "));
    let missing = unreadable("fn choose(access) { true }");
    assert!(
        missing.message.contains("fn decide(input)"),
        "{}",
        missing.message
    );
}

#[test]
fn nothing_outside_the_sandbox_can_be_reached() {
    // Switched off as words: refused when the script is read.
    for word in ["print(\"hi\")", "debug(\"hi\")", "eval(\"1\")"] {
        let source = format!("fn decide(access) {{\n    {word};\n    access\n}}");
        let error = unreadable(&source);
        assert_eq!(error.line, 2, "{word}: {error}");
    }
    assert!(ScriptRole::new(
        RoleKind::StoreWrite,
        "import \"os\" as os;\nfn decide(a) { a }"
    )
    .is_err());
    // No such functions: an error at the call, at its place, and the access is refused.
    for call in [
        "timestamp()",
        "random()",
        "sleep(1)",
        "rand(0, 9)",
        "system(\"ls\")",
        "fetch(\"x\")",
    ] {
        let source = format!("fn decide(access) {{\n  let x = {call};\n  #{{ verdict: \"accept\", highest_seen: 9 }}\n}}");
        let error = refused_with(&source, "not found");
        assert_eq!(error.line, 2, "{call}: {error}");
    }
}

#[test]
fn an_answer_of_the_wrong_shape_refuses_and_names_the_function() {
    let error = refused_with("// a comment\nfn decide(access) { 42 }", "must return");
    assert_eq!(error.line, 2);
    refused_with(
        "fn decide(access) { #{ verdict: \"maybe\", highest_seen: 1 } }",
        "must return",
    );
    refused_with(
        "fn decide(access) { #{ verdict: \"accept\", highest_seen: -1 } }",
        "must return",
    );
    refused_with("fn decide(access) { access.nothing_here + 1 }", "");
    let release = ScriptRole::new(RoleKind::Release, "fn release(request) { \"yes\" }").unwrap();
    let request = ReleaseRequest {
        held_value: 1,
        held_by: 0,
        value: 1,
        from: 0,
    };
    assert!(!release.release(&request), "a bad answer keeps the key");
    assert_eq!(release.faults().count, 1);
}

#[test]
fn the_grader_reports_a_script_error_with_its_place_and_never_hangs() {
    let source = "fn decide(access) {\n  if access.write { loop { } }\n  #{ verdict: \"accept\", highest_seen: access.token }\n}";
    let role = store(source);
    let options = GradeOptions {
        seeds: 3,
        max_states: 200,
        horizon_ms: 2_000,
    };
    let started = Instant::now();
    let verdict = grade(role, options).unwrap();
    assert!(started.elapsed() < Duration::from_secs(60));
    assert!(!verdict.passed);
    let broken = verdict.broken.expect("broken");
    assert_eq!(broken.property, "Script Error");
    let error = broken.script_error.expect("the error is named");
    assert_eq!(error.line, 1, "{error}");
    assert!(error.message.contains("operations"), "{error}");
    assert!(verdict.script_errors > 0);
}
