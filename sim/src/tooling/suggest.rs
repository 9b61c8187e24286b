//! "Did you mean …?": what an error says when a file, a link or a command line names something that
//! does not exist (a checkpoint, a key, an action, a protocol, a lesson).
//!
//! Such errors used to list every valid name. That was helpful while the lists were short, but they
//! grow with the project: the 54 checkpoint names made a lesson error 1,353 characters long, past the
//! fuzzer's 1,000-character rule for anything a user is shown. A misspelling is almost always a letter
//! or two away from the name meant, so the error names the few closest valid names instead, and when
//! nothing is close it says how many there are and where they are written down. Either way its length
//! no longer depends on how many names exist.
//!
//! Closeness is the optimal-string-alignment distance (insertions, deletions, substitutions and swaps of
//! neighbouring letters, from the `strsim` crate) after folding case and treating `-` and `_` alike, so
//! `lock_service` finds `lock-service`. A name counts as close when that distance is small for its
//! length, or when one name begins or ends the other (`leader` finds `leader_changed`, and
//! `calm-five.toml` finds `lessons/scenarios/calm-five.toml`). Every parser of the
//! engine and of the app words these hints through [`did_you_mean`], so they read alike everywhere.

/// The most names a hint offers.
pub const MAX_SUGGESTIONS: usize = 3;

/// Names longer than this are not compared: no valid name is near so long, and the distance costs
/// time in proportion to the product of the two lengths (the fuzzer feeds names of megabytes).
const MAX_COMPARED_CHARS: usize = 80;

/// The shortest beginning or end that counts as naming a longer name (`lea` for `leader`, not `l`).
const MIN_PREFIX_CHARS: usize = 3;

/// The valid names closest to `unknown`, best first: at most [`MAX_SUGGESTIONS`], each close enough
/// to be a likely slip of the keyboard, in `known`'s order where two are equally close.
pub fn closest<'a>(unknown: &str, known: impl IntoIterator<Item = &'a str>) -> Vec<&'a str> {
    if unknown.chars().count() > MAX_COMPARED_CHARS {
        return Vec::new();
    }
    let folded = fold(unknown);
    let mut close: Vec<(usize, usize, &'a str)> = known
        .into_iter()
        .enumerate()
        .filter_map(|(order, name)| {
            let distance = closeness(&folded, &fold(name))?;
            Some((distance, order, name))
        })
        .collect();
    close.sort();
    let mut offered: Vec<&'a str> = Vec::new();
    for (_, _, name) in close {
        if offered.len() == MAX_SUGGESTIONS {
            break;
        }
        if !offered.contains(&name) {
            offered.push(name);
        }
    }
    offered
}

/// The words an error adds after naming `unknown`, one of:
///
/// - `did you mean `a`?` (or `` `a` or `b` ``, or `` `a`, `b` or `c` ``) when some names are close;
/// - `expected `a` or `b`` when there are no more than [`MAX_SUGGESTIONS`] names at all;
/// - `nothing close among the 54 checkpoints (listed in …)` otherwise.
///
/// `what` is one name's kind in the singular ("checkpoint"; an `s` makes the plural) and `listed_in`
/// says where a reader finds every name (a document, a source file, a folder).
pub fn did_you_mean<'a>(
    unknown: &str,
    known: impl IntoIterator<Item = &'a str>,
    what: &str,
    listed_in: &str,
) -> String {
    let known: Vec<&str> = known.into_iter().collect();
    let count = known.len();
    if count <= MAX_SUGGESTIONS {
        return match known.is_empty() {
            true => format!("there are no {what}s here"),
            false => format!("expected {}", either(&known)),
        };
    }
    let close = closest(unknown, known);
    if close.is_empty() {
        return format!("nothing close among the {count} {what}s (listed in {listed_in})");
    }
    format!("did you mean {}?", either(&close))
}

