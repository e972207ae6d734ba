//! `writ plan …` driven as outside checks drive it: the example plans, the JSON shapes, the exit
//! codes, and the lifecycle in a SQLite store.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value as Json;

fn writ(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_writ"))
        .args(args)
        .output()
        .expect("writ runs")
}

fn examples() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/plans")
}

fn example(name: &str) -> String {
    examples().join(name).display().to_string()
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).expect("UTF-8 output")
}

fn json_out(output: &Output) -> Json {
    serde_json::from_str(stdout(output).trim()).unwrap_or_else(|e| panic!("not JSON ({e}): {}", stdout(output)))
}

fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("plan-cli").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch dir");
    dir
}

#[test]
fn the_example_plans_check_clean() {
    for name in [
        "declassify.json",
        "branch.json",
        "select.json",
        "join.json",
        "q3-review.json",
    ] {
        let output = writ(&["plan", "check", &example(name), "--json"]);
        let report = json_out(&output);
        assert_eq!(report["ok"], true, "{name}: {report:#}");
        assert_eq!(output.status.code(), Some(0), "{name}");
        assert!(
            report["issues"]
                .as_array()
                .unwrap()
                .iter()
                .all(|issue| issue["severity"] == "advisory"),
            "{name}: {report:#}"
        );
        let digest = report["digest"].as_str().unwrap();
        assert!(
            digest.len() == 64 && digest.bytes().all(|b| b.is_ascii_hexdigit()),
            "{digest}"
        );
        let printed = writ(&["plan", "digest", &example(name)]);
        assert_eq!(
            stdout(&printed).trim(),
            digest,
            "{name}: plan digest agrees with plan check"
        );
    }
}

#[test]
fn each_refused_example_names_its_check() {
    let cases = [
        ("tainted-call-arg.json", "tainted_call_arg", Some("list_files")),
        ("entry-input-into-args.json", "tainted_call_arg", Some("list_files")),
        ("cycle.json", "cycle", None),
        ("select-missing-default.json", "select_missing_default", Some("route")),
        ("unknown-case-label.json", "unknown_case", None),
        (
            "retry-not-replay-safe.json",
            "retry_unsafe_repeat",
            Some("notify_owner"),
        ),
        ("missing-reference.json", "missing_reference", Some("summarise")),
        ("unwired-evaluator.json", "unwired_evaluator", Some("has_files")),
        ("join-not-diamond.json", "join_not_diamond", Some("both")),
        ("too-many-nodes.json", "max_nodes_exceeded", None),
    ];
    for (name, code, node) in cases {
        let output = writ(&["plan", "check", &example(&format!("refused/{name}")), "--json"]);
        let report = json_out(&output);
        assert_eq!(output.status.code(), Some(1), "{name}: {report:#}");
        assert_eq!(report["ok"], false, "{name}");
        let issue = report["issues"]
            .as_array()
            .unwrap()
            .iter()
            .find(|issue| issue["code"] == code)
            .unwrap_or_else(|| panic!("{name}: no {code} in {report:#}"));
        assert_eq!(issue["severity"], "blocking", "{name}");
        if let Some(node) = node {
            assert_eq!(issue["nodeId"], node, "{name}: {issue:#}");
        }
        assert!(
            issue["message"].as_str().unwrap().len() > 20,
            "{name}: a message that says what to do"
        );
    }
}

#[test]
fn an_unknown_tool_is_named_when_a_manifest_is_given() {
    let dir = scratch("tools");
    let manifest = dir.join("tools.json");
    std::fs::write(
        &manifest,
        r#"{"tools": {"resolve_path": {"inputSchema": {"type": "object"}, "command": ["true"]},
             "list_file": {"inputSchema": {"type": "object"}, "command": ["true"]}}}"#,
    )
    .unwrap();
    let output = writ(&[
        "plan",
        "check",
        &example("declassify.json"),
        "--tools",
        manifest.to_str().unwrap(),
        "--json",
    ]);
    let report = json_out(&output);
    assert_eq!(output.status.code(), Some(1));
    let issue = report["issues"]
        .as_array()
        .unwrap()
        .iter()
        .find(|issue| issue["code"] == "unknown_tool")
        .expect("unknown_tool");
    assert_eq!(issue["nodeId"], "list_files");
    assert!(
        issue["message"].as_str().unwrap().contains("list_file"),
        "the nearest name is offered: {issue}"
    );
}

