//! Fuzz target: cells of JSONata's operator matrix (`crates/writ-jsonata/tests/operators/
//! matrix.json`, pinned from jsonata 2.2.2) picked by the fuzzer, each run as written in the
//! matrix or with the operands bound to variables first, and each must give jsonata-js's
//! pinned answer.

#![no_main]

#[path = "common/mod.rs"]
mod common;

use std::sync::OnceLock;

use common::Picks;
use libfuzzer_sys::fuzz_target;
use writ_core::{Value, parse_json};
use writ_jsonata::{Expression, Options};

struct Matrix {
    operands: Vec<String>,
    binary: Vec<String>,
    unary: Vec<String>,
    answers: Value,
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
        let json = parse_json(include_str!("../../crates/writ-jsonata/tests/operators/matrix.json")).expect("JSON");
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
            answers: field("answers"),
        }
    })
}

/// An answer as `gen.mjs` writes it.
fn answer(source: &str) -> String {
    let evaluated = Expression::compile(source).and_then(|e| e.evaluate(&Value::Undefined, &Options::default()));
    match evaluated {
        Ok(Value::Undefined) => "u".to_owned(),
        Ok(value) => format!("={}", value.to_json_string().unwrap_or_default()),
        Err(error) => format!("!{}", error.code()),
    }
}

fn pinned(key: &str, index: usize) -> String {
    let row = matrix()
        .answers
        .as_object()
        .and_then(|answers| answers.get(&key.into()))
        .expect("a row");
    match row.as_array().and_then(|row| row.get(index)) {
        Some(Value::String(text)) => text.to_string_lossy().into_owned(),
        other => panic!("no answer {index} for {key}: {other:?}"),
    }
}

fuzz_target!(|bytes: &[u8]| {
    let matrix = matrix();
    let n = matrix.operands.len();
    let mut picks = Picks::new(bytes);
    let bound = picks.pick(2) == 1;
    let (source, want) = if picks.pick(8) == 0 {
        let op = &matrix.unary[picks.pick(matrix.unary.len())];
        let i = picks.pick(n);
        let v = &matrix.operands[i];
        let source = if bound {
            format!("($l := ({v}); {op}($l))")
        } else {
            format!("{op}({v})")
        };
        (source, pinned(&format!("unary{op}"), i))
    } else {
        let op = &matrix.binary[picks.pick(matrix.binary.len())];
        let (i, j) = (picks.pick(n), picks.pick(n));
        let (l, r) = (&matrix.operands[i], &matrix.operands[j]);
        let source = if bound {
            format!("($l := ({l}); $r := ({r}); $l {op} $r)")
        } else {
            format!("({l}) {op} ({r})")
        };
        (source, pinned(op, i * n + j))
    };
    let got = answer(&source);
    assert_eq!(got, want, "{source}: writ {got}, jsonata {want}");
});
