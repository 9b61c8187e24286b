//! Lesson addresses: `#/lesson/<id>` opens a lesson at its first step, `#/lesson/<id>/step/<n>` at step
//! n (counted from 1, as the panel shows them). The address follows the learner, so a bookmark or a
//! link pasted into a talk opens the same place.
//!
//! Reading a fragment only checks its shape; whether the lesson exists and has that step is checked
//! against the course ([`LessonRoute::resolve`]), so each refusal can say exactly what was wrong.

use quorumlab_sim::lesson::Lesson;
use quorumlab_sim::scenario::shown;
use quorumlab_sim::suggest::did_you_mean;

pub const ROUTE_PREFIX: &str = "#/lesson/";

/// A lesson address, as read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LessonRoute {
    pub id: String,
    /// 1-based.
    pub step: usize,
}

/// The address of `step` (1-based) of lesson `id`; the first step has the short form.
pub fn lesson_fragment(id: &str, step: usize) -> String {
    if step <= 1 {
        format!("{ROUTE_PREFIX}{id}")
    } else {
        format!("{ROUTE_PREFIX}{id}/step/{step}")
    }
}

/// Whether `fragment` is meant as a lesson address at all.
pub fn is_lesson_fragment(fragment: &str) -> bool {
    fragment.starts_with(ROUTE_PREFIX)
}

/// Reads `#/lesson/<id>` or `#/lesson/<id>/step/<n>`; the error says what is wrong with it.
pub fn parse_route(fragment: &str) -> Result<LessonRoute, String> {
    let rest = fragment
        .strip_prefix(ROUTE_PREFIX)
        .ok_or_else(|| format!("an address for a lesson starts with `{ROUTE_PREFIX}`"))?;
    let rest = rest.strip_suffix('/').unwrap_or(rest);
    let mut parts = rest.split('/');
    let id = parts.next().unwrap_or_default();
    if id.is_empty() {
        return Err("the address names no lesson".into());
    }
    if id.len() > 64
        || !id.chars().all(|character| {
            character.is_ascii_lowercase() || character.is_ascii_digit() || character == '-'
        })
    {
        return Err(format!(
            "`{}` is not a lesson id (lowercase letters, digits and dashes)",
            shown(id)
        ));
    }
    let step = match (parts.next(), parts.next(), parts.next()) {
        (None, _, _) => 1,
        (Some("step"), Some(number), None) => match number.parse::<usize>() {
            Ok(step) if step >= 1 => step,
            _ => {
                return Err(format!(
                    "step `{}` is not a step number (1, 2, ...)",
                    shown(number)
                ));
            }
        },
        _ => {
            return Err(
                "after the lesson id the address may only hold `/step/<number>`".to_string(),
            )
        }
    };
    Ok(LessonRoute {
        id: id.to_string(),
        step,
    })
}

impl LessonRoute {
    /// The position in `lessons` of the lesson this names, with its 0-based step; or why not.
    pub fn resolve(&self, lessons: &[Lesson]) -> Result<(usize, usize), String> {
        let Some(index) = lessons.iter().position(|lesson| lesson.id == self.id) else {
            let ids = lessons.iter().map(|lesson| lesson.id.as_str());
            return Err(format!(
                "there is no lesson `{}`; {}",
                shown(&self.id),
                did_you_mean(&self.id, ids, "lesson", "the course")
            ));
        };
        let steps = lessons[index].steps.len();
        if self.step > steps {
            return Err(format!(
                "lesson `{}` has {steps} steps, so there is no step {}",
                self.id, self.step
            ));
        }
        Ok((index, self.step - 1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn route(id: &str, step: usize) -> LessonRoute {
        LessonRoute {
            id: id.to_string(),
            step,
        }
    }

    #[test]
    fn errors_quote_an_address_escaped() {
        // Found by the fuzzer: a newline or a bell in the address reached the notice raw.
        for address in ["#/lesson/\n", "#/lesson/a\u{7}b", "#/lesson/x/step/\u{1b}"] {
            let error = parse_route(address).unwrap_err();
            assert!(!error.chars().any(char::is_control), "{error:?}");
        }
    }

    #[test]
    fn both_forms_parse_and_round_trip() {
        assert_eq!(
            parse_route("#/lesson/fencing-tokens"),
            Ok(route("fencing-tokens", 1))
        );
        assert_eq!(
            parse_route("#/lesson/fencing-tokens/"),
            Ok(route("fencing-tokens", 1))
        );
        assert_eq!(
            parse_route("#/lesson/leader-election/step/3"),
            Ok(route("leader-election", 3))
        );
        for (id, step) in [("a-b", 1), ("a-b", 2), ("x9", 12)] {
            assert_eq!(parse_route(&lesson_fragment(id, step)), Ok(route(id, step)));
        }
        assert_eq!(lesson_fragment("a", 1), "#/lesson/a");
    }

    #[test]
    fn malformed_addresses_say_what_is_wrong() {
        let error = |fragment| parse_route(fragment).unwrap_err();
        assert!(error("#/lesson/").contains("names no lesson"));
        assert!(error("#/lesson/Fencing").contains("`Fencing` is not a lesson id"));
        assert!(error("#/lesson/a/step/0").contains("step `0` is not a step number"));
        assert!(error("#/lesson/a/step/two").contains("step `two`"));
        assert!(error("#/lesson/a/step").contains("`/step/<number>`"));
        assert!(error("#/lesson/a/step/2/more").contains("`/step/<number>`"));
        assert!(error("#/run/v2/abc").contains("starts with"));
        assert!(is_lesson_fragment("#/lesson/a") && !is_lesson_fragment("#/run/v2/a"));
    }

    #[test]
    fn resolving_checks_the_lesson_and_its_step_count() {
        let lessons = crate::lesson::course().unwrap();
        let first = &lessons[0];
        let steps = first.steps.len();
        assert_eq!(
            route(&first.id, steps).resolve(&lessons),
            Ok((0, steps - 1))
        );
        let too_far = route(&first.id, steps + 1).resolve(&lessons).unwrap_err();
        assert!(too_far.contains(&format!("has {steps} steps")), "{too_far}");
        assert_eq!(
            route("no-such-lesson", 1).resolve(&lessons).unwrap_err(),
            format!(
                "there is no lesson `no-such-lesson`; nothing close among the {} lessons (listed \
                 in the course)",
                lessons.len()
            )
        );
        let slip = first.id.replacen('e', "", 1);
        assert_eq!(
            route(&slip, 1).resolve(&lessons).unwrap_err(),
            format!("there is no lesson `{slip}`; did you mean `{}`?", first.id)
        );
    }
}
