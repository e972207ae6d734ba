//! A coarse process-wide clock for the interrupt's deadline test.
//!
//! Luau calls the interrupt at every loop iteration, call and pattern-matching step, and
//! between two calls a chunk can run one library function or VM operation over a string as
//! large as the memory ceiling (a copy, a comparison, a hash: milliseconds each). Reading the
//! system clock at every interrupt would bound the overshoot to one such operation but would
//! nearly double the cost of a tight loop; reading it every few hundred interrupts would let
//! a loop of such operations run far past its deadline. So a thread stores the milliseconds
//! since its start in an atomic about once a millisecond while evaluations are running, and
//! the interrupt compares that number with the evaluation's deadline: one relaxed load. The
//! thread parks after [`IDLE`] with no evaluation started, and the next evaluation wakes it.
//!
//! The coarse reading only ever lags the true time, so it never stops an evaluation early;
//! the meter reads the system clock before it declares a timeout, and it still reads it every
//! few hundred interrupts whatever this clock says, so a delayed or missing ticker thread
//! makes the deadline looser, never absent.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};
use std::thread::{self, Thread};
use std::time::{Duration, Instant};

/// How often the thread stores the time.
const TICK: Duration = Duration::from_millis(1);

/// With no evaluation started for this long, the thread parks.
const IDLE: u64 = 1000;

/// What the ticker thread and the evaluations share.
struct Shared {
    /// The ticker's start: its readings are milliseconds since then.
    epoch: Instant,
    /// The last reading.
    now: AtomicU64,
    /// When an evaluation last asked for a deadline, in the same milliseconds.
    requested: AtomicU64,
    /// The thread is parked, or about to park.
    parked: AtomicBool,
}

/// The running ticker: the shared readings and the thread to wake.
struct Ticker {
    shared: Arc<Shared>,
    thread: Thread,
}

/// The process's ticker; `None` if its thread could not be started.
static TICKER: OnceLock<Option<Ticker>> = OnceLock::new();

/// The ticker, started on first use.
fn ticker() -> Option<&'static Ticker> {
    TICKER.get_or_init(start).as_ref()
}

/// Starts the ticker thread.
fn start() -> Option<Ticker> {
    let shared = Arc::new(Shared {
        epoch: Instant::now(),
        now: AtomicU64::new(0),
        requested: AtomicU64::new(0),
        parked: AtomicBool::new(false),
    });
    let in_thread = Arc::clone(&shared);
    let handle = thread::Builder::new()
        .name("writ-lua-clock".into())
        .spawn(move || tick(&in_thread))
        .ok()?;
    Some(Ticker {
        shared,
        thread: handle.thread().clone(),
    })
}

/// The ticker thread's loop: store the time, sleep a tick, park when idle.
fn tick(shared: &Shared) {
    loop {
        let now = millis_since(shared.epoch);
        shared.now.store(now, Ordering::Relaxed);
        if now.saturating_sub(shared.requested.load(Ordering::SeqCst)) > IDLE {
            shared.parked.store(true, Ordering::SeqCst);
            // Checked again after announcing the park, so that a request made in between
            // either is seen here or sees `parked` and unparks this thread.
            if now.saturating_sub(shared.requested.load(Ordering::SeqCst)) > IDLE {
                thread::park();
            }
            shared.parked.store(false, Ordering::SeqCst);
        } else {
            thread::sleep(TICK);
        }
    }
}

/// Whole milliseconds from `epoch` to now.
fn millis_since(epoch: Instant) -> u64 {
    u64::try_from(epoch.elapsed().as_millis()).unwrap_or(u64::MAX)
}

/// A deadline `timeout` from now, in this clock's milliseconds, waking the ticker if it sleeps.
pub(crate) fn deadline(timeout: Duration) -> u64 {
    let timeout = u64::try_from(timeout.as_millis()).unwrap_or(u64::MAX);
    match ticker() {
        Some(ticker) => {
            let shared = &ticker.shared;
            let now = millis_since(shared.epoch);
            shared.requested.store(now, Ordering::SeqCst);
            if shared.parked.load(Ordering::SeqCst) {
                ticker.thread.unpark();
            }
            now.saturating_add(timeout)
        }
        None => NEVER,
    }
}

/// A deadline that the coarse clock never reaches.
pub(crate) const NEVER: u64 = u64::MAX;

/// The coarse clock's reading, if the ticker runs.
pub(crate) fn now() -> Option<u64> {
    match TICKER.get() {
        Some(Some(ticker)) => Some(ticker.shared.now.load(Ordering::Relaxed)),
        _ => None,
    }
}

/// Whether the coarse clock has reached `deadline`. Without a ticker it never has, and the
/// meter's own clock readings bound the evaluation.
#[inline]
pub(crate) fn reached(deadline: u64) -> bool {
    match TICKER.get() {
        Some(Some(ticker)) => ticker.shared.now.load(Ordering::Relaxed) >= deadline,
        _ => false,
    }
}
