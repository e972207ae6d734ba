//! Properties of issue 13's classes, generated: values built by doubling (each level holds the
//! one below twice, so `n` levels are `n` small containers and 2^n leaves) are returned,
//! compared, sorted, grouped, converted to text, flattened and copied under tight limits, and
//! every evaluation must end inside its deadline (plus a generous margin for a loaded machine)
//! with an answer whose written text stays within the allocation bound; and random cells of
//! the operator matrix, with operands read from the input instead of written in the source,
//! must give node's pinned answer.

use std::time::{Duration, Instant};

use proptest::prelude::*;
use writ_core::{Object, Str, Value, js_number_to_string, parse_json};
use writ_js::{Budget, Evaluator, Reason};

/// The deadline of every doubling evaluation.
const MS: u64 = 20;
/// What an evaluation may take past [`MS`] on a busy machine before it fails.
const MARGIN: Duration = Duration::from_millis(400);
/// The allocation bound of every doubling evaluation.
const ALLOCATION: u64 = 1_000_000;

/// A value of `levels` levels built by doubling, in one of the shapes the language can build.
fn doubled(shape: usize, levels: usize) -> String {
    let step = [
        "[a, a]",
        "({ a, b: a })",
        "[a, 1, a]",
        "[[a], a]",
        "[a, \"é\".repeat(70), a]",
    ][shape];
    format!("Array.from({{ length: {levels} }}).reduce((a) => {step}, 1)")
}

/// What is done with the doubled value `d`.
const USES: &[&str] = &[
    "d",
    "[d, d]",
    "JSON.stringify(d)",
    "JSON.stringify(d, null, 2).length",
    "String(d)",
    "`${d}`",
    "[d].join()",
    "d + 1",
    "d == \"x\"",
    "d < d",
    "[d, d].includes(1)",
    "[d, 1].indexOf(1)",
    "Object.groupBy([d, d], (x) => JSON.stringify(x))",
    "[d, d].toSorted()",
    "[d, [d]].toSorted((x, y) => String(x).length - String(y).length)",
    "[d].flat(Infinity).length",
    "JSON.parse(JSON.stringify(d))",
    "[...[d], ...[d]]",
    "({ ...[d, d] })",
    "Object.entries({ d })",
    "Object.values({ x: d, y: d })",
    "[d].map((x) => [x, x])",
    "[d].concat([d])",
    "[d, d].with(0, d)",
];

fn evaluator(steps: u64) -> Evaluator {
    Evaluator::builder()
        .budget(Budget {
            steps,
            ms: MS,
            max_string_length: 10_000_000,
            max_array_length: 10_000_000,
            max_total_allocation: ALLOCATION,
        })
        .build()
        .expect("an evaluator")
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn doubled_values_stop_inside_their_bounds(
        shape in 0usize..5,
        levels in 1usize..70,
        use_ in 0usize..USES.len(),
        high_steps in any::<bool>(),
    ) {
        let steps = if high_steps { 1_000_000_000_000 } else { 100_000 };
        let source = format!("[{}].map((d) => {})[0]", doubled(shape, levels), USES[use_]);
        let evaluator = evaluator(steps);
        let run = || {
            let started = Instant::now();
            let answer = evaluator.eval(&source, &[]);
            let written = answer.as_ref().ok().map(|value| value.to_json_string_within(64 << 20));
            (answer, written, started.elapsed())
        };
        let (mut answer, mut written, mut elapsed) = run();
        if elapsed >= Duration::from_millis(MS) + MARGIN {
            // Once more before failing, as the refusal corpus does: a scheduler hiccup on a
            // busy machine is slow once, a real overshoot every time.
            (answer, written, elapsed) = run();
        }
        prop_assert!(
            elapsed < Duration::from_millis(MS) + MARGIN,
            "{source} took {elapsed:?} against {MS} ms"
        );
        match (&answer, written) {
            (Ok(_), Some(Ok(text))) => {
                let len = text.map_or(0, |text| text.len()) as u64;
                // UTF-8 bytes of the text: at most three for each character the bound counts.
                prop_assert!(len <= 3 * ALLOCATION + 1000, "{source} answered {len} bytes of text");
            }
            (Ok(_), _) => prop_assert!(false, "{source} answered past 64 MiB of text"),
            (Err(error), _) => prop_assert!(
                matches!(error.reason(), Reason::BudgetExceeded | Reason::ExpressionRuntime),
                "{source}: {error}"
            ),
        }
    }
}

/// The pinned operator matrix: the operands' source texts and, per operator, node's answers.
struct Matrix {
    operands: Vec<String>,
    binary: Vec<(String, Vec<String>)>,
}

fn matrix() -> Matrix {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/matrix/operators.json");
    let text = std::fs::read_to_string(path).expect("the matrix");
    let json: serde_json::Value = serde_json::from_str(&text).expect("JSON");
    let strings = |value: &serde_json::Value| -> Vec<String> {
        value
            .as_array()
            .expect("a list")
            .iter()
            .map(|item| item.as_str().expect("text").to_owned())
            .collect()
    };
    Matrix {
        operands: strings(&json["operands"]),
        binary: json["binary"]
            .as_object()
            .expect("operators")
            .iter()
            .map(|(op, answers)| (op.clone(), strings(answers)))
            .collect(),
    }
}

/// An answer as `tests/matrix/operators.mjs` writes it.
fn write(answer: writ_js::Result<Value>) -> String {
    match answer {
        Ok(Value::Number(n)) if n == 0.0 && n.is_sign_negative() => "-0".to_owned(),
        Ok(Value::Number(n)) => js_number_to_string(n),
        Ok(Value::Undefined) => "undefined".to_owned(),
        Ok(value) => value.to_json_string().unwrap_or_default(),
        Err(error) => error
            .thrown()
            .map_or_else(|| format!("{error}"), |thrown| format!("{}!", thrown.name())),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn matrix_cells_answer_alike_with_operands_from_the_input(op in 0usize..17, a in 0usize..27, b in 0usize..27) {
        let matrix = matrix();
        let (name, answers) = &matrix.binary[op];
        let (left, right) = (&matrix.operands[a], &matrix.operands[b]);
        // Only operands JSON can carry come from the input; the others are written in place.
        let from_json = |text: &str| parse_json(text).ok().filter(|value| !matches!(value, Value::Number(n) if *n == 0.0 && text.starts_with('-')));
        let mut data = Object::new();
        let mut operand = |text: &str, key: &str| match from_json(text) {
            Some(value) => {
                data.insert(Str::from(key), value);
                key.to_owned()
            }
            None => format!("({text})"),
        };
        let x = operand(left, "x");
        let y = operand(right, "y");
        let source = format!("{x} {name} {y}");
        let got = write(Evaluator::new().eval(&source, &[&data]));
        prop_assert_eq!(&got, &answers[a * matrix.operands.len() + b], "{} with x = {}, y = {}", source, left, right);
    }
}
