//! The run's fingerprint: one 64-bit hash over every trace record, equal in two runs exactly when they
//! recorded the same things (so share links, trace files and the tests can prove a replay is faithful).
//!
//! Two ways of computing it exist, and a world uses one for its whole life:
//!
//! - **Compact** (every new run): each record is written in postcard's binary serde format — varints and
//!   length-prefixed strings, fields in declaration order, no text formatting — into a small buffer that
//!   is hashed with XXH64 a few kilobytes at a time. Profiles of the engine showed that formatting every
//!   record as JSON only to hash it byte by byte with FNV-1a took more than half the engine's time;
//!   this does the same job at a fraction of the cost, and both formats are specified byte for byte, so
//!   native and wasm agree.
//! - **JSON FNV-1a** (the fingerprint of trace files of version 1 and 2): FNV-1a 64 over each record's
//!   JSON line. Kept so that those files still prove their replays, and so the tests can show that the
//!   runs themselves did not change when the fingerprint did (the old pinned values still hold).

use crate::base::hash::Fnv;
use serde::Serialize;
use xxhash_rust::xxh64::Xxh64;

/// Bytes gathered before they are hashed: large enough that XXH64 runs over long stretches, small
/// enough that cloning a world for a snapshot stays cheap.
const PENDING_BYTES: usize = 4_096;

/// Which function a world's fingerprint uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum FingerprintKind {
    #[default]
    Compact,
    /// FNV-1a 64 over JSON lines: trace files of version 1 and 2 carry this one.
    JsonFnv,
}

#[derive(Clone)]
pub enum Fingerprint {
    Compact { hashed: Xxh64, pending: Vec<u8> },
    JsonFnv(Fnv),
}

impl Default for Fingerprint {
    fn default() -> Self {
        Fingerprint::new(FingerprintKind::Compact)
    }
}

impl Fingerprint {
    pub fn new(kind: FingerprintKind) -> Fingerprint {
        match kind {
            FingerprintKind::Compact => Fingerprint::Compact {
                hashed: Xxh64::new(0),
                pending: Vec::with_capacity(PENDING_BYTES + 256),
            },
            FingerprintKind::JsonFnv => Fingerprint::JsonFnv(Fnv::new()),
        }
    }

    pub fn kind(&self) -> FingerprintKind {
        match self {
            Fingerprint::Compact { .. } => FingerprintKind::Compact,
            Fingerprint::JsonFnv(_) => FingerprintKind::JsonFnv,
        }
    }

    /// Adds one trace record: `record` whole (the JSON fingerprint hashes its trace-file line) and as its
    /// parts, `at_us` and `event` (the compact one writes those: postcard cannot write serde's flattened
    /// maps). Generic so that this module need not know the trace's types.
    pub fn add(&mut self, record: &impl Serialize, at_us: u64, event: &impl Serialize) {
        match self {
            Fingerprint::Compact { hashed, pending } => {
                postcard::serialize_with_flavor(&at_us, AppendTo(pending)).expect(SERIALIZES);
                postcard::serialize_with_flavor(event, AppendTo(pending)).expect(SERIALIZES);
                if pending.len() >= PENDING_BYTES {
                    hashed.update(pending);
                    pending.clear();
                }
            }
            Fingerprint::JsonFnv(fnv) => {
                // Through `dyn Write`, as `Trace::write_jsonl` writes: the wasm then holds one JSON
                // serializer for every trace type instead of two (about 20 KB before wasm-opt).
                let out: &mut dyn std::io::Write = fnv;
                serde_json::to_writer(out, record).expect(SERIALIZES);
                fnv.write_bytes(b"\n");
            }
        }
    }

    pub fn value(&self) -> u64 {
        match self {
            Fingerprint::Compact { hashed, pending } => {
                let mut hashed = hashed.clone();
                hashed.update(pending);
                hashed.digest()
            }
            Fingerprint::JsonFnv(fnv) => fnv.finish(),
        }
    }
}

impl std::fmt::Debug for Fingerprint {
    // XXH64's state has no Debug of its own; the kind and the value say all a reader needs.
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(formatter, "{:?} {:016x}", self.kind(), self.value())
    }
}

/// Postcard's output appended to a buffer that is reused for every record (its own `to_extend` grows
/// a vector one byte at a time, which the profile showed).
struct AppendTo<'a>(&'a mut Vec<u8>);

impl postcard::ser_flavors::Flavor for AppendTo<'_> {
    type Output = ();

    fn try_push(&mut self, byte: u8) -> postcard::Result<()> {
        self.0.push(byte);
        Ok(())
    }

    fn try_extend(&mut self, bytes: &[u8]) -> postcard::Result<()> {
        self.0.extend_from_slice(bytes);
        Ok(())
    }

    fn finalize(self) -> postcard::Result<()> {
        Ok(())
    }
}

const SERIALIZES: &str = "trace records serialize: no maps of unknown length, no floats";

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Serialize)]
    struct Part {
        label: &'static str,
        count: u64,
    }

    fn compact_of(records: u64) -> (u64, Vec<u8>) {
        let mut fingerprint = Fingerprint::new(FingerprintKind::Compact);
        let mut all_bytes = Vec::new();
        for count in 0..records {
            let part = Part {
                label: "vote",
                count,
            };
            fingerprint.add(&part, count * 10, &part);
            all_bytes.extend(postcard::to_allocvec(&(count * 10)).unwrap());
            all_bytes.extend(postcard::to_allocvec(&part).unwrap());
        }
        (fingerprint.value(), all_bytes)
    }

    #[test]
    fn the_compact_print_is_xxh64_of_every_record_however_it_was_buffered() {
        // 2 000 records are several times the pending buffer, so hashing happened in many pieces.
        let (value, all_bytes) = compact_of(2_000);
        assert!(all_bytes.len() > 3 * PENDING_BYTES);
        assert_eq!(value, xxhash_rust::xxh64::xxh64(&all_bytes, 0));
        assert_ne!(value, compact_of(1_999).0);
    }

    #[test]
    fn the_json_print_is_fnv_of_the_trace_file_lines() {
        let part = Part {
            label: "vote",
            count: 7,
        };
        let mut fingerprint = Fingerprint::new(FingerprintKind::JsonFnv);
        fingerprint.add(&part, 0, &part);
        let mut expected = Fnv::new();
        expected.write_bytes(b"{\"label\":\"vote\",\"count\":7}\n");
        assert_eq!(fingerprint.value(), expected.finish());
        assert_eq!(fingerprint.kind(), FingerprintKind::JsonFnv);
    }
}
