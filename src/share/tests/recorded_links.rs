//! Links recorded from the real encoders of v1, v2 and v3, kept as text: whatever the link code
//! becomes, these must keep opening to exactly the run they were made from. Each comes with that run
//! in the scenario format (stable and documented, so it outlives the link code): the scenario, every
//! recorded action, the position, the lesson, and the event count and trace hash of the replayed
//! world.
//!
//! They were made by `print_recorded_links`, a generator that ran the encoders of that build (see
//! the commit that added this file); the encoders are gone, so the links can no longer change.
//! The trace hashes of the Raft-based runs were pinned again when the trace began to record each
//! vote (`VoteCast`), each commit (`Committed`) and a won election's vote count, for the narration;
//! the event counts, which pin the run itself, stayed the same, as did the Redis worlds' hashes.

use super::*;
use quorumlab_sim::scenario::parse_scenario;

/// One link made by an old build, and what it must open to.
pub(super) struct Recorded {
    pub(super) name: &'static str,
    pub(super) fragment: &'static str,
    /// The scenario without its steps, as scenario TOML.
    settings: &'static str,
    /// The scenario's `[[step]]` entries (appended to `settings`).
    steps: &'static str,
    /// The recorded actions, each written as a `[[step]]` at its millisecond (appended to
    /// `settings`); the exact µs and event count of each are in `action_points_us`.
    actions: &'static str,
    /// `(at µs, after_events)` of each recorded action.
    action_points_us: &'static [(u64, u64)],
    position_us: u64,
    /// Lesson id, open step, and the µs that step began.
    lesson: Option<(&'static str, usize, u64)>,
    /// Events processed and trace hash (the JSON FNV-1a fingerprint of the time) of the run replayed to
    /// its position.
    events: u64,
    trace_hash: u64,
}

impl Recorded {
    /// The first recorded link whose name starts with `prefix`.
    pub(super) fn named(prefix: &str) -> &'static Recorded {
        RECORDED
            .iter()
            .find(|recorded| recorded.name.starts_with(prefix))
            .unwrap()
    }

    /// The body of the link, its checksum cut off (to build damaged or relabelled links from).
    pub(super) fn body(&self) -> Vec<u8> {
        let payload = self.fragment.splitn(4, '/').nth(3).unwrap();
        let mut bytes = payload::decode(payload).unwrap();
        bytes.truncate(bytes.len() - 4);
        bytes
    }

    pub(super) fn scenario(&self) -> Scenario {
        parse_scenario(&format!("{}{}", self.settings, self.steps), self.name).unwrap()
    }

    pub(super) fn actions(&self) -> Vec<RecordedAction> {
        let as_steps = parse_scenario(&format!("{}{}", self.settings, self.actions), self.name);
        let steps = as_steps.unwrap().steps;
        assert_eq!(steps.len(), self.action_points_us.len(), "{}", self.name);
        steps
            .into_iter()
            .zip(self.action_points_us)
            .map(|(step, &(at_us, after_events))| RecordedAction {
                at: SimTime(at_us),
                after_events,
                action: step.action,
            })
            .collect()
    }
}

