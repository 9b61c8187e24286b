//! How a shared run is *shown*, kept apart from what the run *is*: the playback speed, presenter mode,
//! whether the fault schedule is open, and for a run embedded in another page (an iframe in a slide or
//! a course page) the embedded layout, how much of the page the viewer may use, autoplay and theme. An instructor who prepares a demo at 0.5× in presenter mode
//! with the schedule showing wants the link to reopen it that way, but none of it changes the run, so
//! it must not change the run's bytes either: every recorded link keeps opening exactly as before.
//!
//! So these options follow the payload as a small query inside the fragment,
//! `#/run/v4/<payload>?speed=0.5&presenter=on&schedule=open`, written only when they differ from a
//! fresh page's. The payload's base64url alphabet has no `?`, so the split is unambiguous, and a link
//! without the query is read exactly as it always was.
//!
//! The speed is written as the share of real time the page's speed label shows ("0.5× real time"),
//! because that is the number the instructor saw. Every value is checked like any other input: an
//! unknown key, a repeated one or a value out of range refuses the link with a sentence naming it.

use super::ShareError;
use crate::context::playback::Kiosk;
use crate::session::{MAX_SPEED, MIN_SPEED, SIMULATED_US_PER_WALL_MS_AT_1X};
use crate::theme::ThemeChoice;

/// Separates the run's payload from the view options inside the fragment.
const QUERY_MARK: char = '?';
/// Longest view query accepted, in characters (the longest real one is under 50).
const MAX_QUERY_CHARS: usize = 200;
const KNOWN_KEYS: &str =
    "speed, presenter, schedule, embed, controls, autoplay, theme, engine, scenario, expect";
/// Highest behaviour version a link may name (a guard against absurd numbers, far above any release).
const MAX_BEHAVIOUR_VERSION: u32 = 1_000_000;

/// How the page shows a run, as far as a link says: `None` leaves that part of the page as it is, so a
/// link from a page at the default speed does not slow down a tab that plays faster.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ViewOptions {
    /// The playback speed in the page's own unit (1.0 = the default, a tenth of real time).
    pub speed: Option<f64>,
    pub presenter: Option<bool>,
    pub schedule_open: Option<bool>,
    pub embedded: Option<bool>,
    pub kiosk: Option<Kiosk>,
    /// Play at once instead of opening paused, as every shared run otherwise does.
    pub autoplay: Option<bool>,
    /// Light or dark for this page only: an embed must not change the viewer's remembered choice.
    pub theme: Option<ThemeChoice>,
    /// Where the link was made: the engine's behaviour version, the scenario's hash and the run's
    /// fingerprint at the shared moment, which opening compares (`provenance`).
    pub made_by_behaviour: Option<u32>,
    pub scenario_hash: Option<u64>,
    pub fingerprint: Option<u64>,
}

/// The fragment's run part and its view query, if it has one.
pub fn split(fragment: &str) -> (&str, Option<&str>) {
    match fragment.split_once(QUERY_MARK) {
        Some((run, query)) => (run, Some(query)),
        None => (fragment, None),
    }
}

impl ViewOptions {
    /// What a link made from this page should carry: only what differs from a fresh page.
    pub fn of_page(speed: f64, presenter: bool, schedule_open: bool) -> ViewOptions {
        ViewOptions {
            speed: ((speed - 1.0).abs() > 1e-9).then_some(speed),
            presenter: presenter.then_some(true),
            schedule_open: schedule_open.then_some(true),
            ..ViewOptions::default()
        }
    }

    /// The query to append to a run's fragment (with its `?`), or nothing when it names nothing.
    pub fn query(&self) -> String {
        let mut pairs = Vec::new();
        if let Some(speed) = self.speed {
            pairs.push(format!("speed={}", real_time_share_text(speed)));
        }
        if let Some(presenter) = self.presenter {
            pairs.push(format!(
                "presenter={}",
                if presenter { "on" } else { "off" }
            ));
        }
        if let Some(open) = self.schedule_open {
            pairs.push(format!("schedule={}", if open { "open" } else { "closed" }));
        }
        if let Some(embedded) = self.embedded {
            pairs.push(format!("embed={}", if embedded { "on" } else { "off" }));
        }
        if let Some(kiosk) = self.kiosk {
            pairs.push(format!("controls={}", kiosk_word(kiosk)));
        }
        if let Some(autoplay) = self.autoplay {
            pairs.push(format!("autoplay={}", if autoplay { "on" } else { "off" }));
        }
        if let Some(theme) = self.theme {
            pairs.push(format!("theme={}", theme.as_str()));
        }
        if let Some(version) = self.made_by_behaviour {
            pairs.push(format!("engine={version}"));
        }
        if let Some(hash) = self.scenario_hash {
            pairs.push(format!("scenario={hash:016x}"));
        }
        if let Some(hash) = self.fingerprint {
            pairs.push(format!("expect={hash:016x}"));
        }
        if pairs.is_empty() {
            String::new()
        } else {
            format!("{QUERY_MARK}{}", pairs.join("&"))
        }
    }

