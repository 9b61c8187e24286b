//! Completion codes opened up for mutation, as share links are (`link.rs`): a code is `QLC1.` and
//! base64url of a postcard body and a 4-byte checksum (the low bytes of the body's XXH64), so a flipped
//! byte in the text is refused by the checksum. To reach the body decoder and the replay, the body is
//! mutated under the checksum and sealed again, as a forger would (the format written out here on
//! purpose); and real codes are forged field by field (another seed, claims added, a run played on for
//! an hour, runs moved to other steps).

use super::mutate::mutate_bytes;
use super::random::Random;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use quorumlab_sim::completion::{decode, encode};

const PREFIX: &str = "QLC1.";

fn body(code: &str) -> Option<Vec<u8>> {
    let mut bytes = URL_SAFE_NO_PAD.decode(code.strip_prefix(PREFIX)?).ok()?;
    let length = bytes.len().checked_sub(4)?;
    bytes.truncate(length);
    Some(bytes)
}

fn sealed(body: &[u8]) -> String {
    let mut bytes = body.to_vec();
    let sum = xxhash_rust::xxh64::xxh64(body, 0).to_le_bytes();
    bytes.extend_from_slice(&sum[..4]);
    format!("{PREFIX}{}", URL_SAFE_NO_PAD.encode(bytes))
}

/// `code` with its body mutated and the checksum made right again.
pub fn resealed_mutation(random: &mut Random, code: &str, other: &str) -> String {
    let Some(mut bytes) = body(code) else {
        return code.to_string();
    };
    let other_bytes = body(other).unwrap_or_default();
    mutate_bytes(random, &mut bytes, &other_bytes);
    sealed(&bytes)
}

/// Random bytes sealed as a body, or random text after the prefix.
pub fn random_code(random: &mut Random) -> String {
    let count = random.between(0, 300) as usize;
    let bytes = random.bytes(count);
    match random.percent(70) {
        true => sealed(&bytes),
        false => format!("{PREFIX}{}", String::from_utf8_lossy(&bytes)),
    }
}

/// A real code with one field forged.
pub fn forged_code(random: &mut Random, code: &str) -> String {
    let Ok(mut forged) = decode(code) else {
        return code.to_string();
    };
    let extreme = *random.pick(&[0, 1, 3_600_000_000, 3_600_000_001, u64::MAX]);
    match random.below(7) {
        0 => forged.runs[0].seed = random.next_u64(),
        1 => forged
            .steps
            .iter_mut()
            .for_each(|step| step.claimed_met = true),
        2 => forged.runs[0].played_to_us = extreme,
        3 => forged.runs[0].first_step = random.between(0, 70) as u16,
        4 => forged
            .steps
            .iter_mut()
            .for_each(|step| step.ticked_us = Some(extreme)),
        5 => {
            let settings = random.pick(&[
                "protocol = \"paxos\"\nnodes = 51\nduration_ms = 3600000\n",
                "nodes = 3",
                "x",
            ]);
            forged.runs[0].settings_toml = Some(settings.to_string());
        }
        _ => forged.runs[0].began_us = extreme,
    }
    encode(&forged)
}
