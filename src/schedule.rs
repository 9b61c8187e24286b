//! The fault schedule as a lane of marks: the scenario's `[[step]]` list read as faults with a time and,
//! where they have one, an end (a pause's duration, a partition's heal), and the edits the lane makes
//! to it (move, resize, delete, add). Plain Rust over `Vec<Step>`, tested natively; the lane is
//! `components::schedule_lane` and the session takes the result (`Session::set_future_steps`).
//!
//! The past is fixed: only a step still to come (after `now`) can be moved, resized or deleted, and
//! nothing can be placed at or before `now`. Changing the future while a recorded future exists
//! replaces it, as acting in the past does (the session branches there).

#[cfg(test)]
mod tests;

use quorumlab_sim::action::{Action, ByzantineMode};
use quorumlab_sim::scenario::Step;

/// The smallest pause or partition the lane makes: shorter ones could not be grabbed.
pub const MIN_SPAN_MS: u64 = 10;

/// What the lane can place; the Byzantine modes come last (appended, so the form's order stays).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FaultKind {
    Crash,
    Pause,
    Partition,
    ClockJump,
    ClockDrift,
    RequestBurst,
    /// Make the node lie (or, with `Honest`, stop): a Raft server or a PBFT replica.
    Byzantine(ByzantineMode),
    /// Give the node's disk a write time of its own (0: the world's again).
    SlowDisk,
}

impl FaultKind {
    pub const ALL: [FaultKind; 12] = [
        FaultKind::Crash,
        FaultKind::Pause,
        FaultKind::Partition,
        FaultKind::ClockJump,
        FaultKind::ClockDrift,
        FaultKind::RequestBurst,
        FaultKind::Byzantine(ByzantineMode::Equivocate),
        FaultKind::Byzantine(ByzantineMode::Lie),
        FaultKind::Byzantine(ByzantineMode::Silent),
        FaultKind::Byzantine(ByzantineMode::Honest),
        FaultKind::Byzantine(ByzantineMode::Selective),
        FaultKind::SlowDisk,
    ];

    pub fn name(self) -> &'static str {
        match self {
            FaultKind::Crash => "crash",
            FaultKind::Pause => "pause",
            FaultKind::Partition => "partition",
            FaultKind::ClockJump => "clock jump",
            FaultKind::ClockDrift => "clock drift",
            FaultKind::RequestBurst => "request burst",
            FaultKind::Byzantine(ByzantineMode::Equivocate) => "byzantine: equivocate",
            FaultKind::Byzantine(ByzantineMode::Lie) => "byzantine: lie",
            FaultKind::Byzantine(ByzantineMode::Silent) => "byzantine: silent",
            FaultKind::Byzantine(ByzantineMode::Honest) => "byzantine: honest again",
            FaultKind::Byzantine(ByzantineMode::Selective) => "byzantine: selectively silent",
            FaultKind::SlowDisk => "slow disk",
        }
    }

    pub fn from_name(name: &str) -> Option<FaultKind> {
        FaultKind::ALL.into_iter().find(|kind| kind.name() == name)
    }

    /// What the amount field means for this kind, and its starting value.
    pub fn amount(self) -> Option<(&'static str, i64)> {
        match self {
            FaultKind::Crash | FaultKind::Byzantine(_) => None,
            FaultKind::Pause | FaultKind::Partition => Some(("lasting (ms)", 500)),
            FaultKind::ClockJump => Some(("jump by (ms, − for back)", 1_000)),
            FaultKind::ClockDrift => Some(("drift (ppm, − for slow)", 200_000)),
            FaultKind::RequestBurst => Some(("requests", 5)),
            FaultKind::SlowDisk => Some(("each write (ms, 0 for normal)", 1_000)),
        }
    }

    /// The steps that place this fault on `node` at `at_ms`: the fault, and for a partition the heal
    /// that ends it. `amount` is as [`FaultKind::amount`] describes; out-of-range values are refused.
    pub fn steps(self, node: u16, at_ms: u64, amount: i64) -> Result<Vec<Step>, String> {
        use quorumlab_sim::action::{NodeTarget, RequestKind};
        use quorumlab_sim::ids::NodeId;
        let target = NodeTarget::Node(NodeId(node));
        let span_ms = || -> Result<u64, String> {
            u64::try_from(amount)
                .ok()
                .filter(|span| *span >= MIN_SPAN_MS)
                .ok_or_else(|| format!("a {} lasts at least {MIN_SPAN_MS} ms", self.name()))
        };
        let step = |action| Step { at_ms, action };
        Ok(match self {
            FaultKind::Crash => vec![step(Action::Crash { target })],
            FaultKind::Byzantine(mode) => vec![step(Action::Byzantine { target, mode })],
            FaultKind::Pause => vec![step(Action::Pause {
                target,
                duration_ms: Some(span_ms()?),
            })],
            FaultKind::Partition => return partition_steps(&[node], None, at_ms, amount),
            FaultKind::ClockJump => vec![step(Action::ClockJump {
                target,
                by_ms: amount,
            })],
            FaultKind::ClockDrift => vec![step(Action::ClockDrift {
                target,
                ppm: amount,
            })],
            FaultKind::SlowDisk => {
                let write_ms = u64::try_from(amount)
                    .ok()
                    .filter(|write_ms| *write_ms <= quorumlab_sim::config::MAX_PERSIST_MS)
                    .ok_or_else(|| {
                        format!(
                            "a disk write takes 0 to {} ms",
                            quorumlab_sim::config::MAX_PERSIST_MS
                        )
                    })?;
                let persist_ms = (write_ms > 0).then_some((write_ms, write_ms));
                vec![step(Action::SlowDisk { target, persist_ms })]
            }
            FaultKind::RequestBurst => {
                let count = u32::try_from(amount)
                    .ok()
                    .filter(|count| *count >= 1)
                    .ok_or("a burst holds at least one request")?;
                vec![step(Action::Request {
                    count,
                    target: NodeTarget::Leader,
                    kind: RequestKind::Put,
                })]
            }
        })
    }
}

