//! The differential corpus: every case in `tests/corpus/*.jsonl` (see its README), run through
//! the library, must give the answer node gives for the same expression as plain JavaScript; and
//! the pinned answers must still be node's, so the files cannot drift from the oracle.
//!
//! `writ_testkit::corpus::Corpus` runs the checks and reports every failure at once; this file
//! says how a case runs in writ-js, what a case's data must be, and which names the corpus must
//! write.

use std::path::Path;

use writ_core::{Object, Value};
use writ_js::Evaluator;
use writ_testkit::corpus::{Case, Corpus, Coverage, is_identifier};
use writ_testkit::oracle::Language;

/// The differential corpus: the `*.jsonl` directly in `tests/corpus` (not `refusals/`).
fn corpus() -> Corpus {
    Corpus {
        language: Language::Js,
        dir: Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus"),
        min_cases: 1500,
        required_files: &[],
        repin: "node crates/writ-js/tests/corpus/pin.mjs",
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

#[test]
fn every_case_gives_nodes_answer() {
    let evaluator = Evaluator::new();
    corpus().check_writ(|case| writ_js::outcome(evaluator.eval(&case.expr(), &[&data(case)])));
}

#[test]
fn pinned_answers_are_still_nodes() {
    corpus().check_oracle();
}

#[test]
fn the_corpus_is_large_and_well_formed() {
    corpus().check_well_formed(|case| {
        for key in data(case).keys() {
            let key = key.to_string_lossy();
            assert!(
                is_identifier(&key),
                "{} {}: the data key {key:?} is not an identifier (the oracle would drop it)",
                case.file,
                case.id
            );
        }
    });
}

/// Every name of the allow-lists appears in the corpus: methods and statics as `.name(`,
/// constants as `.NAME`, globals by name.
#[test]
fn the_corpus_uses_every_name_of_the_language() {
    let cases = corpus().cases();
    let mut coverage = Coverage::new(&cases);
    for name in writ_js::written_names() {
        coverage.writes(&name);
    }
    for operator in [
        " + ", " - ", " * ", " / ", " % ", " ** ", " == ", " != ", " === ", " !== ", " < ", " <= ", " > ", " >= ",
        " && ", " || ", " ?? ", " ? ", "!", "typeof ", "?.", "?.[", "...", "`", "${", "=>",
    ] {
        coverage.writes(operator);
    }
    coverage.assert_complete();
}