    /// Whether the run plays as soon as it opens: asked for, or implied by hidden controls (nobody
    /// could press play), unless autoplay is switched off by name.
    pub fn plays_at_once(&self) -> bool {
        self.autoplay.unwrap_or(self.kiosk == Some(Kiosk::Hidden))
    }

    /// Reads a view query (without its `?`); an empty one names nothing.
    pub fn parse(query: &str) -> Result<ViewOptions, ShareError> {
        if query.chars().count() > MAX_QUERY_CHARS {
            return Err(refused(format!(
                "they are longer than {MAX_QUERY_CHARS} characters"
            )));
        }
        let mut options = ViewOptions::default();
        let mut seen: Vec<&str> = Vec::new();
        for pair in query.split('&').filter(|pair| !pair.is_empty()) {
            let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
            if seen.contains(&key) {
                return Err(refused(format!("`{}` is given twice", shown(key))));
            }
            seen.push(key);
            match key {
                "speed" => options.speed = Some(parse_speed(value)?),
                "presenter" => options.presenter = Some(parse_switch(key, value, "on", "off")?),
                "schedule" => {
                    options.schedule_open = Some(parse_switch(key, value, "open", "closed")?)
                }
                "embed" => options.embedded = Some(parse_switch(key, value, "on", "off")?),
                "controls" => options.kiosk = Some(parse_kiosk(value)?),
                "autoplay" => options.autoplay = Some(parse_switch(key, value, "on", "off")?),
                "theme" => options.theme = Some(parse_theme(value)?),
                "engine" => options.made_by_behaviour = Some(parse_behaviour(value)?),
                "scenario" => options.scenario_hash = Some(parse_hash(key, value)?),
                "expect" => options.fingerprint = Some(parse_hash(key, value)?),
                _ => {
                    return Err(refused(format!(
                        "`{}` is not one (they are {KNOWN_KEYS})",
                        shown(key)
                    )))
                }
            }
        }
        Ok(options)
    }
}

fn real_time_share(speed: f64) -> f64 {
    speed * SIMULATED_US_PER_WALL_MS_AT_1X / 1_000.0
}

/// Four significant digits are finer than the slider's steps; trailing zeros go.
fn real_time_share_text(speed: f64) -> String {
    let share = real_time_share(speed);
    let decimals = (4 - share.log10().floor() as i32 - 1).clamp(0, 8) as usize;
    let text = format!("{share:.decimals$}");
    if text.contains('.') {
        text.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        text
    }
}

fn parse_speed(value: &str) -> Result<f64, ShareError> {
    let lowest = real_time_share(MIN_SPEED);
    let highest = real_time_share(MAX_SPEED);
    let share: f64 = value
        .parse()
        .ok()
        .filter(|share: &f64| share.is_finite())
        .ok_or_else(|| {
            refused(format!(
                "speed `{}` is not a number (it is the share of real time, as in speed=0.2)",
                shown(value)
            ))
        })?;
    if !(lowest..=highest).contains(&share) {
        return Err(refused(format!(
            "speed {share} is outside {lowest} to {highest} times real time"
        )));
    }
    Ok(share * 1_000.0 / SIMULATED_US_PER_WALL_MS_AT_1X)
}

fn parse_switch(key: &str, value: &str, yes: &str, no: &str) -> Result<bool, ShareError> {
    match value {
        _ if value == yes => Ok(true),
        _ if value == no => Ok(false),
        _ => Err(refused(format!(
            "{key} must be `{yes}` or `{no}`, not `{}`",
            shown(value)
        ))),
    }
}

fn kiosk_word(kiosk: Kiosk) -> &'static str {
    match kiosk {
        Kiosk::Full => "full",
        Kiosk::Locked => "locked",
        Kiosk::Hidden => "hidden",
    }
}

fn parse_kiosk(value: &str) -> Result<Kiosk, ShareError> {
    [Kiosk::Full, Kiosk::Locked, Kiosk::Hidden]
        .into_iter()
        .find(|kiosk| kiosk_word(*kiosk) == value)
        .ok_or_else(|| {
            refused(format!(
                "controls must be `full`, `locked` or `hidden`, not `{}`",
                shown(value)
            ))
        })
}

fn parse_theme(value: &str) -> Result<ThemeChoice, ShareError> {
    ThemeChoice::ALL
        .into_iter()
        .find(|choice| choice.as_str() == value)
        .ok_or_else(|| {
            refused(format!(
                "theme must be `system`, `light` or `dark`, not `{}`",
                shown(value)
            ))
        })
}

fn parse_behaviour(value: &str) -> Result<u32, ShareError> {
    value
        .parse()
        .ok()
        .filter(|version| (1..=MAX_BEHAVIOUR_VERSION).contains(version))
        .ok_or_else(|| {
            refused(format!(
                "engine `{}` is not a behaviour version (a whole number from 1)",
                shown(value)
            ))
        })
}

