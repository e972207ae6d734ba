//! The official JSONata 2.2.2 test suite, run as data: every case in `tests/jsonata-suite`
//! (copied from jsonata-js, MIT, see its LICENSE) must pass, or be listed with a reason in
//! `tests/jsonata-suite-exceptions.txt`.
//!
//! The checks follow the suite's own JavaScript runner, in its order: `undefinedResult`, then
//! `result` (deep equality: numbers bit for bit as chai compares them, so `-0` is not `0`; arrays
//! in order; object keys in any order), then `error` (every field the case gives), then `code`
//! (and `token` when given). A compile error passes only a case that expects a `code`.
//!
//! `SUITE_GROUP=a,b cargo test -p writ-jsonata --test suite` runs only those groups.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use writ_core::{Object, Str, Value, parse_json};
use writ_jsonata::{Code, Error, Expression, JsonataLimits, Options};

/// How many cases the suite holds: 1,269 files of one case and 22 files holding arrays of them.
const SUITE_CASES: usize = 1_686;

/// The timeout of a case that sets none: generous, so that a loaded CI machine does not fail a
/// case that finishes in milliseconds, yet a runaway case still ends.
const DEFAULT_TIMEOUT_MS: u64 = 10_000;

/// The longest expected or actual value a failure report prints.
const REPORT_WIDTH: usize = 400;

/// One case, ready to run.
struct Case {
    /// `group/case001`, or `group/file[i]` for a case inside a file holding an array of them.
    name: String,
    /// The group (directory) it belongs to.
    group: String,
    /// The expression text.
    source: String,
    /// The input document (`Value::Undefined` for `"dataset": null`).
    input: Value,
    /// The `$`-variables bound before evaluation.
    bindings: Vec<(Str, Value)>,
    /// The bounds it runs under.
    limits: JsonataLimits,
    /// True when the case sets its own `timelimit` and `depth` (the JS runner's timebox).
    timeboxed: bool,
    /// What it must produce.
    expect: Expect,
}

/// What a case must produce, from the first of the fields the JS runner looks at.
enum Expect {
    /// No result (`undefinedResult`).
    Undefined,
    /// This value (`result`).
    Result(Value),
    /// An error carrying every field of this object (`error`).
    Error(Object),
    /// An error with this code, and this token when given (`code`, `token`).
    Code { code: String, token: Option<String> },
}

/// The outcome of one case.
struct Ran {
    /// The index of the case in the loaded list.
    case: usize,
    /// `None` when it passed, else what it produced, for the report.
    failure: Option<String>,
    /// How long it took (compile and evaluate).
    elapsed: Duration,
}

/// What the runner thread has done so far, kept where the main thread can read it even when the
/// runner panics.
#[derive(Default)]
struct Progress {
    /// The case running now.
    current: Option<usize>,
    /// The cases finished, in order.
    done: Vec<Ran>,
}

/// The directory holding the suite's data.
fn suite_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/jsonata-suite")
}

/// Reads and parses one JSON file with writ's own parser (two cases hold lone surrogates).
fn read_json(path: &Path) -> Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|error| panic!("cannot read {}: {error}", path.display()));
    parse_json(&text).unwrap_or_else(|error| panic!("{} is not JSON: {error}", path.display()))
}

/// The sorted entries of a directory, as (name, path).
fn entries(dir: &Path) -> Vec<(String, PathBuf)> {
    let mut found: Vec<(String, PathBuf)> = std::fs::read_dir(dir)
        .unwrap_or_else(|error| panic!("cannot list {}: {error}", dir.display()))
        .map(|entry| {
            let entry = entry.expect("a directory entry");
            (entry.file_name().to_string_lossy().into_owned(), entry.path())
        })
        .collect();
    found.sort();
    found
}

/// A string field of a case, if present.
fn text_field(case: &Object, key: &str, name: &str) -> Option<String> {
    case.get_str(key).map(|value| match value.as_str() {
        Some(text) => text.to_string_lossy().into_owned(),
        None => panic!("{name}: \"{key}\" is not a string"),
    })
}

