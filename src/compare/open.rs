//! Starting a comparison: from a scenario and the options to flip (the picker, a lesson link), or from
//! two sessions already replayed (a share link). Anything that cannot be compared is refused with the
//! reason and leaves the run shown as it was.

use crate::compare::hook::{CompareHook, SideLabels};
use crate::compare::lockstep::replay_beside;
use crate::session::Session;
use crate::state::AppState;
use leptos::prelude::*;
use quorumlab_sim::compare::pair::incomparable;
use quorumlab_sim::compare::variation::{side_labels, vary, watch_for, Variation};
use quorumlab_sim::scenario::{parse_scenario, shown, Scenario, EXAMPLES};
use quorumlab_sim::suggest::did_you_mean;

/// The two scenarios of a comparison of `base` with `variations` flipped, or why there is none.
pub fn pair_of(base: &Scenario, variations: &[Variation]) -> Result<(Scenario, Scenario), String> {
    let right = vary(base, variations)?;
    match incomparable(base, &right) {
        Some(reason) => Err(reason),
        None => Ok((base.clone(), right)),
    }
}

/// An example scenario by its file name (`fencing-pause.toml`).
pub fn example(file: &str) -> Result<Scenario, String> {
    let (name, text) = EXAMPLES
        .iter()
        .find(|(name, _)| *name == file)
        .ok_or_else(|| {
            let files = EXAMPLES.iter().map(|(name, _)| *name);
            format!(
                "there is no example called `{}`; {}",
                shown(file),
                did_you_mean(file, files, "example", "sim/scenarios/")
            )
        })?;
    parse_scenario(text, name).map_err(|error| error.to_string())
}

/// Variation names as a lesson link writes them (`fencing,redlock`), each checked.
pub fn variations_named(names: &str) -> Result<Vec<Variation>, String> {
    names
        .split(',')
        .map(str::trim)
        .filter(|name| !name.is_empty())
        .map(|name| {
            Variation::by_name(name).ok_or_else(|| {
                let names = Variation::ALL.iter().map(|variation| variation.name());
                format!(
                    "no option called `{}` can be compared; {}",
                    shown(name),
                    did_you_mean(name, names, "option", "the compare picker")
                )
            })
        })
        .collect()
}

/// Restarts `state` on `base` (the left side) beside a fresh right side with `variations` flipped,
/// both at time zero and playing.
pub fn open_compare(
    state: AppState,
    base: Scenario,
    variations: Vec<Variation>,
) -> Result<(), String> {
    let (left, right) = pair_of(&base, &variations)?;
    let right_session = Session::new(right)?;
    state.restart(left);
    let left_scenario = state.parts().run.scenario.get_untracked();
    attach_right(state, right_session, &left_scenario, variations);
    state.parts().playback.playing.set(true);
    Ok(())
}

/// Compares the run shown, where it is, with `variations` flipped on a right side that replays the
/// same actions at the same instants up to now (the picker: nobody expects a choice of option to
/// throw away the run they were watching). Bounded as the run is: by its own length.
pub fn open_compare_here(state: AppState, variations: Vec<Variation>) -> Result<(), String> {
    let base = state.with_session(|session| session.scenario().clone());
    let (_, right) = pair_of(&base, &variations)?;
    let right_session = state.with_session(|left| replay_beside(left, right))?;
    attach_right(state, right_session, &base, variations);
    Ok(())
}

/// Shows two replayed sessions side by side (a compare share link), paused.
pub fn open_pair(state: AppState, left: Session, right: Session) -> Result<(), String> {
    if let Some(reason) = incomparable(left.scenario(), right.scenario()) {
        return Err(reason);
    }
    if left.now() != right.now() {
        return Err("the two sides are not at the same instant".to_string());
    }
    let left_scenario = left.scenario().clone();
    state.open_session(left, false);
    attach_right(state, right, &left_scenario, Vec::new());
    Ok(())
}

fn attach_right(
    state: AppState,
    right: Session,
    left_scenario: &Scenario,
    variations: Vec<Variation>,
) {
    let (left_words, right_words) = side_labels(left_scenario, right.scenario());
    let hint = watch_for(left_scenario, right.scenario());
    let scenario = right.scenario().clone();
    let partner = state.compare().make_right_side(scenario);
    partner.open_session(right, state.parts().playback.playing.get_untracked());
    let labels = SideLabels {
        left: left_words,
        right: right_words,
    };
    CompareHook::attach(state, partner, labels, variations, hint);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lesson_link_names_its_options() {
        assert_eq!(
            variations_named("fencing, redlock").unwrap(),
            vec![Variation::Fencing, Variation::Redlock]
        );
        let reason = variations_named("fencing,teleport").unwrap_err();
        assert!(
            reason.starts_with("no option called `teleport`"),
            "{reason}"
        );
        assert!(!reason.contains("`fencing`"), "no list: {reason}");
        assert_eq!(
            variations_named("fensing").unwrap_err(),
            "no option called `fensing` can be compared; did you mean `fencing`?"
        );
        assert!(example("nope.toml").is_err());
        let slip = example("fencing-pause.tom").unwrap_err();
        assert!(
            slip.ends_with("did you mean `fencing-pause.toml`?"),
            "{slip}"
        );
    }

    #[test]
    fn the_pair_is_the_base_and_the_base_flipped() {
        let base = example("fencing-pause.toml").unwrap();
        let (left, right) = pair_of(&base, &[Variation::Fencing]).unwrap();
        assert_eq!(left, base);
        assert_eq!(
            right,
            example("no-fencing-pause.toml")
                .map(|mut file| {
                    file.title = base.title.clone();
                    file
                })
                .unwrap()
        );
        assert!(pair_of(&base, &[Variation::ZkRecipe]).is_err());
    }

    /// Every compare link in the lessons opens a pair: its example exists, its options exist and fit
    /// that example's world. Lessons 5, 6, 8 and 9 each have one where they used to send the learner
    /// to the command line.
    #[test]
    fn every_lesson_compare_link_opens_a_pair() {
        let mut lessons_with_links = Vec::new();
        for (path, text) in quorumlab_sim::lesson::LESSONS {
            for (_, after) in text
                .match_indices("](compare:")
                .map(|(at, _)| text.split_at(at + 10))
            {
                let target = &after[..after.find(')').expect("a closed link")];
                let (file, names) = target.split_once('/').expect("example/options");
                let base = example(file).unwrap_or_else(|reason| panic!("{path}: {reason}"));
                let variations = variations_named(names).unwrap();
                pair_of(&base, &variations).unwrap_or_else(|reason| panic!("{path}: {reason}"));
                lessons_with_links.push(path.rsplit('/').next().unwrap().to_string());
            }
        }
        for lesson in ["05-", "06-", "08-", "09-"] {
            assert!(
                lessons_with_links
                    .iter()
                    .any(|path| path.starts_with(lesson)),
                "{lesson} {lessons_with_links:?}"
            );
        }
    }
}
