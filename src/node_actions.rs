//! Which faults and requests one node offers, decided by the kind of actor it is and the state it is in.
//! The Inspector and the node's popover both draw this one list, so they never offer different things,
//! and both hand the chosen `Action` to `AppState::apply` (the path recording, the timeline and share
//! links watch).

use crate::world_text::byzantine::{mode_button, servers_can_lie, LYING_MODES};
use crate::world_text::client::{client_path, ClientPath};
use crate::world_text::membership::{membership_of, Seat};
use crate::world_text::names::node_name;
use crate::world_text::node_kind::NodeKind;
use quorumlab_sim::action::{Action, ByzantineMode, NodeTarget, RequestKind};
use quorumlab_sim::ids::NodeId;
use quorumlab_sim::view::ClusterView;
use quorumlab_sim::world::NodeStatus;

/// Pause lengths offered in one click; `None` pauses until someone resumes the node.
pub const PAUSE_CHOICES_MS: [Option<u64>; 4] = [Some(200), Some(1_000), Some(5_000), None];
/// Clock jumps offered, backwards first.
pub const CLOCK_JUMPS_MS: [i64; 2] = [-500, 500];
/// Drift rates offered (parts per million): slow, none, fast.
pub const DRIFTS_PPM: [i64; 3] = [-100_000, 0, 100_000];
/// Disk write times offered, ms: slower than a network round trip, and slower than an election
/// timeout (every reply behind a write then waits longer than a candidate does).
pub const SLOW_DISKS_MS: [u64; 2] = [100, 1_000];

/// How a button looks: a plain one, a destructive one, or the one that undoes the fault in place.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Tone {
    Plain,
    Danger,
    Primary,
}

/// The row a choice sits in, with the heading a learner reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ActionGroup {
    Life,
    Pause,
    Network,
    Clock,
    Drift,
    Disk,
    Client,
    Byzantine,
    Membership,
}

impl ActionGroup {
    pub fn heading(self) -> &'static str {
        match self {
            ActionGroup::Life => "process",
            ActionGroup::Pause => "pause",
            ActionGroup::Network => "network",
            ActionGroup::Clock => "clock",
            ActionGroup::Drift => "drift",
            ActionGroup::Disk => "disk",
            ActionGroup::Client => "client",
            ActionGroup::Byzantine => "make Byzantine",
            ActionGroup::Membership => "membership",
        }
    }
}

/// One button: its text, the sentence a screen reader hears (naming the node), and what it does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NodeChoice {
    pub group: ActionGroup,
    pub text: String,
    pub aria_label: String,
    pub tone: Tone,
    pub action: Action,
}

/// What decides the offer: what the node is, whether it is up, and where the world sends writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NodeSituation {
    pub kind: NodeKind,
    pub status: NodeStatus,
    /// Some link to or from the node is cut, so healing would change something.
    pub cut_off: bool,
    pub client_path: ClientPath,
    /// The node is a server of a world whose servers can be made to lie (Raft, PBFT).
    pub can_lie: bool,
    /// How it lies now, if it does.
    pub lying: Option<ByzantineMode>,
    /// Its seat in the configuration, in a plain Raft cluster (where servers can join and leave).
    pub seat: Option<Seat>,
    /// It is the leader the stage shows, which takes membership changes.
    pub leads: bool,
    /// It writes to disk before it answers, so a slow disk is a fault it can have.
    pub disk_matters: bool,
    /// Its disk was given a write time of its own (a slow disk).
    pub disk_slowed: bool,
}

impl NodeSituation {
    /// The node's situation in `view`, or `None` for a node the view does not hold.
    pub fn of(view: &ClusterView, node: NodeId) -> Option<NodeSituation> {
        let shown = view.nodes.get(node.index())?;
        let coordination = view.coordination.as_ref();
        let cut_off = view
            .cut_links
            .iter()
            .any(|cut| cut.from == node || cut.to == node);
        let kind = NodeKind::of_label(&node_name(coordination, node));
        Some(NodeSituation {
            kind,
            status: shown.status,
            cut_off,
            client_path: client_path(coordination),
            can_lie: kind == NodeKind::Server && servers_can_lie(coordination),
            lying: shown.lying,
            seat: membership_of(view).map(|membership| membership.seat(node)),
            leads: view.leader == Some(node),
            disk_matters: shown.disk_matters,
            disk_slowed: shown.disk_slowed,
        })
    }

