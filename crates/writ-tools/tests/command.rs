//! Inline command tools from a manifest, through the Toolbox: results, failures, schema
//! refusals on both sides, the idempotency key, bounded output and cancellation.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use writ_tools::{FnTool, ToolCall, ToolError, ToolSpec, Toolbox};

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("writ-tools-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap()
}

/// A manifest with one inline tool named `t` running `sh -c script`.
fn sh_tool(script: &str, input_schema: Value, output_schema: Option<Value>) -> Value {
    let mut tool = json!({
        "description": "a test tool",
        "inputSchema": input_schema,
        "command": ["sh", "-c", script],
    });
    if let Some(schema) = output_schema {
        tool["outputSchema"] = schema;
    }
    json!({"tools": {"t": tool}})
}

fn any_object() -> Value {
    json!({"type": "object"})
}

fn call(args: Value, key: &str) -> ToolCall {
    ToolCall {
        args: args.as_object().unwrap().clone(),
        idempotency_key: key.to_string(),
    }
}

fn run_one(manifest: &Value, dir: &Path, args: Value) -> Result<Value, ToolError> {
    runtime().block_on(async {
        let toolbox = Toolbox::from_manifest(manifest, dir).await?;
        toolbox.call("t", call(args, "run-1/frame-2/abc")).await
    })
}

#[test]
fn a_command_reads_its_arguments_and_key_and_answers_json() {
    let dir = scratch("echo");
    let manifest = sh_tool(
        r#"input=$(cat); printf '{"got": %s, "key": "%s"}' "$input" "$WRIT_IDEMPOTENCY_KEY""#,
        any_object(),
        None,
    );
    let answer = run_one(&manifest, &dir, json!({"dir": "/reports/q3", "n": 2})).unwrap();
    assert_eq!(
        answer,
        json!({"got": {"dir": "/reports/q3", "n": 2}, "key": "run-1/frame-2/abc"})
    );
}

#[test]
fn a_non_zero_exit_fails_with_the_end_of_stderr() {
    let dir = scratch("exit");
    let manifest = sh_tool("echo 'disk quota exceeded' >&2; exit 3", any_object(), None);
    let error = run_one(&manifest, &dir, json!({})).unwrap_err();
    assert_eq!(error.code(), "tool_failed");
    assert!(error.message().contains("status 3"), "{error}");
    assert!(error.message().contains("disk quota exceeded"), "{error}");
}

#[test]
fn output_that_is_not_json_fails_and_says_so() {
    let dir = scratch("not-json");
    let manifest = sh_tool("echo 'all done!'", any_object(), None);
    let error = run_one(&manifest, &dir, json!({})).unwrap_err();
    assert_eq!(error.code(), "tool_failed");
    assert!(error.message().contains("not JSON"), "{error}");
    assert!(error.message().contains("all done!"), "{error}");
}

#[test]
fn arguments_the_schema_refuses_never_reach_the_command() {
    let dir = scratch("refuse-args");
    let marker = dir.join("ran");
    let manifest = sh_tool(
        "touch ran; echo '{}'",
        json!({"type": "object", "properties": {"dir": {"type": "string"}}, "required": ["dir"]}),
        None,
    );
    let runtime = runtime();
    runtime.block_on(async {
        let toolbox = Toolbox::from_manifest(&manifest, &dir).await.unwrap();
        let error = toolbox.call("t", call(json!({"dir": 7}), "k")).await.unwrap_err();
        assert_eq!(error.code(), "invalid_args");
        assert!(error.message().contains("/dir"), "the message names the field: {error}");
        assert!(!marker.exists(), "the command ran although its arguments were refused");
        // The same tool with arguments it accepts does run, so the check above can fail.
        toolbox.call("t", call(json!({"dir": "/q3"}), "k")).await.unwrap();
        assert!(marker.exists(), "the command did not run with accepted arguments");
    });
}

