//! The Jexl differential corpus: every case in `tests/corpus/*.jsonl` (see its README) is an
//! expression over a context, pinned with the answer jexl 2.3.0 gives in node.
//!
//! - The library must give every pinned answer: values exactly as JSON (key order included),
//!   errors by writ's code. Failures are gathered and reported together (id, expression,
//!   expected, got) with a count of the cases that passed; a panic fails its case, not the run.
//!   With `WRIT_JEXL_DIFFS=<file>` set, the same report is also written to that file.
//! - The live oracle must still give every pinned value, and fail exactly where writ expects an
//!   error, except in `limits.jsonl`, whose cases only writ's bounds stop: jexl-js must answer
//!   every one. So the files cannot drift from jexl 2.3.0 (re-pin with `node tests/corpus/gen.mjs`).
//! - The corpus must be large and well formed, and write every operator, call every standard
//!   transform and expect every error code at least once.
//!
//! A case names its context as `"doc"` (a document in `tests/corpus/data/`, shared by many
//! cases) or gives it inline as `"data"`; with neither, the context is an empty object, as in
//! `writ eval`. `"transforms"` registers standard transforms for that case only, and `"limits"`
//! overrides writ's default limits by the names `writ eval --lang jexl` takes.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::time::Duration;

use writ_core::{Limits, Object, Outcome, Value, parse_json};
use writ_jexl::{DEFAULT_LIMITS, Jexl};
use writ_testkit::corpus::{Case, mismatch, read_cases};
use writ_testkit::oracle::{Language, run_batch};

/// The fewest cases the corpus may hold (the issue asks for 300; it has more, and must not shrink).
const MIN_CASES: usize = 1000;

/// writ's standard transforms, each of which the corpus must call.
const TRANSFORMS: &[&str] = &["upper", "lower", "split", "join", "length"];

/// Every error code writ-jexl answers with, each of which some case must expect.
const ERROR_CODES: &[&str] = &[
    "jexl-syntax",
    "jexl-dialect",
    "jexl-unknown-transform",
    "jexl-unknown-function",
    "jexl-transform",
    "jexl-runtime",
    "budget-exceeded",
];

