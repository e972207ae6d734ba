//! Fuzz target: any JavaScript-subset source over any data gets an answer within its budget:
//! a value, or an error with a message — never a panic, a stack overflow, or an evaluation
//! that outlives its deadline by more than 10 ms. Parsing, which precedes the budget and is
//! bounded by the source's length, is timed on its own.

#![no_main]

use std::sync::OnceLock;
use std::time::{Duration, Instant};

use libfuzzer_sys::fuzz_target;
use writ_core::{Value, parse_json_with_depth};
use writ_js::{Budget, Evaluator};

const DEADLINE_MS: u64 = 50;

fn evaluator() -> &'static Evaluator {
    static EVALUATOR: OnceLock<Evaluator> = OnceLock::new();
    EVALUATOR.get_or_init(|| {
        // The caps are a tenth of the defaults, like the steps: coverage instrumentation makes a
        // built-in's uninterruptible pass over its text (a split, a replace, a join) some ten to
        // thirty times slower per character than in a release build, and the deadline check is
        // about where writ can stop, not about the instrumentation's speed.
        let budget = Budget {
            steps: 200_000,
            ms: DEADLINE_MS,
            max_string_length: 100_000,
            max_array_length: 10_000,
            max_total_allocation: 1_000_000,
        };
        // Long sources reach the parser's own depth checks, not only the length check.
        Evaluator::builder().budget(budget).max_source_length(20_000).build().expect("no host functions")
    })
}

fuzz_target!(|bytes: &[u8]| {
    let Ok(text) = std::str::from_utf8(bytes) else { return };
    // The expression and the data, split at the first NUL.
    let (source, data) = text.split_once('\0').unwrap_or((text, "{}"));
    let data = parse_json_with_depth(data, 600).unwrap_or(Value::Null);
    let contexts: Vec<&writ_core::Object> = data.as_object().into_iter().collect();
    // Parsing is bounded by the source's length and comes before the budget starts; it is
    // timed on its own, loosely, to catch a parser that goes superlinear.
    let parsing = Instant::now();
    let compiled = evaluator().compile(source);
    let parsed_in = parsing.elapsed();
    assert!(parsed_in < Duration::from_secs(1), "{source:?} took {parsed_in:?} to parse");
    let compiled = match compiled {
        Ok(compiled) => compiled,
        Err(error) => {
            assert!(!error.message().is_empty(), "an error without a message: {error:?}");
            return;
        }
    };
    let started = Instant::now();
    let answer = compiled.eval(&contexts);
    let elapsed = started.elapsed();
    assert!(
        elapsed < Duration::from_millis(DEADLINE_MS + 10),
        "{source:?} ran {elapsed:?}, past its {DEADLINE_MS} ms deadline by more than 10 ms"
    );
    match answer {
        Ok(value) => {
            // What leaves an expression is JSON: it always writes (or is undefined).
            // Bounded as the CLI bounds it: a value can hold one container many times over.
            let _ = value.to_json_string_within(writ_core::MAX_ANSWER_BYTES);
        }
        Err(error) => assert!(!error.message().is_empty(), "an error without a message: {error:?}"),
    }
});
