//! The oracle runs end to end: every smoke corpus reproduces its committed expected answers.

use std::time::{Duration, Instant};
use writ_core::Outcome;

use writ_testkit::oracle::{Language, oracle_dir, run_batch, run_batch_within};

fn check_corpus(language: Language) {
    let dir = oracle_dir().join("corpus");
    let name = language.name();
    let cases = std::fs::read_to_string(dir.join(format!("smoke-{name}.jsonl"))).expect("the corpus is committed");
    let expected = std::fs::read_to_string(dir.join(format!("smoke-{name}.expected.jsonl")))
        .expect("the expected answers are committed");
    let outcomes = run_batch(language, &cases).unwrap_or_else(|error| panic!("{error}"));
    let expected: Vec<Outcome> = expected
        .lines()
        .map(|line| Outcome::parse_envelope(line).unwrap_or_else(|error| panic!("{error}")))
        .collect();
    assert_eq!(
        outcomes.len(),
        cases.lines().filter(|line| !line.trim().is_empty()).count()
    );
    assert_eq!(outcomes, expected);
}

#[test]
fn js_corpus_matches_its_expected_answers() {
    check_corpus(Language::Js);
}

#[test]
fn jsonata_corpus_matches_its_expected_answers() {
    check_corpus(Language::Jsonata);
}

#[test]
fn jexl_corpus_matches_its_expected_answers() {
    check_corpus(Language::Jexl);
}

#[test]
fn envelopes_carry_values_undefined_and_codes() {
    let cases = concat!(
        "{\"expr\": \"$sum(xs)\", \"data\": {\"xs\": [1, 2.5]}}\n",
        "{\"expr\": \"nothing\"}\n",
        "\n",
        "{\"expr\": \"1 +\"}\n",
        "not json\n",
    );
    let outcomes = run_batch(Language::Jsonata, cases).unwrap_or_else(|error| panic!("{error}"));
    let codes: Vec<String> = outcomes
        .iter()
        .map(|outcome| match outcome {
            Outcome::Error { code, .. } => code.clone(),
            other => other.to_envelope(),
        })
        .collect();
    assert_eq!(
        codes,
        [
            r#"{"ok":true,"value":3.5}"#,
            r#"{"ok":true,"undefined":true}"#,
            "S0207",
            "batch-line-invalid"
        ]
    );
}

#[test]
fn a_case_that_never_ends_is_stopped() {
    let started = Instant::now();
    let error = run_batch_within(
        Language::Js,
        "{\"expr\": \"(() => { while (true) {} })()\"}\n",
        Duration::from_secs(2),
    )
    .expect_err("an endless loop cannot answer");
    assert!(error.to_string().contains("was stopped"), "{error}");
    assert!(started.elapsed() < Duration::from_secs(30));
}
