//! The `writ` binary, driven as outside checks drive it: flags, envelopes, framing, exit codes.

use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

use writ_core::Outcome;
use writ_testkit::corpus::{check, mismatch, read_cases};

fn writ(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_writ"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("writ starts");
    let mut input = child.stdin.take().expect("stdin is piped");
    let stdin = stdin.to_owned();
    let writer = std::thread::spawn(move || input.write_all(stdin.as_bytes()));
    let output = child.wait_with_output().expect("writ finishes");
    writer
        .join()
        .expect("the writer thread ends")
        .expect("stdin is written");
    output
}

fn stdout_lines(output: &Output) -> Vec<String> {
    String::from_utf8(output.stdout.clone())
        .expect("UTF-8 output")
        .lines()
        .map(str::to_owned)
        .collect()
}

fn temp_file(name: &str, contents: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("cli");
    std::fs::create_dir_all(&dir).expect("a temp dir");
    let path = dir.join(name);
    std::fs::write(&path, contents).expect("a temp file");
    path
}

#[test]
fn version_and_help() {
    let output = writ(&["--version"], "");
    assert!(output.status.success());
    assert_eq!(
        String::from_utf8_lossy(&output.stdout).trim(),
        format!("writ {}", env!("CARGO_PKG_VERSION"))
    );
    let output = writ(&["--help"], "");
    assert!(output.status.success());
    assert!(String::from_utf8_lossy(&output.stdout).contains("eval"));
    let output = writ(&["eval", "--help"], "");
    let help = String::from_utf8_lossy(&output.stdout).into_owned();
    for flag in ["--lang", "--data", "--bindings", "--limits", "--batch"] {
        assert!(help.contains(flag), "eval --help mentions {flag}");
    }
}

