//! "Can it break?" in the page: the engine's bounded search (`quorumlab_sim::explore`, the same one
//! `quorumlab explore` runs) asked about the world on screen, in a Web Worker of its own so the cluster
//! keeps drawing while thousands of schedules are replayed.
//!
//! `question` turns what the learner chose (where to start, what to look for, the budget) into a
//! scenario and a request; `messages` is what the page and the worker say; `work` is the worker's
//! whole job as plain, natively tested Rust; `search_link` is the page's end of the worker; `search`
//! holds the panel's state and what Go, Cancel and "Play it" do. A found schedule becomes an ordinary
//! scenario (the searched one with the found steps added), so everything a run has works on it.

pub mod messages;
pub mod question;
pub mod search;
pub mod search_link;
pub mod work;
