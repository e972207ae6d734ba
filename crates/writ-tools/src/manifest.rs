//! Reading a tools manifest: inline command tools and MCP servers, every field checked.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde_json::{Map, Value};

use crate::{CommandTool, ErrorKind, ToolError, ToolSpec, Toolbox};

/// Reads the manifest and builds its toolbox (see [`Toolbox::from_manifest`]).
pub(crate) async fn load(manifest: &Value, base_dir: &Path) -> Result<Toolbox, ToolError> {
    let Value::Object(manifest) = manifest else {
        return Err(invalid(
            "a tools manifest is a JSON object: {\"mcpServers\": {…}, \"tools\": {…}}",
        ));
    };
    if let Some(key) = manifest
        .keys()
        .find(|key| !["mcpServers", "tools"].contains(&key.as_str()))
    {
        return Err(invalid(format!(
            "the tools manifest has an unknown field \"{key}\"; its fields are mcpServers and tools"
        )));
    }
    let servers = object_field(manifest, "mcpServers", "the manifest's \"mcpServers\"")?;
    let inline = object_field(manifest, "tools", "the manifest's \"tools\"")?;
    let mut started = Vec::with_capacity(servers.len());
    for (server_name, config) in servers {
        let (server, specs) = crate::mcp::start(server_name, config, base_dir).await?;
        started.push((server_name, server, specs));
    }
    // How many times each name is offered: a name offered more than once is prefixed with its
    // server's name wherever a server offers it (an inline tool keeps its own).
    let mut offers: BTreeMap<&str, usize> = BTreeMap::new();
    for name in inline.keys().map(String::as_str).chain(
        started
            .iter()
            .flat_map(|(_, _, specs)| specs.iter().map(|spec| spec.name.as_str())),
    ) {
        *offers.entry(name).or_default() += 1;
    }
    let mut toolbox = Toolbox::new();
    for (server_name, server, specs) in &started {
        for spec in specs {
            let remote_name = spec.name.clone();
            let name = if offers.get(remote_name.as_str()).copied().unwrap_or(0) > 1 {
                format!("{server_name}.{remote_name}")
            } else {
                remote_name.clone()
            };
            let spec = ToolSpec {
                name: name.clone(),
                ..spec.clone()
            };
            let tool = crate::mcp::McpTool::new(spec, remote_name, server.clone());
            toolbox.add_as(name, Arc::new(tool))?;
        }
    }
    for (name, definition) in inline {
        let tool = command_tool(name, definition, base_dir)?;
        toolbox.add(Arc::new(tool))?;
    }
    Ok(toolbox)
}

fn command_tool(name: &str, definition: &Value, base_dir: &Path) -> Result<CommandTool, ToolError> {
    let at = format!("tool \"{name}\"");
    let Value::Object(definition) = definition else {
        return Err(invalid(format!(
            "{at} is not an object: {{\"description\", \"inputSchema\", \"outputSchema\"?, \"command\": [program, args…], \"env\"?}}"
        )));
    };
    const FIELDS: [&str; 5] = ["description", "inputSchema", "outputSchema", "command", "env"];
    if let Some(key) = definition.keys().find(|key| !FIELDS.contains(&key.as_str())) {
        return Err(invalid(format!(
            "{at} has an unknown field \"{key}\"; its fields are {}",
            FIELDS.join(", ")
        )));
    }
    let description = match definition.get("description") {
        None => String::new(),
        Some(Value::String(text)) => text.clone(),
        Some(_) => return Err(invalid(format!("{at}: \"description\" is a string"))),
    };
    let input_schema = definition.get("inputSchema").cloned().ok_or_else(|| {
        invalid(format!(
            "{at} declares no \"inputSchema\"; every tool declares the JSON Schema of its arguments, \
             such as {{\"type\": \"object\", \"properties\": {{…}}, \"required\": […]}}"
        ))
    })?;
    let output_schema = definition.get("outputSchema").cloned();
    let command = match definition.get("command") {
        Some(Value::Array(items)) if !items.is_empty() => items
            .iter()
            .map(|item| item.as_str().map(str::to_string))
            .collect::<Option<Vec<String>>>(),
        _ => None,
    }
    .ok_or_else(|| {
        invalid(format!(
            "{at}: \"command\" is a non-empty array of strings, the program then its arguments, such as [\"python3\", \"tools/append.py\"]"
        ))
    })?;
    let env = string_map(definition.get("env"), &format!("{at}: \"env\""))?;
    let mut command = command.into_iter();
    let program = command
        .next()
        .map(|program| program_path(&program, base_dir))
        .unwrap_or_default();
    let spec = ToolSpec {
        name: name.to_string(),
        description,
        input_schema,
        output_schema,
    };
    Ok(CommandTool::new(
        spec,
        program,
        command.collect(),
        env,
        base_dir.to_path_buf(),
    ))
}

/// A program named with a path separator is a path, resolved against `base_dir` when relative;
/// a bare name is looked up on `PATH` as a shell would.
pub(crate) fn program_path(program: &str, base_dir: &Path) -> PathBuf {
    let path = Path::new(program);
    if program.contains('/') && path.is_relative() {
        base_dir.join(path)
    } else {
        path.to_path_buf()
    }
}

fn object_field<'a>(
    object: &'a Map<String, Value>,
    key: &str,
    what: &str,
) -> Result<&'a Map<String, Value>, ToolError> {
    static EMPTY: std::sync::OnceLock<Map<String, Value>> = std::sync::OnceLock::new();
    match object.get(key) {
        None => Ok(EMPTY.get_or_init(Map::new)),
        Some(Value::Object(map)) => Ok(map),
        Some(_) => Err(invalid(format!("{what} is an object keyed by name"))),
    }
}

pub(crate) fn string_map(value: Option<&Value>, what: &str) -> Result<BTreeMap<String, String>, ToolError> {
    match value {
        None => Ok(BTreeMap::new()),
        Some(Value::Object(map)) => map
            .iter()
            .map(|(key, value)| match value {
                Value::String(text) => Ok((key.clone(), text.clone())),
                _ => Err(invalid(format!(
                    "{what}: \"{key}\" is not a string; environment values are strings"
                ))),
            })
            .collect(),
        Some(_) => Err(invalid(format!("{what} is an object of strings"))),
    }
}

#[cold]
pub(crate) fn invalid(message: impl Into<String>) -> ToolError {
    ToolError::new(ErrorKind::ManifestInvalid, message)
}
