//! Worlds carried by their registry name (`LinkProtocol::Registered`): every world and every key of
//! its tables travels that way and back unchanged; the older variants keep writing exactly the bytes
//! they wrote before the registered variant existed; and each way a registered world can be written
//! wrong is refused with the error that names it.
//!
//! No world of this build lacks an older variant, so the registered path is forced here
//! (`body_convert::registered_from`) and read back below the check that refuses a registered world
//! where an older variant fits.

use super::super::body::{LinkOption, LinkProtocol, LinkSetting, LinkWorld};
use super::super::bounded::Bounded;
use super::super::registered::{self, WorldError};
use super::coordination::played;
use super::*;
use quorumlab_sim::config::ProtocolConfig;
use quorumlab_sim::entry::{OptionKey, OptionSetting, OptionValue};
use quorumlab_sim::registry;
use quorumlab_sim::scenario::Invalid;

/// A value of a key holding `value` other than `default`: a flag flipped, a number at the far end of
/// its range, another choice.
fn off_default(value: OptionValue, default: OptionSetting) -> OptionSetting {
    match (value, default) {
        (OptionValue::Flag, OptionSetting::Flag(flag)) => OptionSetting::Flag(!flag),
        (OptionValue::Unsigned { low, high }, OptionSetting::Unsigned(number)) => {
            OptionSetting::Unsigned(if number == high { low } else { high })
        }
        (OptionValue::Choice { names, .. }, OptionSetting::Choice(name)) => {
            OptionSetting::Choice(names.iter().find(|other| **other != name).unwrap())
        }
        (value, default) => panic!("{default:?} does not fit {value:?}"),
    }
}

/// Every world at its defaults, then once for each key of its tables turned off its default, then
/// (where the world takes it) with SET NX retries. Written with the engine's types only, so the same
/// function made the pinned links below on the build before `Registered`.
fn off_default_worlds() -> Vec<(String, ProtocolConfig)> {
    let mut worlds = Vec::new();
    for entry in registry::ENTRIES {
        let defaults = (entry.defaults)();
        worlds.push((entry.name.to_string(), defaults.clone()));
        for table in entry.tables {
            for key in table.keys {
                let mut protocol = defaults.clone();
                let setting = off_default(key.value, (key.read)(&defaults));
                (key.write)(&mut protocol, setting);
                worlds.push((format!("{}{}", table.key_prefix, key.name), protocol));
            }
        }
        if entry.lock_keys.contains(&"set_nx_retries") {
            let mut protocol = defaults.clone();
            protocol.lock_options_mut().unwrap().set_nx_retries = 2;
            worlds.push((format!("{}:locks.set_nx_retries", entry.name), protocol));
        }
    }
    worlds
}

/// A bare run of `protocol` (3 nodes, no steps, no actions), to pin and compare bodies with.
fn bare_run(protocol: ProtocolConfig) -> SharedRun {
    let mut scenario = Scenario::new("pinned", 3, 10_000);
    scenario.protocol = protocol;
    SharedRun {
        scenario,
        actions: Vec::new(),
        position: SimTime(0),
        lesson: None,
    }
}

