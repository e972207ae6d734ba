//! Any JSON at all, as a predicate or as data, gets an answer: never a panic, and a parsed
//! predicate evaluates within its budget.

use proptest::prelude::*;
use writ_cells::structured::{Predicate, Structured};
use writ_core::{Engine, FixedHost, Limits, Meter, Object, Outcome, Source, Str, Value};

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

fn arb_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        (-5i32..5).prop_map(Value::from),
        prop_oneof![
            Just("a"),
            Just("b.c"),
            Just("eq"),
            Just("contains"),
            Just("exists"),
            Just("__proto__"),
            Just("")
        ]
        .prop_map(Value::from),
    ];
    leaf.prop_recursive(6, 48, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::from),
            prop::collection::vec(
                (
                    prop_oneof![
                        Just("path"),
                        Just("op"),
                        Just("value"),
                        Just("all"),
                        Just("any"),
                        Just("not"),
                        Just("a"),
                        Just("b")
                    ],
                    inner
                ),
                0..4
            )
            .prop_map(|entries| {
                Value::Object(
                    entries
                        .into_iter()
                        .map(|(key, value)| (Str::from(key), value))
                        .collect::<Object>(),
                )
            }),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2_000))]

    #[test]
    fn any_json_gets_an_answer(predicate in arb_value(), data in arb_value()) {
        let limits = Limits { steps: Some(500), ..Limits::UNLIMITED };
        match eval(&predicate, &data, &limits) {
            Outcome::Value(Value::Bool(_)) => {}
            Outcome::Error { code, message } => {
                prop_assert!(!message.is_empty());
                prop_assert!(
                    ["invalid-predicate", "forbidden-path-segment", "empty-path-segment", "budget-exceeded"]
                        .contains(&code.as_str()),
                    "unexpected code {}", code
                );
            }
            other => prop_assert!(false, "a predicate answers a boolean, not {:?}", other),
        }
    }

    #[test]
    fn a_budget_that_suffices_at_n_suffices_at_n_plus_one(predicate in arb_value(), data in arb_value(), steps in 0u64..50) {
        let Ok(predicate) = Predicate::parse(&predicate) else { return Ok(()) };
        let run = |steps| predicate.evaluate(&data, &mut Meter::new(&Limits { steps: Some(steps), ..Limits::UNLIMITED }));
        if let Ok(verdict) = run(steps) {
            prop_assert_eq!(run(steps + 1), Ok(verdict));
        }
    }
}
