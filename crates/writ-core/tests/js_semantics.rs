//! `writ_core::js` answers as node 20 does on every case of `js_semantics.jsonl` (written by
//! `js_semantics.mjs` beside it), and node still gives the pinned answers.

use std::convert::Infallible;

use writ_core::js::{self, LooseEquality, QuoteSink};
use writ_core::{Outcome, Str, Value, js_number_to_string, parse_json};
use writ_testkit::oracle::{Language, run_batch};

/// The pinned file.
const CASES: &str = include_str!("js_semantics.jsonl");

/// One pinned case.
struct Case {
    line: usize,
    op: String,
    data: Value,
    expect: Value,
}

fn cases() -> Vec<Case> {
    CASES
        .lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty())
        .map(|(idx, line)| {
            let case = parse_json(line).unwrap_or_else(|error| panic!("line {}: {error}", idx + 1));
            let field = |name: &str| case.as_object().and_then(|object| object.get_str(name)).cloned();
            Case {
                line: idx + 1,
                op: field("op")
                    .and_then(|op| op.as_str().map(Str::to_string_lossy).map(Into::into))
                    .unwrap_or_default(),
                data: field("data").unwrap_or_default(),
                expect: field("expect").unwrap_or_default(),
            }
        })
        .collect()
}

impl Case {
    /// The input `name` (`undefined` when the case leaves it out).
    fn input(&self, name: &str) -> Value {
        self.data
            .as_object()
            .and_then(|data| data.get_str(name))
            .cloned()
            .unwrap_or_default()
    }

    fn text(&self, name: &str) -> Str {
        self.input(name)
            .as_str()
            .cloned()
            .unwrap_or_else(|| panic!("line {}: {name} is not text", self.line))
    }

    /// The double whose shortest text is the input `name`.
    fn double(&self, name: &str) -> f64 {
        self.text(name)
            .to_string_lossy()
            .parse()
            .unwrap_or_else(|_| panic!("line {}: {name}", self.line))
    }

    fn integer(&self, name: &str) -> i32 {
        self.input(name)
            .as_number()
            .unwrap_or_else(|| panic!("line {}: {name}", self.line)) as i32
    }
}

/// `String(n)`, with `-0` spelled out as the pinning script spells it.
fn number_text(n: f64) -> Value {
    let text = if n == 0.0 && n.is_sign_negative() {
        "-0".to_owned()
    } else {
        js_number_to_string(n)
    };
    Value::from(text.as_str())
}

/// The ordinary `ToPrimitive` of JSON data: arrays join, plain objects are `[object Object]`.
struct Plain;

impl LooseEquality for Plain {
    type Error = Infallible;

    fn read_text(&mut self, _: usize) -> Result<(), Infallible> {
        Ok(())
    }

    fn to_primitive(&mut self, value: &Value) -> Result<Value, Infallible> {
        fn join(value: &Value, out: &mut String) {
            match value {
                Value::Array(items) => {
                    for (idx, item) in items.iter().enumerate() {
                        if idx > 0 {
                            out.push(',');
                        }
                        if !matches!(item, Value::Null | Value::Undefined) {
                            join(item, out);
                        }
                    }
                }
                Value::Object(_) => out.push_str("[object Object]"),
                Value::String(text) => out.push_str(&text.to_string_lossy()),
                Value::Number(n) => out.push_str(&js_number_to_string(*n)),
                Value::Bool(flag) => out.push_str(if *flag { "true" } else { "false" }),
                Value::Null => out.push_str("null"),
                Value::Undefined => out.push_str("undefined"),
            }
        }
        let mut out = String::new();
        join(value, &mut out);
        Ok(Value::from(out.as_str()))
    }
}

/// A quote written as UTF-16 code units, as an engine building a `Str` writes it.
#[derive(Default)]
struct Units(Vec<u16>);

impl QuoteSink for Units {
    fn ascii(&mut self, text: &[u8]) {
        self.0.extend(text.iter().map(|&byte| u16::from(byte)));
    }

    fn char(&mut self, ch: char) {
        let mut buffer = [0u16; 2];
        self.0.extend_from_slice(ch.encode_utf16(&mut buffer));
    }
}

