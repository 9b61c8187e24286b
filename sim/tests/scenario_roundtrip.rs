//! Property: any valid scenario, written out with `to_toml_string` and parsed back, is the same scenario.

use proptest::prelude::*;
use quorumlab_sim::action::{Action, NodeTarget, RequestKind, PPM_ONE};
use quorumlab_sim::config::{ProtocolConfig, RaftOptions, Timing};
use quorumlab_sim::ids::{NodeId, MAX_NODES};
use quorumlab_sim::link_settings::{LinkSettings, MAX_HOLD_MS, MAX_LINK_DELAY_MS};
use quorumlab_sim::scenario::*;

fn ordered_pair(low: u64, high: u64) -> impl Strategy<Value = (u64, u64)> {
    (low..=high, low..=high).prop_map(|(first, second)| (first.min(second), first.max(second)))
}

fn timing() -> impl Strategy<Value = Timing> {
    (
        ordered_pair(1, MAX_TIMING_MS),
        1..=MAX_TIMING_MS,
        ordered_pair(0, MAX_TIMING_MS),
        0..=PPM_ONE,
        0..=PPM_ONE,
        1..=MAX_TIMING_MS,
        (
            ordered_pair(0, quorumlab_sim::config::MAX_PERSIST_MS),
            0..=quorumlab_sim::config::MAX_TIMER_JITTER_US,
        ),
    )
        .prop_map(
            |(
                election,
                heartbeat_ms,
                delay,
                drop_ppm,
                duplicate_ppm,
                client_timeout_ms,
                (persist, timer_jitter_us),
            )| {
                Timing {
                    election_timeout_ms: election,
                    heartbeat_ms,
                    network_delay_ms: delay,
                    drop_ppm,
                    duplicate_ppm,
                    client_timeout_ms,
                    persist_ms: persist,
                    timer_jitter_us,
                }
            },
        )
}

fn raft_options() -> impl Strategy<Value = RaftOptions> {
    any::<(bool, bool, u8)>().prop_map(|(pre_vote, check_quorum, path)| RaftOptions {
        pre_vote,
        check_quorum,
        read_path: quorumlab_sim::config::ReadPath::ALL[usize::from(path) % 4],
        ..RaftOptions::default()
    })
}

fn node(node_count: usize) -> impl Strategy<Value = NodeId> {
    (0..node_count as u16).prop_map(NodeId)
}

fn target(node_count: usize) -> impl Strategy<Value = NodeTarget> {
    prop_oneof![
        Just(NodeTarget::Leader),
        node(node_count).prop_map(NodeTarget::Node)
    ]
}

/// Disjoint, non-empty groups: a shuffled prefix of the nodes cut into pieces.
fn groups(node_count: usize) -> impl Strategy<Value = Vec<Vec<NodeId>>> {
    let nodes: Vec<NodeId> = (0..node_count as u16).map(NodeId).collect();
    (
        Just(nodes).prop_shuffle(),
        1..=node_count,
        proptest::collection::vec(1..=node_count, 0..3),
    )
        .prop_map(|(nodes, used, mut cuts)| {
            cuts.retain(|cut| *cut < used);
            cuts.sort_unstable();
            cuts.dedup();
            let mut groups = Vec::new();
            let mut start = 0;
            for cut in cuts.into_iter().chain([used]) {
                groups.push(nodes[start..cut].to_vec());
                start = cut;
            }
            groups
        })
}

fn cut(node_count: usize) -> impl Strategy<Value = Action> {
    (target(node_count), target(node_count), any::<bool>())
        .prop_filter("a node cannot be cut from itself", |(from, to, _)| {
            !matches!((from, to), (NodeTarget::Node(a), NodeTarget::Node(b)) if a == b)
        })
        .prop_map(|(from, to, both)| Action::Cut { from, to, both })
}

/// Two different nodes, or `None` in a one-node cluster (which has no links).
fn link_pair(node_count: usize) -> impl Strategy<Value = Option<(NodeId, NodeId)>> {
    (0..node_count as u16, 1..node_count.max(2) as u16).prop_map(move |(one, step)| {
        let other = (one + step) % node_count as u16;
        (node_count >= 2).then_some((NodeId(one), NodeId(other)))
    })
}

