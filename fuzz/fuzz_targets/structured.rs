//! Fuzz target: any predicate text over any data gets an answer within its budget: a boolean,
//! or an error with one of the structured language's codes.

#![no_main]

use std::sync::Arc;
use std::time::{Duration, Instant};

use libfuzzer_sys::fuzz_target;
use writ_cells::structured::Structured;
use writ_core::{Engine, FixedHost, Limits, Object, Outcome, Source, Value, parse_json_with_depth};

const CODES: [&str; 4] = ["invalid-predicate", "forbidden-path-segment", "empty-path-segment", "budget-exceeded"];

fuzz_target!(|bytes: &[u8]| {
    let Ok(text) = std::str::from_utf8(bytes) else { return };
    // The predicate and the data, split at the first NUL.
    let (predicate, data) = text.split_once('\0').unwrap_or((text, "null"));
    let Ok(predicate) = parse_json_with_depth(predicate, 300) else { return };
    let data = parse_json_with_depth(data, 64).unwrap_or(Value::Null);
    let limits = Limits { steps: Some(10_000), time: Some(Duration::from_millis(10)), ..Limits::UNLIMITED };
    let started = Instant::now();
    let answer = Structured.run(Source::Json(&predicate), &data, &Object::new(), &limits, Arc::new(FixedHost::default()));
    match Outcome::from(answer) {
        Outcome::Value(Value::Bool(_)) => {}
        Outcome::Error { code, message } => {
            assert!(CODES.contains(&code.as_str()), "unexpected code {code}");
            assert!(!message.is_empty());
        }
        other => panic!("a predicate answers a boolean, not {other:?}"),
    }
    assert!(started.elapsed() < Duration::from_millis(50), "the deadline was not kept");
});