/// The links `off_default_worlds` gave on the build before `Registered` (57350b5), made by its encoder
/// (`unchecked_fragment` of `bare_run`).
const PINNED: &[(&str, &str)] = &[
    (
        "raft",
        "#/run/v4/BnBpbm5lZAADAZBOlgGsAjIFDwAA6AcAAAAAAAAAU27pSg",
    ),
    (
        "lock-service",
        "#/run/v4/BnBpbm5lZAEC6AesAmQyrALoBwwBAQEAAwGQTpYBrAIyBQ8AAOgHAAAAAAAAAFQ4Ils",
    ),
    (
        "lock_service.lock_delay_ms",
        "#/run/v4/BnBpbm5lZAkC6AesAmQyrALoBwwBAQEA4NQDAwGQTpYBrAIyBQ8AAOgHAAAAAAAAAMI8Ak0",
    ),
    (
        "redis-lock",
        "#/run/v4/BnBpbm5lZAIC6AesAmQyrALoBwwAAQEAAwGQTpYBrAIyBQ8AAOgHAAAAAAAAADiCpG8",
    ),
    (
        "redis-lock:locks.set_nx_retries",
        "#/run/v4/BnBpbm5lZAoC6AesAmQyrALoBwwAAQEAAgMBkE6WAawCMgUPAADoBwAAAAAAAADveUC0",
    ),
    (
        "redlock",
        "#/run/v4/BnBpbm5lZAMC6AesAmQyrALoBwwAAQEAAwGQTpYBrAIyBQ8AAOgHAAAAAAAAAJGJLSE",
    ),
    (
        "scheduler",
        "#/run/v4/BnBpbm5lZAQD6AesAmQyrALoBwwAAQEAA-DUAwMBkE6WAawCMgUPAADoBwAAAAAAAABiyH2d",
    ),
    (
        "scheduler.mode",
        "#/run/v4/BnBpbm5lZAQD6AesAmQyrALoBwwAAQEAAODUAwMBkE6WAawCMgUPAADoBwAAAAAAAACaJSpv",
    ),
    (
        "scheduler.minute_ms",
        "#/run/v4/BnBpbm5lZAQD6AesAmQyrALoBwwAAQEAA8DPJAMBkE6WAawCMgUPAADoBwAAAAAAAAAj-Hes",
    ),
    (
        "zookeeper",
        "#/run/v4/BnBpbm5lZAUF6AesAmQyrALoBwwAAQEAAQMBkE6WAawCMgUPAADoBwAAAAAAAABkBiVw",
    ),
    (
        "zookeeper.recipe",
        "#/run/v4/BnBpbm5lZAUF6AesAmQyrALoBwwAAQEAAAMBkE6WAawCMgUPAADoBwAAAAAAAACw7Fbr",
    ),
    (
        "work-queue",
        "#/run/v4/BnBpbm5lZAYE6AesAmQyrALoBwwBAQEAAUADAZBOlgGsAjIFDwAA6AcAAAAAAAAAanYVCQ",
    ),
    (
        "queue.partitioned",
        "#/run/v4/BnBpbm5lZAYE6AesAmQyrALoBwwBAQEAAEADAZBOlgGsAjIFDwAA6AcAAAAAAAAATRMwiA",
    ),
    (
        "queue.accounts",
        "#/run/v4/BnBpbm5lZAYE6AesAmQyrALoBwwBAQEAAZBOAwGQTpYBrAIyBQ8AAOgHAAAAAAAAAFvyEVo",
    ),
    (
        "paxos",
        "#/run/v4/BnBpbm5lZAcC6AesAmQyrALoBwwAAQEAAQFkKAUDAZBOlgGsAjIFDwAA6AcAAAAAAAAALgO0GA",
    ),
    (
        "paxos.remedy",
        "#/run/v4/BnBpbm5lZAcC6AesAmQyrALoBwwAAQEAAAFkKAUDAZBOlgGsAjIFDwAA6AcAAAAAAAAAbxg4dg",
    ),
    (
        "paxos.durable_acceptors",
        "#/run/v4/BnBpbm5lZAcC6AesAmQyrALoBwwAAQEAAQBkKAUDAZBOlgGsAjIFDwAA6AcAAAAAAAAAuaWp_w",
    ),
    (
        "paxos.round_timeout_ms",
        "#/run/v4/BnBpbm5lZAcC6AesAmQyrALoBwwAAQEAAQHg1AMoBQMBkE6WAawCMgUPAADoBwAAAAAAAACDiNCm",
    ),
    (
        "paxos.backoff_ms",
        "#/run/v4/BnBpbm5lZAcC6AesAmQyrALoBwwAAQEAAQFk4NQDBQMBkE6WAawCMgUPAADoBwAAAAAAAADa1DGi",
    ),
    (
        "paxos.stagger_ms",
        "#/run/v4/BnBpbm5lZAcC6AesAmQyrALoBwwAAQEAAQFkKODUAwMBkE6WAawCMgUPAADoBwAAAAAAAADkQF-6",
    ),
    (
        "paxos.learners",
        "#/run/v4/BnBpbm5lZAsC6AesAmQyrALoBwwAAQEAAQFkKAUFAwGQTpYBrAIyBQ8AAOgHAAAAAAAAADo_BLM",
    ),
    (
        "pbft",
        "#/run/v4/BnBpbm5lZAgB6AesAmQyrALoBwwAAQEAAMgBrAIDAZBOlgGsAjIFDwAA6AcAAAAAAAAAWbf8wA",
    ),
    (
        "pbft.quorum",
        "#/run/v4/BnBpbm5lZAgB6AesAmQyrALoBwwAAQEAM8gBrAIDAZBOlgGsAjIFDwAA6AcAAAAAAAAAZWf1kQ",
    ),
    (
        "pbft.request_interval_ms",
        "#/run/v4/BnBpbm5lZAgB6AesAmQyrALoBwwAAQEAAODUA6wCAwGQTpYBrAIyBQ8AAOgHAAAAAAAAAFDAhlU",
    ),
    (
        "pbft.view_timeout_ms",
        "#/run/v4/BnBpbm5lZAgB6AesAmQyrALoBwwAAQEAAMgB4NQDAwGQTpYBrAIyBQ8AAOgHAAAAAAAAADh78qc",
    ),
];