/// Text that some expression must contain, for each operator and construct of Jexl 2.3.
const CONSTRUCTS: &[(&str, &str)] = &[
    ("addition", " + "),
    ("subtraction", " - "),
    ("negative literal", "-7"),
    ("multiplication", " * "),
    ("division", " / "),
    ("floor division", " // "),
    ("modulo", " % "),
    ("power", " ^ "),
    ("equality", " == "),
    ("inequality", " != "),
    ("less than", " < "),
    ("at most", " <= "),
    ("greater than", " > "),
    ("at least", " >= "),
    ("and", " && "),
    ("or", " || "),
    ("membership", " in "),
    ("not", "!"),
    ("grouping", "("),
    ("ternary", " ? "),
    ("ternary shorthand", "?:"),
    ("member", "."),
    ("bracket member", "[\""),
    ("index", "[0]"),
    ("relative filter", "[."),
    ("top-level relative path", "\0."),
    ("transform", "|"),
    ("transform with arguments", "|split("),
    ("function call", "f("),
    ("array literal", "\0["),
    ("object literal", "{"),
    ("double-quoted string", "\""),
    ("single-quoted string", "'"),
    ("boolean literal", "true"),
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

/// The shared documents of `tests/corpus/data`, by name, read once per test.
struct Documents(BTreeMap<String, Value>);

impl Documents {
    /// Reads every `data/*.json`.
    fn read() -> Documents {
        let dir = corpus_dir().join("data");
        let mut documents = BTreeMap::new();
        for entry in std::fs::read_dir(&dir).unwrap_or_else(|error| panic!("cannot read {}: {error}", dir.display())) {
            let path = entry.expect("a directory entry").path();
            if path.extension().is_some_and(|ext| ext == "json") {
                let name = path
                    .file_stem()
                    .map(|stem| stem.to_string_lossy().into_owned())
                    .unwrap_or_default();
                let text = std::fs::read_to_string(&path).expect("a readable document");
                let value = parse_json(&text).unwrap_or_else(|error| panic!("{}: not JSON: {error}", path.display()));
                documents.insert(name, value);
            }
        }
        Documents(documents)
    }

    /// A case's context: its document, its inline data, or an empty object.
    fn context(&self, case: &Case) -> Value {
        match (case.field("doc"), case.field("data")) {
            (Value::Undefined, Value::Undefined) => Value::Object(Object::new()),
            (Value::Undefined, data) => data,
            (Value::String(name), Value::Undefined) => {
                let name = name.to_string_lossy();
                self.0
                    .get(name.as_ref())
                    .cloned()
                    .unwrap_or_else(|| panic!("case {}: no document data/{name}.json", case.id))
            }
            _ => panic!(
                "case {}: give \"doc\" (a document's name) or \"data\", not both",
                case.id
            ),
        }
    }
}

/// A case's expression.
fn expr(case: &Case) -> String {
    match case.field("expr") {
        Value::String(text) => text.to_string_lossy().into_owned(),
        other => panic!("case {}: \"expr\" must be a string, not {other:?}", case.id),
    }
}

/// The standard transforms a case registers.
fn transforms(case: &Case) -> Vec<String> {
    match case.field("transforms") {
        Value::Undefined => Vec::new(),
        Value::Array(names) => names
            .iter()
            .map(|name| match name.as_str() {
                Some(name) => name.to_string_lossy().into_owned(),
                None => panic!("case {}: \"transforms\" must hold names", case.id),
            })
            .collect(),
        other => panic!("case {}: \"transforms\" must be an array, not {other:?}", case.id),
    }
}

/// A case's limits: writ-jexl's defaults, with a generous clock so that a loaded machine does not
/// fail a case that takes milliseconds, overridden by the case's own `"limits"`.
fn limits(case: &Case) -> Limits {
    let mut limits = Limits {
        time: Some(Duration::from_secs(10)),
        ..DEFAULT_LIMITS
    };
    let given = match case.field("limits") {
        Value::Undefined => return limits,
        Value::Object(given) => given,
        other => panic!("case {}: \"limits\" must be an object, not {other:?}", case.id),
    };
    for (name, amount) in given.iter() {
        let amount = match amount {
            Value::Number(n) if *n >= 0.0 && n.fract() == 0.0 => *n as u64,
            other => panic!("case {}: limit {name:?} must be a whole number, not {other:?}", case.id),
        };
        match name.to_string_lossy().as_ref() {
            "steps" => limits.steps = Some(amount),
            "ms" => limits.time = Some(Duration::from_millis(amount)),
            "maxStringLength" => limits.max_string_length = Some(amount),
            "maxArrayLength" => limits.max_array_length = Some(amount),
            "maxDepth" => {
                limits.max_depth = Some(u32::try_from(amount).expect("a depth limit fits in 32 bits"));
            }
            other => panic!("case {}: unknown limit {other:?}", case.id),
        }
    }
    limits
}

/// An answer as its envelope carries it: a value goes through JSON text, exactly as the
/// oracle's `JSON.stringify` sends node's (so `-0` is `0` and NaN is `null`).
fn as_sent(outcome: Outcome) -> Outcome {
    let envelope = outcome.to_envelope();
    Outcome::parse_envelope(&envelope)
        .unwrap_or_else(|error| panic!("writ wrote an envelope it cannot read ({error}): {envelope}"))
}

/// Runs one case through writ-jexl, as `writ eval --lang jexl` would.
fn run(documents: &Documents, case: &Case) -> Outcome {
    let names = transforms(case);
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    let jexl = match Jexl::new().with_limits(limits(case)).with_standard_transforms(&names) {
        Ok(jexl) => jexl,
        Err(error) => return Outcome::error(error.code(), error.message()),
    };
    as_sent(writ_jexl::outcome(&jexl, &expr(case), &documents.context(case)))
}

/// The message of a caught panic.
fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|text| (*text).to_owned())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_default()
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

/// The report of a run: every failure, or the pass count.
fn summary(what: &str, total: usize, failures: &[String]) -> String {
    let mut text = format!(
        "{what}: {} of {total} cases pass, {} fail\n",
        total - failures.len(),
        failures.len()
    );
    for failure in failures {
        let _ = writeln!(text, "{failure}");
    }
    text
}

/// Panics with every failure at once, or prints the pass count.
fn report(what: &str, total: usize, failures: &[String]) {
    let text = summary(what, total, failures);
    if failures.is_empty() {
        println!("{text}");
    } else {
        panic!("{text}");
    }
}