#[test]
fn a_result_the_output_schema_refuses_is_invalid_result() {
    let dir = scratch("refuse-result");
    let schema = json!({"type": "object", "properties": {"count": {"type": "number"}}, "required": ["count"]});
    let manifest = sh_tool(r#"echo '{"count": "three"}'"#, any_object(), Some(schema.clone()));
    let error = run_one(&manifest, &dir, json!({})).unwrap_err();
    assert_eq!(error.code(), "invalid_result");
    assert!(error.message().contains("/count"), "{error}");
    let manifest = sh_tool(r#"echo '{"count": 3}'"#, any_object(), Some(schema));
    assert_eq!(run_one(&manifest, &dir, json!({})).unwrap(), json!({"count": 3}));
}

#[test]
fn stdout_past_the_bound_is_refused() {
    let dir = scratch("flood");
    let manifest = sh_tool("head -c 17000000 /dev/zero", any_object(), None);
    let error = run_one(&manifest, &dir, json!({})).unwrap_err();
    assert_eq!(error.code(), "tool_failed");
    assert!(error.message().contains("more than 16 MiB on stdout"), "{error}");
}

#[test]
fn a_relative_program_path_resolves_against_the_base_dir() {
    let dir = scratch("relative");
    std::fs::create_dir_all(dir.join("bin")).unwrap();
    let script = dir.join("bin/answer.sh");
    std::fs::write(&script, "#!/bin/sh\ncat >/dev/null\necho '{\"answer\": 42}'\n").unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let manifest = json!({"tools": {"t": {"inputSchema": any_object(), "command": ["bin/answer.sh"]}}});
    assert_eq!(run_one(&manifest, &dir, json!({})).unwrap(), json!({"answer": 42}));
}

#[test]
fn a_command_that_does_not_exist_is_unavailable() {
    let dir = scratch("missing");
    let manifest = json!({"tools": {"t": {"inputSchema": any_object(), "command": ["bin/no-such-tool"]}}});
    let error = run_one(&manifest, &dir, json!({})).unwrap_err();
    assert_eq!(error.code(), "tool_unavailable");
    assert!(error.message().contains("no-such-tool"), "{error}");
}

/// Whether `pid` names a process that is still running (a zombie has stopped).
fn running(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => stat.rsplit_once(") ").is_some_and(|(_, rest)| !rest.starts_with('Z')),
        Err(_) => false,
    }
}

#[test]
fn cancelling_a_call_kills_its_child() {
    let dir = scratch("cancel");
    let manifest = sh_tool("echo $$ > pid; exec sleep 600", any_object(), None);
    let runtime = runtime();
    runtime.block_on(async {
        let toolbox = Arc::new(Toolbox::from_manifest(&manifest, &dir).await.unwrap());
        let calling = {
            let toolbox = toolbox.clone();
            tokio::spawn(async move { toolbox.call("t", call(json!({}), "k")).await })
        };
        let pid_file = dir.join("pid");
        let started = Instant::now();
        let pid: u32 = loop {
            if let Some(pid) = std::fs::read_to_string(&pid_file)
                .ok()
                .and_then(|text| text.trim().parse().ok())
            {
                break pid;
            }
            assert!(started.elapsed() < Duration::from_secs(30), "the command never started");
            tokio::time::sleep(Duration::from_millis(10)).await;
        };
        assert!(running(pid), "the child is running while the call waits");
        calling.abort();
        assert!(calling.await.unwrap_err().is_cancelled());
        let stopped = Instant::now();
        while running(pid) {
            assert!(
                stopped.elapsed() < Duration::from_secs(30),
                "the child {pid} outlived its cancelled call"
            );
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    });
}

#[test]
fn the_manifest_is_checked_field_by_field() {
    let dir = scratch("manifest");
    let cases = [
        (json!([]), "manifest_invalid", "JSON object"),
        (json!({"tool": {}}), "manifest_invalid", "unknown field \"tool\""),
        (
            json!({"tools": {"t": {"command": ["true"]}}}),
            "manifest_invalid",
            "inputSchema",
        ),
        (
            json!({"tools": {"t": {"inputSchema": any_object(), "command": []}}}),
            "manifest_invalid",
            "non-empty array",
        ),
        (
            json!({"tools": {"t": {"inputSchema": any_object(), "command": ["true"], "timeout": 5}}}),
            "manifest_invalid",
            "unknown field \"timeout\"",
        ),
        (
            json!({"tools": {"t": {"inputSchema": any_object(), "command": ["true"], "env": {"A": 1}}}}),
            "manifest_invalid",
            "\"A\"",
        ),
        (
            json!({"tools": {"t": {"inputSchema": {"type": "no-such-type"}, "command": ["true"]}}}),
            "invalid_schema",
            "input schema of \"t\"",
        ),
    ];
    let runtime = runtime();
    for (manifest, code, words) in cases {
        let error = runtime.block_on(Toolbox::from_manifest(&manifest, &dir)).unwrap_err();
        assert_eq!(error.code(), code, "{manifest}: {error}");
        assert!(error.message().contains(words), "{manifest}: {error}");
    }
}

fn fn_tool(name: &str) -> Arc<FnTool> {
    let spec = ToolSpec {
        name: name.to_string(),
        description: String::new(),
        input_schema: any_object(),
        output_schema: None,
    };
    Arc::new(FnTool::new(spec, |call: ToolCall| async move {
        Ok(json!({"key": call.idempotency_key}))
    }))
}

#[test]
fn names_are_unique_and_an_unknown_name_offers_the_closest() {
    let mut toolbox = Toolbox::new();
    toolbox.add(fn_tool("list_files")).unwrap();
    toolbox.add(fn_tool("read_file")).unwrap();
    let error = toolbox.add(fn_tool("read_file")).unwrap_err();
    assert_eq!(error.code(), "duplicate_tool");
    assert_eq!(toolbox.names().collect::<Vec<_>>(), ["list_files", "read_file"]);
    assert_eq!(toolbox.spec("read_file").unwrap().name, "read_file");
    assert!(toolbox.spec("write_file").is_none());
    let runtime = runtime();
    let error = runtime
        .block_on(toolbox.call("list_file", call(json!({}), "k")))
        .unwrap_err();
    assert_eq!(error.code(), "unknown_tool");
    assert!(error.message().contains("did you mean \"list_files\""), "{error}");
    let answer = runtime
        .block_on(toolbox.call("read_file", call(json!({}), "key-9")))
        .unwrap();
    assert_eq!(answer, json!({"key": "key-9"}));
}
