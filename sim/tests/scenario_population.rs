//! A world's own word for its lettered actors: `[paxos] proposers`, `[pbft] clients`, `[scheduler]
//! instances`, `[zookeeper] candidates`. Each is the number every lock world keeps as `[locks] workers`
//! (still accepted, and still what export writes, so every older file and link opens as before); a file
//! that writes both must give one number.

use quorumlab_sim::registry::{self, ServerQuorum, ENTRIES};
use quorumlab_sim::scenario::{parse_scenario, to_toml_string, ScenarioError};

/// A scenario of `protocol` with `tables` (TOML text) after its header: five servers, or the one a
/// single-server world (two-phase commit's coordinator) has.
fn text(protocol: &str, tables: &str) -> String {
    let single = registry::by_name(protocol).is_some_and(|entry| {
        matches!(
            entry.capabilities.server_quorum,
            ServerQuorum::Single { .. }
        )
    });
    let nodes = if single { 1 } else { 5 };
    format!("protocol = \"{protocol}\"\nnodes = {nodes}\nduration_ms = 3000\n{tables}")
}

fn workers_of(text: &str) -> usize {
    let scenario = parse_scenario(text, "population.toml").expect("the file parses");
    scenario
        .protocol
        .lock_options()
        .expect("a lock world")
        .workers
}

fn error_of(text: &str) -> ScenarioError {
    match parse_scenario(text, "population.toml") {
        Ok(scenario) => panic!("expected an error, parsed {scenario:?}"),
        Err(error) => error,
    }
}

/// (world name, table name, the world's word) for every world that has one.
fn worlds_with_a_word() -> Vec<(&'static str, &'static str, &'static str)> {
    ENTRIES
        .iter()
        .flat_map(|entry| {
            entry
                .tables
                .iter()
                .filter_map(move |table| Some((entry.name, table.name, table.population?)))
        })
        .collect()
}

#[test]
fn each_world_word_sets_the_same_number_as_locks_workers() {
    let worlds = worlds_with_a_word();
    let words: Vec<&str> = worlds.iter().map(|(_, _, word)| *word).collect();
    assert_eq!(
        words,
        [
            "instances",
            "candidates",
            "proposers",
            "clients",
            "participants"
        ]
    );
    for (world, table, word) in worlds {
        let own = text(world, &format!("[{table}]\n{word} = 3\n"));
        let shared = text(world, "[locks]\nworkers = 3\n");
        assert_eq!(workers_of(&own), 3, "{world}: {word}");
        let own_scenario = parse_scenario(&own, "own.toml").unwrap();
        let shared_scenario = parse_scenario(&shared, "shared.toml").unwrap();
        assert_eq!(own_scenario.protocol, shared_scenario.protocol, "{world}");
        // Export keeps writing `[locks] workers`, which reads back to the same world.
        let exported = to_toml_string(&own_scenario);
        assert!(exported.contains("workers = 3"), "{world}: {exported}");
        assert_eq!(
            parse_scenario(&exported, "exported.toml").unwrap().protocol,
            own_scenario.protocol
        );
    }
}

#[test]
fn both_spellings_may_be_written_when_they_agree() {
    let both = text("paxos", "[locks]\nworkers = 4\n[paxos]\nproposers = 4\n");
    assert_eq!(workers_of(&both), 4);
}

#[test]
fn both_spellings_disagreeing_is_an_error_at_the_world_word() {
    let both = text("pbft", "[locks]\nworkers = 2\n[pbft]\nclients = 3\n");
    let error = error_of(&both);
    assert_eq!((error.line, error.column), (7, 11), "{error}");
    assert_eq!(error.key.as_deref(), Some("pbft.clients"), "{error}");
    let words = error.to_string();
    assert!(
        words.contains("`clients = 3` and `[locks] workers = 2` disagree"),
        "{words}"
    );
}

#[test]
fn a_world_word_is_held_to_the_limits_of_workers_and_to_its_own_world() {
    let none = error_of(&text("paxos", "[paxos]\nproposers = 0\n"));
    assert!(none.to_string().contains("proposers"), "{none}");
    // Another world's word is an unknown key in this world's table.
    let borrowed = error_of(&text("paxos", "[paxos]\nclients = 2\n"));
    assert_eq!(borrowed.key.as_deref(), Some("paxos.clients"), "{borrowed}");
    // The work queue and the lock service have no word of their own: their actors are workers.
    assert!(worlds_with_a_word()
        .iter()
        .all(|(world, _, _)| *world != "work-queue" && *world != "lock-service"));
}
