//! MCP servers over stdio: start a server as a child process, list its tools, call them.
//!
//! writ spawns the child itself (tokio's `Command` with `kill_on_drop`) and hands its stdout
//! and stdin to the `rmcp` client as the transport, rather than using rmcp's
//! `TokioChildProcess`: that type kills its child from a task it spawns on drop, which panics
//! when the last handle is dropped outside a tokio runtime, and it pulls in `process-wrap`.
//! Here the child dies with the [`Server`], wherever that is dropped.
//!
//! A call's idempotency key travels in the `tools/call` request's `_meta`, under
//! [`crate::IDEMPOTENCY_KEY_META`]; a server that does not read it ignores it.

use std::collections::VecDeque;
use std::path::Path;
use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rmcp::model::{
    CallToolRequestParams, CallToolResult, ClientCapabilities, ClientConfig, ContentBlock, Implementation, MetaObject,
    RequestMetaObject,
};
use rmcp::service::{Peer, RoleClient, RunningService, ServiceError, ServiceExt};
use serde_json::{Map, Value};
use tokio::io::AsyncReadExt;
use tokio::process::{Child, Command};

use crate::manifest::{invalid, program_path, string_map};
use crate::{BoxFuture, IDEMPOTENCY_KEY_META, Tool, ToolCall, ToolError, ToolSpec};

/// How long a server may take to start, answer `initialize` and list its tools.
const STARTUP_TIMEOUT: Duration = Duration::from_secs(30);

/// How much of a server's stderr is kept, to explain why it stopped.
const STDERR_TAIL_BYTES: usize = 2048;

/// A running MCP server: the client session and the child process it speaks to.
///
/// Dropping it cancels the session and kills the child.
pub(crate) struct Server {
    name: String,
    peer: Peer<RoleClient>,
    // Held for its drop: dropping the session cancels its loop and closes the pipes.
    _session: RunningService<RoleClient, ClientConfig>,
    child: Mutex<Child>,
    stderr: Arc<Mutex<VecDeque<u8>>>,
}

/// A tool an MCP server listed.
pub(crate) struct McpTool {
    spec: ToolSpec,
    /// The name the server knows it by (the spec's may carry a `server.` prefix).
    remote_name: String,
    server: Arc<Server>,
}

