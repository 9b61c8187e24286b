//! Whether a node is running: up, crashed or paused. The engine decides it; a protocol's folder reads
//! it through [`crate::contract::world_read::WorldRead`] (PBFT's card counts crashed replicas among the
//! faulty), so it sits in the contract below both.

use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NodeStatus {
    Up,
    Crashed,
    Paused,
}

impl NodeStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            NodeStatus::Up => "up",
            NodeStatus::Crashed => "crashed",
            NodeStatus::Paused => "paused",
        }
    }
}
