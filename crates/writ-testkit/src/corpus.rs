//! Corpus files: behaviour pinned as data, and the one runner every differential corpus uses.
//!
//! A corpus is a JSON Lines file. Each line is a `writ eval --batch` request with two more keys:
//!
//! ```text
//! {"id": "eq-number", "expr": …, "data": …, "expect": {"ok": true, "value": true}}
//! {"id": "unknown-op", "expr": …, "expect": {"ok": false, "error": {"code": "invalid-predicate"}}}
//! ```
//!
//! `expect` is a result envelope; an expected error names its code only, because messages are
//! free to improve. Because a line is also a valid batch request (`id` and `expect` are ignored
//! there), the same file runs through the library and through the CLI, and both must agree.
//!
//! # Differential corpora
//!
//! An engine's differential corpus is a folder of such files, one per topic, whose answers were
//! pinned from the reference implementation in node. [`Corpus`] runs one; the engine's test says
//! only what is its own (how to evaluate a case, how to send one to the oracle when the line
//! alone is not enough, what else a well-formed case must hold):
//!
//! ```no_run
//! use std::path::Path;
//!
//! use writ_core::Outcome;
//! use writ_testkit::corpus::{Corpus, Coverage};
//! use writ_testkit::oracle::Language;
//!
//! fn corpus() -> Corpus {
//!     Corpus {
//!         language: Language::Jsonata,
//!         dir: Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus"),
//!         min_cases: 500,
//!         required_files: &["errors.jsonl"],
//!         repin: "node crates/writ-jsonata/tests/corpus/gen.mjs",
//!     }
//! }
//!
//! # fn evaluate(_: &str) -> Outcome { Outcome::Undefined }
//! // Every case gives its pinned answer in writ...
//! corpus().check_writ(|case| evaluate(&case.expr()));
//! // ...and node still gives it too.
//! corpus().check_oracle();
//! // The corpus is as large as it must be, its ids unique, every case well formed.
//! corpus().check_well_formed(|case| assert!(!case.expr().is_empty(), "{}: an empty expression", case.id));
//! // Some expression writes each construct.
//! let cases = corpus().cases();
//! Coverage::new(&cases).writes_as("chain", "~>").assert_complete();
//! ```
//!
//! Each check gathers every failure and panics once with all of them: the case's file, line, id
//! and expression, both answers, and where inside a value they first differ. A passing check
//! prints its count of cases per topic. `check_writ` also writes its report to the file named by
//! `WRIT_<LANG>_DIFFS` (`WRIT_JS_DIFFS`, `WRIT_JSONATA_DIFFS`, `WRIT_JEXL_DIFFS`) when that is set.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};

use writ_core::{Object, Outcome, Str, Value, parse_json};

use crate::oracle::{Language, run_batch};

/// One corpus case.
#[derive(Clone, Debug)]
pub struct Case {
    /// The case's name, unique in its file.
    pub id: String,
    /// The name of the file the case is in (`arrays.jsonl`), for reports.
    pub file: String,
    /// The 1-based line of the case in its file.
    pub line_number: usize,
    /// The line itself: a batch request.
    pub line: String,
    /// The request's fields, parsed.
    pub request: Value,
    /// The expected answer; for an error, the message is empty and only the code is compared.
    pub expect: Outcome,
}

impl Case {
    /// A field of the request, `undefined` when absent.
    pub fn field(&self, name: &str) -> Value {
        self.request
            .as_object()
            .and_then(|object| object.get_str(name))
            .cloned()
            .unwrap_or_default()
    }

    /// The case's source text: its `"expr"`.
    ///
    /// # Panics
    ///
    /// When `"expr"` is missing or not a string: the corpus is broken.
    pub fn expr(&self) -> String {
        match self.field("expr") {
            Value::String(text) => text.to_string_lossy().into_owned(),
            other => panic!("case {}: \"expr\" must be a string, not {other:?}", self.id),
        }
    }
}

/// Reads every case of a corpus file.
///
/// # Panics
///
/// On a missing file or a malformed case: a corpus is test data, and a broken one must fail the
/// test that reads it.
pub fn read_cases(path: &Path) -> Vec<Case> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|error| panic!("cannot read {}: {error}", path.display()));
    parse_cases(&text, path)
}

