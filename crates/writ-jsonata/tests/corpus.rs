//! The JSONata differential corpus: every case in `tests/corpus/*.jsonl` (see its README) is an
//! expression over a realistic document, pinned with the answer jsonata 2.2.2 gives in node.
//!
//! - The library must give every pinned answer: values exactly as JSON (key order included),
//!   errors by code. Failures are gathered and reported together (id, expression, expected,
//!   got), with a count of the cases that passed; a panic fails its case, not the run.
//! - The live oracle must still give every pinned answer, so the files cannot drift from
//!   jsonata 2.2.2 (re-pin with `node tests/corpus/gen.mjs`).
//! - The corpus must be large, its ids unique, and it must call every built-in function of
//!   JSONata 2.2.2 and write every construct of the language at least once.

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};

use writ_core::{Outcome, Str, Value};
use writ_jsonata::{Expression, JsonataLimits, Options};
use writ_testkit::corpus::{Case, mismatch, read_cases};
use writ_testkit::oracle::{Language, run_batch};

/// The fewest cases the corpus may hold.
const MIN_CASES: usize = 500;

/// Every built-in function of jsonata 2.2.2: the names its static frame binds, plus `$now` and
/// `$millis`, which it binds per evaluation. `$now`, `$millis`, `$random` and `$shuffle` are
/// non-deterministic, so the corpus calls them only in ways whose answer is fixed
/// (`$type($now())`, `$sort($shuffle(…))`, `$random() < 1`).
const BUILTINS: &[&str] = &[
    "sum",
    "count",
    "max",
    "min",
    "average",
    "string",
    "substring",
    "substringBefore",
    "substringAfter",
    "lowercase",
    "uppercase",
    "length",
    "trim",
    "pad",
    "match",
    "contains",
    "replace",
    "split",
    "join",
    "formatNumber",
    "formatBase",
    "formatInteger",
    "parseInteger",
    "number",
    "floor",
    "ceil",
    "round",
    "abs",
    "sqrt",
    "power",
    "random",
    "boolean",
    "not",
    "map",
    "zip",
    "filter",
    "single",
    "reduce",
    "sift",
    "keys",
    "lookup",
    "append",
    "exists",
    "spread",
    "merge",
    "reverse",
    "each",
    "error",
    "assert",
    "type",
    "sort",
    "shuffle",
    "distinct",
    "base64encode",
    "base64decode",
    "encodeUrlComponent",
    "encodeUrl",
    "decodeUrlComponent",
    "decodeUrl",
    "eval",
    "toMillis",
    "fromMillis",
    "clone",
    "now",
    "millis",
];

/// Text that some expression must contain, for each construct of the language.
const CONSTRUCTS: &[(&str, &str)] = &[
    ("descendants", "**"),
    ("parent", "%."),
    ("positional binding", "#$"),
    ("context binding", "@$"),
    ("order-by", "^("),
    ("descending order-by", "^(>"),
    ("keep-array", "[]"),
    ("chain", "~>"),
    ("lambda", "function($"),
    ("lambda by λ", "λ("),
    ("partial application", "(?"),
    ("signature", "> {"),
    ("block and binding", ":="),
    ("conditional", " ? "),
    ("elvis", "?:"),
    ("coalescing", "??"),
    ("range", ".."),
    ("transform", "|{"),
    ("transform with delete", "}, ["),
    ("regex", "/i"),
    ("membership", " in "),
    ("concatenation", " & "),
    ("and", " and "),
    ("or", " or "),
    ("not equal", " != "),
    ("wildcard", ".*"),
    ("root", "$$"),
    ("context", "$."),
    ("quoted name", "`"),
    ("group-by", "{"),
    ("array constructor", "["),
    ("modulo", " % "),
    ("division", " / "),
    ("negation", "-"),
];

/// The corpus folder.
fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus")
}

/// Every `*.jsonl` in the corpus folder, sorted.
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

