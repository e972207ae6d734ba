//! `Limits` and `Meter`: the one budget model every writ engine charges.
//!
//! [`Limits`] is configuration: what an evaluation may spend. A [`Meter`] is the running count
//! for one evaluation: engines call [`Meter::step`] on every node they evaluate and every item a
//! built-in walks, [`Meter::charge_string`] and [`Meter::charge_array`] for what they build, and
//! [`Meter::enter`]/[`Meter::leave`] around recursion. The wall-clock deadline is read only every
//! [`Limits::check_interval`] steps, so a step costs a counter decrement and a branch.
//!
//! A [`BudgetExceeded`] is sticky: once any bound is crossed, every later charge fails too, so a
//! guest construct that swallows one error (a Lua `pcall`, a JSONata `$try`-like function) cannot
//! keep running on a spent budget.

use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// How many steps pass between two reads of the clock, by default.
pub const DEFAULT_CHECK_INTERVAL: u32 = 2048;

/// What one evaluation may spend.
///
/// Every bound is `None` for "no limit". Engines start from their own defaults (the seeds name
/// them) and let callers override field by field.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Steps: one per node evaluated, plus what built-ins charge per item they walk.
    pub steps: Option<u64>,
    /// Wall-clock time from the moment the [`Meter`] starts.
    pub time: Option<Duration>,
    /// The longest string, in UTF-16 code units, one evaluation may build.
    pub max_string_length: Option<u64>,
    /// The most elements one array may hold.
    pub max_array_length: Option<u64>,
    /// Code units and elements built in one evaluation, all told.
    pub max_total_allocation: Option<u64>,
    /// The deepest nesting of evaluation (recursion, nested calls).
    pub max_depth: Option<u32>,
    /// The longest source text, in bytes, refused before parsing. The engine checks it when it
    /// compiles; the meter does not count it.
    pub max_source_length: Option<u64>,
    /// The most bytes a VM that allocates on its own (Lua's) may hold. The engine's allocator
    /// enforces it; the meter does not count it.
    pub max_memory_bytes: Option<u64>,
    /// Steps between two reads of the clock and of the interrupt flag; at least 1.
    pub check_interval: u32,
}

impl Limits {
    /// Whether a meter just made under these limits has room for `steps` steps, `levels`
    /// levels of nesting and `items` sequences of one item each, charged without crossing a
    /// bound or reaching a periodic check ([`Meter::has_room`]): an engine that finds room can
    /// answer a small expression as a fresh evaluation would, with no meter at all.
    pub fn has_room(&self, steps: u64, levels: u32, items: u64) -> bool {
        let fuel = self
            .steps
            .unwrap_or(u64::MAX)
            .min(u64::from(self.check_interval.max(1)));
        steps <= fuel
            && self.max_depth.is_none_or(|limit| levels <= limit)
            && (items == 0
                || self.max_array_length.is_none_or(|limit| limit >= 1)
                    && self.max_total_allocation.is_none_or(|limit| items <= limit))
    }

    /// No bounds at all. Only trusted input should run this way.
    pub const UNLIMITED: Limits = Limits {
        steps: None,
        time: None,
        max_string_length: None,
        max_array_length: None,
        max_total_allocation: None,
        max_depth: None,
        max_source_length: None,
        max_memory_bytes: None,
        check_interval: DEFAULT_CHECK_INTERVAL,
    };
}

/// Which bound an evaluation crossed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Bound {
    /// [`Limits::steps`].
    Steps,
    /// [`Limits::time`].
    Time,
    /// [`Limits::max_string_length`].
    StringLength,
    /// [`Limits::max_array_length`].
    ArrayLength,
    /// [`Limits::max_total_allocation`].
    TotalAllocation,
    /// [`Limits::max_depth`].
    Depth,
    /// The host raised the meter's [`Interrupt`].
    Interrupted,
    /// [`Limits::max_memory_bytes`], which an engine with a heap of its own enforces and
    /// records on the meter.
    Memory,
}

/// An evaluation crossed one of its [`Limits`].
///
/// Small and `Copy`, so that charging the meter returns it cheaply; engines wrap it in their
/// own error type with their own code (`budget-exceeded`, `EXPRESSION_LIMIT_EXCEEDED`, …).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BudgetExceeded {
    /// The bound that was crossed.
    pub bound: Bound,
    /// Its configured value: steps, milliseconds, code units, elements or levels.
    pub limit: u64,
}