    /// Raw writes go to servers that are up, and only in a world that has somewhere to put them.
    pub fn takes_writes(self) -> bool {
        self.kind == NodeKind::Server
            && self.client_path != ClientPath::None
            && self.status != NodeStatus::Crashed
    }

    /// The protected resource compares tokens and keeps no timers: its clock changes nothing.
    pub fn has_clock_to_skew(self) -> bool {
        self.kind != NodeKind::Resource
    }
}

fn choice(group: ActionGroup, text: String, aria_label: String, action: Action) -> NodeChoice {
    NodeChoice {
        group,
        text,
        aria_label,
        tone: Tone::Plain,
        action,
    }
}

fn toned(tone: Tone, made: NodeChoice) -> NodeChoice {
    NodeChoice { tone, ..made }
}

/// A pause length as a button reads it.
pub fn pause_text(duration_ms: Option<u64>) -> String {
    match duration_ms {
        None => "until resumed".to_string(),
        Some(ms) if ms >= 1_000 && ms % 1_000 == 0 => format!("{} s", ms / 1_000),
        Some(ms) => format!("{ms} ms"),
    }
}

fn signed_ms(by_ms: i64) -> String {
    // A true minus sign, as the clock badge prints it.
    let sign = if by_ms < 0 { "−" } else { "+" };
    format!("{sign}{} ms", by_ms.unsigned_abs())
}

fn signed_percent(ppm: i64) -> String {
    let sign = if ppm < 0 { "−" } else { "+" };
    format!("{sign}{}%", ppm.unsigned_abs() / 10_000)
}

fn drift_text(ppm: i64) -> String {
    match ppm {
        0 => "No drift".to_string(),
        ppm => format!("Drift {}", signed_percent(ppm)),
    }
}

fn life_choice(target: NodeTarget, name: &str, status: NodeStatus) -> NodeChoice {
    let group = ActionGroup::Life;
    match status {
        NodeStatus::Crashed => toned(
            Tone::Primary,
            choice(
                group,
                "Restart".into(),
                format!("Restart {name}"),
                Action::Restart { target },
            ),
        ),
        _ => toned(
            Tone::Danger,
            choice(
                group,
                "Crash".into(),
                format!("Crash {name}"),
                Action::Crash { target },
            ),
        ),
    }
}

fn pause_choices(target: NodeTarget, name: &str, status: NodeStatus) -> Vec<NodeChoice> {
    let group = ActionGroup::Pause;
    if status == NodeStatus::Paused {
        let resume = choice(
            group,
            "Resume".into(),
            format!("Resume {name}"),
            Action::Resume { target },
        );
        return vec![toned(Tone::Primary, resume)];
    }
    PAUSE_CHOICES_MS
        .iter()
        .map(|&duration_ms| {
            let length = pause_text(duration_ms);
            // Spoken names begin with the button's own words, so voice control can say what it sees.
            let text = format!("Pause {length}");
            let spoken = format!("{text}, {name}");
            choice(
                group,
                text,
                spoken,
                Action::Pause {
                    target,
                    duration_ms,
                },
            )
        })
        .collect()
}

fn network_choice(target: NodeTarget, name: &str, cut_off: bool) -> NodeChoice {
    let group = ActionGroup::Network;
    if cut_off {
        let heal = choice(
            group,
            "Heal all links".into(),
            format!("Heal all links, {name}'s included"),
            Action::Heal,
        );
        return toned(Tone::Primary, heal);
    }
    choice(
        group,
        "Isolate".into(),
        format!("Isolate {name}: cut all its links"),
        Action::Isolate { target },
    )
}

fn clock_choices(target: NodeTarget, name: &str) -> Vec<NodeChoice> {
    let jumps = CLOCK_JUMPS_MS.iter().map(|&by_ms| {
        choice(
            ActionGroup::Clock,
            format!("Clock {}", signed_ms(by_ms)),
            format!("Clock {}, {name}", signed_ms(by_ms)),
            Action::ClockJump { target, by_ms },
        )
    });
    let drifts = DRIFTS_PPM.iter().map(|&ppm| {
        let text = drift_text(ppm);
        let spoken = format!("{text}, {name}");
        choice(
            ActionGroup::Drift,
            text,
            spoken,
            Action::ClockDrift { target, ppm },
        )
    });
    jumps.chain(drifts).collect()
}

