//! The store's front door: a write as it arrives on the wire, read field by field before the store
//! trusts any of it.
//!
//! Every other access in the simulation is a typed message, built by a worker that cannot get its own
//! fields wrong. A real store cannot assume that: a client with a bug, an old client speaking an older
//! format, or a hostile one can send anything. So this file models the one request that arrives as
//! text, [`RawWrite`], and the check that turns it into a typed write or refuses it.
//!
//! The order is the lesson. Reading the fields comes first, before the fencing comparison and before
//! the idempotency key, because those checks are only meaningful on a request that says what it
//! means. A write with no token is not "a write with token 0": read that way, a fenced store would
//! answer "stale token" and send its caller off to take the lock again and resend the same broken
//! write, and an unfenced one would simply apply it. A token too large for 64 bits must not be
//! clamped to the largest token either: the store would remember it as the highest ever seen and
//! refuse every honest holder from then on. And a count below zero must not wrap around into a huge
//! one. Each of these is refused as [`Malformed`], naming the field and what is wrong with it; the
//! store's count, its highest token seen and its idempotency records stay exactly as they were.

use super::{
    AccessKind, AccessOutcome, LedgerEntry, Resource, ResourceError, ResourceFact, ResourceMessage,
    ResourceWire, LEDGER_CAP,
};
use crate::base::ids::NodeId;
use crate::base::units::FencingToken;
use crate::contract::action::MalformedFault;
use crate::contract::protocol::Effects;
use serde::{Deserialize, Serialize};

/// A write as sent, before the store has read it: its fields as text, the token perhaps absent.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct RawWrite {
    /// The fencing token as sent; `None` when the request has no token field at all.
    pub token: Option<String>,
    /// The new count as sent.
    pub count: String,
}

/// One field of a write.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WriteField {
    Token,
    Count,
}

/// What is wrong with a write that the store refuses to read: which field, and how.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Malformed {
    /// The field is absent (or empty).
    Missing(WriteField),
    /// The field holds something other than digits.
    NotANumber(WriteField),
    /// The field holds a number below zero; tokens and counts never are.
    Negative(WriteField),
    /// The field holds a number too large for 64 bits.
    TooLarge(WriteField),
}

impl WriteField {
    pub fn name(self) -> &'static str {
        match self {
            WriteField::Token => "fencing token",
            WriteField::Count => "count",
        }
    }
}

impl Malformed {
    /// What is wrong, in a few words ("no fencing token", "a count below zero").
    pub fn text(self) -> String {
        match self {
            Malformed::Missing(field) => format!("no {}", field.name()),
            Malformed::NotANumber(field) => format!("a {} that is not a number", field.name()),
            Malformed::Negative(field) => format!("a {} below zero", field.name()),
            Malformed::TooLarge(field) => format!("a {} too large for 64 bits", field.name()),
        }
    }
}

/// The number in `text`, or what is wrong with it. Strict on purpose: no sign, no spaces, no
/// underscores, no decimal point.
fn number(text: Option<&str>, field: WriteField) -> Result<u64, Malformed> {
    let text = match text {
        None | Some("") => return Err(Malformed::Missing(field)),
        Some(text) => text,
    };
    let digits = |text: &str| !text.is_empty() && text.bytes().all(|byte| byte.is_ascii_digit());
    if let Some(magnitude) = text.strip_prefix('-') {
        return Err(match digits(magnitude) {
            true => Malformed::Negative(field),
            false => Malformed::NotANumber(field),
        });
    }
    if !digits(text) {
        return Err(Malformed::NotANumber(field));
    }
    text.parse::<u64>().map_err(|_| Malformed::TooLarge(field))
}

/// Reads `write`: its token, then its count. Only a write whose fields both read goes on to the
/// fencing check.
pub fn read_write(write: &RawWrite) -> Result<(FencingToken, u64), Malformed> {
    let token = number(write.token.as_deref(), WriteField::Token)?;
    let count = number(Some(&write.count), WriteField::Count)?;
    Ok((FencingToken(token), count))
}

impl RawWrite {
    /// The write a client with the bug `fault` sends when it means to write `count` under `token`.
    pub fn with_fault(fault: MalformedFault, token: FencingToken, count: u64) -> RawWrite {
        match fault {
            MalformedFault::MissingToken => RawWrite {
                token: None,
                count: count.to_string(),
            },
            // One more than the largest 64-bit number: a clamping reader would make it the
            // highest token ever seen.
            MalformedFault::TokenTooLarge => RawWrite {
                token: Some((u128::from(u64::MAX) + 1).to_string()),
                count: count.to_string(),
            },
            MalformedFault::NegativeCount => RawWrite {
                token: Some(token.to_string()),
                count: "-1".to_string(),
            },
        }
    }

