//! Values that hold one array or object many times over: a host can give a context whose
//! structure is shared (built by doubling, 2^40 leaves in a few kilobytes), and every walk over
//! it — comparison, membership, conversion to text, transforms, and writing the answer — must
//! stop within the evaluation's limits, with every limit but the clock raised by the host. A
//! property combines such walks over doubled contexts of every depth and kind of leaf (the
//! issue's fuzz target for this class, as a proptest: `cargo fuzz` needs its own build of every
//! dependency).

use std::sync::Arc;
use std::time::{Duration, Instant};

use writ_core::{Engine, FixedHost, Limits, Object, Source, Value};
use writ_jexl::{DEFAULT_LIMITS, Jexl};

/// The clock every case runs under.
const DEADLINE: Duration = Duration::from_millis(200);

/// How far past the deadline a case may run: generous, as in the other refusal suites.
const MARGIN: Duration = Duration::from_millis(1_000);

/// Limits with everything raised but the clock.
fn raised() -> Limits {
    Limits {
        steps: None,
        time: Some(DEADLINE),
        max_string_length: None,
        max_array_length: None,
        max_total_allocation: None,
        ..DEFAULT_LIMITS
    }
}

/// `leaf` doubled `levels` times: `[[leaf, leaf], [leaf, leaf]]` for two.
fn doubled(leaf: Value, levels: u32) -> Value {
    (0..levels).fold(leaf, |inner, _| Value::from(vec![inner.clone(), inner]))
}

/// A context `{a, o, s}`: an array of 2^40 strings, an object holding it twice, a short string.
fn context() -> Value {
    let a = doubled(Value::from("x"), 40);
    let mut o = Object::new();
    o.insert("l".into(), a.clone());
    o.insert("r".into(), a.clone());
    let mut root = Object::new();
    root.insert("a".into(), a);
    root.insert("o".into(), Value::Object(o));
    root.insert("s".into(), Value::from("x"));
    Value::Object(root)
}

/// Runs `source` through the engine seam, as `writ eval` does, and returns its code and time.
fn run(source: &str, limits: &Limits) -> (Result<Value, String>, Duration) {
    let jexl = Jexl::new()
        .with_standard_transforms(&["join", "length", "upper"])
        .expect("transforms");
    let started = Instant::now();
    let answer = jexl
        .run(
            Source::Text(source),
            &context(),
            &Object::new(),
            limits,
            Arc::new(FixedHost::default()),
        )
        .map_err(|diagnostic| diagnostic.code().to_owned());
    (answer, started.elapsed())
}

#[test]
fn every_walk_over_a_doubled_context_stops_within_its_deadline() {
    for source in [
        "a == s",
        "s == a",
        "a != s",
        "a < s",
        "s >= a",
        "a + s",
        "s + a",
        "a - 1",
        "a in s",
        "a|join",
        "a|upper",
        "o.l == 'x'",
        "a[0] + ''",
        "a[0][1] == s",
    ] {
        let (answer, took) = run(source, &raised());
        assert_eq!(answer.err().as_deref(), Some("budget-exceeded"), "{source}");
        assert!(took < DEADLINE + MARGIN, "{source}: {took:?}");
    }
}

#[test]
fn an_answer_holding_a_value_many_times_is_refused_before_it_is_written() {
    for source in ["a", "o", "[a, a]", "{k: o}", "a[1]", "o.l[0]", "s ? a : 0"] {
        let (answer, took) = run(source, &raised());
        assert_eq!(answer.err().as_deref(), Some("answer-too-large"), "{source}");
        assert!(took < DEADLINE + MARGIN, "{source}: {took:?}");
    }
    // Shared but small, it is written out in full.
    let jexl = Jexl::new();
    let small = Value::from(vec![doubled(Value::from(1.0), 3)]);
    let answer = jexl
        .run(
            Source::Text("[x, x]"),
            &Value::Object(Object::from_iter([("x".into(), small)])),
            &Object::new(),
            &raised(),
            Arc::new(FixedHost::default()),
        )
        .expect("answers");
    assert_eq!(
        answer.to_json_string().as_deref(),
        Some("[[[[[1,1],[1,1]],[[1,1],[1,1]]]],[[[[1,1],[1,1]],[[1,1],[1,1]]]]]")
    );
}