/// An expression's text. [`Expression::compile`] takes Rust text, which cannot hold a lone
/// surrogate; the two suite cases whose expressions hold one hold it inside a string literal,
/// where the escape `\uXXXX` stands for the same code unit, so it is written that way.
fn source_text(text: &Str) -> String {
    if let Some(text) = text.to_str() {
        return text.into_owned();
    }
    char::decode_utf16(text.code_units())
        .map(|unit| match unit {
            Ok(c) => c.to_string(),
            Err(lone) => format!("\\u{:04x}", lone.unpaired_surrogate()),
        })
        .collect()
}

/// A non-negative integer field of a case, if present.
fn integer_field(case: &Object, key: &str, name: &str) -> Option<u64> {
    case.get_str(key).map(|value| match value.as_number() {
        Some(number) if number >= 0.0 && number.fract() == 0.0 => number as u64,
        _ => panic!("{name}: \"{key}\" is not a non-negative integer"),
    })
}

/// Builds a runnable case from its JSON.
fn read_case(group: &str, group_dir: &Path, name: String, case: &Value, datasets: &HashMap<String, Value>) -> Case {
    let Some(case) = case.as_object() else {
        panic!("{name} is not a JSON object")
    };
    let expr = case.get_str("expr").map(|expr| match expr.as_str() {
        Some(text) => source_text(text),
        None => panic!("{name}: \"expr\" is not a string"),
    });
    let source = match (expr, text_field(case, "expr-file", &name)) {
        (Some(source), None) => source,
        (None, Some(file)) => std::fs::read_to_string(group_dir.join(&file))
            .unwrap_or_else(|error| panic!("{name}: cannot read its expr-file {file}: {error}")),
        _ => panic!("{name} needs exactly one of \"expr\" and \"expr-file\""),
    };
    let input = match (case.get_str("data"), case.get_str("dataset")) {
        (Some(data), _) => data.clone(),
        (None, Some(Value::Null)) => Value::Undefined,
        (None, Some(Value::String(dataset))) => {
            let dataset = dataset.to_string_lossy();
            datasets
                .get(dataset.as_ref())
                .cloned()
                .unwrap_or_else(|| panic!("{name}: no dataset {dataset}"))
        }
        _ => panic!("{name} needs \"data\" or \"dataset\""),
    };
    let bindings = match case.get_str("bindings") {
        None => Vec::new(),
        Some(Value::Object(bindings)) => bindings
            .iter()
            .map(|(key, value)| (key.clone(), value.clone()))
            .collect(),
        Some(_) => panic!("{name}: \"bindings\" is not an object"),
    };
    let (timelimit, depth) = (
        integer_field(case, "timelimit", &name),
        integer_field(case, "depth", &name),
    );
    // The JS runner boxes a case only when it gives both; every suite case that gives one does.
    let timeboxed = timelimit.is_some() && depth.is_some();
    let limits = match (timelimit, depth) {
        (Some(timelimit), Some(depth)) => JsonataLimits {
            timeout: Some(timelimit),
            depth: Some(u32::try_from(depth).unwrap_or(u32::MAX)),
            ..JsonataLimits::default()
        },
        _ => JsonataLimits {
            timeout: Some(DEFAULT_TIMEOUT_MS),
            ..JsonataLimits::default()
        },
    };
    let expect = if case.get_str("undefinedResult").is_some() {
        Expect::Undefined
    } else if let Some(result) = case.get_str("result") {
        Expect::Result(result.clone())
    } else if let Some(error) = case.get_str("error") {
        match error {
            Value::Object(error) => Expect::Error(error.clone()),
            _ => panic!("{name}: \"error\" is not an object"),
        }
    } else if let Some(code) = text_field(case, "code", &name) {
        Expect::Code {
            code,
            token: text_field(case, "token", &name),
        }
    } else {
        panic!("{name} has nothing to check")
    };
    Case {
        name,
        group: group.to_owned(),
        source,
        input,
        bindings,
        limits,
        timeboxed,
        expect,
    }
}

