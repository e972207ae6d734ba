//! `writ flow run` and `writ flow check`, driven as outside checks drive them: the exact
//! forms of DESIGN.md, their envelopes and exit codes, over the example workflows.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use serde_json::{Value as Json, json};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn writ_in(dir: &Path, args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_writ"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("writ starts");
    let mut input = child.stdin.take().expect("stdin is piped");
    let stdin = stdin.to_owned();
    let writer = std::thread::spawn(move || input.write_all(stdin.as_bytes()));
    let output = child.wait_with_output().expect("writ finishes");
    writer.join().expect("the writer ends").expect("stdin is written");
    output
}

fn writ(args: &[&str]) -> Output {
    writ_in(&repo(), args, "")
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).expect("UTF-8")
}

fn json_out(output: &Output) -> Json {
    serde_json::from_str(stdout(output).trim()).unwrap_or_else(|error| {
        panic!(
            "not one JSON value ({error}): {}\nstderr: {}",
            stdout(output),
            String::from_utf8_lossy(&output.stderr)
        )
    })
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("flow").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a temp dir");
    dir
}

fn write(dir: &Path, name: &str, contents: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, contents).expect("a temp file");
    path
}

#[test]
fn the_seed_s_quick_example_gives_the_seed_s_result() {
    let output = writ(&[
        "flow",
        "run",
        "examples/workflows/sum.json",
        "--input",
        r#"{"n": 4, "sum": 0}"#,
    ]);
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert_eq!(stdout(&output), "{\"n\":0,\"sum\":10}\n");
    let output = writ(&[
        "flow",
        "run",
        "examples/workflows/sum.json",
        "--input",
        r#"{"n": 4, "sum": 0}"#,
        "--json",
    ]);
    assert_eq!(json_out(&output), json!({"ok": true, "output": "{\"n\":0,\"sum\":10}"}));
}

#[test]
fn the_recursive_example_calls_named_workflows() {
    let output = writ(&[
        "flow",
        "run",
        "examples/workflows/sum-recursive.json",
        "--workflows",
        "examples/workflows/named",
        "--input",
        r#"{"n": 4, "sum": 0}"#,
    ]);
    assert_eq!(stdout(&output), "10\n", "{}", String::from_utf8_lossy(&output.stderr));
    // Without the named workflows, the subflow's name is refused before anything runs.
    let output = writ(&["flow", "run", "examples/workflows/sum-recursive.json", "--json"]);
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(json_out(&output)["error"]["code"], "unknown-workflow");
}

#[test]
fn the_two_counter_machine_runs_from_an_input_file() {
    let output = writ(&[
        "flow",
        "run",
        "examples/workflows/two-counter.json",
        "--input-file",
        "examples/workflows/two-counter-input.json",
        "--json",
    ]);
    let answer = json_out(&output);
    let state: Json = serde_json::from_str(answer["output"].as_str().expect("output text")).unwrap();
    assert_eq!(
        (state["pc"].clone(), state["a"].clone(), state["b"].clone()),
        (json!(-1), json!(0), json!(5))
    );
    // `-` reads the input from stdin.
    let input = std::fs::read_to_string(repo().join("examples/workflows/two-counter-input.json")).unwrap();
    let output = writ_in(
        &repo(),
        &[
            "flow",
            "run",
            "examples/workflows/two-counter.json",
            "--input-file",
            "-",
        ],
        &input,
    );
    assert!(
        stdout(&output).starts_with("{\"pc\":-1,\"a\":0,\"b\":5,"),
        "{}",
        stdout(&output)
    );
}

