//! Compare share links: both sides' runs in one fragment, `#/compare/v1/<left>.<right>`, each side the
//! payload a plain v4 run link carries (`#/run/v4/<payload>`: its scenario, its recorded actions, the
//! instant shown). The two sides must share the seed, the length of the run, the node count, the
//! instant shown and the actions (the same ones at the same instants); a link where they do not is
//! refused with the reason. Old run links are not touched: they keep their own prefix and decoder.

use crate::session::Session;
use crate::share::replay::{capture, open};
use crate::share::{decode_fragment, encode_fragment, SharedRun, CURRENT_VERSION, LINK_PREFIX};
use quorumlab_sim::compare::pair::incomparable;

/// What every compare fragment starts with.
pub const COMPARE_PREFIX: &str = "#/compare/v1/";
/// Between the two sides' payloads (not in the base64url alphabet).
const SIDE_SEPARATOR: char = '.';

pub fn is_compare_fragment(fragment: &str) -> bool {
    fragment.starts_with(COMPARE_PREFIX)
}

fn run_prefix() -> String {
    format!("{LINK_PREFIX}{CURRENT_VERSION}/")
}

/// The fragment for two sessions shown side by side, or why they cannot be shared.
pub fn encode_pair(left: &Session, right: &Session) -> Result<String, String> {
    let payload = |session: &Session, side: &str| {
        encode_fragment(&capture(session))
            .map(|fragment| fragment[run_prefix().len()..].to_string())
            .map_err(|error| format!("the {side} side cannot be shared: {error}"))
    };
    let (left, right) = (payload(left, "left")?, payload(right, "right")?);
    Ok(format!("{COMPARE_PREFIX}{left}{SIDE_SEPARATOR}{right}"))
}

/// Both sides' runs from a fragment made by [`encode_pair`], checked to fit one clock.
pub fn decode_pair(fragment: &str) -> Result<(SharedRun, SharedRun), String> {
    let payloads = fragment
        .strip_prefix(COMPARE_PREFIX)
        .ok_or("this is not a compare link")?;
    let (left, right) = payloads
        .split_once(SIDE_SEPARATOR)
        .ok_or("the link holds only one side")?;
    let side = |payload: &str, name: &str| {
        decode_fragment(&format!("{}{payload}", run_prefix()))
            .map_err(|error| format!("the {name} side: {error}"))
    };
    let (left, right) = (side(left, "left")?, side(right, "right")?);
    if let Some(reason) = incomparable(&left.scenario, &right.scenario) {
        return Err(reason);
    }
    if left.position != right.position {
        return Err("the two sides are shown at different instants".to_string());
    }
    let moves = |run: &SharedRun| {
        run.actions
            .iter()
            .map(|recorded| (recorded.at, recorded.action.clone()))
            .collect::<Vec<_>>()
    };
    if moves(&left) != moves(&right) {
        return Err("the two sides do not share the same actions at the same instants".to_string());
    }
    Ok((left, right))
}

/// Both sides replayed to the shared instant.
pub fn open_pair_link(fragment: &str) -> Result<(Session, Session), String> {
    let (left, right) = decode_pair(fragment)?;
    let left = open(left).map_err(|error| format!("the left side: {error}"))?;
    let right = open(right).map_err(|error| format!("the right side: {error}"))?;
    Ok((left, right))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compare::open::{example, pair_of};
    use quorumlab_sim::action::{Action, NodeTarget};
    use quorumlab_sim::compare::variation::Variation;
    use quorumlab_sim::time::SimTime;

    fn compared_sessions() -> (Session, Session) {
        let base = example("fencing-pause.toml").unwrap();
        let (left, right) = pair_of(&base, &[Variation::Fencing]).unwrap();
        let (mut left, mut right) = (Session::new(left).unwrap(), Session::new(right).unwrap());
        for session in [&mut left, &mut right] {
            session.advance_to(SimTime::from_ms(700));
            session.apply(&Action::Crash {
                target: NodeTarget::Leader,
            });
            session.advance_to(SimTime::from_ms(4_000));
        }
        (left, right)
    }

    #[test]
    fn a_compare_link_reopens_both_sides_at_the_same_hashes() {
        let (left, right) = compared_sessions();
        let fragment = encode_pair(&left, &right).unwrap();
        assert!(is_compare_fragment(&fragment));
        assert!(!crate::share::is_share_fragment(&fragment));
        let (opened_left, opened_right) = open_pair_link(&fragment).unwrap();
        assert_eq!(opened_left.trace_hash(), left.trace_hash());
        assert_eq!(opened_right.trace_hash(), right.trace_hash());
        assert_ne!(opened_left.trace_hash(), opened_right.trace_hash());
        assert_eq!(opened_left.now(), SimTime::from_ms(4_000));
    }

    #[test]
    fn a_link_whose_sides_do_not_share_a_clock_is_refused() {
        let (left, mut right) = compared_sessions();
        right.advance_to(SimTime::from_ms(4_500));
        let fragment = encode_pair(&left, &right).unwrap();
        let reason = decode_pair(&fragment).unwrap_err();
        assert!(reason.contains("different instants"), "{reason}");
        let cut = &fragment[..fragment.find(SIDE_SEPARATOR).unwrap()];
        assert!(decode_pair(cut).unwrap_err().contains("only one side"));
        let (left, _) = compared_sessions();
        let alone = Session::new(example("fencing-pause.toml").unwrap()).unwrap();
        let fragment = encode_pair(&left, &alone).unwrap();
        let reason = decode_pair(&fragment).unwrap_err();
        assert!(
            reason.contains("instants") || reason.contains("actions"),
            "{reason}"
        );
        let mangled = format!("{COMPARE_PREFIX}AAAA{SIDE_SEPARATOR}BBBB");
        assert!(decode_pair(&mangled)
            .unwrap_err()
            .starts_with("the left side"));
    }
}