/// The cases of a corpus file's text; `path` names the file in cases and messages.
fn parse_cases(text: &str, path: &Path) -> Vec<Case> {
    let file = file_name(path);
    let mut cases = Vec::new();
    for (idx, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let at = format!("{}:{}", path.display(), idx + 1);
        let request = parse_json(line).unwrap_or_else(|error| panic!("{at}: not JSON: {error}"));
        let object = request
            .as_object()
            .unwrap_or_else(|| panic!("{at}: a case is an object"));
        let id = object
            .get_str("id")
            .and_then(Value::as_str)
            .map(ToString::to_string)
            .unwrap_or_else(|| panic!("{at}: a case needs a string \"id\""));
        let expect = object
            .get_str("expect")
            .unwrap_or_else(|| panic!("{at}: case {id} needs \"expect\""));
        let expect = match expect.as_object().and_then(|expect| expect.get_str("error")) {
            Some(error) => Outcome::Error {
                code: error
                    .as_object()
                    .and_then(|error| error.get_str("code"))
                    .and_then(Value::as_str)
                    .map(ToString::to_string)
                    .unwrap_or_else(|| panic!("{at}: case {id} expects an error without a code")),
                message: String::new(),
            },
            None => Outcome::parse_envelope(&expect.to_json_string().unwrap_or_default())
                .unwrap_or_else(|error| panic!("{at}: case {id}: {error}")),
        };
        cases.push(Case {
            id,
            file: file.clone(),
            line_number: idx + 1,
            line: line.to_string(),
            request: request.clone(),
            expect,
        });
    }
    let mut ids: Vec<&str> = cases.iter().map(|case| case.id.as_str()).collect();
    ids.sort_unstable();
    if let Some(pair) = ids.windows(2).find(|pair| pair[0] == pair[1]) {
        panic!("{}: the id {} is used twice", path.display(), pair[0]);
    }
    cases
}

/// Compares an answer with a case's expectation: values exactly, errors by code, and an error
/// must carry a message.
///
/// # Panics
///
/// When the answer differs, with the case's id in the message.
pub fn check(case: &Case, outcome: &Outcome) {
    if let Some(difference) = mismatch(case, outcome) {
        panic!("{difference}");
    }
}

/// How `outcome` differs from what `case` expects, if it does: the whole corpus can be run
/// and every difference reported at once.
pub fn mismatch(case: &Case, outcome: &Outcome) -> Option<String> {
    let at = format!("case {} (line {})", case.id, case.line_number);
    match (&case.expect, outcome) {
        (Outcome::Error { code: want, .. }, Outcome::Error { code, message }) => {
            if code != want {
                Some(format!("{at}: expected error {want}, got error {code}: {message}"))
            } else if message.is_empty() {
                Some(format!("{at}: an error must say what is wrong"))
            } else {
                None
            }
        }
        (want, got) if got == want => None,
        (want, got) => Some(format!(
            "{at}: expected {}, got {}",
            want.to_envelope(),
            got.to_envelope()
        )),
    }
}

/// Whether `outcome` differs from what `case` expects (as [`mismatch`] judges), and if so, what
/// a reader needs beyond the two answers side by side: where inside a value they first differ,
/// or that an error lacks its message. The note is empty when the two answers say it all.
pub fn why_differs(case: &Case, outcome: &Outcome) -> Option<String> {
    mismatch(case, outcome)?;
    Some(match (&case.expect, outcome) {
        (Outcome::Error { .. }, Outcome::Error { message, .. }) if message.is_empty() => {
            "an error must say what is wrong".to_string()
        }
        (Outcome::Value(want), Outcome::Value(got)) => first_difference(want, got).unwrap_or_default(),
        _ => String::new(),
    })
}