#[test]
fn single_eval_prints_one_envelope_and_exits_by_outcome() {
    let data = temp_file("order.json", r#"{"order": {"total": 250}}"#);
    let data = data.to_str().expect("a UTF-8 path");
    let output = writ(
        &[
            "eval",
            "--lang",
            "structured",
            "--data",
            data,
            r#"{"path":"order.total","op":"gt","value":100}"#,
        ],
        "",
    );
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(stdout_lines(&output), [r#"{"ok":true,"value":true}"#]);

    let output = writ(
        &[
            "eval",
            "--lang",
            "structured",
            "--data",
            data,
            r#"{"path":"order.total","op":"regex","value":1}"#,
        ],
        "",
    );
    assert_eq!(output.status.code(), Some(1), "an evaluation error exits 1");
    let lines = stdout_lines(&output);
    assert_eq!(lines.len(), 1);
    match Outcome::parse_envelope(&lines[0]) {
        Ok(Outcome::Error { code, message }) => {
            assert_eq!(code, "invalid-predicate");
            assert!(message.contains("unknown op 'regex'"), "{message}");
        }
        other => panic!("expected an error envelope, got {other:?}"),
    }
}

#[test]
fn usage_errors_exit_2_with_a_message_on_stderr() {
    let cases: &[&[&str]] = &[
        &["eval", "--lang", "cobol", "1"],
        &["eval", "--lang", "structured"],
        &["eval", "--lang", "structured", "--data", "/nonexistent/data.json", "{}"],
        &["eval", "--lang", "structured", "--limits", r#"{"setps": 5}"#, "{}"],
        &["eval", "--lang", "structured", "--limits", "{not json", "{}"],
        &["eval", "--lang", "structured", "--batch", "/nonexistent/batch.jsonl"],
    ];
    for args in cases {
        let output = writ(args, "");
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(output.stdout.is_empty(), "{args:?} writes nothing to stdout");
        assert!(!output.stderr.is_empty(), "{args:?} explains itself on stderr");
    }
    let output = writ(
        &["eval", "--lang", "structured", "--limits", r#"{"setps": 5}"#, "{}"],
        "",
    );
    assert!(String::from_utf8_lossy(&output.stderr).contains("did you mean 'steps'?"));
}

#[test]
fn batch_answers_every_non_blank_line_in_order() {
    let input = concat!(
        "{\"expr\": {\"path\": \"x\", \"op\": \"eq\", \"value\": 1}, \"data\": {\"x\": 1}}\n",
        "\n",
        "   \r\n",
        "not json\n",
        "{\"expr\": \"{\\\"path\\\": \\\"x\\\", \\\"op\\\": \\\"truthy\\\"}\", \"data\": {\"x\": 0}}\r\n",
        "[1]\n",
        "{\"data\": 1}\n",
        "{\"expr\": {\"all\": []}, \"limits\": {\"steps\": 0}}\n",
        "{\"expr\": {\"all\": []}, \"limits\": {\"steps\": 1}}",
    );
    let output = writ(&["eval", "--lang", "structured", "--batch", "-"], input);
    assert_eq!(
        output.status.code(),
        Some(0),
        "batch mode exits 0 when every line was answered"
    );
    let lines = stdout_lines(&output);
    let outcomes: Vec<Outcome> = lines
        .iter()
        .map(|line| Outcome::parse_envelope(line).expect("an envelope"))
        .collect();
    let summary: Vec<String> = outcomes
        .iter()
        .map(|outcome| match outcome {
            Outcome::Error { code, message } => format!("{code} {}", message.split(':').next().unwrap_or_default()),
            other => other.to_envelope(),
        })
        .collect();
    assert_eq!(
        summary,
        [
            r#"{"ok":true,"value":true}"#,
            "batch-line-invalid line 4",
            r#"{"ok":true,"value":false}"#,
            "batch-line-invalid line 6",
            "batch-line-invalid line 7",
            "budget-exceeded step limit of 0 reached (simplify the predicate, or raise the limit)",
            r#"{"ok":true,"value":true}"#,
        ]
    );
}

#[test]
fn command_line_limits_apply_to_every_batch_line_unless_a_line_overrides_them() {
    let input = concat!(
        "{\"expr\": {\"all\": [{\"path\": \"a\", \"op\": \"exists\"}]}}\n",
        "{\"expr\": {\"all\": [{\"path\": \"a\", \"op\": \"exists\"}]}, \"limits\": {\"steps\": 100}}\n",
    );
    let output = writ(
        &[
            "eval",
            "--lang",
            "structured",
            "--limits",
            r#"{"steps": 1}"#,
            "--batch",
            "-",
        ],
        input,
    );
    let codes: Vec<bool> = stdout_lines(&output)
        .iter()
        .map(|line| Outcome::parse_envelope(line).expect("an envelope").is_ok())
        .collect();
    assert_eq!(codes, [false, true]);
}

#[test]
fn the_structured_corpus_gives_the_same_answers_through_the_cli() {
    let corpus = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../writ-cells/tests/corpus/structured.jsonl");
    let cases = read_cases(&corpus);
    let input: String = cases.iter().map(|case| format!("{}\n", case.line)).collect();
    let output = writ(&["eval", "--lang", "structured", "--batch", "-"], &input);
    assert_eq!(output.status.code(), Some(0));
    let lines = stdout_lines(&output);
    assert_eq!(lines.len(), cases.len());
    for (case, line) in cases.iter().zip(&lines) {
        check(case, &Outcome::parse_envelope(line).expect("an envelope"));
    }
}

#[test]
fn a_closed_pipe_ends_writ_quietly() {
    let line = "{\"expr\": {\"path\": \"x\", \"op\": \"exists\"}, \"data\": {\"x\": 1}}\n";
    let input = line.repeat(200_000);
    let mut child = Command::new(env!("CARGO_BIN_EXE_writ"))
        .args(["eval", "--lang", "structured", "--batch", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("writ starts");
    let mut stdin = child.stdin.take().expect("stdin is piped");
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(input.as_bytes());
    });
    let mut stdout = child.stdout.take().expect("stdout is piped");
    let mut first = [0u8; 16];
    stdout.read_exact(&mut first).expect("writ answers");
    drop(stdout);
    let output = child.wait_with_output().expect("writ finishes");
    writer.join().expect("the writer thread ends");
    assert_eq!(output.status.code(), Some(0));
    assert!(output.stderr.is_empty(), "{}", String::from_utf8_lossy(&output.stderr));
}

#[test]
fn js_evaluates_single_and_batch_with_seed_004s_limit_names() {
    let data = temp_file(
        "rows.json",
        r#"{"rows": [{"name": "Mug", "stock": 4}, {"name": "Kettle", "stock": 0}]}"#,
    );
    let data = data.to_str().expect("a UTF-8 path");
    let output = writ(
        &[
            "eval",
            "--lang",
            "js",
            "--data",
            data,
            "rows.filter(r => r.stock > 0).map(r => r.name)",
        ],
        "",
    );
    assert_eq!(stdout_lines(&output), [r#"{"ok":true,"value":["Mug"]}"#]);
    assert_eq!(output.status.code(), Some(0));

    let output = writ(&["eval", "--lang", "js", "--data", data, "rows.missing.name"], "");
    let lines = stdout_lines(&output);
    assert!(
        lines[0].starts_with(r#"{"ok":false,"error":{"code":"expression-runtime""#),
        "{lines:?}"
    );
    assert_eq!(output.status.code(), Some(1));

    let batch = [
        r#"{"expr": "a + b", "data": {"a": 1, "b": 2}}"#,
        r#"{"expr": "undefined"}"#,
        r#"{"expr": "'x'.repeat(100)", "limits": {"maxStringLength": 10}}"#,
        r#"{"expr": "1 + 1", "limits": {"maxSourceLength": 3}}"#,
        r#"{"expr": "xs.map(x => x)", "data": {"xs": [1, 2, 3]}, "limits": {"steps": 5}}"#,
        r#"{"expr": "1", "limits": {"maxStringLenght": 10}}"#,
        r#"{"expr": "[].push(1)"}"#,
    ]
    .join("\n");
    let output = writ(&["eval", "--lang", "js", "--batch", "-"], &batch);
    let lines = stdout_lines(&output);
    assert_eq!(lines.len(), 7, "{lines:?}");
    assert_eq!(lines[0], r#"{"ok":true,"value":3}"#);
    assert_eq!(lines[1], r#"{"ok":true,"undefined":true}"#);
    for (line, code) in [
        (2, "budget-exceeded"),
        (3, "expression-syntax"),
        (4, "budget-exceeded"),
        (5, "batch-line-invalid"),
        (6, "guardrail-violation"),
    ] {
        let expected = format!(r#"{{"ok":false,"error":{{"code":"{code}""#);
        assert!(lines[line].starts_with(&expected), "line {line}: {}", lines[line]);
    }
    assert!(
        lines[5].contains("maxStringLength"),
        "the misspelt limit gets a hint: {}",
        lines[5]
    );
    assert_eq!(output.status.code(), Some(0));
}

#[test]
fn the_js_corpora_give_the_same_answers_through_the_cli() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../writ-js/tests/corpus");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("the writ-js corpus folder")
        .map(|entry| entry.expect("a directory entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "jsonl"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no corpus files in {}", dir.display());
    let mut failures = Vec::new();
    let mut total = 0;
    for file in &files {
        let cases = read_cases(file);
        let input: Vec<&str> = cases.iter().map(|case| case.line.as_str()).collect();
        let output = writ(&["eval", "--lang", "js", "--batch", "-"], &input.join("\n"));
        let lines = stdout_lines(&output);
        assert_eq!(lines.len(), cases.len(), "{}: one answer per line", file.display());
        for (case, line) in cases.iter().zip(&lines) {
            total += 1;
            let got = Outcome::parse_envelope(line).expect("an envelope");
            if let Some(failure) = mismatch(case, &got) {
                failures.push(format!("{}: {failure}", file.display()));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {total} cases differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn jsonata_evaluates_one_expression_over_data_and_bindings() {
    let data = temp_file(
        "account.json",
        r#"{"Account": {"Order": [{"Product": [{"Price": 30.5, "Quantity": 2}, {"Price": 19, "Quantity": 1}]}]}}"#,
    );
    let data = data.to_str().expect("a UTF-8 path");
    let bindings = temp_file("rate.json", r#"{"rate": 0.5}"#);
    let bindings = bindings.to_str().expect("a UTF-8 path");
    let expr = "$sum(Account.Order.Product.(Price * Quantity)) * $rate";
    let output = writ(
        &[
            "eval",
            "--lang",
            "jsonata",
            "--data",
            data,
            "--bindings",
            bindings,
            expr,
        ],
        "",
    );
    assert_eq!(stdout_lines(&output), [r#"{"ok":true,"value":40}"#]);
    assert_eq!(output.status.code(), Some(0));

    let output = writ(&["eval", "--lang", "jsonata", "--data", data, "Account.Missing"], "");
    assert_eq!(stdout_lines(&output), [r#"{"ok":true,"undefined":true}"#]);
    assert_eq!(output.status.code(), Some(0));

    // An error answers with JSONata's own code and exits 1.
    let output = writ(&["eval", "--lang", "jsonata", "'a' + 1"], "");
    assert_eq!(output.status.code(), Some(1));
    let lines = stdout_lines(&output);
    match Outcome::parse_envelope(&lines[0]) {
        Ok(Outcome::Error { code, message }) => {
            assert_eq!(code, "T2001");
            assert!(message.contains("'+'"), "the message names the operator: {message}");
        }
        other => panic!("expected an error envelope, got {other:?}"),
    }

    // Bindings must be an object of variables.
    let not_object = temp_file("bindings-array.json", "[1, 2]");
    let not_object = not_object.to_str().expect("a UTF-8 path");
    let output = writ(&["eval", "--lang", "jsonata", "--bindings", not_object, "$x"], "");
    assert_eq!(output.status.code(), Some(2));
    assert!(output.stdout.is_empty());
    assert!(String::from_utf8_lossy(&output.stderr).contains("--bindings: bindings must be a JSON object"));
}

#[test]
fn jsonata_batch_answers_each_line_with_its_own_data_bindings_and_limits() {
    let batch = [
        r#"{"expr": "items[price > 10].name", "data": {"items": [{"name": "a", "price": 5}, {"name": "b", "price": 20}]}}"#,
        r#"{"expr": "$x * 2", "bindings": {"x": 21}}"#,
        r#"{"expr": "$x", "bindings": {"y": 1}}"#,
        r#"{"expr": "1 +"}"#,
        r#"{"expr": "$error('boom')"}"#,
        r#"{"expr": "$x", "bindings": [1]}"#,
        r#"{"expr": "$count([1..100])", "limits": {"sequence": 10}}"#,
        r#"{"expr": "$count([1..100])", "limits": {"sequence": "Infinity"}}"#,
        r#"{"expr": "1", "limits": {"sequense": 10}}"#,
        r#"{"expr": "1", "limits": {"depth": 0}}"#,
        // A lone surrogate in the expression's JSON reaches the string literal intact.
        r#"{"expr": "$length('a\ud800b')"}"#,
        r#"{"expr": "$encodeUrl('\ud800')"}"#,
    ]
    .join("\n");
    let output = writ(&["eval", "--lang", "jsonata", "--batch", "-"], &batch);
    assert_eq!(
        output.status.code(),
        Some(0),
        "batch mode exits 0 when every line was answered"
    );
    let lines = stdout_lines(&output);
    assert_eq!(lines.len(), 12, "{lines:?}");
    assert_eq!(lines[0], r#"{"ok":true,"value":"b"}"#);
    assert_eq!(lines[1], r#"{"ok":true,"value":42}"#);
    assert_eq!(lines[2], r#"{"ok":true,"undefined":true}"#);
    assert_eq!(lines[4], r#"{"ok":false,"error":{"code":"D3137","message":"boom"}}"#);
    assert_eq!(lines[7], r#"{"ok":true,"value":100}"#);
    for (line, code) in [
        (3, "S0207"),
        (5, "batch-line-invalid"),
        (6, "D2015"),
        (8, "batch-line-invalid"),
        (9, "batch-line-invalid"),
    ] {
        let expected = format!(r#"{{"ok":false,"error":{{"code":"{code}""#);
        assert!(lines[line].starts_with(&expected), "line {line}: {}", lines[line]);
    }
    assert_eq!(lines[10], r#"{"ok":true,"value":3}"#);
    assert!(
        lines[11].starts_with(r#"{"ok":false,"error":{"code":"D3140""#),
        "{}",
        lines[11]
    );
    assert!(lines[8].contains("did you mean 'sequence'?"), "{}", lines[8]);
    assert!(lines[9].contains("'depth' must be a positive integer"), "{}", lines[9]);
}

#[test]
fn jsonata_limits_stop_runaway_expressions_quickly() {
    // An endless tail-recursive loop: only the clock stops it once the other bounds are lifted.
    let endless = "($loop := function($n) { $loop($n + 1) }; $loop(0))";
    let started = std::time::Instant::now();
    let output = writ(
        &[
            "eval",
            "--lang",
            "jsonata",
            "--limits",
            r#"{"timeout": 100, "steps": "Infinity", "depth": "Infinity"}"#,
            endless,
        ],
        "",
    );
    let elapsed = started.elapsed();
    let lines = stdout_lines(&output);
    assert!(
        lines[0].starts_with(r#"{"ok":false,"error":{"code":"D1012""#),
        "{lines:?}"
    );
    assert!(elapsed < std::time::Duration::from_secs(5), "took {elapsed:?}");
    assert_eq!(output.status.code(), Some(1));

    let batch = [
        // A big range against a small timeout.
        r#"{"expr": "$sum([1..10000000])", "limits": {"timeout": 20, "steps": "Infinity"}}"#,
        // The step budget.
        r#"{"expr": "$sum([1..100000])", "limits": {"steps": 1000}}"#,
        // Recursion that is not a tail call against a small depth.
        r#"{"expr": "($f := function($n) { $n = 0 ? 0 : 1 + $f($n - 1) }; $f(1000))", "limits": {"depth": 50}}"#,
        // The same recursion within its bounds.
        r#"{"expr": "($f := function($n) { $n = 0 ? 0 : 1 + $f($n - 1) }; $f(10))", "limits": {"depth": 500}}"#,
    ]
    .join("\n");
    let started = std::time::Instant::now();
    let output = writ(&["eval", "--lang", "jsonata", "--batch", "-"], &batch);
    assert!(
        started.elapsed() < std::time::Duration::from_secs(10),
        "took {:?}",
        started.elapsed()
    );
    let lines = stdout_lines(&output);
    assert_eq!(lines.len(), 4, "{lines:?}");
    for (line, code) in [(0, "D1012"), (1, "U1006"), (2, "D1011")] {
        let expected = format!(r#"{{"ok":false,"error":{{"code":"{code}""#);
        assert!(lines[line].starts_with(&expected), "line {line}: {}", lines[line]);
    }
    assert_eq!(lines[3], r#"{"ok":true,"value":10}"#);
}

#[test]
fn jsonata_refuses_bad_limits_naming_the_field() {
    let cases: &[(&str, &str)] = &[
        (
            r#"{"timeout": 0}"#,
            "'timeout' must be a positive integer, or \"Infinity\"",
        ),
        (r#"{"depth": -3}"#, "'depth' must be a positive integer"),
        (r#"{"steps": 2.5}"#, "'steps' must be a positive integer"),
        (r#"{"sequence": "lots"}"#, "'sequence' must be a positive integer"),
        (r#"{"timout": 10}"#, "did you mean 'timeout'?"),
        (r#"{"ms": 10}"#, "unknown limit 'ms' for jsonata"),
        ("[10]", "limits must be a JSON object"),
    ];
    for (limits, says) in cases {
        let output = writ(&["eval", "--lang", "jsonata", "--limits", limits, "1"], "");
        assert_eq!(output.status.code(), Some(2), "{limits}");
        assert!(output.stdout.is_empty(), "{limits}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains(says), "{limits}: {stderr}");
    }
    let output = writ(
        &[
            "eval",
            "--lang",
            "jsonata",
            "--limits",
            r#"{"timeout": "Infinity", "steps": 100000}"#,
            "1 + 1",
        ],
        "",
    );
    assert_eq!(stdout_lines(&output), [r#"{"ok":true,"value":2}"#]);
}

#[test]
fn the_jsonata_smoke_corpus_gives_the_oracles_answers_through_the_cli() {
    // The oracle's answers from jsonata-js 2.2.2; error messages are writ's own, so only codes
    // are compared.
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../oracle/corpus");
    let input = std::fs::read_to_string(dir.join("smoke-jsonata.jsonl")).expect("the corpus is committed");
    let expected =
        std::fs::read_to_string(dir.join("smoke-jsonata.expected.jsonl")).expect("its answers are committed");
    let output = writ(&["eval", "--lang", "jsonata", "--batch", "-"], &input);
    assert_eq!(output.status.code(), Some(0));
    let lines = stdout_lines(&output);
    let expected: Vec<&str> = expected.lines().collect();
    assert_eq!(lines.len(), expected.len(), "one answer per non-blank line");
    for (line, want) in lines.iter().zip(&expected) {
        let got = Outcome::parse_envelope(line).expect("an envelope");
        let want = Outcome::parse_envelope(want).expect("an expected envelope");
        match (&got, &want) {
            (Outcome::Error { code, .. }, Outcome::Error { code: want_code, .. }) => {
                assert_eq!(code, want_code, "{line}");
            }
            _ => assert_eq!(got, want, "{line}"),
        }
    }
}

/// A jexl corpus case as a self-contained batch line: a case that names a shared document
/// (`"doc"`) gets that document inline as `data`.
fn jexl_batch_line(case: &writ_testkit::corpus::Case, documents: &std::path::Path) -> String {
    let mut line = case.request.as_object().expect("a case is an object").clone();
    if let Some(name) = case.field("doc").as_str() {
        let path = documents.join(format!("{name}.json"));
        let text = std::fs::read_to_string(&path).unwrap_or_else(|error| panic!("{}: {error}", path.display()));
        let document = writ_core::parse_json(&text).expect("a document is JSON");
        line.insert(writ_core::Str::from("data"), document);
    }
    writ_core::Value::Object(line).to_json_string().expect("a line is JSON")
}

#[test]
fn the_jexl_corpus_gives_the_same_answers_through_the_cli() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../writ-jexl/tests/corpus");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("the writ-jexl corpus folder")
        .map(|entry| entry.expect("a directory entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "jsonl"))
        .collect();
    files.sort();
    assert!(files.len() >= 10, "too few corpus files in {}", dir.display());
    let mut failures = Vec::new();
    let mut total = 0;
    let mut linted = 0;
    for file in &files {
        let cases = read_cases(file);
        let input: Vec<String> = cases
            .iter()
            .map(|case| jexl_batch_line(case, &dir.join("data")))
            .collect();
        let output = writ(&["eval", "--lang", "jexl", "--batch", "-"], &input.join("\n"));
        let lines = stdout_lines(&output);
        assert_eq!(lines.len(), cases.len(), "{}: one answer per line", file.display());
        for (case, line) in cases.iter().zip(&lines) {
            total += 1;
            let got = Outcome::parse_envelope(line).expect("an envelope");
            // jexl-js answers a dialect mistake it can parse (`ctx.x` reads the missing name
            // `ctx`); writ's command line refuses it by name, as the jexl cell does at freeze.
            if writ_jexl::lint(&case.expr()).is_some() {
                linted += 1;
                if !matches!(&got, Outcome::Error { code, .. } if code == "jexl-dialect") {
                    failures.push(format!(
                        "{}: {}: expected jexl-dialect, got {line}",
                        file.display(),
                        case.id
                    ));
                }
                continue;
            }
            if let Some(failure) = mismatch(case, &got) {
                failures.push(format!("{}: {failure}", file.display()));
            }
        }
    }
    assert!(total >= 1_000, "only {total} jexl cases");
    assert!(linted >= 2, "only {linted} cases with a dialect mistake");
    assert!(
        failures.is_empty(),
        "{} of {total} cases differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn jexl_evaluates_over_data_with_the_transforms_named() {
    let data = temp_file(
        "jexl-users.json",
        r#"{"users": [{"name": "ada", "age": 36}, {"name": "alan", "age": 41}, {"name": "kit", "age": 19}]}"#,
    );
    let data = data.to_str().expect("a UTF-8 path");
    let output = writ(
        &["eval", "--lang", "jexl", "--data", data, "users[.age >= 30][1].name"],
        "",
    );
    assert_eq!(stdout_lines(&output), [r#"{"ok":true,"value":"alan"}"#]);
    assert_eq!(output.status.code(), Some(0));

    // No transform is registered unless named.
    let output = writ(&["eval", "--lang", "jexl", "--data", data, "users[0].name|upper"], "");
    let line = stdout_lines(&output).join("");
    assert!(line.contains(r#""code":"jexl-unknown-transform""#), "{line}");
    assert_eq!(output.status.code(), Some(1));
    let output = writ(
        &[
            "eval",
            "--lang",
            "jexl",
            "--transforms",
            "upper,join",
            "--data",
            data,
            "users[0].name|upper",
        ],
        "",
    );
    assert_eq!(stdout_lines(&output), [r#"{"ok":true,"value":"ADA"}"#]);

    // The dialect mistakes are named.
    let output = writ(&["eval", "--lang", "jexl", "--data", data, "users[0].age === 36"], "");
    let line = stdout_lines(&output).join("");
    assert!(
        line.contains(r#""code":"jexl-dialect""#) && line.contains("'=='"),
        "{line}"
    );
    // Jexl parses `ctx.count > 0` (a read of the missing name `ctx`, answering false); writ
    // refuses it, as the jexl cell refuses it at freeze.
    let output = writ(&["eval", "--lang", "jexl", "--data", data, "ctx.users[0].age > 30"], "");
    let line = stdout_lines(&output).join("");
    assert!(
        line.contains(r#""code":"jexl-dialect""#) && line.contains("write 'order.total' rather than 'ctx.order.total'"),
        "{line}"
    );
    assert_eq!(output.status.code(), Some(1));
}

#[test]
fn jexl_batch_lines_carry_their_own_transforms_and_limits() {
    let input = [
        r#"{"expr": "name|lower", "data": {"name": "ÉMILE"}, "transforms": ["lower"]}"#,
        r#"{"expr": "name|lower", "data": {"name": "ÉMILE"}}"#,
        r#"{"expr": "tags|join(', ')", "data": {"tags": ["a", "b"]}, "transforms": ["join", "nope"]}"#,
        r#"{"expr": "tags|join(', ')", "data": {"tags": ["a", "b"]}, "transforms": "join"}"#,
        r#"{"expr": "xs[.v > 0]", "data": {"xs": [{"v": 1}, {"v": 2}, {"v": 3}]}, "limits": {"steps": 3}}"#,
        r#"{"expr": "1 + 1", "limits": {"stesp": 3}}"#,
    ]
    .join("\n");
    let output = writ(&["eval", "--lang", "jexl", "--batch", "-"], &input);
    let lines = stdout_lines(&output);
    assert_eq!(lines.len(), 6);
    assert_eq!(lines[0], r#"{"ok":true,"value":"émile"}"#);
    assert!(lines[1].contains("jexl-unknown-transform"), "{}", lines[1]);
    assert!(
        lines[2].contains("jexl-unknown-transform") && lines[2].contains("nope"),
        "{}",
        lines[2]
    );
    assert!(lines[3].contains("batch-line-invalid"), "{}", lines[3]);
    assert!(lines[4].contains("budget-exceeded"), "{}", lines[4]);
    assert!(
        lines[5].contains("batch-line-invalid") && lines[5].contains("did you mean 'steps'"),
        "{}",
        lines[5]
    );
    assert_eq!(output.status.code(), Some(0));
}

#[test]
fn lua_evaluates_a_chunk_over_ctx_and_answers_its_first_return_value() {
    let data = temp_file(
        "lua-outputs.json",
        r#"{"fetch:": [{"json": {"count": 3, "status": "ready"}}], "check:e2:e0": [{"json": {"ok": true}}]}"#,
    );
    let data = data.to_str().expect("a UTF-8 path");
    let output = writ(
        &[
            "eval",
            "--lang",
            "lua",
            "--data",
            data,
            "return ctx['fetch:'][1].json.count * 2, 'ignored'",
        ],
        "",
    );
    assert_eq!(stdout_lines(&output), [r#"{"ok":true,"value":6}"#]);
    let output = writ(&["eval", "--lang", "lua", "--data", data, "return nil"], "");
    assert_eq!(stdout_lines(&output), [r#"{"ok":true,"undefined":true}"#]);
    for escape in [
        "return io.open('/etc/passwd')",
        "return os.time()",
        "return require('os')",
    ] {
        let output = writ(&["eval", "--lang", "lua", escape], "");
        let line = stdout_lines(&output).join("");
        assert!(line.contains(r#""code":"lua-runtime""#), "{escape}: {line}");
        assert_eq!(output.status.code(), Some(1));
    }
}

#[test]
fn lua_limits_use_the_cells_status_names_and_stop_runaways() {
    let input = [
        r#"{"expr": "while true do end", "limits": {"timeoutMs": 100, "instructionLimit": 1000000000}}"#,
        r#"{"expr": "local n = 0 while true do n = n + 1 end", "limits": {"instructionLimit": 100000}}"#,
        r#"{"expr": "local s = 'x' while true do s = s .. s end", "limits": {"memoryCeilingBytes": 1048576}}"#,
        r#"{"expr": "return 1 + 1"}"#,
        r#"{"expr": "return 1", "limits": {"timeout": 5}}"#,
    ]
    .join("\n");
    let started = std::time::Instant::now();
    let output = writ(&["eval", "--lang", "lua", "--batch", "-"], &input);
    let lines = stdout_lines(&output);
    assert_eq!(lines.len(), 5, "{lines:?}");
    assert!(lines[0].contains("lua-timeout"), "{}", lines[0]);
    assert!(lines[1].contains("lua-instruction-limit"), "{}", lines[1]);
    assert!(lines[2].contains("lua-memory"), "{}", lines[2]);
    assert_eq!(lines[3], r#"{"ok":true,"value":2}"#);
    assert!(
        lines[4].contains("batch-line-invalid") && lines[4].contains("timeoutMs"),
        "{}",
        lines[4]
    );
    assert!(
        started.elapsed() < std::time::Duration::from_secs(30),
        "the runaways were stopped"
    );
}

#[test]
fn an_answer_whose_text_would_be_too_long_is_an_error_in_every_language() {
    // Forty levels that each hold the level below twice: a few hundred bytes of memory,
    // 2^40 copies of the innermost value when written out. JSONata's writer refuses it as
    // answer-too-large; the JavaScript subset charges the answer's text while the evaluation
    // runs, so its allocation budget stops it first.
    let batch = [
        (
            "jsonata",
            r#"($f := function($s, $x){ $x > 0 ? $f({'a': $s, 'b': $s}, $x - 1) : $s }; $f('a', 40))"#,
            "answer-too-large",
            "longer than 268435456 bytes",
        ),
        (
            "js",
            "Array.from({ length: 40 }).reduce(a => [a, a], 1)",
            "budget-exceeded",
            "the same values many times over",
        ),
    ];
    for (lang, expr, want, says) in batch {
        let output = writ(&["eval", "--lang", lang, expr], "");
        assert_eq!(output.status.code(), Some(1), "{lang}: an error exits 1");
        match Outcome::parse_envelope(&stdout_lines(&output)[0]) {
            Ok(Outcome::Error { code, message }) => {
                assert_eq!(code, want, "{lang}");
                assert!(message.contains(says), "{lang}: {message}");
            }
            other => panic!("{lang}: expected an error envelope, got {other:?}"),
        }
    }
}
