//! The byte level of a v1–v3 link: LEB128 varints, zigzag for signed numbers and an FNV-1a checksum.
//! The reader never trusts a length or a number: every read is bounded and reports which field it was
//! reading when the bytes ran out or made no sense.

use crate::share::ShareError;
use quorumlab_sim::scenario::Invalid;

/// Longest varint: ten 7-bit groups cover a u64.
const MAX_VARINT_BYTES: usize = 10;

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
            return Err(ShareError::Invalid(Invalid::OutOfRange {
                field: self.field_name(field),
                value: value.to_string(),
                expected: format!("at most {max}"),
            }));
        }
        Ok(value)
    }

    /// A count of items that follow; each item takes at least one byte, so a count larger than what is
    /// left cannot be honest and is refused before anything is allocated.
    pub fn count(&mut self, field: &str, max: usize) -> Result<usize, ShareError> {
        let count = self.unsigned(field)?;
        if count > max as u64 {
            return Err(ShareError::Invalid(Invalid::TooMany {
                field: self.field_name(field),
                count,
                max: max as u64,
            }));
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
            return Err(ShareError::Invalid(Invalid::TooMany {
                field: self.field_name(field),
                count: length,
                max: max_bytes as u64,
            }));
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

#[cfg(test)]
mod tests {
    use super::*;

    /// `values` as minimal LEB128, then their checksum, as the old writer sealed a body.
    fn sealed_numbers(values: &[u64]) -> Vec<u8> {
        let mut bytes = Vec::new();
        for &value in values {
            let mut rest = value;
            while rest >= 0x80 {
                bytes.push((rest as u8 & 0x7f) | 0x80);
                rest >>= 7;
            }
            bytes.push(rest as u8);
        }
        with_checksum(bytes)
    }

    fn with_checksum(mut bytes: Vec<u8>) -> Vec<u8> {
        let checksum = fnv1a32(&bytes);
        bytes.extend_from_slice(&checksum.to_le_bytes());
        bytes
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
    fn signed_values_read_through_zigzag() {
        let sealed = sealed_numbers(&[0, 1, 2, 999, 1_000, u64::MAX - 1, u64::MAX]);
        let mut reader = Reader::unsealed(&sealed).unwrap();
        for value in [0, -1, 1, -500, 500, i64::MAX, i64::MIN] {
            assert_eq!(reader.signed("n").unwrap(), value);
        }
    }

    #[test]
    fn overlong_and_overflowing_varints_are_refused() {
        let sealed = with_checksum(vec![0x80, 0x00]);
        let error = Reader::unsealed(&sealed).unwrap().unsigned("seed");
        assert_eq!(
            error,
            Err(ShareError::BadNumber {
                field: "seed".into()
            })
        );
        let mut overflowing = vec![0xff; 9];
        overflowing.push(0x02);
        let sealed = with_checksum(overflowing);
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
            Err(ShareError::Invalid(Invalid::TooMany {
                count: 6_000,
                max: 5_000,
                ..
            }))
        ));
    }
}