/// A run an older variant could hold is written byte for byte as before; a key added since (none
/// yet) would go by name instead of being dropped.
#[test]
fn runs_the_older_variants_hold_keep_their_bytes() {
    let worlds = off_default_worlds();
    for (label, _) in PINNED {
        assert!(worlds.iter().any(|(made, _)| made == label), "{label} gone");
    }
    for (label, protocol) in worlds {
        let fragment = unchecked_fragment(&bare_run(protocol.clone()));
        match PINNED.iter().find(|(pinned, _)| *pinned == label) {
            Some((_, pinned)) => assert_eq!(fragment, *pinned, "{label}"),
            None => assert!(
                matches!(
                    body_convert::from_run(&bare_run(protocol)).protocol,
                    LinkProtocol::Registered(_)
                ),
                "{label} has no pinned link and is not written by name"
            ),
        }
    }
}

/// `protocol` forced through the registered variant and through v4 bytes, read back as a body.
fn by_name_through_bytes(protocol: &ProtocolConfig) -> LinkWorld {
    let mut body = body_convert::from_run(&bare_run(ProtocolConfig::Raft));
    body.protocol = body_convert::registered_from(protocol);
    let decoded = v4::decode(&v4::encode(&body)).unwrap();
    assert_eq!(decoded, body);
    match decoded.protocol {
        LinkProtocol::Registered(world) => world,
        other => panic!("{other:?} is not registered"),
    }
}

fn read_back(world: &LinkWorld) -> Result<ProtocolConfig, WorldError> {
    registered::world_into(world, body_convert::locks_into)
}

/// The protocol a link of `protocol` opens to, through the ordinary encoder (no validation).
fn through_a_link(protocol: &ProtocolConfig) -> ProtocolConfig {
    let fragment = unchecked_fragment(&bare_run(protocol.clone()));
    let payload = fragment.rsplit('/').next().unwrap();
    let body = v4::decode(&payload::decode(payload).unwrap()).unwrap();
    body_convert::into_run(body).unwrap().scenario.protocol
}

#[test]
fn every_world_and_every_key_off_its_default_travels_by_name() {
    for entry in registry::ENTRIES {
        let defaults = (entry.defaults)();
        let world = by_name_through_bytes(&defaults);
        assert_eq!(world.name, entry.name);
        assert_eq!(
            world.keys.items,
            Vec::new(),
            "{}: defaults are not written",
            entry.name
        );
        assert_eq!(read_back(&world), Ok(defaults.clone()));
        let mut every_key = defaults.clone();
        for (table, key) in registered::slots(entry) {
            let mut protocol = defaults.clone();
            let setting = off_default(key.value, (key.read)(&defaults));
            (key.write)(&mut protocol, setting);
            (key.write)(&mut every_key, setting);
            assert_ne!(
                protocol, defaults,
                "{}: {} did not change",
                entry.name, key.name
            );
            let world = by_name_through_bytes(&protocol);
            let keys: Vec<&str> = world
                .keys
                .items
                .iter()
                .map(|option| option.key.as_str())
                .collect();
            assert_eq!(keys, vec![format!("{}{}", table.key_prefix, key.name)]);
            assert_eq!(read_back(&world), Ok(protocol.clone()));
            assert_eq!(through_a_link(&protocol), protocol);
        }
        let world = by_name_through_bytes(&every_key);
        let written: Vec<String> = world
            .keys
            .items
            .iter()
            .map(|option| option.key.clone())
            .collect();
        let in_table_order: Vec<String> = registered::slots(entry)
            .map(|(table, key)| format!("{}{}", table.key_prefix, key.name))
            .collect();
        assert_eq!(written, in_table_order, "{}", entry.name);
        assert_eq!(read_back(&world), Ok(every_key.clone()));
        assert_eq!(through_a_link(&every_key), every_key);
    }
}

/// The `[locks]` options of a registered world travel too (workers, flags, scope).
#[test]
fn a_registered_world_keeps_its_lock_options() {
    let paxos = registry::by_name("paxos").unwrap();
    let mut protocol = (paxos.defaults)();
    let locks = protocol.lock_options_mut().unwrap();
    locks.workers = 5;
    locks.think_ms = 7;
    locks.idempotency_key = true;
    let world = by_name_through_bytes(&protocol);
    assert_eq!(world.locks.as_ref().unwrap().workers, 5);
    assert_eq!(read_back(&world), Ok(protocol));
}

