//! The limits hold: timeout, depth, steps and sequence length each stop an evaluation with
//! JSONata's code, each can be lifted, the range cap holds whatever the limits say, and no
//! expression or data — however deep — overflows the stack.

use std::sync::Arc;

use writ_core::{Interrupt, Value, parse_json};
use writ_jsonata::{Error, Expression, FixedHost, Host, JsonataLimits, Options};

/// Evaluates `source` over no input under `limits`.
fn run(source: &str, limits: JsonataLimits) -> Result<Value, Error> {
    let options = Options {
        limits,
        ..Options::default()
    };
    Expression::compile(source)?.evaluate(&Value::Undefined, &options)
}

/// The error code `source` gives under `limits`.
fn code(source: &str, limits: JsonataLimits) -> &'static str {
    match run(source, limits) {
        Ok(value) => panic!("{source} answered {value:?} under {limits:?}"),
        Err(error) => error.code().as_str(),
    }
}

/// Runs `check` on a thread with a 2 MiB stack: the smallest a host is likely to give.
fn on_small_stack(check: impl FnOnce() + Send + 'static) {
    std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(check)
        .expect("a thread")
        .join()
        .expect("no panic");
}

#[test]
fn depth_stops_runaway_recursion_and_no_depth_overflows_the_stack() {
    let recurse = "($f := function($n){ $n = 0 ? 0 : 1 + $f($n - 1) }; $f(100000))";
    let depth_500 = JsonataLimits {
        depth: Some(500),
        ..JsonataLimits::default()
    };
    assert_eq!(code(recurse, depth_500), "D1011");
    on_small_stack(move || {
        // With no depth limit at all, the hard nesting cap answers, on heap-grown stack.
        let no_depth = JsonataLimits {
            depth: None,
            timeout: Some(20_000),
            ..JsonataLimits::default()
        };
        assert_eq!(code(recurse, no_depth), "D1011");
    });
    // Recursion within the limit answers.
    let shallow = "($f := function($n){ $n = 0 ? 0 : 1 + $f($n - 1) }; $f(50))";
    assert_eq!(
        run(shallow, JsonataLimits::default()).expect("answers").as_number(),
        Some(50.0)
    );
}

#[test]
fn steps_stop_work_where_the_clock_cannot() {
    let tail_loop = "($f := function($n){ $f($n + 1) }; $f(0))";
    let steps_only = JsonataLimits {
        steps: Some(100_000),
        ..JsonataLimits::UNBOUNDED
    };
    assert_eq!(code(tail_loop, steps_only), "U1006");
    assert_eq!(code("$count([1..1000000])", steps_only), "U1006");
    let plenty = JsonataLimits {
        steps: Some(100_000),
        ..JsonataLimits::default()
    };
    assert_eq!(
        run("$sum([1..100])", plenty).expect("answers").as_number(),
        Some(5050.0)
    );
}

#[test]
fn sequence_length_is_bounded_and_the_range_cap_always_holds() {
    let short = JsonataLimits {
        sequence: Some(100),
        ..JsonataLimits::default()
    };
    assert_eq!(code("[1..1000]", short), "D2015");
    assert_eq!(code("[1..60, 1..60]", short), "D2015");
    assert_eq!(
        run("$count([1..100])", short).expect("answers").as_number(),
        Some(100.0)
    );
    assert_eq!(code("[1..10000001]", JsonataLimits::UNBOUNDED), "D2014");
    assert_eq!(code("[0..10000000]", JsonataLimits::UNBOUNDED), "D2014");
    let count = run("[1..10000000] ~> $count()", JsonataLimits::UNBOUNDED).expect("answers");
    assert_eq!(count.as_number(), Some(10_000_000.0));
}