#[test]
fn every_case_gives_jexls_answer() {
    let documents = Documents::read();
    let cases = all_cases();
    let mut failures = Vec::new();
    for (file, case) in &cases {
        let got = catch_unwind(AssertUnwindSafe(|| run(&documents, case))).unwrap_or_else(|payload| {
            Outcome::error("panic", format!("the library panicked: {}", panic_message(&*payload)))
        });
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
    let what = "writ-jexl against the pinned answers";
    if let Some(path) = std::env::var_os("WRIT_JEXL_DIFFS") {
        std::fs::write(&path, summary(what, cases.len(), &failures))
            .unwrap_or_else(|error| panic!("cannot write {}: {error}", Path::new(&path).display()));
    }
    report(what, cases.len(), &failures);
}

/// A case as the oracle reads it: its context inline as `data`.
fn oracle_line(documents: &Documents, case: &Case) -> String {
    let mut entries = vec![
        ("expr".into(), case.field("expr")),
        ("data".into(), documents.context(case)),
    ];
    if let transforms @ Value::Array(_) = case.field("transforms") {
        entries.push(("transforms".into(), transforms));
    }
    Value::Object(Object::from_entries(entries))
        .to_json_string()
        .expect("a case is JSON")
}

/// The file whose cases only writ's bounds stop: jexl-js, which has none, answers every one.
const LIMITS_FILE: &str = "limits.jsonl";

/// How node's answer differs from what the case pins, if it does.
fn oracle_mismatch(file: &str, case: &Case, node: &Outcome) -> Option<String> {
    match (&case.expect, node) {
        (_, Outcome::Error { message, .. }) if file == LIMITS_FILE => Some(format!(
            "only a writ limit may stop a case of {LIMITS_FILE}, but jexl-js fails too: {message}"
        )),
        (Outcome::Error { .. }, _) if file == LIMITS_FILE => None,
        // jexl-js has no codes: any error is the pinned error.
        (Outcome::Error { .. }, Outcome::Error { .. }) => None,
        _ => mismatch(case, node),
    }
}

#[test]
fn pinned_answers_are_still_jexls() {
    let documents = Documents::read();
    let mut total = 0;
    let mut failures = Vec::new();
    for path in corpus_files() {
        let file = file_name(&path);
        let cases = read_cases(&path);
        let mut batch = String::new();
        for case in &cases {
            batch.push_str(&oracle_line(&documents, case));
            batch.push('\n');
        }
        let answers =
            run_batch(Language::Jexl, &batch).unwrap_or_else(|error| panic!("the oracle failed on {file}: {error}"));
        assert_eq!(
            answers.len(),
            cases.len(),
            "{file}: the oracle answered {} of {} cases",
            answers.len(),
            cases.len()
        );
        for (case, node) in cases.iter().zip(&answers) {
            total += 1;
            if let Some(difference) = oracle_mismatch(&file, case, node) {
                failures.push(format!(
                    "{file} {}: {}\n    pinned {}\n    node   {}\n    {difference}",
                    case.id,
                    expr(case),
                    show(&case.expect),
                    show(node)
                ));
            }
        }
    }
    report(
        "jexl 2.3.0 against the pinned answers (re-pin with tests/corpus/gen.mjs)",
        total,
        &failures,
    );
}

#[test]
fn the_corpus_is_large_and_well_formed() {
    let documents = Documents::read();
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
        // Reading each field checks its shape.
        documents.context(case);
        limits(case);
        let refused = matches!(&case.expect, Outcome::Error { code, .. } if code == "jexl-unknown-transform");
        for name in transforms(case) {
            assert!(
                TRANSFORMS.contains(&name.as_str()) || refused,
                "{file} {}: {name:?} is not a standard transform",
                case.id
            );
        }
        if let Outcome::Error { code, .. } = &case.expect {
            assert!(
                ERROR_CODES.contains(&code.as_str()),
                "{file} {}: {code:?} is not an error code of writ-jexl",
                case.id
            );
        }
    }
    let files: Vec<String> = corpus_files().iter().map(|path| file_name(path)).collect();
    for needed in ["errors.jsonl", "limits.jsonl"] {
        assert!(files.iter().any(|file| file == needed), "the corpus needs its {needed}");
    }
}

#[test]
fn the_corpus_writes_every_operator_calls_every_transform_and_expects_every_error() {
    let cases = all_cases();
    // Each expression is prefixed with NUL so that a needle can say "at the start".
    let sources: Vec<String> = cases.iter().map(|(_, case)| format!("\0{}", expr(case))).collect();
    let used = |needle: &str| sources.iter().any(|source| source.contains(needle));
    let mut missing: Vec<String> = CONSTRUCTS
        .iter()
        .filter(|(_, needle)| !used(needle))
        .map(|(what, needle)| format!("{what} ({})", needle.replace('\0', "^")))
        .collect();
    for name in TRANSFORMS {
        let called = cases.iter().any(|(_, case)| {
            expr(case).contains(&format!("|{name}")) && transforms(case).iter().any(|registered| registered == name)
        });
        if !called {
            missing.push(format!("the {name} transform, registered and called"));
        }
    }
    for code in ERROR_CODES {
        let expected = cases
            .iter()
            .any(|(_, case)| matches!(&case.expect, Outcome::Error { code: want, .. } if want == code));
        if !expected {
            missing.push(format!("an expected {code} error"));
        }
    }
    assert!(missing.is_empty(), "the corpus never covers: {missing:?}");
}