/// What a world no older variant holds would do: its link, forced by name, reads back to the same
/// protocol, and that protocol replays the run the sharer saw to the same trace hash.
#[test]
fn a_run_read_back_by_name_replays_to_the_same_trace_hash() {
    let (_, scenario) = coordination::coordination_examples()
        .into_iter()
        .find(|(_, scenario)| scenario.protocol.name() == "paxos")
        .unwrap();
    let mut scenario = scenario;
    if let ProtocolConfig::Paxos(_, paxos) = &mut scenario.protocol {
        paxos.learners = 2;
    }
    let mut original = played(scenario.clone());
    let run = capture(&original);
    let world = by_name_through_bytes(&run.scenario.protocol);
    let mut reopened = run.clone();
    reopened.scenario.protocol = read_back(&world).unwrap();
    assert_eq!(reopened, run);
    let mut opened = open(reopened).unwrap();
    let end = SimTime(run.position.as_micros() + 2_000_000);
    original.advance_to(end);
    opened.advance_to(end);
    assert_eq!(opened.world().trace_hash(), original.world().trace_hash());
}

/// A link whose protocol is `world`, the rest from the sample run, sealed correctly.
fn link_naming(world: LinkWorld) -> String {
    let mut body = body_convert::from_run(&sample_run());
    body.protocol = LinkProtocol::Registered(world);
    let mut bytes = v4::encode(&body);
    bytes.truncate(bytes.len() - 4);
    v4_fragment_of_body(&bytes)
}

/// Paxos by name with `keys` and its default lock options.
fn paxos_with(keys: Vec<(&str, LinkSetting)>) -> LinkWorld {
    let defaults = (registry::by_name("paxos").unwrap().defaults)();
    LinkWorld {
        name: "paxos".into(),
        locks: defaults.lock_options().map(body_convert::locks_from),
        keys: Bounded::new(
            keys.into_iter()
                .map(|(key, value)| LinkOption {
                    key: key.into(),
                    value,
                })
                .collect(),
        ),
    }
}

fn world_error(world: LinkWorld) -> WorldError {
    match decode_error(&link_naming(world)) {
        ShareError::World(error) => error,
        other => panic!("not a world error: {other:?}"),
    }
}

fn paxos_key(name: &str) -> &'static OptionKey {
    let paxos = registry::by_name("paxos").unwrap();
    registered::slots(paxos)
        .map(|(_, key)| key)
        .find(|key| key.name == name)
        .unwrap()
}

#[test]
fn an_unknown_world_is_named() {
    let mut world = paxos_with(vec![]);
    world.name = "three-phase-commit".into();
    let error = world_error(world);
    assert_eq!(
        error,
        WorldError::UnknownWorld {
            name: "three-phase-commit".into()
        }
    );
    assert!(
        error.to_string().contains("`three-phase-commit`"),
        "{error}"
    );
    // The look-alike: a world this build knows gets past the name.
    assert!(read_back(&paxos_with(vec![])).is_ok());
}

#[test]
fn an_unknown_key_is_named_with_its_world() {
    for key in [
        "paxos.quorum",
        "pbft.quorum",
        "learners",
        "locks.set_nx_retries",
    ] {
        let error = world_error(paxos_with(vec![(key, LinkSetting::Unsigned(2))]));
        assert_eq!(
            error,
            WorldError::UnknownKey {
                world: "paxos",
                key: key.into()
            }
        );
    }
    let learners = paxos_with(vec![("paxos.learners", LinkSetting::Unsigned(2))]);
    assert!(read_back(&learners).is_ok());
}

#[test]
fn a_value_of_the_wrong_kind_or_range_is_refused() {
    let OptionValue::Unsigned { high, .. } = paxos_key("learners").value else {
        panic!("learners is a number");
    };
    let expected_number = format!("a whole number in 0..={high}");
    let cases = [
        (
            "paxos.learners",
            LinkSetting::Flag(true),
            expected_number.clone(),
        ),
        (
            "paxos.learners",
            LinkSetting::Unsigned(high + 1),
            expected_number,
        ),
        (
            "paxos.durable_acceptors",
            LinkSetting::Unsigned(1),
            "yes or no".into(),
        ),
        ("paxos.remedy", LinkSetting::Choice("prayer".into()), {
            let OptionValue::Choice { expected, .. } = paxos_key("remedy").value else {
                panic!("remedy is a choice");
            };
            expected.to_string()
        }),
    ];
    for (key, value, expected) in cases {
        let error = world_error(paxos_with(vec![(key, value.clone())]));
        assert_eq!(
            error,
            WorldError::BadValue {
                key: key.into(),
                expected
            },
            "{value:?}"
        );
    }
    let at_the_top = paxos_with(vec![("paxos.learners", LinkSetting::Unsigned(high))]);
    assert!(read_back(&at_the_top).is_ok());
}