/// Starts the server `name` as `config` describes and lists its tools.
///
/// # Errors
///
/// `manifest_invalid` for a field that does not fit; `tool_unavailable` when the server does
/// not start, does not initialise, or does not list its tools within [`STARTUP_TIMEOUT`].
pub(crate) async fn start(
    name: &str,
    config: &Value,
    base_dir: &Path,
) -> Result<(Arc<Server>, Vec<ToolSpec>), ToolError> {
    let at = format!("MCP server \"{name}\"");
    let Value::Object(config) = config else {
        return Err(invalid(format!(
            "{at} is not an object: {{\"command\", \"args\"?, \"env\"?}}"
        )));
    };
    const FIELDS: [&str; 4] = ["command", "args", "env", "type"];
    if let Some(key) = config.keys().find(|key| !FIELDS.contains(&key.as_str())) {
        return Err(invalid(format!(
            "{at} has an unknown field \"{key}\"; its fields are command, args, env and type (\"stdio\")"
        )));
    }
    if let Some(kind) = config.get("type").filter(|kind| kind.as_str() != Some("stdio")) {
        return Err(invalid(format!(
            "{at} has \"type\": {kind}; writ starts stdio servers only, so write \"stdio\" or leave it out"
        )));
    }
    let Some(Value::String(command)) = config
        .get("command")
        .filter(|command| command.as_str().is_some_and(|c| !c.is_empty()))
    else {
        return Err(invalid(format!("{at}: \"command\" is the program to start, a string")));
    };
    let args = match config.get("args") {
        None => Vec::new(),
        Some(Value::Array(items)) => items
            .iter()
            .map(|item| item.as_str().map(str::to_string))
            .collect::<Option<Vec<String>>>()
            .ok_or_else(|| invalid(format!("{at}: \"args\" is an array of strings")))?,
        Some(_) => return Err(invalid(format!("{at}: \"args\" is an array of strings"))),
    };
    let env = string_map(config.get("env"), &format!("{at}: \"env\""))?;
    let program = program_path(command, base_dir);
    let mut child = Command::new(&program)
        .args(&args)
        .envs(&env)
        .current_dir(base_dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .map_err(|error| {
            ToolError::unavailable(format!(
                "{at} cannot start ({}): {error}; check the manifest's \"command\"",
                program.display()
            ))
        })?;
    let stderr = Arc::new(Mutex::new(VecDeque::new()));
    let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
        return Err(ToolError::unavailable(format!("the pipes to {at} were not set up")));
    };
    let reading_stderr = child
        .stderr
        .take()
        .map(|pipe| tokio::spawn(keep_tail(pipe, stderr.clone())));
    let info = ClientConfig::new(
        ClientCapabilities::default(),
        Implementation::new("writ", env!("CARGO_PKG_VERSION")),
    );
    let connect = async {
        let session = info
            .serve((stdout, stdin))
            .await
            .map_err(|error| format!("it did not complete MCP's initialize: {error}"))?;
        let tools = session
            .peer()
            .list_all_tools()
            .await
            .map_err(|error| format!("it did not answer tools/list: {error}"))?;
        Ok::<_, String>((session, tools))
    };
    let outcome = tokio::time::timeout(STARTUP_TIMEOUT, connect).await;
    let reason = match outcome {
        Ok(Ok(connected)) => Ok(connected),
        Ok(Err(reason)) => Err(reason),
        Err(_) => Err(format!(
            "it did not initialise and list its tools within {} s",
            STARTUP_TIMEOUT.as_secs()
        )),
    };
    let (session, tools) = match reason {
        Ok(connected) => connected,
        Err(reason) => {
            // Stop the server, and let its stderr be read to the end: it says why it failed.
            let _ = child.start_kill();
            if let Some(reading) = reading_stderr {
                let _ = tokio::time::timeout(Duration::from_secs(2), reading).await;
            }
            return Err(ToolError::unavailable(format!(
                "{at} ({}) started, but {reason}; it was stopped{}",
                program.display(),
                tail_text(&stderr)
            )));
        }
    };
    let specs = tools
        .into_iter()
        .map(|tool| ToolSpec {
            name: tool.name.to_string(),
            description: tool.description.map(|text| text.to_string()).unwrap_or_default(),
            input_schema: Value::Object(Map::clone(&tool.input_schema)),
            output_schema: tool.output_schema.map(|schema| Value::Object(Map::clone(&schema))),
        })
        .collect();
    let server = Server {
        name: name.to_string(),
        peer: session.peer().clone(),
        _session: session,
        child: Mutex::new(child),
        stderr,
    };
    Ok((Arc::new(server), specs))
}

impl McpTool {
    /// The tool `spec` of `server`, known to the server as `remote_name`.
    pub(crate) fn new(spec: ToolSpec, remote_name: String, server: Arc<Server>) -> McpTool {
        McpTool {
            spec,
            remote_name,
            server,
        }
    }

    async fn run(&self, call: ToolCall) -> Result<Value, ToolError> {
        let mut params = CallToolRequestParams::new(self.remote_name.clone());
        params.arguments = Some(call.args);
        let mut meta = Map::new();
        meta.insert(IDEMPOTENCY_KEY_META.to_string(), Value::String(call.idempotency_key));
        params.meta = Some(RequestMetaObject(MetaObject::from(meta)));
        match self.server.peer.call_tool(params).await {
            Ok(result) => self.convert(result),
            Err(ServiceError::McpError(error)) => Err(ToolError::failed(format!(
                "MCP server \"{}\" refused the call of \"{}\": {} (JSON-RPC error {})",
                self.server.name, self.remote_name, error.message, error.code.0
            ))),
            Err(ServiceError::UnexpectedResponse) => Err(ToolError::failed(format!(
                "MCP server \"{}\" answered the call of \"{}\" with something other than a tool result \
                 (an input request or a task, which writ does not take)",
                self.server.name, self.remote_name
            ))),
            Err(error) => Err(ToolError::unavailable(format!(
                "MCP server \"{}\" is not reachable ({error}){}{}; the call of \"{}\" may or may not have run",
                self.server.name,
                self.server.exit_note(),
                tail_text(&self.server.stderr),
                self.remote_name
            ))),
        }
    }