/// The expressions the property combines: each walks, compares, converts or returns `a`.
const WALKS: &[&str] = &[
    "a == s",
    "a < s",
    "a >= s",
    "a + s",
    "s + a",
    "a * 2",
    "a|join",
    "a|join(s)",
    "a|upper",
    "a|lower",
    "a|split(s)",
    "s in a",
    "a in s",
    "a",
    "[a, a]",
    "{k: a, l: [a]}",
    "a[0] + a[1]",
    "a[.x == s]",
    "!a",
    "a ? a : s",
];

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(128))]

    /// A context doubled `levels` times over any kind of leaf, under tight limits or with only
    /// the clock: any walk over it answers within its bounds or stops with a budget error,
    /// within the deadline plus the margin.
    #[test]
    fn any_walk_over_a_doubled_context_stays_within_its_bounds(
        levels in 1u32..48,
        leaf in 0usize..4,
        walk in 0usize..WALKS.len(),
        second in 0usize..WALKS.len(),
        tight in proptest::bool::ANY,
    ) {
        let leaf = match leaf {
            0 => Value::from("xy"),
            1 => Value::from(1.5),
            2 => Value::Object(Object::from_iter([("x".into(), Value::from("xy"))])),
            _ => Value::from(Vec::new()),
        };
        let mut root = Object::new();
        root.insert("a".into(), doubled(leaf, levels));
        root.insert("s".into(), Value::from("xy"));
        let limits = if tight {
            Limits {
                steps: Some(100_000),
                time: Some(Duration::from_millis(50)),
                max_string_length: Some(100_000),
                max_array_length: Some(100_000),
                max_total_allocation: Some(1_000_000),
                ..DEFAULT_LIMITS
            }
        } else {
            raised()
        };
        let deadline = limits.time.unwrap_or(DEADLINE);
        let source = format!("({}) + ({})", WALKS[walk], WALKS[second]);
        let jexl = Jexl::new().with_standard_transforms(&["join", "upper", "lower", "split"]).expect("transforms");
        for source in [WALKS[walk], source.as_str()] {
            let started = Instant::now();
            let answer = jexl.run(
                Source::Text(source),
                &Value::Object(root.clone()),
                &Object::new(),
                &limits,
                Arc::new(FixedHost::default()),
            );
            let took = started.elapsed();
            proptest::prop_assert!(took < deadline + MARGIN, "{source} over {levels} levels: {took:?}");
            match answer {
                Ok(value) => {
                    let written = value.to_json_string_within(writ_core::MAX_ANSWER_BYTES);
                    proptest::prop_assert!(written.is_ok(), "{source}: an answer too long to write");
                }
                Err(diagnostic) => proptest::prop_assert!(
                    ["budget-exceeded", "answer-too-large"].contains(&diagnostic.code()),
                    "{source}: {}",
                    diagnostic.code()
                ),
            }
        }
    }
}

#[test]
fn an_answer_is_measured_as_the_writer_writes_numbers_and_strings() {
    // 2^24 numbers of 24 bytes written (about 420 MB of text), or strings of two-byte
    // characters, each with its quotes: counting a number as one byte or a character as one
    // let both through to the writer, past the answer bound.
    for leaf in [Value::from(-1.234_567_890_123_456_7e-300), Value::from("éééééééééé")] {
        let context = Value::Object(Object::from_iter([("x".into(), doubled(leaf, 24))]));
        let answer = Jexl::new()
            .run(
                Source::Text("x"),
                &context,
                &Object::new(),
                &raised(),
                Arc::new(FixedHost::default()),
            )
            .map_err(|diagnostic| diagnostic.code().to_owned());
        assert_eq!(answer.err().as_deref(), Some("answer-too-large"));
    }
}

#[test]
fn a_value_dense_answer_is_charged_for_its_values_as_well_as_its_bytes() {
    // 2^22 small numbers in nested pairs: 8 MB written, but 8 million values, which take far
    // longer to write than 8 MB of one string; charged by bytes alone, it passed a 200 ms
    // deadline and left the writing to the host.
    let context = Value::Object(Object::from_iter([("x".into(), doubled(Value::from(1.0), 22))]));
    let answer = Jexl::new()
        .run(
            Source::Text("x"),
            &context,
            &Object::new(),
            &raised(),
            Arc::new(FixedHost::default()),
        )
        .map_err(|diagnostic| diagnostic.code().to_owned());
    assert_eq!(answer.err().as_deref(), Some("budget-exceeded"));
}
