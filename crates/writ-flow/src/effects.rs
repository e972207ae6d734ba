//! What a workflow reaches outside itself: tool calls over connections and model calls.
//!
//! The interpreter is synchronous (so it can bound its own stack and needs no runtime); the
//! effects it asks for are behind [`Effects`]. [`Connections`] is the implementation over
//! writ-tools' toolboxes (one per MCP server of a tools manifest, plus `"tools"` for the inline
//! command tools) and a writ-model [`Model`], driving their futures on a tokio runtime.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

use writ_core::{Object, Value, closest_name};
use writ_model::{Answer, Message, Model, Turn};
use writ_tools::{ToolCall, Toolbox};

use crate::{Code, Error, Output};

/// The connection name of a manifest's inline command tools.
pub const INLINE_TOOLS: &str = "tools";

/// Tool calls and model calls, as the interpreter asks for them.
///
/// Each returns its cost beside its answer: what `maxCost` counts. writ's own implementation
/// counts 1 per call (writ's models do not report prices); a host that knows prices reports
/// them here.
pub trait Effects: Send + Sync {
    /// Calls `op` on `connection` with `args` for the call node `node`. `idempotency_key` is the
    /// same for every attempt of this execution of the node in this run.
    ///
    /// # Errors
    ///
    /// `unknown-connection` for a connection or op that does not exist; the tool layer's codes
    /// for a call that failed.
    fn call(
        &self,
        node: &str,
        connection: &str,
        op: &str,
        args: &Object,
        idempotency_key: &str,
    ) -> Result<(Value, f64), Error>;

    /// Asks the model for the callModel node `node`: `instructions` as the system message,
    /// the node's input text as the user's.
    ///
    /// # Errors
    ///
    /// `no-model` when there is none; the model layer's codes for a request that failed.
    fn call_model(&self, node: &str, instructions: &str, input: &str) -> Result<(Output, f64), Error>;
}

/// No tools and no model: every call and model call fails, saying what to give.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoEffects;

impl Effects for NoEffects {
    fn call(&self, node: &str, connection: &str, op: &str, _: &Object, _: &str) -> Result<(Value, f64), Error> {
        Err(Error::new(
            Code::UnknownConnection,
            format!(
                "call node '{node}' calls '{op}' on connection '{connection}', but no tools were given; \
                 pass a tools manifest (writ flow run --tools FILE)"
            ),
        ))
    }

    fn call_model(&self, node: &str, _: &str, _: &str) -> Result<(Output, f64), Error> {
        Err(Error::new(
            Code::NoModel,
            format!(
                "callModel node '{node}' needs a model, but none was given; pass a model file (writ flow run --model FILE)"
            ),
        ))
    }
}

/// The connections of a tools manifest and a model, called on a tokio runtime.
///
/// Calls block the calling thread on the runtime: run the workflow on a thread that is not one
/// of the runtime's own (from `main`, or in `spawn_blocking`).
pub struct Connections {
    connections: BTreeMap<String, Toolbox>,
    model: Option<Arc<dyn Model>>,
    runtime: tokio::runtime::Handle,
}

impl std::fmt::Debug for Connections {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Connections")
            .field("connections", &self.connections.keys().collect::<Vec<_>>())
            .field("model", &self.model.is_some())
            .finish()
    }
}

impl Connections {
    /// No connections and no model, on `runtime`.
    pub fn new(runtime: tokio::runtime::Handle) -> Connections {
        Connections {
            connections: BTreeMap::new(),
            model: None,
            runtime,
        }
    }