/// What `writ_core::js` answers for `case`.
fn answer(case: &Case) -> Value {
    match case.op.as_str() {
        "space-units" => Value::from(
            (0..=u16::MAX)
                .filter(|&unit| js::is_space(unit))
                .map(|unit| Value::Number(f64::from(unit)))
                .collect::<Vec<_>>(),
        ),
        "string-to-number" => {
            let text = case.text("s");
            let units: Vec<u16> = text.code_units().collect();
            let from_units = js::utf16_to_number(&units);
            let from_str = js::string_to_number(&text);
            assert!(
                from_units.to_bits() == from_str.to_bits() || (from_units.is_nan() && from_str.is_nan()),
                "line {}: utf16_to_number {from_units}, string_to_number {from_str}",
                case.line
            );
            number_text(from_str)
        }
        "parse-int" => number_text(js::parse_int(case.text("s").code_units(), case.integer("radix"))),
        "array-index" => js::array_index(&case.text("k")).map_or(Value::Null, |idx| Value::Number(f64::from(idx))),
        "to-fixed" => Value::from(js::to_fixed(case.double("x"), case.integer("f") as u32).as_str()),
        "to-exponential" => {
            let digits = case.input("f").as_number().map(|f| f as u32);
            Value::from(js::to_exponential(case.double("x"), digits).as_str())
        }
        "to-precision" => Value::from(js::to_precision(case.double("x"), case.integer("p") as u32).as_str()),
        "to-radix" => Value::from(js::to_radix_string(case.double("x"), case.integer("radix") as u32).as_str()),
        "loose-equals" => {
            let (a, b) = (case.input("a"), case.input("b"));
            let Ok(equal) = js::loose_equals(&mut Plain, &a, &b);
            let Ok(swapped) = js::loose_equals(&mut Plain, &b, &a);
            assert_eq!(equal, swapped, "line {}: == is symmetric", case.line);
            Value::Bool(equal)
        }
        "quote" => {
            let text = case.text("s");
            let mut units = Units::default();
            js::quote(&mut units, &text);
            let quoted = Str::from_utf16(&units.0);
            // Through writ-core's own JSON writer too, which quotes into UTF-8.
            let written = Value::String(text).to_json_string().expect("a string is short");
            assert_eq!(quoted.to_string_lossy(), written, "line {}", case.line);
            Value::String(quoted)
        }
        other => panic!("line {}: unknown op {other}", case.line),
    }
}

#[test]
fn js_semantics_match_the_pinned_node_answers() {
    let cases = cases();
    assert!(cases.len() > 2_000, "only {} cases", cases.len());
    let mut failures = Vec::new();
    for case in &cases {
        let got = answer(case);
        if got != case.expect {
            failures.push(format!(
                "line {} ({}): writ {got:?}, node {:?}",
                case.line, case.op, case.expect
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    // Every op is there, so the file cannot silently lose one.
    for op in [
        "space-units",
        "string-to-number",
        "parse-int",
        "array-index",
        "to-fixed",
        "to-exponential",
        "to-precision",
        "to-radix",
        "loose-equals",
        "quote",
    ] {
        assert!(cases.iter().any(|case| case.op == op), "no {op} case");
    }
}

#[test]
fn live_node_still_gives_the_pinned_answers() {
    let cases = cases();
    let mut batch = String::new();
    for line in CASES.lines().filter(|line| !line.trim().is_empty()) {
        let case = parse_json(line).expect("pinned line");
        let object = case.as_object().expect("a case is an object");
        let request = Value::Object(writ_core::Object::from_entries(vec![
            (Str::from("expr"), object.get_str("expr").cloned().unwrap_or_default()),
            (Str::from("data"), object.get_str("data").cloned().unwrap_or_default()),
        ]));
        batch.push_str(&request.to_json_string().expect("short"));
        batch.push('\n');
    }
    let outcomes = run_batch(Language::Js, &batch).unwrap_or_else(|error| panic!("{error}"));
    assert_eq!(outcomes.len(), cases.len());
    for (case, outcome) in cases.iter().zip(outcomes) {
        assert_eq!(outcome, Outcome::Value(case.expect.clone()), "line {}", case.line);
    }
}
