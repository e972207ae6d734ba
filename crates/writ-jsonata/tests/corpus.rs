//! The JSONata differential corpus: every case in `tests/corpus/*.jsonl` (see its README) is an
//! expression over a realistic document, pinned with the answer jsonata 2.2.2 gives in node.
//!
//! - The library must give every pinned answer: values exactly as JSON (key order included),
//!   errors by code. Failures are gathered and reported together (file, line, id, expression,
//!   expected, got, where a value first differs), with a count of the cases that passed, by
//!   topic; a panic fails its case, not the run.
//! - The live oracle must still give every pinned answer, so the files cannot drift from
//!   jsonata 2.2.2 (re-pin with `node tests/corpus/gen.mjs`).
//! - The corpus must be large, its ids unique, and it must call every built-in function of
//!   JSONata 2.2.2 and write every construct of the language at least once.
//!
//! `writ_testkit::corpus::Corpus` runs the checks; this file says how a case runs in
//! writ-jsonata and what the corpus must hold.

use std::path::Path;

use writ_core::{Outcome, Str, Value};
use writ_jsonata::{Expression, JsonataLimits, Options};
use writ_testkit::corpus::{Case, Corpus, Coverage};
use writ_testkit::oracle::Language;

/// The fewest cases the corpus may hold.
const MIN_CASES: usize = 500;

/// Every built-in function of jsonata 2.2.2: the names its static frame binds, plus `$now` and
/// `$millis`, which it binds per evaluation. `$now`, `$millis`, `$random` and `$shuffle` are
/// non-deterministic, so the corpus calls them only in ways whose answer is fixed
/// (`$type($now())`, `$sort($shuffle(…))`, `$random() < 1`).
const BUILTINS: &str = "\
    sum count max min average string substring substringBefore substringAfter lowercase uppercase \
    length trim pad match contains replace split join formatNumber formatBase formatInteger \
    parseInteger number floor ceil round abs sqrt power random boolean not map zip filter single \
    reduce sift keys lookup append exists spread merge reverse each error assert type sort shuffle \
    distinct base64encode base64decode encodeUrlComponent encodeUrl decodeUrlComponent decodeUrl \
    eval toMillis fromMillis clone now millis";

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

/// The corpus: every `*.jsonl` in `tests/corpus`.
fn corpus() -> Corpus {
    Corpus {
        language: Language::Jsonata,
        dir: Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus"),
        min_cases: MIN_CASES,
        required_files: &["errors.jsonl"],
        repin: "node crates/writ-jsonata/tests/corpus/gen.mjs",
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

/// The library's answer as an outcome.
fn outcome(result: writ_jsonata::Result<Value>) -> Outcome {
    match result {
        Ok(value) => Outcome::from(value),
        Err(error) => Outcome::error(error.code().as_str(), error.message()),
    }
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
    match Expression::compile(&case.expr()) {
        Ok(expression) => outcome(expression.evaluate(&case.field("data"), &options)),
        Err(error) => outcome(Err(error)),
    }
}

#[test]
fn every_case_gives_jsonatas_answer() {
    corpus().check_writ(run);
}

#[test]
fn pinned_answers_are_still_jsonatas() {
    corpus().check_oracle();
}

#[test]
fn the_corpus_is_large_and_well_formed() {
    corpus().check_well_formed(|case| {
        assert!(
            !case.expr().is_empty(),
            "{} {}: an empty expression",
            case.file,
            case.id
        );
        // Reading the bindings checks their shape.
        bindings(case);
    });
}

#[test]
fn the_corpus_calls_every_builtin_and_writes_every_construct() {
    let cases = corpus().cases();
    let mut coverage = Coverage::new(&cases);
    for name in BUILTINS.split_whitespace() {
        coverage.writes(&format!("${name}("));
    }
    for (what, needle) in CONSTRUCTS {
        coverage.writes_as(what, needle);
    }
    coverage.assert_complete();
}
