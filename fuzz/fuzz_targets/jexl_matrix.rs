//! Fuzz target: cells of Jexl's operator matrix (`crates/writ-jexl/tests/matrix/matrix.json`,
//! pinned from jexl 2.3.0) picked by the fuzzer, each run as written in the matrix or as the
//! chosen branch of a conditional, and each must give jexl-js's pinned answer.

#![no_main]

#[path = "common/mod.rs"]
mod common;

use std::sync::OnceLock;

use common::Picks;
use libfuzzer_sys::fuzz_target;
use writ_core::{Value, js_number_to_string, parse_json};
use writ_jexl::Jexl;

struct Matrix {
    operands: Vec<String>,
    binary: Vec<String>,
    unary: Vec<String>,
    answers: Vec<String>,
    cells: Value,
    context: Value,
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

fn matrix() -> &'static Matrix {
    static MATRIX: OnceLock<Matrix> = OnceLock::new();
    MATRIX.get_or_init(|| {
        let json = parse_json(include_str!("../../crates/writ-jexl/tests/matrix/matrix.json")).expect("JSON");
        let field = |name: &str| {
            json.as_object()
                .and_then(|o| o.get(&name.into()))
                .expect("a field")
                .clone()
        };
        Matrix {
            operands: strings(&field("operands")),
            binary: strings(&field("binary")),
            unary: strings(&field("unary")),
            answers: strings(&field("answers")),
            cells: field("cells"),
            context: field("context"),
        }
    })
}

/// An answer as `gen.mjs` writes it.
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

fuzz_target!(|bytes: &[u8]| {
    static JEXL: OnceLock<Jexl> = OnceLock::new();
    let jexl = JEXL.get_or_init(Jexl::new);
    let matrix = matrix();
    let n = matrix.operands.len();
    let mut picks = Picks::new(bytes);
    let wrapped = picks.pick(2) == 1;
    let (op, index, source) = if picks.pick(8) == 0 {
        let op = &matrix.unary[picks.pick(matrix.unary.len())];
        let i = picks.pick(n);
        (op, i, op.replace('%', &matrix.operands[i]))
    } else {
        let op = &matrix.binary[picks.pick(matrix.binary.len())];
        let (i, j) = (picks.pick(n), picks.pick(n));
        (
            op,
            i * n + j,
            format!("{} {op} {}", matrix.operands[i], matrix.operands[j]),
        )
    };
    let row = matrix
        .cells
        .as_object()
        .and_then(|cells| cells.get(&op.as_str().into()))
        .expect("a row");
    let Some(Value::Number(at)) = row.as_array().and_then(|row| row.get(index)) else {
        panic!("no cell {index} for {op}");
    };
    let want = &matrix.answers[*at as usize];
    let source = if wrapped { format!("1 ? ({source}) : 0") } else { source };
    let got = encode(jexl.eval(&source, &matrix.context));
    assert_eq!(&got, want, "{source}: writ {got}, jexl {want}");
});
