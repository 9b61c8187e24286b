//! The ZooKeeper election's scenario table `[zookeeper]` (`recipe`) and the world a file that sets
//! nothing gets: five candidates following the sequential recipe. The scenario parser, validator and
//! export read this description through the registry entry.

use crate::contract::config::{LockServiceOptions, ProtocolConfig, ZkRecipe};
use crate::contract::entry::{OptionKey, OptionSetting, OptionTable, OptionValue};

pub const TABLE: OptionTable = OptionTable {
    name: "zookeeper",
    key_prefix: "zookeeper.",
    keys: &[OptionKey {
        name: "recipe",
        about: "herd: every candidate watches the one leader znode; sequential: each watches the znode just before its own.",
        value: OptionValue::Choice {
            names: &["herd", "sequential"],
            expected: "`herd` or `sequential`",
        },
        read: |protocol| {
            OptionSetting::Choice(match recipe(protocol) {
                ZkRecipe::Herd => "herd",
                ZkRecipe::Sequential => "sequential",
            })
        },
        write: |protocol, setting| {
            let recipe = match setting.choice() {
                "herd" => ZkRecipe::Herd,
                _ => ZkRecipe::Sequential,
            };
            if let ProtocolConfig::Zookeeper(_, slot) = protocol {
                *slot = recipe;
            }
        },
    }],
    population: Some("candidates"),
};

pub fn defaults() -> ProtocolConfig {
    let locks = LockServiceOptions {
        fencing: false,
        workers: 5,
        ..LockServiceOptions::default()
    };
    ProtocolConfig::Zookeeper(locks, ZkRecipe::Sequential)
}

fn recipe(protocol: &ProtocolConfig) -> ZkRecipe {
    match protocol {
        ProtocolConfig::Zookeeper(_, recipe) => *recipe,
        _ => unreachable!("the [zookeeper] table is read only in a ZooKeeper world"),
    }
}
