//! The differential corpus: every case in `tests/corpus/*.jsonl` (see its README), run through
//! the library, must give the answer node gives for the same expression as plain JavaScript; and
//! the pinned answers must still be node's, so the files cannot drift from the oracle.
//!
//! Failures are gathered and reported together (id, expression, expected, got), with a count of
//! the cases that passed.

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use writ_core::{Object, Outcome, Value};
use writ_js::Evaluator;
use writ_js::tables::{
    ArrayFn, ArrayMethod, DateFn, Global, JsonFn, MathConstant, MathFn, NumberConstant, NumberFn, NumberMethod,
    ObjectFn, StringFn, StringMethod,
};
use writ_testkit::corpus::{Case, mismatch, read_cases};
use writ_testkit::oracle::{Language, run_batch};

/// The corpus folder.
fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus")
}

/// Every `*.jsonl` directly in the corpus folder (not the `refusals/` subfolder), sorted.
fn corpus_files() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(corpus_dir())
        .expect("tests/corpus exists")
        .map(|entry| entry.expect("a directory entry").path())
        .filter(|path| path.is_file() && path.extension().is_some_and(|ext| ext == "jsonl"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no corpus files in {}", corpus_dir().display());
    files
}

/// Every case of every file, with its file's name.
fn all_cases() -> Vec<(String, Case)> {
    corpus_files()
        .iter()
        .flat_map(|path| {
            let name = path
                .file_name()
                .map(|name| name.to_string_lossy().into_owned())
                .unwrap_or_default();
            read_cases(path).into_iter().map(move |case| (name.clone(), case))
        })
        .collect()
}

/// A case's expression.
fn expr(case: &Case) -> String {
    match case.field("expr") {
        Value::String(text) => text.to_string_lossy().into_owned(),
        other => panic!("case {}: \"expr\" must be a string, not {other:?}", case.id),
    }
}

/// A case's data: the names its expression reads (none when the case has no "data").
fn data(case: &Case) -> Object {
    match case.field("data") {
        Value::Undefined => Object::new(),
        Value::Object(object) => object,
        other => panic!("case {}: \"data\" must be an object, not {other:?}", case.id),
    }
}

/// The library's answer as an envelope would carry it: a value goes through JSON text, exactly as
/// the oracle's `JSON.stringify` sends node's (so `NaN` is `null` and `undefined` members vanish).
fn outcome(result: Result<Value, writ_js::Error>) -> Outcome {
    let envelope = writ_js::outcome(result).to_envelope();
    Outcome::parse_envelope(&envelope)
        .unwrap_or_else(|error| panic!("writ wrote an envelope it cannot read ({error}): {envelope}"))
}

/// A short form of an outcome for failure reports.
fn show(outcome: &Outcome) -> String {
    let text = match outcome {
        Outcome::Error { code, message } if message.is_empty() => format!("error {code}"),
        Outcome::Error { code, message } => format!("error {code}: {message}"),
        other => other.to_envelope(),
    };
    if text.chars().count() > 300 {
        format!("{}…", text.chars().take(300).collect::<String>())
    } else {
        text
    }
}

/// Panics with every failure at once, or prints the pass count.
fn report(what: &str, total: usize, failures: &[String]) {
    if failures.is_empty() {
        println!("{what}: {total} of {total} cases pass");
        return;
    }
    let mut text = format!(
        "{what}: {} of {total} cases pass, {} fail:\n",
        total - failures.len(),
        failures.len()
    );
    for failure in failures {
        let _ = writeln!(text, "{failure}");
    }
    panic!("{text}");
}

#[test]
fn every_case_gives_nodes_answer() {
    let evaluator = Evaluator::new();
    let cases = all_cases();
    let mut failures = Vec::new();
    for (file, case) in &cases {
        let source = expr(case);
        let context = data(case);
        let got = outcome(evaluator.eval(&source, &[&context]));
        if mismatch(case, &got).is_some() {
            failures.push(format!(
                "{file} {}: {source}\n    expected {}\n    got      {}",
                case.id,
                show(&case.expect),
                show(&got)
            ));
        }
    }
    report("writ against the pinned answers", cases.len(), &failures);
}

#[test]
fn pinned_answers_are_still_nodes() {
    let mut total = 0;
    let mut failures = Vec::new();
    for path in corpus_files() {
        let file = path
            .file_name()
            .map(|name| name.to_string_lossy().into_owned())
            .unwrap_or_default();
        let cases = read_cases(&path);
        let text = std::fs::read_to_string(&path).expect("a readable corpus file");
        let answers =
            run_batch(Language::Js, &text).unwrap_or_else(|error| panic!("the oracle failed on {file}: {error}"));
        assert_eq!(
            answers.len(),
            cases.len(),
            "{file}: the oracle answered {} of {} cases",
            answers.len(),
            cases.len()
        );
        for (case, node) in cases.iter().zip(&answers) {
            total += 1;
            if mismatch(case, node).is_some() {
                failures.push(format!(
                    "{file} {}: {}\n    pinned {}\n    node   {}",
                    case.id,
                    expr(case),
                    show(&case.expect),
                    show(node)
                ));
            }
        }
    }
    report(
        "node against the pinned answers (re-pin with tests/corpus/pin.mjs)",
        total,
        &failures,
    );
}

#[test]
fn the_corpus_is_large_and_well_formed() {
    let cases = all_cases();
    assert!(
        cases.len() >= 1500,
        "the corpus has {} cases; it needs at least 1500",
        cases.len()
    );
    let mut ids = BTreeSet::new();
    for (file, case) in &cases {
        assert!(
            ids.insert(case.id.clone()),
            "{file}: the id {} is used in two corpus files",
            case.id
        );
        for key in data(case).keys() {
            let key = key.to_string_lossy();
            let mut chars = key.chars();
            let identifier = chars
                .next()
                .is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == '$')
                && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$');
            assert!(
                identifier,
                "{file} {}: the data key {key:?} is not an identifier (the oracle would drop it)",
                case.id
            );
        }
    }
}