/// Made with the v1–v3 encoders: one v1 Raft run, a v2 Raft run with
/// every action kind, a v2 run of each coordination protocol, and two v3 runs inside lessons.
pub(super) const RECORDED: &[Recorded] = &[
    Recorded {
        name: "v1 raft",
        fragment: "#/run/v1/B3YxIHJhZnQAAwew6gGWAawCMgUPAKCcAegHAgAD4NwqSgUAtZguZAoDkE6rri1cB4C-kgE8jtrl",
        settings: r##"title = "v1 raft"
protocol = "raft"
nodes = 3
seed = 7
duration_ms = 30000

[timing]
election_timeout_ms = [150, 300]
heartbeat_ms = 50
network_delay_ms = [5, 15]
drop_rate = 0.0
duplicate_rate = 0.02
client_timeout_ms = 1000
pre_vote = false
check_quorum = true
lease_reads = false
"##,
        steps: r##""##,
        actions: r##"
[[step]]
at_ms = 700
do = "isolate"
target = "leader"

[[step]]
at_ms = 1456
do = "clock_drift"
target = "n3"
ppm = 5000

[[step]]
at_ms = 2200
do = "heal"
"##,
        action_points_us: &[(700000, 74), (1456789, 174), (2200000, 266)],
        position_us: 2400000,
        lesson: None,
        events: 280,
        trace_hash: 0xee13d0553d038350,
    },
    Recorded {
        name: "v2 raft",
        fragment: "#/run/v2/GUxlYWRlciBjcmFzaCDigJQgwqtkZW1vwrsABf___________wHAzySWAawCMgAPuWAA6AcFAAMAB5ADAACwzCQBARAAAAfAmgwAAACorgg-AQWY7AMKAACQwgQFAgHcC6iuCB8CAACorggEAwGorggbBAICAAEBBKiuCA4FA6iuCAUGAQABqK4IDAeorggZCMCEPaiuCA4JAv-5twOorggXCgL9iHqorggUCwCQTgGorgigTgsEAQDg-3M1e-5l",
        settings: r##"title = "Leader crash — «demo»"
protocol = "raft"
nodes = 5
seed = 18446744073709551615
duration_ms = 600000

[timing]
election_timeout_ms = [150, 300]
heartbeat_ms = 50
network_delay_ms = [0, 15]
drop_rate = 0.012345
duplicate_rate = 0.0
client_timeout_ms = 1000
pre_vote = true
check_quorum = false
lease_reads = true
"##,
        steps: r##"
[[step]]
at_ms = 0
do = "heal"

[[step]]
at_ms = 400
do = "crash"
target = "leader"

[[step]]
at_ms = 600000
do = "restart"
target = "n1"
"##,
        actions: r##"
[[step]]
at_ms = 0
do = "heal"

[[step]]
at_ms = 200
do = "crash"
target = "leader"

[[step]]
at_ms = 337
do = "restart"
target = "n5"

[[step]]
at_ms = 400
do = "crash"
target = "leader"

[[step]]
at_ms = 474
do = "pause"
target = "n1"
duration_ms = 1500

[[step]]
at_ms = 611
do = "pause"
target = "leader"

[[step]]
at_ms = 748
do = "resume"
target = "n1"

[[step]]
at_ms = 885
do = "partition"
groups = [["n1", "n2"], ["n5"]]

[[step]]
at_ms = 1022
do = "isolate"
target = "n3"

[[step]]
at_ms = 1159
do = "cut"
from = "n1"
to = "leader"
both = true

[[step]]
at_ms = 1296
do = "heal"

[[step]]
at_ms = 1433
do = "drop_rate"
rate = 1.0

[[step]]
at_ms = 1570
do = "clock_jump"
target = "n2"
by_ms = -3600000

[[step]]
at_ms = 1707
do = "clock_drift"
target = "n2"
ppm = -999999

[[step]]
at_ms = 1844
do = "request"
count = 10000
target = "leader"
kind = "get"

[[step]]
at_ms = 1981
do = "request"
count = 1
target = "n4"
kind = "put"
"##,
        action_points_us: &[(0, 0), (200000, 0), (337000, 62), (400000, 72), (474000, 77), (611000, 108), (748000, 112), (885000, 139), (1022000, 153), (1159000, 158), (1296000, 170), (1433000, 195), (1570000, 209), (1707000, 232), (1844000, 252), (1981000, 10268)],
        position_us: 1900000,
        lesson: None,
        events: 10257,
        trace_hash: 0x99f3f7a742a691ab,
    },
    Recorded {
        name: "v2 lock-service (fencing-pause.toml)",
        fragment: "#/run/v2/NEZlbmNpbmc6IHRoZSBwYXVzZWQgaG9sZGVyJ3Mgc3RhbGUgd3JpdGUgaXMgcmVqZWN0ZWQAAwHwLpYBrAIyBQ8AAOgHAAEC6AesAmTIAawC6AcMBwG2BwIExBMD8P057wMCBMQT0IYDIQIEvAXAhD3ZAwkB9APAjbcBnAr9Bg",
        settings: r##"title = "Fencing: the paused holder's stale write is rejected"
protocol = "lock-service"
nodes = 3
seed = 1
duration_ms = 6000

[timing]
election_timeout_ms = [150, 300]
heartbeat_ms = 50
network_delay_ms = [5, 15]
drop_rate = 0.0
duplicate_rate = 0.0
client_timeout_ms = 1000
pre_vote = false
check_quorum = false
lease_reads = false

[locks]
workers = 2
lease_ttl_ms = 1000
renew_ms = 300
fencing = true
check_lease_before_write = true
idempotency_key = true
think_ms = 100
work_ms = 200
op_timeout_ms = 300
initial_count = 1000
"##,
        steps: r##"
[[step]]
at_ms = 950
do = "pause"
target = "A"
duration_ms = 2500
"##,
        actions: r##"
[[step]]
at_ms = 950
do = "pause"
target = "A"
duration_ms = 2500

[[step]]
at_ms = 1000
do = "pause"
target = "A"
duration_ms = 700

[[step]]
at_ms = 2000
do = "clock_jump"
target = "n1"
by_ms = 250
"##,
        action_points_us: &[(950000, 495), (1000000, 528), (2000000, 1001)],
        position_us: 3000000,
        lesson: None,
        events: 1516,
        trace_hash: 0x20afc9745d317ea5,
    },
    Recorded {
        name: "v2 redis-lock (redis-unsafe-release.toml)",
        fragment: "#/run/v2/QlJlZGlzIGxvY2s6IGRlbGV0aW5nIHdpdGhvdXQgY2hlY2tpbmcgcmVsZWFzZXMgc29tZW9uZSBlbHNlJ3MgbG9jawABAYgnlgGsAjIFDwAA6AcAAgPoB6wCMpADrALoBwwOAcgBAgPcCwPAmgwSAgPcC4DqMFgCArwFwIQ9PAkB9APAjbcBbYVHBA",
        settings: r##"title = "Redis lock: deleting without checking releases someone else's lock"
protocol = "redis-lock"
nodes = 1
seed = 1
duration_ms = 5000

[timing]
election_timeout_ms = [150, 300]
heartbeat_ms = 50
network_delay_ms = [5, 15]
drop_rate = 0.0
duplicate_rate = 0.0
client_timeout_ms = 1000
pre_vote = false
check_quorum = false
lease_reads = false

[locks]
workers = 3
lease_ttl_ms = 1000
unchecked_release = true
check_lease_before_write = true
idempotency_key = true
think_ms = 50
work_ms = 400
op_timeout_ms = 300
initial_count = 1000
"##,
        steps: r##"
[[step]]
at_ms = 200
do = "pause"
target = "B"
duration_ms = 1500
"##,
        actions: r##"
[[step]]
at_ms = 200
do = "pause"
target = "B"
duration_ms = 1500

[[step]]
at_ms = 1000
do = "pause"
target = "A"
duration_ms = 700

[[step]]
at_ms = 2000
do = "clock_jump"
target = "n1"
by_ms = 250
"##,
        action_points_us: &[(200000, 18), (1000000, 106), (2000000, 166)],
        position_us: 3000000,
        lesson: None,
        events: 272,
        trace_hash: 0x5e0dd3e929d4e930,
    },
    Recorded {
        name: "v2 redlock (redlock-clock-jump.toml)",
        fragment: "#/run/v2/PlJlZGxvY2s6IGEgY2xvY2sganVtcCBvbiBvbmUgc2VydmVyIGdpdmVzIHR3byBjbGllbnRzIHRoZSBsb2NrAAUB8C6WAawCMgUPAADoBwADAqAfrAJkxBOsAugHKgYFAAYGBAEABgYFAQAGBwEBAAYHAgHoBwkDwD4HAAAGBgQBAAAGBgUBAAAGBwEBAAAGBwIBwIQ9NgkDwD4AAAIGvAXAhD0UCQH0A8CNtwFcJsoG",
        settings: r##"title = "Redlock: a clock jump on one server gives two clients the lock"
protocol = "redlock"
nodes = 5
seed = 1
duration_ms = 6000

[timing]
election_timeout_ms = [150, 300]
heartbeat_ms = 50
network_delay_ms = [5, 15]
drop_rate = 0.0
duplicate_rate = 0.0
client_timeout_ms = 1000
pre_vote = false
check_quorum = false
lease_reads = false

[locks]
workers = 2
lease_ttl_ms = 4000
drift_allowance_ms = 42
check_lease_before_write = true
idempotency_key = true
think_ms = 100
work_ms = 2500
op_timeout_ms = 300
initial_count = 1000
"##,
        steps: r##"
[[step]]
at_ms = 0
do = "cut"
from = "A"
to = "n4"
both = true

[[step]]
at_ms = 0
do = "cut"
from = "A"
to = "n5"
both = true

[[step]]
at_ms = 0
do = "cut"
from = "B"
to = "n1"
both = true

[[step]]
at_ms = 0
do = "cut"
from = "B"
to = "n2"
both = true

[[step]]
at_ms = 1000
do = "clock_jump"
target = "n3"
by_ms = 4000
"##,
        actions: r##"
[[step]]
at_ms = 0
do = "cut"
from = "A"
to = "n4"
both = true

[[step]]
at_ms = 0
do = "cut"
from = "A"
to = "n5"
both = true

[[step]]
at_ms = 0
do = "cut"
from = "B"
to = "n1"
both = true

[[step]]
at_ms = 0
do = "cut"
from = "B"
to = "n2"
both = true

[[step]]
at_ms = 1000
do = "clock_jump"
target = "n3"
by_ms = 4000

[[step]]
at_ms = 1000
do = "pause"
target = "A"
duration_ms = 700

[[step]]
at_ms = 2000
do = "clock_jump"
target = "n1"
by_ms = 250
"##,
        action_points_us: &[(0, 0), (0, 0), (0, 0), (0, 0), (1000000, 54), (1000000, 54), (2000000, 74)],
        position_us: 3000000,
        lesson: None,
        events: 97,
        trace_hash: 0xa5eab392de436e36,
    },
    Recorded {
        name: "v2 scheduler (scheduler-none.toml)",
        fragment: "#/run/v2/D1NjaGVkdWxlcjogbm9uZQADAaCcAZYBrAIyBQ8AAOgHAAQD3AuQA2TIAawC6AcMBgDoBwACwIQ9mwMCBLwFwIQ9xQMJAfQDwI23AUk0-4A",
        settings: r##"title = "Scheduler: none"
protocol = "scheduler"
nodes = 3
seed = 1
duration_ms = 20000

[timing]
election_timeout_ms = [150, 300]
heartbeat_ms = 50
network_delay_ms = [5, 15]
drop_rate = 0.0
duplicate_rate = 0.0
client_timeout_ms = 1000
pre_vote = false
check_quorum = false
lease_reads = false

[locks]
workers = 3
lease_ttl_ms = 1500
renew_ms = 400
check_lease_before_write = true
idempotency_key = true
think_ms = 100
work_ms = 200
op_timeout_ms = 300
initial_count = 1000

[scheduler]
mode = "none"
minute_ms = 1000
"##,
        steps: r##""##,
        actions: r##"
[[step]]
at_ms = 1000
do = "pause"
target = "A"
duration_ms = 700

[[step]]
at_ms = 2000
do = "clock_jump"
target = "n1"
by_ms = 250
"##,
        action_points_us: &[(1000000, 411), (2000000, 864)],
        position_us: 3000000,
        lesson: None,
        events: 1327,
        trace_hash: 0x24af5beaeb18ef71,
    },
    Recorded {
        name: "v2 zookeeper (zk-herd.toml)",
        fragment: "#/run/v2/H1pvb0tlZXBlciBlbGVjdGlvbjogaGVyZCByZWNpcGUAAwHAPpYBrAIyBQ8AAOgHAAUFoAbIAWQyrALoBwwGAALQDwAE0A8ABwTAhD2jBgIEvAXAhD3yBAAEAAAJAfQDgIl6yQgAB8CNtwEII53P",
        settings: r##"title = "ZooKeeper election: herd recipe"
protocol = "zookeeper"
nodes = 3
seed = 1
duration_ms = 8000

[timing]
election_timeout_ms = [150, 300]
heartbeat_ms = 50
network_delay_ms = [5, 15]
drop_rate = 0.0
duplicate_rate = 0.0
client_timeout_ms = 1000
pre_vote = false
check_quorum = false
lease_reads = false

[locks]
workers = 5
lease_ttl_ms = 800
renew_ms = 200
check_lease_before_write = true
idempotency_key = true
think_ms = 100
work_ms = 50
op_timeout_ms = 300
initial_count = 1000

[zookeeper]
recipe = "herd"
"##,
        steps: r##"
[[step]]
at_ms = 2000
do = "crash"
target = "A"

[[step]]
at_ms = 4000
do = "crash"
target = "D"
"##,
        actions: r##"
[[step]]
at_ms = 1000
do = "pause"
target = "A"
duration_ms = 700

[[step]]
at_ms = 2000
do = "crash"
target = "A"

[[step]]
at_ms = 2000
do = "clock_jump"
target = "n1"
by_ms = 250

[[step]]
at_ms = 4000
do = "crash"
target = "D"
"##,
        action_points_us: &[(1000000, 803), (2000000, 1429), (2000000, 1429), (4000000, 2526)],
        position_us: 3000000,
        lesson: None,
        events: 1993,
        trace_hash: 0x87bf3d8059261395,
    },
    Recorded {
        name: "v2 work-queue (queue-partitioned.toml)",
        fragment: "#/run/v2/KldvcmsgcXVldWU6IHBhcnRpdGlvbnMgYnkgYWNjb3VudCwgbm8gbG9jawADAZBOlgGsAjIFDwAA6AcABgToB6wCChSsAugHDAcBQAACwIQ9xgYCBLwFwIQ9rQYJAfQDwI23AbpSEEc",
        settings: r##"title = "Work queue: partitions by account, no lock"
protocol = "work-queue"
nodes = 3
seed = 1
duration_ms = 10000

[timing]
election_timeout_ms = [150, 300]
heartbeat_ms = 50
network_delay_ms = [5, 15]
drop_rate = 0.0
duplicate_rate = 0.0
client_timeout_ms = 1000
pre_vote = false
check_quorum = false
lease_reads = false

[locks]
workers = 4
lease_ttl_ms = 1000
renew_ms = 300
fencing = true
check_lease_before_write = true
idempotency_key = true
think_ms = 10
work_ms = 20
op_timeout_ms = 300
initial_count = 1000

[queue]
partitioned = true
accounts = 64
"##,
        steps: r##""##,
        actions: r##"
[[step]]
at_ms = 1000
do = "pause"
target = "A"
duration_ms = 700

[[step]]
at_ms = 2000
do = "clock_jump"
target = "n1"
by_ms = 250
"##,
        action_points_us: &[(1000000, 838), (2000000, 1651)],
        position_us: 3000000,
        lesson: None,
        events: 2558,
        trace_hash: 0xd68da6f13fac13b5,
    },
    Recorded {
        name: "v3 lesson exactly-once",
        fragment: "#/run/v3/HEludm9pY2Ugc2NoZWR1bGVyLCBvbmUgbGVhc2UAAwHAqQeWAawCMgUPAADoBwAEAugHrAJkoAasAugHDAYC6AcAAaC1yQGxDAAF8KX9AQEMZXhhY3RseS1vbmNlAYCS9AGSTC7o",
        settings: r##"title = "Invoice scheduler, one lease"
protocol = "scheduler"
nodes = 3
seed = 1
duration_ms = 120000

[timing]
election_timeout_ms = [150, 300]
heartbeat_ms = 50
network_delay_ms = [5, 15]
drop_rate = 0.0
duplicate_rate = 0.0
client_timeout_ms = 1000
pre_vote = false
check_quorum = false
lease_reads = false

[locks]
workers = 2
lease_ttl_ms = 1000
renew_ms = 300
check_lease_before_write = true
idempotency_key = true
think_ms = 100
work_ms = 800
op_timeout_ms = 300
initial_count = 1000

[scheduler]
mode = "leader-election"
minute_ms = 1000
"##,
        steps: r##""##,
        actions: r##"
[[step]]
at_ms = 3300
do = "crash"
target = "B"
"##,
        action_points_us: &[(3300000, 1585)],
        position_us: 4150000,
        lesson: Some(("exactly-once", 1, 4000000)),
        events: 1975,
        trace_hash: 0x0cfe9d01609e690d,
    },
    Recorded {
        name: "v3 lesson fencing-tokens",
        fragment: "#/run/v3/I0ZlbmNpbmcsIGJlZm9yZSBhbnl0aGluZyBnb2VzIHdyb25nAAMBwKkHlgGsAjIFDwAA6AcAAQLoB6wCZJADrALoBwwHAAGgrE-XBQIEAJjCjgEBDmZlbmNpbmctdG9rZW5zAaiuhQEBjJ0Q",
        settings: r##"title = "Fencing, before anything goes wrong"
protocol = "lock-service"
nodes = 3
seed = 1
duration_ms = 120000

[timing]
election_timeout_ms = [150, 300]
heartbeat_ms = 50
network_delay_ms = [5, 15]
drop_rate = 0.0
duplicate_rate = 0.0
client_timeout_ms = 1000
pre_vote = false
check_quorum = false
lease_reads = false

[locks]
workers = 2
lease_ttl_ms = 1000
renew_ms = 300
fencing = true
check_lease_before_write = true
idempotency_key = true
think_ms = 100
work_ms = 400
op_timeout_ms = 300
initial_count = 1000
"##,
        steps: r##""##,
        actions: r##"
[[step]]
at_ms = 1300
do = "pause"
target = "A"
"##,
        action_points_us: &[(1300000, 663)],
        position_us: 2335000,
        lesson: Some(("fencing-tokens", 1, 2185000)),
        events: 1149,
        trace_hash: 0x21bfef8ca69ab3d9,
    },
];

