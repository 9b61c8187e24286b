//! The price of agreement in the run report: messages sent, requests committed and messages per
//! committed request, for a PBFT run and a Raft run, counted from the runs themselves. Castro and
//! Liskov's normal case has every backup talk to every other replica twice (prepare, commit), so at
//! n = 4 PBFT must cost more per request than Raft, whose leader alone talks to the followers.

use quorumlab_sim::runner::{run_scenario, ScenarioRun};
use quorumlab_sim::scenario::parse_scenario;
use quorumlab_sim::trace::TraceEvent;

fn example(name: &str) -> ScenarioRun {
    let path = format!("{}/scenarios/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).expect("the example exists");
    let scenario = parse_scenario(&text, name).expect("the example parses");
    ScenarioRun::new(scenario).expect("the example runs")
}

/// A plain Raft cluster of `nodes` servers with one write to the leader every 200 ms from 1 s on.
fn raft_writes(nodes: usize, writes: u64) -> ScenarioRun {
    let mut text = format!(
        "title = \"raft price\"\nprotocol = \"raft\"\nnodes = {nodes}\nseed = 7\nduration_ms = 6000\n"
    );
    for write in 0..writes {
        let at_ms = 1_000 + write * 200;
        text.push_str(&format!(
            "[[step]]\nat_ms = {at_ms}\ndo = \"request\"\ncount = 1\ntarget = \"leader\"\n"
        ));
    }
    let scenario = parse_scenario(&text, "raft-price").expect("the Raft scenario parses");
    ScenarioRun::new(scenario).expect("the Raft scenario runs")
}

fn sends_in_trace(run: &ScenarioRun) -> u64 {
    let records = run.world().trace().records();
    records
        .filter(|record| matches!(record.event, TraceEvent::Send { .. }))
        .count() as u64
}

#[test]
fn a_pbft_report_counts_what_its_replicas_and_clients_sent_for_the_results_taken() {
    let mut run = example("pbft-normal.toml");
    run.run_to_end();
    let report = run.report();
    let price = report.world.price.clone().expect("a PBFT run has a price");
    let pbft = run
        .world()
        .view()
        .coordination
        .and_then(|coordination| coordination.pbft().cloned())
        .expect("a PBFT view");
    assert_eq!(price.protocol, "pbft");
    // Two counts kept apart (the replicas' own and the world's) must agree.
    assert_eq!(price.messages_sent, pbft.messages_sent);
    assert_eq!(price.committed, pbft.results_taken);
    assert!(price.committed > 0, "{price:?}");
    assert_eq!(price.heartbeats, 0, "PBFT sends no heartbeats");
    assert_eq!(
        price.messages_per_commit_tenths,
        Some(price.messages_sent * 10 / price.committed)
    );
    // No network duplication in this example: every send is one trace record.
    assert_eq!(price.messages_sent, sends_in_trace(&run));
}

#[test]
fn at_four_replicas_pbft_costs_more_per_request_than_raft_in_the_report() {
    let report = run_scenario(example("pbft-normal.toml").scenario()).expect("runs");
    let pbft = report.world.price.expect("PBFT's price");
    let raft = report.raft_baseline.expect("a PBFT report carries Raft's");
    assert_eq!(
        (pbft.protocol.as_str(), raft.protocol.as_str()),
        ("pbft", "raft")
    );
    assert!(raft.committed > 0 && raft.heartbeats > 0, "{raft:?}");
    let pbft_tenths = pbft.messages_per_commit_tenths.expect("PBFT committed");
    let raft_tenths = raft.messages_per_commit_tenths.expect("Raft committed");
    assert!(pbft_tenths > raft_tenths, "PBFT {pbft:?} vs Raft {raft:?}");

    // A Raft scenario of the same size, its price from its own report.
    let mut raft_run = raft_writes(4, 20);
    raft_run.run_to_end();
    let own = raft_run.report();
    let raft_price = own.world.price.clone().expect("a Raft run has a price");
    assert_eq!(raft_price.protocol, "raft");
    assert_eq!(raft_price.committed, own.world.requests.committed);
    assert!(
        raft_price.committed > 0 && raft_price.heartbeats > 0,
        "{raft_price:?}"
    );
    assert!(raft_price.heartbeats < raft_price.messages_sent);
    assert_eq!(raft_price.messages_sent, sends_in_trace(&raft_run));
    assert_eq!(own.raft_baseline, None, "only PBFT runs carry a baseline");
    // This run counts its election and idle second too, so its heartbeats can outweigh PBFT's
    // whole cost; what each write itself cost is the fair comparison there.
    let pbft_work = pbft.messages_per_commit_tenths_without_heartbeats;
    let own_work = raft_price.messages_per_commit_tenths_without_heartbeats;
    assert_eq!(pbft_work, Some(pbft_tenths), "PBFT sends no heartbeats");
    assert!(pbft_work > own_work, "PBFT {pbft:?} vs Raft {raft_price:?}");
    assert!(pbft_work > raft.messages_per_commit_tenths_without_heartbeats);
}

#[test]
fn more_raft_writes_make_each_one_cheaper_and_no_write_has_no_figure() {
    // Heartbeats are paid whether or not anyone writes, so the figure falls as writes get denser.
    let mut sparse = raft_writes(4, 3);
    sparse.run_to_end();
    let mut dense = raft_writes(4, 20);
    dense.run_to_end();
    let tenths = |run: &ScenarioRun| {
        let price = run.report().world.price.expect("a Raft price");
        price.messages_per_commit_tenths.expect("committed")
    };
    assert!(tenths(&sparse) > tenths(&dense));
    let mut idle = raft_writes(4, 0);
    idle.run_to_end();
    let price = idle.report().world.price.expect("a Raft price");
    assert!(price.messages_sent > 0 && price.committed == 0);
    assert_eq!(price.messages_per_commit_tenths, None);
}

#[test]
fn worlds_without_committed_requests_carry_no_price_and_the_json_keeps_its_old_keys() {
    let report = run_scenario(example("fencing-pause.toml").scenario()).expect("runs");
    assert_eq!(report.world.price, None);
    assert_eq!(report.raft_baseline, None);
    let json = serde_json::to_value(&report).expect("serializes");
    assert!(json.get("price").is_none() && json.get("raft_baseline").is_none());

    let report = run_scenario(example("pbft-normal.toml").scenario()).expect("runs");
    let json = serde_json::to_value(&report).expect("serializes");
    for key in ["requests", "final", "violations", "trace_hash", "leaders"] {
        assert!(json.get(key).is_some(), "{key} is still reported");
    }
    let price = &json["price"];
    assert_eq!(price["protocol"], "pbft");
    assert!(
        price["messages_per_commit_tenths"].as_u64().is_some(),
        "{price}"
    );
    assert_eq!(json["raft_baseline"]["protocol"], "raft");
}
