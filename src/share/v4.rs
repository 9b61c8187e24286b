//! The v4 body: [`LinkBody`] encoded by postcard, then a CRC-32 of those bytes (4 bytes, LE). Reading
//! checks the checksum before anything else, refuses trailing bytes, and accepts only the spelling
//! postcard itself writes (it would also read overlong varints), so a run has exactly one link.

use super::body::LinkBody;
use super::{bounded, ShareError};
use crc::{Crc, Table, CRC_32_ISO_HDLC};

/// CRC-32 as zlib, PNG and Ethernet compute it, one table lookup per byte (a link is small).
const CHECKSUM: Crc<u32, Table<1>> = Crc::<u32, Table<1>>::new(&CRC_32_ISO_HDLC);

pub fn checksum(bytes: &[u8]) -> [u8; 4] {
    CHECKSUM.checksum(bytes).to_le_bytes()
}

pub fn encode(body: &LinkBody) -> Vec<u8> {
    // Serializing plain structs into a growable buffer cannot fail; an empty body would be refused
    // when read, never misread.
    let mut bytes = postcard::to_allocvec(body).unwrap_or_default();
    let checksum = checksum(&bytes);
    bytes.extend_from_slice(&checksum);
    bytes
}

pub fn decode(sealed: &[u8]) -> Result<LinkBody, ShareError> {
    let Some(body_length) = sealed.len().checked_sub(4) else {
        return Err(ShareError::Damaged);
    };
    let (bytes, checksum) = sealed.split_at(body_length);
    if self::checksum(bytes) != checksum {
        return Err(ShareError::Damaged);
    }
    bounded::clear_exceeded();
    let (body, rest) = postcard::take_from_bytes::<LinkBody>(bytes).map_err(undecodable)?;
    if !rest.is_empty() {
        return Err(ShareError::TrailingBytes { count: rest.len() });
    }
    if postcard::to_allocvec(&body).ok().as_deref() != Some(bytes) {
        return Err(ShareError::Undecodable {
            problem: "a number is not written in its shortest form",
        });
    }
    Ok(body)
}

fn undecodable(error: postcard::Error) -> ShareError {
    if let Some(limit) = bounded::take_exceeded() {
        return limit;
    }
    use postcard::Error::*;
    let problem = match error {
        DeserializeUnexpectedEnd => "it ends in the middle of a value (the link was cut short?)",
        DeserializeBadVarint => "a number is too large or malformed",
        DeserializeBadBool | DeserializeBadOption => "a yes/no value is neither 0 nor 1",
        DeserializeBadUtf8 | DeserializeBadChar => "a text is not valid UTF-8",
        DeserializeBadEnum | SerdeDeCustom => {
            "an unknown code (protocol, action kind, node target …)"
        }
        _ => "it is not a v4 run",
    };
    ShareError::Undecodable { problem }
}