/// Where two values first differ, in document order, as `at $.orders[2].total: expected 12.5,
/// got 12.49`; `None` when they are equal or differ as a whole at the top (their JSON says it).
///
/// It follows one differing branch down, in a loop, so no value's depth can recurse.
fn first_difference(want: &Value, got: &Value) -> Option<String> {
    let (mut want, mut got) = (want, got);
    let mut path = String::from("$");
    loop {
        if want == got {
            return None;
        }
        match (want, got) {
            (Value::Array(wants), Value::Array(gots)) => {
                let differing = wants
                    .as_slice()
                    .iter()
                    .zip(gots.as_slice())
                    .enumerate()
                    .find(|(_, (a, b))| a != b);
                match differing {
                    Some((idx, (a, b))) => {
                        let _ = write!(path, "[{idx}]");
                        (want, got) = (a, b);
                    }
                    None => {
                        return Some(format!("at {path}: expected {} items, got {}", wants.len(), gots.len()));
                    }
                }
            }
            (Value::Object(wants), Value::Object(gots)) => {
                let missing = wants
                    .keys()
                    .find(|key| gots.get(key).is_none())
                    .map(|key| (key, "is missing"));
                let extra = || {
                    gots.keys()
                        .find(|key| wants.get(key).is_none())
                        .map(|key| (key, "is not expected"))
                };
                if let Some((key, how)) = missing.or_else(extra) {
                    return Some(format!(
                        "at {path}: the key {} {how}",
                        json(&Value::String(key.clone()))
                    ));
                }
                let differing = wants
                    .iter()
                    .find_map(|(key, a)| gots.get(key).filter(|b| *b != a).map(|b| (key, a, b)));
                match differing {
                    Some((key, a, b)) => {
                        push_key(&mut path, key);
                        (want, got) = (a, b);
                    }
                    None => {
                        let order = |object: &Object| {
                            let keys: Vec<String> =
                                object.keys().map(|key| key.to_string_lossy().into_owned()).collect();
                            keys.join(", ")
                        };
                        return Some(format!(
                            "at {path}: the keys are in another order: expected {}; got {}",
                            order(wants),
                            order(gots)
                        ));
                    }
                }
            }
            _ if path == "$" => return None,
            _ => return Some(format!("at {path}: expected {}, got {}", json(want), json(got))),
        }
    }
}

/// Appends a member step to a path: `.name` for an identifier, `["any key"]` otherwise.
fn push_key(path: &mut String, key: &Str) {
    let text = key.to_string_lossy();
    if is_identifier(&text) {
        let _ = write!(path, ".{text}");
    } else {
        let _ = write!(path, "[{}]", json(&Value::String(key.clone())));
    }
}

/// Whether `text` is an ASCII identifier (`total`, `_id`, `$x`): a path writes it after a dot,
/// and the JavaScript oracle can take it as a parameter's name.
pub fn is_identifier(text: &str) -> bool {
    let mut chars = text.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == '$')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$')
}

/// A value as JSON, cut short for a report.
fn json(value: &Value) -> String {
    clip(value.to_json_string().unwrap_or_else(|| "undefined".to_string()))
}

/// Cuts a report's text at 300 characters.
fn clip(text: String) -> String {
    const MAX: usize = 300;
    match text.char_indices().nth(MAX) {
        Some((end, _)) => format!("{}…", &text[..end]),
        None => text,
    }
}

/// A short form of an outcome for failure reports.
fn show(outcome: &Outcome) -> String {
    clip(match outcome {
        Outcome::Error { code, message } if message.is_empty() => format!("error {code}"),
        Outcome::Error { code, message } => format!("error {code}: {message}"),
        other => other.to_envelope(),
    })
}

/// A file's name, for reports.
fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// An answer as its envelope carries it: a value goes through JSON text, exactly as the
/// oracle's `JSON.stringify` sends node's, so `-0` reads as `0`, NaN and the infinities as
/// `null`, and `undefined` members vanish.
///
/// # Panics
///
/// When the envelope cannot be read back: the engine wrote something no host could read.
pub fn as_sent(outcome: &Outcome) -> Outcome {
    let envelope = outcome.to_envelope();
    Outcome::parse_envelope(&envelope)
        .unwrap_or_else(|error| panic!("writ wrote an envelope it cannot read ({error}): {envelope}"))
}

/// The message a panic carried.
fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|text| (*text).to_owned())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_default()
}

/// An engine's differential corpus: every `*.jsonl` directly in one folder (subfolders are
/// other corpora), each a topic whose answers were pinned from the reference implementation.
/// See the [module docs](self) for a whole harness.
#[derive(Clone, Debug)]
pub struct Corpus {
    /// The language, which picks the oracle and names the reports.
    pub language: Language,
    /// The folder of topic files.
    pub dir: PathBuf,
    /// The fewest cases the corpus may hold, so that it cannot shrink unnoticed.
    pub min_cases: usize,
    /// Topic files that must exist, by name (`"errors.jsonl"`).
    pub required_files: &'static [&'static str],
    /// The command that re-pins the corpus, named in the report when node disagrees with a pin.
    pub repin: &'static str,
}