/// The demo MCP server of `examples/demo-tools`, beside the `writ` under test: `cargo test
/// --workspace` builds it there, and it is built here when only this crate's tests were.
fn demo_tools_server() -> PathBuf {
    let writ = Path::new(env!("CARGO_BIN_EXE_writ"));
    let server = writ.with_file_name(format!("writ-demo-tools{}", std::env::consts::EXE_SUFFIX));
    if !server.exists() {
        let mut build = Command::new(env!("CARGO"));
        build.args(["build", "-q", "-p", "writ-demo-tools"]);
        if writ.parent().and_then(Path::file_name) == Some("release".as_ref()) {
            build.arg("--release");
        }
        let status = build.status().expect("cargo runs");
        assert!(
            status.success() && server.exists(),
            "the demo tools build at {}",
            server.display()
        );
    }
    server
}

#[test]
fn an_unknown_tool_is_named_against_the_tools_an_mcp_server_lists() {
    let dir = scratch("mcp-tools");
    let manifest = dir.join("tools.json");
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/demo-root");
    let server = demo_tools_server();
    std::fs::write(
        &manifest,
        serde_json::json!({"mcpServers": {"demo": {
            "command": server.to_str().unwrap(),
            "args": ["--root", root.to_str().unwrap()],
        }}})
        .to_string(),
    )
    .unwrap();
    let check = |plan: &str| {
        let output = writ(&["plan", "check", plan, "--tools", manifest.to_str().unwrap(), "--json"]);
        (output.status.code(), json_out(&output))
    };
    // Every tool of the richest example is one the server lists.
    let (code, report) = check(&example("q3-review.json"));
    assert_eq!((code, &report["ok"]), (Some(0), &Json::Bool(true)), "{report:#}");

    let mut plan: Json = serde_json::from_str(&std::fs::read_to_string(example("declassify.json")).unwrap()).unwrap();
    let list = plan["nodes"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .find(|node| node["definition"]["tool"] == "list_files")
        .expect("a list_files call");
    list["definition"]["tool"] = "list_file".into();
    let node_id = list["id"].clone();
    let file = dir.join("plan.json");
    std::fs::write(&file, plan.to_string()).unwrap();
    let (code, report) = check(file.to_str().unwrap());
    assert_eq!(code, Some(1), "{report:#}");
    let issue = report["issues"]
        .as_array()
        .unwrap()
        .iter()
        .find(|issue| issue["code"] == "unknown_tool")
        .unwrap_or_else(|| panic!("unknown_tool in {report:#}"));
    assert_eq!(issue["nodeId"], node_id);
    assert!(
        issue["message"].as_str().unwrap().contains("list_files"),
        "the nearest tool the server lists is offered: {issue}"
    );
}

#[test]
fn a_manifest_whose_server_cannot_start_exits_2() {
    let dir = scratch("no-server");
    let manifest = dir.join("tools.json");
    std::fs::write(
        &manifest,
        r#"{"mcpServers": {"fs": {"command": "./no-such-mcp-server"}}}"#,
    )
    .unwrap();
    let output = writ(&[
        "plan",
        "check",
        &example("declassify.json"),
        "--tools",
        manifest.to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("tool_unavailable") && stderr.contains("no-such-mcp-server"),
        "the server and why it is unavailable are named: {stderr}"
    );
}

#[test]
fn a_file_that_is_not_a_plan_exits_2() {
    let dir = scratch("not-a-plan");
    let file = dir.join("plan.json");
    std::fs::write(
        &file,
        r#"{"planId": "p", "nodes": [{"id": "x", "kind": "transform"}], "edges": []}"#,
    )
    .unwrap();
    let output = writ(&["plan", "check", file.to_str().unwrap(), "--json"]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("/nodes/0/kind") && stderr.contains("entry, call, reason"),
        "{stderr}"
    );
    let output = writ(&["plan", "digest", dir.join("missing.json").to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(2));
}

#[test]
fn render_states_the_digest() {
    let digest = stdout(&writ(&["plan", "digest", &example("branch.json")]))
        .trim()
        .to_owned();
    let prose = stdout(&writ(&["plan", "render", &example("branch.json"), "--format", "prose"]));
    assert!(prose.contains(&format!("digest: {digest}")), "{prose}");
    assert!(prose.contains("CALL — `notify_owner` — tool send_message"), "{prose}");
    let mermaid = stdout(&writ(&[
        "plan",
        "render",
        &example("branch.json"),
        "--format",
        "mermaid",
    ]));
    assert!(
        mermaid.contains(&digest) && mermaid.contains("flowchart TD"),
        "{mermaid}"
    );
    let rendered = json_out(&writ(&[
        "plan",
        "render",
        &example("branch.json"),
        "--format",
        "mermaid",
        "--json",
    ]));
    assert_eq!(rendered["text"], mermaid.as_str());
    assert_eq!(rendered["digest"], digest.as_str());
    let digested = json_out(&writ(&["plan", "digest", &example("branch.json"), "--json"]));
    assert_eq!(digested["digest"], digest.as_str());
    assert_eq!(digested["planId"], "plan-branch");
}

#[test]
fn the_lifecycle_in_a_store() {
    let dir = scratch("lifecycle");
    let db = dir.join("writ.db");
    let db = db.to_str().unwrap();
    let plan = example("branch.json");

    let imported = writ(&["plan", "import", &plan, "--store", db]);
    assert!(
        imported.status.success(),
        "{}",
        String::from_utf8_lossy(&imported.stderr)
    );
    let id = stdout(&imported).trim().to_owned();
    assert_eq!(id, "plan-branch");
    let again = writ(&["plan", "import", &plan, "--store", db]);
    assert!(!again.status.success(), "a plan id is imported once");

    let frozen = json_out(&writ(&["plan", "freeze", &id, "--store", db, "--json"]));
    assert_eq!(frozen["ok"], true, "{frozen:#}");
    assert_eq!(frozen["state"], "reviewable");
    let digest = frozen["digest"].as_str().unwrap().to_owned();
    assert_eq!(
        digest,
        stdout(&writ(&["plan", "digest", &plan])).trim(),
        "the stored plan digests as its file does"
    );

    let wrong = writ(&[
        "plan",
        "approve",
        &id,
        "--digest",
        &"0".repeat(64),
        "--by",
        "ann",
        "--store",
        db,
    ]);
    assert!(!wrong.status.success(), "an approval at another digest is refused");
    assert!(
        String::from_utf8_lossy(&wrong.stderr).contains("digest"),
        "{}",
        String::from_utf8_lossy(&wrong.stderr)
    );

    let approved = writ(&[
        "plan", "approve", &id, "--digest", &digest, "--by", "ann", "--store", db, "--json",
    ]);
    assert!(
        approved.status.success(),
        "{}",
        String::from_utf8_lossy(&approved.stderr)
    );
    let approved = json_out(&approved);
    assert_eq!(approved["state"], "executable");
    assert_eq!(approved["approval"]["decidedBy"], "ann");
    assert_eq!(
        approved["approval"]["authoritySet"].as_array().unwrap().len(),
        2,
        "{approved:#}"
    );

    let cloned = writ(&["plan", "clone", &id, "--store", db, "--json"]);
    assert!(cloned.status.success(), "{}", String::from_utf8_lossy(&cloned.stderr));
    let clone = json_out(&cloned);
    let clone_id = clone["planId"].as_str().unwrap().to_owned();
    assert_eq!(clone_id, "plan-branch-clone-1");
    assert_eq!(clone["state"], "editable");
    assert_eq!(clone["provenance"]["parent"], "plan-branch");
    assert_eq!(clone["provenance"]["parentDigest"], digest.as_str());
    let clone_frozen = json_out(&writ(&["plan", "freeze", &clone_id, "--store", db, "--json"]));
    assert_eq!(clone_frozen["ok"], true, "a clone can be frozen: {clone_frozen:#}");
    assert_ne!(clone_frozen["digest"], digest.as_str(), "a clone's lineage is digested");

    let unfrozen = json_out(&writ(&["plan", "unfreeze", &clone_id, "--store", db, "--json"]));
    assert_eq!(unfrozen["state"], "editable", "{unfrozen:#}");

    let refused_plan = example("refused/cycle.json");
    let refused_id = stdout(&writ(&["plan", "import", &refused_plan, "--store", db]))
        .trim()
        .to_owned();
    let refused = writ(&["plan", "freeze", &refused_id, "--store", db, "--json"]);
    assert_eq!(refused.status.code(), Some(1));
    let report = json_out(&refused);
    assert_eq!(report["ok"], false);
    assert_eq!(report["state"], "editable");
    assert!(
        report["issues"]
            .as_array()
            .unwrap()
            .iter()
            .any(|issue| issue["code"] == "cycle"),
        "{report:#}"
    );
}

#[test]
fn an_op_log_digests_as_the_plan_it_folds_to() {
    // declassify.ops.json builds declassify.json from two actors' edits, delivered out of
    // order and one of them twice.
    let from_plan = stdout(&writ(&["plan", "digest", &example("declassify.json")]));
    let from_ops = writ(&["plan", "digest", &example("declassify.ops.json"), "--json"]);
    let from_ops = json_out(&from_ops);
    assert_eq!(from_ops["digest"], from_plan.trim());
    assert_eq!(from_ops["revision"], 7, "the op delivered twice is counted once");
    let report = json_out(&writ(&["plan", "check", &example("declassify.ops.json"), "--json"]));
    assert_eq!(report["ok"], true, "{report:#}");
}