/// A partition that sets `side` (one node or several) apart from every other node, healed `amount`
/// ms later. With `node_count`, a side holding every node is refused: it would cut nothing.
pub fn partition_steps(
    side: &[u16],
    node_count: Option<usize>,
    at_ms: u64,
    amount: i64,
) -> Result<Vec<Step>, String> {
    use quorumlab_sim::ids::NodeId;
    let span_ms = u64::try_from(amount)
        .ok()
        .filter(|span| *span >= MIN_SPAN_MS)
        .ok_or_else(|| format!("a partition lasts at least {MIN_SPAN_MS} ms"))?;
    let mut side: Vec<u16> = side.to_vec();
    side.sort_unstable();
    side.dedup();
    if side.is_empty() {
        return Err("a partition needs at least one node on its side".into());
    }
    if node_count.is_some_and(|count| side.len() >= count) {
        return Err("a partition needs nodes on both sides: leave at least one node out".into());
    }
    Ok(vec![
        Step {
            at_ms,
            action: Action::Partition {
                groups: vec![side.into_iter().map(NodeId).collect()],
            },
        },
        Step {
            at_ms: at_ms.saturating_add(span_ms),
            action: Action::Heal,
        },
    ])
}

/// One mark on the lane: a step, with the end of what it starts if it has one.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct LaneMark {
    pub index: usize,
    pub at_ms: u64,
    /// Where a pause or a partition ends.
    pub end_ms: Option<u64>,
    /// The heal step that ends a partition (drawn as the bar's end, not as a mark of its own).
    pub end_index: Option<usize>,
    /// Still to come, so it may be edited.
    pub editable: bool,
}

impl LaneMark {
    pub fn resizable(&self) -> bool {
        self.editable && self.end_ms.is_some()
    }
}

/// Whether a step at `at_ms` is still to come at `now_us`.
pub fn is_future(at_ms: u64, now_us: u64) -> bool {
    at_ms.saturating_mul(1_000) > now_us
}

fn cuts_links(action: &Action) -> bool {
    matches!(
        action,
        Action::Partition { .. } | Action::Isolate { .. } | Action::Cut { .. }
    )
}

/// The heal that ends the cut at `index`: the first heal listed after it.
fn paired_heal(steps: &[Step], index: usize) -> Option<usize> {
    (index + 1..steps.len()).find(|&later| steps[later].action == Action::Heal)
}

/// The lane's marks for `steps`, in step order; a heal that ends a cut is part of the cut's mark.
pub fn lane_marks(steps: &[Step], now_us: u64) -> Vec<LaneMark> {
    let mut ends = Vec::new();
    let mut marks = Vec::new();
    for (index, step) in steps.iter().enumerate() {
        let end_index = cuts_links(&step.action)
            .then(|| paired_heal(steps, index))
            .flatten()
            .filter(|heal| !ends.contains(heal));
        ends.extend(end_index);
        let end_ms = match &step.action {
            Action::Pause {
                duration_ms: Some(duration_ms),
                ..
            } => Some(step.at_ms.saturating_add(*duration_ms)),
            _ => end_index.map(|heal| steps[heal].at_ms),
        };
        // A heal that ends a cut is an end; one already written down is one of the marks.
        if ends.contains(&index) {
            continue;
        }
        marks.push(LaneMark {
            index,
            at_ms: step.at_ms,
            end_ms,
            end_index,
            // A cut whose heal is past stays put: moving it would move the heal into the past too.
            editable: is_future(step.at_ms, now_us),
        });
    }
    marks
}

