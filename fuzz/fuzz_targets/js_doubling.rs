//! Fuzz target: JavaScript-subset values built by doubling (`[a, a]` and kin: sixty levels hold
//! 2^60 leaves in a few kilobytes) go through a fuzz-chosen chain of up to three uses that
//! compare, sort, group, stringify, copy and return them, under a 50 ms deadline and tight
//! caps. Each evaluation must end within the deadline plus 50 ms, its answer written as the
//! CLI writes it within the deadline plus 2 s (writing runs at the instrumented build's
//! speed), hold at most 256 MiB more than before, and answer a value whose text fits the answer
//! bound, or `budget-exceeded` / `expression-runtime` / `guardrail-violation`; never panic.

#![no_main]

#[path = "common/mod.rs"]
mod common;

use std::sync::OnceLock;
use std::time::Duration;

use common::{Counting, Picks, compose};
use libfuzzer_sys::fuzz_target;
use writ_core::MAX_ANSWER_BYTES;
use writ_js::{Budget, Evaluator, Reason};

#[global_allocator]
static ALLOCATOR: Counting = Counting;

const DEADLINE_MS: u64 = 50;
const MARGIN: Duration = Duration::from_millis(50);
/// How far past the deadline the answer may be written by: writing runs outside the
/// evaluation, at the speed of a build slowed by coverage instrumentation, which the engines'
/// charges for writing (made for a plain build) do not foresee.
const WRITING: Duration = Duration::from_millis(2000);
const MEMORY_BOUND: usize = 256 << 20;

/// What each doubling step makes of `a`.
const SHAPES: &[&str] = &[
    "[a, a]",
    "({ a, b: a })",
    "[a, 1, a]",
    "[[a], a]",
    "[a, \"é\".repeat(70), a]",
    "[a].concat([a])",
    "[...[a], ...[a]]",
    "({ ...{ l: a }, r: a })",
    "Object.fromEntries([[\"l\", a], [\"r\", a]])",
    "[a, a].map((x) => x)",
    "[a, a].toReversed()",
    "Array.of(a, a)",
];

/// What the doubling starts from.
const SEEDS: &[&str] = &["1", "\"x\"", "null", "({})", "[1, \"é\"]", "true", "[]", "undefined"];

/// Uses of a value `%`.
const USES: &[&str] = &[
    "%",
    "[%, %]",
    "JSON.stringify(%)",
    "JSON.stringify(%, null, 2)",
    "String(%)",
    "`${%}`",
    "[%].join()",
    "% + 1",
    "% == \"x\"",
    "% === %",
    "% < %",
    "[%, %].includes(1)",
    "[%, 1].indexOf(1)",
    "Object.groupBy([%, %], (x) => JSON.stringify(x))",
    "[%, %].toSorted()",
    "[%, [%]].toSorted((x, y) => String(x).length - String(y).length)",
    "[%].flat(Infinity)",
    "[%].flat(Infinity).length",
    "JSON.parse(JSON.stringify(%))",
    "[...[%], ...[%]]",
    "({ ...[%, %] })",
    "Object.entries({ d: % })",
    "Object.values({ x: %, y: % })",
    "Object.keys(%)",
    "[%].map((x) => [x, x])",
    "[%].concat([%])",
    "[%, %].with(0, %)",
    "[%, %].filter((x) => x)",
    "[%, %].some((x) => x === 1)",
    "[%, %].findIndex((x) => x == 1)",
    "new Set([%, %]).size",
    "Array.isArray(%) ? %.length : 0",
    "typeof %",
    "!%",
    "%?.a",
    "[%].at(-1)",
    "String(%).length",
    "String(%).replaceAll(\"1\", \"22\")",
    "String(%).padEnd(1000, \"ab\")",
    "String(%).toUpperCase()",
    "String(%).split(\",\")",
    "[%, %].reverse()",
    "[%, %].slice(0)",
];

fn evaluator(high_steps: bool) -> &'static Evaluator {
    static TIGHT: OnceLock<Evaluator> = OnceLock::new();
    static HIGH: OnceLock<Evaluator> = OnceLock::new();
    let cell = if high_steps { &HIGH } else { &TIGHT };
    cell.get_or_init(|| {
        let budget = Budget {
            steps: if high_steps { 1 << 40 } else { 200_000 },
            ms: DEADLINE_MS,
            max_string_length: 1_000_000,
            max_array_length: 1_000_000,
            max_total_allocation: 1_000_000,
        };
        Evaluator::builder().budget(budget).build().expect("no host functions")
    })
}

fuzz_target!(|bytes: &[u8]| {
    let mut picks = Picks::new(bytes);
    let shape = picks.one(SHAPES);
    let seed = picks.one(SEEDS);
    let levels = picks.pick(70);
    let high_steps = picks.pick(2) == 1;
    let mut use_ = picks.one(USES).replace('%', "d");
    for _ in 0..picks.pick(3) {
        use_ = compose(picks.one(USES), &use_);
    }
    let doubled = format!("Array.from({{ length: {levels} }}).reduce((a) => {shape}, {seed})");
    let source = format!("[{doubled}].map((d) => {use_})[0]");
    let evaluator = evaluator(high_steps);
    let run = common::timed(
        || evaluator.eval(&source, &[]),
        |answer| {
            answer
                .as_ref()
                .map(|value| {
                    value
                        .to_json_string_within(MAX_ANSWER_BYTES)
                        .map(|t| t.map(|t| t.len()))
                })
                .map_err(|error| (error.reason(), error.to_string()))
        },
        Duration::from_millis(DEADLINE_MS) + MARGIN,
        Duration::from_millis(DEADLINE_MS) + WRITING,
    );
    assert!(
        run.evaluated < Duration::from_millis(DEADLINE_MS) + MARGIN,
        "{source} answered after {:?}",
        run.evaluated
    );
    assert!(
        run.total < Duration::from_millis(DEADLINE_MS) + WRITING,
        "{source} was written by {:?}",
        run.total
    );
    assert!(run.peak < MEMORY_BOUND, "{source} held {} MiB", run.peak >> 20);
    let written = run.written;
    match written {
        Ok(Ok(_)) => {}
        Ok(Err(_)) => panic!("{source} answered a value too long to write"),
        Err((reason, message)) => assert!(
            matches!(
                reason,
                Reason::BudgetExceeded | Reason::ExpressionRuntime | Reason::GuardrailViolation
            ),
            "{source}: {message}"
        ),
    }
});
