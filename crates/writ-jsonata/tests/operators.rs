//! The operator matrix: every binary operator of JSONata (`+ - * / % = != < <= > >= & and or
//! in`) and unary `-`, over every kind of operand (numbers with zero, negative zero, fractions
//! and the large; strings empty, numeric and not, non-ASCII; booleans; null; no value, unbound
//! and a path to nothing; arrays empty, of one, of two, of strings, nested; objects; a
//! function), each case pinned with the answer jsonata 2.2.2 gives in node.
//!
//! `tests/operators/matrix.json` holds the operands, the operators and the answers, written by
//! `tests/operators/gen.mjs` through the node oracle; this test builds the same expressions,
//! evaluates them with no input and the default limits, and compares values as JSON exactly and
//! errors by code. Every disagreement is reported, with the count of cases that agreed.

use std::path::Path;

use writ_core::Value;
use writ_jsonata::{Expression, Options};

/// The pinned matrix, as `gen.mjs` writes it.
struct Matrix {
    operands: Vec<String>,
    binary: Vec<String>,
    unary: Vec<String>,
    answers: serde_json::Map<String, serde_json::Value>,
}

fn matrix() -> Matrix {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/operators/matrix.json");
    let text = std::fs::read_to_string(&path).expect("tests/operators/matrix.json is readable");
    let json: serde_json::Value = serde_json::from_str(&text).expect("matrix.json is JSON");
    let strings = |key: &str| -> Vec<String> {
        json[key]
            .as_array()
            .unwrap_or_else(|| panic!("matrix.json has a list {key}"))
            .iter()
            .map(|item| item.as_str().expect("a string").to_owned())
            .collect()
    };
    Matrix {
        operands: strings("operands"),
        binary: strings("binary"),
        unary: strings("unary"),
        answers: json["answers"].as_object().expect("matrix.json has answers").clone(),
    }
}

/// writ's answer to `expr` in the matrix's notation: `=<JSON>`, `u` or `!<code>`.
fn answer(expr: &str) -> String {
    let evaluated = Expression::compile(expr).and_then(|e| e.evaluate(&Value::Undefined, &Options::default()));
    match evaluated {
        Ok(Value::Undefined) => "u".to_owned(),
        Ok(value) => format!("={}", value.to_json_string().unwrap_or_default()),
        Err(error) => format!("!{}", error.code()),
    }
}

#[test]
fn every_operator_over_every_kind_of_operand_answers_as_jsonata_does() {
    let matrix = matrix();
    let n = matrix.operands.len();
    let mut cases = Vec::new();
    for op in &matrix.binary {
        let pinned = matrix.answers[op.as_str()].as_array().expect("answers per operator");
        assert_eq!(pinned.len(), n * n, "{op}: one answer per pair of operands");
        for (i, l) in matrix.operands.iter().enumerate() {
            for (j, r) in matrix.operands.iter().enumerate() {
                cases.push((
                    format!("({l}) {op} ({r})"),
                    pinned[i * n + j].as_str().expect("text").to_owned(),
                ));
            }
        }
    }
    for op in &matrix.unary {
        let pinned = matrix.answers[format!("unary{op}").as_str()]
            .as_array()
            .expect("answers per operator");
        assert_eq!(pinned.len(), n, "unary {op}: one answer per operand");
        for (v, expected) in matrix.operands.iter().zip(pinned) {
            cases.push((format!("{op}({v})"), expected.as_str().expect("text").to_owned()));
        }
    }
    assert!(
        cases.len() >= 11_000,
        "the matrix covers every operator and kind: {} cases",
        cases.len()
    );
    let mut failures = Vec::new();
    for (expr, expected) in &cases {
        let got = answer(expr);
        if &got != expected {
            failures.push(format!("{expr}: expected {expected}, got {got}"));
        }
    }
    eprintln!(
        "operator matrix: {} of {} cases agree with jsonata 2.2.2",
        cases.len() - failures.len(),
        cases.len()
    );
    assert!(
        failures.is_empty(),
        "{} disagreements:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
