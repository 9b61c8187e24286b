//! The run settings as a form holds them (text), and their checked conversion into a scenario. Bad
//! values produce a message naming the field and change nothing.

pub mod world_options;

use world_options::WorldOptionField;

use quorumlab_sim::action::PPM_ONE;
use quorumlab_sim::config::ReadPath;
use quorumlab_sim::ids::MAX_NODES;
use quorumlab_sim::scenario::Scenario;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SettingsForm {
    pub node_count: String,
    pub seed: String,
    pub election_min_ms: String,
    pub election_max_ms: String,
    pub heartbeat_ms: String,
    pub delay_min_ms: String,
    pub delay_max_ms: String,
    pub drop_percent: String,
    pub pre_vote: bool,
    pub check_quorum: bool,
    /// How reads are answered (the lease path is the old "lease reads" switch).
    pub read_path: ReadPath,
    /// The world's own options (its scenario tables), in the entry's order.
    pub world_options: Vec<WorldOptionField>,
}

/// Largest timing value the form accepts, in ms (the scenario format's own limit).
const MAX_TIMING_MS: u64 = quorumlab_sim::scenario::MAX_TIMING_MS;

impl SettingsForm {
    pub fn from_scenario(scenario: &Scenario) -> SettingsForm {
        let timing = &scenario.timing;
        SettingsForm {
            node_count: scenario.node_count.to_string(),
            seed: scenario.seed.to_string(),
            election_min_ms: timing.election_timeout_ms.0.to_string(),
            election_max_ms: timing.election_timeout_ms.1.to_string(),
            heartbeat_ms: timing.heartbeat_ms.to_string(),
            delay_min_ms: timing.network_delay_ms.0.to_string(),
            delay_max_ms: timing.network_delay_ms.1.to_string(),
            drop_percent: format_percent(timing.drop_ppm),
            pre_vote: scenario.raft.pre_vote,
            check_quorum: scenario.raft.check_quorum,
            read_path: scenario.raft.read_path,
            world_options: world_options::fields_for(&scenario.protocol),
        }
    }

    /// The scenario these settings describe, based on `base` (title, duration and steps are kept).
    pub fn to_scenario(&self, base: &Scenario) -> Result<Scenario, String> {
        let mut scenario = base.clone();
        scenario.node_count =
            parse_in("cluster size", &self.node_count, 1, MAX_NODES as u64)? as usize;
        scenario.seed = parse_in("seed", &self.seed, 0, u64::MAX)?;
        let election_min = parse_in(
            "election timeout min",
            &self.election_min_ms,
            1,
            MAX_TIMING_MS,
        )?;
        let election_max = parse_in(
            "election timeout max",
            &self.election_max_ms,
            1,
            MAX_TIMING_MS,
        )?;
        if election_min > election_max {
            return Err(format!(
                "election timeout: min {election_min} ms is above max {election_max} ms"
            ));
        }
        let delay_min = parse_in("network delay min", &self.delay_min_ms, 0, MAX_TIMING_MS)?;
        let delay_max = parse_in("network delay max", &self.delay_max_ms, 0, MAX_TIMING_MS)?;
        if delay_min > delay_max {
            return Err(format!(
                "network delay: min {delay_min} ms is above max {delay_max} ms"
            ));
        }
        scenario.timing.election_timeout_ms = (election_min, election_max);
        scenario.timing.heartbeat_ms = parse_in("heartbeat", &self.heartbeat_ms, 1, MAX_TIMING_MS)?;
        scenario.timing.network_delay_ms = (delay_min, delay_max);
        scenario.timing.drop_ppm = parse_percent("drop rate", &self.drop_percent)?;
        scenario.raft.pre_vote = self.pre_vote;
        scenario.raft.check_quorum = self.check_quorum;
        scenario.raft.read_path = self.read_path;
        world_options::apply(&self.world_options, &mut scenario.protocol)?;
        let (old_servers, new_servers) = (base.node_count, scenario.node_count);
        let all_nodes = scenario.actor_count();
        scenario
            .steps
            .retain(|step| step_fits(step, old_servers, new_servers, all_nodes));
        // Options that are each in range can still clash (a lease shorter than its renewal interval,
        // more workers than a world seats): the scenario format's own rules decide, as for a file.
        scenario.validate().map_err(|invalid| invalid.to_string())?;
        Ok(scenario)
    }
}

/// Whether a scripted step still applies: one naming a server beyond a shrunken cluster does not, and
/// neither does one naming a worker or client (numbered after the servers) once the server count
/// changed, since that number now belongs to someone else. With the same servers, every actor keeps
/// its number and its steps.
fn step_fits(
    step: &quorumlab_sim::scenario::Step,
    old_servers: usize,
    new_servers: usize,
    all_nodes: usize,
) -> bool {
    step.action.named_nodes().iter().all(|node| {
        let index = node.index();
        if index < old_servers {
            index < new_servers
        } else {
            old_servers == new_servers && index < all_nodes
        }
    })
}

