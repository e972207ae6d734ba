//! The example triage workflow (examples/workflows/triage.json) against this server, through
//! writ-flow's connections: a critical ticket pages on-call with a model-written report, a high
//! one tells support, a low one is left alone.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde_json::{Value, json};
use writ_flow::{Connections, Output, RunOptions, Workflow, Workflows};

const SERVER: &str = env!("CARGO_BIN_EXE_writ-demo-tools");

fn examples() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// A scratch root with one ticket queue, so the messages sent land outside the repository.
fn root_with(ticket: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("writ-flow-triage-{}-{}", std::process::id(), ticket.len()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("tickets")).unwrap();
    std::fs::write(dir.join("tickets/support.txt"), format!("an older ticket\n{ticket}\n")).unwrap();
    dir
}

fn triage(ticket: &str) -> (Value, Vec<Value>) {
    let root = root_with(ticket);
    let document =
        writ_core::parse_json(&std::fs::read_to_string(examples().join("workflows/triage.json")).unwrap()).unwrap();
    let workflow = Workflow::parse(&document).expect("the example is valid");
    let model_file: Value =
        serde_json::from_str(&std::fs::read_to_string(examples().join("workflows/triage-model.json")).unwrap())
            .unwrap();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let manifest = json!({"mcpServers": {"demo": {"command": SERVER, "args": ["--root", root.to_str().unwrap()]}}});
    let connections = runtime
        .block_on(Connections::from_manifest(&manifest, &root, runtime.handle().clone()))
        .expect("the demo server starts");
    let connections = connections.with_model(writ_model::model_from_file(&model_file).unwrap());
    let options = RunOptions {
        effects: Arc::new(connections),
        ..RunOptions::default()
    };
    let output = writ_flow::run(
        &workflow,
        &Workflows::new(),
        Output::text_output(r#"{"queue": "support"}"#),
        &options,
    )
    .expect("the triage runs");
    drop(options);
    let outbox: Vec<Value> = std::fs::read_to_string(root.join("outbox.jsonl"))
        .unwrap_or_default()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    let _ = std::fs::remove_dir_all(&root);
    (serde_json::from_str(&output.text().to_string_lossy()).unwrap(), outbox)
}

#[test]
fn a_critical_ticket_pages_on_call_with_the_model_s_report() {
    let (output, outbox) = triage("Checkout is down for every EU customer since 09:10");
    assert_eq!(
        output,
        json!({"status": "escalated", "message": "msg-1", "severity": "critical"})
    );
    assert_eq!(outbox.len(), 1);
    assert_eq!(outbox[0]["to"], "oncall@example.com");
    assert_eq!(
        outbox[0]["text"],
        "INCIDENT: Checkout is down for EU customers. (ticket: Checkout is down for every EU customer since 09:10)"
    );
}

#[test]
fn a_high_ticket_tells_support_and_a_low_one_sends_nothing() {
    let (output, outbox) = triage("Export to CSV fails with an error");
    assert_eq!(
        output,
        json!({"status": "notified", "message": "msg-1", "severity": "high"})
    );
    assert_eq!(outbox[0]["to"], "support@example.com");
    let (output, outbox) = triage("Please add a dark theme");
    assert_eq!(output, json!({"status": "ok", "severity": "low"}));
    assert!(outbox.is_empty());
}
