//! How fast this machine is running charged work right now, learned from the work itself.
//!
//! An engine charges a piece of work that cannot stop halfway (copying a long list, building a
//! long string) in time before it runs, at a rate per unit measured on a quiet machine
//! ([`crate::Meter::reserve_time`]). On a loaded machine, or in a build slowed by
//! instrumentation, the same piece runs several times slower, and a reservation that fitted
//! before the deadline ends well past it. So every reservation on the system clock is
//! checked afterwards against the time it really took, and the ratio — the pace — scales
//! the reservations that follow, in every evaluation of the process.
//!
//! The pace rises at once to a slower observation and falls back a quarter of the way toward
//! each faster one, so one slow piece makes the next ones careful, and a machine that quietens
//! down is trusted again after a few pieces. It never falls below the charged rates and never
//! rises past [`MAX_PACE`] times them: a process descheduled for a second during one piece
//! must not make every later reservation fail.

use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

/// The pace in 1/256ths: 256 is the charged rate.
const UNIT: u32 = 256;

/// The slowest pace learned, as a multiple of the charged rates.
pub const MAX_PACE: u32 = 16;

/// Pieces predicted shorter than this teach nothing: the clock's resolution and the work done
/// between the piece and the next clock reading would swamp them.
pub(crate) const MIN_OBSERVED: Duration = Duration::from_millis(1);

static PACE: AtomicU32 = AtomicU32::new(UNIT);

/// `work`, charged at the charged rates, scaled by the pace learned so far: the time it is
/// expected to take on this machine now. Engines that keep time outside a [`crate::Meter`]
/// (the Lua VM's time cap on memory) scale their own rates by it.
pub fn paced(work: Duration) -> Duration {
    let pace = PACE.load(Ordering::Relaxed);
    work.checked_mul(pace).map_or(Duration::MAX, |scaled| scaled / UNIT)
}

/// Records that work predicted to take `predicted` at the charged rates took `took`.
pub(crate) fn observe(predicted: Duration, took: Duration) {
    if predicted < MIN_OBSERVED {
        return;
    }
    let ratio = took.as_nanos().saturating_mul(u128::from(UNIT)) / predicted.as_nanos();
    let ratio = u32::try_from(ratio).unwrap_or(u32::MAX).clamp(UNIT, MAX_PACE * UNIT);
    let _ = PACE.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |old| {
        Some(if ratio >= old {
            ratio
        } else {
            old - (old - ratio).div_ceil(4)
        })
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One test drives the process-wide pace through its whole life, so no other test sees it
    /// half-way (nothing else in this crate's tests reserves work on the system clock).
    #[test]
    fn the_pace_rises_to_slow_work_and_falls_back_gradually() {
        let ms = Duration::from_millis;
        observe(ms(10), ms(10));
        assert_eq!(paced(ms(10)), ms(10));
        // Too short a piece to learn from.
        observe(Duration::from_micros(100), ms(50));
        assert_eq!(paced(ms(10)), ms(10));
        observe(ms(10), ms(40));
        assert_eq!(paced(ms(10)), ms(40));
        // A quarter of the way back toward a piece on time: 4× → 3.25×.
        observe(ms(10), ms(10));
        assert_eq!(paced(ms(100)), ms(325));
        // A stall is capped.
        observe(ms(1), Duration::from_secs(5));
        assert_eq!(paced(ms(10)), ms(10 * u64::from(MAX_PACE)));
        for _ in 0..40 {
            observe(ms(10), ms(5));
        }
        assert_eq!(paced(ms(10)), ms(10), "never faster than the charged rates");
    }
}