impl Corpus {
    /// Every topic file, sorted by name.
    ///
    /// # Panics
    ///
    /// When the folder cannot be read or holds no topic file.
    pub fn files(&self) -> Vec<PathBuf> {
        let entries = std::fs::read_dir(&self.dir)
            .unwrap_or_else(|error| panic!("cannot read the corpus folder {}: {error}", self.dir.display()));
        let mut files: Vec<PathBuf> = entries
            .map(|entry| {
                entry
                    .unwrap_or_else(|error| panic!("cannot list {}: {error}", self.dir.display()))
                    .path()
            })
            .filter(|path| path.is_file() && path.extension().is_some_and(|ext| ext == "jsonl"))
            .collect();
        files.sort();
        assert!(!files.is_empty(), "no corpus files in {}", self.dir.display());
        files
    }

    /// Every case of every topic file, file by file, in file order.
    ///
    /// # Panics
    ///
    /// As [`Corpus::files`] and [`read_cases`].
    pub fn cases(&self) -> Vec<Case> {
        self.files().iter().flat_map(|path| read_cases(path)).collect()
    }

    /// Runs every case through writ with `evaluate` and requires its pinned answer.
    ///
    /// An answer is compared as its envelope carries it ([`as_sent`]), and a panic fails its
    /// case, not the run.
    ///
    /// # Panics
    ///
    /// When any case gives another answer, listing every one.
    pub fn check_writ(&self, evaluate: impl Fn(&Case) -> Outcome) {
        let cases = self.cases();
        let mut tally = Tally::default();
        for case in &cases {
            let got = catch_unwind(AssertUnwindSafe(|| as_sent(&evaluate(case)))).unwrap_or_else(|payload| {
                Outcome::error("panic", format!("the library panicked: {}", panic_message(&*payload)))
            });
            tally.record(case, &got, why_differs(case, &got), ["expected", "got"]);
        }
        let what = format!("writ-{} against the pinned answers", self.language.name());
        let report = tally.report(&what);
        let variable = format!("WRIT_{}_DIFFS", self.language.name().to_ascii_uppercase());
        if let Some(path) = std::env::var_os(&variable) {
            std::fs::write(&path, &report)
                .unwrap_or_else(|error| panic!("cannot write {variable}={}: {error}", Path::new(&path).display()));
        }
        tally.finish(&report);
    }

    /// Runs every topic file through the live oracle and requires that it still gives every
    /// pinned answer, so the files cannot drift from the reference implementation. Each case
    /// goes to node as its own line.
    ///
    /// # Panics
    ///
    /// When the oracle cannot run, and when any answer differs, listing every one.
    pub fn check_oracle(&self) {
        self.check_oracle_with(|case| case.line.clone(), why_differs);
    }

    /// [`Corpus::check_oracle`], sending each case as `request` writes it (a batch line) and
    /// judging node's answer with `judge`, which says why it differs from the pin (as
    /// [`why_differs`] does, the default) or `None` when it agrees.
    ///
    /// # Panics
    ///
    /// When the oracle cannot run or answers a file with the wrong number of lines, and when
    /// `judge` finds any difference, listing every one.
    pub fn check_oracle_with(
        &self,
        request: impl Fn(&Case) -> String,
        judge: impl Fn(&Case, &Outcome) -> Option<String>,
    ) {
        let mut tally = Tally::default();
        for path in self.files() {
            let file = file_name(&path);
            let cases = read_cases(&path);
            let mut batch = String::new();
            for case in &cases {
                batch.push_str(&request(case));
                batch.push('\n');
            }
            let answers =
                run_batch(self.language, &batch).unwrap_or_else(|error| panic!("the oracle failed on {file}: {error}"));
            assert_eq!(
                answers.len(),
                cases.len(),
                "{file}: the oracle answered {} of {} cases",
                answers.len(),
                cases.len()
            );
            for (case, node) in cases.iter().zip(&answers) {
                tally.record(case, node, judge(case, node), ["pinned", "node"]);
            }
        }
        let what = format!(
            "{} against the pinned answers (re-pin with {})",
            self.language.reference(),
            self.repin
        );
        tally.finish(&tally.report(&what));
    }

