//! The two-phase-commit world's lesson checkpoint: so many participants in doubt at once, the moment
//! the blocking shows (each voted yes and has no decision, and may not make one alone).

use super::view::TwoPhaseView;
use crate::contract::checkpoint::{counted, Argument, CheckpointSpec, ClonedWatch, Verdict};
use crate::contract::world_read::WorldRead;

/// The checkpoints, in the order lesson hints offer them.
pub const CHECKPOINTS: &[CheckpointSpec] = &[CheckpointSpec {
    name: "participants_in_doubt",
    argument: Argument::Number,
    begin: |wanted, _| Box::new(InDoubtWatch { wanted }),
}];

/// Met while at least `wanted` participants are in doubt together.
#[derive(Clone, Debug, Hash)]
struct InDoubtWatch {
    wanted: u64,
}

impl ClonedWatch for InDoubtWatch {
    fn check(&mut self, world: &dyn WorldRead) -> Verdict {
        let view = TwoPhaseView::read(world);
        if view.participants.is_empty() {
            return Verdict::not_yet("this world has no two-phase-commit participants".into());
        }
        let in_doubt = view.in_doubt() as u64;
        let text = format!(
            "{} in doubt, waiting for a decision only the coordinator can give",
            counted(in_doubt, "participant is", "participants are")
        );
        if in_doubt >= self.wanted {
            Verdict::yes(text)
        } else {
            Verdict::not_yet(format!("{text} (waiting for {})", self.wanted))
        }
    }
}
