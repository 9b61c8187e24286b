//! Scenario files written from the format's grammar: every world in the registry with its own tables,
//! every `[timing]` and `[locks]` key, every action. Most files are clean (values in range, often at
//! their edges), so the engine's limits are reached; the rest are dirty (now and then a value just
//! outside its range, absurd or of the wrong type), so the parser's checks are. Runs generated from
//! clean files, with learner actions at random moments, become share links and trace files made
//! exactly as the app makes them.

use super::random::Random;
use quorumlab::session::Session;
use quorumlab_sim::action::{Action, MalformedFault, NodeTarget, RequestKind};
use quorumlab_sim::entry::OptionValue;
use quorumlab_sim::history::RecordedAction;
use quorumlab_sim::ids::NodeId;
use quorumlab_sim::link_settings::LinkSettings;
use quorumlab_sim::registry::ENTRIES;
use quorumlab_sim::scenario::{parse_scenario, Scenario, ACTION_NAMES, LOCK_KEYS, TIMING_KEYS};
use quorumlab_sim::time::SimTime;
use std::fmt::Write;

/// The `[locks]` keys only some worlds take (each world's entry lists its own).
const OPTIONAL_LOCK_KEYS: &[&str] = &[
    "renew_ms",
    "fencing",
    "unchecked_release",
    "drift_allowance_ms",
    "set_nx_retries",
];
const FLAG_KEYS: &[&str] = &[
    "fencing",
    "check_lease_before_write",
    "idempotency_key",
    "unchecked_release",
];
const EDGE_NUMBERS: &[&str] = &["0", "1", "2", "51", "600000", "3600000"];
const OUTSIDE_NUMBERS: &[&str] = &[
    "52",
    "600001",
    "3600001",
    "10001",
    "4294967296",
    "9223372036854775807",
    "18446744073709551615",
    "-1",
    "-9223372036854775808",
    "18446744073709551616",
    "1e400",
    "0.5",
    "nan",
    "inf",
    "-0",
    "0x10",
    "1_000",
    "\"12\"",
    "true",
    "[]",
];

/// A number as a file might spell it, for mutations: mostly small, sometimes at an edge or absurd.
pub fn number(random: &mut Random, typical_high: u64) -> String {
    match random.weighted(&[70, 15, 15]) {
        0 => random.between(0, typical_high.max(1)).to_string(),
        1 => random.pick(EDGE_NUMBERS).to_string(),
        _ => random.pick(OUTSIDE_NUMBERS).to_string(),
    }
}

/// Writes one file; `dirty` files may hold values outside their ranges.
struct Writer<'a> {
    random: &'a mut Random,
    dirty: bool,
    text: String,
}

impl Writer<'_> {
    /// A value for a key taking `low..=high` (typically up to `typical`).
    fn number(&mut self, low: u64, typical: u64, high: u64) -> String {
        if self.dirty && self.random.percent(10) {
            return self.random.pick(OUTSIDE_NUMBERS).to_string();
        }
        match self.random.percent(85) {
            true => self
                .random
                .between(low, typical.clamp(low, high))
                .to_string(),
            false => self.random.pick(&[low, high]).to_string(),
        }
    }

    fn rate(&mut self) -> String {
        if self.dirty && self.random.percent(10) {
            return self.random.pick(&["1.5", "-0.1", "nan", "2"]).to_string();
        }
        self.random
            .pick(&["0.0", "0.0", "0.01", "0.1", "0.5", "1.0", "1e-9"])
            .to_string()
    }

    fn flag(&mut self) -> String {
        match self.dirty && self.random.percent(5) {
            true => "1".to_string(),
            false => self.random.pick(&["true", "false"]).to_string(),
        }
    }

    /// A pair `[min, max]`, min <= max unless dirty.
    fn pair(&mut self, low: u64, typical: u64, high: u64) -> String {
        let first: u64 = self.number(low, typical, high).parse().unwrap_or(low);
        let second = match self.dirty && self.random.percent(10) {
            true => self.random.between(0, first),
            false => self
                .random
                .between(first, first.saturating_add(200).min(high)),
        };
        format!("[{first}, {second}]")
    }

    /// A node's name among `actors` (servers `n1..`, then lettered actors, then maybe `store`).
    fn node(&mut self, servers: u64) -> String {
        let name = match self.random.weighted(&[60, 15, 5, 15, 5]) {
            0 => format!("n{}", self.random.between(1, servers)),
            1 => ((b'A' + self.random.between(0, 2) as u8) as char).to_string(),
            2 => "store".to_string(),
            3 => "leader".to_string(),
            _ => self.random.pick(&["n0", "n52", "nx", "", "N1"]).to_string(),
        };
        format!("\"{name}\"")
    }

    fn line(&mut self, key: &str, value: String) {
        let _ = writeln!(self.text, "{key} = {value}");
    }
}

