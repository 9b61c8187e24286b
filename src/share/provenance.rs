//! Where a link was made, and whether this version replays it into the same run.
//!
//! A link made by Share or Embed names the engine's behaviour version, the scenario's hash and the run's
//! fingerprint at the shared moment (`engine=…&scenario=…&expect=…`, see `view_options`). After the
//! replay, [`replay_difference`] compares: the same fingerprint means the same run, whatever version
//! made it; a different one is said in words — which version made the link, which one is replaying it,
//! both fingerprints — so an old link never silently shows another run. Links made before these keys
//! existed carry none of them and open as they always did (their recorded-link tests pin them).

use super::view_options::ViewOptions;
use quorumlab_sim::behaviour::BEHAVIOUR_VERSION;

/// What a link made here records of its own run.
pub fn made_here(view: ViewOptions, scenario_hash: u64, fingerprint: u64) -> ViewOptions {
    ViewOptions {
        made_by_behaviour: Some(BEHAVIOUR_VERSION),
        scenario_hash: Some(scenario_hash),
        fingerprint: Some(fingerprint),
        ..view
    }
}

/// Why the replayed run is not the one the link recorded, as a clause for the page's notice; `None` when
/// it is the same run or the link recorded no fingerprint.
pub fn replay_difference(
    link: &ViewOptions,
    scenario_hash: u64,
    fingerprint: u64,
) -> Option<String> {
    let expected = link.fingerprint?;
    if expected == fingerprint {
        return None;
    }
    let prints = format!("fingerprint {expected:016x} there, {fingerprint:016x} here");
    let mut sentence = match link.made_by_behaviour {
        Some(version) if version != BEHAVIOUR_VERSION => format!(
            "this link was made by engine behaviour version {version}, and this version \
             ({BEHAVIOUR_VERSION}) replays it into a different run ({prints})"
        ),
        _ => format!(
            "this link replays into a different run than the one it recorded ({prints}): it was \
             changed or damaged after it was made"
        ),
    };
    if link.scenario_hash.is_some_and(|hash| hash != scenario_hash) {
        sentence.push_str("; its settings also read differently here");
    }
    sentence.push_str(". What you see is not exactly what was shared");
    Some(sentence)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn link(version: u32, scenario_hash: u64, fingerprint: u64) -> ViewOptions {
        ViewOptions {
            made_by_behaviour: Some(version),
            ..made_here(ViewOptions::default(), scenario_hash, fingerprint)
        }
    }

    #[test]
    fn the_same_fingerprint_is_the_same_run_whichever_version_made_it() {
        assert_eq!(
            replay_difference(&link(BEHAVIOUR_VERSION, 1, 7), 1, 7),
            None
        );
        assert_eq!(
            replay_difference(&link(BEHAVIOUR_VERSION + 5, 2, 7), 1, 7),
            None
        );
        assert_eq!(
            replay_difference(&ViewOptions::default(), 1, 7),
            None,
            "an older link"
        );
    }

    #[test]
    fn another_version_that_replays_differently_is_named() {
        let sentence = replay_difference(&link(BEHAVIOUR_VERSION + 1, 1, 7), 1, 8).unwrap();
        assert!(sentence.starts_with(&format!(
            "this link was made by engine behaviour version {}, and this version ({BEHAVIOUR_VERSION})",
            BEHAVIOUR_VERSION + 1
        )));
        assert!(sentence.contains("fingerprint 0000000000000007 there, 0000000000000008 here"));
        assert!(!sentence.contains("settings"));
        assert!(sentence.ends_with("not exactly what was shared"));
    }

    #[test]
    fn the_same_version_replaying_differently_means_the_link_was_changed() {
        let sentence = replay_difference(&link(BEHAVIOUR_VERSION, 1, 7), 2, 8).unwrap();
        assert!(sentence.contains("changed or damaged"));
        assert!(sentence.contains("its settings also read differently here"));
    }
}