impl fmt::Display for BudgetExceeded {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let limit = self.limit;
        match self.bound {
            Bound::Steps => write!(f, "step limit of {limit} reached"),
            Bound::Time => write!(f, "time limit of {limit} ms reached"),
            Bound::StringLength => write!(f, "string length limit of {limit} exceeded"),
            Bound::ArrayLength => write!(f, "array length limit of {limit} exceeded"),
            Bound::TotalAllocation => write!(f, "total allocation limit of {limit} exceeded"),
            Bound::Depth => write!(f, "depth limit of {limit} exceeded"),
            Bound::Interrupted => f.write_str("evaluation interrupted by the host"),
            Bound::Memory => write!(f, "memory ceiling of {limit} bytes reached"),
        }
    }
}

impl std::error::Error for BudgetExceeded {}

/// A monotonic clock the meter reads to enforce [`Limits::time`].
///
/// The host supplies it, so tests can drive time by hand and so evaluators never read the
/// system clock themselves. The reading bounds an evaluation; it never becomes a value.
pub trait Clock: Send + Sync {
    /// The current instant.
    fn now(&self) -> Instant;

    /// True when [`Clock::now`] is the system's monotonic clock, which a meter made without a
    /// clock reads: a host that keeps many meters need not hand each its own handle, whose
    /// shared count every meter made and dropped updates.
    fn is_system_clock(&self) -> bool {
        false
    }
}

/// The system's monotonic clock.
#[derive(Clone, Copy, Debug, Default)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> Instant {
        Instant::now()
    }

    fn is_system_clock(&self) -> bool {
        true
    }
}

/// A flag a host raises, from any thread, to stop an evaluation at its next clock check.
#[derive(Clone, Debug, Default)]
pub struct Interrupt(Arc<AtomicBool>);

impl Interrupt {
    /// A flag that is not raised.
    pub fn new() -> Interrupt {
        Interrupt::default()
    }

    /// Raises the flag; every meter holding it fails at its next check.
    pub fn raise(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    /// True once raised.
    pub fn is_raised(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}

/// The running budget of one evaluation.
///
/// # Example
///
/// ```
/// use writ_core::{Bound, Limits, Meter};
///
/// let limits = Limits { steps: Some(3), ..Limits::UNLIMITED };
/// let mut meter = Meter::new(&limits);
/// for _ in 0..3 {
///     meter.step().unwrap();
/// }
/// let error = meter.step().unwrap_err();
/// assert_eq!(error.bound, Bound::Steps);
/// assert_eq!(error.to_string(), "step limit of 3 reached");
/// assert!(meter.step().is_err()); // sticky
/// ```
pub struct Meter {
    /// Steps that may be charged before the slow path runs.
    fuel: u64,
    /// Fuel handed out at the last refill, so `granted - fuel` steps are spent but unrecorded.
    granted: u64,
    /// Steps recorded at refills.
    recorded: u64,
    step_limit: Option<u64>,
    check_interval: u64,
    deadline: Deadline,
    /// `None` reads [`SystemClock`] without holding an allocation for it.
    clock: Option<Arc<dyn Clock>>,
    interrupt: Option<Interrupt>,
    allocated: u64,
    max_total_allocation: Option<u64>,
    max_string_length: Option<u64>,
    max_array_length: Option<u64>,
    depth: u32,
    max_depth: Option<u32>,
    exceeded: Option<BudgetExceeded>,
    /// The last reservation on the system clock: when it was made and the work it predicted at
    /// the charged rates, checked against the clock at the next reading ([`crate::pace`]).
    reserved: Option<(Instant, Duration)>,
    /// Time kept before the deadline for work that follows the evaluation's own
    /// ([`Meter::hold_back`]), at the charged rates.
    held_back: Duration,
}

/// The wall-clock bound of a [`Meter`].
#[derive(Clone, Copy, Debug)]
enum Deadline {
    None,
    /// A time limit whose clock starts at the first check.
    Pending(Duration),
    /// The instant the limit is reached, and the limit in milliseconds.
    At(Instant, u64),
}

impl fmt::Debug for Meter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Meter")
            .field("steps_used", &self.steps_used())
            .field("allocated", &self.allocated)
            .field("depth", &self.depth)
            .field("exceeded", &self.exceeded)
            .finish_non_exhaustive()
    }
}

impl Meter {
    /// Starts a meter on the system clock; the time limit counts from now.
    pub fn new(limits: &Limits) -> Meter {
        let mut meter = Meter::build(limits, None);
        meter.start_clock();
        meter
    }

