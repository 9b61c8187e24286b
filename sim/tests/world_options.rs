//! Each world's scenario options, read through its registry entry: the words a learner meets when a
//! file gets a world's table or a `[locks]` key wrong stay the ones the central tables used to write.

use quorumlab_sim::scenario::{parse_scenario, ScenarioErrorKind};

const HEAD: &str = "nodes = 3\nduration_ms = 100\n";

fn error_of(protocol: &str, rest: &str) -> (Option<String>, String) {
    let text = format!("protocol = \"{protocol}\"\n{HEAD}{rest}");
    let error = parse_scenario(&text, "t.toml").unwrap_err();
    (error.key, error.kind.to_string())
}

#[test]
fn a_choice_outside_its_names_says_what_the_folder_expects() {
    let (key, words) = error_of("zookeeper", "[zookeeper]\nrecipe = \"flock\"\n");
    assert_eq!(key.as_deref(), Some("zookeeper.recipe"));
    assert!(words.contains("`herd` or `sequential`"), "{words}");
    let (key, words) = error_of("scheduler", "[scheduler]\nmode = \"cron\"\n");
    assert_eq!(key.as_deref(), Some("scheduler.mode"));
    assert!(
        words.contains("one of `none`, `lock-every-run`, `leader-election`, `leader-fencing`"),
        "{words}"
    );
}

#[test]
fn a_number_outside_the_folders_limits_is_out_of_range() {
    let (key, _) = error_of("work-queue", "[queue]\naccounts = 10001\n");
    assert_eq!(key.as_deref(), Some("queue.accounts"));
    let (key, _) = error_of("scheduler", "[scheduler]\nminute_ms = 0\n");
    assert_eq!(key.as_deref(), Some("scheduler.minute_ms"));
}

#[test]
fn another_worlds_table_or_lock_key_names_the_world_that_takes_it() {
    let needs = |protocol: &str, rest: &str| {
        let text = format!("protocol = \"{protocol}\"\n{HEAD}{rest}");
        match parse_scenario(&text, "t.toml").unwrap_err().kind {
            ScenarioErrorKind::NeedsProtocol { protocol } => protocol,
            other => panic!("{other:?}"),
        }
    };
    assert_eq!(
        needs("lock-service", "[queue]\naccounts = 3\n"),
        "work-queue"
    );
    assert_eq!(
        needs("raft", "[zookeeper]\nrecipe = \"herd\"\n"),
        "zookeeper"
    );
    assert_eq!(needs("raft", "[locks]\nworkers = 2\n"), "lock-service");
    assert_eq!(
        needs("redlock", "[locks]\nfencing = true\n"),
        "lock-service"
    );
    assert_eq!(
        needs("redlock", "[locks]\nrenew_ms = 100\n"),
        "lock-service"
    );
    assert_eq!(
        needs("lock-service", "[locks]\nunchecked_release = true\n"),
        "redis-lock"
    );
    assert_eq!(
        needs("scheduler", "[locks]\ndrift_allowance_ms = 5\n"),
        "redlock"
    );
}
