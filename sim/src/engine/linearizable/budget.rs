//! How much work one check may do before it says "undecided".
//!
//! Deciding linearizability is NP-complete in general, and a search over concurrent ops can grow
//! exponentially with how many of them overlap. A check that may run in a browser tab, on every frame
//! of a live run, has to stop somewhere, and when it stops it must not guess: a bound reached is
//! reported as [`Bound`] inside an undecided verdict, never as "linearizable" or "not linearizable".
//!
//! Three bounds, each counted by the search itself (never by making the model refuse steps, which
//! would corrupt what the search believes):
//!
//! - `configurations`: model steps tried, the search's unit of work;
//! - `cache_bytes`: an estimate of the memory held by the set of configurations already seen, which
//!   is what grows without limit on long histories (one bitset over the partition's ops per entry);
//! - `ops_per_partition`: a partition larger than this is not searched at all.
//!
//! The budget applies to each partition on its own, so a verdict does not depend on the order in
//! which partitions are checked.

/// The limits of one check, per partition.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    pub configurations: u64,
    pub cache_bytes: u64,
    pub ops_per_partition: usize,
}

impl Budget {
    /// Generous limits for headless checks: tests, the command line, sweeps.
    pub const NATIVE: Budget = Budget {
        configurations: 2_000_000,
        cache_bytes: 256 * 1024 * 1024,
        ops_per_partition: 20_000,
    };

    /// Limits for a check that shares a browser tab with the rest of the app.
    pub const APP: Budget = Budget {
        configurations: 200_000,
        cache_bytes: 16 * 1024 * 1024,
        ops_per_partition: 2_000,
    };
}

/// Which limit stopped a search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    Configurations(u64),
    CacheBytes(u64),
    OpsPerPartition(usize),
}

impl std::fmt::Display for Bound {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Bound::Configurations(limit) => write!(formatter, "{limit} configurations explored"),
            Bound::CacheBytes(limit) => {
                write!(formatter, "{limit} bytes of memoised configurations")
            }
            Bound::OpsPerPartition(limit) => write!(formatter, "more than {limit} operations"),
        }
    }
}

/// The work a search has done so far, checked against its budget.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Spent {
    pub configurations: u64,
    pub cache_bytes: u64,
}

impl Spent {
    /// The first bound this spending has reached, if any.
    pub fn reached(&self, budget: &Budget) -> Option<Bound> {
        if self.configurations >= budget.configurations {
            Some(Bound::Configurations(budget.configurations))
        } else if self.cache_bytes >= budget.cache_bytes {
            Some(Bound::CacheBytes(budget.cache_bytes))
        } else {
            None
        }
    }
}