/// Loads every case of the groups `only` names (all groups when it is `None`), in directory order.
fn load(only: Option<&[String]>) -> Vec<Case> {
    let dir = suite_dir();
    let datasets: HashMap<String, Value> = entries(&dir.join("datasets"))
        .into_iter()
        .filter_map(|(file, path)| Some((file.strip_suffix(".json")?.to_owned(), read_json(&path))))
        .collect();
    let groups: Vec<(String, PathBuf)> = entries(&dir.join("groups"))
        .into_iter()
        .filter(|(_, path)| path.is_dir())
        .collect();
    if let Some(only) = only {
        for wanted in only {
            assert!(
                groups.iter().any(|(group, _)| group == wanted),
                "SUITE_GROUP names {wanted}, which is not a group of the suite"
            );
        }
    }
    let mut cases = Vec::new();
    for (group, group_dir) in &groups {
        if only.is_some_and(|only| !only.contains(group)) {
            continue;
        }
        for (file, path) in entries(group_dir) {
            let Some(stem) = file.strip_suffix(".json") else {
                continue;
            };
            match read_json(&path) {
                Value::Array(many) => {
                    for (idx, case) in many.iter().enumerate() {
                        cases.push(read_case(
                            group,
                            group_dir,
                            format!("{group}/{stem}[{idx}]"),
                            case,
                            &datasets,
                        ));
                    }
                }
                one => cases.push(read_case(group, group_dir, format!("{group}/{stem}"), &one, &datasets)),
            }
        }
    }
    cases
}

/// Deep equality as the JS runner's chai checks it, except that object key order never matters:
/// numbers bit for bit (`-0` differs from `0`; NaN equals NaN), arrays item by item, objects by
/// their key sets.
fn same(got: &Value, want: &Value) -> bool {
    match (got, want) {
        (Value::Undefined, Value::Undefined) | (Value::Null, Value::Null) => true,
        (Value::Bool(a), Value::Bool(b)) => a == b,
        (Value::Number(a), Value::Number(b)) => a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan()),
        (Value::String(a), Value::String(b)) => a == b,
        (Value::Array(a), Value::Array(b)) => a.len() == b.len() && a.iter().zip(b.iter()).all(|(a, b)| same(a, b)),
        (Value::Object(a), Value::Object(b)) => {
            a.len() == b.len() && a.iter().all(|(key, a)| b.get(key).is_some_and(|b| same(a, b)))
        }
        _ => false,
    }
}

/// A value as JSON text for a report (`undefined` for none), cut to [`REPORT_WIDTH`].
fn show(value: &Value) -> String {
    clip(value.to_json_string().unwrap_or_else(|| "undefined".into()))
}

/// `text` cut to [`REPORT_WIDTH`] characters.
fn clip(text: String) -> String {
    match text.char_indices().nth(REPORT_WIDTH) {
        Some((end, _)) => format!("{}…", &text[..end]),
        None => text,
    }
}

/// An error as a report shows it: code, message, and the fields the suite may check.
fn show_error(error: &Error) -> String {
    let mut text = format!("error {}: {}", error.code(), error.message());
    if let Some(token) = error.token() {
        text.push_str(&format!(" [token {token}]"));
    }
    if let Some(value) = error.value() {
        text.push_str(&format!(" [value {value}]"));
    }
    clip(text)
}

/// What a case expects, as a report shows it.
fn show_expect(expect: &Expect) -> String {
    match expect {
        Expect::Undefined => "undefined".into(),
        Expect::Result(value) => show(value),
        Expect::Error(fields) => format!("error {}", show(&Value::Object(fields.clone()))),
        Expect::Code { code, token: None } => format!("error {code}"),
        Expect::Code {
            code,
            token: Some(token),
        } => format!("error {code} [token {token}]"),
    }
}

/// Whether `error` carries the code a case expects.
///
/// A case that pins the JS runner's own timebox expects U1001, the code that runner throws when
/// its depth or time box is crossed; writ's bounds say the same with JSONata's own codes, D1011
/// (depth) and D1012 (time), so those pass such a case too.
fn code_matches(case: &Case, error: &Error, code: &str) -> bool {
    error.code().as_str() == code
        || (case.timeboxed && code == "U1001" && matches!(error.code(), Code::D1011 | Code::D1012))
}