fn parse_in(field: &str, text: &str, min: u64, max: u64) -> Result<u64, String> {
    let value: u64 = text
        .trim()
        .parse()
        .map_err(|_| format!("{field}: `{}` is not a whole number", text.trim()))?;
    if value < min || value > max {
        return Err(format!("{field}: {value} must be between {min} and {max}"));
    }
    Ok(value)
}

/// "2.5" (percent) → 25_000 ppm, exactly, with at most four decimals.
fn parse_percent(field: &str, text: &str) -> Result<u32, String> {
    let text = text.trim().trim_end_matches('%');
    let (whole, fraction) = text.split_once('.').unwrap_or((text, ""));
    let not_a_percent = || format!("{field}: `{text}` is not a percentage between 0 and 100");
    if fraction.len() > 4 || whole.is_empty() && fraction.is_empty() {
        return Err(not_a_percent());
    }
    let whole: u32 = if whole.is_empty() {
        0
    } else {
        whole.parse().map_err(|_| not_a_percent())?
    };
    let fraction_ppm: u32 = if fraction.is_empty() {
        0
    } else {
        let digits: u32 = fraction.parse().map_err(|_| not_a_percent())?;
        digits * 10u32.pow(4 - fraction.len() as u32)
    };
    let ppm = whole
        .checked_mul(10_000)
        .and_then(|ppm| ppm.checked_add(fraction_ppm))
        .ok_or_else(not_a_percent)?;
    if ppm > PPM_ONE {
        return Err(not_a_percent());
    }
    Ok(ppm)
}

fn format_percent(ppm: u32) -> String {
    let whole = ppm / 10_000;
    let fraction = ppm % 10_000;
    if fraction == 0 {
        whole.to_string()
    } else {
        format!("{whole}.{fraction:04}")
            .trim_end_matches('0')
            .to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn base() -> Scenario {
        Scenario::new("base", 5, 60_000)
    }

    #[test]
    fn the_form_round_trips_a_scenario() {
        let mut scenario = base();
        scenario.timing.drop_ppm = 25_000;
        scenario.raft.pre_vote = true;
        let form = SettingsForm::from_scenario(&scenario);
        assert_eq!(form.drop_percent, "2.5");
        assert_eq!(form.to_scenario(&base()).unwrap(), scenario);
    }

    #[test]
    fn bad_values_name_the_field() {
        let mut form = SettingsForm::from_scenario(&base());
        form.node_count = "52".to_string();
        assert_eq!(
            form.to_scenario(&base()).unwrap_err(),
            "cluster size: 52 must be between 1 and 51"
        );
        form.node_count = "five".to_string();
        assert!(form
            .to_scenario(&base())
            .unwrap_err()
            .starts_with("cluster size: `five`"));
        let mut form = SettingsForm::from_scenario(&base());
        form.election_min_ms = "400".to_string();
        form.election_max_ms = "300".to_string();
        assert!(form
            .to_scenario(&base())
            .unwrap_err()
            .contains("min 400 ms is above max 300 ms"));
        let mut form = SettingsForm::from_scenario(&base());
        form.drop_percent = "101".to_string();
        assert!(form
            .to_scenario(&base())
            .unwrap_err()
            .starts_with("drop rate"));
    }

    #[test]
    fn a_fresh_run_keeps_the_steps_of_workers_while_the_servers_stay() {
        use quorumlab_sim::scenario::{parse_scenario, EXAMPLES};
        let (_, text) = EXAMPLES
            .iter()
            .find(|(name, _)| *name == "fencing-pause.toml")
            .unwrap();
        let base = parse_scenario(text, "fencing-pause.toml").unwrap();
        let names_a_worker = |scenario: &Scenario| {
            scenario.steps.iter().any(|step| {
                step.action
                    .named_nodes()
                    .iter()
                    .any(|node| node.index() >= scenario.node_count)
            })
        };
        assert!(names_a_worker(&base), "the example pauses worker A");
        let form = SettingsForm::from_scenario(&base);
        let same = form.to_scenario(&base).unwrap();
        assert_eq!(same.steps, base.steps);
        let mut bigger = SettingsForm::from_scenario(&base);
        bigger.node_count = (base.node_count + 2).to_string();
        let grown = bigger.to_scenario(&base).unwrap();
        assert!(
            !names_a_worker(&grown),
            "a worker's number moved, so its steps go"
        );
    }

    #[test]
    fn percentages_convert_exactly() {
        assert_eq!(parse_percent("drop", "0").unwrap(), 0);
        assert_eq!(parse_percent("drop", "100").unwrap(), 1_000_000);
        assert_eq!(parse_percent("drop", "0.0001").unwrap(), 1);
        assert_eq!(parse_percent("drop", "12.5%").unwrap(), 125_000);
        assert!(parse_percent("drop", "-1").is_err());
        assert!(parse_percent("drop", ".").is_err());
    }
}
