//! The selectively silent Byzantine mode (`mode = "selective"`): a node that runs its protocol but sends
//! nothing to the upper half of its peers by number. A PBFT primary in this mode strands too many backups
//! to order anything and is voted out while the honest replicas agree; a Raft leader in it keeps its lower
//! followers content while the others hear nothing, and what follows depends on pre-vote. The mode
//! travels in scenario steps and trace files like every other.

use quorumlab_sim::action::{Action, ByzantineMode, NodeTarget, RequestKind, SelectiveSilence};
use quorumlab_sim::actor::Fact;
use quorumlab_sim::checker::HONEST_AGREEMENT;
use quorumlab_sim::config::WorldConfig;
use quorumlab_sim::history::RecordedAction;
use quorumlab_sim::ids::NodeId;
use quorumlab_sim::narration::Narrator;
use quorumlab_sim::protocol::{Protocol, RaftFact};
use quorumlab_sim::runner::ScenarioRun;
use quorumlab_sim::scenario::{parse_scenario, to_toml_string};
use quorumlab_sim::time::SimTime;
use quorumlab_sim::trace::{TraceEvent, TraceRecord};
use quorumlab_sim::trace_file::{parse_trace_file, replay, write_trace_file};
use quorumlab_sim::world::{ActionOutcome, World};

const ACTION_MS: u64 = 1_000;

#[test]
fn the_rule_ignores_the_upper_half_of_the_peers_rounded_up() {
    let split = |node: u16, servers: usize| {
        let split = SelectiveSilence::of(NodeId(node), servers);
        let numbers = |nodes: &[NodeId]| nodes.iter().map(|node| node.0 + 1).collect::<Vec<_>>();
        (numbers(&split.heard), numbers(&split.ignored))
    };
    assert_eq!(split(0, 5), (vec![2, 3], vec![4, 5]));
    assert_eq!(split(4, 5), (vec![1, 2], vec![3, 4]));
    assert_eq!(split(0, 4), (vec![2], vec![3, 4]));
    assert_eq!(split(2, 7), (vec![1, 2, 4], vec![5, 6, 7]));
    assert_eq!(split(1, 3), (vec![1], vec![3]));
    assert_eq!(split(0, 1), (vec![], vec![]));
    // Clients (numbered after the servers) and the node itself are never ignored.
    assert!(!SelectiveSilence::ignores(NodeId(0), NodeId(4), 4));
    assert!(!SelectiveSilence::ignores(NodeId(3), NodeId(3), 4));
    assert_eq!(
        ByzantineMode::from_name("selective"),
        Some(ByzantineMode::Selective)
    );
    assert_eq!(ByzantineMode::NAMES.last(), Some(&"selective"));
}

/// A PBFT run of `replicas` replicas and one client, the primary n1 selectively silent from 1 s.
fn pbft_run(replicas: usize, seed: u64) -> ScenarioRun {
    let text = format!(
        "title = \"selective primary\"\nprotocol = \"pbft\"\nnodes = {replicas}\nseed = {seed}\n\
         duration_ms = 4000\n[locks]\nworkers = 1\n\
         [[step]]\nat_ms = {ACTION_MS}\ndo = \"byzantine\"\ntarget = \"n1\"\nmode = \"selective\"\n"
    );
    let scenario = parse_scenario(&text, "selective.toml").expect("the scenario parses");
    let mut run = ScenarioRun::new(scenario).expect("the scenario runs");
    run.run_to_end();
    run
}

fn records_after(world: &World, from_ms: u64) -> impl Iterator<Item = &TraceRecord> {
    let from_us = from_ms * 1_000;
    world
        .trace()
        .records()
        .filter(move |record| record.at_us >= from_us)
}

/// Who `sender` sent a message labelled `label` to, in trace order, from `from_ms` until `until_us`.
fn sent_to(
    world: &World,
    (from_ms, until_us): (u64, u64),
    sender: NodeId,
    label: &str,
) -> Vec<NodeId> {
    records_after(world, from_ms)
        .take_while(|record| record.at_us < until_us)
        .filter_map(|record| match &record.event {
            TraceEvent::Send {
                from,
                to,
                label: sent,
                ..
            } if *from == sender && *sent == label => Some(*to),
            _ => None,
        })
        .collect()
}

/// Every node `from` sent anything to, from `from_ms` on.
fn anyone_sent_to(world: &World, from_ms: u64, sender: NodeId) -> Vec<NodeId> {
    let mut told: Vec<NodeId> = records_after(world, from_ms)
        .filter_map(|record| match &record.event {
            TraceEvent::Send { from, to, .. } if *from == sender => Some(*to),
            _ => None,
        })
        .collect();
    told.sort();
    told.dedup();
    told
}

