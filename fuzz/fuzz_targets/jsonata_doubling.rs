//! Fuzz target: JSONata values built by doubling (`[$a, $a]` and kin: sixty levels hold 2^60
//! leaves in a few kilobytes) go through a fuzz-chosen chain of up to three operations that
//! compare, sort, group, stringify, copy and return them, under a 50 ms timeout and a tenth of
//! the default steps and sequence length. Each evaluation must end within the timeout plus
//! 50 ms, its answer written as the CLI writes it within the timeout plus 2 s (writing runs at
//! the instrumented build's speed), hold at most 256 MiB more than before, and answer a value
//! whose text fits the answer bound or one of the budget codes; never panic.

#![no_main]

#[path = "common/mod.rs"]
mod common;

use std::time::Duration;

use common::{Counting, Picks, compose};
use libfuzzer_sys::fuzz_target;
use writ_core::{MAX_ANSWER_BYTES, Value};
use writ_jsonata::{Expression, JsonataLimits, Options};

#[global_allocator]
static ALLOCATOR: Counting = Counting;

const TIMEOUT_MS: u64 = 50;
const MARGIN: Duration = Duration::from_millis(50);
/// How far past the deadline the answer may be written by: writing runs outside the
/// evaluation, at the speed of a build slowed by coverage instrumentation, which the engines'
/// charges for writing (made for a plain build) do not foresee.
const WRITING: Duration = Duration::from_millis(2000);
const MEMORY_BOUND: usize = 256 << 20;

/// What each doubling step makes of `$a`.
const SHAPES: &[&str] = &[
    "[$a, $a]",
    "[[$a], [$a]]",
    "{'l': $a, 'r': $a}",
    "[$a, {'x': $a}]",
    "{'l': [$a], 'r': {'k': $a}}",
    "$append($a, $a)",
    "[$a, 'ab', $a]",
    "$a ~> |$|{'n': $a}|",
    "$merge([{'l': $a}, {'r': $a}])",
    "$spread({'l': $a, 'r': $a})",
    "[$a, $a][]",
    "$reverse([$a, $a])",
];

/// What the doubling starts from.
const SEEDS: &[&str] = &["1", "'x'", "null", "{}", "[1, 'é']", "true", "[]", "{'k': [1, 2]}"];

/// Uses of a value `%` (and of the second value, `$c`).
const USES: &[&str] = &[
    "%",
    "% = $c",
    "% != $c",
    "% in [$c]",
    "[%] = [$c]",
    "% < $c",
    "$string(%)",
    "$string(%, true)",
    "$length($string(%))",
    "$distinct([%, $c])",
    "[%, $c]^($string($))",
    "[{'k': %}, {'k': $c}]^(k)",
    "$sort([%, $c], function($l, $r){ $l = $r })",
    "[%, $c]{$string($): $}",
    "[%, $c]{'k': $}",
    "% & ''",
    "$join([$string(%), $string($c)], ',')",
    "% ~> |$|{'n': 1}|",
    "% ~> |**|{'m': 2}, ['l']|",
    "$merge([{'a': %}, {'b': $c}])",
    "[%, $c]",
    "{'k': %}",
    "$count(%)",
    "%.$",
    "%[0]",
    "%[]",
    "$keys(%)",
    "$reverse(%)",
    "$sort(%)",
    "$append(%, %)",
    "$spread(%)",
    "$each({'a': %}, function($v){ $v })",
    "$lookup(%, 'l')",
    "%.**",
    "%.*",
    "$sift({'a': %}, function($v){ $v = $c })",
    "$map([%, $c], function($v){ [$v, $v] })",
    "$filter([%, $c], function($v){ $v = $c })",
    "$reduce([%, $c], function($x, $y){ [$x, $y] })",
    "$clone(%)",
    "$replace($string(%), 'x', 'yy')",
    "$pad($string(%), 1000)",
    "$uppercase($string(%))",
    "$split($string(%), ',')",
    "$zip(%, $c)",
    "$type(%)",
    "$exists(%)",
    "$boolean(%)",
    "$not(%)",
    "$sum($count(%))",
    "%{'k': $}",
    "% ? % : $c",
];

fuzz_target!(|bytes: &[u8]| {
    let mut picks = Picks::new(bytes);
    let shape = picks.one(SHAPES);
    let seed = picks.one(SEEDS);
    let levels = picks.pick(65);
    let mut operation = picks.one(USES).replace('%', "$b");
    for _ in 0..picks.pick(3) {
        operation = compose(picks.one(USES), &operation);
    }
    let doubled = format!("$reduce([0..{levels}], function($a, $v){{ {shape} }}, {seed})");
    let source = format!("($b := {doubled}; $c := {doubled}; {operation})");
    let expression = Expression::compile(&source).unwrap_or_else(|e| panic!("{source}: {e:?}"));
    let options = Options {
        limits: JsonataLimits {
            timeout: Some(TIMEOUT_MS),
            depth: Some(500),
            steps: Some(1_000_000),
            sequence: Some(1_000_000),
        },
        ..Options::default()
    };
    let run = common::timed(
        || expression.evaluate(&Value::Undefined, &options),
        |answer| {
            answer
                .as_ref()
                .map(|value| {
                    value
                        .to_json_string_within(MAX_ANSWER_BYTES)
                        .map(|t| t.map(|t| t.len()))
                })
                .map_err(|error| error.code().to_string())
        },
        Duration::from_millis(TIMEOUT_MS) + MARGIN,
        Duration::from_millis(TIMEOUT_MS) + WRITING,
    );
    assert!(
        run.evaluated < Duration::from_millis(TIMEOUT_MS) + MARGIN,
        "{source} answered after {:?}",
        run.evaluated
    );
    assert!(
        run.total < Duration::from_millis(TIMEOUT_MS) + WRITING,
        "{source} was written by {:?}",
        run.total
    );
    assert!(run.peak < MEMORY_BOUND, "{source} held {} MiB", run.peak >> 20);
    let written = run.written;
    match written {
        Ok(Ok(_)) => {}
        Ok(Err(_)) => panic!("{source} answered a value too long to write"),
        // The bounds (D1012 time, D1011 depth, D2015 sequence, U1006 steps, U1007 a string's
        // length or the memory used, U1001 the other caps, U1008 the answer's size), D1001 a
        // number JSON cannot hold, and the type and argument errors a chain of uses can meet
        // (T…, D2…, D3…).
        Err(code) => {
            assert!(
                ["D1012", "U1008", "D2015", "U1006", "U1007", "U1001", "D1011", "D1001"].contains(&code.as_str())
                    || code.starts_with('T')
                    || code.starts_with("D2")
                    || code.starts_with("D3"),
                "{source}: {code}"
            );
        }
    }
});
