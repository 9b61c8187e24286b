//! Asking a world whether what its clients saw so far is linearizable.
//!
//! The world's folder names the models (`WorldParts::history_models`); the client log holds the
//! history; the check runs on both within a budget. Nothing here changes the world, so asking at any
//! instant, as often as wanted, leaves the run and its hash as they were.

use super::World;
use crate::contract::erased_model::DynModel;
use crate::engine::linearizable::models::{check_models, witness, HistoryCheck, Witness};
use crate::engine::linearizable::{Budget, HistoryError};

impl World {
    /// The linearizability of every client op recorded so far against the world's models, each
    /// partition within `budget`. Ops still waiting for an answer count as of unknown outcome.
    pub fn linearizability(&self, budget: Budget) -> Result<HistoryCheck, HistoryError> {
        let ops = self.client_log.ops();
        check_models(
            self.history_models(),
            &ops,
            self.client_log.truncated_at_us(),
            budget,
        )
    }

    /// The few ops that show `check`'s refusal (a check of this world's log), with their shape.
    pub fn history_witness(&self, check: &HistoryCheck, budget: Budget) -> Option<Witness> {
        witness(self.history_models(), &self.client_log.ops(), check, budget)
    }

    pub(super) fn history_models(&self) -> &'static [&'static dyn DynModel] {
        let parts = self.config.protocol.entry().parts;
        parts.history_models(&self.config.protocol)
    }
}
