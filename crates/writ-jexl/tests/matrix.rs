//! The operator matrix: every binary operator of Jexl 2.3 over every ordered pair of operand
//! kinds, and `!`, `-` and the ternary's test over every kind, each cell pinned with the answer
//! jexl 2.3.0 gives (`tests/matrix/matrix.json`, written by `tests/matrix/gen.mjs`).
//!
//! Answers are compared exactly, in a typed form that tells `-0` from `0`, `NaN` from `null`
//! and `undefined` from both; an error compares by writ's code. Every disagreement is listed
//! before the test fails, with the count of cells that agreed.

use std::path::Path;

use writ_core::{Value, js_number_to_string, parse_json};
use writ_jexl::Jexl;

/// Every binary operator of Jexl 2.3, each of which the matrix must apply.
const BINARY: &[&str] = &[
    "+", "-", "*", "/", "//", "%", "^", "==", "!=", "<", "<=", ">", ">=", "&&", "||", "in",
];

/// The matrix, as pinned.
fn matrix() -> Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/matrix/matrix.json");
    let text = std::fs::read_to_string(&path).expect("tests/matrix/matrix.json is readable");
    parse_json(&text).expect("matrix.json is JSON")
}

/// The strings of a JSON array.
fn strings(value: Option<&Value>) -> Vec<String> {
    let Some(Value::Array(items)) = value else {
        panic!("expected an array of strings, got {value:?}");
    };
    items
        .iter()
        .map(|item| match item {
            Value::String(text) => text.to_string_lossy().into_owned(),
            other => panic!("expected a string, got {other:?}"),
        })
        .collect()
}

/// A field of an object.
fn field<'v>(value: &'v Value, name: &str) -> Option<&'v Value> {
    match value {
        Value::Object(object) => object.get(&name.into()),
        _ => None,
    }
}

/// An answer in the generator's typed form.
fn encode(answer: Result<Value, writ_jexl::Error>) -> String {
    let value = match answer {
        Ok(value) => value,
        Err(error) => return format!("e:{}", error.code().as_str()),
    };
    match &value {
        Value::Undefined => "u".to_owned(),
        Value::Null => "z".to_owned(),
        Value::Number(number) if *number == 0.0 && number.is_sign_negative() => "n:-0".to_owned(),
        Value::Number(number) => format!("n:{}", js_number_to_string(*number)),
        Value::Bool(flag) => format!("b:{flag}"),
        Value::String(_) => format!("s:{}", value.to_json_string().unwrap_or_default()),
        Value::Array(_) => format!("a:{}", value.to_json_string().unwrap_or_default()),
        Value::Object(_) => format!("o:{}", value.to_json_string().unwrap_or_default()),
    }
}

#[test]
fn every_operator_answers_as_jexl_does_on_every_kind_of_operand() {
    let matrix = matrix();
    let operands = strings(field(&matrix, "operands"));
    let binary = strings(field(&matrix, "binary"));
    let unary = strings(field(&matrix, "unary"));
    let answers = strings(field(&matrix, "answers"));
    let context = field(&matrix, "context").expect("a context").clone();
    assert_eq!(binary, BINARY, "the matrix applies every binary operator");
    assert!(operands.len() >= 30, "the matrix keeps every kind of operand");
    let jexl = Jexl::new();
    let cells = field(&matrix, "cells").expect("cells");
    let mut checked = 0usize;
    let mut failures = Vec::new();
    let mut check = |op: &str, sources: Vec<String>| {
        let Some(Value::Array(row)) = field(cells, op) else {
            panic!("no cells for '{op}'");
        };
        assert_eq!(row.len(), sources.len(), "one cell per case of '{op}'");
        for (source, expected) in sources.iter().zip(row.iter()) {
            let Value::Number(at) = expected else {
                panic!("a cell is an index");
            };
            let expected = &answers[*at as usize];
            let got = encode(jexl.eval(source, &context));
            checked += 1;
            if &got != expected {
                failures.push(format!("{source}: expected {expected}, got {got}"));
            }
        }
    };
    for op in &binary {
        let sources = operands
            .iter()
            .flat_map(|left| operands.iter().map(move |right| format!("{left} {op} {right}")))
            .collect();
        check(op, sources);
    }
    for op in &unary {
        check(op, operands.iter().map(|operand| op.replace('%', operand)).collect());
    }
    let expected_cells = binary.len() * operands.len() * operands.len() + unary.len() * operands.len();
    assert_eq!(checked, expected_cells, "every cell ran");
    assert!(
        failures.is_empty(),
        "{} of {checked} cells differ from jexl 2.3.0:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