    /// The JSON a result stands for: `structuredContent` when present; otherwise the text of a
    /// single text block, parsed as JSON when it parses and as a string when not; `null` for no
    /// content; an array of such values for several text blocks. An error result fails.
    fn convert(&self, result: CallToolResult) -> Result<Value, ToolError> {
        let texts = result
            .content
            .iter()
            .map(|block| match block {
                ContentBlock::Text(text) => Ok(text.text.as_str()),
                _ => Err(()),
            })
            .collect::<Result<Vec<&str>, ()>>();
        if result.is_error == Some(true) {
            let text = match &texts {
                Ok(texts) if !texts.is_empty() => texts.join("\n"),
                _ => result
                    .structured_content
                    .as_ref()
                    .map(Value::to_string)
                    .unwrap_or_else(|| "(no message)".to_string()),
            };
            return Err(ToolError::failed(format!(
                "tool \"{}\" of MCP server \"{}\" failed: {text}",
                self.remote_name, self.server.name
            )));
        }
        if let Some(value) = result.structured_content {
            return Ok(value);
        }
        let Ok(texts) = texts else {
            return Err(ToolError::failed(format!(
                "tool \"{}\" of MCP server \"{}\" answered content that is not text (an image, audio or a resource), \
                 which a plan cannot read; have it answer JSON or text",
                self.remote_name, self.server.name
            )));
        };
        let value = |text: &str| serde_json::from_str(text).unwrap_or_else(|_| Value::String(text.to_string()));
        Ok(match texts.as_slice() {
            [] => Value::Null,
            [text] => value(text),
            texts => Value::Array(texts.iter().map(|text| value(text)).collect()),
        })
    }
}

impl Tool for McpTool {
    fn spec(&self) -> &ToolSpec {
        &self.spec
    }

    fn call(&self, call: ToolCall) -> BoxFuture<'_, Result<Value, ToolError>> {
        Box::pin(self.run(call))
    }
}

impl Server {
    /// "; it exited with status N" when the child has exited, or nothing.
    fn exit_note(&self) -> String {
        let Ok(mut child) = self.child.lock() else {
            return String::new();
        };
        match child.try_wait() {
            Ok(Some(status)) => format!("; it exited ({status})"),
            _ => String::new(),
        }
    }
}

/// Reads `pipe` to its end, keeping only its last [`STDERR_TAIL_BYTES`].
async fn keep_tail(mut pipe: impl tokio::io::AsyncRead + Unpin, tail: Arc<Mutex<VecDeque<u8>>>) {
    let mut buffer = [0u8; 4096];
    while let Ok(n_read) = pipe.read(&mut buffer).await {
        if n_read == 0 {
            break;
        }
        let Ok(mut tail) = tail.lock() else { break };
        tail.extend(&buffer[..n_read]);
        let excess = tail.len().saturating_sub(STDERR_TAIL_BYTES);
        tail.drain(..excess);
    }
}

/// "; its stderr ends: …" or nothing when the server wrote nothing there.
fn tail_text(tail: &Mutex<VecDeque<u8>>) -> String {
    let Ok(tail) = tail.lock() else {
        return String::new();
    };
    let bytes: Vec<u8> = tail.iter().copied().collect();
    let text = String::from_utf8_lossy(&bytes);
    let text = text.trim();
    if text.is_empty() {
        String::new()
    } else {
        format!("; its stderr ends: {text}")
    }
}
