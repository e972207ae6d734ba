//! `Host`: the only way wall-clock time, monotonic time and randomness reach an evaluation.
//!
//! An evaluator never reads the system clock or a random source itself. What a language exposes
//! as values (JSONata's `$now()`, `$millis()`, `$random()`) it asks the [`Host`] for, and the
//! [`Meter`](crate::Meter) bounds time with the host's monotonic clock (a `Host` is a
//! [`Clock`]). So the host decides whether evaluations repeat:
//!
//! - [`FixedHost`], the default everywhere: a fixed time and a seeded sequence, so the same
//!   expression over the same data answers the same, every time;
//! - [`SystemHost`]: the system's time and a sequence seeded from it, for a command line;
//! - [`RecordingHost`]: any host, with every value it hands out recorded as a [`HostRead`], so a
//!   durable run can store them with its events;
//! - [`ReplayingHost`]: hands the recorded values out again, in order, so a resumed or replayed
//!   run answers exactly as the first one did, and records what it hands out past the record.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use crate::Clock;

/// Where an evaluation gets the time and random numbers.
///
/// Implementations are shared between threads; each method may be called from any of them.
pub trait Host: Clock {
    /// The wall-clock time, in milliseconds since 1970-01-01T00:00:00Z.
    fn now_millis(&self) -> f64;

    /// A number in `[0, 1)`.
    fn random(&self) -> f64;
}

/// The next number of a SplitMix64 sequence kept in `state`, as a double in `[0, 1)`.
fn split_mix(state: &AtomicU64) -> f64 {
    const GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut z = state.fetch_add(GAMMA, Ordering::Relaxed).wrapping_add(GAMMA);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^= z >> 31;
    // The top 53 bits, the precision of a double.
    (z >> 11) as f64 / (1u64 << 53) as f64
}

/// A host whose time stands still and whose random numbers are a seeded sequence: the default,
/// so evaluations repeat exactly.
///
/// Its monotonic clock is the system's, so time limits still hold.
#[derive(Debug)]
pub struct FixedHost {
    millis: f64,
    state: AtomicU64,
}

impl FixedHost {
    /// A host at `millis` (since the Unix epoch) whose random sequence starts from `seed`.
    pub fn new(millis: f64, seed: u64) -> FixedHost {
        FixedHost {
            millis,
            state: AtomicU64::new(seed),
        }
    }
}

impl Default for FixedHost {
    /// The Unix epoch, seed 0.
    fn default() -> FixedHost {
        FixedHost::new(0.0, 0)
    }
}

impl Clock for FixedHost {
    fn now(&self) -> Instant {
        Instant::now()
    }

    fn is_system_clock(&self) -> bool {
        true
    }
}

impl Host for FixedHost {
    fn now_millis(&self) -> f64 {
        self.millis
    }

    fn random(&self) -> f64 {
        split_mix(&self.state)
    }
}

/// The clock a meter reads for `host`: none when the host's is the system's monotonic clock,
/// which a meter reads without a handle. Making a handle and dropping it each update a shared
/// count, as much work as a small evaluation's own.
pub fn meter_clock(host: &Arc<dyn Host>) -> Option<Arc<dyn Clock>> {
    (!host.is_system_clock()).then(|| Arc::clone(host) as Arc<dyn Clock>)
}

/// The system's wall clock, and a random sequence seeded from it when the host is made.
#[derive(Debug)]
pub struct SystemHost {
    state: AtomicU64,
}

impl Default for SystemHost {
    fn default() -> SystemHost {
        let seed = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |since| since.as_nanos() as u64);
        SystemHost {
            state: AtomicU64::new(seed),
        }
    }
}

impl Clock for SystemHost {
    fn now(&self) -> Instant {
        Instant::now()
    }

    fn is_system_clock(&self) -> bool {
        true
    }
}

impl Host for SystemHost {
    fn now_millis(&self) -> f64 {
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0.0, |since| since.as_millis() as f64)
    }

    fn random(&self) -> f64 {
        split_mix(&self.state)
    }
}

