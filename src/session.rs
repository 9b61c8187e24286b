//! One simulated run as the app drives it: the scenario it came from, its timeline (for time travel and
//! sharing) and the scripted steps still to come. Plain Rust, no web types, so it is tested natively.
//!
//! Every change goes through [`Session::apply`], which records the action in the timeline. That record
//! (plus the scenario's settings) is all a share link needs to rebuild the run exactly.

use quorumlab_sim::action::Action;
use quorumlab_sim::history::{RecordedAction, Timeline};
use quorumlab_sim::ids::NodeId;
use quorumlab_sim::narration::{plain_record, Narrator};
use quorumlab_sim::replay::Replayed;
use quorumlab_sim::runner::{world_config, ScenarioRun};
use quorumlab_sim::scenario::Scenario;
use quorumlab_sim::time::SimTime;
use quorumlab_sim::trace::TraceLog;
use quorumlab_sim::view::ClusterView;
use quorumlab_sim::{ActionOutcome, LeaderRecord, RequestCounts, ViolationRecord, World};
use std::collections::BTreeMap;

/// Simulated time between time-travel snapshots, and how many are kept (the interval doubles past that).
const SNAPSHOT_EVERY_MS: u64 = 250;
const MAX_SNAPSHOTS: usize = 400;

/// Playback speed 1× shows a tenth of real time: one wall-clock second covers 100 ms of cluster time,
/// slow enough to follow a single message across a link.
pub const SIMULATED_US_PER_WALL_MS_AT_1X: f64 = 100.0;
pub const MIN_SPEED: f64 = 0.05;
pub const MAX_SPEED: f64 = 20.0;
/// Instants without a trace record one step may pass before it stops anyway (bounds the loop).
pub const MAX_SILENT_INSTANTS: usize = 1_000;
/// Records a single step names one by one, past which it says how many more there were.
const MAX_TOLD_RECORDS: usize = 3;
/// Frames longer than this (a hidden tab, a debugger stop) do not make the cluster leap ahead.
const MAX_FRAME_WALL_MS: f64 = 100.0;

/// Snapshots a session replayed to an instant at once starts with, at most.
const REPLAYED_SNAPSHOTS: u64 = (MAX_SNAPSHOTS / 8) as u64;

/// The snapshot interval for a session replayed to `position` at once.
fn snapshot_interval_ms(position: SimTime) -> u64 {
    let mut every_ms = SNAPSHOT_EVERY_MS;
    while position.as_ms() / every_ms > REPLAYED_SNAPSHOTS {
        every_ms *= 2;
    }
    every_ms
}

/// Where a run's story stood before a step (see [`Session::step_mark`]).
#[derive(Clone, Copy, Debug)]
pub struct StepMark {
    records_before: u64,
    lines_before: Option<(u64, u32)>,
}

pub struct Session {
    /// The scenario driven on its timeline: the one driver headless runs use too.
    run: ScenarioRun<Timeline>,
    /// Fractional microseconds carried between frames so slow speeds still advance.
    carry_us: f64,
    /// Retells the trace in words; it reads only what is new each time it is asked.
    narrator: Narrator,
}

impl Session {
    pub fn new(scenario: Scenario) -> Result<Session, String> {
        let world = World::new(world_config(&scenario))?;
        Ok(Session {
            narrator: Narrator::for_world(&world),
            run: ScenarioRun::on(
                scenario,
                Timeline::new(world, SNAPSHOT_EVERY_MS, MAX_SNAPSHOTS),
            ),
            carry_us: 0.0,
        })
    }

    /// A session at time zero whose recorded future is `actions` (a run opened from a share link);
    /// seeking or playing forward replays them exactly. The caller has validated the log.
    pub fn replaying(scenario: Scenario, actions: Vec<RecordedAction>) -> Result<Session, String> {
        let world = World::new(world_config(&scenario))?;
        Ok(Session {
            narrator: Narrator::for_world(&world),
            run: ScenarioRun::on(
                scenario,
                Timeline::replaying(world, SNAPSHOT_EVERY_MS, MAX_SNAPSHOTS, actions),
            ),
            carry_us: 0.0,
        })
    }

