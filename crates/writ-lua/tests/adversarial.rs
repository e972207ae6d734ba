//! The adversarial suite: every case in `adversarial.txt` is refused or stopped within the timeout
//! plus 50 ms, and the sandbox answers correctly afterwards.

use std::time::{Duration, Instant};

use writ_core::{Value, parse_json};
use writ_lua::{DEFAULT_LIMITS, LuaLimits, Sandbox};

/// The timeout every case runs under.
const TIMEOUT: Duration = Duration::from_millis(200);

/// How far past the timeout a runaway may run before it counts as not stopped.
const GRACE: Duration = Duration::from_millis(50);

/// One line of the case file.
struct Case {
    name: String,
    expected: String,
    source: String,
}

/// Reads `adversarial.txt`.
fn cases() -> Vec<Case> {
    let text = include_str!("adversarial.txt");
    let mut cases = Vec::new();
    for (n, line) in text.lines().enumerate() {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut parts = line.splitn(3, " | ");
        match (parts.next(), parts.next(), parts.next()) {
            (Some(name), Some(expected), Some(source)) => cases.push(Case {
                name: name.to_owned(),
                expected: expected.to_owned(),
                source: source.to_owned(),
            }),
            _ => panic!("adversarial.txt line {}: expected `name | expected | source`", n + 1),
        }
    }
    cases
}

/// What a case ended with, in the file's notation.
fn describe(result: &Result<Value, writ_lua::Error>) -> String {
    match result {
        Ok(Value::Undefined) => "=undefined".to_owned(),
        Ok(value) => format!("={}", value.to_json_string().unwrap_or_default()),
        Err(error) => error.code().as_str().to_owned(),
    }
}

#[test]
fn every_escape_and_runaway_is_refused_or_stopped_in_time() {
    let limits = LuaLimits {
        timeout: TIMEOUT,
        ..DEFAULT_LIMITS
    };
    let sandbox = Sandbox::new(limits).expect("sandbox builds");
    let context = parse_json(r#"{"n": 41, "name": "writ"}"#).expect("context parses");
    let cases = cases();
    assert!(cases.len() >= 40, "the suite has {} cases", cases.len());
    let mut failures = Vec::new();
    let mut times = Vec::new();
    for case in &cases {
        let started = Instant::now();
        let result = sandbox.evaluate(&case.source, &context);
        let elapsed = started.elapsed();
        let got = describe(&result);
        let accepted = if case.expected.starts_with('=') {
            got == case.expected
        } else {
            case.expected.split('/').any(|code| code == got)
        };
        if !accepted {
            let message = result.err().map(|e| e.to_string()).unwrap_or_default();
            failures.push(format!(
                "{}: expected {}, got {got} ({message})",
                case.name, case.expected
            ));
        }
        times.push((elapsed, case.name.as_str()));
        if elapsed > TIMEOUT + GRACE {
            failures.push(format!(
                "{}: ended after {elapsed:?}, past {:?}",
                case.name,
                TIMEOUT + GRACE
            ));
        }
        match sandbox.evaluate("return ctx.n + 1", &context) {
            Ok(Value::Number(42.0)) => {}
            other => failures.push(format!("{}: the next evaluation answered {other:?}", case.name)),
        }
    }
    times.sort();
    for (elapsed, name) in times.iter().rev().take(8) {
        println!("{elapsed:>12.1?}  {name}");
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases failed:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}
