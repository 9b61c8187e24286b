//! Which sentence the caption over the cluster shows, and for how long: the pace of the story told to a
//! room.
//!
//! The caption shows turns of the story (lines of weight Notable or Alarm). While the run plays, a
//! caption stays up long enough to be read aloud, by its length ([`hold_refreshes`]), and then gives way
//! to the **next** turn, not the newest: a refused token or a new leader that happened while the last
//! sentence was being read is still told. So that the words never trail the cluster by much, ordinary
//! turns older than a few seconds of wall time at the current speed are passed over
//! ([`CaptionPace::oldest_us`]), but a key moment (a new leader, a refused write) never is, and an alarm
//! (an invariant broken) does not even wait behind an ordinary turn. Paused, stepping or after a seek,
//! the caption is simply the newest turn.

use quorumlab_sim::entry::describe::Weight;
use quorumlab_sim::narration::NarrationLine;

/// How many panel refreshes (about 100 ms each) `line` stays up while playing before the next turn may
/// replace it: a short line about 2 s, a long lock-service sentence (about 40 words) about 11 s, never
/// more than 12 s.
pub fn hold_refreshes(line: &NarrationLine) -> u32 {
    let words = line.text.split_whitespace().count() as u32;
    (MIN_HOLD_REFRESHES + words * REFRESHES_PER_TEN_WORDS / 10).min(MAX_HOLD_REFRESHES)
}

const MIN_HOLD_REFRESHES: u32 = 12;
/// Four words a second: a comfortable pace for reading a projected sentence while listening.
const REFRESHES_PER_TEN_WORDS: u32 = 25;
const MAX_HOLD_REFRESHES: u32 = 120;

/// Wall time a caption may trail the run by: older turns are passed over while playing.
pub const MAX_TRAIL_WALL_MS: f64 = 5_000.0;

/// Where the story stands when the caption is reconsidered.
#[derive(Clone, Copy, Debug)]
pub struct CaptionPace {
    pub playing: bool,
    /// Panel refreshes since the caption last changed.
    pub refreshes_since_change: u32,
    /// Turns that happened before this simulated instant are too old to tell now.
    pub oldest_us: u64,
}

/// The caption to show now, or `None` to keep `current` (which may itself be `None`). `lines` is the
/// narration as kept, oldest first.
pub fn next_caption<'a>(
    current: Option<&NarrationLine>,
    lines: &'a [NarrationLine],
    pace: CaptionPace,
) -> Option<Option<&'a NarrationLine>> {
    let turns = lines.iter().filter(|line| line.weight >= Weight::Notable);
    let newest = turns.clone().next_back();
    let Some(current) = current else {
        return newest.map(Some);
    };
    let Some(newest) = newest else {
        return Some(None);
    };
    let same =
        |line: &NarrationLine| line.ordinal == current.ordinal && line.repeats == current.repeats;
    // Paused, or the story was read again from earlier (a seek back): the newest turn, now.
    if !pace.playing || newest.ordinal < current.ordinal {
        return (!same(newest)).then_some(Some(newest));
    }
    let later = move |line: &&NarrationLine| {
        line.ordinal > current.ordinal || (line.ordinal == current.ordinal && !same(line))
    };
    if current.weight < Weight::Alarm {
        if let Some(alarm) = turns
            .clone()
            .filter(later)
            .find(|line| line.weight == Weight::Alarm)
        {
            return Some(Some(alarm));
        }
    }
    if pace.refreshes_since_change < hold_refreshes(current) {
        return None;
    }
    let waiting: Vec<&NarrationLine> = turns.filter(later).collect();
    let fresh = waiting
        .iter()
        .find(|line| line.weight >= Weight::Key || line.at_us >= pace.oldest_us);
    fresh.or(waiting.last()).map(|line| Some(*line))
}

#[cfg(test)]
mod tests;