#[test]
fn a_selectively_silent_pbft_primary_is_voted_out_and_the_honest_replicas_agree() {
    for (replicas, seed) in [(4, 3), (4, 7), (4, 11), (7, 3), (7, 5)] {
        let run = pbft_run(replicas, seed);
        let world = run.world();
        let primary = NodeId(0);
        let split = SelectiveSilence::of(primary, replicas);
        let context = format!("{replicas} replicas, seed {seed}");
        // The backups it ignores never see its pre-prepares, nor anything else from it.
        let pre_prepared = sent_to(world, (ACTION_MS, u64::MAX), primary, "PrePrepare");
        assert!(!pre_prepared.is_empty(), "{context}: it still orders");
        assert!(
            pre_prepared.iter().all(|to| split.heard.contains(to)),
            "{context}: {pre_prepared:?}"
        );
        let told = anyone_sent_to(world, ACTION_MS, primary);
        assert!(
            split.ignored.iter().all(|ignored| !told.contains(ignored)),
            "{context}: told {told:?}"
        );
        // Too few replicas hold its pre-prepares for a quorum: the others vote it out.
        let views: Vec<u64> = world
            .nodes()
            .iter()
            .filter_map(|slot| slot.actor.as_replica())
            .map(|replica| replica.view)
            .collect();
        assert!(
            views[1..].iter().all(|view| *view >= 1),
            "{context}: {views:?}"
        );
        let client = world.nodes()[replicas]
            .actor
            .as_pbft_client()
            .expect("client A");
        assert!(
            client.accepted >= 8,
            "{context}: A took {}",
            client.accepted
        );
        let counts = world.report().violation_counts;
        assert_eq!(counts.get(HONEST_AGREEMENT), None, "{context}: {counts:?}");
    }
}

#[test]
fn the_narration_names_whom_the_primary_ignores() {
    let run = pbft_run(4, 7);
    let mut narrator = Narrator::for_world(run.world());
    narrator.catch_up(run.world().trace());
    let texts: Vec<&str> = narrator.lines().map(|line| line.text.as_str()).collect();
    let expected =
        "n1 goes selectively silent: it sends nothing to n3 and n4, and keeps talking to n2";
    assert!(texts.contains(&expected), "{texts:#?}");
    let seven = pbft_run(7, 3);
    let mut narrator = Narrator::for_world(seven.world());
    narrator.catch_up(seven.world().trace());
    let expected =
        "n1 goes selectively silent: it sends nothing to n5, n6 and n7, and keeps talking \
                    to n2, n3 and n4";
    assert!(narrator.lines().any(|line| line.text == expected));
}

/// Five Raft servers elect a leader, which goes selectively silent at 1 s; a write every 200 ms.
fn raft_run(seed: u64, pre_vote: bool) -> (World, NodeId) {
    let mut config = WorldConfig::raft(5, seed);
    config.raft.pre_vote = pre_vote;
    let mut world = World::new(config).expect("five servers");
    world.run_until(SimTime::from_ms(ACTION_MS));
    let leader = world.current_leader().expect("a leader after a second");
    let action = Action::Byzantine {
        target: NodeTarget::Node(leader),
        mode: ByzantineMode::Selective,
    };
    assert_eq!(world.apply(&action), ActionOutcome::Applied);
    for step in 1..=10 {
        world.run_until(SimTime::from_ms(ACTION_MS + step * 200));
        world.apply(&Action::Request {
            count: 1,
            target: NodeTarget::Leader,
            kind: RequestKind::Put,
        });
    }
    world.run_until(SimTime::from_ms(4_000));
    (world, leader)
}

/// Where and when the first node became a candidate after the action.
fn first_candidate(world: &World) -> Option<(NodeId, u64)> {
    records_after(world, ACTION_MS).find_map(|record| match &record.event {
        TraceEvent::Observe {
            node,
            fact: Fact::Raft(RaftFact::BecameCandidate { .. }),
        } => Some((*node, record.at_us)),
        _ => None,
    })
}

/// The first observation of `wanted` after the action: on which node, and when.
fn first_after_action(world: &World, wanted: impl Fn(&RaftFact) -> bool) -> Option<(NodeId, u64)> {
    records_after(world, ACTION_MS).find_map(|record| match &record.event {
        TraceEvent::Observe {
            node,
            fact: Fact::Raft(fact),
        } if wanted(fact) => Some((*node, record.at_us)),
        _ => None,
    })
}

