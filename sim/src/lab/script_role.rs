//! A learner's script playing a role: it implements the role's trait (`contract::roles`) by calling
//! the script's function with the input as an object map and reading the answer back.
//!
//! Any failure (a limit reached, a type error, a missing property, an answer of the wrong shape)
//! gives the role's refusal instead, never a panic: the store refuses the access as stale, the server
//! keeps the key, the scheduler skips the minute. The failure is written to the role's own log (the
//! first few in full, all of them counted), which the grader reads after each run; the world never
//! does, so the log changes no run.

use super::catalogue::RoleKind;
use super::sandbox::{self, ScriptError};
use crate::contract::roles::{
    GuardDecision, GuardInput, JobGuardRule, ReleaseRequest, ReleaseRule, StoreAccess,
    StoreDecision, StoreVerdict, StoreWriteRule,
};
use rhai::{CallFnOptions, Dynamic, Engine, Map, Position, Scope, AST};
use std::sync::Mutex;

/// Failures kept in full; the rest are counted.
const KEPT_FAULTS: usize = 8;

/// The failures of a role's calls so far.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FaultLog {
    pub count: u64,
    pub first: Vec<ScriptError>,
}

/// A learner's script in one role.
pub struct ScriptRole {
    kind: RoleKind,
    engine: Engine,
    ast: AST,
    /// Where the role's function is defined, for errors about its answer.
    defined_at: Position,
    faults: Mutex<FaultLog>,
}

impl std::fmt::Debug for ScriptRole {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(formatter, "the learner's {} script", self.kind.name())
    }
}

impl ScriptRole {
    /// Reads `source` for `kind`; the error names line and column.
    pub fn new(kind: RoleKind, source: &str) -> Result<ScriptRole, ScriptError> {
        let engine = sandbox::engine();
        let ast = sandbox::compile(&engine, source, kind.function())?;
        Ok(ScriptRole {
            kind,
            engine,
            defined_at: sandbox::definition_of(source, kind.function()),
            ast,
            faults: Mutex::new(FaultLog::default()),
        })
    }

    pub fn kind(&self) -> RoleKind {
        self.kind
    }

    /// The failures so far.
    pub fn faults(&self) -> FaultLog {
        self.faults
            .lock()
            .map(|log| log.clone())
            .unwrap_or_default()
    }

    /// Calls the role's function on `input`: its answer, or the failure (logged).
    pub fn call(&self, input: Map) -> Option<Dynamic> {
        let options = CallFnOptions::new().eval_ast(false).rewind_scope(true);
        let mut scope = Scope::new();
        let function = self.kind.function();
        let called = self.engine.call_fn_with_options::<Dynamic>(
            options,
            &mut scope,
            &self.ast,
            function,
            (Dynamic::from_map(input),),
        );
        match called {
            Ok(answer) => Some(answer),
            Err(error) => {
                // A limit reached (operations, sizes) names no place in the script: the error then
                // points at the function that was running.
                let position = match error.position() {
                    Position::NONE => self.defined_at,
                    position => position,
                };
                let message = format!("{} (in `{function}`)", error.unwrap_inner());
                self.log(ScriptError::at(position, message));
                None
            }
        }
    }

    /// Notes an answer of the wrong shape, at the function's definition.
    pub fn bad_answer(&self, expected: &str, answer: &Dynamic) -> Option<()> {
        let message = format!(
            "`{}` returned {} ({}); it must return {expected}",
            self.kind.function(),
            answer,
            answer.type_name()
        );
        self.log(ScriptError::at(self.defined_at, message));
        None
    }

    fn log(&self, error: ScriptError) {
        if let Ok(mut log) = self.faults.lock() {
            log.count += 1;
            if log.first.len() < KEPT_FAULTS {
                log.first.push(error);
            }
        }
    }
}

/// A number for the script: the wire's u64, capped at the script's largest integer.
fn int(value: u64) -> Dynamic {
    Dynamic::from_int(i64::try_from(value).unwrap_or(i64::MAX))
}

fn field(map: &mut Map, name: &str, value: Dynamic) {
    map.insert(name.into(), value);
}

/// A property of an answer map as a non-negative integer.
fn unsigned(answer: &Map, name: &str) -> Option<u64> {
    let value = answer.get(name)?.as_int().ok()?;
    u64::try_from(value).ok()
}

fn boolean(answer: &Map, name: &str) -> Option<bool> {
    answer.get(name)?.as_bool().ok()
}

impl StoreWriteRule for ScriptRole {
    fn decide(&self, access: &StoreAccess) -> StoreDecision {
        let refusal = StoreDecision {
            verdict: StoreVerdict::Stale,
            highest_seen: access.highest_seen,
        };
        let mut input = Map::new();
        field(&mut input, "write", Dynamic::from_bool(access.write));
        field(&mut input, "token", int(access.token));
        field(&mut input, "highest_seen", int(access.highest_seen));
        field(
            &mut input,
            "idempotent",
            Dynamic::from_bool(access.idempotent),
        );
        field(&mut input, "key", int(access.key));
        let applied = access.applied_key.map_or(Dynamic::UNIT, int);
        field(&mut input, "applied_key", applied);
        let Some(answer) = self.call(input) else {
            return refusal;
        };
        let read = || {
            let map = answer.read_lock::<Map>()?;
            let verdict = match map.get("verdict")?.clone().into_string().ok()?.as_str() {
                "accept" => StoreVerdict::Accept,
                "duplicate" => StoreVerdict::Duplicate,
                "stale" => StoreVerdict::Stale,
                _ => return None,
            };
            let highest_seen = unsigned(&map, "highest_seen")?;
            Some(StoreDecision {
                verdict,
                highest_seen,
            })
        };
        read().unwrap_or_else(|| {
            let expected =
                "#{ verdict: \"accept\" | \"duplicate\" | \"stale\", highest_seen: a number >= 0 }";
            self.bad_answer(expected, &answer);
            refusal
        })
    }
}

impl ReleaseRule for ScriptRole {
    fn release(&self, request: &ReleaseRequest) -> bool {
        let mut input = Map::new();
        field(&mut input, "held_value", int(request.held_value));
        field(&mut input, "held_by", int(u64::from(request.held_by)));
        field(&mut input, "value", int(request.value));
        field(&mut input, "from", int(u64::from(request.from)));
        let Some(answer) = self.call(input) else {
            return false;
        };
        match answer.as_bool() {
            Ok(delete) => delete,
            Err(_) => {
                self.bad_answer("true (delete the key) or false (keep it)", &answer);
                false
            }
        }
    }
}

impl JobGuardRule for ScriptRole {
    fn guard(&self, input: &GuardInput) -> GuardDecision {
        let refusal = GuardDecision {
            run: false,
            token: 0,
            if_absent: true,
        };
        let mut map = Map::new();
        field(&mut map, "minute", int(input.minute));
        field(&mut map, "now_us", int(input.now_us));
        field(&mut map, "lease_until_us", int(input.lease_until_us));
        field(
            &mut map,
            "holds_lease",
            Dynamic::from_bool(input.holds_lease),
        );
        field(&mut map, "term", int(input.term));
        let Some(answer) = self.call(map) else {
            return refusal;
        };
        let read = || {
            let map = answer.read_lock::<Map>()?;
            Some(GuardDecision {
                run: boolean(&map, "run")?,
                token: unsigned(&map, "token")?,
                if_absent: boolean(&map, "if_absent")?,
            })
        };
        read().unwrap_or_else(|| {
            let expected = "#{ run: true | false, token: a number >= 0, if_absent: true | false }";
            self.bad_answer(expected, &answer);
            refusal
        })
    }
}
