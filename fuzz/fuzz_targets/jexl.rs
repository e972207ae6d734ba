//! Fuzz target: any Jexl source over any data gets an answer within its limits — a value, or an
//! error with a code and a message — never a panic, a stack overflow, or an evaluation that
//! outlives its timeout by more than 10 ms. Parsing (and the linter) are timed on their own.

#![no_main]

use std::time::{Duration, Instant};

use libfuzzer_sys::fuzz_target;
use writ_core::{Limits, Value, parse_json_with_depth};
use writ_jexl::{Code, DEFAULT_LIMITS, Jexl, lint, outcome};

const TIMEOUT_MS: u64 = 50;

/// The codes an answer may carry.
const CODES: [&str; 7] = [
    "jexl-syntax",
    "jexl-dialect",
    "jexl-unknown-transform",
    "jexl-unknown-function",
    "jexl-transform",
    "jexl-runtime",
    "budget-exceeded",
];

fuzz_target!(|bytes: &[u8]| {
    let Ok(text) = std::str::from_utf8(bytes) else { return };
    // The expression and the data, split at the first NUL.
    let (source, data) = text.split_once('\0').unwrap_or((text, "{}"));
    let data = parse_json_with_depth(data, 600).unwrap_or(Value::Null);
    // A tenth of the default steps, strings and arrays: coverage instrumentation slows an
    // uninterruptible pass over a string some tenfold, and the deadline is about where writ
    // can stop, not about the instrumentation's speed.
    let limits = Limits {
        steps: Some(1_000_000),
        time: Some(Duration::from_millis(TIMEOUT_MS)),
        max_string_length: Some(1_000_000),
        max_array_length: Some(1_000_000),
        max_total_allocation: Some(10_000_000),
        ..DEFAULT_LIMITS
    };
    let jexl = Jexl::new()
        .with_limits(limits)
        .with_standard_transforms(&["upper", "lower", "split", "join", "length"])
        .expect("the standard set")
        .with_function("pair", |args| {
            Ok(Value::from(args.iter().take(2).cloned().collect::<Vec<_>>()))
        });
    let parsing = Instant::now();
    let compiled = jexl.compile(source);
    if let Some(found) = lint(source) {
        assert!(found.position <= source.len() && !found.message.is_empty(), "{found:?}");
    }
    let parsed_in = parsing.elapsed();
    assert!(
        parsed_in < Duration::from_secs(1),
        "{source:?} took {parsed_in:?} to parse"
    );
    let expression = match compiled {
        Ok(expression) => expression,
        Err(error) => {
            assert!(
                matches!(error.code(), Code::Syntax | Code::Dialect | Code::BudgetExceeded),
                "{error:?}"
            );
            assert!(!error.message().is_empty(), "an error without a message: {error:?}");
            return;
        }
    };
    let _ = (expression.transforms(), expression.functions());
    let started = Instant::now();
    let answer = expression.evaluate(&data);
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
        Err(error) => {
            assert!(CODES.contains(&error.code().as_str()), "an unknown code: {error:?}");
            assert!(!error.message().is_empty(), "an error without a message: {error:?}");
        }
    }
    // The one-call path answers the same way.
    let _ = outcome(&jexl, source, &data).to_envelope();
});
