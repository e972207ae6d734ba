//! writ-tools: the tools a plan's `call` nodes reach, behind one trait and one checked toolbox.
//!
//! A [`Tool`] declares a [`ToolSpec`] (a name, a description, an input JSON Schema and an
//! optional output JSON Schema) and answers a [`ToolCall`] (resolved arguments plus the
//! idempotency key the runtime derived) with a JSON value or a [`ToolError`].
//! A [`Toolbox`] holds tools by name with their schemas compiled once; [`Toolbox::call`] checks
//! the arguments before the tool runs (`invalid_args`) and the result after (`invalid_result`),
//! so a tool never sees arguments its schema refuses and a caller never sees a result that
//! breaks its declaration.
//!
//! Tools come from three places:
//! - [`FnTool`]: a closure, for tests, benchmarks and hosts that embed writ;
//! - [`CommandTool`]: an inline command from a tools manifest, run once per call with the
//!   arguments as JSON on stdin and the result read as JSON from stdout;
//! - MCP servers from a tools manifest, started as child processes and spoken to over stdio
//!   with the `rmcp` client ([`Toolbox::from_manifest`]).
//!
//! The manifest format is DESIGN.md's ("Plans and runs"):
//!
//! ```json
//! {"mcpServers": {"fs": {"command": "fs-server", "args": ["--root", "."], "env": {}}},
//!  "tools": {"append_line": {"description": "…", "inputSchema": {…}, "outputSchema": {…},
//!                            "command": ["python3", "tools/append.py"]}}}
//! ```
//!
//! Dropping a call's future cancels the call: a command tool's child is killed, and an MCP
//! request is cancelled. Dropping the [`Toolbox`] stops its MCP servers.
//!
//! # Example
//!
//! ```
//! use std::sync::Arc;
//! use serde_json::json;
//! use writ_tools::{FnTool, ToolCall, ToolSpec, Toolbox};
//!
//! let spec = ToolSpec {
//!     name: "double".into(),
//!     description: "doubles n".into(),
//!     input_schema: json!({"type": "object", "properties": {"n": {"type": "number"}}, "required": ["n"]}),
//!     output_schema: Some(json!({"type": "object", "required": ["n"]})),
//! };
//! let tool = FnTool::new(spec, |call: ToolCall| async move {
//!     let n = call.args["n"].as_f64().unwrap_or(0.0);
//!     Ok(json!({"n": n * 2.0}))
//! });
//! let mut toolbox = Toolbox::new();
//! toolbox.add(Arc::new(tool)).unwrap();
//! let runtime = tokio::runtime::Builder::new_current_thread().build().unwrap();
//! let args = json!({"n": 21}).as_object().unwrap().clone();
//! let call = ToolCall { args, idempotency_key: "k".into() };
//! let answer = runtime.block_on(toolbox.call("double", call)).unwrap();
//! assert_eq!(answer, json!({"n": 42.0}));
//! let refused = runtime.block_on(toolbox.call("double", ToolCall { args: Default::default(), idempotency_key: "k".into() }));
//! assert_eq!(refused.unwrap_err().code(), "invalid_args");
//! ```

#![forbid(unsafe_code)]
#![deny(missing_docs)]

mod command;
mod error;
mod function;
mod manifest;
mod mcp;
mod toolbox;

use std::future::Future;
use std::pin::Pin;

pub use command::{CommandTool, MAX_OUTPUT_BYTES};
pub use error::{ErrorKind, ToolError};
pub use function::FnTool;
pub use toolbox::Toolbox;

/// A boxed, sendable future: what [`Tool::call`] returns.
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// The environment variable a command tool reads its call's idempotency key from.
pub const IDEMPOTENCY_KEY_ENV: &str = "WRIT_IDEMPOTENCY_KEY";

/// The `_meta` key an MCP `tools/call` request carries its idempotency key under.
pub const IDEMPOTENCY_KEY_META: &str = "writ/idempotencyKey";

/// What a tool declares: its name, what it does, and the JSON Schemas of its input and output.
#[derive(Clone, Debug, PartialEq)]
pub struct ToolSpec {
    /// The name calls use.
    pub name: String,
    /// What the tool does, for the operator and the model.
    pub description: String,
    /// The JSON Schema every call's arguments (an object) must match.
    pub input_schema: serde_json::Value,
    /// The JSON Schema every result must match; `None` accepts any JSON value.
    pub output_schema: Option<serde_json::Value>,
}

/// One call: the arguments, already resolved, and the idempotency key the runtime derived.
#[derive(Clone, Debug, PartialEq)]
pub struct ToolCall {
    /// The arguments, as the tool's input schema describes them.
    pub args: serde_json::Map<String, serde_json::Value>,
    /// The same for every attempt of the same call of the same run, so a tool can make a
    /// repeated attempt a no-op.
    pub idempotency_key: String,
}

/// A tool: a declaration and a way to call it.
pub trait Tool: Send + Sync {
    /// What the tool declares.
    fn spec(&self) -> &ToolSpec;

    /// Calls the tool. Dropping the returned future cancels the call (a command tool's child
    /// is killed).
    ///
    /// # Errors
    ///
    /// `tool_failed` when the tool ran and failed, `tool_unavailable` when it could not be
    /// reached; the [`Toolbox`] adds `invalid_args` and `invalid_result` around it.
    fn call(&self, call: ToolCall) -> BoxFuture<'_, Result<serde_json::Value, ToolError>>;
}