    /// Starts a meter on `clock`; the time limit counts from `clock.now()`.
    pub fn with_clock(limits: &Limits, clock: Arc<dyn Clock>) -> Meter {
        let mut meter = Meter::build(limits, Some(clock));
        meter.start_clock();
        meter
    }

    /// Starts a meter whose time limit counts from its first clock check rather than from
    /// now, on `clock` or the system clock. An evaluation that ends within its first
    /// [`Limits::check_interval`] steps then never reads the clock at all, which is most of
    /// the cost of a small expression; one that runs longer is timed from its first check,
    /// at most `check_interval` steps in.
    pub fn starting_at_first_check(limits: &Limits, clock: Option<Arc<dyn Clock>>) -> Meter {
        Meter::build(limits, clock)
    }

    fn build(limits: &Limits, clock: Option<Arc<dyn Clock>>) -> Meter {
        let deadline = match limits.time {
            Some(time) => Deadline::Pending(time),
            None => Deadline::None,
        };
        let mut meter = Meter {
            fuel: 0,
            granted: 0,
            recorded: 0,
            step_limit: limits.steps,
            check_interval: u64::from(limits.check_interval.max(1)),
            deadline,
            clock,
            interrupt: None,
            allocated: 0,
            max_total_allocation: limits.max_total_allocation,
            max_string_length: limits.max_string_length,
            max_array_length: limits.max_array_length,
            depth: 0,
            max_depth: limits.max_depth,
            exceeded: None,
            reserved: None,
            held_back: Duration::ZERO,
        };
        meter.grant(0);
        meter
    }

    fn now(&self) -> Instant {
        match &self.clock {
            Some(clock) => clock.now(),
            None => Instant::now(),
        }
    }

    /// Turns a pending time limit into a deadline from now.
    fn start_clock(&mut self) {
        if let Deadline::Pending(time) = self.deadline {
            let millis = u64::try_from(time.as_millis()).unwrap_or(u64::MAX);
            // A deadline past the end of time is no deadline.
            self.deadline = match self.now().checked_add(time) {
                Some(at) => Deadline::At(at, millis),
                None => Deadline::None,
            };
        }
    }

    /// Puts the meter back as [`Meter::starting_at_first_check`] makes it under `limits`, for
    /// another evaluation: nothing spent, no bound crossed, the time limit counting from the
    /// first clock check. The clock and the interrupt flag stay, so a host that runs many small
    /// evaluations does not hand them over (a shared count's update each) every time.
    pub fn restart_at_first_check(&mut self, limits: &Limits) {
        let clock = self.clock.take();
        let interrupt = self.interrupt.take();
        *self = Meter::build(limits, clock);
        self.interrupt = interrupt;
    }

    /// Makes the meter fail at its next check once `interrupt` is raised.
    pub fn with_interrupt(mut self, interrupt: Interrupt) -> Meter {
        self.interrupt = Some(interrupt);
        self
    }

    /// Charges one step.
    ///
    /// # Errors
    ///
    /// [`Bound::Steps`] past the step limit; [`Bound::Time`] or [`Bound::Interrupted`] when a
    /// periodic check finds the deadline passed or the interrupt raised; any earlier error again.
    #[inline]
    pub fn step(&mut self) -> Result<(), BudgetExceeded> {
        if self.fuel > 0 {
            self.fuel -= 1;
            Ok(())
        } else {
            self.refill(1)
        }
    }

    /// Charges `n` steps at once, as a built-in does for the items it walks.
    ///
    /// # Errors
    ///
    /// As [`Meter::step`].
    #[inline]
    pub fn steps(&mut self, n: u64) -> Result<(), BudgetExceeded> {
        if self.fuel >= n {
            self.fuel -= n;
            Ok(())
        } else {
            self.refill(n)
        }
    }

    /// Whether `steps` steps, `levels` more levels of nesting and `items` sequences of one item
    /// each would all be charged without crossing a bound or reaching a periodic check: an
    /// engine that then charges them in one piece ([`Meter::steps`],
    /// [`Meter::charge_allocation`]) answers as if it had charged them one by one.
    #[inline]
    pub fn has_room(&self, steps: u64, levels: u32, items: u64) -> bool {
        self.exceeded.is_none()
            && self.fuel >= steps
            && self
                .max_depth
                .is_none_or(|limit| self.depth.saturating_add(levels) <= limit)
            && (items == 0
                || self.max_array_length.is_none_or(|limit| limit >= 1)
                    && self
                        .max_total_allocation
                        .is_none_or(|limit| self.allocated.saturating_add(items) <= limit))
    }

