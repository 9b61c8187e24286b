//! The text of a link's payload: base64url without padding (RFC 4648 §5), which survives URLs, chat
//! and e-mail unescaped. Errors name the offending character by its position among the characters,
//! as a person counts them.

use super::ShareError;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::{DecodeError, Engine};

pub fn encode(bytes: &[u8]) -> String {
    URL_SAFE_NO_PAD.encode(bytes)
}

pub fn decode(text: &str) -> Result<Vec<u8>, ShareError> {
    URL_SAFE_NO_PAD.decode(text).map_err(|error| match error {
        DecodeError::InvalidByte(offset, _) => bad_character(text, offset),
        DecodeError::InvalidLength(length) => ShareError::BadLength { length },
        // Leftover bits that are not zero, or padding: the last character was changed.
        DecodeError::InvalidLastSymbol(..) | DecodeError::InvalidPadding => ShareError::Damaged,
    })
}

fn bad_character(text: &str, offset: usize) -> ShareError {
    // The crate counts bytes; a non-ASCII character is several of them.
    let start = (0..=offset.min(text.len()))
        .rev()
        .find(|&index| text.is_char_boundary(index))
        .unwrap_or(0);
    ShareError::BadCharacter {
        character: text[start..].chars().next().unwrap_or('\u{fffd}'),
        position: text[..start].chars().count(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
            assert_eq!(encode(plain.as_bytes()), encoded);
            assert_eq!(decode(encoded).unwrap(), plain.as_bytes());
        }
        assert_eq!(encode(&[0xfb, 0xff]), "-_8");
    }

    #[test]
    fn base64url_refuses_foreign_characters_and_impossible_lengths() {
        assert_eq!(
            decode("Zm9v+g"),
            Err(ShareError::BadCharacter {
                character: '+',
                position: 4
            })
        );
        assert_eq!(
            decode("Zmé9v"),
            Err(ShareError::BadCharacter {
                character: 'é',
                position: 2
            })
        );
        assert_eq!(decode("Zm9vY"), Err(ShareError::BadLength { length: 5 }));
        assert_eq!(decode("Zh"), Err(ShareError::Damaged), "stray low bits");
        assert_eq!(decode("Zg=="), Err(ShareError::Damaged), "padding");
    }
}