    /// Starts every MCP server of `manifest` (DESIGN.md's tools manifest) as its own
    /// connection, named as the manifest names it, and the inline tools as the connection
    /// `"tools"`. Relative paths resolve against `base_dir`. Must be called inside `runtime`.
    ///
    /// # Errors
    ///
    /// The tool layer's codes (`manifest_invalid`, `tool_unavailable`, …).
    pub async fn from_manifest(
        manifest: &serde_json::Value,
        base_dir: &Path,
        runtime: tokio::runtime::Handle,
    ) -> Result<Connections, Error> {
        let tool_error =
            |error: writ_tools::ToolError| Error::new(Code::Tool(error.code()), error.message().to_string());
        let mut connections = BTreeMap::new();
        let Some(object) = manifest.as_object() else {
            return Err(Error::new(
                Code::Tool("manifest_invalid"),
                "a tools manifest is a JSON object: {\"mcpServers\": {…}, \"tools\": {…}}",
            ));
        };
        // Checks every field once, and starts nothing that a bad manifest would leave running.
        if let Some(key) = object
            .keys()
            .find(|key| !["mcpServers", "tools"].contains(&key.as_str()))
        {
            return Err(Error::new(
                Code::Tool("manifest_invalid"),
                format!("the tools manifest has an unknown field \"{key}\"; its fields are mcpServers and tools"),
            ));
        }
        if let Some(servers) = object.get("mcpServers").and_then(serde_json::Value::as_object) {
            for (name, config) in servers {
                let single = serde_json::json!({ "mcpServers": { name.clone(): config.clone() } });
                let toolbox = Toolbox::from_manifest(&single, base_dir).await.map_err(tool_error)?;
                connections.insert(name.clone(), toolbox);
            }
        }
        if let Some(tools) = object.get("tools") {
            let inline = serde_json::json!({ "tools": tools.clone() });
            let toolbox = Toolbox::from_manifest(&inline, base_dir).await.map_err(tool_error)?;
            connections.insert(INLINE_TOOLS.to_string(), toolbox);
        }
        Ok(Connections {
            connections,
            model: None,
            runtime,
        })
    }

    /// Adds a connection of the given tools.
    pub fn with_connection(mut self, name: impl Into<String>, toolbox: Toolbox) -> Connections {
        self.connections.insert(name.into(), toolbox);
        self
    }

    /// Uses `model` for callModel nodes.
    pub fn with_model(mut self, model: Arc<dyn Model>) -> Connections {
        self.model = Some(model);
        self
    }

    /// The connection names, sorted.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.connections.keys().map(String::as_str)
    }
}

/// For a name that is not among `names`: "did you mean …? " (or nothing) and the names listed
/// (or "none").
fn suggest<'a>(name: &str, names: impl Iterator<Item = &'a str>) -> (String, String) {
    let listed: Vec<&str> = names.collect();
    let hint = closest_name(name, listed.iter().copied())
        .map(|nearest| format!("did you mean '{nearest}'? "))
        .unwrap_or_default();
    let listed = if listed.is_empty() {
        "none".to_string()
    } else {
        listed.join(", ")
    };
    (hint, listed)
}

impl Effects for Connections {
    fn call(
        &self,
        node: &str,
        connection: &str,
        op: &str,
        args: &Object,
        idempotency_key: &str,
    ) -> Result<(Value, f64), Error> {
        let Some(toolbox) = self.connections.get(connection) else {
            let (hint, names) = suggest(connection, self.names());
            return Err(Error::new(
                Code::UnknownConnection,
                format!(
                    "call node '{node}' names connection '{connection}', which the tools manifest does not have; {hint}the connections are {names}"
                ),
            ));
        };
        if toolbox.spec(op).is_none() {
            let (hint, names) = suggest(op, toolbox.names());
            return Err(Error::new(
                Code::UnknownConnection,
                format!(
                    "call node '{node}' calls op '{op}', which connection '{connection}' does not offer; {hint}its ops are {names}"
                ),
            ));
        }
        let args = match Value::Object(args.clone()).to_serde_json() {
            serde_json::Value::Object(args) => args,
            _ => serde_json::Map::new(),
        };
        let call = ToolCall {
            args,
            idempotency_key: idempotency_key.to_string(),
        };
        let result = self.runtime.block_on(toolbox.call(op, call)).map_err(|error| {
            Error::new(
                Code::Tool(error.code()),
                format!("call node '{node}' ({connection}.{op}): {}", error.message()),
            )
        })?;
        Ok((Value::from(result), 1.0))
    }

    fn call_model(&self, node: &str, instructions: &str, input: &str) -> Result<(Output, f64), Error> {
        let Some(model) = &self.model else {
            return NoEffects.call_model(node, instructions, input);
        };
        let turn = Turn {
            messages: vec![Message::system(instructions), Message::user(input)],
            output_schema: None,
        };
        let answer = self.runtime.block_on(model.answer(turn)).map_err(|error| {
            Error::new(
                Code::Model(error.code()),
                format!("callModel node '{node}': {}", error.message()),
            )
        })?;
        let output = match answer {
            Answer::Text(text) => Output::text_output(text),
            Answer::Structured(value) => {
                Output::from_value(Value::from(value)).unwrap_or_else(|| Output::text_output(""))
            }
        };
        Ok((output, 1.0))
    }
}