fn parse_hash(key: &str, value: &str) -> Result<u64, ShareError> {
    let well_formed = value.len() == 16 && value.bytes().all(|byte| byte.is_ascii_hexdigit());
    well_formed
        .then(|| u64::from_str_radix(value, 16).ok())
        .flatten()
        .ok_or_else(|| {
            refused(format!(
                "{key} `{}` is not 16 hexadecimal digits",
                shown(value)
            ))
        })
}

fn refused(problem: String) -> ShareError {
    ShareError::BadViewOption { problem }
}

/// At most 24 characters of what the link says, so a pasted essay does not become the notice.
fn shown(text: &str) -> String {
    quorumlab_sim::scenario::shown(&text.chars().take(24).collect::<String>())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fresh_pages_options_add_nothing_to_a_link() {
        assert_eq!(ViewOptions::of_page(1.0, false, false).query(), "");
        assert_eq!(ViewOptions::parse(""), Ok(ViewOptions::default()));
        assert_eq!(split("#/run/v4/abc"), ("#/run/v4/abc", None));
    }

    #[test]
    fn every_option_survives_the_round_trip_through_the_fragment() {
        for speed in [MIN_SPEED, 0.37, 1.0, 2.5, 7.123_456, MAX_SPEED] {
            let options = ViewOptions::of_page(speed, true, speed > 1.0);
            let fragment = format!("#/run/v4/abc{}", options.query());
            let (run, query) = split(&fragment);
            assert_eq!(run, "#/run/v4/abc");
            let read = ViewOptions::parse(query.unwrap()).unwrap();
            let read_speed = read.speed.unwrap_or(1.0);
            assert!(
                (read_speed - speed).abs() / speed < 1e-3,
                "{speed} came back as {read_speed}"
            );
            assert_eq!(read.presenter, Some(true));
            assert_eq!(read.schedule_open, (speed > 1.0).then_some(true));
        }
    }

    #[test]
    fn the_speed_is_written_as_the_share_of_real_time_the_label_shows() {
        assert_eq!(
            ViewOptions::of_page(5.0, false, false).query(),
            "?speed=0.5"
        );
        assert_eq!(ViewOptions::parse("speed=0.2").unwrap().speed, Some(2.0));
        let off = ViewOptions::parse("presenter=off&schedule=closed").unwrap();
        assert_eq!(
            (off.presenter, off.schedule_open, off.speed),
            (Some(false), Some(false), None)
        );
    }

    #[test]
    fn an_embeds_options_round_trip_in_a_fixed_order() {
        let options = ViewOptions {
            embedded: Some(true),
            kiosk: Some(Kiosk::Locked),
            autoplay: Some(true),
            theme: Some(ThemeChoice::Light),
            made_by_behaviour: Some(3),
            scenario_hash: Some(0x00ab),
            fingerprint: Some(u64::MAX),
            ..ViewOptions::of_page(2.0, false, false)
        };
        let query = options.query();
        assert_eq!(
            query,
            "?speed=0.2&embed=on&controls=locked&autoplay=on&theme=light&engine=3\
             &scenario=00000000000000ab&expect=ffffffffffffffff"
        );
        assert_eq!(ViewOptions::parse(&query[1..]), Ok(options));
    }

    #[test]
    fn bad_options_are_refused_with_a_sentence_naming_them() {
        let problem = |query: &str| match ViewOptions::parse(query) {
            Err(ShareError::BadViewOption { problem }) => problem,
            other => panic!("{query}: expected a refusal, got {other:?}"),
        };
        assert!(
            problem("zoom=2").contains("`zoom` is not one (they are speed, presenter, schedule,")
        );
        assert!(problem("controls=kiosk").contains("controls must be `full`, `locked` or `hidden`"));
        assert!(
            problem("theme=blue").contains("theme must be `system`, `light` or `dark`, not `blue`")
        );
        assert!(problem("embed=1").contains("embed must be `on` or `off`"));
        assert!(problem("engine=0").contains("engine `0` is not a behaviour version"));
        assert!(problem("engine=v2").contains("is not a behaviour version"));
        assert!(problem("expect=12ab").contains("expect `12ab` is not 16 hexadecimal digits"));
        assert!(problem("scenario=+123456789abcdef").contains("not 16 hexadecimal digits"));
        assert!(problem("speed=fast").contains("speed `fast` is not a number"));
        assert!(problem("speed=NaN").contains("is not a number"));
        assert!(problem("speed=900").contains("outside"));
        assert!(problem("speed=0").contains("outside"));
        assert!(problem("presenter=yes").contains("presenter must be `on` or `off`, not `yes`"));
        assert!(problem("schedule").contains("schedule must be `open` or `closed`"));
        assert!(problem("presenter=on&presenter=off").contains("given twice"));
        assert!(problem(&"a".repeat(300)).contains("longer than"));
    }
}
