//! `Scenario::validate`, the format's one rule set: every example and lesson scenario keeps it, and
//! scenarios built in code that no file could express are refused with the field named — by the
//! validator, by a run, and by the parser's last word alike.

use quorumlab_sim::action::{Action, NodeTarget};
use quorumlab_sim::config::{LockServiceOptions, ProtocolConfig};
use quorumlab_sim::ids::NodeId;
use quorumlab_sim::runner::ScenarioRun;
use quorumlab_sim::scenario::{parse_scenario, Invalid, Scenario, Step, EXAMPLES};

#[test]
fn every_example_scenario_is_valid() {
    for (name, text) in EXAMPLES {
        let scenario = parse_scenario(text, name).unwrap();
        assert_eq!(scenario.validate(), Ok(()), "{name}");
    }
}

fn redis(servers: usize) -> Scenario {
    let mut scenario = Scenario::new("redis", servers, 1_000);
    scenario.protocol = ProtocolConfig::RedisLock(LockServiceOptions {
        fencing: false,
        ..LockServiceOptions::default()
    });
    scenario
}

#[test]
fn a_redis_lock_with_three_servers_is_refused_everywhere() {
    assert_eq!(redis(1).validate(), Ok(()));
    let expected = Invalid::OutOfRange {
        field: "nodes".into(),
        value: "3".into(),
        expected: "1 (a single Redis server)".into(),
    };
    assert_eq!(redis(3).validate(), Err(expected.clone()));
    let Err(refused) = ScenarioRun::new(redis(3)) else {
        panic!("the run refuses it");
    };
    assert_eq!(refused, expected.to_string());
}

#[test]
fn settings_a_file_cannot_hold_are_refused_with_the_field_named() {
    let mut workers = redis(1);
    if let Some(options) = workers.protocol.lock_options_mut() {
        options.workers = 30;
    }
    let error = workers.validate().unwrap_err().to_string();
    assert_eq!(error, "locks.workers is 30; expected 1..=26");
    let mut fencing = redis(1);
    if let Some(options) = fencing.protocol.lock_options_mut() {
        options.fencing = true;
    }
    let error = fencing.validate().unwrap_err().to_string();
    assert!(error.starts_with("locks.fencing is true"), "{error}");
}

#[test]
fn steps_out_of_order_or_aimed_past_the_cluster_are_refused() {
    let mut scenario = Scenario::new("steps", 3, 1_000);
    let crash = |node| Action::Crash {
        target: NodeTarget::Node(NodeId(node)),
    };
    scenario.steps = vec![
        Step {
            at_ms: 500,
            action: crash(0),
        },
        Step {
            at_ms: 100,
            action: crash(1),
        },
    ];
    let error = scenario.validate().unwrap_err();
    assert!(matches!(error, Invalid::OutOfOrder { .. }), "{error}");
    scenario.steps = vec![Step {
        at_ms: 100,
        action: crash(7),
    }];
    let error = scenario.validate().unwrap_err().to_string();
    assert_eq!(
        error,
        "step 1 target: node n8 does not exist (this cluster has n1..n3)"
    );
}
