//! Fuzz target: Jexl over a context whose values were built by doubling (each level holds the
//! one below twice, so forty levels hold 2^40 leaves in a few kilobytes), through a
//! fuzz-chosen chain of up to three uses that compare, join, index, filter and return them,
//! under a 50 ms deadline and a tenth of the default steps, strings and arrays (or no step,
//! string or array cap at all). Each evaluation must end within the deadline plus 50 ms, its
//! answer written as the CLI writes it within the deadline plus 2 s (writing runs at the
//! instrumented build's speed), hold at most 256 MiB more than before, and answer
//! a value whose text fits the answer bound, or a bound or runtime code; never panic. It runs
//! through the engine seam, as the CLI does, where the answer is measured.

#![no_main]

#[path = "common/mod.rs"]
mod common;

use std::time::Duration;

use common::{Counting, Picks, compose};
use libfuzzer_sys::fuzz_target;
use std::sync::Arc;

use writ_core::{Engine, FixedHost, Limits, MAX_ANSWER_BYTES, Object, Source, Value};
use writ_jexl::{DEFAULT_LIMITS, Jexl};

#[global_allocator]
static ALLOCATOR: Counting = Counting;

const TIMEOUT_MS: u64 = 50;
const MARGIN: Duration = Duration::from_millis(50);
/// How far past the deadline the answer may be written by: writing runs outside the
/// evaluation, at the speed of a build slowed by coverage instrumentation, which the engines'
/// charges for writing (made for a plain build) do not foresee.
const WRITING: Duration = Duration::from_millis(2000);
const MEMORY_BOUND: usize = 256 << 20;

/// The leaves the doubling starts from.
fn leaf(pick: usize) -> Value {
    match pick {
        0 => Value::from(1.0),
        1 => Value::from("x"),
        2 => Value::Null,
        3 => Value::Object(Object::new()),
        4 => Value::from(vec![Value::from(1.0), Value::from("é")]),
        _ => Value::Bool(true),
    }
}

/// One doubling step of shape `shape` over `inner`.
fn double(shape: usize, inner: Value) -> Value {
    match shape {
        0 => Value::from(vec![inner.clone(), inner]),
        1 => Value::Object(Object::from_iter([("l".into(), inner.clone()), ("r".into(), inner)])),
        2 => Value::from(vec![inner.clone(), Value::from("ab"), inner]),
        _ => Value::from(vec![Value::from(vec![inner.clone()]), inner]),
    }
}

/// Uses of a value `%`; `s` is a short string, `a` and `b` two doubled values.
const USES: &[&str] = &[
    "%",
    "% == b",
    "% != b",
    "% < b",
    "% >= s",
    "% + s",
    "s + %",
    "% * 2",
    "% - 1",
    "%|join",
    "%|join(s)",
    "%|upper",
    "%|lower",
    "%|length",
    "%|split(s)",
    "s in %",
    "% in s",
    "% in [b]",
    "[%, %]",
    "[%, b]",
    "{k: %, l: [%]}",
    "%[0]",
    "%[1]",
    "%.l",
    "%.r",
    "%[.l == s]",
    "%[0 == 0]",
    "% ? % : b",
    "!%",
    "% && b",
    "% || b",
    "pair(%, b)",
];

fuzz_target!(|bytes: &[u8]| {
    let mut picks = Picks::new(bytes);
    let shape = picks.pick(4);
    let base_leaf = leaf(picks.pick(6));
    let levels = picks.pick(48);
    let raised = picks.pick(2) == 1;
    let mut use_ = picks.one(USES).replace('%', "a");
    for _ in 0..picks.pick(3) {
        let outer = picks.one(USES);
        // Jexl reads no member, index or filter after a parenthesized expression (jexl-js
        // refuses `(x)[0]` too), so those uses apply only to `a` itself.
        if !outer.contains("%[") && !outer.contains("%.") {
            use_ = compose(outer, &use_);
        }
    }
    let doubled = (0..levels).fold(base_leaf, |inner, _| double(shape, inner));
    let context = Value::Object(Object::from_iter([
        ("a".into(), doubled.clone()),
        ("b".into(), doubled),
        ("s".into(), Value::from("x")),
    ]));
    let limits = if raised {
        Limits {
            steps: None,
            time: Some(Duration::from_millis(TIMEOUT_MS)),
            max_string_length: None,
            max_array_length: None,
            max_total_allocation: None,
            ..DEFAULT_LIMITS
        }
    } else {
        Limits {
            steps: Some(1_000_000),
            time: Some(Duration::from_millis(TIMEOUT_MS)),
            max_string_length: Some(1_000_000),
            max_array_length: Some(1_000_000),
            max_total_allocation: Some(10_000_000),
            ..DEFAULT_LIMITS
        }
    };
    let jexl = Jexl::new()
        .with_standard_transforms(&["upper", "lower", "split", "join", "length"])
        .expect("the standard set")
        .with_function("pair", |args| {
            Ok(Value::from(args.iter().take(2).cloned().collect::<Vec<_>>()))
        });
    let shown = format!("{use_} over {levels} levels of shape {shape}");
    let run = common::timed(
        // Through the engine seam, as the CLI runs it: the answer is measured there.
        || {
            jexl.run(
                Source::Text(&use_),
                &context,
                &Object::new(),
                &limits,
                Arc::new(FixedHost::default()),
            )
        },
        |answer| {
            answer
                .as_ref()
                .map(|value| {
                    value
                        .to_json_string_within(MAX_ANSWER_BYTES)
                        .map(|t| t.map(|t| t.len()))
                })
                .map_err(|diagnostic| diagnostic.code().to_owned())
        },
        Duration::from_millis(TIMEOUT_MS) + MARGIN,
        Duration::from_millis(TIMEOUT_MS) + WRITING,
    );
    assert!(
        run.evaluated < Duration::from_millis(TIMEOUT_MS) + MARGIN,
        "{shown} answered after {:?}",
        run.evaluated
    );
    assert!(
        run.total < Duration::from_millis(TIMEOUT_MS) + WRITING,
        "{shown} was written by {:?}",
        run.total
    );
    assert!(run.peak < MEMORY_BOUND, "{shown} held {} MiB", run.peak >> 20);
    let written = run.written;
    match written {
        Ok(Ok(_)) => {}
        Ok(Err(_)) => panic!("{shown} answered a value too long to write"),
        Err(error) => assert!(
            ["budget-exceeded", "answer-too-large", "jexl-runtime", "jexl-transform"].contains(&error.as_str()),
            "{shown}: {error}"
        ),
    }
});
