//! A history check in a form people and scripts read: the verdict in words, the counts behind it and,
//! on a refusal, the op that could not be placed and the order that got furthest before it.
//!
//! On a refusal it also carries the witness: the few ops that no order explains on their own, with
//! the sentence their shape calls for (`views::history_words`).
//!
//! The command line prints it as the `history` block of `quorumlab run --history`; a view in the app
//! can show the same fields. Ops are described from the client's side ("get key 1 → 1", "put key 1 =
//! 17"), with the true times of their invocation and completion and the node that answered.

use crate::base::ids::NodeId;
use crate::contract::client_history::{Op, OpIndex};
use crate::contract::erased_model::DynModel;
use crate::engine::linearizable::models::{
    check_models, witness, HistoryCheck, HistoryVerdict, Witness,
};
use crate::engine::linearizable::Budget;
use crate::engine::linearizable::HistoryError;
use crate::engine::world::World;
use crate::views::history_cause::{applied_actions, cause_sentence, AppliedAction};
use crate::views::history_words::{op_words, pattern_sentence};
use crate::worlds::registry::key_value_model;
use serde::Serialize;

/// One op as the summary shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct OpSummary {
    pub index: OpIndex,
    /// What the client asked and what it was told: "get key 1 → 1".
    pub what: String,
    pub invoked_us: u64,
    pub completed_us: Option<u64>,
    /// The node whose answer completed the op.
    pub served_by: Option<String>,
}

/// Why a history was refused.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RefusalSummary {
    pub model: &'static str,
    pub partition: u64,
    /// The op no order could place after `longest`.
    pub stuck: OpSummary,
    /// The longest partial linearization the search built before it had to give up on it.
    pub longest: Vec<OpSummary>,
    /// The smallest set of ops that no order explains on its own, when the model allows shrinking.
    pub witness: Vec<OpSummary>,
    /// What the witness shows, in one sentence.
    pub witness_words: Option<String>,
    /// The fault on the answering node that came before the op could not be placed, when the run's
    /// actions name one (`views::history_cause`).
    pub cause_words: Option<String>,
}

/// The `history` block.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct HistorySummary {
    /// "linearizable", "not linearizable", "undecided" or "nothing judged".
    pub verdict: &'static str,
    /// The verdict as a sentence.
    pub words: String,
    pub models: Vec<&'static str>,
    pub ops: usize,
    pub partitions: usize,
    /// Model steps the search tried over every part.
    pub explored: u64,
    /// Where the client log stopped recording, if it did: the verdict covers the run up to there.
    pub truncated_at_us: Option<u64>,
    pub refused: Option<RefusalSummary>,
}

/// The summary of `check`, a check of `world`'s client log, shrinking a refusal's witness with
/// headless limits.
pub fn summarize(world: &World, check: &HistoryCheck) -> HistorySummary {
    summarize_within(world, check, Budget::NATIVE)
}

/// [`summarize`] with the witness search held to `budget` (the app's, which shares a tab); a budget
/// reached only loses the witness and its sentence, never the verdict.
pub fn summarize_within(world: &World, check: &HistoryCheck, budget: Budget) -> HistorySummary {
    let ops = world.client_log().ops();
    let witness = world.history_witness(check, budget);
    let name = |node: NodeId| world.node_label(node);
    let actions = applied_actions(world.action_log(), world.leader_aims());
    summarize_ops(&ops, check, witness, &name, &actions)
}

/// The summary of a history read from a file (`linearizable::import`): checked against the
/// key-value store's model within `budget`, with no run behind it, so no fault to name.
pub fn summarize_imported(ops: &[Op], budget: Budget) -> Result<HistorySummary, HistoryError> {
    let models: &[&dyn DynModel] = &[key_value_model()];
    let check = check_models(models, ops, None, budget)?;
    let found = witness(models, ops, &check, budget);
    let name = |node: NodeId| node.to_string();
    Ok(summarize_ops(ops, &check, found, &name, &[]))
}