    /// The write as text, for a message's detail ("token none, count 7").
    pub fn text(&self) -> String {
        let token = self.token.as_deref().unwrap_or("none");
        format!("token {token}, count {}", self.count)
    }
}

impl Resource {
    /// A write arriving as text. One whose fields read is an ordinary write from then on (fenced,
    /// keyed by its message id); one whose fields do not is refused as malformed, written in the
    /// ledger and told to its sender, and touches nothing else.
    pub(super) fn on_raw_write<M: ResourceWire>(
        &mut self,
        from: NodeId,
        local_now_us: u64,
        (op, write): (u64, &RawWrite),
        effects: &mut Effects<M>,
    ) {
        let malformed = match read_write(write) {
            Ok((token, value)) => {
                let access = ResourceMessage::Access {
                    kind: AccessKind::Write { value },
                    token,
                    op,
                    idempotent: false,
                    intent: op,
                    account: 0,
                };
                self.on_access(from, local_now_us, &access, effects);
                return;
            }
            Err(malformed) => malformed,
        };
        self.malformed += 1;
        if self.ledger.len() >= LEDGER_CAP {
            self.ledger.pop_front();
        }
        let outcome = AccessOutcome::Malformed(malformed);
        self.ledger.push_back(LedgerEntry {
            client: from,
            token: FencingToken::ZERO,
            write: None,
            outcome,
            highest_seen: self.highest_seen,
            value: self.value,
            local_us: local_now_us,
        });
        effects.observe(ResourceFact::ResourceAccess {
            client: from,
            token: FencingToken::ZERO,
            write: true,
            outcome,
            value: self.value,
            highest_seen: self.highest_seen,
            intent: 0,
            account: 0,
        });
        let result = Err(ResourceError::Malformed(malformed));
        effects.send(from, ResourceMessage::AccessReply { op, result });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn raw(token: Option<&str>, count: &str) -> RawWrite {
        RawWrite {
            token: token.map(str::to_string),
            count: count.to_string(),
        }
    }

    #[test]
    fn a_write_whose_fields_read_becomes_a_typed_write() {
        assert_eq!(read_write(&raw(Some("34"), "7")), Ok((FencingToken(34), 7)));
        assert_eq!(read_write(&raw(Some("0"), "0")), Ok((FencingToken(0), 0)));
        let largest = u64::MAX.to_string();
        assert_eq!(
            read_write(&raw(Some(&largest), &largest)),
            Ok((FencingToken(u64::MAX), u64::MAX))
        );
    }

    #[test]
    fn each_fault_names_its_field_and_what_is_wrong() {
        use Malformed::*;
        use WriteField::*;
        let cases = [
            (raw(None, "7"), Missing(Token)),
            (raw(Some(""), "7"), Missing(Token)),
            (raw(Some("34"), ""), Missing(Count)),
            (raw(Some("seven"), "7"), NotANumber(Token)),
            (raw(Some(" 34"), "7"), NotANumber(Token)),
            (raw(Some("3.5"), "7"), NotANumber(Token)),
            (raw(Some("1_000"), "7"), NotANumber(Token)),
            (raw(Some("+34"), "7"), NotANumber(Token)),
            (raw(Some("-"), "7"), NotANumber(Token)),
            (raw(Some("-3"), "7"), Negative(Token)),
            (raw(Some("18446744073709551616"), "7"), TooLarge(Token)),
            (raw(Some("34"), "-1"), Negative(Count)),
            (raw(Some("34"), "0x10"), NotANumber(Count)),
            (raw(Some("34"), "99999999999999999999999"), TooLarge(Count)),
        ];
        for (write, wanted) in cases {
            assert_eq!(read_write(&write), Err(wanted), "{write:?}");
        }
    }

    #[test]
    fn the_token_is_read_before_the_count() {
        let both_wrong = raw(None, "-1");
        assert_eq!(
            read_write(&both_wrong),
            Err(Malformed::Missing(WriteField::Token))
        );
    }

    #[test]
    fn every_fault_a_client_can_be_made_to_send_is_refused_for_that_fault() {
        let token = FencingToken(12);
        let wanted = [
            (
                MalformedFault::MissingToken,
                Malformed::Missing(WriteField::Token),
            ),
            (
                MalformedFault::TokenTooLarge,
                Malformed::TooLarge(WriteField::Token),
            ),
            (
                MalformedFault::NegativeCount,
                Malformed::Negative(WriteField::Count),
            ),
        ];
        for (fault, malformed) in wanted {
            let write = RawWrite::with_fault(fault, token, 9);
            assert_eq!(read_write(&write), Err(malformed), "{fault:?}");
        }
        assert_eq!(
            Malformed::Missing(WriteField::Token).text(),
            "no fencing token"
        );
        assert_eq!(
            RawWrite::with_fault(MalformedFault::MissingToken, token, 9).text(),
            "token none, count 9"
        );
    }
}
