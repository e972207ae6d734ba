//! writ-demo-tools: an MCP server (stdio) of demo tools over one directory, for writ's example
//! plans.
//!
//! ```text
//! writ-demo-tools --root DIR
//! ```
//!
//! Tools: `list_files`, `read_file`, `resolve_path`, `append_line`, `send_message` and
//! `classify_ticket` (see `tools.rs`). Each declares its input and output JSON Schema in
//! `tools/list` and answers with `structuredContent`; a failure is a result with `isError`.
//! The idempotency key writ sends in a `tools/call` request's `_meta` (`writ/idempotencyKey`)
//! makes a repeated `append_line` or `send_message` change nothing.

#![forbid(unsafe_code)]

mod tools;

use std::path::PathBuf;
use std::sync::Arc;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation, ListToolsResult,
    PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::{RequestContext, RoleServer};
use rmcp::{ErrorData, ServerHandler, ServiceExt};
use serde_json::Value;

use crate::tools::Demo;

/// The `_meta` key writ puts a call's idempotency key under.
const IDEMPOTENCY_KEY_META: &str = "writ/idempotencyKey";

struct DemoServer {
    demo: Arc<Demo>,
    tools: Vec<Tool>,
}

impl ServerHandler for DemoServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("writ-demo-tools", env!("CARGO_PKG_VERSION")))
            .with_instructions("Demo tools over one directory for writ's example plans.")
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(self.tools.clone()))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        if !self.tools.iter().any(|tool| tool.name == request.name) {
            return Err(ErrorData::invalid_params(
                format!("there is no tool \"{}\"", request.name),
                None,
            ));
        }
        let args = request.arguments.unwrap_or_default();
        let key = context
            .meta
            .get(IDEMPOTENCY_KEY_META)
            .and_then(Value::as_str)
            .map(str::to_string);
        let demo = self.demo.clone();
        let name = request.name.to_string();
        // File work blocks; keep it off the threads that read and write the protocol.
        let answer = tokio::task::spawn_blocking(move || demo.call(&name, &args, key.as_deref()))
            .await
            .map_err(|error| ErrorData::internal_error(format!("the tool stopped: {error}"), None))?;
        Ok(match answer {
            Ok(value) => CallToolResult::structured(value),
            Err(message) => CallToolResult::error(vec![ContentBlock::text(message)]),
        }
        .into())
    }
}

fn usage(problem: &str) -> String {
    format!("writ-demo-tools: {problem}\nusage: writ-demo-tools --root DIR")
}

fn root_from_args() -> Result<PathBuf, String> {
    let mut args = std::env::args_os().skip(1);
    let mut root = None;
    while let Some(arg) = args.next() {
        match arg.to_str() {
            Some("--root") => {
                root = Some(PathBuf::from(
                    args.next().ok_or_else(|| usage("--root needs a directory"))?,
                ));
            }
            Some("--help" | "-h") => return Err(usage("serves demo tools over MCP on stdin and stdout")),
            _ => return Err(usage(&format!("unexpected argument {arg:?}"))),
        }
    }
    root.ok_or_else(|| usage("--root DIR is required"))
}

fn declared_tools() -> Vec<Tool> {
    tools::declarations()
        .into_iter()
        .map(|declaration| {
            let schema = |value: Value| Arc::new(value.as_object().cloned().unwrap_or_default());
            Tool::new(declaration.name, declaration.description, schema(declaration.input))
                .with_raw_output_schema(schema(declaration.output))
        })
        .collect()
}

#[allow(clippy::print_stderr)] // the server's only channel to a person is stderr
fn main() -> std::process::ExitCode {
    let serve = || -> Result<(), String> {
        let demo = Demo::new(&root_from_args()?)?;
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .build()
            .map_err(|error| format!("cannot start: {error}"))?;
        runtime.block_on(async {
            let server = DemoServer {
                demo: Arc::new(demo),
                tools: declared_tools(),
            };
            let running = server
                .serve(rmcp::transport::stdio())
                .await
                .map_err(|error| format!("the MCP session did not start: {error}"))?;
            running
                .waiting()
                .await
                .map_err(|error| format!("the MCP session failed: {error}"))?;
            Ok(())
        })
    };
    match serve() {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("{message}");
            std::process::ExitCode::from(2)
        }
    }
}