/// One value a host handed to an evaluation.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum HostRead {
    /// A [`Host::now_millis`] answer.
    NowMillis(f64),
    /// A [`Host::random`] answer.
    Random(f64),
}

impl HostRead {
    /// The value handed out.
    pub fn value(self) -> f64 {
        match self {
            HostRead::NowMillis(value) | HostRead::Random(value) => value,
        }
    }

    /// `"now"` or `"random"`, as a run's events name the read.
    pub fn kind(self) -> &'static str {
        match self {
            HostRead::NowMillis(_) => "now",
            HostRead::Random(_) => "random",
        }
    }
}

/// A host that hands out what `inner` answers and records each answer, in order.
///
/// # Example
///
/// ```
/// use writ_core::{FixedHost, Host, HostRead, RecordingHost, ReplayingHost, SystemHost};
///
/// let first = RecordingHost::new(SystemHost::default());
/// let (now, dice) = (first.now_millis(), first.random());
/// let record = first.reads();
/// assert_eq!(record, vec![HostRead::NowMillis(now), HostRead::Random(dice)]);
///
/// // Later, perhaps in another process: the same reads answer the same.
/// let replay = ReplayingHost::new(record, FixedHost::default());
/// assert_eq!((replay.now_millis(), replay.random()), (now, dice));
/// assert!(!replay.diverged());
/// ```
#[derive(Debug)]
pub struct RecordingHost<H> {
    inner: H,
    reads: Mutex<Vec<HostRead>>,
}

impl<H: Host> RecordingHost<H> {
    /// A host that records what `inner` hands out.
    pub fn new(inner: H) -> RecordingHost<H> {
        RecordingHost {
            inner,
            reads: Mutex::new(Vec::new()),
        }
    }

    /// Everything handed out so far, in order.
    pub fn reads(&self) -> Vec<HostRead> {
        self.reads
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clone()
    }

    /// Everything handed out so far, leaving the record empty (a run stores each node's reads
    /// with that node's events).
    pub fn take_reads(&self) -> Vec<HostRead> {
        std::mem::take(&mut *self.reads.lock().unwrap_or_else(std::sync::PoisonError::into_inner))
    }

    fn record(&self, read: HostRead) -> f64 {
        self.reads
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .push(read);
        read.value()
    }
}

impl<H: Host> Clock for RecordingHost<H> {
    fn now(&self) -> Instant {
        self.inner.now()
    }

    fn is_system_clock(&self) -> bool {
        self.inner.is_system_clock()
    }
}

impl<H: Host> Host for RecordingHost<H> {
    fn now_millis(&self) -> f64 {
        self.record(HostRead::NowMillis(self.inner.now_millis()))
    }

    fn random(&self) -> f64 {
        self.record(HostRead::Random(self.inner.random()))
    }
}

/// A host that hands out a record's values again, in order, then goes on to `inner` (recording
/// what it hands out from there).
///
/// A read of another kind than the record holds at that place (the evaluation asked for a
/// random number where the first run asked for the time) means the replay is not the same run:
/// the host answers from `inner` from then on and [`diverged`](ReplayingHost::diverged) says so.
#[derive(Debug)]
pub struct ReplayingHost<H> {
    record: Vec<HostRead>,
    next: Mutex<usize>,
    diverged: AtomicBool,
    live: RecordingHost<H>,
}

impl<H: Host> ReplayingHost<H> {
    /// A host that replays `record`, then answers from `inner`.
    pub fn new(record: Vec<HostRead>, inner: H) -> ReplayingHost<H> {
        ReplayingHost {
            record,
            next: Mutex::new(0),
            diverged: AtomicBool::new(false),
            live: RecordingHost::new(inner),
        }
    }

    /// True once a read did not match the record.
    pub fn diverged(&self) -> bool {
        self.diverged.load(Ordering::Relaxed)
    }

