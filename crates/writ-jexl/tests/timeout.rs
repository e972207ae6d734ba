//! The time limit: an evaluation that would run long stops within its timeout plus 50 ms.
//! A test binary of its own, so no other test competes for the cores while it measures.

use std::time::{Duration, Instant};

use writ_core::{Bound, Limits, Object, Value};
use writ_jexl::Jexl;

#[test]
fn a_long_filter_stops_within_the_timeout() {
    let rows: Vec<Value> = (0..400_000)
        .map(|idx| {
            let mut row = Object::new();
            row.insert("name".into(), Value::from(format!("name-{idx}")));
            row.insert(
                "tags".into(),
                Value::from(vec![Value::from("a"), Value::from(idx as f64)]),
            );
            Value::Object(row)
        })
        .collect();
    let mut context = Object::new();
    context.insert("rows".into(), Value::from(rows));
    let context = Value::Object(context);
    let timeout = Duration::from_millis(50);
    let jexl = Jexl::new().with_limits(Limits {
        steps: None,
        time: Some(timeout),
        ..Limits::UNLIMITED
    });
    // Each element converts an array to text and searches it: far more than 50 ms in all.
    let expression = jexl
        .compile("rows[rows[.name + .tags + .name == 'x' || 'q' in .tags + .name + .tags]]")
        .expect("compiles");
    let started = Instant::now();
    let error = expression.evaluate(&context).expect_err("runs out of time");
    let elapsed = started.elapsed();
    assert_eq!(
        error.budget().map(|exceeded| exceeded.bound),
        Some(Bound::Time),
        "{error}"
    );
    assert!(error.message().contains("time limit of 50 ms"), "{error}");
    assert!(
        elapsed < timeout + Duration::from_millis(50),
        "stopped after {elapsed:?}"
    );
}
