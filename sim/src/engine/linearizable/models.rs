//! A whole world's history against every model its folder gives: the check `World::linearizability`
//! and the command line report.
//!
//! A world may serve more than one kind of client (a lock service's clients take locks and write to a
//! store), so its folder lists a model per kind, each judging its own calls. The history is
//! linearizable when every model's part of it is; a refusal by any model is a verdict on its own, and
//! a bound reached anywhere without a refusal leaves the whole undecided. A log that ran out of room
//! is checked as the prefix it holds, and says so: the verdict is then about the run up to the cut.

use super::witness::{pattern, shrink, Pattern};
use super::{check, partitions, prune::prune, Bound, Check, HistoryError, Verdict};
use crate::contract::client_history::{Op, OpIndex};
use crate::contract::erased_model::{DynModel, Erased};
use crate::engine::linearizable::Budget;

/// The check of one history against several models.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HistoryCheck {
    /// Ops in the history, whatever model judged them.
    pub ops: usize,
    /// Where the log stopped recording, when it did: the check covers the run only up to there.
    pub truncated_at_us: Option<u64>,
    /// One check per model, in the order the world lists them.
    pub checks: Vec<Check>,
}

/// The verdict over every model.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HistoryVerdict {
    /// No model judged any op (a world with no model, or no client op yet judged).
    NothingJudged,
    Linearizable,
    Refused {
        model: &'static str,
        partition: u64,
    },
    Undecided {
        model: &'static str,
        partition: u64,
        bound: Bound,
    },
}

impl HistoryCheck {
    pub fn verdict(&self) -> HistoryVerdict {
        let verdicts = || {
            self.checks
                .iter()
                .map(|check| (check.model, check.verdict()))
        };
        let refused = verdicts().find_map(|(model, verdict)| match verdict {
            Verdict::Refused { partition } => Some(HistoryVerdict::Refused { model, partition }),
            _ => None,
        });
        let undecided = || {
            verdicts().find_map(|(model, verdict)| match verdict {
                Verdict::Undecided { partition, bound } => Some(HistoryVerdict::Undecided {
                    model,
                    partition,
                    bound,
                }),
                _ => None,
            })
        };
        if let Some(verdict) = refused.or_else(undecided) {
            return verdict;
        }
        if self.partitions() == 0 {
            HistoryVerdict::NothingJudged
        } else {
            HistoryVerdict::Linearizable
        }
    }

    /// Parts checked, over every model.
    pub fn partitions(&self) -> usize {
        self.checks.iter().map(|check| check.partitions.len()).sum()
    }

    /// Model steps tried, over every model.
    pub fn explored(&self) -> u64 {
        self.checks.iter().map(Check::explored).sum()
    }

    /// The first model's refusal, if any: the model's check (its refused part first among its parts).
    pub fn refused(&self) -> Option<&Check> {
        self.checks.iter().find(|check| check.refusal().is_some())
    }
}

/// Checks `ops` against each of `models`, every part within `budget`.
pub fn check_models(
    models: &[&dyn DynModel],
    ops: &[Op],
    truncated_at_us: Option<u64>,
    budget: Budget,
) -> Result<HistoryCheck, HistoryError> {
    let checks = models
        .iter()
        .map(|model| check(&Erased(*model), ops, budget))
        .collect::<Result<Vec<Check>, HistoryError>>()?;
    Ok(HistoryCheck {
        ops: ops.len(),
        truncated_at_us,
        checks,
    })
}

/// The smallest refused part of a refused history, and its shape.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Witness {
    pub model: &'static str,
    /// The op the search could not place (from the whole part, before shrinking).
    pub stuck: OpIndex,
    /// The witness ops, in history order.
    pub ops: Vec<OpIndex>,
    pub pattern: Pattern,
}

/// The witness of `check`'s first refusal, found again on `ops` with the model that refused; `None`
/// when nothing was refused or that model cannot be shrunk (see `witness::shrink`).
pub fn witness(
    models: &[&dyn DynModel],
    ops: &[Op],
    check: &HistoryCheck,
    budget: Budget,
) -> Option<Witness> {
    let refused = check.refused()?;
    let (part, stuck, _) = refused.refusal()?;
    let model = Erased(*models.iter().find(|model| model.name() == refused.model)?);
    let whole = partitions(&model, ops).remove(&part.partition)?;
    let pruned = prune(&model, whole);
    let members = shrink(&model, &pruned, budget)?;
    Some(Witness {
        model: refused.model,
        stuck,
        pattern: pattern(&model, ops, &members),
        ops: members,
    })
}
