//! Experiment addresses: `#/experiment` opens the experiment sheet on its first preset, and
//! `#/experiment/<preset>` on that one, so a lesson step or an instructor's slide can link straight
//! to "run this". Only the shape is read here; an unknown preset is refused by name.

use super::presets::{preset, Preset, PRESETS};
use quorumlab_sim::scenario::shown;

pub const EXPERIMENT_PREFIX: &str = "#/experiment";

/// Whether `fragment` is meant as an experiment address at all.
pub fn is_experiment_fragment(fragment: &str) -> bool {
    fragment == EXPERIMENT_PREFIX || fragment.starts_with("#/experiment/")
}

/// The address of a preset.
pub fn experiment_fragment(preset_id: &str) -> String {
    format!("{EXPERIMENT_PREFIX}/{preset_id}")
}

/// The preset an experiment address names; the error says what is wrong with it.
pub fn parse_experiment_route(fragment: &str) -> Result<&'static Preset, String> {
    if !is_experiment_fragment(fragment) {
        return Err(format!(
            "an experiment address starts with `{EXPERIMENT_PREFIX}`"
        ));
    }
    let rest = fragment[EXPERIMENT_PREFIX.len()..].trim_matches('/');
    if rest.is_empty() {
        return Ok(&PRESETS[0]);
    }
    preset(rest).ok_or_else(|| {
        let known: Vec<&str> = PRESETS.iter().map(|preset| preset.id).collect();
        format!(
            "no experiment is called `{}` (there are: {})",
            shown(rest),
            known.join(", ")
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_name_presets() {
        assert_eq!(
            parse_experiment_route("#/experiment").unwrap().id,
            PRESETS[0].id
        );
        assert_eq!(
            parse_experiment_route("#/experiment/figure16-top")
                .unwrap()
                .id,
            "figure16-top"
        );
        assert_eq!(
            parse_experiment_route(&experiment_fragment("this-run"))
                .unwrap()
                .id,
            "this-run"
        );
        let refused = parse_experiment_route("#/experiment/figure17").unwrap_err();
        assert!(
            refused.contains("no experiment is called `figure17`"),
            "{refused}"
        );
        assert!(!is_experiment_fragment("#/experimental"));
        assert!(parse_experiment_route("#/gallery").is_err());
    }
}
