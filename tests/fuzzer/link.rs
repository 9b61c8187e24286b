//! Share links opened up for mutation: a v4 link's payload is base64url of a postcard body and its
//! CRC-32, so a flipped byte in the text is almost always refused by the checksum. To reach the body
//! decoder and the replay, the body is mutated under the checksum and sealed again, as a forger
//! would (this is the format of `src/share.rs`, written out here on purpose: the test must not lean on
//! the code it tests).

use super::mutate::mutate_bytes;
use super::random::Random;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use crc::{Crc, CRC_32_ISO_HDLC};

const PREFIX: &str = "#/run/v4/";
const CHECKSUM: Crc<u32> = Crc::<u32>::new(&CRC_32_ISO_HDLC);

/// The postcard body of a v4 link (checksum removed), if `link` is one.
pub fn body(link: &str) -> Option<Vec<u8>> {
    let payload = link.strip_prefix(PREFIX)?;
    let mut bytes = URL_SAFE_NO_PAD.decode(payload).ok()?;
    let length = bytes.len().checked_sub(4)?;
    bytes.truncate(length);
    Some(bytes)
}

/// A v4 link carrying `body` with a correct checksum.
pub fn sealed(body: &[u8]) -> String {
    let mut bytes = body.to_vec();
    bytes.extend_from_slice(&CHECKSUM.checksum(body).to_le_bytes());
    format!("{PREFIX}{}", URL_SAFE_NO_PAD.encode(bytes))
}

/// `link` with its body mutated and the checksum made right again.
pub fn resealed_mutation(random: &mut Random, link: &str, other: &str) -> String {
    let Some(mut bytes) = body(link) else {
        return link.to_string();
    };
    let other_bytes = body(other).unwrap_or_default();
    mutate_bytes(random, &mut bytes, &other_bytes);
    sealed(&bytes)
}

/// Random bytes sealed as a v4 body, or random text after the prefix.
pub fn random_link(random: &mut Random) -> String {
    let count = random.between(0, 300) as usize;
    let bytes = random.bytes(count);
    match random.percent(70) {
        true => sealed(&bytes),
        false => format!("{PREFIX}{}", String::from_utf8_lossy(&bytes)),
    }
}