    /// The session of a checked replay (`quorumlab_sim::replay::replay_to`, its world and its
    /// log), opened on that replay rather than replaying it again. Its snapshots are spaced for a run
    /// that long (250 ms, doubled until the run needs at most 50), and filled in the first time the
    /// learner scrubs back. Replaying a link a second time into a fresh session, snapshotting every
    /// 250 ms and halving again and again, made opening a 45-minute link cost up to thirteen times the
    /// check (found by the fuzzer, issue 17). The picture and the hash are the same either way.
    pub fn replayed_to(scenario: Scenario, replayed: Replayed) -> Result<Session, String> {
        let start = World::new(world_config(&scenario))?;
        let every_ms = snapshot_interval_ms(replayed.world.now());
        let timeline = Timeline::resumed(
            start.clone(),
            replayed.world,
            every_ms,
            MAX_SNAPSHOTS,
            replayed.actions,
        );
        Ok(Session {
            narrator: Narrator::for_world(&start),
            run: ScenarioRun::on(scenario, timeline),
            carry_us: 0.0,
        })
    }

    pub fn scenario(&self) -> &Scenario {
        self.run.scenario()
    }

    /// The run on its timeline, for drivers written over any run (compare mode's lockstep).
    pub fn timeline(&self) -> &Timeline {
        self.run.run()
    }

    /// The scenario's driver itself, for drivers that act through it (compare mode's replay beside).
    pub fn driver_mut(&mut self) -> &mut ScenarioRun<Timeline> {
        &mut self.run
    }

    pub fn world(&self) -> &World {
        self.run.run().world()
    }

    pub fn now(&self) -> SimTime {
        self.run.run().now()
    }

    pub fn horizon(&self) -> SimTime {
        self.run.run().horizon()
    }

    pub fn actions(&self) -> &[RecordedAction] {
        self.run.run().actions()
    }

    pub fn view(&self) -> ClusterView {
        self.world().view()
    }

    // What components read beyond the view snapshot, so none of them reaches into the world itself.

    /// Every invariant violation so far, in the order the checkers saw them.
    pub fn violations(&self) -> &[ViolationRecord] {
        self.world().checkers().violations()
    }

    /// How often each invariant has been violated, by name.
    pub fn violation_counts(&self) -> &BTreeMap<String, u64> {
        self.world().checkers().violation_counts()
    }

    /// Every leader the checkers saw elected, in order.
    pub fn leaders(&self) -> &[LeaderRecord] {
        self.world().checkers().leaders()
    }

    /// The name a node goes by (`A`, `store`, or `n1` in plain Raft).
    pub fn node_label(&self, node: NodeId) -> String {
        self.world().node_label(node)
    }

    /// Client requests so far by outcome (committed, failed, unknown).
    pub fn request_counts(&self) -> &RequestCounts {
        &self.world().clients().counts
    }

    /// The run's trace, which the space-time diagram reads its message arrows from.
    pub fn trace(&self) -> &TraceLog {
        self.world().trace()
    }

    /// The fingerprint of the state shown: equal exactly when two runs are in the same state.
    pub fn trace_hash(&self) -> u64 {
        self.world().trace_hash()
    }

    /// The narration up to now: reads what the trace gained since the last call, or, after a rewind,
    /// reads the run again from its start (the same run always reads the same).
    pub fn narration(&mut self) -> &Narrator {
        if !self.narrator.catch_up(self.run.run().world().trace()) {
            self.narrator = Narrator::for_world(self.run.run().world());
            self.narrator.catch_up(self.run.run().world().trace());
        }
        &self.narrator
    }

    /// Applies a user action now (discarding any recorded future: this is a new branch).
    pub fn apply(&mut self, action: &Action) -> ActionOutcome {
        self.run.run_mut().apply(action)
    }