#[test]
fn recorded_links_open_exactly_as_before() {
    for recorded in RECORDED {
        let name = recorded.name;
        let run =
            decode_fragment(recorded.fragment).unwrap_or_else(|error| panic!("{name}: {error}"));
        assert_eq!(run.scenario, recorded.scenario(), "{name}");
        assert_eq!(run.actions, recorded.actions(), "{name}");
        assert_eq!(run.position, SimTime(recorded.position_us), "{name}");
        let lesson = recorded.lesson.map(|(id, step, began_us)| SharedLesson {
            id: id.into(),
            step,
            step_began: SimTime(began_us),
        });
        assert_eq!(run.lesson, lesson, "{name}");
        // Pinned before the compact fingerprint: the print of the same run under the JSON one.
        let json_fnv = quorumlab_sim::replay::replay_with_fingerprint(
            &run.scenario,
            &run.actions,
            run.position,
            quorumlab_sim::replay::MAX_REPLAY_EVENTS,
            quorumlab_sim::fingerprint::FingerprintKind::JsonFnv,
        )
        .unwrap_or_else(|error| panic!("{name}: {error}"));
        assert_eq!(json_fnv.world.trace_hash(), recorded.trace_hash, "{name}");
        let opened = open(run).unwrap_or_else(|error| panic!("{name}: {error}"));
        assert_eq!(opened.now(), SimTime(recorded.position_us), "{name}");
        assert_eq!(opened.world().events_processed(), recorded.events, "{name}");
        assert_eq!(json_fnv.world.events_processed(), recorded.events, "{name}");
    }
}

/// The recorded set covers every version and every protocol a link could name.
#[test]
fn recorded_links_cover_every_version_and_protocol() {
    let mut versions = Vec::new();
    let mut protocols = Vec::new();
    for recorded in RECORDED {
        let version = &recorded.fragment[LINK_PREFIX.len()..LINK_PREFIX.len() + 2];
        if !versions.contains(&version) {
            versions.push(version);
        }
        let run = decode_fragment(recorded.fragment).unwrap();
        let protocol = run.scenario.protocol_name();
        if !protocols.contains(&protocol) {
            protocols.push(protocol);
        }
    }
    versions.sort_unstable();
    assert_eq!(versions, ["v1", "v2", "v3"]);
    // Worlds added after v3 links were last written have none; v4 bodies cover them
    // (`v4_bodies::every_protocol_survives_a_v4_link`).
    const NEWER_THAN_V3: &[&str] = &["paxos", "pbft", "two-phase-commit"];
    for protocol in quorumlab_sim::registry::names() {
        if NEWER_THAN_V3.contains(&protocol) {
            assert!(
                !protocols.contains(&protocol),
                "{protocol} has a recorded link now"
            );
            continue;
        }
        assert!(protocols.contains(&protocol), "no recorded {protocol} link");
    }
}