/// One change the lane makes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Edit {
    /// Move the step at `index` (and the end of what it starts) to `to_ms`.
    Move {
        index: usize,
        to_ms: u64,
    },
    /// Make the pause or partition at `index` last `span_ms`.
    Resize {
        index: usize,
        span_ms: u64,
    },
    Delete {
        index: usize,
    },
    /// Place these steps (a fault, and a partition's heal).
    Add {
        steps: Vec<Step>,
    },
}

/// The step list after `edit`, sorted by time (steps at one instant keep their order), with the
/// index the edited fault now has (`None` after a delete); or why the edit is refused.
pub fn apply_edit(
    steps: &[Step],
    edit: &Edit,
    now_us: u64,
    duration_ms: u64,
) -> Result<(Vec<Step>, Option<usize>), String> {
    let marks = lane_marks(steps, now_us);
    let mark_at = |index: usize| -> Result<&LaneMark, String> {
        let mark = marks
            .iter()
            .find(|mark| mark.index == index)
            .ok_or_else(|| format!("there is no step {} on the lane", index + 1))?;
        if mark.editable {
            Ok(mark)
        } else {
            Err(
                "that step is in the past, which cannot be changed; scrub back before it first"
                    .into(),
            )
        }
    };
    let in_future = |at_ms: u64, what: &str| -> Result<(), String> {
        if !is_future(at_ms, now_us) {
            return Err(format!(
                "{what} would be in the past; place it after the present moment"
            ));
        }
        if at_ms > duration_ms {
            return Err(format!(
                "{what} would fall after the run ends at {duration_ms} ms"
            ));
        }
        Ok(())
    };
    let mut edited = steps.to_vec();
    let mut moved: Vec<usize> = Vec::new();
    match edit {
        Edit::Move { index, to_ms } => {
            let mark = mark_at(*index)?;
            in_future(*to_ms, "the step")?;
            edited[*index].at_ms = *to_ms;
            moved.push(*index);
            if let (Some(heal), Some(end_ms)) = (mark.end_index, mark.end_ms) {
                let new_end = (end_ms + to_ms).saturating_sub(mark.at_ms);
                in_future(new_end, "its end")?;
                edited[heal].at_ms = new_end;
            }
        }
        Edit::Resize { index, span_ms } => {
            let mark = mark_at(*index)?;
            if !mark.resizable() {
                return Err("only a pause or a partition has a length to change".into());
            }
            let span_ms = (*span_ms).max(MIN_SPAN_MS);
            let end_ms = mark.at_ms.saturating_add(span_ms);
            in_future(end_ms, "its end")?;
            moved.push(*index);
            match (&mut edited[*index].action, mark.end_index) {
                (Action::Pause { duration_ms, .. }, _) => *duration_ms = Some(span_ms),
                (_, Some(heal)) => edited[heal].at_ms = end_ms,
                _ => {}
            }
        }
        Edit::Delete { index } => {
            let mark = mark_at(*index)?;
            let mut gone = vec![*index];
            gone.extend(mark.end_index);
            edited = edited
                .into_iter()
                .enumerate()
                .filter(|(position, _)| !gone.contains(position))
                .map(|(_, step)| step)
                .collect();
        }
        Edit::Add { steps: added } => {
            if added.is_empty() {
                return Err("nothing to place".into());
            }
            for step in added {
                in_future(step.at_ms, "the new step")?;
            }
            moved.push(edited.len());
            edited.extend(added.iter().cloned());
        }
    }
    Ok(sorted_keeping(edited, moved.first().copied()))
}

/// Sorts by time, keeping equal times in their order, and follows `tracked` to its new index.
fn sorted_keeping(steps: Vec<Step>, tracked: Option<usize>) -> (Vec<Step>, Option<usize>) {
    let mut numbered: Vec<(usize, Step)> = steps.into_iter().enumerate().collect();
    numbered.sort_by_key(|(_, step)| step.at_ms);
    let new_index =
        tracked.and_then(|tracked| numbered.iter().position(|(old, _)| *old == tracked));
    (
        numbered.into_iter().map(|(_, step)| step).collect(),
        new_index,
    )
}
