//! Share links: a whole run — scenario settings, seed, the learner's recorded actions and the instant
//! they were looking at — packed into the URL fragment, so opening the link elsewhere replays the same
//! run to the same state, bit for bit.
//!
//! Format (version 4): `#/run/v4/<payload>`, where the payload is base64url without padding of
//!
//! ```text
//! postcard(LinkBody) · CRC-32 (ISO-HDLC, as zlib computes it) of those bytes (4 bytes, LE)
//! ```
//!
//! [`body::LinkBody`] is the link's own plain data — title · protocol (Raft, or a coordination
//! workload with its lock options and its own settings) · nodes · seed · duration_ms · timing · Raft
//! options · steps (each: ms since the previous step, action) · recorded actions (each: µs and events
//! since the previous one, action) · position µs · the lesson, if any (id, open step, µs it began).
//! postcard writes each field in order: unsigned numbers as LEB128 varints, signed ones zigzagged,
//! yes/no as one byte, an enum as its variant's position, a list or text as its length then the
//! items. There are no floats, so a link decodes the same on every platform. Times are differences,
//! which keeps them small and makes "times go backwards" unrepresentable. Node numbers in steps and
//! actions are zero-based here and count every actor: in a coordination world the workers `A`, `B`,
//! ... and the `store` follow the servers. Plain runs and runs inside a lesson are both written as v4.
//!
//! A world or option that none of the protocol's positional variants can hold is written by its
//! registry name, its keys named as its scenario tables name them ([`registered`]); every run the
//! positional variants hold keeps the bytes it had before.
//!
//! Links from earlier builds — v1 (before coordination protocols), v2 (with them) and v3 (v2 plus a
//! lesson) — are still read, by [`legacy`], into the same [`body::LinkBody`]; nothing writes them.
//!
//! Decoding checks the checksum first (a cut-off or mistyped link is refused at once), then reads the
//! body with every list bounded before it is allocated (see [`bounded`]), then checks every field
//! against the scenario format's own limits (see [`validate`]), then — when the run is opened — that
//! each recorded action fits the run (see [`replay`]). Anything wrong is a [`ShareError`] naming the
//! problem; nothing panics.
//!
//! No compression: the varint body is already a few bytes per action, and a deflate implementation
//! would cost more of the first-load budget than it saves in link length.

mod body;
mod body_convert;
mod bounded;
pub mod embed_snippet;
mod error;
mod legacy;
mod payload;
pub mod provenance;
mod registered;
pub mod replay;
mod v4;
pub mod validate;
pub mod view_options;

pub use error::ShareError;

use quorumlab_sim::history::RecordedAction;
use quorumlab_sim::scenario::Scenario;
use quorumlab_sim::time::SimTime;

/// What every share fragment starts with; the version follows.
pub const LINK_PREFIX: &str = "#/run/";
/// The version every link is written in (plain runs and runs inside a lesson alike).
pub const CURRENT_VERSION: &str = "v4";
/// Longest payload accepted, in characters (about 190 KB of data; browsers take far longer URLs).
pub const MAX_PAYLOAD_CHARS: usize = 262_144;

/// One run as a link carries it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SharedRun {
    pub scenario: Scenario,
    /// Every action recorded on the run's timeline (including a recorded future past `position`).
    pub actions: Vec<RecordedAction>,
    /// The simulated instant the sharer was looking at.
    pub position: SimTime,
    /// The lesson the sharer was in, if any.
    pub lesson: Option<SharedLesson>,
}

/// Where a learner was in a lesson: which lesson, the open step, and when that step began (its
/// checkpoint is judged from that moment).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SharedLesson {
    pub id: String,
    /// 0-based; equal to the step count when the lesson was complete.
    pub step: usize,
    pub step_began: SimTime,
}

/// The fragment (`#/run/v4/…`) for `run`, or why it cannot be shared.
pub fn encode_fragment(run: &SharedRun) -> Result<String, ShareError> {
    validate::run(run)?;
    validate::linkable(run)?;
    let payload = payload::encode(&v4::encode(&body_convert::from_run(run)));
    Ok(format!("{LINK_PREFIX}{CURRENT_VERSION}/{payload}"))
}

/// Whether `fragment` (what `location.hash` holds) is meant as a share link at all.
pub fn is_share_fragment(fragment: &str) -> bool {
    fragment.starts_with(LINK_PREFIX)
}

/// Reads and validates a fragment made by [`encode_fragment`] or by an earlier build (v1–v3).
pub fn decode_fragment(fragment: &str) -> Result<SharedRun, ShareError> {
    // What follows the payload (view options, where the link was made) is not the run.
    let (fragment, _) = view_options::split(fragment);
    let rest = fragment
        .strip_prefix(LINK_PREFIX)
        .ok_or(ShareError::NotAShareLink)?;
    let (version, payload) = rest.split_once('/').unwrap_or((rest, ""));
    let legacy_version = legacy::Version::from_name(version);
    if version != CURRENT_VERSION && legacy_version.is_none() {
        return Err(ShareError::UnsupportedVersion {
            found: version.chars().take(16).collect(),
        });
    }
    if payload.len() > MAX_PAYLOAD_CHARS {
        return Err(ShareError::TooLong {
            length: payload.len(),
            max: MAX_PAYLOAD_CHARS,
        });
    }
    let bytes = payload::decode(payload)?;
    let body = match legacy_version {
        Some(legacy_version) => legacy::decode(&bytes, legacy_version)?,
        None => v4::decode(&bytes)?,
    };
    let run = body_convert::into_run(body)?;
    validate::run(&run)?;
    Ok(run)
}

#[cfg(test)]
mod tests;
