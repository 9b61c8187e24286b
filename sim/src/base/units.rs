//! The numbers protocols count in, each its own type: a Raft [`Term`], a position in a replicated log
//! ([`LogIndex`]) and a lock's [`FencingToken`].
//!
//! All three are a `u64` underneath and all three only ever grow, so it is easy to hand one where
//! another is meant: a term where an index belongs type-checks as a bare `u64` and silently breaks the
//! log-matching argument; a Raft log index passed as a fencing token fences against the wrong
//! sequence. Separate types make the compiler catch the mix-up. Each is `#[serde(transparent)]`, so a
//! report, a trace record or a fact serializes exactly as the bare number it replaced (the pinned trace
//! hashes depend on those bytes), and `Display` prints the bare number for the same reason.
//!
//! The helpers are the few moves the protocols make: step to the next term or token, step along the
//! log. Anything else reaches the number through `.0`, which keeps arithmetic visible where it happens.

use serde::{Deserialize, Serialize};
use std::fmt;

macro_rules! counting_number {
    ($(#[$meta:meta])* $name:ident) => {
        $(#[$meta])*
        #[derive(
            Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Serialize, Deserialize,
        )]
        #[serde(transparent)]
        pub struct $name(pub u64);

        impl $name {
            pub const ZERO: $name = $name(0);

            /// The one after this.
            pub fn next(self) -> $name {
                $name(self.0 + 1)
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(formatter, "{}", self.0)
            }
        }
    };
}

counting_number!(
    /// A Raft term: a logical epoch in which at most one leader is elected. Term 0 is before any
    /// election.
    Term
);

counting_number!(
    /// A position in a replicated log, 1-based; index 0 is the empty prefix (with term 0).
    LogIndex
);

counting_number!(
    /// A lock's fencing token: grows with every grant, so a resource can refuse a holder whose token is
    /// lower than one it has already seen. Token 0 means "no token" (an unfenced client).
    FencingToken
);

impl LogIndex {
    /// The index before this one. Index 0 has none: asking is a programming error.
    pub fn previous(self) -> LogIndex {
        assert!(
            self.0 > 0,
            "index 0 is the empty prefix and has no predecessor"
        );
        LogIndex(self.0 - 1)
    }

    /// The index `count` entries further along.
    pub fn advanced_by(self, count: usize) -> LogIndex {
        LogIndex(self.0 + count as u64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serializes_and_prints_as_the_bare_number() {
        assert_eq!(serde_json::to_string(&Term(7)).unwrap(), "7");
        assert_eq!(serde_json::to_string(&LogIndex(12)).unwrap(), "12");
        assert_eq!(serde_json::to_string(&FencingToken(3)).unwrap(), "3");
        assert_eq!(serde_json::from_str::<Term>("9").unwrap(), Term(9));
        assert_eq!(Term(4).to_string(), "4");
    }

    #[test]
    fn steps_along_the_log() {
        assert_eq!(LogIndex(3).previous(), LogIndex(2));
        assert_eq!(LogIndex(3).advanced_by(2), LogIndex(5));
        assert_eq!(Term::ZERO.next(), Term(1));
    }
}
