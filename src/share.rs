//! Share links: a whole run — scenario settings, seed, the learner's recorded actions and the instant
//! they were looking at — packed into the URL fragment, so opening the link elsewhere replays the same
//! run to the same state, bit for bit.
//!
//! Format (version 1): `#/run/v1/<payload>`, where the payload is base64url without padding of
//!
//! ```text
//! title (length + UTF-8) · protocol · nodes · seed · duration_ms
//! · election_timeout min, max · heartbeat · network_delay min, max · drop ppm · duplicate ppm
//! · client_timeout · option bits (1 pre_vote, 2 check_quorum, 4 lease_reads)
//! · steps: count, then per step: at_ms minus the previous step's at_ms, action
//! · recorded actions: count, then per action: at µs minus the previous one's, after_events minus the
//!   previous one's, action
//! · position µs (the instant shown) · FNV-1a 32-bit checksum of everything before it (4 bytes, LE)
//! ```
//!
//! Every number is an unsigned LEB128 varint (signed ones zigzagged first); there are no floats, so a
//! link decodes the same on every platform. Times are stored as differences, which keeps them small and
//! makes "times go backwards" unrepresentable. Decoding checks the checksum first (a cut-off or mistyped
//! link is refused at once), then every field against the scenario format's own limits (see
//! [`validate`]), then — when the run is opened — that each recorded action fits the run (see
//! [`replay`]). Anything wrong is a [`ShareError`] naming the field; nothing panics.
//!
//! No compression: the varint body is already a few bytes per action, and a deflate implementation
//! would cost more of the first-load budget than it saves in link length.

mod codec;
mod error;
pub mod replay;
pub mod validate;
mod wire;

pub use error::ShareError;

use quorumlab_sim::history::RecordedAction;
use quorumlab_sim::scenario::Scenario;
use quorumlab_sim::time::SimTime;

/// What every share fragment starts with; the version follows.
pub const LINK_PREFIX: &str = "#/run/";
pub const CURRENT_VERSION: &str = "v1";
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
}

/// The fragment (`#/run/v1/…`) for `run`, or why it cannot be shared.
pub fn encode_fragment(run: &SharedRun) -> Result<String, ShareError> {
    validate::run(run)?;
    let payload = wire::base64url_encode(&codec::encode(run));
    Ok(format!("{LINK_PREFIX}{CURRENT_VERSION}/{payload}"))
}

/// Whether `fragment` (what `location.hash` holds) is meant as a share link at all.
pub fn is_share_fragment(fragment: &str) -> bool {
    fragment.starts_with(LINK_PREFIX)
}

/// Reads and validates a fragment made by [`encode_fragment`].
pub fn decode_fragment(fragment: &str) -> Result<SharedRun, ShareError> {
    let rest = fragment
        .strip_prefix(LINK_PREFIX)
        .ok_or(ShareError::NotAShareLink)?;
    let (version, payload) = rest.split_once('/').unwrap_or((rest, ""));
    if version != CURRENT_VERSION {
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
    let bytes = wire::base64url_decode(payload)?;
    let run = codec::decode(&bytes)?;
    validate::run(&run)?;
    Ok(run)
}

#[cfg(test)]
mod tests;
