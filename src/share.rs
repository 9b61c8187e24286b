//! Share links: a whole run — scenario settings, seed, the learner's recorded actions and the instant
//! they were looking at — packed into the URL fragment, so opening the link elsewhere replays the same
//! run to the same state, bit for bit.
//!
//! Format (version 2): `#/run/v2/<payload>`, where the payload is base64url without padding of
//!
//! ```text
//! title (length + UTF-8) · protocol · nodes · seed · duration_ms
//! · election_timeout min, max · heartbeat · network_delay min, max · drop ppm · duplicate ppm
//! · client_timeout · option bits (1 pre_vote, 2 check_quorum, 4 lease_reads)
//! · coordination: 0 none, or 1 lock-service, 2 redis-lock, 3 redlock, 4 scheduler, 5 zookeeper,
//!   6 work-queue, then workers · lease_ttl_ms · renew_ms · think_ms · work_ms · op_timeout_ms
//!   · initial_count · drift_allowance_ms · lock bits (1 fencing, 2 check_lease_before_write,
//!   4 idempotency_key, 8 unchecked_release), then for scheduler: mode (0 none, 1 lock-every-run,
//!   2 leader-election, 3 leader-fencing) · minute_ms; zookeeper: recipe (0 herd, 1 sequential);
//!   work-queue: partitioned (0/1) · accounts
//! · steps: count, then per step: at_ms minus the previous step's at_ms, action
//! · recorded actions: count, then per action: at µs minus the previous one's, after_events minus the
//!   previous one's, action
//! · position µs (the instant shown) · FNV-1a 32-bit checksum of everything before it (4 bytes, LE)
//! ```
//!
//! Version 1 (`#/run/v1/…`, links made before coordination protocols existed) is the same without the
//! coordination block; it is still read, as a plain Raft run. Version 3 (`#/run/v3/…`) is v2 with a
//! lesson block between the position and the checksum: 0 none, or 1 · lesson id (length + UTF-8) · the
//! open step (0-based) · the µs it began; a link made inside a lesson reopens that lesson at that step.
//! A plain run is still written as v2 (older builds open it), a run inside a lesson as v3. Node numbers in steps
//! and actions count every actor: in a coordination world the workers `A`, `B`, ... and the `store`
//! follow the servers.
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
mod lesson_block;
pub mod replay;
pub mod validate;
mod wire;

pub use error::ShareError;

use quorumlab_sim::history::RecordedAction;
use quorumlab_sim::scenario::Scenario;
use quorumlab_sim::time::SimTime;

/// What every share fragment starts with; the version follows.
pub const LINK_PREFIX: &str = "#/run/";
/// The version a plain run is written in (a run inside a lesson is written as v3).
pub const CURRENT_VERSION: &str = "v2";
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
    /// The lesson the sharer was in, if any (written as v3).
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

/// The fragment (`#/run/v2/…`, or `#/run/v3/…` for a run inside a lesson) for `run`, or why it
/// cannot be shared.
pub fn encode_fragment(run: &SharedRun) -> Result<String, ShareError> {
    validate::run(run)?;
    let payload = wire::base64url_encode(&codec::encode(run));
    let version = match codec::version_for(run) {
        codec::Version::V3 => "v3",
        _ => CURRENT_VERSION,
    };
    Ok(format!("{LINK_PREFIX}{version}/{payload}"))
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
    let Some(version) = codec::Version::from_name(version) else {
        return Err(ShareError::UnsupportedVersion {
            found: version.chars().take(16).collect(),
        });
    };
    if payload.len() > MAX_PAYLOAD_CHARS {
        return Err(ShareError::TooLong {
            length: payload.len(),
            max: MAX_PAYLOAD_CHARS,
        });
    }
    let bytes = wire::base64url_decode(payload)?;
    let run = codec::decode(&bytes, version)?;
    validate::run(&run)?;
    Ok(run)
}

#[cfg(test)]
mod tests;
