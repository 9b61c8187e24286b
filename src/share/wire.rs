//! The byte level of a share link: LEB128 varints, zigzag for signed numbers, a 32-bit checksum, and
//! base64url without padding. Readers never trust a length or a number: every read is bounded and
//! reports which field it was reading when the bytes ran out or made no sense.

use super::error::ShareError;

/// Longest varint: ten 7-bit groups cover a u64.
const MAX_VARINT_BYTES: usize = 10;
const BASE64URL_ALPHABET: &[u8; 64] =
    b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

#[derive(Default)]
pub struct Writer {
    bytes: Vec<u8>,
}

impl Writer {
    pub fn unsigned(&mut self, mut value: u64) {
        loop {
            let low = (value & 0x7f) as u8;
            value >>= 7;
            if value == 0 {
                self.bytes.push(low);
                return;
            }
            self.bytes.push(low | 0x80);
        }
    }

    pub fn signed(&mut self, value: i64) {
        self.unsigned(zigzag(value));
    }

    pub fn flag(&mut self, value: bool) {
        self.unsigned(u64::from(value));
    }

    pub fn text(&mut self, text: &str) {
        self.unsigned(text.len() as u64);
        self.bytes.extend_from_slice(text.as_bytes());
    }

    /// Raw bytes, for tests that build damaged links.
    #[cfg(test)]
    pub fn raw(&mut self, bytes: &[u8]) {
        self.bytes.extend_from_slice(bytes);
    }

    /// The bytes written so far followed by their checksum.
    pub fn sealed(mut self) -> Vec<u8> {
        let checksum = fnv1a32(&self.bytes);
        self.bytes.extend_from_slice(&checksum.to_le_bytes());
        self.bytes
    }
}

/// Reads the body of a link. `place` prefixes field names in errors ("action 12 ").
pub struct Reader<'a> {
    bytes: &'a [u8],
    offset: usize,
    pub place: String,
}

