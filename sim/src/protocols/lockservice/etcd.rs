//! etcd's names for what this service does, so a learner who later opens etcd's v3 API recognises
//! every call.
//!
//! The service on screen is a small etcd: a client's `Acquire` is etcd's **LeaseGrant** followed by a
//! **Txn** that creates the client's own lock key under a prefix, attached to the lease
//! (`/lock/jobs/<lease id in hex>`, the key the `concurrency` package's mutex writes), with the compare
//! `create_revision == 0` so the Txn only creates a key that does not exist yet. The key with the
//! lowest create revision under the prefix holds the lock; every other client **Watch**es the key
//! created just before its own (its predecessor) and waits for that key's delete. The holder keeps the
//! lease alive with **LeaseKeepAlive**; **LeaseRevoke** deletes the lease and the key with it (this is
//! how the holder releases); a lease that is not kept alive expires and its key is deleted the same
//! way. The *revision* at which the key was created is the number a fenced store compares: the fencing
//! token. etcd reports it as the key's `mod_revision` (equal to its `create_revision`, since a lock key
//! is written once), and a store that is etcd itself fences a write with a Txn whose compare is
//! `mod_revision(lock key) == token`: once the lease is gone the key is gone and the compare fails.
//!
//! Only the words change. The trace keeps recording each message under its wire label (`Acquire`,
//! `KeepAlive`, ...): those labels are part of every run's fingerprint, which old share links and trace
//! files are checked against, so renaming them would make every recorded lock-service run look changed.
//! Views and narration translate at the moment they tell the story ([`etcd_call`]).

/// The prefix under which every client's lock key for `key` is created (the lock's name).
pub fn lock_prefix(key: u32) -> String {
    if key == 0 {
        "/lock/jobs/".to_string()
    } else {
        format!("/lock/jobs-{key}/")
    }
}

/// The lock key a client creates for `key` under its lease: the prefix and the lease id in hex, as
/// etcd's mutex names it.
pub fn lock_key(key: u32, lease: u64) -> String {
    format!("{}{lease:x}", lock_prefix(key))
}

/// The lock's name without its trailing slash, for sentences ("lock /lock/jobs held back ...").
pub fn lock_name(key: u32) -> String {
    let prefix = lock_prefix(key);
    prefix.trim_end_matches('/').to_string()
}

/// etcd's name for a lock-service message, given its wire label; `None` for a label that is not the
/// lock service's (Raft's messages and the store's keep their own names).
pub fn etcd_call(label: &str) -> Option<&'static str> {
    let call = match label {
        "Acquire" => "LeaseGrant + Txn",
        "Acquired" => "Txn ok: lock held",
        "Queued" => "Txn ok: Watch predecessor",
        "Granted" => "Watch: predecessor deleted",
        "KeepAlive" => "LeaseKeepAlive",
        "KeepAlive ok" => "LeaseKeepAlive ok",
        "Lease gone" => "LeaseKeepAlive: lease not found",
        "Release" => "LeaseRevoke",
        "Released" => "LeaseRevoke ok",
        "Not leader" => "error: not leader",
        _ => return None,
    };
    Some(call)
}

/// `label` in etcd's words when it is a lock-service message, else unchanged.
pub fn etcd_label(label: &'static str) -> &'static str {
    etcd_call(label).unwrap_or(label)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::units::FencingToken;
    use crate::protocols::lockservice::{AcquireResult, LockServiceMessage};

    /// Every message the service and its clients exchange, one of each label.
    fn every_message() -> Vec<LockServiceMessage> {
        let token = FencingToken(4);
        vec![
            LockServiceMessage::Acquire {
                key: 0,
                ttl_ms: 1_000,
                request: 1,
                attempt: 1,
                idempotent: false,
            },
            LockServiceMessage::AcquireReply {
                request: 1,
                result: AcquireResult::Granted { lease: 3, token },
            },
            LockServiceMessage::AcquireReply {
                request: 1,
                result: AcquireResult::Queued { lease: 3 },
            },
            LockServiceMessage::Granted {
                key: 0,
                lease: 3,
                token,
            },
            LockServiceMessage::KeepAlive {
                lease: 3,
                sent_at_local_us: 0,
            },
            LockServiceMessage::KeepAliveReply {
                lease: 3,
                alive: true,
                token: None,
                echo_sent_at_local_us: 0,
            },
            LockServiceMessage::KeepAliveReply {
                lease: 3,
                alive: false,
                token: None,
                echo_sent_at_local_us: 0,
            },
            LockServiceMessage::Release {
                key: 0,
                lease: 3,
                request: 2,
            },
            LockServiceMessage::ReleaseReply {
                request: 2,
                released: true,
            },
            LockServiceMessage::NotLeader {
                request: 1,
                attempt: 1,
                leader_hint: None,
            },
        ]
    }

    #[test]
    fn every_lock_service_message_has_an_etcd_name() {
        let mut names: Vec<&str> = every_message()
            .iter()
            .map(|message| etcd_call(message.label()).unwrap_or_else(|| panic!("{message:?}")))
            .collect();
        let count = names.len();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), count, "two messages share an etcd name");
    }

    #[test]
    fn the_calls_are_etcds_own() {
        assert_eq!(etcd_label("KeepAlive"), "LeaseKeepAlive");
        assert_eq!(etcd_label("Release"), "LeaseRevoke");
        assert!(etcd_label("Acquire").starts_with("LeaseGrant"));
        assert!(etcd_label("Queued").contains("Watch"));
    }

    #[test]
    fn other_messages_keep_their_names() {
        for label in ["AppendEntries", "Heartbeat", "Access ok", "Write"] {
            assert_eq!(etcd_call(label), None, "{label}");
            assert_eq!(etcd_label(label), label);
        }
    }

    #[test]
    fn a_lock_key_is_the_prefix_and_the_lease_in_hex() {
        assert_eq!(lock_key(0, 26), "/lock/jobs/1a");
        assert_eq!(lock_key(2, 255), "/lock/jobs-2/ff");
        assert_eq!(lock_name(0), "/lock/jobs");
    }
}