/// The Byzantine modes a node can be put in, and "Make honest" once it lies.
fn byzantine_choices(
    target: NodeTarget,
    name: &str,
    lying: Option<ByzantineMode>,
) -> Vec<NodeChoice> {
    let honest = lying.map(|_| ByzantineMode::Honest);
    let modes = honest
        .into_iter()
        .chain(LYING_MODES.into_iter().filter(|mode| Some(*mode) != lying));
    modes
        .map(|mode| {
            let (text, does) = mode_button(mode);
            let spoken = match mode {
                ByzantineMode::Honest => format!("Make honest, {name}: {does}"),
                _ => format!("{text}, make {name} Byzantine: {does}"),
            };
            let tone = match mode {
                ByzantineMode::Honest => Tone::Primary,
                _ => Tone::Danger,
            };
            let made = choice(
                ActionGroup::Byzantine,
                text.into(),
                spoken,
                Action::Byzantine { target, mode },
            );
            toned(tone, made)
        })
        .collect()
}

/// "Remove this server" on any voter of a plain Raft cluster, and "Add a server" on its leader (a
/// change goes through the leader's log). The world refuses, with the reason, what it cannot do.
fn membership_choices(target: NodeTarget, name: &str, situation: NodeSituation) -> Vec<NodeChoice> {
    let group = ActionGroup::Membership;
    let mut choices = Vec::new();
    if situation.leads && situation.status == NodeStatus::Up {
        choices.push(choice(
            group,
            "Add a server".into(),
            format!("Add a server: {name} catches it up as a learner, then adds it"),
            Action::AddServer { id: None },
        ));
    }
    if situation.seat == Some(Seat::Voter) {
        choices.push(toned(
            Tone::Danger,
            choice(
                group,
                "Remove this server".into(),
                format!("Remove this server, {name}, from the configuration"),
                Action::RemoveServer { target },
            ),
        ));
    }
    choices
}

/// "Slow disk 100 ms" and "Slow disk 1 s", or "Normal disk" once slowed (the world's write time again).
fn disk_choices(target: NodeTarget, name: &str, slowed: bool) -> Vec<NodeChoice> {
    let group = ActionGroup::Disk;
    if slowed {
        let normal = choice(
            group,
            "Normal disk".into(),
            format!("Normal disk, {name}: writes take the world's time again"),
            Action::SlowDisk {
                target,
                persist_ms: None,
            },
        );
        return vec![toned(Tone::Primary, normal)];
    }
    SLOW_DISKS_MS
        .iter()
        .map(|&write_ms| {
            let text = format!("Slow disk {}", pause_text(Some(write_ms)));
            let spoken = format!("{text}, {name}: each write before a reply takes that long");
            choice(
                group,
                text,
                spoken,
                Action::SlowDisk {
                    target,
                    persist_ms: Some((write_ms, write_ms)),
                },
            )
        })
        .collect()
}

/// Every choice `node` (called `name`) offers in `situation`, in the order they are drawn.
pub fn node_choices(node: NodeId, name: &str, situation: NodeSituation) -> Vec<NodeChoice> {
    let target = NodeTarget::Node(node);
    let mut choices = vec![life_choice(target, name, situation.status)];
    // A crashed process can only be restarted; freezing or skewing it would do nothing visible.
    if situation.status != NodeStatus::Crashed {
        choices.extend(pause_choices(target, name, situation.status));
    }
    choices.push(network_choice(target, name, situation.cut_off));
    if situation.status != NodeStatus::Crashed && situation.has_clock_to_skew() {
        choices.extend(clock_choices(target, name));
    }
    if situation.disk_matters && situation.status != NodeStatus::Crashed {
        choices.extend(disk_choices(target, name, situation.disk_slowed));
    }
    if situation.takes_writes() {
        choices.push(choice(
            ActionGroup::Client,
            "Send a write here".into(),
            format!("Send a write here, to {name}"),
            Action::Request {
                count: 1,
                target,
                kind: RequestKind::Put,
            },
        ));
    }
    if situation.can_lie {
        choices.extend(byzantine_choices(target, name, situation.lying));
    }
    choices.extend(membership_choices(target, name, situation));
    choices
}