/// Whether `error` carries every field of an `error` expectation.
///
/// writ's [`Error`] keeps a function's name (`functionName` in jsonata-js) in `token`, and its
/// `value` written as JSON (a plain string value is accepted as its text too).
fn error_matches(case: &Case, error: &Error, fields: &Object) -> bool {
    fields.iter().all(|(key, want)| {
        let want_text = want.as_str().map(|text| text.to_string_lossy().into_owned());
        match key.to_string_lossy().as_ref() {
            "code" => want_text.is_some_and(|code| code_matches(case, error, &code)),
            "message" => want_text.is_some_and(|message| error.message() == message),
            "token" | "functionName" => want_text.is_some_and(|token| error.token() == Some(token.as_str())),
            "value" => error.value().is_some_and(|value| {
                want.to_json_string().as_deref() == Some(value) || want_text.as_deref() == Some(value)
            }),
            other => panic!("{}: the harness cannot check error field \"{other}\"", case.name),
        }
    })
}

/// Runs one case: `None` when it passes, else what it produced.
fn run_case(case: &Case) -> Option<String> {
    let expression = match Expression::compile(&case.source) {
        Ok(expression) => expression,
        Err(error) => {
            let passes = match &case.expect {
                Expect::Code { code, token } => {
                    code_matches(case, &error, code)
                        && token.as_ref().is_none_or(|token| error.token() == Some(token.as_str()))
                }
                _ => false,
            };
            return (!passes).then(|| format!("compile {}", show_error(&error)));
        }
    };
    let options = Options {
        limits: case.limits,
        bindings: case.bindings.clone(),
        ..Options::default()
    };
    let outcome = expression.evaluate(&case.input, &options);
    let passes = match (&case.expect, &outcome) {
        (Expect::Undefined, Ok(value)) => value.is_undefined(),
        (Expect::Result(want), Ok(value)) => same(value, want),
        (Expect::Error(fields), Err(error)) => error_matches(case, error, fields),
        (Expect::Code { code, token }, Err(error)) => {
            code_matches(case, error, code) && token.as_ref().is_none_or(|token| error.token() == Some(token.as_str()))
        }
        _ => false,
    };
    (!passes).then(|| match &outcome {
        Ok(value) => show(value),
        Err(error) => show_error(error),
    })
}

/// Reads the listed exceptions: `group/case  reason` per line; blank lines and `#` lines are
/// comments.
fn exceptions() -> Vec<(String, String)> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/jsonata-suite-exceptions.txt");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|error| panic!("cannot read {}: {error}", path.display()));
    text.lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .map(|line| {
            let (name, reason) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
            assert!(
                !reason.trim().is_empty(),
                "{}: {name} is listed without a reason",
                path.display()
            );
            (name.to_owned(), reason.trim().to_owned())
        })
        .collect()
}

/// The groups `SUITE_GROUP` names, or `None` for all.
fn selected_groups() -> Option<Vec<String>> {
    let groups = std::env::var("SUITE_GROUP").ok()?;
    let groups: Vec<String> = groups
        .split(',')
        .map(str::trim)
        .filter(|g| !g.is_empty())
        .map(str::to_owned)
        .collect();
    (!groups.is_empty()).then_some(groups)
}

