//! A list with a limit on its length, for the serde body of a link. postcard reads a list's length
//! from the link itself, so a forged link could claim billions of items; this type refuses a length
//! over its limit (or over what the remaining bytes could hold) before anything is allocated.
//!
//! postcard drops the message of a serde error, so the limit that was broken is left in a
//! thread-local for [`take_exceeded`] to turn into a [`ShareError`] naming the list.

use super::ShareError;
use quorumlab_sim::scenario::Invalid;
use serde::de::{self, Deserialize, Deserializer, SeqAccess, Visitor};
use serde::ser::{Serialize, Serializer};
use std::cell::Cell;
use std::fmt;
use std::marker::PhantomData;

/// Which list this is, for the error, and how long it may be.
pub trait Limit {
    const FIELD: &'static str;
    const MAX: usize;
}

/// Serialized exactly as a `Vec<T>` (a length, then the items).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bounded<T, L: Limit> {
    pub items: Vec<T>,
    limit: PhantomData<L>,
}

impl<T, L: Limit> Bounded<T, L> {
    pub fn new(items: Vec<T>) -> Self {
        Bounded {
            items,
            limit: PhantomData,
        }
    }
}

impl<T: Serialize, L: Limit> Serialize for Bounded<T, L> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.items.serialize(serializer)
    }
}

impl<'de, T: Deserialize<'de>, L: Limit> Deserialize<'de> for Bounded<T, L> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_seq(BoundedVisitor(PhantomData::<(T, L)>))
    }
}

struct BoundedVisitor<T, L>(PhantomData<(T, L)>);

impl<'de, T: Deserialize<'de>, L: Limit> Visitor<'de> for BoundedVisitor<T, L> {
    type Value = Bounded<T, L>;

    fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(formatter, "at most {} {}", L::MAX, L::FIELD)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut sequence: A) -> Result<Self::Value, A::Error> {
        // postcard gives no hint when the length is more than the bytes left: such a list can only
        // be forged, and refusing it here keeps the allocation at zero.
        let Some(length) = sequence.size_hint() else {
            return Err(exceeded::<L, A::Error>(None));
        };
        if length > L::MAX {
            return Err(exceeded::<L, A::Error>(Some(length)));
        }
        let mut items = Vec::with_capacity(length);
        while let Some(item) = sequence.next_element()? {
            if items.len() == L::MAX {
                return Err(exceeded::<L, A::Error>(Some(L::MAX + 1)));
            }
            items.push(item);
        }
        Ok(Bounded::new(items))
    }
}

thread_local! {
    static EXCEEDED: Cell<Option<ShareError>> = const { Cell::new(None) };
}

fn exceeded<L: Limit, E: de::Error>(length: Option<usize>) -> E {
    let error = match length {
        Some(count) => ShareError::Invalid(Invalid::TooMany {
            field: L::FIELD.into(),
            count: count as u64,
            max: L::MAX as u64,
        }),
        None => ShareError::Truncated {
            field: L::FIELD.into(),
        },
    };
    EXCEEDED.with(|cell| cell.set(Some(error)));
    E::custom(format_args!("too many {}", L::FIELD))
}

/// Forgets any limit left from an earlier decode (call before decoding).
pub fn clear_exceeded() {
    EXCEEDED.with(|cell| cell.set(None));
}

/// The limit the last decode broke, if it broke one.
pub fn take_exceeded() -> Option<ShareError> {
    EXCEEDED.with(Cell::take)
}
