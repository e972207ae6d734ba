//! A property over values built by doubling: sixty levels of `[$a, $a]` take a few kilobytes
//! and hold 2^60 leaves, so every walk over them (equality, ordering, grouping, distinct, text,
//! copying, the answer itself) must be charged as it goes. Each case builds two such values
//! apart, runs one operation over them under a 100 ms timeout, and writes the answer as the CLI
//! does; the whole must end within the timeout and a generous margin, and the memory the process
//! holds must stay under a bound, counted by this binary's allocator.
//!
//! Run longer with `PROPTEST_CASES=10000 cargo test -p writ-jsonata --release --test doubling`.

// A counting global allocator needs `unsafe impl GlobalAlloc`; it only forwards to `System`.
#![allow(unsafe_code)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use proptest::prelude::*;
use writ_core::{MAX_ANSWER_BYTES, Value};
use writ_jsonata::{Expression, JsonataLimits, Options};

/// The system allocator, counting the bytes held now and the most held since the last reset.
struct Counting;

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

#[global_allocator]
static ALLOCATOR: Counting = Counting;

const TIMEOUT_MS: u64 = 100;
/// How far past its timeout a case may answer: generous, for a loaded machine and a debug build.
const MARGIN: Duration = Duration::from_millis(900);
/// The most a case may hold at once beyond what was held before it: the string cap (100 million
/// code units, two bytes each) twice over, and an answer's text.
const MEMORY_BOUND: usize = 900 << 20;

/// What each doubling step makes of `$a`.
const SHAPES: &[&str] = &[
    "[$a, $a]",
    "[[$a], [$a]]",
    "{'l': $a, 'r': $a}",
    "[$a, {'x': $a}]",
    "{'l': [$a], 'r': {'k': $a}}",
    "$append($a, $a)",
];

/// What the doubling starts from.
const SEEDS: &[&str] = &["1", "'x'", "null", "{}", "[1, 'é']", "true"];

/// What is done with the two values, `$b` and `$c`.
const OPERATIONS: &[&str] = &[
    "$b = $c",
    "$b != $c",
    "$b in [$c]",
    "[$c] = [$b]",
    "$string($b)",
    "$string($b, true)",
    "$length($string($b))",
    "$distinct([$b, $c])",
    "$distinct([$b, $c, $b])",
    "[$b, $c]^($string($))",
    "[{'k': $b}, {'k': $c}]^(k)",
    "$sort([$b, $c], function($l, $r){ $l = $r })",
    "[$b, $c]{$string($): $}",
    "[$b, $c]{'k': $}",
    "$b & ''",
    "$join([$string($b), $string($c)], ',')",
    "$b ~> |$|{'n': 1}|",
    "$merge([{'a': $b}, {'b': $c}])",
    "[$b, $c]",
    "$b",
    "{'k': $b}",
    "$count($b)",
    "$b.$",
    "$b[0]",
    "$keys($b)",
    "$reverse($b)",
    "$each({'a': $b}, function($v){ $v })",
    "$lookup($b, 'l')",
    "$b.**",
    "$sift({'a': $b}, function($v){ $v = $c })",
];

/// The program of one case: `$b` and `$c` doubled `levels` times from `seed` by `shape`, apart.
fn program(shape: &str, seed: &str, levels: u32, operation: &str) -> String {
    let doubled = format!("$reduce([1..{levels}], function($a, $v){{ {shape} }}, {seed})");
    format!("($b := {doubled}; $c := {doubled}; {operation})")
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn walks_over_doubled_values_stay_within_time_and_memory(
        shape in prop::sample::select(SHAPES),
        seed in prop::sample::select(SEEDS),
        levels in 8u32..=64,
        operation in prop::sample::select(OPERATIONS),
    ) {
        let source = program(shape, seed, levels, operation);
        let expression = Expression::compile(&source).expect("the program parses");
        let options = Options {
            limits: JsonataLimits { timeout: Some(TIMEOUT_MS), ..JsonataLimits::default() },
            ..Options::default()
        };
        let before = HELD.load(Ordering::Relaxed);
        PEAK.store(before, Ordering::Relaxed);
        let started = Instant::now();
        let answer = expression.evaluate(&Value::Undefined, &options);
        // Writing the answer, as the CLI does, is part of the evaluation.
        let written = answer
            .as_ref()
            .map(|value| value.to_json_string_within(MAX_ANSWER_BYTES).map(|text| text.map(|text| text.len())))
            .map_err(|error| error.code());
        let elapsed = started.elapsed();
        let peak = PEAK.load(Ordering::Relaxed).saturating_sub(before);
        drop(answer);
        prop_assert!(
            elapsed < Duration::from_millis(TIMEOUT_MS) + MARGIN,
            "{source} answered after {elapsed:?}"
        );
        prop_assert!(peak < MEMORY_BOUND, "{source} held {} MiB", peak >> 20);
        // An answer too long to write is refused by the evaluation, never found by the writer.
        prop_assert!(!matches!(written, Ok(Err(_))), "{source} answered a value too long to write");
    }
}