#[test]
fn deeply_nested_expressions_are_refused_without_overflowing_the_stack() {
    on_small_stack(|| {
        let depth = 100_000;
        for (open, close) in [("(", ")"), ("[", "]"), ("{'a':", "}"), ("-", ""), ("$f(", ")")] {
            let source = format!("{}1{}", open.repeat(depth), close.repeat(depth));
            let error = Expression::compile(&source).expect_err("too deep to compile");
            assert!(!error.message().is_empty());
        }
        let chain = vec!["1"; depth].join("+");
        let answer = Expression::compile(&chain).and_then(|e| e.evaluate(&Value::Undefined, &Options::default()));
        match answer {
            Ok(value) => assert_eq!(value.as_number(), Some(depth as f64)),
            Err(error) => assert!(!error.message().is_empty()),
        }
    });
}

#[test]
fn values_built_100000_deep_are_read_compared_written_and_dropped_on_a_small_stack() {
    on_small_stack(|| {
        let limits = JsonataLimits {
            timeout: Some(30_000),
            ..JsonataLimits::default()
        };
        let lists = "$reduce([1..100000], function($a, $b){ [[$a]] }, [])";
        let objects = "$reduce([1..100000], function($a, $b){ {'a': $a} }, {})";
        let closures = "$reduce([1..100000], function($a, $b){ {'f': function(){ $a }} }, {})";
        for (source, expected) in [
            (format!("{lists} ~> $count()"), "1"),
            (format!("$length($string({lists}))"), "200002"),
            (format!("($x := {lists}; $x = $x)"), "true"),
            (format!("$count({lists}.*)"), "0"),
            (format!("$count({objects}.**)"), "100001"),
            (format!("($x := {objects}; $x = $x)"), "true"),
            (format!("$length($string({objects}))"), "600002"),
            (format!("$type({closures})"), "\"object\""),
        ] {
            let value = run(&source, limits).unwrap_or_else(|error| panic!("{source}: {error}"));
            assert_eq!(value.to_json_string().as_deref(), Some(expected), "{source}");
        }
        // And as the answer itself, converted and written.
        let nested = run(lists, limits).expect("answers");
        assert_eq!(nested.to_json_string().map(|text| text.len()), Some(200_002));
    });
}

#[test]
fn deep_input_data_is_walked_on_a_small_stack() {
    on_small_stack(|| {
        let mut value = Value::from(1.0);
        for _ in 0..100_000 {
            value = Value::from(vec![value]);
        }
        let options = Options {
            limits: JsonataLimits {
                timeout: Some(30_000),
                ..JsonataLimits::default()
            },
            ..Options::default()
        };
        for (source, expected) in [
            ("$count(**)", "1"),
            ("$ = $", "true"),
            ("$length($string($))", "200001"),
        ] {
            let answer = Expression::compile(source).and_then(|e| e.evaluate(&value, &options));
            let text = answer
                .unwrap_or_else(|error| panic!("{source}: {error}"))
                .to_json_string();
            assert_eq!(text.as_deref(), Some(expected), "{source}");
        }
    });
}

#[test]
fn the_clock_and_random_numbers_come_from_the_host() {
    let expression = Expression::compile("[$now(), $millis(), $random(), $random()]").expect("compiles");
    let host: Arc<dyn Host> = Arc::new(FixedHost::new(1_700_000_000_000.0, 7));
    let options = Options {
        host: host.clone(),
        ..Options::default()
    };
    let first = expression.evaluate(&Value::Undefined, &options).expect("answers");
    let again = Options {
        host: Arc::new(FixedHost::new(1_700_000_000_000.0, 7)),
        ..Options::default()
    };
    let second = expression.evaluate(&Value::Undefined, &again).expect("answers");
    assert_eq!(first, second, "the same host state gives the same answer");
    let items = first.as_array().expect("an array");
    assert_eq!(
        items.get(0).and_then(Value::as_str).map(|s| s.to_string()),
        Some("2023-11-14T22:13:20.000Z".to_string())
    );
    assert_eq!(items.get(1).and_then(Value::as_number), Some(1_700_000_000_000.0));
    let random = items.get(2).and_then(Value::as_number).expect("a number");
    assert!((0.0..1.0).contains(&random));
    assert_ne!(items.get(2), items.get(3), "a random source moves on");
    // The default host is fixed too: evaluation is deterministic unless the host opts out.
    let default = Expression::compile("$now()")
        .expect("compiles")
        .evaluate(&Value::Undefined, &Options::default());
    assert_eq!(
        default.expect("answers").as_str().map(|s| s.to_string()),
        Some("1970-01-01T00:00:00.000Z".to_string())
    );
}