    /// Checks the corpus's shape: at least [`Corpus::min_cases`] cases, no topic file empty,
    /// every required file present, every id unique across the files, every `"expr"` a string;
    /// and calls `each` on every case for the checks that are the language's own.
    ///
    /// # Panics
    ///
    /// At the first thing that is wrong, naming it.
    pub fn check_well_formed(&self, mut each: impl FnMut(&Case)) {
        let files: Vec<String> = self.files().iter().map(|path| file_name(path)).collect();
        let cases = self.cases();
        assert!(
            cases.len() >= self.min_cases,
            "the corpus has {} cases; it needs at least {}",
            cases.len(),
            self.min_cases
        );
        for needed in self.required_files {
            assert!(files.iter().any(|file| file == needed), "the corpus needs its {needed}");
        }
        for file in &files {
            assert!(
                cases.iter().any(|case| case.file == *file),
                "{file} holds no case: remove it or re-pin it"
            );
        }
        let mut ids: BTreeMap<&str, &str> = BTreeMap::new();
        for case in &cases {
            if let Some(first) = ids.insert(&case.id, &case.file) {
                panic!(
                    "{}: the id {} is used in two corpus files ({first} too)",
                    case.file, case.id
                );
            }
            case.expr();
            each(case);
        }
    }
}

/// The cases a check ran and the failures it found, by topic file.
#[derive(Default)]
struct Tally {
    /// Per file, in the order first met: the cases run and the cases that failed.
    files: Vec<(String, usize, usize)>,
    /// Each failure, written out for the report.
    failures: Vec<String>,
}

impl Tally {
    /// Counts one case and, when `difference` is given, writes its failure with both answers
    /// under `labels` (the expected one first).
    fn record(&mut self, case: &Case, answer: &Outcome, difference: Option<String>, labels: [&str; 2]) {
        let failed = difference.is_some();
        match self.files.last_mut() {
            Some((file, total, failures)) if *file == case.file => {
                *total += 1;
                *failures += usize::from(failed);
            }
            _ => self.files.push((case.file.clone(), 1, usize::from(failed))),
        }
        let Some(note) = difference else {
            return;
        };
        let [want, got] = labels;
        let width = want.len().max(got.len());
        let mut text = format!("{}:{} {}: {}", case.file, case.line_number, case.id, case.expr());
        let _ = write!(text, "\n    {want:width$} {}", show(&case.expect));
        let _ = write!(text, "\n    {got:width$} {}", show(answer));
        if !note.is_empty() {
            let _ = write!(text, "\n    {note}");
        }
        self.failures.push(text);
    }

    /// The report: the count of cases that pass, the count per topic, and every failure.
    fn report(&self, what: &str) -> String {
        let total: usize = self.files.iter().map(|(_, total, _)| total).sum();
        let failed = self.failures.len();
        let mut text = format!("{what}: {} of {total} cases pass, {failed} fail\n", total - failed);
        let topics: Vec<String> = self
            .files
            .iter()
            .map(|(file, total, failures)| {
                let topic = file.strip_suffix(".jsonl").unwrap_or(file);
                match failures {
                    0 => format!("{topic} {total}"),
                    failures => format!("{topic} {total} ({failures} fail)"),
                }
            })
            .collect();
        let _ = writeln!(text, "by topic: {}", topics.join(", "));
        for failure in &self.failures {
            let _ = writeln!(text, "{failure}");
        }
        text
    }

    /// Panics with the report when anything failed, or prints it.
    fn finish(&self, report: &str) {
        if self.failures.is_empty() {
            println!("{report}");
        } else {
            panic!("{report}");
        }
    }
}

/// What a corpus must exercise at least once: text some expression writes, or a property some
/// case has. Every gap is collected, and [`Coverage::assert_complete`] names them all.
///
/// Each expression is seen with a NUL character before it, so a needle that starts with `\0`
/// matches only at the start of an expression (reports show the NUL as `^`).
pub struct Coverage<'a> {
    /// The cases searched.
    cases: &'a [Case],
    /// Each case's expression with the NUL before it.
    sources: Vec<String>,
    /// What no case covers, as reports name it.
    missing: Vec<String>,
}

impl<'a> Coverage<'a> {
    /// Coverage over `cases`, nothing missing yet.
    ///
    /// # Panics
    ///
    /// When a case's `"expr"` is not a string.
    pub fn new(cases: &'a [Case]) -> Coverage<'a> {
        let sources = cases.iter().map(|case| format!("\0{}", case.expr())).collect();
        Coverage {
            cases,
            sources,
            missing: Vec::new(),
        }
    }

    /// Whether some expression contains `needle`.
    fn written(&self, needle: &str) -> bool {
        self.sources.iter().any(|source| source.contains(needle))
    }

    /// Some expression must contain `needle`; a gap is named by the needle.
    pub fn writes(&mut self, needle: &str) -> &mut Coverage<'a> {
        if !self.written(needle) {
            self.missing.push(needle.replace('\0', "^"));
        }
        self
    }

