//! The demo server through writ-tools' MCP client: listing, calls, failures, refusals,
//! idempotency keys in `_meta`, a server that dies, name clashes, and shutdown on drop.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use writ_tools::{ToolCall, ToolError, Toolbox};

const SERVER: &str = env!("CARGO_BIN_EXE_writ-demo-tools");

/// A fresh copy of examples/demo-root, so calls that write leave the committed one alone.
fn demo_root(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("writ-demo-tools-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    copy(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../demo-root"), &dir);
    dir
}

fn copy(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap()
}

fn server(root: &Path) -> Value {
    json!({"command": SERVER, "args": ["--root", root.to_str().unwrap()]})
}

/// The server started through `sh`, which writes its pid to `pid_file` and then becomes it.
fn server_with_pid(root: &Path, pid_file: &Path) -> Value {
    let script = format!(
        "echo $$ > '{}'; exec '{SERVER}' --root '{}'",
        pid_file.display(),
        root.display()
    );
    json!({"command": "sh", "args": ["-c", script]})
}

fn call(args: Value, key: &str) -> ToolCall {
    ToolCall {
        args: args.as_object().unwrap().clone(),
        idempotency_key: key.to_string(),
    }
}

async fn demo_toolbox(root: &Path) -> Toolbox {
    Toolbox::from_manifest(&json!({"mcpServers": {"demo": server(root)}}), root)
        .await
        .unwrap()
}

#[test]
fn the_server_lists_its_tools_with_their_schemas() {
    let root = demo_root("list");
    runtime().block_on(async {
        let toolbox = demo_toolbox(&root).await;
        assert_eq!(
            toolbox.names().collect::<Vec<_>>(),
            [
                "append_line",
                "classify_ticket",
                "list_files",
                "read_file",
                "resolve_path",
                "send_message"
            ]
        );
        let spec = toolbox.spec("list_files").unwrap();
        assert_eq!(spec.input_schema["required"], json!(["dir"]));
        let output = spec.output_schema.as_ref().expect("list_files declares its output");
        assert_eq!(output["properties"]["count"]["type"], "integer");
        assert_eq!(output["properties"]["names"]["type"], "string");
        let output = toolbox.spec("classify_ticket").unwrap().output_schema.as_ref().unwrap();
        assert_eq!(
            output["properties"]["severity"]["enum"],
            json!(["low", "high", "critical"])
        );
    });
}

#[test]
fn calls_answer_the_fields_the_example_plans_read() {
    let root = demo_root("call");
    runtime().block_on(async {
        let toolbox = demo_toolbox(&root).await;
        let listed = toolbox
            .call("list_files", call(json!({"dir": "/reports/q3"}), "k1"))
            .await
            .unwrap();
        assert_eq!(listed["count"], 2);
        assert_eq!(listed["names"], "costs.csv, sales.csv");
        let read = toolbox
            .call("read_file", call(json!({"path": "/reports/q3/sales.csv"}), "k2"))
            .await
            .unwrap();
        assert!(
            read["text"].as_str().unwrap().starts_with("region,month,revenue\n"),
            "{read}"
        );
        let resolved = toolbox
            .call("resolve_path", call(json!({"path": "q3", "root": "/reports"}), "k3"))
            .await
            .unwrap();
        assert_eq!(
            resolved,
            json!({"path": "/reports/q3", "requested": "q3", "kind": "directory"})
        );
        let ticket = toolbox
            .call("classify_ticket", call(json!({"queue": "support"}), "k4"))
            .await
            .unwrap();
        assert_eq!(ticket["severity"], "critical");
        assert_eq!(ticket["keyword"], "down");
        let appended = toolbox
            .call(
                "append_line",
                call(json!({"file": "/queues/high.txt", "line": "ticket 7"}), "k5"),
            )
            .await
            .unwrap();
        assert_eq!(appended["file"], "/queues/high.txt");
        assert_eq!(
            std::fs::read_to_string(root.join("queues/high.txt")).unwrap(),
            "ticket 7\n"
        );
    });
}