#[test]
fn one_compiled_expression_serves_many_threads_without_copying_its_input() {
    let expression = Arc::new(Expression::compile("$sum(items[price > 50].price)").expect("compiles"));
    let data = Arc::new(parse_json(r#"{"items": [{"price": 60}, {"price": 20}, {"price": 75.5}]}"#).expect("json"));
    let threads: Vec<_> = (0..4)
        .map(|_| {
            let (expression, data) = (expression.clone(), data.clone());
            std::thread::spawn(move || {
                let mut last = None;
                for _ in 0..100 {
                    last = Some(expression.evaluate(&data, &Options::default()).expect("answers"));
                }
                last
            })
        })
        .collect();
    for thread in threads {
        assert_eq!(
            thread.join().expect("no panic").and_then(|v| v.as_number()),
            Some(135.5)
        );
    }
    // The answer shares the input's containers rather than copying them.
    let items = Expression::compile("items")
        .expect("compiles")
        .evaluate(&data, &Options::default())
        .expect("answers");
    let original = data
        .as_object()
        .and_then(|o| o.get_str("items"))
        .and_then(Value::as_array)
        .expect("items");
    assert!(items.as_array().expect("an array").ptr_eq(original));
}

#[test]
fn a_host_interrupt_stops_an_evaluation() {
    let interrupt = Interrupt::new();
    interrupt.raise();
    let options = Options {
        limits: JsonataLimits::UNBOUNDED,
        interrupt: Some(interrupt),
        ..Options::default()
    };
    let expression = Expression::compile("($f := function($n){ $f($n + 1) }; $f(0))").expect("compiles");
    assert_eq!(
        expression
            .evaluate(&Value::Undefined, &options)
            .expect_err("interrupted")
            .code()
            .as_str(),
        "U1003"
    );
}

#[test]
fn walks_over_values_built_by_doubling_are_charged_and_answers_stay_bounded() {
    // Each level holds the one below twice: 2^n leaves in a few kilobytes.
    let doubled = |levels: u32| format!("$reduce([1..{levels}], function($a, $v){{[[$a], [$a]]}}, 1)");
    let no_timeout = JsonataLimits {
        timeout: None,
        steps: Some(1_000_000),
        ..JsonataLimits::default()
    };
    let d = doubled(60);
    // Equality, distinct, text, grouping and ordering between two such values built apart walk
    // them under the step limit.
    for source in [
        format!("{d} = {d}"),
        format!("$distinct([{d}, {d}])"),
        format!("$string({d})"),
        format!("{d} & ''"),
        format!("[{d}, {d}]{{$string($): 1}}"),
        format!("[{d}, {d}]^($string($))"),
    ] {
        assert_eq!(code(&source, no_timeout), "U1006", "{source}");
    }
    // The same value twice is equal without a walk.
    let same = format!("($a := {d}; $a = $a and [$a] = [$a])");
    assert_eq!(run(&same, no_timeout).expect("answers"), Value::Bool(true));
    // Copied into an object and returned, it shares as it did: answering it is refused by the
    // length of its text (U1008, answer-too-large on the engine seam), found without writing it.
    let object = format!("{{'x': {d}}}");
    assert_eq!(code(&object, no_timeout), "U1008");
    assert_eq!(code(&d, no_timeout), "U1008");
    // Twenty-four levels write 100 MB of text: charged in time before the answer is written.
    assert_eq!(code(&doubled(24), JsonataLimits::default()), "D1012");
    let small = run(&doubled(3), JsonataLimits::default()).expect("answers");
    assert_eq!(
        small.to_json_string().as_deref(),
        Some("[[[[1],[1]],[[1],[1]]],[[[1],[1]],[[1],[1]]]]")
    );
}