    /// Some expression must contain `needle`, which writes the construct `what`; a gap is named
    /// `what (needle)`.
    pub fn writes_as(&mut self, what: &str, needle: &str) -> &mut Coverage<'a> {
        if !self.written(needle) {
            self.missing.push(format!("{what} ({})", needle.replace('\0', "^")));
        }
        self
    }

    /// Some case must satisfy `covers`; a gap is named `what`.
    pub fn needs(&mut self, what: impl Into<String>, covers: impl Fn(&Case) -> bool) -> &mut Coverage<'a> {
        if !self.cases.iter().any(covers) {
            self.missing.push(what.into());
        }
        self
    }

    /// What no case covers so far.
    pub fn missing(&self) -> &[String] {
        &self.missing
    }

    /// Requires that every construct and property asked for is covered.
    ///
    /// # Panics
    ///
    /// When anything is missing, naming every gap.
    pub fn assert_complete(&self) {
        assert!(self.missing.is_empty(), "the corpus never covers: {:?}", self.missing);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A case read from one line of a file named `topic.jsonl`.
    fn case(line: &str) -> Case {
        parse_cases(line, Path::new("corpus/topic.jsonl")).remove(0)
    }

    /// A value from JSON text.
    fn value(json: &str) -> Outcome {
        Outcome::Value(parse_json(json).expect("JSON"))
    }

    #[test]
    fn a_case_knows_its_file_line_and_expression() {
        let case = case(r#"{"id": "a-1", "expr": "1 + 1", "expect": {"ok": true, "value": 2}}"#);
        assert_eq!(
            (case.file.as_str(), case.line_number, case.expr().as_str()),
            ("topic.jsonl", 1, "1 + 1")
        );
    }

    #[test]
    fn a_difference_deep_in_a_value_is_located() {
        let nested = case(r#"{"id": "a-1", "expr": "x", "expect": {"ok": true, "value": {"a": [1, {"b c": 2}]}}}"#);
        let differs = |got: &str| why_differs(&nested, &value(got));
        assert_eq!(differs(r#"{"a": [1, {"b c": 2}]}"#), None);
        assert_eq!(
            differs(r#"{"a": [1, {"b c": 3}]}"#).as_deref(),
            Some(r#"at $.a[1]["b c"]: expected 2, got 3"#)
        );
        assert_eq!(
            differs(r#"{"a": [1]}"#).as_deref(),
            Some("at $.a: expected 2 items, got 1")
        );
        assert_eq!(
            differs(r#"{"a": [1, {}]}"#).as_deref(),
            Some(r#"at $.a[1]: the key "b c" is missing"#)
        );
        assert_eq!(
            differs(r#"{"a": [1, {"b c": 2}], "z": 0}"#).as_deref(),
            Some(r#"at $: the key "z" is not expected"#)
        );
        // At the top, the two answers themselves say how they differ.
        assert_eq!(differs("7").as_deref(), Some(""));
        let listed = case(r#"{"id": "a-2", "expr": "x", "expect": {"ok": true, "value": [{"id": 3, "s": "biling"}]}}"#);
        assert_eq!(
            why_differs(&listed, &value(r#"[{"id": 3, "s": "billing"}]"#)).as_deref(),
            Some(r#"at $[0].s: expected "biling", got "billing""#)
        );
    }

    #[test]
    fn key_order_is_a_difference() {
        let case = case(r#"{"id": "a-1", "expr": "x", "expect": {"ok": true, "value": {"a": 1, "b": 2}}}"#);
        assert_eq!(
            why_differs(&case, &value(r#"{"b": 2, "a": 1}"#)).as_deref(),
            Some("at $: the keys are in another order: expected a, b; got b, a")
        );
    }

    #[test]
    fn errors_compare_by_code_and_need_a_message() {
        let case = case(r#"{"id": "e-1", "expr": "x", "expect": {"ok": false, "error": {"code": "T2001"}}}"#);
        assert_eq!(
            why_differs(&case, &Outcome::error("T2001", "left side is a string")),
            None
        );
        assert_eq!(
            why_differs(&case, &Outcome::error("T2002", "other")).as_deref(),
            Some("")
        );
        assert_eq!(
            why_differs(&case, &Outcome::error("T2001", "")).as_deref(),
            Some("an error must say what is wrong")
        );
    }

    #[test]
    fn the_report_counts_by_topic_and_lists_each_failure() {
        let mut tally = Tally::default();
        let case = case(r#"{"id": "a-1", "expr": "1 + 1", "expect": {"ok": true, "value": 2}}"#);
        tally.record(&case, &value("2"), None, ["expected", "got"]);
        tally.record(&case, &value("3"), Some(String::new()), ["expected", "got"]);
        assert_eq!(
            tally.report("writ-js against the pinned answers"),
            concat!(
                "writ-js against the pinned answers: 1 of 2 cases pass, 1 fail\n",
                "by topic: topic 2 (1 fail)\n",
                "topic.jsonl:1 a-1: 1 + 1\n",
                "    expected {\"ok\":true,\"value\":2}\n",
                "    got      {\"ok\":true,\"value\":3}\n",
            )
        );
    }

    /// A corpus in a folder of its own under the temporary folder, holding `files`.
    fn folder(name: &str, files: &[(&str, String)]) -> (Corpus, PathBuf) {
        let dir = std::env::temp_dir().join(format!("writ-testkit-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("a temporary folder");
        for (file, text) in files {
            std::fs::write(dir.join(file), text).expect("a temporary file");
        }
        let corpus = Corpus {
            language: Language::Jexl,
            dir: dir.clone(),
            min_cases: 1,
            required_files: &[],
            repin: "gen.mjs",
        };
        (corpus, dir)
    }

    /// A case line answering 1.
    fn line(id: &str) -> String {
        format!(r#"{{"id": "{id}", "expr": "1", "expect": {{"ok": true, "value": 1}}}}"#)
    }

    /// The message of the panic `check` raises, if it raises one.
    fn panics(check: impl FnOnce()) -> Option<String> {
        catch_unwind(AssertUnwindSafe(check))
            .err()
            .map(|payload| panic_message(&*payload))
    }

    #[test]
    fn a_corpus_too_small_or_with_an_id_twice_is_refused() {
        let (corpus, dir) = folder("shape", &[("a.jsonl", line("x-1")), ("b.jsonl", line("x-1"))]);
        let well_formed = |corpus: Corpus| panics(|| corpus.check_well_formed(|_| {}));
        assert_eq!(
            well_formed(corpus.clone()).as_deref(),
            Some("b.jsonl: the id x-1 is used in two corpus files (a.jsonl too)")
        );
        assert_eq!(
            well_formed(Corpus {
                min_cases: 3,
                ..corpus.clone()
            })
            .as_deref(),
            Some("the corpus has 2 cases; it needs at least 3")
        );
        assert_eq!(
            well_formed(Corpus {
                required_files: &["errors.jsonl"],
                ..corpus
            })
            .as_deref(),
            Some("the corpus needs its errors.jsonl")
        );
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn a_wrong_answer_or_a_panic_fails_the_check() {
        let (corpus, dir) = folder("answers", &[("a.jsonl", format!("{}\n{}", line("a-1"), line("a-2")))]);
        assert_eq!(panics(|| corpus.check_writ(|_| Outcome::Value(Value::from(1.0)))), None);
        let wrong = panics(|| corpus.check_writ(|case| Outcome::Value(Value::from(case.line_number as f64))));
        assert!(
            wrong.is_some_and(|report| report.contains("1 of 2 cases pass") && report.contains("a.jsonl:2 a-2: 1"))
        );
        let panicked = panics(|| corpus.check_writ(|_| panic!("boom")));
        assert!(panicked.is_some_and(
            |report| report.contains("0 of 2 cases pass") && report.contains("the library panicked: boom")
        ));
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn coverage_names_every_gap() {
        let cases = [case(
            r#"{"id": "a-1", "expr": "[1] ~> $sum", "expect": {"ok": true, "value": 1}}"#,
        )];
        let mut coverage = Coverage::new(&cases);
        coverage
            .writes("~>")
            .writes_as("array at the start", "\0[")
            .writes_as("range", "..")
            .writes("\0$")
            .needs("a value of 1", |case| case.expect == Outcome::Value(Value::from(1.0)))
            .needs("an error", |case| !case.expect.is_ok());
        assert_eq!(coverage.missing(), ["range (..)", "^$", "an error"]);
    }
}