/// The summary of `check`, a check of `ops`, given its witness (if one was found), node names and
/// the actions of the run the ops came from, as it applied them.
pub fn summarize_ops(
    ops: &[Op],
    check: &HistoryCheck,
    witness: Option<Witness>,
    name: &dyn Fn(NodeId) -> String,
    actions: &[AppliedAction],
) -> HistorySummary {
    let describe = |index: OpIndex| describe_op(name, &ops[index as usize]);
    let refused = check.refused().and_then(|model_check| {
        let (part, stuck, longest) = model_check.refusal()?;
        Some(RefusalSummary {
            model: model_check.model,
            partition: part.partition,
            stuck: describe(stuck),
            longest: longest.iter().map(|index| describe(*index)).collect(),
            witness: witness
                .iter()
                .flat_map(|witness| witness.ops.iter().map(|index| describe(*index)))
                .collect(),
            witness_words: witness
                .as_ref()
                .map(|witness| pattern_sentence(ops, &witness.pattern, stuck)),
            cause_words: cause_sentence(actions, &ops[stuck as usize], name),
        })
    });
    let verdict = check.verdict();
    HistorySummary {
        verdict: verdict_name(&verdict),
        words: sentence(&verdict, check, refused.as_ref()),
        models: check.checks.iter().map(|model| model.model).collect(),
        ops: check.ops,
        partitions: check.partitions(),
        explored: check.explored(),
        truncated_at_us: check.truncated_at_us,
        refused,
    }
}

fn verdict_name(verdict: &HistoryVerdict) -> &'static str {
    match verdict {
        HistoryVerdict::NothingJudged => "nothing judged",
        HistoryVerdict::Linearizable => "linearizable",
        HistoryVerdict::Refused { .. } => "not linearizable",
        HistoryVerdict::Undecided { .. } => "undecided",
    }
}

fn sentence(
    verdict: &HistoryVerdict,
    check: &HistoryCheck,
    refused: Option<&RefusalSummary>,
) -> String {
    let scope = match check.truncated_at_us {
        Some(cut_us) => format!(" up to {} ms, where the client log stopped", cut_us / 1_000),
        None => String::new(),
    };
    match (verdict, refused) {
        (HistoryVerdict::NothingJudged, _) if check.checks.is_empty() => {
            "This world has no model of what its clients see.".to_string()
        }
        (HistoryVerdict::NothingJudged, _) => "No client operation to judge yet.".to_string(),
        (HistoryVerdict::Linearizable, _) => format!(
            "Linearizable{scope}: {} operations over {} keys fit one order.",
            check.ops,
            check.partitions()
        ),
        (HistoryVerdict::Refused { .. }, Some(refusal)) if refusal.witness_words.is_some() => {
            let words = refusal.witness_words.as_deref().unwrap_or_default();
            let cause = refusal
                .cause_words
                .as_ref()
                .map_or(String::new(), |cause| format!(" {cause}"));
            format!("Not linearizable{scope}: {words}{cause}")
        }
        (HistoryVerdict::Refused { .. }, Some(refusal)) => {
            let before: Vec<&str> = refusal.longest.iter().map(|op| op.what.as_str()).collect();
            format!(
                "Not linearizable{scope}: \"{}\" fits no order of what came before it; the longest order found was [{}].",
                refusal.stuck.what,
                before.join(", ")
            )
        }
        (HistoryVerdict::Undecided { bound, .. }, _) => {
            format!("Undecided{scope}: the search stopped at {bound} without an answer.")
        }
        (HistoryVerdict::Refused { .. }, None) => "Not linearizable.".to_string(),
    }
}

fn describe_op(name: &dyn Fn(NodeId) -> String, op: &Op) -> OpSummary {
    OpSummary {
        index: op.index,
        what: op_words(op),
        invoked_us: op.invoked.at_us,
        completed_us: op.completed.map(|instant| instant.at_us),
        served_by: op.served_by.map(name),
    }
}
