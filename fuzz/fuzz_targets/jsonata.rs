//! Fuzz target: any JSONata expression over any data gets an answer within its limits — a
//! value, or an error with a code and a message — never a panic, a stack overflow, or an
//! evaluation that outlives its timeout by more than 10 ms. Parsing is timed on its own.

#![no_main]

use std::time::{Duration, Instant};

use libfuzzer_sys::fuzz_target;
use writ_core::{Value, parse_json_with_depth};
use writ_jsonata::{Expression, JsonataLimits, Options};

const TIMEOUT_MS: u64 = 50;

fuzz_target!(|bytes: &[u8]| {
    let Ok(text) = std::str::from_utf8(bytes) else { return };
    // The expression and the data, split at the first NUL.
    let (source, data) = text.split_once('\0').unwrap_or((text, "{}"));
    let data = parse_json_with_depth(data, 600).unwrap_or(Value::Null);
    let parsing = Instant::now();
    let compiled = Expression::compile(source);
    let parsed_in = parsing.elapsed();
    assert!(parsed_in < Duration::from_secs(1), "{source:?} took {parsed_in:?} to parse");
    let expression = match compiled {
        Ok(expression) => expression,
        Err(error) => {
            assert!(!error.message().is_empty(), "an error without a message: {error:?}");
            return;
        }
    };
    // A tenth of the default step and sequence limits: coverage instrumentation slows a
    // built-in's uninterruptible pass over its items some tenfold, and the deadline is about
    // where writ can stop, not about the instrumentation's speed.
    let options = Options {
        limits: JsonataLimits { timeout: Some(TIMEOUT_MS), depth: Some(500), steps: Some(1_000_000), sequence: Some(1_000_000) },
        ..Options::default()
    };
    let started = Instant::now();
    let answer = expression.evaluate(&data, &options);
    let elapsed = started.elapsed();
    assert!(
        elapsed < Duration::from_millis(TIMEOUT_MS + 10),
        "{source:?} ran {elapsed:?}, past its {TIMEOUT_MS} ms timeout by more than 10 ms"
    );
    match answer {
        Ok(value) => {
            // Bounded as the CLI bounds it: a value can hold one container many times over.
            let _ = value.to_json_string_within(writ_core::MAX_ANSWER_BYTES);
        }
        Err(error) => assert!(!error.message().is_empty(), "an error without a message: {error:?}"),
    }
});
