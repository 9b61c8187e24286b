use super::*;
use crate::session::Session;
use quorumlab_sim::scenario::Scenario;
use quorumlab_sim::time::SimTime;

/// A real narration line to dress up: its private fields come from the narrator.
fn template() -> NarrationLine {
    let mut scenario = Scenario::new("narrated", 5, 60_000);
    scenario.seed = 1;
    let mut session = Session::new(scenario).unwrap();
    session.advance_to(SimTime::from_ms(400));
    let line = session.narration().lines().next().cloned();
    line.expect("an election by 400 ms")
}

fn line(ordinal: u64, at_ms: u64, weight: Weight, words: usize) -> NarrationLine {
    let mut line = template();
    line.ordinal = ordinal;
    line.at_us = at_ms * 1_000;
    line.weight = weight;
    line.repeats = 1;
    line.text = vec!["word"; words].join(" ");
    line
}

fn playing(refreshes_since_change: u32, oldest_ms: u64) -> CaptionPace {
    CaptionPace {
        playing: true,
        refreshes_since_change,
        oldest_us: oldest_ms * 1_000,
    }
}

fn ordinal(choice: Option<Option<&NarrationLine>>) -> Option<Option<u64>> {
    choice.map(|line| line.map(|line| line.ordinal))
}

#[test]
fn a_caption_is_held_by_its_length() {
    assert_eq!(
        hold_refreshes(&line(1, 0, Weight::Notable, 2)),
        17,
        "about 2 s"
    );
    assert_eq!(
        hold_refreshes(&line(1, 0, Weight::Notable, 40)),
        112,
        "about 11 s"
    );
    assert_eq!(
        hold_refreshes(&line(1, 0, Weight::Notable, 400)),
        120,
        "at most 12 s"
    );
}

#[test]
fn the_next_turn_follows_the_shown_one_not_the_newest() {
    let shown = line(1, 100, Weight::Notable, 10);
    let lines = [
        shown.clone(),
        line(2, 150, Weight::Routine, 5),
        line(3, 200, Weight::Notable, 10),
        line(4, 300, Weight::Notable, 10),
    ];
    let hold = hold_refreshes(&shown);
    assert_eq!(
        ordinal(next_caption(Some(&shown), &lines, playing(hold - 1, 0))),
        None,
        "still being read"
    );
    assert_eq!(
        ordinal(next_caption(Some(&shown), &lines, playing(hold, 0))),
        Some(Some(3)),
        "then the next turn (a routine line is never a caption), not the newest"
    );
    assert_eq!(
        ordinal(next_caption(Some(&shown), &lines, playing(hold, 250))),
        Some(Some(4)),
        "a turn that happened too long ago is passed over"
    );
    assert_eq!(
        ordinal(next_caption(Some(&shown), &lines, playing(hold, 10_000))),
        Some(Some(4)),
        "when every waiting turn is old, the newest"
    );
}

#[test]
fn a_key_moment_is_never_passed_over_for_being_old() {
    let shown = line(1, 100, Weight::Notable, 10);
    let lines = [
        shown.clone(),
        line(2, 150, Weight::Notable, 10),
        line(3, 200, Weight::Key, 10),
        line(4, 300, Weight::Notable, 10),
    ];
    let read = hold_refreshes(&shown);
    assert_eq!(
        ordinal(next_caption(Some(&shown), &lines, playing(read, 250))),
        Some(Some(3)),
        "the old ordinary turn is passed over, the old key moment is not"
    );
    assert_eq!(
        ordinal(next_caption(Some(&shown), &lines, playing(read - 1, 250))),
        None,
        "but it waits for the shown caption to be read"
    );
}

#[test]
fn an_alarm_breaks_in_but_is_not_itself_wiped_unread() {
    let shown = line(1, 100, Weight::Notable, 10);
    let alarm = line(3, 200, Weight::Alarm, 10);
    let lines = [
        shown.clone(),
        line(2, 150, Weight::Notable, 10),
        alarm.clone(),
        line(4, 300, Weight::Alarm, 10),
    ];
    assert_eq!(
        ordinal(next_caption(Some(&shown), &lines, playing(0, 0))),
        Some(Some(3)),
        "the first alarm, at once"
    );
    assert_eq!(
        ordinal(next_caption(Some(&alarm), &lines, playing(1, 0))),
        None,
        "the next alarm waits"
    );
    assert_eq!(
        ordinal(next_caption(
            Some(&alarm),
            &lines,
            playing(hold_refreshes(&alarm), 0)
        )),
        Some(Some(4))
    );
}

#[test]
fn paused_or_after_a_seek_back_the_newest_turn_shows_at_once() {
    let shown = line(5, 500, Weight::Notable, 10);
    let lines = [
        line(1, 100, Weight::Notable, 10),
        line(2, 200, Weight::Notable, 10),
    ];
    let paused = CaptionPace {
        playing: false,
        ..playing(0, 0)
    };
    assert_eq!(
        ordinal(next_caption(Some(&shown), &lines, paused)),
        Some(Some(2))
    );
    assert_eq!(
        ordinal(next_caption(Some(&shown), &lines, playing(0, 0))),
        Some(Some(2)),
        "the story was read again from earlier"
    );
    assert_eq!(
        ordinal(next_caption(Some(&lines[1]), &lines, paused)),
        None,
        "already shown"
    );
    assert_eq!(
        ordinal(next_caption(None, &lines, playing(0, 0))),
        Some(Some(2))
    );
    assert_eq!(
        ordinal(next_caption(Some(&shown), &[], playing(0, 0))),
        Some(None),
        "nothing told: no caption"
    );
    assert_eq!(ordinal(next_caption(None, &[], playing(0, 0))), None);
}

#[test]
fn a_coalesced_line_that_grew_is_the_next_turn() {
    let shown = line(1, 100, Weight::Notable, 10);
    let mut grown = shown.clone();
    grown.repeats = 3;
    let lines = [grown];
    assert_eq!(
        ordinal(next_caption(Some(&shown), &lines, playing(0, 0))),
        None,
        "held first"
    );
    assert_eq!(
        ordinal(next_caption(
            Some(&shown),
            &lines,
            playing(hold_refreshes(&shown), 0)
        )),
        Some(Some(1))
    );
}
