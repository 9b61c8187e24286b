//! Timing and catching: every path an input takes is run under `catch_unwind` and timed, and a
//! watchdog thread ends the process, naming the input, if one never comes back.
//!
//! Time is judged on the thread's own CPU time where Linux reports it (`/proc/thread-self/schedstat`),
//! because this machine is shared: wall time swings by several times with the load while CPU time
//! does not. Wall time is measured too and printed beside it.

use std::cell::RefCell;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

thread_local! {
    static LAST_PANIC: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Keeps panic messages for the report instead of printing each one (they are findings, shown once).
pub fn quiet_panics() {
    std::panic::set_hook(Box::new(|info| {
        let place = info
            .location()
            .map(|location| format!(" at {}:{}", location.file(), location.line()))
            .unwrap_or_default();
        let message = info
            .payload()
            .downcast_ref::<&str>()
            .map(|text| text.to_string())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "a panic without a message".to_string());
        LAST_PANIC.with(|last| *last.borrow_mut() = Some(format!("{message}{place}")));
    }));
}

/// `run`, with a panic caught and turned into its message and place.
pub fn caught<T>(run: impl FnOnce() -> T) -> Result<T, String> {
    catch_unwind(AssertUnwindSafe(run)).map_err(|_| {
        LAST_PANIC
            .with(|last| last.borrow_mut().take())
            .unwrap_or_else(|| "a panic".to_string())
    })
}

/// CPU time this thread has run, in nanoseconds: the first field of its schedstat.
fn thread_cpu() -> Option<Duration> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let nanos: u64 = text.split_whitespace().next()?.parse().ok()?;
    Some(Duration::from_nanos(nanos))
}

/// The input being tried, for the watchdog to name if it never finishes.
#[derive(Clone)]
pub struct Watchdog {
    current: Arc<Mutex<Option<(Instant, String)>>>,
}

impl Watchdog {
    /// Starts the watchdog thread: an input still running after `hang_after` is a hang, reported
    /// with its reproduction, and the process exits (a hung replay cannot be interrupted).
    pub fn start(hang_after: Duration) -> Watchdog {
        let watchdog = Watchdog {
            current: Arc::new(Mutex::new(None)),
        };
        let watched = watchdog.current.clone();
        std::thread::spawn(move || loop {
            std::thread::sleep(Duration::from_millis(200));
            let guard = watched
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner());
            if let Some((started, reproduction)) = guard.as_ref() {
                if started.elapsed() > hang_after {
                    eprintln!(
                        "\nFUZZ FINDING: an input ran for more than {} s and did not finish (a hang).\n{reproduction}",
                        hang_after.as_secs()
                    );
                    std::process::exit(1);
                }
            }
        });
        watchdog
    }

    /// Marks `reproduction` as running now (`None`: nothing is running).
    pub fn watch(&self, reproduction: Option<String>) {
        let mut guard = self
            .current
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        *guard = reproduction.map(|text| (Instant::now(), text));
    }
}

/// The time each path of one input took, in the order they ran.
#[derive(Default)]
pub struct Clock {
    pub paths: Vec<(&'static str, Timing)>,
}

#[derive(Clone, Copy, Debug)]
pub struct Timing {
    pub wall: Duration,
    pub cpu: Option<Duration>,
}

impl Timing {
    /// The time the budget is judged on.
    pub fn judged(&self) -> Duration {
        self.cpu.unwrap_or(self.wall)
    }
}

impl Clock {
    pub fn time<T>(&mut self, path: &'static str, run: impl FnOnce() -> T) -> T {
        let cpu_before = thread_cpu();
        let started = Instant::now();
        let value = run();
        let wall = started.elapsed();
        let cpu = match (cpu_before, thread_cpu()) {
            (Some(before), Some(after)) => Some(after.saturating_sub(before)),
            _ => None,
        };
        self.paths.push((path, Timing { wall, cpu }));
        value
    }
}
