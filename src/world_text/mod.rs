//! The words and small judgments the panels show about a world: what a node is called and what kind of
//! actor it is, what a belief or an access reads like, which invariants apply, what a partition side
//! can still do. Pure functions over view snapshots and registry entries, kept out of `components` so
//! that folder holds components only and every sentence here is tested natively. One concept a file.

pub mod beliefs;
pub mod byzantine;
pub mod capabilities;
pub mod client;
pub mod contention;
pub mod hold_words;
pub mod leases;
pub mod ledger;
pub mod lock_delay;
pub mod membership;
pub mod names;
pub mod node_kind;
pub mod partition;
pub mod paxos;
pub mod pbft;

#[cfg(test)]
use quorumlab_sim::view_coordination::CoordinationView;

/// A coordination view with only its world and labels filled in, for tests that add the parts they
/// need; the one place a test spells out every field, so an engine change to the view touches one spot.
#[cfg(test)]
pub fn bare_view(kind: quorumlab_sim::ProtocolKind, labels: &[&str]) -> CoordinationView {
    CoordinationView {
        kind,
        labels: labels.iter().map(|label| label.to_string()).collect(),
        workers: Vec::new(),
        service: None,
        resource: None,
        world: None,
        grants_last_second: None,
    }
}
