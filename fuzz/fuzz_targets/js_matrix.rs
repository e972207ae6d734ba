//! Fuzz target: cells of the JavaScript subset's operator matrix
//! (`crates/writ-js/tests/matrix/operators.json`, pinned from node) picked by the fuzzer, each
//! run in one of four forms — the operands written in place, bound to callback parameters,
//! read from variables of an enclosing callback, or compared inside a larger expression — and
//! each must give node's pinned answer.

#![no_main]

#[path = "common/mod.rs"]
mod common;

use std::sync::OnceLock;

use common::Picks;
use libfuzzer_sys::fuzz_target;
use writ_core::{Value, js_number_to_string, parse_json};
use writ_js::Evaluator;

/// The pinned matrix: operands, and per operator its answers.
struct Matrix {
    operands: Vec<String>,
    binary: Vec<(String, Vec<String>)>,
    unary: Vec<(String, Vec<String>)>,
}

fn strings(value: &Value) -> Vec<String> {
    value
        .as_array()
        .expect("a list")
        .iter()
        .map(|item| match item {
            Value::String(text) => text.to_string_lossy().into_owned(),
            other => panic!("expected a string, got {other:?}"),
        })
        .collect()
}

fn operators(value: &Value) -> Vec<(String, Vec<String>)> {
    let object = value.as_object().expect("operators");
    object
        .iter()
        .map(|(op, answers)| (op.to_string_lossy().into_owned(), strings(answers)))
        .collect()
}

fn matrix() -> &'static Matrix {
    static MATRIX: OnceLock<Matrix> = OnceLock::new();
    MATRIX.get_or_init(|| {
        let json = parse_json(include_str!("../../crates/writ-js/tests/matrix/operators.json")).expect("JSON");
        let field = |name: &str| {
            json.as_object()
                .and_then(|o| o.get(&name.into()))
                .expect("a field")
                .clone()
        };
        Matrix {
            operands: strings(&field("operands")),
            binary: operators(&field("binary")),
            unary: operators(&field("unary")),
        }
    })
}

/// An answer as `operators.mjs` writes it.
fn write(answer: writ_js::Result<Value>) -> String {
    match answer {
        Ok(Value::Number(n)) if n == 0.0 && n.is_sign_negative() => "-0".to_owned(),
        Ok(Value::Number(n)) => js_number_to_string(n),
        Ok(Value::Undefined) => "undefined".to_owned(),
        Ok(value) => value.to_json_string().unwrap_or_else(|| "undefined".to_owned()),
        Err(error) => match error.thrown() {
            Some(thrown) => format!("{}!", thrown.name()),
            None => format!("{:?}: {error}", error.reason()),
        },
    }
}

fuzz_target!(|bytes: &[u8]| {
    static EVALUATOR: OnceLock<Evaluator> = OnceLock::new();
    let evaluator = EVALUATOR.get_or_init(Evaluator::new);
    let matrix = matrix();
    let n = matrix.operands.len();
    let mut picks = Picks::new(bytes);
    let form = picks.pick(4);
    let (source, want) = if picks.pick(8) == 0 {
        let (op, answers) = &matrix.unary[picks.pick(matrix.unary.len())];
        let i = picks.pick(n);
        let a = &matrix.operands[i];
        let source = match form {
            0 => format!("{op} ({a})"),
            1 => format!("[{a}].map((x) => {op} x)[0]"),
            2 => format!("[{a}].map((x) => [0].map(() => {op} x)[0])[0]"),
            _ => format!("[[{op} ({a})]].map(([r]) => r)[0]"),
        };
        (source, &answers[i])
    } else {
        let (op, answers) = &matrix.binary[picks.pick(matrix.binary.len())];
        let (i, j) = (picks.pick(n), picks.pick(n));
        let (a, b) = (&matrix.operands[i], &matrix.operands[j]);
        let source = match form {
            0 => format!("({a}) {op} ({b})"),
            1 => format!("[[{a}, {b}]].map(([x, y]) => x {op} y)[0]"),
            2 => format!("[{a}].map((x) => [{b}].map((y) => x {op} y)[0])[0]"),
            _ => format!("[[({a}) {op} ({b})]].map(([r]) => r)[0]"),
        };
        (source, &answers[i * n + j])
    };
    let got = write(evaluator.eval(&source, &[]));
    assert_eq!(&got, want, "{source}: writ {got}, node {want}");
});