/// Writes the report to stderr and returns the problems that fail the test.
fn report(cases: &[Case], done: &[Ran], listed: &[(String, String)], filtered: bool) -> Vec<String> {
    let mut problems = Vec::new();
    let mut groups: Vec<(&str, usize, usize)> = Vec::new();
    for ran in done {
        let Some(case) = cases.get(ran.case) else { continue };
        match groups.last_mut() {
            Some((group, passed, total)) if *group == case.group => {
                *total += 1;
                *passed += usize::from(ran.failure.is_none());
            }
            _ => groups.push((&case.group, usize::from(ran.failure.is_none()), 1)),
        }
    }
    let mut failed = 0;
    for ran in done {
        let (Some(case), Some(got)) = (cases.get(ran.case), &ran.failure) else {
            continue;
        };
        failed += 1;
        if let Some((_, reason)) = listed.iter().find(|(name, _)| *name == case.name) {
            eprintln!("LISTED {}  ({reason})", case.name);
            continue;
        }
        eprintln!(
            "FAIL {}\n  expr:     {}",
            case.name,
            clip(case.source.trim().replace('\n', " "))
        );
        eprintln!("  expected: {}\n  got:      {got}", show_expect(&case.expect));
        problems.push(format!("{} fails", case.name));
    }
    for (name, _) in listed {
        match cases.iter().position(|case| case.name == *name) {
            None if !filtered => problems.push(format!("{name} is listed but is no case of the suite")),
            None => {}
            Some(idx) if done.iter().any(|ran| ran.case == idx && ran.failure.is_none()) => {
                problems.push(format!("{name} passes now: remove it from the exceptions list"));
            }
            Some(_) => {}
        }
    }
    eprintln!("jsonata suite, by group (passed/run):");
    for (group, passed, total) in &groups {
        let mark = if passed == total { "" } else { "  <" };
        eprintln!("  {group:<40} {passed:>4}/{total:<4}{mark}");
    }
    let mut slowest: Vec<&Ran> = done.iter().collect();
    slowest.sort_by_key(|ran| std::cmp::Reverse(ran.elapsed));
    eprintln!("slowest cases:");
    for ran in slowest.iter().take(5) {
        if let Some(case) = cases.get(ran.case) {
            eprintln!("  {:>8.1} ms  {}", ran.elapsed.as_secs_f64() * 1e3, case.name);
        }
    }
    eprintln!(
        "jsonata suite: {} of {} run cases pass ({failed} fail, {} listed)",
        done.len() - failed,
        done.len(),
        listed.len()
    );
    problems
}

#[test]
fn the_official_jsonata_suite_passes() {
    let only = selected_groups();
    let cases = load(only.as_deref());
    if only.is_none() {
        assert_eq!(cases.len(), SUITE_CASES, "the suite holds {SUITE_CASES} cases");
    }
    eprintln!("jsonata suite: loaded {} cases", cases.len());
    let listed = exceptions();
    let cases = Arc::new(cases);
    let progress = Arc::new(Mutex::new(Progress::default()));
    // One thread with a large stack runs every case, catching nothing: a panic ends the run and
    // fails the test, after the report of what ran before it.
    let runner = {
        let (cases, progress) = (Arc::clone(&cases), Arc::clone(&progress));
        std::thread::Builder::new()
            .name("jsonata-suite".into())
            .stack_size(16 << 20)
            .spawn(move || {
                for (idx, case) in cases.iter().enumerate() {
                    progress.lock().unwrap_or_else(PoisonError::into_inner).current = Some(idx);
                    let started = Instant::now();
                    let failure = run_case(case);
                    let ran = Ran {
                        case: idx,
                        failure,
                        elapsed: started.elapsed(),
                    };
                    let mut progress = progress.lock().unwrap_or_else(PoisonError::into_inner);
                    progress.done.push(ran);
                    progress.current = None;
                }
            })
            .expect("the runner thread starts")
    };
    let panicked = runner.join().is_err();
    let progress = progress.lock().unwrap_or_else(PoisonError::into_inner);
    let mut problems = report(&cases, &progress.done, &listed, only.is_some());
    if panicked {
        let at = progress.current.and_then(|idx| cases.get(idx));
        let at = at.map_or_else(
            || "between cases".to_owned(),
            |case| format!("{}: {}", case.name, clip(case.source.clone())),
        );
        problems.insert(
            0,
            format!("the run panicked at case {at}, after {} cases", progress.done.len()),
        );
    }
    let shown: Vec<&str> = problems.iter().take(40).map(String::as_str).collect();
    assert!(
        problems.is_empty(),
        "{} problems (the report above has the details; the first {} here):\n{}",
        problems.len(),
        shown.len(),
        shown.join("\n")
    );
}

#[test]
fn equality_ignores_key_order_but_not_the_sign_of_zero() {
    let json = |text: &str| parse_json(text).expect("JSON");
    assert!(same(
        &json(r#"{"a": 1, "b": [1, {"c": null}]}"#),
        &json(r#"{"b": [1, {"c": null}], "a": 1}"#)
    ));
    assert!(!same(&json("[1, 2]"), &json("[2, 1]")));
    assert!(!same(&json(r#"{"a": 1}"#), &json(r#"{"a": 1, "b": 2}"#)));
    assert!(!same(&json("-0"), &json("0")));
    assert!(!same(&json("1"), &json(r#""1""#)));
    assert!(!same(&Value::Undefined, &Value::Null));
}
