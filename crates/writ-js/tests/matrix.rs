//! The operator matrix: every binary and unary operator of the language over every pair of
//! operand kinds (numbers with ±0, NaN and ±Infinity; numeric, empty, spaced and non-ASCII
//! strings; booleans; null; undefined; arrays; objects, one with an own `toString` key), each
//! answer pinned from node by `tests/matrix/operators.mjs` into `tests/matrix/operators.json`.
//!
//! Every case runs in two forms that must both give node's answer: with the operands written
//! in place (`(a) < (b)`), and with them bound to callback parameters
//! (`[[a, b]].map(([x, y]) => x < y)[0]`), so that the operator meets literals and values
//! alike. Answers are compared as text written the way the pinning script writes them, which
//! tells -0 from 0, NaN from null, undefined from a missing value, and names the error thrown.

use writ_core::{Value, js_number_to_string};
use writ_js::Evaluator;

/// The pinned matrix.
fn matrix() -> serde_json::Value {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/matrix/operators.json");
    let text = std::fs::read_to_string(path).unwrap_or_else(|error| panic!("cannot read {path}: {error}"));
    serde_json::from_str(&text).unwrap_or_else(|error| panic!("{path} is not JSON: {error}"))
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

fn texts(value: &serde_json::Value) -> Vec<String> {
    value
        .as_array()
        .expect("a list")
        .iter()
        .map(|item| item.as_str().expect("a string").to_owned())
        .collect()
}

#[test]
fn every_operator_answers_as_node_on_every_operand_kind() {
    let matrix = matrix();
    let operands = texts(&matrix["operands"]);
    let evaluator = Evaluator::new();
    let mut cases = 0usize;
    let mut failures = Vec::new();
    let mut check = |forms: [String; 2], want: &str| {
        cases += 1;
        for source in forms {
            let got = write(evaluator.eval(&source, &[]));
            if got != want {
                failures.push(format!("{source}: writ {got}, node {want}"));
            }
        }
    };
    let binary = matrix["binary"].as_object().expect("binary operators");
    for (op, answers) in binary {
        let answers = texts(answers);
        assert_eq!(answers.len(), operands.len() * operands.len(), "answers for {op}");
        for (i, a) in operands.iter().enumerate() {
            for (j, b) in operands.iter().enumerate() {
                let forms = [
                    format!("({a}) {op} ({b})"),
                    format!("[[{a}, {b}]].map(([x, y]) => x {op} y)[0]"),
                ];
                check(forms, &answers[i * operands.len() + j]);
            }
        }
    }
    let unary = matrix["unary"].as_object().expect("unary operators");
    for (op, answers) in unary {
        let answers = texts(answers);
        assert_eq!(answers.len(), operands.len(), "answers for {op}");
        for (a, want) in operands.iter().zip(&answers) {
            check([format!("{op} ({a})"), format!("[{a}].map((x) => {op} x)[0]")], want);
        }
    }
    assert_eq!(
        cases,
        17 * operands.len() * operands.len() + 4 * operands.len(),
        "the whole matrix ran"
    );
    assert!(
        failures.is_empty(),
        "{} of {} answers differ from node:\n{}",
        failures.len(),
        2 * cases,
        failures.join("\n")
    );
}
