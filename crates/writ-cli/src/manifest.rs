//! The tools manifest of `--tools`, read the same way by every command that takes one.

use std::path::{Path, PathBuf};

use serde_json::Value as Json;
use writ_tools::Toolbox;

use crate::UsageError;
use crate::flow::read_text;

/// A tools manifest as `--tools` gave it.
pub(crate) struct Manifest {
    /// The manifest document (DESIGN.md's format: `mcpServers` and inline `tools`).
    pub(crate) json: Json,
    /// The directory relative paths in the manifest are read against, and where its servers
    /// and commands run: the current directory, as for every other path on the command line.
    pub(crate) base_dir: PathBuf,
}

/// Reads the manifest at `path` (`-` is stdin).
pub(crate) fn read_manifest(path: &Path) -> Result<Manifest, UsageError> {
    let text = read_text(path, "the tools manifest")?;
    let json = serde_json::from_str(&text)
        .map_err(|error| UsageError(format!("the tools manifest {} is not JSON: {error}", path.display())))?;
    let base_dir =
        std::env::current_dir().map_err(|error| UsageError(format!("cannot read the current directory: {error}")))?;
    Ok(Manifest { json, base_dir })
}

/// The toolbox of the manifest at `path`: its inline tools, and the tools each of its MCP
/// servers lists, the servers started (and stopped when the toolbox is dropped).
pub(crate) async fn load_tools(path: &Path) -> Result<Toolbox, UsageError> {
    let manifest = read_manifest(path)?;
    Toolbox::from_manifest(&manifest.json, &manifest.base_dir)
        .await
        .map_err(|error| UsageError(format!("the tools manifest {}: {error}", path.display())))
}

/// The names of the tools the manifest at `path` offers, for freeze to check calls against:
/// its inline tools, and the tools its MCP servers list, each server started, asked and
/// stopped.
pub(crate) fn tool_names(path: &Path) -> Result<Vec<String>, UsageError> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|error| UsageError(format!("cannot start the runtime that lists tools: {error}")))?;
    let toolbox = runtime.block_on(load_tools(path))?;
    Ok(toolbox.names().map(str::to_owned).collect())
}