/// A whole scenario file.
pub fn scenario_text(random: &mut Random) -> String {
    let dirty = random.percent(30);
    let mut writer = Writer {
        random,
        dirty,
        text: String::new(),
    };
    let entry = writer.random.pick(ENTRIES);
    let servers = match entry.name {
        "redis-lock" => 1,
        _ => writer.random.between(1, 7),
    };
    let title = title(writer.random);
    writer.line("title", title);
    let protocol = match dirty && writer.random.percent(5) {
        true => "multi-paxos",
        false => entry.name,
    };
    writer.line("protocol", format!("\"{protocol}\""));
    let nodes = match dirty && writer.random.percent(20) {
        true => writer.number(0, 51, 52),
        false => servers.to_string(),
    };
    writer.line("nodes", nodes);
    let seed = writer.random.next_u64().to_string();
    writer.line("seed", seed);
    let duration_ms = writer.number(1, 4_000, 3_600_000);
    writer.line("duration_ms", duration_ms.clone());
    timing_table(&mut writer);
    if entry.name != "raft" || writer.random.percent(5) {
        locks_table(&mut writer, entry.lock_keys);
    }
    for table in entry.tables {
        let _ = writeln!(writer.text, "\n[{}]", table.name);
        for key in table.keys {
            if !writer.random.percent(60) {
                continue;
            }
            let value = match key.value {
                OptionValue::Flag => writer.flag(),
                OptionValue::Unsigned { low, high } => writer.number(low, 2_000, high),
                OptionValue::Choice { names, .. } => {
                    format!("\"{}\"", writer.random.pick(names))
                }
            };
            writer.line(key.name, value);
        }
    }
    let last_ms: u64 = duration_ms.parse().unwrap_or(1_000);
    let mut at_ms = 0;
    for _ in 0..writer.random.between(0, 8) {
        at_ms = writer.random.between(at_ms, last_ms.max(at_ms));
        step_text(&mut writer, at_ms, servers);
    }
    writer.text
}

fn title(random: &mut Random) -> String {
    match random.weighted(&[80, 5, 10, 5]) {
        0 => "\"Generated\"".to_string(),
        1 => "\"\"".to_string(),
        2 => format!("\"{}\"", "x".repeat(random.between(190, 100_000) as usize)),
        _ => "\"tab\\tnewline\\n bell\\u0007 ünïcödé 🙂\"".to_string(),
    }
}

fn timing_table(writer: &mut Writer) {
    if writer.random.percent(30) {
        return;
    }
    writer.text.push_str("\n[timing]\n");
    for &key in TIMING_KEYS {
        if !writer.random.percent(40) {
            continue;
        }
        let value = match key {
            "election_timeout_ms" => writer.pair(1, 400, 600_000),
            "heartbeat_ms" => writer.number(1, 100, 600_000),
            "network_delay_ms" => writer.pair(0, 20, 600_000),
            "drop_rate" | "duplicate_rate" => writer.rate(),
            "client_timeout_ms" => writer.number(1, 2_000, 600_000),
            _ => writer.flag(),
        };
        writer.line(key, value);
    }
}

/// The `[locks]` table: the keys every lock world takes, the ones `own_keys` adds, now and then
/// (in a dirty file) one of another world's.
fn locks_table(writer: &mut Writer, own_keys: &[&str]) {
    writer.text.push_str("\n[locks]\n");
    for key in LOCK_KEYS {
        let allowed = !OPTIONAL_LOCK_KEYS.contains(key) || own_keys.contains(key);
        let chance = match (allowed, writer.dirty) {
            (true, _) => 35,
            (false, true) => 3,
            (false, false) => 0,
        };
        if !writer.random.percent(chance) {
            continue;
        }
        let value = match *key {
            key if FLAG_KEYS.contains(&key) => writer.flag(),
            "workers" => writer.number(1, 4, 26),
            "initial_count" => writer.number(0, 2_000, 1_000_000_000),
            "think_ms" | "work_ms" | "drift_allowance_ms" => writer.number(0, 500, 600_000),
            _ => writer.number(1, 1_000, 600_000),
        };
        writer.line(key, value);
    }
}