/// `` `a` ``, `` `a` or `b` ``, `` `a`, `b` or `c` ``.
fn either(names: &[&str]) -> String {
    let quoted: Vec<String> = names.iter().map(|name| format!("`{name}`")).collect();
    match quoted.as_slice() {
        [] => String::new(),
        [only] => only.clone(),
        [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
    }
}

/// Lower case, with `-` and `_` the same letter: the slips that are not typing mistakes at all.
fn fold(name: &str) -> String {
    name.chars()
        .map(|character| match character {
            '-' => '_',
            other => other.to_ascii_lowercase(),
        })
        .collect()
}

/// The distance between two folded names if they are close, `None` if not.
fn closeness(unknown: &str, known: &str) -> Option<usize> {
    let (unknown_chars, known_chars) = (unknown.chars().count(), known.chars().count());
    let allowed_edits = allowed_edits(unknown_chars.max(known_chars));
    let (shorter, longer) = match unknown_chars <= known_chars {
        true => (unknown, known),
        false => (known, unknown),
    };
    let one_ends_the_other = unknown_chars.min(known_chars) >= MIN_PREFIX_CHARS
        && (longer.starts_with(shorter) || longer.ends_with(shorter));
    // The distance is at least the difference in length: a cheap way to skip most names.
    if unknown_chars.abs_diff(known_chars) > allowed_edits && !one_ends_the_other {
        return None;
    }
    let distance = strsim::osa_distance(unknown, known);
    (distance <= allowed_edits || one_ends_the_other).then_some(distance)
}

/// How many edits still read as a slip: one in a short name, up to three in a long one (a quarter of
/// the letters), so `crsh` finds `crash` but `pause` does not find `cut`.
fn allowed_edits(length_chars: usize) -> usize {
    (length_chars / 4).clamp(1, 3)
}

#[cfg(test)]
mod tests {
    use super::*;

    const ACTIONS: &[&str] = &[
        "crash",
        "restart",
        "pause",
        "resume",
        "partition",
        "heal",
        "cut",
    ];

    #[test]
    fn a_slip_of_one_letter_finds_the_name_meant() {
        assert_eq!(closest("crsh", ACTIONS.iter().copied()), vec!["crash"]);
        assert_eq!(closest("pasue", ACTIONS.iter().copied()), vec!["pause"]);
        assert_eq!(closest("Heal", ACTIONS.iter().copied()), vec!["heal"]);
    }

    #[test]
    fn dashes_and_underscores_are_the_same_letter() {
        let protocols = ["raft", "lock-service", "redis-lock"];
        assert_eq!(
            closest("lock_service", protocols.iter().copied()),
            vec!["lock-service"]
        );
    }

    #[test]
    fn a_beginning_finds_the_names_it_begins_closest_first() {
        let names = [
            "leader_elected",
            "leader_changed",
            "term_at_least",
            "leader",
        ];
        assert_eq!(
            closest("leader_", names.iter().copied()),
            vec!["leader", "leader_elected", "leader_changed"]
        );
        // Two letters are too few to mean anything in particular.
        assert!(closest("le", names.iter().copied()).is_empty());
    }

    #[test]
    fn an_end_finds_the_names_it_ends() {
        let files = [
            "lessons/scenarios/calm-five.toml",
            "lessons/scenarios/fencing.toml",
        ];
        assert_eq!(
            closest("calm-five.toml", files.iter().copied()),
            vec!["lessons/scenarios/calm-five.toml"]
        );
    }

    #[test]
    fn unrelated_words_find_nothing() {
        assert!(closest("teleport", ACTIONS.iter().copied()).is_empty());
        assert!(closest("", ACTIONS.iter().copied()).is_empty());
        // As long as some names but nothing like them: not a slip.
        assert!(closest("xxxxxxx", ACTIONS.iter().copied()).is_empty());
    }

    #[test]
    fn at_most_three_are_offered_and_none_twice() {
        let names = ["aab", "aac", "aad", "aae", "aab"];
        let found = closest("aaa", names.iter().copied());
        assert_eq!(found, vec!["aab", "aac", "aad"]);
    }

    #[test]
    fn a_huge_name_is_not_compared_at_all() {
        let huge = "crash".repeat(100_000);
        assert!(closest(&huge, ACTIONS.iter().copied()).is_empty());
    }

    #[test]
    fn the_hint_names_the_close_ones_or_says_where_to_look() {
        let hint = |unknown| did_you_mean(unknown, ACTIONS.iter().copied(), "action", "the guide");
        assert_eq!(hint("crsh"), "did you mean `crash`?");
        assert_eq!(
            hint("re"),
            "nothing close among the 7 actions (listed in the guide)"
        );
        assert_eq!(
            hint("res"),
            "did you mean `resume` or `restart`?",
            "a beginning two names share"
        );
    }

    #[test]
    fn a_set_of_three_or_fewer_is_named_whole() {
        let modes = ["log", "direct"];
        assert_eq!(
            did_you_mean("lgo", modes.iter().copied(), "mode", "x"),
            "expected `log` or `direct`"
        );
        assert_eq!(
            did_you_mean("x", std::iter::empty(), "argument", "x"),
            "there are no arguments here"
        );
    }
}