    /// Replaces the scenario's steps still to come (the fault-schedule lane's edits). The steps up to
    /// now must be the ones already there, since the past is fixed; a recorded future is dropped, as
    /// acting in the past drops it. The new list is checked as a scenario file's would be.
    pub fn set_future_steps(
        &mut self,
        steps: Vec<quorumlab_sim::scenario::Step>,
    ) -> Result<(), String> {
        let now_us = self.now().as_micros();
        let past = |steps: &[quorumlab_sim::scenario::Step]| {
            steps
                .iter()
                .filter(|step| !crate::schedule::is_future(step.at_ms, now_us))
                .cloned()
                .collect::<Vec<_>>()
        };
        if past(&steps) != past(&self.scenario().steps) {
            return Err("the steps up to the present cannot change".into());
        }
        let mut scenario = self.scenario().clone();
        scenario.steps = steps;
        scenario.validate().map_err(|invalid| invalid.to_string())?;
        if self.horizon() > self.now() {
            let now = self.now();
            self.run.run_mut().branch_at(now);
        }
        self.run.set_scenario(scenario);
        Ok(())
    }

    /// Advances by one animation frame of `wall_ms` at `speed`. Returns true if time moved.
    pub fn advance_frame(&mut self, wall_ms: f64, speed: f64) -> bool {
        match self.frame_target(wall_ms, speed) {
            Some(target) => {
                self.advance_to(target);
                true
            }
            None => false,
        }
    }

    /// Where one animation frame of `wall_ms` at `speed` takes the clock (None: not a whole µs yet),
    /// for callers that advance in pieces, such as a lesson stopping at its checkpoints.
    pub fn frame_target(&mut self, wall_ms: f64, speed: f64) -> Option<SimTime> {
        let wall_ms = wall_ms.clamp(0.0, MAX_FRAME_WALL_MS);
        let speed = speed.clamp(MIN_SPEED, MAX_SPEED);
        self.carry_us += wall_ms * speed * SIMULATED_US_PER_WALL_MS_AT_1X;
        let whole_us = self.carry_us.floor();
        self.carry_us -= whole_us;
        (whole_us >= 1.0).then(|| self.now().plus_micros(whole_us as u64))
    }

    /// Runs to `until`, applying the scenario's scripted steps that fall due on the way.
    pub fn advance_to(&mut self, until: SimTime) {
        self.run.advance_past_end_to(until);
    }

    /// Processes exactly the next instant that has events (for single-stepping). False when idle.
    pub fn step_event(&mut self) -> bool {
        match self.world().next_event_time() {
            Some(next) => {
                self.advance_to(next.max(self.now()));
                true
            }
            None => false,
        }
    }

    /// Steps one instant and says what it did: the narration's new lines, or, when the instant held
    /// only routine traffic, the records themselves in plain words. `None` when nothing is left to do.
    pub fn step_and_tell(&mut self) -> Option<String> {
        let mark = self.step_mark();
        // Some instants hold only a timer that was cancelled since: nothing to see, so step past them.
        for _ in 0..MAX_SILENT_INSTANTS {
            if !self.step_event() {
                return None;
            }
            if self.trace().total() > mark.records_before {
                break;
            }
        }
        Some(self.tell_since(mark))
    }

    /// The next instant with events, if any (never before now).
    pub fn next_event_time(&self) -> Option<SimTime> {
        self.world()
            .next_event_time()
            .map(|next| next.max(self.now()))
    }

    /// Where the story stands now, for [`Session::tell_since`] after a step.
    pub fn step_mark(&mut self) -> StepMark {
        StepMark {
            records_before: self.trace().total(),
            lines_before: self
                .narration()
                .lines()
                .last()
                .map(|line| (line.ordinal, line.repeats)),
        }
    }

    /// Whether the trace has grown since `mark` (something visible happened).
    pub fn has_news_since(&self, mark: &StepMark) -> bool {
        self.trace().total() > mark.records_before
    }

    /// What happened since `mark`, in words: the narration's new lines, or the new records in plain
    /// words when they were only routine traffic.
    pub fn tell_since(&mut self, mark: StepMark) -> String {
        let fresh_records = self.trace().total().saturating_sub(mark.records_before) as usize;
        if fresh_records == 0 {
            return "only timers that had been cancelled came due; nothing visible happened".into();
        }
        let narrator = self.narration();
        let told: Vec<String> = narrator
            .lines()
            .rev()
            .take_while(|line| Some((line.ordinal, line.repeats)) != mark.lines_before)
            .map(|line| line.text.clone())
            .collect();
        if !told.is_empty() {
            return told.into_iter().rev().collect::<Vec<_>>().join(". ");
        }
        let world = self.world();
        let name = |node: NodeId| world.node_label(node);
        let plain: Vec<String> = world
            .trace()
            .records()
            .rev()
            .take(fresh_records)
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .take(MAX_TOLD_RECORDS)
            .map(|record| plain_record(record, &name))
            .collect();
        let more = fresh_records.saturating_sub(MAX_TOLD_RECORDS);
        let tail = if more > 0 {
            format!(" (and {more} more)")
        } else {
            String::new()
        };
        format!("{}{tail}", plain.join("; "))
    }

