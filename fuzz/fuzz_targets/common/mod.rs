//! What the doubling and matrix targets share: choices read from the fuzzer's bytes, and a
//! counting allocator for the memory bound.

#![allow(dead_code, unsafe_code)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

/// Choices read one byte at a time from the fuzzer's input; past its end every choice is 0.
pub struct Picks<'a>(&'a [u8]);

impl<'a> Picks<'a> {
    /// Choices from `bytes`.
    pub fn new(bytes: &'a [u8]) -> Picks<'a> {
        Picks(bytes)
    }

    /// A number in `0..n` (`n` at most 256 for an even spread).
    pub fn pick(&mut self, n: usize) -> usize {
        let (first, rest) = self.0.split_first().map_or((0, &[][..]), |(b, rest)| (*b, rest));
        self.0 = rest;
        usize::from(first) % n.max(1)
    }

    /// One of `items`.
    pub fn one<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.pick(items.len())]
    }

    /// A number in `0..n` for `n` past 256, from two bytes.
    pub fn wide(&mut self, n: usize) -> usize {
        let high = self.pick(256);
        let low = self.pick(256);
        (high << 8 | low) % n.max(1)
    }
}

/// `template` with every `%` replaced by `inner` in parentheses: one use applied to another.
pub fn compose(template: &str, inner: &str) -> String {
    template.replace('%', &format!("({inner})"))
}

/// The system allocator, counting the bytes held now and the most held since the last reset.
pub struct Counting;

static HELD: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every call is passed to the system allocator unchanged; only counters are kept.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's layout is passed on as it came.
        let block = unsafe { System.alloc(layout) };
        if !block.is_null() {
            let held = HELD.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
            PEAK.fetch_max(held, Ordering::Relaxed);
        }
        block
    }

    unsafe fn dealloc(&self, block: *mut u8, layout: Layout) {
        // SAFETY: `block` came from `alloc` with this layout.
        unsafe { System.dealloc(block, layout) };
        HELD.fetch_sub(layout.size(), Ordering::Relaxed);
    }

    unsafe fn realloc(&self, block: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: as the caller promises for `block` and `layout`.
        let moved = unsafe { System.realloc(block, layout, new_size) };
        if !moved.is_null() {
            HELD.fetch_sub(layout.size(), Ordering::Relaxed);
            let held = HELD.fetch_add(new_size, Ordering::Relaxed) + new_size;
            PEAK.fetch_max(held, Ordering::Relaxed);
        }
        moved
    }
}

/// Starts counting the peak from what is held now; returns what is held now.
pub fn reset_peak() -> usize {
    let held = HELD.load(Ordering::Relaxed);
    PEAK.store(held, Ordering::Relaxed);
    held
}

/// The most held since [`reset_peak`] beyond `base`.
pub fn peak_above(base: usize) -> usize {
    PEAK.load(Ordering::Relaxed).saturating_sub(base)
}

/// What [`timed`] measured of one case: what `write` made of the answer, how long the
/// evaluation took, how long it took with its answer written, and the most memory it held.
pub struct Timed<W> {
    pub written: W,
    pub evaluated: std::time::Duration,
    pub total: std::time::Duration,
    pub peak: usize,
}

/// Runs `evaluate`, then `write` over its answer, timing both and counting the memory held;
/// a run past `evaluation` or `writing` is tried again, up to three runs in all, and the best
/// kept: the machine is shared, and a bound that leaked would leak every time.
pub fn timed<A, W>(
    mut evaluate: impl FnMut() -> A,
    mut write: impl FnMut(&A) -> W,
    evaluation: std::time::Duration,
    writing: std::time::Duration,
) -> Timed<W> {
    let mut best: Option<Timed<W>> = None;
    for _ in 0..3 {
        let base = reset_peak();
        let started = std::time::Instant::now();
        let answer = evaluate();
        let evaluated = started.elapsed();
        let written = write(&answer);
        let total = started.elapsed();
        let peak = peak_above(base);
        drop(answer);
        let run = Timed {
            written,
            evaluated,
            total,
            peak,
        };
        let within = run.evaluated < evaluation && run.total < writing;
        best = Some(match best {
            Some(kept) if kept.evaluated.max(kept.total) <= run.evaluated.max(run.total) => kept,
            _ => run,
        });
        if within {
            break;
        }
    }
    best.expect("at least one run")
}
