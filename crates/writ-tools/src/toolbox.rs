//! `Toolbox`: tools by name, each call checked against the tool's schemas.

use std::collections::BTreeMap;
use std::fmt;
use std::path::Path;
use std::sync::Arc;

use serde_json::Value;

use crate::{ErrorKind, Tool, ToolCall, ToolError, ToolSpec};

/// Tools by name, with their schemas compiled once.
///
/// `Send + Sync` and meant to be shared in an `Arc`: every method takes `&self` except
/// [`Toolbox::add`]. Names iterate in byte order. Dropping the toolbox stops the MCP servers
/// [`Toolbox::from_manifest`] started (each child is killed).
#[derive(Default)]
pub struct Toolbox {
    tools: BTreeMap<String, Entry>,
}

struct Entry {
    tool: Arc<dyn Tool>,
    input: jsonschema::Validator,
    output: Option<jsonschema::Validator>,
}

impl Toolbox {
    /// An empty toolbox.
    pub fn new() -> Toolbox {
        Toolbox::default()
    }

    /// Adds a tool under its spec's name, compiling its schemas.
    ///
    /// # Errors
    ///
    /// `duplicate_tool` when a tool of that name is already here; `invalid_schema` when the
    /// input or output schema is not a JSON Schema.
    pub fn add(&mut self, tool: Arc<dyn Tool>) -> Result<(), ToolError> {
        let name = tool.spec().name.clone();
        self.add_as(name, tool)
    }

    /// Adds `tool` under `name`, which may differ from its spec's (an MCP server's tool whose
    /// name clashes is added as `server.name`).
    pub(crate) fn add_as(&mut self, name: String, tool: Arc<dyn Tool>) -> Result<(), ToolError> {
        if name.is_empty() {
            return Err(ToolError::new(
                ErrorKind::ManifestInvalid,
                "a tool has an empty name; give every tool a name",
            ));
        }
        if self.tools.contains_key(&name) {
            return Err(ToolError::new(
                ErrorKind::DuplicateTool,
                format!("two tools are named \"{name}\"; give each tool its own name"),
            ));
        }
        let spec = tool.spec();
        let input = compile(&name, "input", &spec.input_schema)?;
        let output = spec
            .output_schema
            .as_ref()
            .map(|schema| compile(&name, "output", schema))
            .transpose()?;
        self.tools.insert(name, Entry { tool, input, output });
        Ok(())
    }

    /// The tools' names, in byte order.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.tools.keys().map(String::as_str)
    }

    /// The declaration of the tool named `name`.
    pub fn spec(&self, name: &str) -> Option<&ToolSpec> {
        self.tools.get(name).map(|entry| entry.tool.spec())
    }

    /// Checks `call.args` against the tool's input schema, calls the tool, and checks its
    /// result against the tool's output schema. Dropping the future cancels the call.
    ///
    /// # Errors
    ///
    /// `unknown_tool` (the closest name is offered); `invalid_args` before any call, so the
    /// tool never ran; `invalid_result` after it; and whatever the tool answers
    /// (`tool_failed`, `tool_unavailable`).
    pub async fn call(&self, name: &str, call: ToolCall) -> Result<Value, ToolError> {
        let entry = self.tools.get(name).ok_or_else(|| self.unknown(name))?;
        let ToolCall { args, idempotency_key } = call;
        let args = Value::Object(args);
        if let Some(problems) = problems(&entry.input, &args) {
            return Err(ToolError::new(
                ErrorKind::InvalidArgs,
                format!(
                    "the arguments of \"{name}\" do not match its input schema, so it was not called: {problems}; \
                     pass arguments the schema accepts"
                ),
            ));
        }
        let Value::Object(args) = args else {
            unreachable!("the arguments were built as an object just above")
        };
        let result = entry.tool.call(ToolCall { args, idempotency_key }).await?;
        if let Some(problems) = entry.output.as_ref().and_then(|output| problems(output, &result)) {
            return Err(ToolError::new(
                ErrorKind::InvalidResult,
                format!(
                    "\"{name}\" answered a result that does not match its output schema: {problems}; \
                     fix the tool or its declared output schema"
                ),
            ));
        }
        Ok(result)
    }

    /// Reads a tools manifest (DESIGN.md, "Plans and runs"), starts each MCP server and lists
    /// its tools, and adds the inline command tools.
    ///
    /// Relative paths in the manifest (a command with a `/` in it, and the arguments a command
    /// or server reads) resolve against `base_dir`, which is also every child's working
    /// directory. A server's tools keep the names it lists, prefixed `server.` only where two
    /// servers, or a server and an inline tool, list the same name.
    ///
    /// # Errors
    ///
    /// `manifest_invalid` naming the field that does not fit; `invalid_schema` for a tool whose
    /// schema is not a JSON Schema; `tool_unavailable` when a server cannot be started or does
    /// not answer `initialize` and `tools/list`; `duplicate_tool` when a prefixed name clashes.
    pub async fn from_manifest(manifest: &Value, base_dir: &Path) -> Result<Toolbox, ToolError> {
        crate::manifest::load(manifest, base_dir).await
    }

    #[cold]
    fn unknown(&self, name: &str) -> ToolError {
        let help = match writ_core::closest_name(name, self.names()) {
            Some(closest) => format!("did you mean \"{closest}\"?"),
            None if self.tools.is_empty() => "the toolbox has no tools".to_string(),
            None => {
                let names: Vec<&str> = self.names().take(12).collect();
                let more = if self.tools.len() > names.len() { ", …" } else { "" };
                format!("the tools are {}{more}", names.join(", "))
            }
        };
        ToolError::new(ErrorKind::UnknownTool, format!("no tool is named \"{name}\"; {help}"))
    }
}

impl fmt::Debug for Toolbox {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Toolbox").field("tools", &self.tools.keys()).finish()
    }
}

fn compile(name: &str, which: &str, schema: &Value) -> Result<jsonschema::Validator, ToolError> {
    jsonschema::validator_for(schema).map_err(|error| {
        ToolError::new(
            ErrorKind::InvalidSchema,
            format!("the {which} schema of \"{name}\" is not a JSON Schema: {error}; fix the tool's declaration"),
        )
    })
}

/// The schema's complaints about `value`, at most eight, joined; `None` when it is valid.
fn problems(validator: &jsonschema::Validator, value: &Value) -> Option<String> {
    let problems: Vec<String> = validator
        .iter_errors(value)
        .take(8)
        .map(|error| {
            let path = error.instance_path().to_string();
            let path = if path.is_empty() {
                "(the whole value)".to_string()
            } else {
                path
            };
            let mut text = format!("at {path}: {error}");
            // A complaint quotes the value it is about; a long value would drown the message.
            if text.len() > 300 {
                let cut = (0..=300).rev().find(|&idx| text.is_char_boundary(idx)).unwrap_or(0);
                text.truncate(cut);
                text.push('…');
            }
            text
        })
        .collect();
    if problems.is_empty() {
        None
    } else {
        Some(problems.join("; "))
    }
}