    /// How many recorded reads have been replayed.
    pub fn replayed(&self) -> usize {
        *self.next.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The reads handed out past the record (or after a divergence), in order: what a run
    /// appends to its record.
    pub fn fresh_reads(&self) -> Vec<HostRead> {
        self.live.reads()
    }

    /// The recorded read at the next place, if it is of the kind `matches` accepts.
    fn replay(&self, matches: fn(HostRead) -> bool) -> Option<f64> {
        if self.diverged() {
            return None;
        }
        let mut next = self.next.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let read = *self.record.get(*next)?;
        if !matches(read) {
            self.diverged.store(true, Ordering::Relaxed);
            return None;
        }
        *next += 1;
        Some(read.value())
    }
}

impl<H: Host> Clock for ReplayingHost<H> {
    fn now(&self) -> Instant {
        self.live.now()
    }

    fn is_system_clock(&self) -> bool {
        self.live.is_system_clock()
    }
}

impl<H: Host> Host for ReplayingHost<H> {
    fn now_millis(&self) -> f64 {
        self.replay(|read| matches!(read, HostRead::NowMillis(_)))
            .unwrap_or_else(|| self.live.now_millis())
    }

    fn random(&self) -> f64 {
        self.replay(|read| matches!(read, HostRead::Random(_)))
            .unwrap_or_else(|| self.live.random())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A host whose clock is its own, as a test's that drives time by hand.
    struct OwnClock;

    impl Clock for OwnClock {
        fn now(&self) -> Instant {
            Instant::now()
        }
    }

    impl Host for OwnClock {
        fn now_millis(&self) -> f64 {
            0.0
        }

        fn random(&self) -> f64 {
            0.0
        }
    }

    #[test]
    fn a_meter_gets_a_clock_handle_only_off_the_system_clock() {
        let on_system: [Arc<dyn Host>; 4] = [
            Arc::new(FixedHost::default()),
            Arc::new(SystemHost::default()),
            Arc::new(RecordingHost::new(FixedHost::default())),
            Arc::new(ReplayingHost::new(Vec::new(), SystemHost::default())),
        ];
        for host in &on_system {
            assert!(meter_clock(host).is_none());
        }
        let own: [Arc<dyn Host>; 2] = [Arc::new(OwnClock), Arc::new(RecordingHost::new(OwnClock))];
        for host in &own {
            assert!(meter_clock(host).is_some());
        }
    }

    #[test]
    fn a_fixed_host_repeats() {
        let (a, b) = (FixedHost::new(5.0, 42), FixedHost::new(5.0, 42));
        let first: Vec<f64> = (0..100).map(|_| a.random()).collect();
        let second: Vec<f64> = (0..100).map(|_| b.random()).collect();
        assert_eq!(first, second);
        assert!(first.iter().all(|x| (0.0..1.0).contains(x)));
        assert_eq!(a.now_millis(), 5.0);
    }

    #[test]
    fn a_replay_past_its_record_goes_live_and_records() {
        let first = RecordingHost::new(FixedHost::new(1.0, 7));
        let record = vec![HostRead::Random(first.random())];
        let replay = ReplayingHost::new(record.clone(), FixedHost::new(99.0, 0));
        assert_eq!(replay.random(), record[0].value());
        assert_eq!(replay.now_millis(), 99.0);
        assert_eq!(replay.fresh_reads(), vec![HostRead::NowMillis(99.0)]);
        assert_eq!(replay.replayed(), 1);
        assert!(!replay.diverged());
    }

    #[test]
    fn a_read_of_another_kind_diverges() {
        let replay = ReplayingHost::new(
            vec![HostRead::NowMillis(3.0), HostRead::Random(0.5)],
            FixedHost::new(8.0, 0),
        );
        let _ = replay.random();
        assert!(replay.diverged());
        // From then on nothing is replayed, not even a read of the recorded kind.
        assert_eq!(replay.now_millis(), 8.0);
        assert_eq!(replay.replayed(), 0);
    }
}
