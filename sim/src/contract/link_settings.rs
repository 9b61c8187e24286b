//! A link's own network settings: a delay range, a drop rate and a duplicate rate that override the
//! world's `[timing]` for the messages between two nodes, and the limits they are held to.
//!
//! A setting belongs to the *pair* of nodes, both directions at once: that is what a learner means by
//! "slow the link between n1 and n3" (a reply crossing a slow link is as slow as the request). Each of
//! the three values may be left to the world (`None`), so slowing a link does not also change its drop
//! rate.

use crate::base::ids::NodeId;
use serde::{Deserialize, Serialize};

/// Longest delay a link may be given: ten seconds, far past any timeout a lesson uses, and short
/// enough that one message can never hold a run up for long.
pub const MAX_LINK_DELAY_MS: u64 = 10_000;
/// Longest a learner may hold one message back in a single action.
pub const MAX_HOLD_MS: u64 = 60_000;
/// The delay of every link between two regions of the `regions` preset. The default link takes
/// 5–15 ms; a link between regions is four to eight times that, as between data centres on one
/// continent, so a write that needs a vote from another region visibly pays for it.
pub const REGION_DELAY_MS: (u64, u64) = (40, 80);
/// Fewest and most groups the `regions` preset takes.
pub const MIN_REGIONS: usize = 2;
pub const MAX_REGIONS: usize = 5;

/// What one link overrides; `None` follows the world's setting.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct LinkSettings {
    /// Each message's delay is drawn in `min..=max` milliseconds.
    pub delay_ms: Option<(u64, u64)>,
    /// Parts per million of messages lost.
    pub drop_ppm: Option<u32>,
    /// Parts per million of messages sent twice.
    pub duplicate_ppm: Option<u32>,
}

impl LinkSettings {
    /// The settings of a link between two regions.
    pub fn between_regions() -> LinkSettings {
        LinkSettings {
            delay_ms: Some(REGION_DELAY_MS),
            ..LinkSettings::default()
        }
    }

    /// True when the setting overrides nothing (the same as no setting at all).
    pub fn is_empty(&self) -> bool {
        self.delay_ms.is_none() && self.drop_ppm.is_none() && self.duplicate_ppm.is_none()
    }
}

/// The pair with the lower node first: the one key a link is known by, whichever way it is named.
pub fn link_key(one: NodeId, other: NodeId) -> (NodeId, NodeId) {
    if one <= other {
        (one, other)
    } else {
        (other, one)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_link_is_the_same_whichever_end_is_named_first() {
        assert_eq!(
            link_key(NodeId(3), NodeId(1)),
            link_key(NodeId(1), NodeId(3))
        );
        assert_eq!(link_key(NodeId(3), NodeId(1)), (NodeId(1), NodeId(3)));
    }

    #[test]
    fn only_a_setting_with_no_value_is_empty() {
        assert!(LinkSettings::default().is_empty());
        assert!(!LinkSettings::between_regions().is_empty());
    }
}