impl<'a> Reader<'a> {
    /// Checks and strips the trailing checksum, so a damaged link is refused before any field is read.
    pub fn unsealed(sealed: &'a [u8]) -> Result<Reader<'a>, ShareError> {
        let Some(body_length) = sealed.len().checked_sub(4) else {
            return Err(ShareError::Damaged);
        };
        let (body, checksum) = sealed.split_at(body_length);
        let expected = u32::from_le_bytes([checksum[0], checksum[1], checksum[2], checksum[3]]);
        if fnv1a32(body) != expected {
            return Err(ShareError::Damaged);
        }
        Ok(Reader {
            bytes: body,
            offset: 0,
            place: String::new(),
        })
    }

    pub fn field_name(&self, field: &str) -> String {
        format!("{}{field}", self.place)
    }

    pub fn remaining(&self) -> usize {
        self.bytes.len() - self.offset
    }

    /// Minimal LEB128 only: an overlong or overflowing encoding is an error, so every value has exactly
    /// one spelling and a decoded link re-encodes to the same bytes.
    pub fn unsigned(&mut self, field: &str) -> Result<u64, ShareError> {
        let mut value: u64 = 0;
        for index in 0..MAX_VARINT_BYTES {
            let Some(&byte) = self.bytes.get(self.offset) else {
                return Err(ShareError::Truncated {
                    field: self.field_name(field),
                });
            };
            self.offset += 1;
            let low = u64::from(byte & 0x7f);
            let overflows = index == MAX_VARINT_BYTES - 1 && byte > 1;
            let overlong = index > 0 && byte == 0;
            if overflows || overlong {
                return Err(ShareError::BadNumber {
                    field: self.field_name(field),
                });
            }
            value |= low << (7 * index);
            if byte & 0x80 == 0 {
                return Ok(value);
            }
        }
        Err(ShareError::BadNumber {
            field: self.field_name(field),
        })
    }

    pub fn signed(&mut self, field: &str) -> Result<i64, ShareError> {
        Ok(unzigzag(self.unsigned(field)?))
    }

    /// A number that must fit `max` (inclusive) before it is even stored.
    pub fn unsigned_at_most(&mut self, field: &str, max: u64) -> Result<u64, ShareError> {
        let value = self.unsigned(field)?;
        if value > max {
            return Err(ShareError::OutOfRange {
                field: self.field_name(field),
                value: value.to_string(),
                expected: format!("at most {max}"),
            });
        }
        Ok(value)
    }

    /// A count of items that follow; each item takes at least one byte, so a count larger than what is
    /// left cannot be honest and is refused before anything is allocated.
    pub fn count(&mut self, field: &str, max: usize) -> Result<usize, ShareError> {
        let count = self.unsigned(field)?;
        if count > max as u64 {
            return Err(ShareError::TooMany {
                field: self.field_name(field),
                count,
                max: max as u64,
            });
        }
        if count > self.remaining() as u64 {
            return Err(ShareError::Truncated {
                field: self.field_name(field),
            });
        }
        Ok(count as usize)
    }

    pub fn flag(&mut self, field: &str) -> Result<bool, ShareError> {
        match self.unsigned(field)? {
            0 => Ok(false),
            1 => Ok(true),
            code => Err(ShareError::UnknownCode {
                field: self.field_name(field),
                code,
            }),
        }
    }

    pub fn text(&mut self, field: &str, max_bytes: usize) -> Result<String, ShareError> {
        let length = self.unsigned(field)?;
        if length > max_bytes as u64 {
            return Err(ShareError::TooMany {
                field: self.field_name(field),
                count: length,
                max: max_bytes as u64,
            });
        }
        let length = length as usize;
        if length > self.remaining() {
            return Err(ShareError::Truncated {
                field: self.field_name(field),
            });
        }
        let bytes = &self.bytes[self.offset..self.offset + length];
        self.offset += length;
        String::from_utf8(bytes.to_vec()).map_err(|_| ShareError::BadText {
            field: self.field_name(field),
        })
    }

    pub fn finish(&self) -> Result<(), ShareError> {
        match self.remaining() {
            0 => Ok(()),
            count => Err(ShareError::TrailingBytes { count }),
        }
    }
}

fn zigzag(value: i64) -> u64 {
    ((value << 1) ^ (value >> 63)) as u64
}

fn unzigzag(value: u64) -> i64 {
    ((value >> 1) as i64) ^ -((value & 1) as i64)
}

/// FNV-1a, 32 bits: enough to tell a cut-off or mistyped link from a real one (not a security measure).
pub fn fnv1a32(bytes: &[u8]) -> u32 {
    let mut hash: u32 = 0x811c_9dc5;
    for &byte in bytes {
        hash ^= u32::from(byte);
        hash = hash.wrapping_mul(0x0100_0193);
    }
    hash
}

pub fn base64url_encode(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let group = chunk
            .iter()
            .enumerate()
            .fold(0u32, |group, (index, &byte)| {
                group | (u32::from(byte) << (16 - 8 * index))
            });
        for index in 0..=chunk.len() {
            let sextet = (group >> (18 - 6 * index)) & 0x3f;
            out.push(char::from(BASE64URL_ALPHABET[sextet as usize]));
        }
    }
    out
}

pub fn base64url_decode(text: &str) -> Result<Vec<u8>, ShareError> {
    if text.len() % 4 == 1 {
        return Err(ShareError::BadLength { length: text.len() });
    }
    let mut bytes = Vec::with_capacity(text.len() / 4 * 3 + 2);
    let mut group: u32 = 0;
    let mut bits = 0;
    for (position, character) in text.chars().enumerate() {
        let sextet = sextet_of(character).ok_or(ShareError::BadCharacter {
            character,
            position,
        })?;
        group = (group << 6) | sextet;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            bytes.push((group >> bits) as u8);
            group &= (1 << bits) - 1;
        }
    }
    // Bits left over must be zero: otherwise the last character was changed.
    if group != 0 {
        return Err(ShareError::Damaged);
    }
    Ok(bytes)
}

