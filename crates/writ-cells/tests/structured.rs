//! The structured predicate corpus: every case in `corpus/structured.jsonl`, run through the
//! library, must give its expected answer.

use writ_cells::structured::{DEFAULT_LIMITS, Predicate, Structured};
use writ_core::{Bound, Engine, FixedHost, Limits, Meter, Object, Outcome, Source, Value, parse_json};
use writ_testkit::corpus::{Case, check, read_cases};

/// One structured evaluation through the engine seam, as `writ eval` runs it.
fn eval(predicate: &Value, data: &Value, limits: &Limits) -> Outcome {
    Outcome::from(Structured.run(
        Source::Json(predicate),
        data,
        &Object::new(),
        limits,
        std::sync::Arc::new(FixedHost::default()),
    ))
}

fn corpus() -> Vec<Case> {
    read_cases(&std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus/structured.jsonl"))
}

#[test]
fn corpus_cases_give_their_expected_answers() {
    let cases = corpus();
    assert!(cases.len() >= 50, "the corpus has {} cases", cases.len());
    for case in &cases {
        check(case, &eval(&case.field("expr"), &case.field("data"), &DEFAULT_LIMITS));
    }
}

#[test]
fn a_parsed_predicate_evaluates_the_same_every_time() {
    for case in corpus() {
        let Ok(predicate) = Predicate::parse(&case.field("expr")) else {
            continue;
        };
        let mut meter = Meter::new(&DEFAULT_LIMITS);
        let first = predicate.evaluate(&case.field("data"), &mut meter);
        let second = predicate.evaluate(&case.field("data"), &mut meter);
        assert_eq!(first, second, "case {}", case.id);
    }
}

#[test]
fn refusals_say_where_and_what_to_write() {
    let refuse = |text: &str| {
        let error = Predicate::parse(&parse_json(text).expect("valid JSON")).expect_err(text);
        (error.pointer().to_string(), error.to_string())
    };
    let (pointer, message) =
        refuse(r#"{"all": [{"path": "a", "op": "exists"}, {"path": "b", "op": "eqq", "value": 1}]}"#);
    assert_eq!(pointer, "/all/1/op");
    assert!(message.contains("unknown op 'eqq' (did you mean 'eq'?)"), "{message}");
    let (pointer, message) = refuse(r#"{"not": {"path": "x.__proto__.y", "op": "truthy"}}"#);
    assert_eq!(pointer, "/not/path");
    assert!(message.contains("'__proto__' at segment 2"), "{message}");
    let (_, message) = refuse(r#"{"path": "a", "op": "truthy", "value": 1}"#);
    assert!(message.contains("remove the 'value' field"), "{message}");
}

#[test]
fn budget_holds_at_n_and_fails_at_n_plus_one() {
    // Two combinator-free leaves under "all": 1 (all) + 2 × (1 leaf + 1 equality) = 5 steps.
    let predicate =
        parse_json(r#"{"all": [{"path": "a", "op": "eq", "value": 1}, {"path": "b", "op": "eq", "value": 2}]}"#)
            .expect("valid JSON");
    let data = parse_json(r#"{"a": 1, "b": 2}"#).expect("valid JSON");
    let with_steps = |steps| {
        eval(
            &predicate,
            &data,
            &Limits {
                steps: Some(steps),
                ..Limits::UNLIMITED
            },
        )
    };
    assert_eq!(with_steps(5), Outcome::Value(Value::Bool(true)));
    match with_steps(4) {
        Outcome::Error { code, message } => {
            assert_eq!(code, "budget-exceeded");
            assert!(message.starts_with("step limit of 4 reached"), "{message}");
        }
        other => panic!("expected a budget error, got {other:?}"),
    }
}

#[test]
fn large_data_is_charged_per_element() {
    let elements: Vec<Value> = (0..100_000).map(|idx| Value::from(idx as f64)).collect();
    let predicate = parse_json(r#"{"path": "xs", "op": "contains", "value": -1}"#).expect("valid JSON");
    let mut data = writ_core::Object::new();
    data.insert("xs".into(), Value::from(elements));
    let data = Value::from(data);
    let parsed = Predicate::parse(&predicate).expect("valid predicate");
    let mut meter = Meter::new(&Limits {
        steps: Some(50_000),
        ..Limits::UNLIMITED
    });
    let error = parsed
        .evaluate(&data, &mut meter)
        .expect_err("100k comparisons exceed 50k steps");
    assert_eq!(error.bound, Bound::Steps);
}
