//! Lock-service clients (workers, scheduler instances, ZooKeeper candidates) back off before they send
//! a refused request again, and keep one request of a kind outstanding.
//!
//! Without a back-off a client resends the moment it hears "not leader": with a network that takes no
//! time the world never leaves the instant (the servers' election timers never fire), and every
//! duplicated refusal starts one more resend chain, until the chains fill the network's in-flight cap
//! and drown Raft's own votes. Every run here is bounded by an event count, so a regression fails
//! instead of hanging.

use quorumlab_sim::runner::world_config;
use quorumlab_sim::scenario::{parse_scenario, Scenario};
use quorumlab_sim::time::SimTime;
use quorumlab_sim::World;

/// Far more events than any of these runs needs with a back-off, far fewer than a storm makes.
const EVENT_CAP: u64 = 200_000;

fn scenario(text: &str) -> Scenario {
    parse_scenario(text, "client_backoff.rs").unwrap_or_else(|error| panic!("{error}"))
}

/// Runs `world` to `until` unless it takes more than `EVENT_CAP` events in all; true if it got there.
fn run_capped(world: &mut World, until: SimTime) -> bool {
    while world.next_event_time().is_some_and(|at| at <= until) {
        if world.events_processed() >= EVENT_CAP {
            return false;
        }
        world.step();
    }
    world.run_until(until);
    true
}

/// One server, a network with no delay: the server's first election timer must still fire.
#[test]
fn a_zero_delay_network_still_lets_time_advance() {
    for (protocol, extra) in [
        ("lock-service", ""),
        ("scheduler", ""),
        ("zookeeper", ""),
        ("work-queue", "[queue]\npartitioned = false\n"),
    ] {
        let text = format!(
            "protocol = \"{protocol}\"\nnodes = 1\nduration_ms = 1000\n\n\
             [timing]\nnetwork_delay_ms = [0, 0]\n\n{extra}"
        );
        let scenario = scenario(&text);
        let mut world = World::new(world_config(&scenario)).unwrap();
        let end = SimTime::from_ms(scenario.duration_ms);
        assert!(
            run_capped(&mut world, end),
            "{protocol}: {} events and still at {} ms",
            world.events_processed(),
            world.now().as_ms()
        );
        assert_eq!(world.now(), end, "{protocol}");
        assert!(
            world.current_leader().is_some(),
            "{protocol}: n1 elected itself"
        );
        assert!(
            world.report().violations.is_empty(),
            "{protocol}: {:?}",
            world.report().violations
        );
    }
}

/// Duplicated refusals while no server leads must not multiply the resends: a new leader is elected
/// after the old one crashes, in a run of ordinary size.
#[test]
fn duplicated_refusals_do_not_start_resend_storms() {
    let scenario = scenario(
        "protocol = \"lock-service\"\nnodes = 3\nduration_ms = 1200\n\n\
         [timing]\nnetwork_delay_ms = [1, 1]\nduplicate_rate = 0.1\n\n\
         [[step]]\nat_ms = 1000\ndo = \"crash\"\ntarget = \"leader\"\n",
    );
    let mut world = World::new(world_config(&scenario)).unwrap();
    assert!(run_capped(&mut world, SimTime::from_ms(1_000)));
    let crashed = world.current_leader().expect("a leader before the crash");
    world.apply(&scenario.steps[0].action);
    assert!(
        run_capped(&mut world, SimTime::from_ms(1_200)),
        "{} events by {} ms",
        world.events_processed(),
        world.now().as_ms()
    );
    let leader = world
        .current_leader()
        .expect("a new leader after the crash");
    assert_ne!(leader, crashed);
    let requests: u64 = world.checkers().locks().requests_per_minute.iter().sum();
    assert!(requests < 1_000, "{requests} lock requests in 1.2 s");
}
