//! A world's own aimed chaos (`ChaosParts::aimed`, from `registry::chaos`) as a scenario: the chaos
//! world drawn from the seed, the world's plan drawn next from the same generator, then the heal that
//! ends every chaos run. Worlds with lock holders aim at them instead (`holders.rs`).

use crate::base::rng::Rng;
use crate::contract::entry::parts::{AimedChaos, ChaosNodes};
use crate::tooling::chaos::locks::{chaos_world, push_heal, LockChaosOptions};
use crate::tooling::scenario::{parse_scenario, to_toml_string, Scenario, Step};

/// The aimed scenario for `seed` on the world and variant `options` names.
pub fn aimed_scenario(
    seed: u64,
    options: &LockChaosOptions,
    aimed: AimedChaos,
) -> Result<Scenario, String> {
    let mut rng = Rng::new(seed ^ aimed.salt);
    let (mut scenario, layout) = chaos_world(seed, options, &mut rng);
    scenario.title = format!("{}-aimed chaos seed {seed}", aimed.title);
    let nodes = ChaosNodes {
        servers: layout.servers,
        workers: layout.workers,
    };
    let plan = (aimed.plan)(&mut rng, &nodes);
    scenario.steps = plan
        .steps
        .into_iter()
        .map(|(at_ms, action)| Step { at_ms, action })
        .collect();
    let heal_ms = options.fault_window_ms.max(plan.heal_not_before_ms);
    push_heal(&mut scenario, heal_ms, &layout);
    // As a file carries it: the recorded scenario must read back to the very run.
    let name = options.protocol.name();
    parse_scenario(&to_toml_string(&scenario), &format!("{name} seed {seed}"))
        .map_err(|error| error.to_string())
}