/// The choices grouped into rows, keeping the drawing order.
pub fn rows(choices: Vec<NodeChoice>) -> Vec<(ActionGroup, Vec<NodeChoice>)> {
    let mut rows: Vec<(ActionGroup, Vec<NodeChoice>)> = Vec::new();
    for choice in choices {
        match rows.last_mut() {
            Some((group, members)) if *group == choice.group => members.push(choice),
            _ => rows.push((choice.group, vec![choice])),
        }
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;

    fn situation(kind: NodeKind, status: NodeStatus, client_path: ClientPath) -> NodeSituation {
        NodeSituation {
            kind,
            status,
            cut_off: false,
            client_path,
            can_lie: false,
            lying: None,
            seat: None,
            leads: false,
            disk_matters: kind == NodeKind::Server,
            disk_slowed: false,
        }
    }

    fn texts(choices: &[NodeChoice]) -> Vec<&str> {
        choices.iter().map(|choice| choice.text.as_str()).collect()
    }

    #[test]
    fn a_raft_server_offers_every_fault_and_a_write() {
        let up = situation(NodeKind::Server, NodeStatus::Up, ClientPath::Raft);
        let choices = node_choices(NodeId(2), "n3", up);
        assert_eq!(
            texts(&choices),
            [
                "Crash",
                "Pause 200 ms",
                "Pause 1 s",
                "Pause 5 s",
                "Pause until resumed",
                "Isolate",
                "Clock −500 ms",
                "Clock +500 ms",
                "Drift −10%",
                "No drift",
                "Drift +10%",
                "Slow disk 100 ms",
                "Slow disk 1 s",
                "Send a write here",
            ]
        );
        assert_eq!(choices[0].aria_label, "Crash n3");
        assert_eq!(choices[2].aria_label, "Pause 1 s, n3");
        assert_eq!(
            choices[2].action,
            Action::Pause {
                target: NodeTarget::Node(NodeId(2)),
                duration_ms: Some(1_000)
            }
        );
        assert!(choices
            .iter()
            .all(|choice| choice.aria_label.contains("n3")));
    }

    #[test]
    fn a_slowed_disk_offers_its_way_back_and_a_node_without_writes_offers_none() {
        let mut slowed = situation(NodeKind::Server, NodeStatus::Up, ClientPath::Raft);
        slowed.disk_slowed = true;
        let choices = node_choices(NodeId(0), "n1", slowed);
        let disk: Vec<&NodeChoice> = choices
            .iter()
            .filter(|choice| choice.group == ActionGroup::Disk)
            .collect();
        assert_eq!(disk.len(), 1);
        assert_eq!(disk[0].text, "Normal disk");
        assert_eq!(
            disk[0].action,
            Action::SlowDisk {
                target: NodeTarget::Node(NodeId(0)),
                persist_ms: None
            }
        );
        let worker = situation(NodeKind::Worker, NodeStatus::Up, ClientPath::ServiceLog);
        assert!(node_choices(NodeId(3), "A", worker)
            .iter()
            .all(|choice| choice.group != ActionGroup::Disk));
    }

    #[test]
    fn workers_and_redis_servers_take_no_raw_writes_and_the_store_has_no_clock() {
        let worker = situation(NodeKind::Worker, NodeStatus::Up, ClientPath::ServiceLog);
        let worker_choices = node_choices(NodeId(3), "A", worker);
        assert!(!texts(&worker_choices).contains(&"Send a write here"));
        assert!(texts(&worker_choices).contains(&"Clock +500 ms"));
        let redis = situation(NodeKind::Server, NodeStatus::Up, ClientPath::None);
        assert!(!texts(&node_choices(NodeId(0), "n1", redis)).contains(&"Send a write here"));
        let store = situation(NodeKind::Resource, NodeStatus::Up, ClientPath::ServiceLog);
        let store_choices = node_choices(NodeId(5), "store", store);
        assert!(store_choices
            .iter()
            .all(|choice| !matches!(choice.group, ActionGroup::Clock | ActionGroup::Drift)));
        assert!(texts(&store_choices).contains(&"Crash"));
    }

    #[test]
    fn each_fault_is_offered_with_its_undo() {
        let crashed = situation(NodeKind::Server, NodeStatus::Crashed, ClientPath::Raft);
        let choices = node_choices(NodeId(0), "n1", crashed);
        assert_eq!(texts(&choices), ["Restart", "Isolate"]);
        let paused = situation(NodeKind::Worker, NodeStatus::Paused, ClientPath::Raft);
        let choices = node_choices(NodeId(3), "A", paused);
        assert_eq!(
            rows(choices.clone())
                .iter()
                .map(|(group, _)| group.heading())
                .collect::<Vec<_>>(),
            ["process", "pause", "network", "clock", "drift"]
        );
        assert!(texts(&choices).contains(&"Resume"));
        assert!(!texts(&choices).contains(&"Pause 1 s"));
        let cut_off = NodeSituation {
            cut_off: true,
            ..situation(NodeKind::Server, NodeStatus::Up, ClientPath::Raft)
        };
        let heal = node_choices(NodeId(0), "n1", cut_off);
        assert!(heal.iter().any(|choice| choice.action == Action::Heal));
        assert!(!texts(&heal).contains(&"Isolate"));
    }

    #[test]
    fn a_server_that_can_lie_offers_each_mode_then_honesty() {
        let honest = NodeSituation {
            can_lie: true,
            ..situation(NodeKind::Server, NodeStatus::Up, ClientPath::None)
        };
        let offered = node_choices(NodeId(0), "n1", honest);
        let byzantine: Vec<&NodeChoice> = offered
            .iter()
            .filter(|choice| choice.group == ActionGroup::Byzantine)
            .collect();
        let texts: Vec<&str> = byzantine
            .iter()
            .map(|choice| choice.text.as_str())
            .collect();
        assert_eq!(
            texts,
            ["Equivocate", "Lie", "Go silent", "Go silent to half"]
        );
        assert_eq!(
            byzantine[0].action,
            Action::Byzantine {
                target: NodeTarget::Node(NodeId(0)),
                mode: ByzantineMode::Equivocate
            }
        );
        let lying = NodeSituation {
            lying: Some(ByzantineMode::Lie),
            ..honest
        };
        let offered = node_choices(NodeId(0), "n1", lying);
        let texts: Vec<&str> = offered
            .iter()
            .filter(|choice| choice.group == ActionGroup::Byzantine)
            .map(|choice| choice.text.as_str())
            .collect();
        assert_eq!(
            texts,
            [
                "Make honest",
                "Equivocate",
                "Go silent",
                "Go silent to half"
            ]
        );
        let cannot = situation(NodeKind::Server, NodeStatus::Up, ClientPath::ServiceLog);
        assert!(node_choices(NodeId(0), "n1", cannot)
            .iter()
            .all(|choice| choice.group != ActionGroup::Byzantine));
    }

    #[test]
    fn a_raft_leader_adds_servers_and_any_voter_can_be_removed() {
        let leader = NodeSituation {
            seat: Some(Seat::Voter),
            leads: true,
            ..situation(NodeKind::Server, NodeStatus::Up, ClientPath::Raft)
        };
        let offered = node_choices(NodeId(0), "n1", leader);
        let membership: Vec<&NodeChoice> = offered
            .iter()
            .filter(|choice| choice.group == ActionGroup::Membership)
            .collect();
        assert_eq!(membership.len(), 2);
        assert_eq!(membership[0].action, Action::AddServer { id: None });
        assert_eq!(
            membership[1].action,
            Action::RemoveServer {
                target: NodeTarget::Node(NodeId(0))
            }
        );
        assert!(membership[1]
            .aria_label
            .starts_with("Remove this server, n1"));
        let crashed_follower = NodeSituation {
            seat: Some(Seat::Voter),
            ..situation(NodeKind::Server, NodeStatus::Crashed, ClientPath::Raft)
        };
        let texts_offered = texts(&node_choices(NodeId(2), "n3", crashed_follower))
            .into_iter()
            .map(String::from)
            .collect::<Vec<_>>();
        assert!(texts_offered.contains(&"Remove this server".to_string()));
        assert!(!texts_offered.contains(&"Add a server".to_string()));
        for seat in [None, Some(Seat::Learner), Some(Seat::Outside)] {
            let other = NodeSituation {
                seat,
                ..situation(NodeKind::Server, NodeStatus::Up, ClientPath::Raft)
            };
            assert!(node_choices(NodeId(3), "n4", other)
                .iter()
                .all(|choice| choice.group != ActionGroup::Membership));
        }
    }

    #[test]
    fn lengths_and_rates_read_naturally() {
        assert_eq!(pause_text(Some(200)), "200 ms");
        assert_eq!(pause_text(Some(5_000)), "5 s");
        assert_eq!(pause_text(None), "until resumed");
        assert_eq!(drift_text(100_000), "Drift +10%");
        assert_eq!(drift_text(-100_000), "Drift −10%");
    }
}