#[test]
fn the_triage_routing_example_asks_the_model_of_model() {
    let output = writ(&[
        "flow",
        "run",
        "examples/workflows/triage-routing.json",
        "--model",
        "examples/workflows/triage-model.json",
        "--input",
        r#"{"severity": "high", "errors": ["db down"]}"#,
        "--json",
    ]);
    assert_eq!(
        json_out(&output),
        json!({"ok": true, "output": "Checkout is down for EU customers."})
    );
    let output = writ(&[
        "flow",
        "run",
        "examples/workflows/triage-routing.json",
        "--input",
        r#"{"severity": "low", "errors": []}"#,
    ]);
    assert_eq!(stdout(&output), "{\"status\":\"ok\"}\n");
    let output = writ(&[
        "flow",
        "run",
        "examples/workflows/triage-routing.json",
        "--input",
        r#"{"severity": "low", "errors": ["x"]}"#,
        "--json",
    ]);
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(json_out(&output)["error"]["code"], "no-model");
}

#[test]
fn failures_exit_1_with_the_seed_s_codes() {
    let dir = temp_dir("failures");
    write(
        &dir,
        "bad.json",
        r#"{"version": 1, "root": {"kind": "compute", "id": "step", "expr": "'a' - 1"}}"#,
    );
    let output = writ_in(&dir, &["flow", "run", "bad.json", "--json"], "");
    assert_eq!(output.status.code(), Some(1));
    let error = &json_out(&output)["error"];
    assert_eq!(error["code"], "EXPRESSION_FAILED");
    let message = error["message"].as_str().unwrap();
    assert!(
        message.contains("compute node 'step'") && message.contains("T2001"),
        "{message}"
    );
    // Without --json the output is empty and the error goes to stderr.
    let output = writ_in(&dir, &["flow", "run", "bad.json"], "");
    assert_eq!(output.status.code(), Some(1));
    assert!(output.stdout.is_empty());
    assert!(String::from_utf8_lossy(&output.stderr).contains("EXPRESSION_FAILED"));

    write(
        &dir,
        "range.json",
        r#"{"version": 1, "root": {"kind": "compute", "id": "r", "expr": "$sum([1..100000])"}}"#,
    );
    let output = writ_in(
        &dir,
        &["flow", "run", "range.json", "--limits", r#"{"steps": 1000}"#, "--json"],
        "",
    );
    assert_eq!(json_out(&output)["error"]["code"], "EXPRESSION_LIMIT_EXCEEDED");
    let output = writ_in(
        &dir,
        &["flow", "run", "range.json", "--limits", r#"{"steps": "Infinity"}"#],
        "",
    );
    assert_eq!(stdout(&output), "5000050000\n");
    for bad in [r#"{"steps": 0}"#, r#"{"timout": 10}"#, "not json"] {
        let output = writ_in(&dir, &["flow", "run", "range.json", "--limits", bad, "--json"], "");
        assert_eq!(output.status.code(), Some(1), "{bad}");
        assert_eq!(json_out(&output)["error"]["code"], "INVALID_EXPRESSION_LIMITS", "{bad}");
    }
    let output = writ_in(
        &repo(),
        &[
            "flow",
            "run",
            "examples/workflows/sum-recursive.json",
            "--workflows",
            "examples/workflows/named",
            "--input",
            r#"{"n": 5, "sum": 0}"#,
            "--limits",
            r#"{"maxRecursionDepth": 4}"#,
            "--json",
        ],
        "",
    );
    assert_eq!(json_out(&output)["error"]["code"], "WORKFLOW_RECURSION_LIMIT");
    // A file that is not there is a usage error.
    let output = writ_in(&dir, &["flow", "run", "missing.json"], "");
    assert_eq!(output.status.code(), Some(2));
}

#[test]
fn events_answers_and_emitted_items() {
    let dir = temp_dir("host");
    write(
        &dir,
        "flow.json",
        &json!({"version": 1, "root": {"kind": "sequence", "id": "s", "steps": [
            {"kind": "wait", "id": "paid", "filter": "event.order = input.order and event.status = 'paid'",
             "emitItems": {"onStart": "'waiting for order ' & $string(order)"}},
            {"kind": "decide", "id": "ship", "question": "Ship it?"},
            {"kind": "compute", "id": "done", "expr": "{'order': $steps.paid.order, 'ship': go}",
             "emitItems": {"item": "shipment", "onDone": "{'ship': ship}"}}]}})
        .to_string(),
    );
    write(
        &dir,
        "events.jsonl",
        "{\"order\": 1, \"status\": \"paid\"}\n\n{\"order\": 2, \"status\": \"paid\"}\n",
    );
    write(&dir, "answers.json", r#"{"ship": {"go": true}}"#);
    let output = writ_in(
        &dir,
        &[
            "flow",
            "run",
            "flow.json",
            "--input",
            r#"{"order": 2}"#,
            "--events",
            "events.jsonl",
            "--answers",
            "answers.json",
        ],
        "",
    );
    assert_eq!(
        stdout(&output),
        "{\"order\":2,\"ship\":true}\n",
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let emitted: Vec<Json> = String::from_utf8_lossy(&output.stderr)
        .lines()
        .map(|line| serde_json::from_str(line).expect("a JSON line"))
        .collect();
    assert_eq!(
        emitted,
        [
            json!({"type": "emit", "node": "paid", "hook": "onStart", "value": "waiting for order 2"}),
            json!({"type": "emit", "node": "done", "hook": "onDone", "item": "shipment", "value": {"ship": true}}),
        ]
    );
    // Events from stdin; no answer for the decide node.
    let output = writ_in(
        &dir,
        &[
            "flow",
            "run",
            "flow.json",
            "--input",
            r#"{"order": 1}"#,
            "--events",
            "-",
            "--json",
        ],
        "{\"order\": 1, \"status\": \"paid\"}\n",
    );
    assert_eq!(json_out(&output)["error"]["code"], "no-answer");
    let output = writ_in(
        &dir,
        &[
            "flow",
            "run",
            "flow.json",
            "--input",
            r#"{"order": 3}"#,
            "--events",
            "events.jsonl",
            "--json",
        ],
        "",
    );
    assert_eq!(json_out(&output)["error"]["code"], "no-event");
}

#[test]
fn calls_reach_the_inline_tools_of_the_manifest() {
    let dir = temp_dir("tools");
    write(
        &dir,
        "tool.py",
        "import json, sys\nargs = json.load(sys.stdin)\nprint(json.dumps({'doubled': args['n'] * 2}))\n",
    );
    write(
        &dir,
        "tools.json",
        &json!({"tools": {"double": {"description": "doubles n", "inputSchema": {"type": "object", "required": ["n"]},
                                      "command": ["python3", "tool.py"]}}})
        .to_string(),
    );
    write(
        &dir,
        "flow.json",
        &json!({"version": 1, "root": {"kind": "call", "id": "d", "connection": "tools", "op": "double",
                                       "args": {"n": {"$expr": "n + 1"}}}})
        .to_string(),
    );
    let output = writ_in(
        &dir,
        &[
            "flow",
            "run",
            "flow.json",
            "--tools",
            "tools.json",
            "--input",
            r#"{"n": 20}"#,
        ],
        "",
    );
    assert_eq!(
        stdout(&output),
        "{\"doubled\":42}\n",
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    write(
        &dir,
        "wrong.json",
        &json!({"version": 1, "root": {"kind": "call", "id": "d", "connection": "fs", "op": "double"}}).to_string(),
    );
    let output = writ_in(
        &dir,
        &["flow", "run", "wrong.json", "--tools", "tools.json", "--json"],
        "",
    );
    assert_eq!(json_out(&output)["error"]["code"], "unknown-connection");
    let output = writ_in(
        &dir,
        &[
            "flow",
            "run",
            "flow.json",
            "--tools",
            "tools.json",
            "--input",
            "{}",
            "--json",
        ],
        "",
    );
    // `n + 1` over no `n` gives no value, so the argument is left out, and the tool's input
    // schema, which requires it, refuses the call before it runs.
    assert_eq!(json_out(&output)["error"]["code"], "invalid_args");
}

#[test]
fn check_lists_every_issue_with_its_pointer() {
    let output = writ(&["flow", "check", "examples/workflows/sum.json", "--json"]);
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(json_out(&output), json!({"ok": true, "issues": []}));
    let output = writ(&[
        "flow",
        "check",
        "examples/workflows/sum-recursive.json",
        "--workflows",
        "examples/workflows/named",
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", stdout(&output));
    let output = writ(&["flow", "check", "examples/workflows/sum-recursive.json", "--json"]);
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(json_out(&output)["issues"][0]["path"], "/root/ref");

    let dir = temp_dir("check");
    write(
        &dir,
        "bad.json",
        &json!({"version": 1, "root": {"kind": "sequence", "id": "s", "steps": [
            {"kind": "map", "id": "a"},
            {"kind": "compute", "id": "b", "expr": "n =", "colour": "red"}]}})
        .to_string(),
    );
    let output = writ_in(&dir, &["flow", "check", "bad.json", "--json"], "");
    assert_eq!(output.status.code(), Some(1));
    let answer = json_out(&output);
    assert_eq!(answer["ok"], false);
    let found: Vec<(String, String)> = answer["issues"]
        .as_array()
        .unwrap()
        .iter()
        .map(|issue| {
            (
                issue["code"].as_str().unwrap().into(),
                issue["path"].as_str().unwrap().into(),
            )
        })
        .collect();
    assert_eq!(
        found,
        [
            ("unknown-node-kind".to_string(), "/root/steps/0/kind".to_string()),
            ("unknown-field".to_string(), "/root/steps/1/colour".to_string()),
            ("invalid-expression".to_string(), "/root/steps/1/expr".to_string()),
        ]
    );
    assert!(
        answer["issues"]
            .as_array()
            .unwrap()
            .iter()
            .all(|issue| issue["message"].is_string())
    );
    let output = writ_in(&dir, &["flow", "check", "bad.json"], "");
    assert_eq!(output.status.code(), Some(1));
    assert!(stdout(&output).contains("unknown-field at /root/steps/1/colour"));
    write(&dir, "text.json", "not json");
    let output = writ_in(&dir, &["flow", "check", "text.json", "--json"], "");
    assert_eq!(output.status.code(), Some(2));
}

#[test]
fn check_checks_the_named_workflows_a_subflow_may_call() {
    let dir = temp_dir("check-named");
    write(
        &dir,
        "main.json",
        &json!({"version": 1, "root": {"kind": "subflow", "id": "call", "ref": "helper"}}).to_string(),
    );
    std::fs::create_dir_all(dir.join("named")).unwrap();
    write(
        &dir,
        "named/helper.json",
        &json!({"version": 1, "root": {"kind": "sequence", "id": "s", "steps": [
            {"kind": "compute", "id": "a", "expr": "$ +"},
            {"kind": "subflow", "id": "b", "ref": "missing"}]}})
        .to_string(),
    );
    let output = writ_in(
        &dir,
        &["flow", "check", "main.json", "--workflows", "named", "--json"],
        "",
    );
    assert_eq!(output.status.code(), Some(1), "{}", stdout(&output));
    let found: Vec<(String, String, String)> = json_out(&output)["issues"]
        .as_array()
        .unwrap()
        .iter()
        .map(|issue| {
            (
                issue["workflow"].as_str().unwrap_or("").into(),
                issue["code"].as_str().unwrap().into(),
                issue["path"].as_str().unwrap().into(),
            )
        })
        .collect();
    assert_eq!(
        found,
        [
            (
                "helper".to_string(),
                "invalid-expression".to_string(),
                "/root/steps/0/expr".to_string()
            ),
            (
                "helper".to_string(),
                "unknown-workflow".to_string(),
                "/root/steps/1/ref".to_string()
            ),
        ]
    );
    let output = writ_in(&dir, &["flow", "check", "main.json", "--workflows", "named"], "");
    assert!(
        stdout(&output).contains("invalid-expression in named workflow 'helper' at /root/steps/0/expr"),
        "{}",
        stdout(&output)
    );
    write(
        &dir,
        "named/helper.json",
        &json!({"version": 1, "root": {"kind": "compute", "id": "a", "expr": "$ + 1"}}).to_string(),
    );
    let output = writ_in(&dir, &["flow", "check", "main.json", "--workflows", "named"], "");
    assert_eq!(output.status.code(), Some(0), "{}", stdout(&output));
}
