//! Reading links made before v4: `#/run/v1/…`, `#/run/v2/…` and `#/run/v3/…`, whose bodies were
//! written field by field as LEB128 varints and sealed with an FNV-1a checksum. Nothing writes them
//! any more; links people saved keep opening, into the same [`LinkBody`] a v4 link gives.
//!
//! v2 layout (see `tests/recorded_links.rs` for real links of every version):
//!
//! ```text
//! title (length + UTF-8) · protocol (0 raft) · nodes · seed · duration_ms
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
//!   previous one's, action (a code, 0 crash … 11 request, then its arguments; a target is 0 for the
//!   leader or the one-based node number)
//! · position µs · FNV-1a 32-bit checksum of everything before it (4 bytes, LE)
//! ```
//!
//! v1 is the same without the coordination block (a plain Raft run); v3 is v2 with a lesson block
//! between the position and the checksum (see [`lesson_block`]).

mod actions;
mod lesson_block;
mod reader;
mod settings;

#[cfg(test)]
pub use reader::fnv1a32;

use super::body::LinkBody;
use super::body::LinkProtocol;
use super::ShareError;
use reader::Reader;

/// Which layout a legacy body has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Version {
    V1,
    V2,
    V3,
}

impl Version {
    pub fn from_name(name: &str) -> Option<Version> {
        match name {
            "v1" => Some(Version::V1),
            "v2" => Some(Version::V2),
            "v3" => Some(Version::V3),
            _ => None,
        }
    }
}

/// The body sealed in `bytes` (checksum first), read in `version`'s layout.
pub fn decode(bytes: &[u8], version: Version) -> Result<LinkBody, ShareError> {
    let mut reader = Reader::unsealed(bytes)?;
    let settings = settings::read_settings(&mut reader)?;
    let protocol = match version {
        Version::V1 => LinkProtocol::Raft,
        Version::V2 | Version::V3 => settings::read_coordination(&mut reader)?,
    };
    let steps = actions::read_steps(&mut reader)?;
    let actions = actions::read_actions(&mut reader)?;
    let position_us = reader.unsigned("position")?;
    let lesson = match version {
        Version::V3 => lesson_block::read(&mut reader)?,
        Version::V1 | Version::V2 => None,
    };
    reader.finish()?;
    Ok(LinkBody {
        title: settings.title,
        protocol,
        nodes: settings.nodes,
        seed: settings.seed,
        duration_ms: settings.duration_ms,
        timing: settings.timing,
        options: settings.options,
        steps,
        actions,
        position_us,
        lesson,
    })
}