/// The steps that change the network: link settings, clearing, regions, a hand on a message.
fn network_action(node_count: usize) -> impl Strategy<Value = Action> {
    let settings = (
        proptest::option::of(ordered_pair(0, MAX_LINK_DELAY_MS)),
        proptest::option::of(0..=PPM_ONE),
        proptest::option::of(0..=PPM_ONE),
    )
        .prop_map(|(delay_ms, drop_ppm, duplicate_ppm)| LinkSettings {
            delay_ms: delay_ms
                .or(Some((0, 0)))
                .filter(|_| delay_ms.is_some() || (drop_ppm.is_none() && duplicate_ppm.is_none())),
            drop_ppm,
            duplicate_ppm,
        });
    (
        link_pair(node_count),
        settings,
        0..5u8,
        1..=u64::MAX,
        1..=MAX_HOLD_MS,
        1..node_count.max(2),
    )
        .prop_map(move |(pair, settings, kind, message, by_ms, split)| {
            let Some((one, other)) = pair else {
                return Action::ClearLink { between: None };
            };
            match kind {
                0 => Action::SetLink {
                    between: (one, other),
                    settings,
                },
                1 => Action::ClearLink {
                    between: Some((one, other)).filter(|_| message % 2 == 0),
                },
                2 => Action::Regions {
                    groups: vec![
                        (0..split).map(|index| NodeId(index as u16)).collect(),
                        (split..node_count)
                            .map(|index| NodeId(index as u16))
                            .collect(),
                    ],
                },
                3 => Action::DropMessage {
                    message,
                    from: one,
                    to: other,
                },
                _ => Action::HoldMessage {
                    message,
                    from: one,
                    to: other,
                    by_ms,
                },
            }
        })
}

fn action(node_count: usize) -> impl Strategy<Value = Action> {
    let kind = prop_oneof![Just(RequestKind::Put), Just(RequestKind::Get)];
    prop_oneof![
        target(node_count).prop_map(|target| Action::Crash { target }),
        target(node_count).prop_map(|target| Action::Restart { target }),
        (
            target(node_count),
            proptest::option::of(1..=MAX_DURATION_MS)
        )
            .prop_map(|(target, duration_ms)| Action::Pause {
                target,
                duration_ms
            }),
        target(node_count).prop_map(|target| Action::Resume { target }),
        groups(node_count).prop_map(|groups| Action::Partition { groups }),
        target(node_count).prop_map(|target| Action::Isolate { target }),
        cut(node_count),
        Just(Action::Heal),
        (0..=PPM_ONE).prop_map(|ppm| Action::DropRate { ppm }),
        (target(node_count), -MAX_CLOCK_JUMP_MS..=MAX_CLOCK_JUMP_MS)
            .prop_map(|(target, by_ms)| Action::ClockJump { target, by_ms }),
        (
            target(node_count),
            MIN_CLOCK_DRIFT_PPM..=MAX_CLOCK_DRIFT_PPM
        )
            .prop_map(|(target, ppm)| Action::ClockDrift { target, ppm }),
        (1..=MAX_REQUEST_COUNT, target(node_count), kind).prop_map(|(count, target, kind)| {
            Action::Request {
                count,
                target,
                kind,
            }
        }),
        network_action(node_count),
    ]
}

fn scenario() -> impl Strategy<Value = Scenario> {
    (1..=MAX_NODES, 1..=MAX_DURATION_MS).prop_flat_map(|(node_count, duration_ms)| {
        let steps = proptest::collection::vec((0..=duration_ms, action(node_count)), 0..12)
            .prop_map(|mut steps| {
                steps.sort_by_key(|(at_ms, _)| *at_ms);
                steps
                    .into_iter()
                    .map(|(at_ms, action)| Step { at_ms, action })
                    .collect::<Vec<_>>()
            });
        (
            any::<String>(),
            any::<u64>(),
            timing(),
            raft_options(),
            steps,
        )
            .prop_map(move |(title, seed, timing, raft, steps)| Scenario {
                title,
                protocol: ProtocolConfig::Raft,
                node_count,
                seed,
                duration_ms,
                timing,
                raft,
                steps,
            })
    })
}

proptest! {
    #[test]
    fn export_then_parse_gives_back_the_same_scenario(scenario in scenario()) {
        let text = to_toml_string(&scenario);
        let parsed = parse_scenario(&text, "exported.toml");
        prop_assert_eq!(parsed.as_ref(), Ok(&scenario), "exported text:\n{}", text);
    }
}