#[test]
fn a_failing_tool_is_tool_failed_with_its_words() {
    let root = demo_root("is-error");
    runtime().block_on(async {
        let toolbox = demo_toolbox(&root).await;
        let error = toolbox
            .call("read_file", call(json!({"path": "/reports/q3/forecast.csv"}), "k"))
            .await
            .unwrap_err();
        assert_eq!(error.code(), "tool_failed");
        assert!(error.message().contains("/reports/q3/forecast.csv"), "{error}");
    });
}

#[test]
fn paths_that_escape_the_root_are_refused() {
    let root = demo_root("escape");
    let outside = root.with_file_name(format!("{}-secret.txt", root.file_name().unwrap().to_str().unwrap()));
    std::fs::write(&outside, "secret").unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink(&outside, root.join("reports/link.txt")).unwrap();
    runtime().block_on(async {
        let toolbox = demo_toolbox(&root).await;
        let escape = format!("/reports/../../{}", outside.file_name().unwrap().to_str().unwrap());
        let error = toolbox
            .call("read_file", call(json!({"path": escape}), "k"))
            .await
            .unwrap_err();
        assert_eq!(error.code(), "tool_failed");
        assert!(error.message().contains("\"..\""), "{error}");
        #[cfg(unix)]
        {
            let error = toolbox
                .call("read_file", call(json!({"path": "/reports/link.txt"}), "k"))
                .await
                .unwrap_err();
            assert!(error.message().contains("outside the served directory"), "{error}");
        }
        let error = toolbox
            .call(
                "resolve_path",
                call(json!({"path": "/tickets", "root": "/reports"}), "k"),
            )
            .await
            .unwrap_err();
        assert!(error.message().contains("outside /reports"), "{error}");
        // The same tools inside the root answer, so the refusals above are about the paths.
        toolbox
            .call("read_file", call(json!({"path": "/reports/q3/costs.csv"}), "k"))
            .await
            .unwrap();
    });
}

#[test]
fn arguments_the_listed_schema_refuses_are_not_sent() {
    let root = demo_root("args");
    runtime().block_on(async {
        let toolbox = demo_toolbox(&root).await;
        let error = toolbox
            .call("send_message", call(json!({"to": "ops", "text": 7}), "k"))
            .await
            .unwrap_err();
        assert_eq!(error.code(), "invalid_args");
        assert!(!root.join("outbox.jsonl").exists(), "the message was sent anyway");
    });
}

#[test]
fn the_idempotency_key_reaches_the_server() {
    let root = demo_root("key");
    runtime().block_on(async {
        let toolbox = demo_toolbox(&root).await;
        let message = json!({"to": "ops@example.com", "text": "No Q3 reports were found."});
        let first = toolbox
            .call("send_message", call(message.clone(), "run-1/notify"))
            .await
            .unwrap();
        let again = toolbox
            .call("send_message", call(message.clone(), "run-1/notify"))
            .await
            .unwrap();
        assert_eq!(first["repeated"], false);
        assert_eq!(again["repeated"], true, "the server saw the same key: {again}");
        assert_eq!(again["id"], first["id"]);
        let other = toolbox
            .call("send_message", call(message, "run-2/notify"))
            .await
            .unwrap();
        assert_eq!(other["repeated"], false);
        let outbox = std::fs::read_to_string(root.join("outbox.jsonl")).unwrap();
        assert_eq!(outbox.lines().count(), 2, "{outbox}");
    });
}