    /// Steps charged so far.
    pub fn steps_used(&self) -> u64 {
        self.recorded + (self.granted - self.fuel)
    }

    /// Steps that may still be charged, or `None` without a step limit: what an engine that
    /// counts in a VM of its own (Lua's instructions) hands that VM, charging back what it used.
    pub fn steps_left(&self) -> Option<u64> {
        self.step_limit.map(|limit| limit.saturating_sub(self.steps_used()))
    }

    /// Time left before the deadline (starting a pending one), or `None` without a time limit:
    /// what an engine that keeps time in a VM of its own hands that VM.
    pub fn time_left(&mut self) -> Option<Duration> {
        if let Deadline::Pending(_) = self.deadline {
            self.start_clock();
        }
        match self.deadline {
            Deadline::At(at, _) => Some(at.saturating_duration_since(self.now())),
            Deadline::Pending(time) => Some(time),
            Deadline::None => None,
        }
    }

    /// Records that a VM of the engine's own crossed `exceeded`'s bound, so the meter fails from
    /// now on as if it had crossed it itself (the error is sticky across the seam too).
    pub fn record_exceeded(&mut self, exceeded: BudgetExceeded) {
        if self.exceeded.is_none() {
            self.recorded += self.granted - self.fuel;
            self.fuel = 0;
            self.granted = 0;
            self.exceeded = Some(exceeded);
        }
    }

    /// Records spent fuel, checks the clock and the interrupt, and hands out the next batch.
    #[cold]
    #[inline(never)]
    fn refill(&mut self, n: u64) -> Result<(), BudgetExceeded> {
        if let Some(exceeded) = self.exceeded {
            return Err(exceeded);
        }
        self.recorded += self.granted - self.fuel;
        self.fuel = 0;
        self.granted = 0;
        self.check_clock()?;
        if let Some(limit) = self.step_limit
            && self.recorded.saturating_add(n) > limit
        {
            self.recorded = limit;
            return self.fail(Bound::Steps, limit);
        }
        self.recorded += n;
        self.grant(n);
        Ok(())
    }

    fn grant(&mut self, _just_charged: u64) {
        let room = match self.step_limit {
            Some(limit) => limit.saturating_sub(self.recorded),
            None => u64::MAX,
        };
        self.fuel = room.min(self.check_interval);
        self.granted = self.fuel;
    }

    /// Reads the clock and the interrupt flag now, between the periodic checks: for a host
    /// call or a built-in that is about to do a large piece of work at once.
    ///
    /// # Errors
    ///
    /// [`Bound::Time`] or [`Bound::Interrupted`], or any earlier error again.
    pub fn check_clock(&mut self) -> Result<(), BudgetExceeded> {
        if let Some(exceeded) = self.exceeded {
            return Err(exceeded);
        }
        if let Some((start, predicted)) = self.reserved.take() {
            crate::pace::observe(predicted, self.now().saturating_duration_since(start));
        }
        if let Some(interrupt) = &self.interrupt
            && interrupt.is_raised()
        {
            return self.fail(Bound::Interrupted, 0);
        }
        match self.deadline {
            Deadline::At(at, millis) => {
                if self.now().checked_add(self.held_back()).is_none_or(|now| now >= at) {
                    return self.fail(Bound::Time, millis);
                }
            }
            Deadline::Pending(_) => self.start_clock(),
            Deadline::None => {}
        }
        Ok(())
    }

    /// Fails now, with [`Bound::Time`], when `work` — a piece that cannot stop halfway, such
    /// as building one long string — would not finish before the deadline: the worst case
    /// charged in time before it runs. Reads the clock; without a time limit it never fails.
    ///
    /// `work` is at the rates the engine measured on a quiet machine. On the system clock it
    /// is scaled by the pace this machine has lately run such pieces at, and the piece is
    /// timed against it at the next clock reading ([`crate::paced`]), so reservations hold on
    /// a loaded or slowed machine too.
    ///
    /// # Errors
    ///
    /// [`Bound::Time`] or [`Bound::Interrupted`], or any earlier error again.
    pub fn reserve_time(&mut self, work: Duration) -> Result<(), BudgetExceeded> {
        self.reserve(work, true)
    }

    /// As [`Meter::reserve_time`], for work that runs after the evaluation's own: writing its
    /// answer, dropping what it built. It is scaled by the pace but not timed, since what
    /// runs next is not that work.
    ///
    /// # Errors
    ///
    /// As [`Meter::reserve_time`].
    pub fn reserve_time_after(&mut self, work: Duration) -> Result<(), BudgetExceeded> {
        self.reserve(work, false)
    }