/// Every name of the allow-lists appears in the corpus: methods and statics as `.name(`,
/// constants as `.NAME`, globals by name.
#[test]
fn the_corpus_uses_every_name_of_the_language() {
    let sources: Vec<String> = all_cases().iter().map(|(_, case)| expr(case)).collect();
    let used = |needle: &str| sources.iter().any(|source| source.contains(needle));
    let mut missing = Vec::new();
    let mut need = |needle: String| {
        if !used(&needle) {
            missing.push(needle);
        }
    };
    for method in ArrayMethod::ALL {
        need(format!(".{}(", method.name()));
    }
    for method in StringMethod::ALL {
        need(format!(".{}(", method.name()));
    }
    for method in NumberMethod::ALL {
        need(format!(".{}(", method.name()));
    }
    for function in MathFn::ALL {
        need(format!("Math.{}(", function.name()));
    }
    for function in JsonFn::ALL {
        need(format!("JSON.{}(", function.name()));
    }
    for function in ObjectFn::ALL {
        need(format!("Object.{}(", function.name()));
    }
    for function in ArrayFn::ALL {
        need(format!("Array.{}(", function.name()));
    }
    for function in NumberFn::ALL {
        need(format!("Number.{}(", function.name()));
    }
    for function in StringFn::ALL {
        need(format!("String.{}(", function.name()));
    }
    for function in DateFn::ALL {
        need(format!("Date.{}(", function.name()));
    }
    for constant in MathConstant::ALL {
        need(format!("Math.{}", constant.name()));
    }
    for constant in NumberConstant::ALL {
        need(format!("Number.{}", constant.name()));
    }
    for global in Global::ALL {
        if global.is_callable() {
            need(format!("{}(", global.name()));
        } else {
            need(global.name().to_string());
        }
        if global.is_callback() {
            need(format!("({})", global.name()));
        }
    }
    for operator in [
        " + ", " - ", " * ", " / ", " % ", " ** ", " == ", " != ", " === ", " !== ", " < ", " <= ", " > ", " >= ",
        " && ", " || ", " ?? ", " ? ", "!", "typeof ", "?.", "?.[", "...", "`", "${", "=>",
    ] {
        need(operator.to_string());
    }
    assert!(missing.is_empty(), "the corpus never writes: {missing:?}");
}