#[test]
fn keys_repeated_or_out_of_table_order_are_refused() {
    let remedy = || ("paxos.remedy", LinkSetting::Choice("leader".into()));
    let learners = || ("paxos.learners", LinkSetting::Unsigned(2));
    let repeated = paxos_with(vec![learners(), learners()]);
    let reversed = paxos_with(vec![learners(), remedy()]);
    for (world, late) in [(repeated, learners().0), (reversed, remedy().0)] {
        assert_eq!(
            world_error(world),
            WorldError::OutOfOrder { key: late.into() }
        );
    }
    assert!(read_back(&paxos_with(vec![remedy(), learners()])).is_ok());
}

#[test]
fn a_key_at_its_default_is_refused_as_a_second_spelling() {
    let error = world_error(paxos_with(vec![(
        "paxos.learners",
        LinkSetting::Unsigned(0),
    )]));
    assert_eq!(
        error,
        WorldError::AtDefault {
            key: "paxos.learners".into()
        }
    );
    assert!(read_back(&paxos_with(vec![(
        "paxos.learners",
        LinkSetting::Unsigned(1)
    )]))
    .is_ok());
}

#[test]
fn lock_options_must_match_whether_the_world_takes_them() {
    let mut without = paxos_with(vec![]);
    without.locks = None;
    assert_eq!(
        world_error(without),
        WorldError::Locks {
            world: "paxos",
            takes: true
        }
    );
    let mut raft = paxos_with(vec![]);
    raft.name = "raft".into();
    assert_eq!(
        world_error(raft.clone()),
        WorldError::Locks {
            world: "raft",
            takes: false
        }
    );
    raft.locks = None;
    assert_eq!(read_back(&raft), Ok(ProtocolConfig::Raft));
}

/// A run an older variant holds has one link, in that variant: the same run by name is refused.
#[test]
fn a_run_with_an_older_code_is_refused_by_name() {
    for protocol in [
        ProtocolConfig::Raft,
        (registry::by_name("paxos").unwrap().defaults)(),
    ] {
        let LinkProtocol::Registered(world) = body_convert::registered_from(&protocol) else {
            panic!("forced by name");
        };
        assert_eq!(read_back(&world), Ok(protocol.clone()));
        assert_eq!(
            world_error(world),
            WorldError::HasOwnCode {
                world: protocol.name()
            }
        );
    }
}

#[test]
fn a_forged_list_of_keys_is_bounded() {
    let keys = vec![("paxos.learners", LinkSetting::Unsigned(1)); 65];
    assert!(matches!(
        decode_error(&link_naming(paxos_with(keys))),
        ShareError::Invalid(Invalid::TooMany { ref field, count: 65, max: 64 }) if field == "world options"
    ));
}

/// Damage behind a recomputed checksum, on links that name their world: an error or a valid run,
/// never a panic.
#[test]
fn damaged_registered_links_never_panic() {
    let mut random = super::Random(0x5e91);
    let worlds = [
        paxos_with(vec![("paxos.learners", LinkSetting::Unsigned(2))]),
        paxos_with(vec![
            ("paxos.remedy", LinkSetting::Choice("leader".into())),
            ("paxos.durable_acceptors", LinkSetting::Flag(false)),
        ]),
    ];
    let mut refused = 0;
    for world in worlds {
        let fragment = link_naming(world);
        let payload = fragment.rsplit('/').next().unwrap();
        let mut body = payload::decode(payload).unwrap();
        body.truncate(body.len() - 4);
        for _ in 0..500 {
            let mutated = super::damaged(&body, &mut random);
            let fragment_of = |body: &[u8]| v4_fragment_of_body(body);
            match decode_fragment(&fragment_of(&mutated)) {
                Err(error) => {
                    assert!(!error.to_string().is_empty());
                    refused += 1;
                }
                Ok(decoded) => {
                    assert_eq!(encode_fragment(&decoded).unwrap(), fragment_of(&mutated))
                }
            }
        }
    }
    assert!(refused > 500, "only {refused} refused");
}
