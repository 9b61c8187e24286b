//! The roles a learner can write, each with its contract, its starting stub, our own answer and the
//! classic wrong answers, all in the learner's language (`solutions/*.rhai`), and the world the
//! grader judges it in.

use crate::contract::entry::invariants::{
    MUTUAL_EXCLUSION, NO_DUPLICATE_INVOICE, RELEASE_BY_OWNER,
};
use crate::tooling::sweep::PROGRESS_AFTER_HEAL;

/// One role of the lab.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RoleKind {
    /// The fenced store's decision on an access.
    StoreWrite,
    /// The Redis-style server's compare-and-delete when a client lets go of the lock.
    Release,
    /// The scheduler leader's guard at the top of a minute.
    JobGuard,
}

/// A classic wrong answer and the property it must break.
#[derive(Clone, Copy, Debug)]
pub struct WrongAnswer {
    pub name: &'static str,
    pub source: &'static str,
    pub breaks: &'static str,
}

/// Where the grader judges a role: scenario files, a chaos variant and the search's scenario.
#[derive(Clone, Copy, Debug)]
pub struct Proving {
    pub scenarios: &'static [(&'static str, &'static str)],
    /// The world's registry name and the sweep variant the chaos check runs.
    pub world: &'static str,
    pub variant: &'static str,
    /// The properties that are this role's to keep; `None`: every checker, and progress.
    pub judged: Option<&'static [&'static str]>,
}

impl RoleKind {
    pub const ALL: [RoleKind; 3] = [RoleKind::StoreWrite, RoleKind::Release, RoleKind::JobGuard];

    pub fn name(self) -> &'static str {
        match self {
            RoleKind::StoreWrite => "store-write",
            RoleKind::Release => "release",
            RoleKind::JobGuard => "job-guard",
        }
    }

    pub fn from_name(name: &str) -> Option<RoleKind> {
        RoleKind::ALL.into_iter().find(|kind| kind.name() == name)
    }

    /// The function a script for this role must define (with one parameter).
    pub fn function(self) -> &'static str {
        match self {
            RoleKind::StoreWrite => "decide",
            RoleKind::Release => "release",
            RoleKind::JobGuard => "guard",
        }
    }

    /// The contract in one paragraph: input, output, and what a failure means.
    pub fn contract(self) -> &'static str {
        match self {
            RoleKind::StoreWrite => {
                "Input: #{ write, token, highest_seen, idempotent, key, applied_key } (applied_key is () \
                 before the client's first applied write). Output: #{ verdict: \"accept\" | \"duplicate\" \
                 | \"stale\", highest_seen }. Errors: an error or another answer refuses the access as stale."
            }
            RoleKind::Release => {
                "Input: #{ held_value, held_by, value, from } for a DEL of a live key. Output: true deletes \
                 the key, false keeps it (it still expires). Errors: an error or another answer keeps the key."
            }
            RoleKind::JobGuard => {
                "Input: #{ minute, now_us, lease_until_us, holds_lease, term }. Output: #{ run, token, \
                 if_absent }, carried to the invoice write work_ms later. Errors: an error or another \
                 answer skips the minute."
            }
        }
    }

    pub fn stub(self) -> &'static str {
        match self {
            RoleKind::StoreWrite => include_str!("solutions/store-write-stub.rhai"),
            RoleKind::Release => include_str!("solutions/release-stub.rhai"),
            RoleKind::JobGuard => include_str!("solutions/job-guard-stub.rhai"),
        }
    }

    /// Our own answer, in the learner's language.
    pub fn reference(self) -> &'static str {
        match self {
            RoleKind::StoreWrite => include_str!("solutions/store-write.rhai"),
            RoleKind::Release => include_str!("solutions/release.rhai"),
            RoleKind::JobGuard => include_str!("solutions/job-guard.rhai"),
        }
    }

    pub fn wrong_answers(self) -> &'static [WrongAnswer] {
        match self {
            RoleKind::StoreWrite => &[
                WrongAnswer {
                    name: "no-token-check",
                    source: include_str!("solutions/store-write-no-token-check.rhai"),
                    breaks: MUTUAL_EXCLUSION,
                },
                WrongAnswer {
                    name: "less-or-equal",
                    source: include_str!("solutions/store-write-less-or-equal.rhai"),
                    breaks: PROGRESS_AFTER_HEAL,
                },
            ],
            RoleKind::Release => &[WrongAnswer {
                name: "no-owner-check",
                source: include_str!("solutions/release-no-owner-check.rhai"),
                breaks: RELEASE_BY_OWNER,
            }],
            RoleKind::JobGuard => &[WrongAnswer {
                name: "lease-before-pause",
                source: include_str!("solutions/job-guard-lease-before-pause.rhai"),
                breaks: NO_DUPLICATE_INVOICE,
            }],
        }
    }

    pub fn proving(self) -> Proving {
        match self {
            RoleKind::StoreWrite => Proving {
                scenarios: &[(
                    "fencing-calm.toml",
                    include_str!("../../../lessons/scenarios/fencing-calm.toml"),
                )],
                world: "lock-service",
                variant: "fencing",
                judged: None,
            },
            // A Redis lock breaks under pauses whatever its release does (it has no fencing), so
            // only the property a release can break is this role's.
            RoleKind::Release => Proving {
                scenarios: &[(
                    "redis-lock-calm.toml",
                    include_str!("../../../lessons/scenarios/redis-lock-calm.toml"),
                )],
                world: "redis-lock",
                variant: "honest-servers",
                judged: Some(&[RELEASE_BY_OWNER]),
            },
            RoleKind::JobGuard => Proving {
                scenarios: &[(
                    "scheduler-fencing-calm.toml",
                    include_str!("../../../lessons/scenarios/scheduler-fencing-calm.toml"),
                )],
                world: "scheduler",
                variant: "leader-fencing",
                judged: None,
            },
        }
    }
}
