//! A worker made to send the store a write it cannot read (`do = "malformed_write"`): the store must
//! refuse it as malformed, not as stale, and leave everything it protects as it was; the step must
//! read, write back and travel in links and trace files like any other; and a target that cannot
//! send one is skipped with the reason.

use quorumlab_sim::action::{Action, MalformedFault, NodeTarget};
use quorumlab_sim::actor::{Actor, Fact};
use quorumlab_sim::ids::NodeId;
use quorumlab_sim::narration::Narrator;
use quorumlab_sim::resource::{AccessOutcome, Malformed, ResourceFact, WriteField};
use quorumlab_sim::runner::ScenarioRun;
use quorumlab_sim::scenario::{parse_scenario, to_toml_string, EXAMPLES};
use quorumlab_sim::time::SimTime;
use quorumlab_sim::trace::TraceEvent;
use quorumlab_sim::{ActionOutcome, World};

const INVENTORY: &str = include_str!("../../lessons/scenarios/inventory-batch.toml");
const FAULTS: [MalformedFault; 3] = [
    MalformedFault::MissingToken,
    MalformedFault::TokenTooLarge,
    MalformedFault::NegativeCount,
];

fn inventory_run(extra_steps: &str) -> ScenarioRun {
    let text = INVENTORY.replace("duration_ms = 120000", "duration_ms = 6000") + extra_steps;
    let scenario = parse_scenario(&text, "inventory.toml").expect("parses");
    ScenarioRun::new(scenario).expect("builds")
}

fn node(world: &World, name: &str) -> NodeId {
    (0..world.node_count())
        .map(|index| NodeId(index as u16))
        .find(|node| world.node_label(*node) == name)
        .unwrap_or_else(|| panic!("no node {name}"))
}

/// Everything the store protects, and every count but the malformed one.
fn protected(world: &World) -> String {
    let store = node(world, "store");
    let Actor::Resource(resource) = &world.nodes()[store.index()].actor else {
        panic!("the store is a resource");
    };
    format!(
        "value {} highest {} accepted {} rejected {} writes {} duplicates {} redos {} accounts {:?}",
        resource.value,
        resource.highest_seen,
        resource.accepted,
        resource.rejected,
        resource.rejected_writes,
        resource.duplicates,
        resource.redos_recognised,
        resource.accounts
    )
}

fn malformed_count(world: &World) -> u64 {
    let store = node(world, "store");
    world.nodes()[store.index()]
        .actor
        .as_resource()
        .map_or(0, |resource| resource.malformed)
}

/// Sends one malformed write of `fault` from `sender` at 1.2 s and steps event by event until the
/// store refuses it. Returns the world, what the store protected just before and just after.
fn refuse_one(fault: MalformedFault, sender: &str) -> (World, String, String) {
    let mut run = inventory_run("");
    run.advance_to(SimTime::from_ms(1_200));
    let mut world = run.world().clone();
    let target = NodeTarget::Node(node(&world, sender));
    assert_eq!(
        world.apply(&Action::MalformedWrite { target, fault }),
        ActionOutcome::Applied
    );
    loop {
        let before = protected(&world);
        assert!(world.step(), "the run ended before the write arrived");
        if malformed_count(&world) == 1 {
            return (world.clone(), before, protected(&world));
        }
        assert!(world.now() < SimTime::from_ms(2_000), "no refusal in time");
    }
}

#[test]
fn each_malformed_write_is_refused_as_malformed_and_changes_nothing_the_store_protects() {
    let wanted = [
        Malformed::Missing(WriteField::Token),
        Malformed::TooLarge(WriteField::Token),
        Malformed::Negative(WriteField::Count),
    ];
    for (fault, malformed) in FAULTS.into_iter().zip(wanted) {
        let (world, before, after) = refuse_one(fault, "A");
        assert_eq!(before, after, "{fault:?}");
        let fact = world
            .trace()
            .records()
            .rev()
            .find_map(|record| match record.event {
                TraceEvent::Observe {
                    fact:
                        Fact::Resource(ResourceFact::ResourceAccess {
                            outcome, client, ..
                        }),
                    ..
                } => Some((outcome, client)),
                _ => None,
            });
        let a = node(&world, "A");
        assert_eq!(
            fact,
            Some((AccessOutcome::Malformed(malformed), a)),
            "{fault:?}"
        );
    }
}

#[test]
fn the_sender_hears_malformed_and_carries_on_with_its_batches() {
    let (mut world, _, _) = refuse_one(MalformedFault::MissingToken, "B");
    let b = node(&world, "B");
    let jobs_before = world.nodes()[b.index()]
        .actor
        .as_worker()
        .unwrap()
        .jobs_done;
    world.run_until(SimTime::from_ms(5_000));
    let replies = world
        .trace()
        .records()
        .filter(|record| {
            matches!(record.event, TraceEvent::Deliver { to, label: "Malformed", .. } if to == b)
        })
        .count();
    assert_eq!(replies, 1, "the store's answer reached B once");
    let worker = world.nodes()[b.index()].actor.as_worker().unwrap();
    assert_eq!(worker.malformed_sent, 1);
    assert!(worker.jobs_done > jobs_before, "B kept working");
    assert_eq!(
        worker.fenced_off, 0,
        "a malformed answer is not a lost lock"
    );
    let report = world.report();
    assert!(report.violations.is_empty(), "{:?}", report.violations);
}