/// One `[[step]]` table with arguments for its action.
fn step_text(writer: &mut Writer, at_ms: u64, servers: u64) {
    let action = match writer.dirty && writer.random.percent(3) {
        true => "explode",
        false => *writer.random.pick(ACTION_NAMES),
    };
    let _ = write!(
        writer.text,
        "\n[[step]]\nat_ms = {at_ms}\ndo = \"{action}\"\n"
    );
    let target = writer.node(servers);
    match action {
        "crash" | "restart" | "resume" | "isolate" => writer.line("target", target),
        "pause" => {
            writer.line("target", target);
            if writer.random.percent(50) {
                let duration = writer.number(1, 3_000, 3_600_000);
                writer.line("duration_ms", duration);
            }
        }
        "partition" => {
            let first = format!("\"n{}\"", writer.random.between(1, servers));
            let groups = match servers > 1 && writer.random.percent(80) {
                true => format!(
                    "[[{first}], [\"n{}\"]]",
                    servers.min(2) + (servers > 2) as u64
                ),
                false => format!("[[{first}]]"),
            };
            writer.line("groups", groups);
        }
        "cut" => {
            writer.line("from", format!("\"n{}\"", 1));
            writer.line("to", format!("\"n{}\"", servers.max(2)));
            let both = writer.flag();
            writer.line("both", both);
        }
        "drop_rate" => {
            let rate = writer.rate();
            writer.line("rate", rate);
        }
        "clock_jump" => {
            writer.line("target", target);
            let by_ms = writer.number(0, 5_000, 3_600_000);
            writer.line("by_ms", format!("-{by_ms}"));
        }
        "clock_drift" => {
            writer.line("target", target);
            let ppm = writer.number(0, 500_000, 1_000_000);
            writer.line("ppm", ppm);
        }
        "malformed_write" => {
            writer.line("target", target);
            let fault = match writer.dirty && writer.random.percent(10) {
                true => *writer
                    .random
                    .pick(&["\"\"", "\"missing\"", "3", "\"MISSING_TOKEN\""]),
                false => *writer.random.pick(&[
                    "\"missing_token\"",
                    "\"token_too_large\"",
                    "\"negative_count\"",
                ]),
            };
            if writer.random.percent(80) {
                writer.line("fault", fault.to_string());
            }
        }
        "request" => {
            let count = writer.number(1, 20, 10_000);
            writer.line("count", count);
            writer.line("target", target);
            let kind = writer.random.pick(&["\"put\"", "\"get\""]).to_string();
            writer.line("kind", kind);
        }
        other => network_step_text(writer, other, servers),
    }
}

/// The arguments of the steps that change the network: a link's own settings, regions, a hand on a
/// message (whose id may or may not be in flight when the step runs: both must be fine).
fn network_step_text(writer: &mut Writer, action: &str, servers: u64) {
    let between = format!("[\"n1\", \"n{}\"]", servers.max(2));
    match action {
        "link" => {
            writer.line("between", between);
            let delay_ms = writer.pair(0, 100, 10_000);
            writer.line("delay_ms", delay_ms);
            if writer.random.percent(50) {
                let rate = writer.rate();
                writer.line("drop_rate", rate);
            }
            if writer.random.percent(30) {
                let rate = writer.rate();
                writer.line("duplicate_rate", rate);
            }
        }
        "clear_link" if writer.random.percent(50) => writer.line("between", between),
        "regions" => {
            let last = servers.max(2);
            writer.line("groups", format!("[[\"n1\"], [\"n{last}\"]]"));
        }
        "drop_message" | "hold_message" => {
            let message = writer.number(1, 500, 1_000_000);
            writer.line("message", message);
            writer.line("from", "\"n1\"".to_string());
            writer.line("to", format!("\"n{}\"", servers.max(2)));
            if action == "hold_message" {
                let by_ms = writer.number(1, 300, 60_000);
                writer.line("by_ms", by_ms);
            }
        }
        _ => {}
    }
}

