//! Completion codes: a learner's proof that they did a lesson's steps, checked without a server.
//!
//! A code is one copyable line, `QLC1.` and then base64url (no padding) of a postcard [`CompletionCode`]
//! and a 4-byte checksum (`codec.rs`). It carries no verdict anyone has to trust. It holds the lesson
//! (its id and the hash of the lesson file the learner ran, so a code from a changed lesson is reported
//! as such instead of being judged against different steps), the engine's behaviour version (a run
//! replays exactly only under the same one), and the learner's runs: per world a run was played on, its
//! seed, the settings if the learner changed them, where the lesson's watch began, how far it was
//! played and every recorded action with its exact place (time and events before it). Per step it
//! holds whether "show me" was used and whether the page claimed the step met.
//!
//! Checking ([`verify`]) never believes the claims: it rebuilds each run from the lesson's own scenario
//! and replays the recorded actions under the same [`LessonDriver`](super::lesson::LessonDriver) the
//! page and the headless lesson tests use, then reports per step whether the replay met it, how (by
//! hand or with "show me", as the page recorded), and any claim the replay does not bear out: a code
//! edited to claim more, or a seed changed, cannot tick a step its actions do not tick.
//!
//! Everything is bounded so a pasted code cannot make the checker hang: the code's length, the runs,
//! steps and actions in it, the simulated time a run may cover, and the events a replay may process
//! ([`MAX_REPLAY_EVENTS_PER_CODE`]); a bound reached is reported as such, never as "not met".

mod codec;
mod record;
mod recorded_run;
mod report;
#[cfg(test)]
mod tests;
mod verify;

pub use codec::{decode, encode, CodeError, CODE_PREFIX};
pub use record::{code_actions, recorded_actions};
pub use record::{CodeAction, CompletionCode, LessonRunRecord, StepRecord};
pub use report::{CodeReport, HowMet, StepReport, StepStatus, CLAIM_NOT_MET};
pub use verify::{check_one, split_codes, verify, verify_text, Verification};

/// Longest code accepted, in characters (a lesson done by hand is a few hundred).
pub const MAX_CODE_CHARS: usize = 100_000;
/// Most runs (worlds or fresh starts) one code may hold.
pub const MAX_RUNS: usize = 32;
/// Most steps one code may describe (no lesson comes near it).
pub const MAX_STEPS: usize = 64;
/// Most recorded actions one run may hold (as a share link).
pub const MAX_ACTIONS_PER_RUN: usize = 5_000;
/// Longest changed-settings text (a scenario's TOML) one run may carry, in bytes.
pub const MAX_SETTINGS_BYTES: usize = 16_384;
/// Longest lesson id, in bytes.
pub const MAX_LESSON_ID_BYTES: usize = 64;
/// Furthest simulated instant a run may reach: one hour, the longest scenario.
pub const MAX_RUN_US: u64 = crate::tooling::scenario::MAX_DURATION_MS * 1_000;
/// Most events all the replays of one code may process together (see `tooling::replay` for what an
/// event costs): a lesson done by hand takes a few tens of thousands.
pub const MAX_REPLAY_EVENTS_PER_CODE: u64 = 800_000;
/// Most codes checked in one go (the page and the command line both stop there and say so).
pub const MAX_CODES_PER_CHECK: usize = 200;