fn read_pid(pid_file: &Path) -> u32 {
    let started = Instant::now();
    loop {
        if let Some(pid) = std::fs::read_to_string(pid_file)
            .ok()
            .and_then(|text| text.trim().parse().ok())
        {
            return pid;
        }
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "the server never wrote its pid"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Whether `pid` names a process that is still running (a zombie has stopped).
fn running(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => stat.rsplit_once(") ").is_some_and(|(_, rest)| !rest.starts_with('Z')),
        Err(_) => false,
    }
}

fn wait_until_stopped(pid: u32, what: &str) {
    let started = Instant::now();
    while running(pid) {
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "{what}: process {pid} is still running"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
}

#[test]
fn a_server_that_dies_is_tool_unavailable() {
    let root = demo_root("dies");
    let pid_file = root.join("server.pid");
    runtime().block_on(async {
        let manifest = json!({"mcpServers": {"demo": server_with_pid(&root, &pid_file)}});
        let toolbox = Toolbox::from_manifest(&manifest, &root).await.unwrap();
        toolbox
            .call("list_files", call(json!({"dir": "/"}), "k"))
            .await
            .unwrap();
        let pid = read_pid(&pid_file);
        let killed = std::process::Command::new("kill")
            .args(["-9", &pid.to_string()])
            .status()
            .unwrap();
        assert!(killed.success());
        let error: ToolError = toolbox
            .call("list_files", call(json!({"dir": "/"}), "k"))
            .await
            .unwrap_err();
        assert_eq!(error.code(), "tool_unavailable", "{error}");
        assert!(error.message().contains("\"demo\""), "{error}");
    });
}

#[test]
fn dropping_the_toolbox_stops_its_servers() {
    let root = demo_root("drop");
    let pid_file = root.join("server.pid");
    let runtime = runtime();
    let toolbox = runtime.block_on(async {
        let manifest = json!({"mcpServers": {"demo": server_with_pid(&root, &pid_file)}});
        Toolbox::from_manifest(&manifest, &root).await.unwrap()
    });
    let pid = read_pid(&pid_file);
    assert!(running(pid));
    drop(toolbox);
    wait_until_stopped(pid, "after the toolbox was dropped");
}

#[test]
fn clashing_names_are_prefixed_with_their_server() {
    let root = demo_root("clash");
    runtime().block_on(async {
        let manifest = json!({
            "mcpServers": {"left": server(&root), "right": server(&root)},
            "tools": {"send_message": {"inputSchema": {"type": "object"}, "command": ["sh", "-c", "cat >/dev/null; echo '{\"inline\": true}'"]}},
        });
        let toolbox = Toolbox::from_manifest(&manifest, &root).await.unwrap();
        let names: Vec<&str> = toolbox.names().collect();
        assert!(names.contains(&"left.list_files") && names.contains(&"right.list_files"), "{names:?}");
        assert!(!names.contains(&"list_files"), "{names:?}");
        assert!(names.contains(&"send_message") && names.contains(&"left.send_message"), "{names:?}");
        assert_eq!(names.len(), 13, "{names:?}");
        let listed = toolbox.call("right.list_files", call(json!({"dir": "/reports/q3"}), "k")).await.unwrap();
        assert_eq!(listed["count"], 2);
        let inline = toolbox.call("send_message", call(json!({}), "k")).await.unwrap();
        assert_eq!(inline, json!({"inline": true}));

        let one = json!({"mcpServers": {"demo": server(&root)}});
        let toolbox = Toolbox::from_manifest(&one, &root).await.unwrap();
        assert!(toolbox.names().all(|name| !name.contains('.')), "one server's names stay bare");
    });
}

#[test]
fn a_server_that_cannot_start_is_unavailable() {
    let root = demo_root("no-server");
    runtime().block_on(async {
        let manifest = json!({"mcpServers": {"demo": {"command": "./no-such-server"}}});
        let error = Toolbox::from_manifest(&manifest, &root).await.unwrap_err();
        assert_eq!(error.code(), "tool_unavailable");
        assert!(error.message().contains("no-such-server"), "{error}");
        // A server that starts and exits at once never initialises.
        let manifest = json!({"mcpServers": {"demo": {"command": SERVER, "args": ["--root", "/no/such/dir"]}}});
        let error = Toolbox::from_manifest(&manifest, &root).await.unwrap_err();
        assert_eq!(error.code(), "tool_unavailable");
        assert!(
            error.message().contains("cannot serve /no/such/dir"),
            "the server's stderr is quoted: {error}"
        );
    });
}