    /// Keeps `work` (at the charged rates) of the time before the deadline for what must follow
    /// the evaluation — dropping the lists it built, each a free or a count to decrement per
    /// item — so the evaluation stops that much earlier and the host still has its answer by
    /// the deadline. Holds add up. Reads no clock.
    pub fn hold_back(&mut self, work: Duration) {
        self.held_back = self.held_back.saturating_add(work);
    }

    /// The time held back, scaled by the pace on the system clock.
    fn held_back(&self) -> Duration {
        if self.held_back.is_zero() || self.clock.is_some() {
            self.held_back
        } else {
            crate::pace::paced(self.held_back)
        }
    }

    fn reserve(&mut self, work: Duration, runs_now: bool) -> Result<(), BudgetExceeded> {
        self.check_clock()?;
        if let Deadline::At(at, millis) = self.deadline {
            let now = self.now();
            // A manual clock's time says nothing of how fast the machine runs.
            let system = self.clock.is_none();
            let expected = if system { crate::pace::paced(work) } else { work };
            let done = now
                .checked_add(expected)
                .and_then(|done| done.checked_add(self.held_back()));
            if done.is_none_or(|done| done >= at) {
                return self.fail(Bound::Time, millis);
            }
            if system && runs_now {
                self.reserved = Some((now, work));
            }
        }
        Ok(())
    }

    #[cold]
    fn fail(&mut self, bound: Bound, limit: u64) -> Result<(), BudgetExceeded> {
        let exceeded = BudgetExceeded { bound, limit };
        self.exceeded = Some(exceeded);
        self.fuel = 0;
        self.granted = 0;
        Err(exceeded)
    }

    /// Checks a string of `len` code units about to be built, and charges it to the total.
    ///
    /// # Errors
    ///
    /// [`Bound::StringLength`] or [`Bound::TotalAllocation`], or any earlier error again.
    #[inline]
    pub fn charge_string(&mut self, len: usize) -> Result<(), BudgetExceeded> {
        let len = len as u64;
        if let Some(limit) = self.max_string_length
            && len > limit
        {
            return self.fail(Bound::StringLength, limit);
        }
        self.charge_allocation(len)
    }

    /// Checks that a string of `len` code units would not pass the string cap, without charging
    /// anything: for text built piece by piece and charged once when it is done.
    ///
    /// # Errors
    ///
    /// [`Bound::StringLength`], or any earlier error again.
    #[inline]
    pub fn check_string_length(&mut self, len: usize) -> Result<(), BudgetExceeded> {
        if let Some(exceeded) = self.exceeded {
            return Err(exceeded);
        }
        match self.max_string_length {
            Some(limit) if len as u64 > limit => self.fail(Bound::StringLength, limit),
            _ => Ok(()),
        }
    }

    /// Checks an array of `len` elements about to be built, and charges it to the total.
    ///
    /// # Errors
    ///
    /// [`Bound::ArrayLength`] or [`Bound::TotalAllocation`], or any earlier error again.
    #[inline]
    pub fn charge_array(&mut self, len: usize) -> Result<(), BudgetExceeded> {
        let len = len as u64;
        if let Some(limit) = self.max_array_length
            && len > limit
        {
            return self.fail(Bound::ArrayLength, limit);
        }
        self.charge_allocation(len)
    }

    /// Charges `units` code units or elements to the total allocation.
    ///
    /// # Errors
    ///
    /// [`Bound::TotalAllocation`], or any earlier error again.
    #[inline]
    pub fn charge_allocation(&mut self, units: u64) -> Result<(), BudgetExceeded> {
        if let Some(exceeded) = self.exceeded {
            return Err(exceeded);
        }
        self.allocated = self.allocated.saturating_add(units);
        match self.max_total_allocation {
            Some(limit) if self.allocated > limit => self.fail(Bound::TotalAllocation, limit),
            _ => Ok(()),
        }
    }

    /// Code units and elements charged so far.
    pub fn allocated(&self) -> u64 {
        self.allocated
    }

    /// Enters one level of nesting; pair it with [`Meter::leave`].
    ///
    /// # Errors
    ///
    /// [`Bound::Depth`] past the depth limit, or any earlier error again.
    #[inline]
    pub fn enter(&mut self) -> Result<(), BudgetExceeded> {
        if let Some(exceeded) = self.exceeded {
            return Err(exceeded);
        }
        self.depth += 1;
        match self.max_depth {
            Some(limit) if self.depth > limit => self.fail(Bound::Depth, u64::from(limit)),
            _ => Ok(()),
        }
    }

