//! How much of a lease is left, for the lease bars and rings: both count down the same length, one on
//! the holder's clock and one on the service's, so a pause or a clock jump shows as two bars apart.

/// The lease TTL the scenario's lock clients are granted, in µs (1 s where the world has none).
pub fn lease_ttl_us(scenario: &quorumlab_sim::scenario::Scenario) -> u64 {
    scenario
        .protocol
        .lock_options()
        .map_or(1_000_000, |options| options.lease_ttl_ms * 1_000)
}

/// Time left on a lease, as a fraction of its length, clamped to 0..=1.
pub fn lease_fraction(until_us: u64, now_us: i64, ttl_us: u64) -> f64 {
    let left_us = until_us as i64 - now_us;
    if ttl_us == 0 || left_us <= 0 {
        return 0.0;
    }
    (left_us as f64 / ttl_us as f64).clamp(0.0, 1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lease_fraction_counts_down_and_clamps() {
        assert_eq!(lease_fraction(1_000_000, 500_000, 1_000_000), 0.5);
        assert_eq!(lease_fraction(1_000_000, 2_000_000, 1_000_000), 0.0);
        assert_eq!(lease_fraction(5_000_000, 0, 1_000_000), 1.0);
    }
}
