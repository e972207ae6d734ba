//! The hot path allocates nothing: a compiled simple check over a context object runs without
//! touching the heap, measured by a counting global allocator on the calling thread only.
#![allow(unsafe_code)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use writ_core::{Object, Value, parse_json};
use writ_js::{Compiled, Evaluator};

/// Delegates to the system allocator and counts, per thread, every call that hands out memory.
struct Counting;

thread_local! {
    // A const-initialised `Cell` needs no destructor and no lazy set-up, so touching it from
    // inside the allocator cannot itself allocate or recurse.
    static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
}

/// Counts one allocation on this thread; silently skipped while the thread is being torn down.
fn count_one() {
    let _ = ALLOCATIONS.try_with(|count| count.set(count.get().saturating_add(1)));
}

/// The allocations made so far on this thread.
fn allocations() -> u64 {
    ALLOCATIONS.with(Cell::get)
}

// SAFETY: every method forwards its arguments unchanged to `System`, which upholds the
// `GlobalAlloc` contract; the counting touches only a thread-local `Cell` and never allocates.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count_one();
        // SAFETY: the caller's guarantees for `layout` are passed straight on to `System`.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        count_one();
        // SAFETY: as for `alloc`.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count_one();
        // SAFETY: `ptr` was allocated by this allocator, that is by `System`, with `layout`,
        // and the caller guarantees `new_size`; all are forwarded unchanged.
        unsafe { System.realloc(ptr, layout, new_size) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from `System` through this allocator, with this `layout`.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Evaluations measured after the warm-up.
const RUNS: u64 = 1_000;

fn context() -> Object {
    let data = parse_json(r#"{"count": 3, "root": {"count": 3, "user": {"name": "Ada"}}}"#).expect("valid JSON");
    data.as_object().expect("an object").clone()
}

/// Evaluates `compiled` over `context` `RUNS` times after a warm-up, and returns how many
/// allocations the measured runs made on this thread.
fn allocations_of(compiled: &Compiled, context: &Object) -> u64 {
    for _ in 0..10 {
        assert_eq!(compiled.eval(&[context]), Ok(Value::Bool(true)));
    }
    let before = allocations();
    for _ in 0..RUNS {
        let result = compiled.eval(&[context]);
        // Comparing in place keeps the check itself off the heap.
        if result != Ok(Value::Bool(true)) {
            panic!("the check gave {result:?}");
        }
    }
    allocations() - before
}

#[test]
fn the_counter_sees_this_threads_allocations() {
    let before = allocations();
    let boxed = std::hint::black_box(Box::new([0u8; 64]));
    assert!(allocations() > before, "a Box must be counted");
    drop(boxed);
}

#[test]
fn building_a_string_is_counted() {
    // The control: a result string must come from the heap, so the measurement covers the
    // evaluation path and a zero below means something.
    let evaluator = Evaluator::new();
    let context = context();
    let compiled = evaluator.compile("`${root.user.name}, ${count}`").expect("compiles");
    assert_eq!(compiled.eval(&[&context]), Ok(Value::from("Ada, 3")));
    let before = allocations();
    let result = compiled.eval(&[&context]);
    assert!(allocations() > before, "building {result:?} allocated nothing");
}

#[test]
fn a_compiled_simple_check_allocates_nothing() {
    let evaluator = Evaluator::new();
    let context = context();
    for source in ["count > 0", "root.count > 0"] {
        let compiled = evaluator.compile(source).expect("compiles");
        let count = allocations_of(&compiled, &context);
        assert_eq!(
            count,
            0,
            "{source}: {count} allocations over {RUNS} evaluations ({} each)",
            count as f64 / RUNS as f64
        );
    }
}

#[test]
fn a_cached_source_through_eval_allocates_nothing() {
    // `Evaluator::eval` on a source it has parsed before: the cache lookup borrows the text.
    let evaluator = Evaluator::new();
    let context = context();
    let source = "root.count > 0";
    for _ in 0..10 {
        assert_eq!(evaluator.eval(source, &[&context]), Ok(Value::Bool(true)));
    }
    let before = allocations();
    for _ in 0..RUNS {
        let result = evaluator.eval(source, &[&context]);
        if result != Ok(Value::Bool(true)) {
            panic!("the check gave {result:?}");
        }
    }
    let count = allocations() - before;
    assert_eq!(
        count, 0,
        "{source} through eval: {count} allocations over {RUNS} evaluations"
    );
}