/// A file's name, for reports.
fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// Every case of every file, with its file's name.
fn all_cases() -> Vec<(String, Case)> {
    corpus_files()
        .iter()
        .flat_map(|path| {
            let name = file_name(path);
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

/// A case's `$`-variables, by name without the `$` (none when the case has no "bindings").
fn bindings(case: &Case) -> Vec<(Str, Value)> {
    match case.field("bindings") {
        Value::Undefined => Vec::new(),
        Value::Object(object) => object.iter().map(|(key, value)| (key.clone(), value.clone())).collect(),
        other => panic!("case {}: \"bindings\" must be an object, not {other:?}", case.id),
    }
}

/// The library's answer as an envelope would carry it. A value goes through JSON text, exactly
/// as the oracle's `JSON.stringify` sends node's (so `-0` is `0` and an infinity is `null`).
fn outcome(result: writ_jsonata::Result<Value>) -> Outcome {
    let outcome = match result {
        Ok(value) => Outcome::from(value),
        Err(error) => Outcome::error(error.code, error.message()),
    };
    let envelope = outcome.to_envelope();
    Outcome::parse_envelope(&envelope)
        .unwrap_or_else(|error| panic!("writ wrote an envelope it cannot read ({error}): {envelope}"))
}

/// Compiles and evaluates one case. The timeout is generous, so a loaded machine does not fail a
/// case that takes milliseconds; every other bound is the default.
fn run(case: &Case) -> Outcome {
    let options = Options {
        limits: JsonataLimits {
            timeout: Some(10_000),
            ..JsonataLimits::default()
        },
        bindings: bindings(case),
        ..Options::default()
    };
    match Expression::compile(&expr(case)) {
        Ok(expression) => outcome(expression.evaluate(&case.field("data"), &options)),
        Err(error) => outcome(Err(error)),
    }
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
fn every_case_gives_jsonatas_answer() {
    let cases = all_cases();
    let mut failures = Vec::new();
    for (file, case) in &cases {
        let got = match catch_unwind(AssertUnwindSafe(|| run(case))) {
            Ok(got) => got,
            Err(payload) => {
                let message = payload
                    .downcast_ref::<&str>()
                    .map(|text| (*text).to_owned())
                    .or_else(|| payload.downcast_ref::<String>().cloned())
                    .unwrap_or_default();
                Outcome::error("panic", format!("the library panicked: {message}"))
            }
        };
        if mismatch(case, &got).is_some() {
            failures.push(format!(
                "{file} {}: {}\n    expected {}\n    got      {}",
                case.id,
                expr(case),
                show(&case.expect),
                show(&got)
            ));
        }
    }
    report("writ-jsonata against the pinned answers", cases.len(), &failures);
}

#[test]
fn pinned_answers_are_still_jsonatas() {
    let mut total = 0;
    let mut failures = Vec::new();
    for path in corpus_files() {
        let file = file_name(&path);
        let cases = read_cases(&path);
        let text = std::fs::read_to_string(&path).expect("a readable corpus file");
        let answers =
            run_batch(Language::Jsonata, &text).unwrap_or_else(|error| panic!("the oracle failed on {file}: {error}"));
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
        "jsonata 2.2.2 against the pinned answers (re-pin with tests/corpus/gen.mjs)",
        total,
        &failures,
    );
}

#[test]
fn the_corpus_is_large_and_well_formed() {
    let cases = all_cases();
    assert!(
        cases.len() >= MIN_CASES,
        "the corpus has {} cases; it needs at least {MIN_CASES}",
        cases.len()
    );
    let mut ids = BTreeSet::new();
    for (file, case) in &cases {
        assert!(
            ids.insert(case.id.clone()),
            "{file}: the id {} is used in two corpus files",
            case.id
        );
        assert!(!expr(case).is_empty(), "{file} {}: an empty expression", case.id);
        // Reading the bindings checks their shape.
        bindings(case);
    }
    let files = corpus_files();
    assert!(
        files.iter().any(|path| file_name(path) == "errors.jsonl"),
        "the corpus needs its errors.jsonl"
    );
}

#[test]
fn the_corpus_calls_every_builtin_and_writes_every_construct() {
    let sources: Vec<String> = all_cases().iter().map(|(_, case)| expr(case)).collect();
    let used = |needle: &str| sources.iter().any(|source| source.contains(needle));
    let mut missing: Vec<String> = BUILTINS
        .iter()
        .map(|name| format!("${name}("))
        .filter(|call| !used(call))
        .collect();
    missing.extend(
        CONSTRUCTS
            .iter()
            .filter(|(_, needle)| !used(needle))
            .map(|(what, needle)| format!("{what} ({needle})")),
    );
    assert!(missing.is_empty(), "the corpus never writes: {missing:?}");
}
