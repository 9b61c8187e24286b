//! The ZooKeeper-style election's option compare mode can flip: the herd recipe against the
//! sequential one.

use crate::contract::config::{ProtocolConfig, ZkRecipe};
use crate::contract::entry::parts::VariationHook;

pub const RECIPE: VariationHook = VariationHook {
    name: "zk-recipe",
    value: |protocol| match protocol {
        ProtocolConfig::Zookeeper(_, ZkRecipe::Herd) => Some("herd recipe".into()),
        ProtocolConfig::Zookeeper(_, ZkRecipe::Sequential) => Some("sequential recipe".into()),
        _ => None,
    },
    flip: |protocol| {
        if let ProtocolConfig::Zookeeper(_, recipe) = protocol {
            *recipe = match recipe {
                ZkRecipe::Herd => ZkRecipe::Sequential,
                ZkRecipe::Sequential => ZkRecipe::Herd,
            }
        }
    },
};
