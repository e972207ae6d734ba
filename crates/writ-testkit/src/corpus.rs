//! Corpus files: behaviour pinned as data.
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

use std::path::Path;

use writ_core::{Outcome, Value, parse_json};

/// One corpus case.
#[derive(Clone, Debug)]
pub struct Case {
    /// The case's name, unique in its file.
    pub id: String,
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
}

/// Reads every case of a corpus file.
///
/// # Panics
///
/// On a missing file or a malformed case: a corpus is test data, and a broken one must fail the
/// test that reads it.
pub fn read_cases(path: &Path) -> Vec<Case> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|error| panic!("cannot read {}: {error}", path.display()));
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
