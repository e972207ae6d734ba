//! jexl 2.3's own semantics, restated as data: the Evaluator tests, the semantic cases of the
//! API tests and the README, and lexer and parser edge cases, each pinned with the answer
//! jexl-js 2.3.0 gives (`tests/semantics/cases.jsonl`; an error is pinned by writ's code).
//!
//! The `evaluator-NN` cases are jexl 2.3.0's 28 Evaluator tests, in their order. The engine
//! here registers the host transforms and functions the cases call: `half` (`v / 2`), `concat`
//! (`v + ": " + a1 + a2 + …` over strings), `double` (`n * 2`),
//! `sum` (of the arguments) and `pair` (`[a, b]`), with the standard `upper`, `split`, `join`
//! and `length`.

use std::path::Path;

use writ_core::{Outcome, Value};
use writ_jexl::{Jexl, outcome};
use writ_testkit::corpus::read_cases;

/// The engine every case runs in.
fn engine() -> Jexl {
    let number = |value: &Value| value.as_number().unwrap_or(f64::NAN);
    Jexl::new()
        .with_standard_transforms(&["upper", "split", "join", "length"])
        .expect("standard names")
        .with_transform("half", move |value, _| Ok(Value::from(number(value) / 2.0)))
        .with_transform("concat", |value, args| {
            let text = |part: &Value| {
                part.as_str()
                    .map(|text| text.to_string_lossy().into_owned())
                    .unwrap_or_default()
            };
            let rest: String = args.iter().map(text).collect();
            Ok(Value::from(format!("{}: {rest}", text(value))))
        })
        .with_function("double", move |args| {
            Ok(Value::from(number(args.first().unwrap_or(&Value::Undefined)) * 2.0))
        })
        .with_function("sum", move |args| Ok(Value::from(args.iter().map(number).sum::<f64>())))
        .with_function("pair", |args| {
            Ok(Value::from(args.iter().take(2).cloned().collect::<Vec<_>>()))
        })
}

#[test]
fn every_case_gives_jexls_answer() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/semantics/cases.jsonl");
    let cases = read_cases(&path);
    assert!(cases.len() >= 100, "the semantics file holds {} cases", cases.len());
    let jexl = engine();
    let mut failures = Vec::new();
    for case in &cases {
        let source = case.field("expr");
        let source = source
            .as_str()
            .map(|text| text.to_string_lossy().into_owned())
            .unwrap_or_default();
        let got = outcome(&jexl, &source, &case.field("data"));
        let matches = match (&case.expect, &got) {
            (Outcome::Error { code: want, .. }, Outcome::Error { code, .. }) => want == code,
            (want, got) => want == got,
        };
        if !matches {
            failures.push(format!(
                "{} `{source}`\n    want {}\n    got  {}",
                case.id,
                case.expect.to_envelope(),
                got.to_envelope()
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases differ:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}