#[test]
fn the_narration_says_the_write_was_refused_as_malformed_and_why() {
    let (world, _, _) = refuse_one(MalformedFault::MissingToken, "A");
    let mut narrator = Narrator::for_world(&world);
    assert!(narrator.catch_up(world.trace()));
    let lines: Vec<String> = narrator.lines().map(|line| line.text.clone()).collect();
    assert!(
        lines.iter().any(|line| line
            .contains("refuses A's write as malformed: it carries no fencing token.")
            && line.contains("changes nothing")),
        "{}",
        lines.join("\n")
    );
}

#[test]
fn a_target_that_cannot_send_one_is_skipped_with_the_reason() {
    let mut run = inventory_run("");
    run.advance_to(SimTime::from_ms(1_200));
    let mut world = run.world().clone();
    let fault = MalformedFault::MissingToken;
    let skipped = |world: &mut World, target: NodeTarget| match world
        .apply(&Action::MalformedWrite { target, fault })
    {
        ActionOutcome::Skipped { reason } => reason,
        ActionOutcome::Applied => panic!("applied to {target:?}"),
    };
    let store = NodeTarget::Node(node(&world, "store"));
    assert!(skipped(&mut world, store).starts_with("store is not a worker"));
    assert!(skipped(&mut world, NodeTarget::Leader).contains("is not a worker"));
    let a = node(&world, "A");
    world.apply(&Action::Pause {
        target: NodeTarget::Node(a),
        duration_ms: None,
    });
    assert_eq!(
        skipped(&mut world, NodeTarget::Node(a)),
        "A is paused, not up: it sends nothing"
    );
    assert_eq!(malformed_count(&world), 0);
}

#[test]
fn a_scheduler_instance_or_a_raft_server_is_no_sender() {
    for (file, target) in [
        ("scheduler-leader-fencing.toml", "B"),
        ("leader-crash.toml", "n1"),
    ] {
        let text = EXAMPLES
            .iter()
            .find(|(name, _)| *name == file)
            .map(|(_, text)| *text)
            .expect("the example exists");
        let mut run = ScenarioRun::new(parse_scenario(text, file).unwrap()).unwrap();
        run.advance_to(SimTime::from_ms(500));
        let mut world = run.world().clone();
        let target = NodeTarget::Node(node(&world, target));
        let outcome = world.apply(&Action::MalformedWrite {
            target,
            fault: MalformedFault::NegativeCount,
        });
        assert!(
            matches!(&outcome, ActionOutcome::Skipped { reason } if reason.contains("is not a worker")),
            "{file}: {outcome:?}"
        );
    }
}

#[test]
fn the_step_reads_writes_back_and_replays_the_same_run() {
    let steps = "\n[[step]]\nat_ms = 1200\ndo = \"malformed_write\"\ntarget = \"A\"\n\
                 \n[[step]]\nat_ms = 1300\ndo = \"malformed_write\"\ntarget = \"B\"\nfault = \"token_too_large\"\n";
    let mut run = inventory_run(steps);
    let scenario = run.scenario().clone();
    let written = to_toml_string(&scenario);
    assert!(written.contains("do = \"malformed_write\"\ntarget = \"A\"\nfault = \"missing_token\""));
    assert_eq!(parse_scenario(&written, "again.toml").unwrap(), scenario);
    run.advance_to(SimTime::from_ms(2_500));
    assert_eq!(malformed_count(run.world()), 2);
    let mut again = inventory_run(steps);
    again.advance_to(SimTime::from_ms(2_500));
    assert_eq!(run.world().trace_hash(), again.world().trace_hash());
}

#[test]
fn a_step_with_a_bad_fault_or_no_target_is_refused_clearly() {
    let bad = |step: &str| {
        let text = format!("{INVENTORY}\n[[step]]\nat_ms = 1200\ndo = \"malformed_write\"\n{step}");
        parse_scenario(&text, "bad.toml").unwrap_err().to_string()
    };
    let error = bad("target = \"A\"\nfault = \"garbled\"\n");
    assert!(
        error.contains("`garbled`")
            && error.contains("`missing_token`, `token_too_large` or `negative_count`"),
        "{error}"
    );
    assert!(error.len() < 300, "{error}");
    let error = bad("fault = \"missing_token\"\n");
    assert!(error.contains("target"), "{error}");
    let error = bad("target = \"A\"\ncount = 3\n");
    assert!(error.contains("count"), "{error}");
}