/// Without pre-vote: the followers it ignores hear no heartbeat, one of them is the first to call an
/// election, and its higher term unseats the leader (plain Raft gives the others no reason to refuse
/// it). Who wins depends on the writes: an ignored follower when its log is as long as the rest, a
/// follower the leader kept talking to when the ignored ones missed a committed write (seeds 1 and 3).
/// Nobody breaks safety: the leader only withholds.
#[test]
fn a_selectively_silent_raft_leader_is_unseated_by_the_followers_it_ignores() {
    let mut winners_ignored = Vec::new();
    for seed in 1..=5 {
        let (world, leader) = raft_run(seed, false);
        let split = SelectiveSilence::of(leader, 5);
        let (candidate, at_us) = first_candidate(&world).expect("an election");
        assert!(
            split.ignored.contains(&candidate),
            "seed {seed}: {candidate}"
        );
        // Until then the followers it talks to hear its heartbeats (and the others nothing, below).
        let heartbeats = sent_to(&world, (ACTION_MS, at_us), leader, "Heartbeat");
        for follower in &split.heard {
            assert!(heartbeats.contains(follower), "seed {seed}: {follower}");
        }
        let told = anyone_sent_to(&world, ACTION_MS, leader);
        assert!(
            split.ignored.iter().all(|ignored| !told.contains(ignored)),
            "seed {seed}: told {told:?}"
        );
        let stepped_down = first_after_action(&world, |fact| {
            matches!(fact, RaftFact::BecameFollower { .. })
        });
        assert!(
            stepped_down.is_some_and(|(node, _)| node == leader),
            "seed {seed}"
        );
        let is_leader = |fact: &RaftFact| matches!(fact, RaftFact::BecameLeader { .. });
        let (winner, _) = first_after_action(&world, is_leader).expect("a new leader");
        assert_ne!(winner, leader, "seed {seed}");
        winners_ignored.push(split.ignored.contains(&winner));
        assert!(world.report().violation_counts.is_empty(), "seed {seed}");
    }
    assert_eq!(winners_ignored, [false, true, false, true, true]);
}

/// With pre-vote: the followers it talks to still hear a live leader and refuse the others, so the
/// leader keeps leading on a bare majority while the ignored followers fall behind for good.
#[test]
fn with_pre_vote_a_selectively_silent_raft_leader_keeps_a_bare_majority() {
    for seed in 1..=5 {
        let (world, leader) = raft_run(seed, true);
        let split = SelectiveSilence::of(leader, 5);
        assert_eq!(world.current_leader(), Some(leader), "seed {seed}");
        let summary = |node: NodeId| world.nodes()[node.index()].actor.summary();
        assert_eq!(summary(leader).term.0, 1, "seed {seed}: no election won");
        assert!(first_candidate(&world).is_none(), "seed {seed}");
        let leader_log = summary(leader).log_len;
        assert!(leader_log >= 11, "seed {seed}: ten writes went in");
        for follower in &split.heard {
            assert_eq!(summary(*follower).log_len, leader_log, "seed {seed}");
        }
        for follower in &split.ignored {
            assert!(summary(*follower).log_len < leader_log, "seed {seed}");
        }
        assert!(world.report().violation_counts.is_empty(), "seed {seed}");
    }
}

#[test]
fn the_mode_travels_in_scenario_files_and_trace_files() {
    let text = "title = \"t\"\nprotocol = \"raft\"\nnodes = 5\nseed = 2\nduration_ms = 3000\n\
                [[step]]\nat_ms = 900\ndo = \"byzantine\"\ntarget = \"leader\"\nmode = \"selective\"\n";
    let scenario = parse_scenario(text, "selective.toml").expect("parses");
    let step = &scenario.steps[0].action;
    assert_eq!(
        *step,
        Action::Byzantine {
            target: NodeTarget::Leader,
            mode: ByzantineMode::Selective
        }
    );
    let written = to_toml_string(&scenario);
    assert!(written.contains("mode = \"selective\""), "{written}");
    assert_eq!(parse_scenario(&written, "again.toml").unwrap(), scenario);

    let mut world = World::new(quorumlab_sim::runner::world_config(&scenario)).expect("world");
    world.run_until(SimTime::from_ms(900));
    let actions = vec![RecordedAction {
        at: world.now(),
        after_events: world.events_processed(),
        action: step.clone(),
    }];
    assert_eq!(world.apply(step), ActionOutcome::Applied);
    world.run_until(SimTime::from_ms(2_500));
    let file_text = write_trace_file(&scenario, &actions, &world);
    assert!(file_text.contains("\"mode\":\"selective\""), "{file_text}");
    let file = parse_trace_file(&file_text).expect("reads back");
    let replayed = replay(&file).expect("replays");
    assert_eq!(replayed.trace_hash(), world.trace_hash());
}