/// A run of a generated scenario with learner actions, as a session holds it, or `None` when the
/// scenario does not parse. It is cut to 3 s so it stays cheap to make.
pub fn generated_session(random: &mut Random) -> Option<Session> {
    let mut scenario = parse_scenario(&scenario_text(random), "generated.toml").ok()?;
    scenario.duration_ms = scenario.duration_ms.min(3_000);
    scenario.steps.retain(|step| step.at_ms <= 3_000);
    let nodes = scenario.actor_count() as u16;
    let mut session = Session::new(scenario).ok()?;
    for _ in 0..random.between(0, 6) {
        let gap_us = random.between(0, 400_000);
        session.advance_to(session.now().plus_micros(gap_us));
        session.apply(&action(random, nodes));
    }
    session.advance_to(session.now().plus_micros(random.between(0, 300_000)));
    if random.percent(30) {
        let back = SimTime(random.between(0, session.now().as_micros()));
        session.seek(back);
    }
    Some(session)
}

/// A run as a forger writes it, without running anything: a generated scenario (up to an hour long),
/// actions at rising times that claim no events before them (which always fits), some of them
/// floods of 10 000 requests, and a position anywhere in the run. Cheap to make, and as expensive to
/// replay as the settings allow: what the replay budget is for.
pub fn forged_run(random: &mut Random) -> Option<(Scenario, Vec<RecordedAction>, SimTime)> {
    let mut scenario = parse_scenario(&scenario_text(random), "forged.toml").ok()?;
    if random.percent(50) {
        scenario.duration_ms = random.between(scenario.duration_ms, 3_600_000);
    }
    let nodes = scenario.actor_count() as u16;
    let end_us = scenario.duration_ms * 1_000;
    let mut at_us = 0;
    let mut actions = Vec::new();
    for _ in 0..random.between(0, 60) {
        at_us = random.between(at_us, (at_us + end_us / 20).min(end_us));
        let action = match random.percent(40) {
            true => Action::Request {
                count: *random.pick(&[100, 1_000, 10_000]),
                target: target(random, nodes),
                kind: RequestKind::Put,
            },
            false => action(random, nodes),
        };
        actions.push(RecordedAction {
            at: SimTime(at_us),
            after_events: 0,
            action,
        });
    }
    let position = SimTime(random.between(at_us, end_us));
    Some((scenario, actions, position))
}

fn target(random: &mut Random, nodes: u16) -> NodeTarget {
    match random.percent(70) {
        true => NodeTarget::Node(NodeId(random.between(0, nodes.max(1) as u64 - 1) as u16)),
        false => NodeTarget::Leader,
    }
}

/// A learner action on a world of `nodes` actors (the kinds `sim/tests/engine_fuzz.rs` draws).
fn action(random: &mut Random, nodes: u16) -> Action {
    let target = target(random, nodes);
    match random.below(10) {
        0 => Action::Crash { target },
        1 => Action::Restart { target },
        2 => Action::Pause {
            target,
            duration_ms: random.percent(50).then(|| random.between(1, 2_000)),
        },
        3 => Action::Resume { target },
        4 => Action::Isolate { target },
        5 => Action::Heal,
        6 => Action::ClockJump {
            target,
            by_ms: random.between(0, 4_000) as i64 - 2_000,
        },
        7 => Action::DropRate {
            ppm: random.between(0, 300_000) as u32,
        },
        8 if random.percent(50) => network_action(random, nodes),
        9 if random.percent(30) => Action::MalformedWrite {
            target,
            fault: *random.pick(&[
                MalformedFault::MissingToken,
                MalformedFault::TokenTooLarge,
                MalformedFault::NegativeCount,
            ]),
        },
        _ => Action::Request {
            count: random.between(1, 30) as u32,
            target,
            kind: match random.percent(70) {
                true => RequestKind::Put,
                false => RequestKind::Get,
            },
        },
    }
}

/// A learner's change to the network: a link's own settings, regions, a hand on a message.
fn network_action(random: &mut Random, nodes: u16) -> Action {
    let (one, other) = (NodeId(0), NodeId(nodes.saturating_sub(1)));
    let message = random.between(1, 400);
    match random.below(5) {
        0 => Action::SetLink {
            between: (one, other),
            settings: LinkSettings {
                delay_ms: Some((random.between(0, 50), random.between(50, 300))),
                drop_ppm: random
                    .percent(30)
                    .then(|| random.between(0, 500_000) as u32),
                duplicate_ppm: None,
            },
        },
        1 => Action::ClearLink {
            between: random.percent(50).then_some((one, other)),
        },
        2 => Action::Regions {
            groups: vec![vec![one], vec![other]],
        },
        3 => Action::DropMessage {
            message,
            from: one,
            to: other,
        },
        _ => Action::HoldMessage {
            message,
            from: other,
            to: one,
            by_ms: random.between(1, 2_000),
        },
    }
}