    /// Goes back to the previous instant that had events: the picture before the last step.
    pub fn step_back(&mut self) -> bool {
        let now_us = self.now().as_micros();
        let previous = self
            .trace()
            .records()
            .rev()
            .map(|record| record.at_us)
            .find(|at_us| *at_us < now_us);
        match previous {
            Some(at_us) => self.seek(SimTime(at_us)),
            None if now_us > 0 => self.seek(SimTime::ZERO),
            None => return false,
        }
        true
    }

    /// Moves to any time: back (exact, via snapshots and replay) or forward (replaying the recorded
    /// future first, then simulating).
    pub fn seek(&mut self, to: SimTime) {
        if to <= self.horizon() {
            self.run.run_mut().seek(to);
        } else {
            let horizon = self.horizon();
            self.run.run_mut().seek(horizon);
            self.advance_to(to);
        }
        self.carry_us = 0.0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use quorumlab_sim::action::NodeTarget;
    use quorumlab_sim::scenario::Step;

    fn scenario(node_count: usize) -> Scenario {
        Scenario::new("test", node_count, 10_000)
    }

    #[test]
    fn frames_advance_time_at_the_chosen_speed() {
        let mut session = Session::new(scenario(3)).unwrap();
        assert!(session.advance_frame(16.0, 1.0));
        assert_eq!(session.now(), SimTime(1_600));
        session.advance_frame(10.0, 10.0);
        assert_eq!(session.now(), SimTime(11_600));
    }

    #[test]
    fn slow_speeds_accumulate_instead_of_stalling() {
        let mut session = Session::new(scenario(3)).unwrap();
        for _ in 0..100 {
            session.advance_frame(1.0, MIN_SPEED);
        }
        assert_eq!(session.now(), SimTime(500));
    }

    #[test]
    fn a_long_frame_is_capped() {
        let mut session = Session::new(scenario(3)).unwrap();
        session.advance_frame(5_000.0, 1.0);
        assert_eq!(session.now(), SimTime(10_000));
    }

    /// Three nodes with one scripted step: crash the leader at 400 ms.
    fn crash_leader_at_400_ms() -> Scenario {
        let mut script = scenario(3);
        script.steps.push(Step {
            at_ms: 400,
            action: Action::Crash {
                target: NodeTarget::Leader,
            },
        });
        script
    }

    #[test]
    fn scripted_steps_fire_once_and_are_recorded() {
        let mut session = Session::new(crash_leader_at_400_ms()).unwrap();
        session.advance_to(SimTime::from_ms(1_000));
        assert_eq!(session.actions().len(), 1);
        assert_eq!(session.actions()[0].at, SimTime::from_ms(400));
        session.advance_to(SimTime::from_ms(2_000));
        assert_eq!(session.actions().len(), 1, "a step fires once");
    }

    #[test]
    fn two_identical_steps_at_one_instant_both_fire_as_in_the_runner() {
        let mut script = scenario(3);
        let request = Step {
            at_ms: 400,
            action: Action::Request {
                count: 1,
                target: NodeTarget::Leader,
                kind: quorumlab_sim::action::RequestKind::Put,
            },
        };
        script.steps = vec![request.clone(), request];
        let mut session = Session::new(script.clone()).unwrap();
        session.advance_to(SimTime::from_ms(1_000));
        assert_eq!(
            session.actions().len(),
            2,
            "each step pairs off with its own record"
        );
        let mut runner = quorumlab_sim::runner::ScenarioRun::new(script).unwrap();
        runner.advance_to(SimTime::from_ms(1_000));
        assert_eq!(session.world().trace_hash(), runner.world().trace_hash());
    }

    #[test]
    fn seeking_back_and_forward_reproduces_the_same_state() {
        let mut session = Session::new(scenario(5)).unwrap();
        session.advance_to(SimTime::from_ms(600));
        session.apply(&Action::Crash {
            target: NodeTarget::Leader,
        });
        session.advance_to(SimTime::from_ms(2_000));
        let hash_at_end = session.world().trace_hash();
        let view_at_end = session.view();
        session.seek(SimTime::from_ms(300));
        assert_eq!(session.now(), SimTime::from_ms(300));
        session.seek(SimTime::from_ms(2_000));
        assert_eq!(session.world().trace_hash(), hash_at_end);
        assert_eq!(session.view(), view_at_end);
    }

    #[test]
    fn playing_forward_after_seeking_back_replays_a_scripted_step_once() {
        let mut session = Session::new(crash_leader_at_400_ms()).unwrap();
        session.advance_to(SimTime::from_ms(1_000));
        let hash_at_end = session.world().trace_hash();
        session.seek(SimTime::from_ms(200));
        session.advance_to(SimTime::from_ms(1_000));
        assert_eq!(
            session.actions().len(),
            1,
            "the step is replayed, not applied again"
        );
        assert_eq!(session.world().trace_hash(), hash_at_end);
    }

    #[test]
    fn a_replaying_session_reaches_the_recorded_state() {
        let mut original = Session::new(scenario(5)).unwrap();
        original.advance_to(SimTime::from_ms(700));
        original.apply(&Action::Crash {
            target: NodeTarget::Leader,
        });
        original.advance_to(SimTime::from_ms(1_500));
        let mut replayed = Session::replaying(scenario(5), original.actions().to_vec()).unwrap();
        replayed.seek(SimTime::from_ms(1_500));
        assert_eq!(replayed.world().trace_hash(), original.world().trace_hash());
    }

    #[test]
    fn a_session_opened_on_a_replay_scrubs_back_exactly() {
        let mut original = Session::new(Scenario::new("long", 3, 3_600_000)).unwrap();
        original.advance_to(SimTime::from_ms(600));
        original.apply(&Action::Crash {
            target: NodeTarget::Leader,
        });
        let end = SimTime::from_ms(600_000);
        original.advance_to(end);
        let (scenario, actions) = (original.scenario().clone(), original.actions().to_vec());
        let replayed =
            quorumlab_sim::replay::replay_to(&scenario, &actions, end, 1_000_000).unwrap();
        let mut opened = Session::replayed_to(scenario.clone(), replayed).unwrap();
        assert_eq!(opened.world().trace_hash(), original.world().trace_hash());
        assert_eq!(
            opened.run.run().snapshot_count(),
            2,
            "the start and the replay, no more"
        );
        assert_eq!(
            snapshot_interval_ms(SimTime::from_ms(1_000)),
            SNAPSHOT_EVERY_MS
        );
        assert_eq!(
            snapshot_interval_ms(end),
            16_000,
            "250 ms doubled six times"
        );
        // Back, forward and back again, each exact; the first trip back fills the snapshots in.
        for to_ms in [123_456, 599_999, 64_000, 600_000] {
            let mut straight = Session::new(scenario.clone()).unwrap();
            straight.advance_to(SimTime::from_ms(600));
            straight.apply(&Action::Crash {
                target: NodeTarget::Leader,
            });
            straight.advance_to(SimTime::from_ms(to_ms));
            opened.seek(SimTime::from_ms(to_ms));
            assert_eq!(
                opened.world().trace_hash(),
                straight.world().trace_hash(),
                "{to_ms}"
            );
        }
        let filled = opened.run.run().snapshot_count() as u64;
        assert!((3..=REPLAYED_SNAPSHOTS + 2).contains(&filled), "{filled}");
        opened.advance_to(SimTime::from_ms(700_000));
        assert_eq!(opened.actions(), &actions[..], "nothing applied twice");
    }

    #[test]
    fn stepping_moves_to_the_next_event_only() {
        let mut session = Session::new(scenario(3)).unwrap();
        let next = session.world().next_event_time().unwrap();
        assert!(session.step_event());
        assert_eq!(session.now(), next);
    }
}