    /// Leaves one level of nesting entered with [`Meter::enter`].
    #[inline]
    pub fn leave(&mut self) {
        debug_assert!(self.depth > 0, "leave without enter");
        self.depth = self.depth.saturating_sub(1);
    }

    /// The current nesting depth.
    pub fn depth(&self) -> u32 {
        self.depth
    }

    /// The bound this meter crossed, if any.
    pub fn exceeded(&self) -> Option<BudgetExceeded> {
        self.exceeded
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;

    /// A clock that moves only when the test says so.
    struct ManualClock(Mutex<Instant>);

    impl ManualClock {
        fn advance(&self, by: Duration) {
            let mut now = self.0.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
            *now += by;
        }
    }

    impl Clock for ManualClock {
        fn now(&self) -> Instant {
            *self.0.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
        }
    }

    fn limits() -> Limits {
        Limits::UNLIMITED
    }

    #[test]
    fn step_limit_holds_at_n_and_fails_at_n_plus_one() {
        for (limit, interval) in [(0, 4), (1, 1), (5, 2), (2048, 2048), (10_000, 7), (4097, 2048)] {
            let mut meter = Meter::new(&Limits {
                steps: Some(limit),
                check_interval: interval,
                ..limits()
            });
            for idx in 0..limit {
                assert!(meter.step().is_ok(), "step {idx} of {limit}");
            }
            assert_eq!(meter.steps_used(), limit);
            let error = meter.step().expect_err("one past the limit");
            assert_eq!(
                error,
                BudgetExceeded {
                    bound: Bound::Steps,
                    limit
                }
            );
            assert!(meter.step().is_err() && meter.steps(5).is_err() && meter.enter().is_err());
        }
    }

    #[test]
    fn room_is_what_charging_one_by_one_would_pass_without_a_check() {
        let tight = Limits {
            steps: Some(10),
            max_depth: Some(3),
            max_total_allocation: Some(4),
            check_interval: 6,
            ..limits()
        };
        let mut meter = Meter::new(&tight);
        // The steps up to the next periodic check, not up to the limit.
        assert!(meter.has_room(6, 3, 4));
        assert!(!meter.has_room(7, 0, 0), "past the periodic check");
        assert!(!meter.has_room(0, 4, 0), "past the depth limit");
        assert!(!meter.has_room(0, 0, 5), "past the allocation limit");
        assert!(meter.enter().is_ok() && meter.charge_allocation(3).is_ok());
        assert!(meter.has_room(0, 2, 1) && !meter.has_room(0, 3, 0) && !meter.has_room(0, 0, 2));
        assert!(meter.steps(6).is_ok() && meter.step().is_ok());
        // Three steps left before the limit, which the next batch stops at.
        assert!(meter.has_room(3, 0, 0) && !meter.has_room(4, 0, 0));
        let shortest_arrays = Limits {
            max_array_length: Some(0),
            ..limits()
        };
        let meter = Meter::new(&shortest_arrays);
        assert!(
            meter.has_room(1, 1, 0) && !meter.has_room(1, 1, 1),
            "no sequence of one fits"
        );
        let mut failed = Meter::new(&limits());
        failed.record_exceeded(BudgetExceeded {
            bound: Bound::Time,
            limit: 1,
        });
        assert!(!failed.has_room(0, 0, 0), "a meter that failed has no room");
    }

    #[test]
    fn the_limits_have_the_room_a_fresh_meter_has() {
        let bounds = [None, Some(0), Some(1), Some(2), Some(5)];
        for (steps, depth, allocation, array) in bounds
            .iter()
            .flat_map(|s| bounds.iter().map(move |d| (*s, *d)))
            .flat_map(|(s, d)| bounds.iter().map(move |a| (s, d, *a)))
            .flat_map(|(s, d, a)| bounds.iter().map(move |l| (s, d, a, *l)))
        {
            for check_interval in [1, 3, DEFAULT_CHECK_INTERVAL] {
                let limits = Limits {
                    steps,
                    max_depth: depth.map(|d| d as u32),
                    max_total_allocation: allocation,
                    max_array_length: array,
                    check_interval,
                    ..Limits::UNLIMITED
                };
                let meter = Meter::starting_at_first_check(&limits, None);
                for (want_steps, levels, items) in [(0, 0, 0), (1, 1, 1), (2, 0, 3), (3, 2, 0), (6, 6, 6)] {
                    assert_eq!(
                        limits.has_room(want_steps, levels, items),
                        meter.has_room(want_steps, levels, items),
                        "{limits:?} asked for {want_steps} steps, {levels} levels, {items} items"
                    );
                }
            }
        }
    }

    #[test]
    fn a_restarted_meter_is_a_fresh_one_on_the_same_clock_and_flag() {
        let clock = Arc::new(ManualClock(Mutex::new(Instant::now())));
        let interrupt = Interrupt::new();
        let two_steps = Limits {
            steps: Some(2),
            time: Some(Duration::from_millis(50)),
            check_interval: 1,
            ..limits()
        };
        let mut meter =
            Meter::starting_at_first_check(&two_steps, Some(clock.clone())).with_interrupt(interrupt.clone());
        assert!(meter.step().is_ok() && meter.step().is_ok() && meter.step().is_err());
        meter.restart_at_first_check(&two_steps);
        assert_eq!(meter.steps_used(), 0);
        assert!(meter.exceeded().is_none());
        assert!(meter.step().is_ok(), "the step limit counts again");
        // The time limit counts from the first check after the restart, on the same clock.
        clock.advance(Duration::from_millis(100));
        meter.restart_at_first_check(&two_steps);
        assert!(meter.check_clock().is_ok());
        clock.advance(Duration::from_millis(60));
        assert_eq!(meter.check_clock().map_err(|error| error.bound), Err(Bound::Time));
        meter.restart_at_first_check(&two_steps);
        interrupt.raise();
        assert_eq!(
            meter.check_clock().map_err(|error| error.bound),
            Err(Bound::Interrupted)
        );
    }

    /// The test limits with a 50 ms time limit.
    fn within_50_ms() -> Limits {
        Limits {
            time: Some(Duration::from_millis(50)),
            ..limits()
        }
    }

    #[test]
    fn reserving_time_fails_early_when_the_work_would_pass_the_deadline() {
        let clock = Arc::new(ManualClock(Mutex::new(Instant::now())));
        let timed = within_50_ms();
        let mut meter = Meter::with_clock(&timed, clock.clone());
        assert!(meter.reserve_time(Duration::from_millis(40)).is_ok());
        clock.advance(Duration::from_millis(20));
        let error = meter.reserve_time(Duration::from_millis(40)).expect_err("20 + 40 > 50");
        assert_eq!(
            error,
            BudgetExceeded {
                bound: Bound::Time,
                limit: 50
            }
        );
        assert!(meter.step().is_err(), "sticky");
        let mut unbounded = Meter::with_clock(&limits(), clock);
        assert!(unbounded.reserve_time(Duration::from_secs(3600)).is_ok());
    }

    #[test]
    fn time_held_back_ends_the_evaluation_earlier() {
        let clock = Arc::new(ManualClock(Mutex::new(Instant::now())));
        let timed = within_50_ms();
        let mut meter = Meter::with_clock(&timed, clock.clone());
        meter.hold_back(Duration::from_millis(20));
        meter.hold_back(Duration::from_millis(10));
        clock.advance(Duration::from_millis(15));
        assert!(meter.check_clock().is_ok(), "15 + 30 < 50");
        assert!(
            meter.reserve_time(Duration::from_millis(10)).is_err(),
            "15 + 10 + 30 >= 50"
        );
        let mut held = Meter::with_clock(&timed, clock.clone());
        held.hold_back(Duration::from_millis(30));
        clock.advance(Duration::from_millis(25));
        assert_eq!(
            held.check_clock().map_err(|e| e.bound),
            Err(Bound::Time),
            "25 + 30 >= 50"
        );
    }

    #[test]
    fn bulk_steps_count_exactly() {
        let mut meter = Meter::new(&Limits {
            steps: Some(100),
            check_interval: 16,
            ..limits()
        });
        assert!(meter.steps(60).is_ok());
        assert!(meter.step().is_ok());
        assert!(meter.steps(39).is_ok());
        assert_eq!(meter.steps_used(), 100);
        assert!(meter.steps(1).is_err());
    }

    #[test]
    fn a_lazy_clock_starts_at_the_first_check() {
        let clock = Arc::new(ManualClock(Mutex::new(Instant::now())));
        let limits = Limits {
            check_interval: 8,
            ..within_50_ms()
        };
        let mut meter = Meter::starting_at_first_check(&limits, Some(clock.clone()));
        // Time before the first check does not count: the deadline is set by that check.
        clock.advance(Duration::from_millis(60));
        for _ in 0..8 {
            meter.step().expect("the first batch");
        }
        meter.step().expect("the first check starts the clock");
        clock.advance(Duration::from_millis(49));
        meter.steps(8).expect("49 ms after the start");
        clock.advance(Duration::from_millis(1));
        let error = meter.steps(8).expect_err("50 ms after the start");
        assert_eq!(error.bound, Bound::Time);
    }

    #[test]
    fn string_length_is_checked_without_charging() {
        let limits = Limits {
            max_string_length: Some(10),
            max_total_allocation: Some(10),
            ..limits()
        };
        let mut meter = Meter::new(&limits);
        for _ in 0..5 {
            meter
                .check_string_length(10)
                .expect("at the cap, and nothing is counted");
        }
        assert_eq!(meter.allocated(), 0);
        let error = meter.check_string_length(11).expect_err("past the cap");
        assert_eq!(
            error,
            BudgetExceeded {
                bound: Bound::StringLength,
                limit: 10
            }
        );
        assert!(meter.check_string_length(0).is_err(), "sticky");
    }

    #[test]
    fn deadline_is_read_every_interval() {
        let clock = Arc::new(ManualClock(Mutex::new(Instant::now())));
        let limits = Limits {
            check_interval: 8,
            ..within_50_ms()
        };
        let mut meter = Meter::with_clock(&limits, clock.clone());
        for _ in 0..4 {
            meter.step().expect("before the deadline");
        }
        clock.advance(Duration::from_millis(50));
        // The clock is not read again until the current batch of eight steps is spent.
        for _ in 0..4 {
            meter.step().expect("within the batch");
        }
        let error = meter.step().expect_err("the deadline has passed");
        assert_eq!(
            error,
            BudgetExceeded {
                bound: Bound::Time,
                limit: 50
            }
        );
        assert_eq!(error.to_string(), "time limit of 50 ms reached");
    }

    #[test]
    fn interrupt_stops_at_the_next_check() {
        let interrupt = Interrupt::new();
        let limits = Limits {
            check_interval: 4,
            ..limits()
        };
        let mut meter = Meter::new(&limits).with_interrupt(interrupt.clone());
        meter.steps(3).expect("not raised yet");
        interrupt.raise();
        let mut outcome = Ok(());
        for _ in 0..5 {
            outcome = outcome.and_then(|()| meter.step());
        }
        assert_eq!(outcome.map_err(|error| error.bound), Err(Bound::Interrupted));
    }

    #[test]
    fn sizes_and_depth_hold_at_n_and_fail_at_n_plus_one() {
        let limits = Limits {
            max_string_length: Some(10),
            max_array_length: Some(5),
            max_total_allocation: Some(30),
            max_depth: Some(2),
            ..limits()
        };
        let mut meter = Meter::new(&limits);
        assert!(meter.charge_string(10).is_ok());
        assert_eq!(
            meter.clone_error_of(|meter| meter.charge_string(11)),
            Some(Bound::StringLength)
        );

        let mut meter = Meter::new(&limits);
        assert!(meter.charge_array(5).is_ok());
        assert_eq!(
            meter.clone_error_of(|meter| meter.charge_array(6)),
            Some(Bound::ArrayLength)
        );

        let mut meter = Meter::new(&limits);
        assert!(meter.charge_string(10).is_ok() && meter.charge_string(10).is_ok());
        assert!(meter.charge_string(10).is_ok());
        assert_eq!(meter.allocated(), 30);
        assert_eq!(
            meter.clone_error_of(|meter| meter.charge_array(1)),
            Some(Bound::TotalAllocation)
        );

        let mut meter = Meter::new(&limits);
        assert!(meter.enter().is_ok() && meter.enter().is_ok());
        assert_eq!(meter.clone_error_of(Meter::enter), Some(Bound::Depth));
        let mut meter = Meter::new(&limits);
        for _ in 0..100 {
            meter.enter().expect("within depth");
            meter.leave();
        }
        assert_eq!(meter.depth(), 0);
    }

    impl Meter {
        fn clone_error_of(&mut self, charge: impl FnOnce(&mut Meter) -> Result<(), BudgetExceeded>) -> Option<Bound> {
            let bound = charge(self).err().map(|error| error.bound);
            assert_eq!(self.exceeded().map(|error| error.bound), bound, "the error is sticky");
            assert!(self.step().is_err(), "a spent meter refuses steps");
            bound
        }
    }
}
