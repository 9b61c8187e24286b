//! What a checker says, as values every layer can hold: a finding (an invariant broken, where and how,
//! in words), the run's list of findings with its per-invariant cap, and the trait a world's own
//! checker implements from inside its protocol folder.
//!
//! These sit in the contract, below the engine, because a protocol's folder may import only the base
//! and contract layers: a folder that owns its checker must be able to name what the checker reports.
//! The engine turns each [`Finding`] into a trace event at the moment it is found, so where a checker
//! lives changes nothing in the trace.

use crate::base::ids::NodeId;
use crate::base::time::SimTime;
use crate::contract::report::ViolationRecord;
use std::any::Any;
use std::collections::BTreeMap;
use std::fmt::Debug;

/// Violations listed per invariant at most; [`Violations::counts`] keeps counting past the cap.
pub const VIOLATIONS_PER_INVARIANT: u64 = 100;

/// One invariant found broken: its name (as the registry lists it), the nodes involved and a sentence
/// for people. The engine records it in the trace as a violation event.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Finding {
    pub invariant: &'static str,
    pub nodes: Vec<NodeId>,
    pub detail: String,
}

/// Every violation of a run: the first [`VIOLATIONS_PER_INVARIANT`] of each invariant as records for
/// the report, and a count of all of them.
#[derive(Clone, Debug, Hash, Default)]
pub struct Violations {
    list: Vec<ViolationRecord>,
    counts: BTreeMap<String, u64>,
}

impl Violations {
    /// Records a violation found at `now`; returns the finding, for the caller to announce.
    pub fn report(
        &mut self,
        invariant: &'static str,
        now: SimTime,
        nodes: Vec<NodeId>,
        detail: String,
    ) -> Finding {
        let count = self.counts.entry(invariant.to_string()).or_insert(0);
        *count += 1;
        if *count <= VIOLATIONS_PER_INVARIANT {
            self.list.push(ViolationRecord {
                invariant: invariant.to_string(),
                at_ms: now.as_ms(),
                nodes: nodes.iter().map(|node| node.to_string()).collect(),
                detail: detail.clone(),
            });
        }
        Finding {
            invariant,
            nodes,
            detail,
        }
    }

    /// The listed violations, in the order they were found.
    pub fn list(&self) -> &[ViolationRecord] {
        &self.list
    }

    /// Violations per invariant name, those beyond the list's cap included.
    pub fn counts(&self) -> &BTreeMap<String, u64> {
        &self.counts
    }
}

/// Where one fact's findings go: the run's list, and the findings of this step for the trace.
pub struct Verdicts<'a> {
    pub now: SimTime,
    pub violations: &'a mut Violations,
    pub found: &'a mut Vec<Finding>,
}

impl Verdicts<'_> {
    /// Records that `invariant` broke at `nodes`, with `detail` saying how.
    pub fn fire(&mut self, invariant: &'static str, nodes: Vec<NodeId>, detail: String) {
        let finding = self.violations.report(invariant, self.now, nodes, detail);
        self.found.push(finding);
    }
}

/// The name a finding's detail gives `node`: its label (`A`, `n3`) where the world set one.
pub fn node_label(labels: &[String], node: NodeId) -> String {
    labels
        .get(node.index())
        .cloned()
        .unwrap_or_else(|| node.to_string())
}

/// A world's own checker, armed by its registry entry and fed every fact an actor observes.
///
/// `fact` is the inner fact of the world's `Fact` variant (a `PaxosFact`, say); a checker downcasts it
/// to its own type and ignores every other. The engine keeps the checker inside the world, which is
/// cloned for time travel, hence `clone_box`; views and lesson checks read what it learned (the value
/// Paxos chose) through `as_any`.
pub trait WorldChecker: Send {
    fn check(&mut self, node: NodeId, fact: &dyn Any, verdicts: &mut Verdicts<'_>);
    fn clone_box(&self) -> Box<dyn WorldChecker>;
    fn as_any(&self) -> &dyn Any;
    /// Feeds the memory this checker's future verdicts depend on to `out` (the explorer's state digest).
    fn digest(&self, out: &mut dyn std::hash::Hasher);
}

// Debug by name only: a `Debug` supertrait would put every checker's formatting code in the vtable, and
// so in the app's wasm, which never prints a checker.
impl Debug for dyn WorldChecker {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.write_str("WorldChecker")
    }
}

/// A world checker that reads one fact type: implementing this gives [`WorldChecker`], the downcast
/// and the boxing written once for every world.
pub trait FactChecker: Clone + Send + std::hash::Hash + 'static {
    type Fact: 'static;
    fn check_fact(&mut self, node: NodeId, fact: &Self::Fact, verdicts: &mut Verdicts<'_>);
}

impl<T: FactChecker> WorldChecker for T {
    fn check(&mut self, node: NodeId, fact: &dyn Any, verdicts: &mut Verdicts<'_>) {
        if let Some(fact) = fact.downcast_ref::<T::Fact>() {
            self.check_fact(node, fact, verdicts);
        }
    }

    fn clone_box(&self) -> Box<dyn WorldChecker> {
        Box::new(self.clone())
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    fn digest(&self, mut out: &mut dyn std::hash::Hasher) {
        self.hash(&mut out);
    }
}

impl Clone for Box<dyn WorldChecker> {
    fn clone(&self) -> Box<dyn WorldChecker> {
        self.clone_box()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_list_stops_at_its_cap_and_the_count_goes_on() {
        let mut violations = Violations::default();
        for _ in 0..VIOLATIONS_PER_INVARIANT + 5 {
            violations.report("Agreement", SimTime::ZERO, vec![NodeId(1)], "two".into());
        }
        assert_eq!(violations.list().len() as u64, VIOLATIONS_PER_INVARIANT);
        assert_eq!(
            violations.counts().get("Agreement"),
            Some(&(VIOLATIONS_PER_INVARIANT + 5))
        );
    }

    #[test]
    fn a_node_without_a_label_is_named_by_its_id() {
        let labels = vec!["n1".to_string(), "A".to_string()];
        assert_eq!(node_label(&labels, NodeId(1)), "A");
        assert_eq!(node_label(&labels, NodeId(4)), NodeId(4).to_string());
    }
}