fn sextet_of(character: char) -> Option<u32> {
    let value = match character {
        'A'..='Z' => character as u32 - 'A' as u32,
        'a'..='z' => character as u32 - 'a' as u32 + 26,
        '0'..='9' => character as u32 - '0' as u32 + 52,
        '-' => 62,
        '_' => 63,
        _ => return None,
    };
    Some(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sealed_numbers(values: &[u64]) -> Vec<u8> {
        let mut writer = Writer::default();
        for &value in values {
            writer.unsigned(value);
        }
        writer.sealed()
    }

    #[test]
    fn varints_round_trip_at_every_width() {
        let values = [
            0,
            1,
            127,
            128,
            300,
            16_383,
            16_384,
            u32::MAX as u64,
            u64::MAX,
        ];
        let sealed = sealed_numbers(&values);
        let mut reader = Reader::unsealed(&sealed).unwrap();
        for value in values {
            assert_eq!(reader.unsigned("n").unwrap(), value);
        }
        reader.finish().unwrap();
    }

    #[test]
    fn signed_values_round_trip_through_zigzag() {
        for value in [0, -1, 1, -500, 500, i64::MIN, i64::MAX] {
            assert_eq!(unzigzag(zigzag(value)), value);
        }
        assert_eq!(zigzag(-1), 1, "small negatives stay small");
    }

    #[test]
    fn overlong_and_overflowing_varints_are_refused() {
        let mut overlong = Writer::default();
        overlong.bytes.extend_from_slice(&[0x80, 0x00]);
        let sealed = overlong.sealed();
        let error = Reader::unsealed(&sealed).unwrap().unsigned("seed");
        assert_eq!(
            error,
            Err(ShareError::BadNumber {
                field: "seed".into()
            })
        );

        let mut overflowing = Writer::default();
        overflowing.bytes.extend_from_slice(&[0xff; 9]);
        overflowing.bytes.push(0x02);
        let sealed = overflowing.sealed();
        let error = Reader::unsealed(&sealed).unwrap().unsigned("seed");
        assert_eq!(
            error,
            Err(ShareError::BadNumber {
                field: "seed".into()
            })
        );
    }

    #[test]
    fn a_changed_byte_breaks_the_checksum() {
        let mut sealed = sealed_numbers(&[1, 2, 3]);
        sealed[1] ^= 0x04;
        assert!(matches!(
            Reader::unsealed(&sealed),
            Err(ShareError::Damaged)
        ));
        assert!(matches!(
            Reader::unsealed(&[1, 2]),
            Err(ShareError::Damaged)
        ));
    }

    #[test]
    fn counts_cannot_promise_more_than_the_bytes_hold() {
        let sealed = sealed_numbers(&[1_000, 1]);
        let mut reader = Reader::unsealed(&sealed).unwrap();
        assert_eq!(
            reader.count("actions", 5_000),
            Err(ShareError::Truncated {
                field: "actions".into()
            })
        );
        let sealed = sealed_numbers(&[6_000]);
        let mut reader = Reader::unsealed(&sealed).unwrap();
        assert!(matches!(
            reader.count("actions", 5_000),
            Err(ShareError::TooMany {
                count: 6_000,
                max: 5_000,
                ..
            })
        ));
    }

    #[test]
    fn base64url_matches_the_rfc_examples_without_padding() {
        // RFC 4648 section 10 test vectors, padding removed.
        let cases = [
            ("", ""),
            ("f", "Zg"),
            ("fo", "Zm8"),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg"),
            ("fooba", "Zm9vYmE"),
            ("foobar", "Zm9vYmFy"),
        ];
        for (plain, encoded) in cases {
            assert_eq!(base64url_encode(plain.as_bytes()), encoded);
            assert_eq!(base64url_decode(encoded).unwrap(), plain.as_bytes());
        }
        assert_eq!(base64url_encode(&[0xfb, 0xff]), "-_8");
    }

    #[test]
    fn base64url_refuses_foreign_characters_and_impossible_lengths() {
        assert_eq!(
            base64url_decode("Zm9v+g"),
            Err(ShareError::BadCharacter {
                character: '+',
                position: 4
            })
        );
        assert_eq!(
            base64url_decode("Zm9vY"),
            Err(ShareError::BadLength { length: 5 })
        );
        assert_eq!(
            base64url_decode("Zh"),
            Err(ShareError::Damaged),
            "stray low bits"
        );
    }
}
