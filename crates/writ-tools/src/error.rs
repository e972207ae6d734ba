//! `ToolError`: why a tool could not be added, found or called, with a stable code.

use std::fmt;

/// What went wrong, as a closed set; [`ErrorKind::as_str`] is the stable code.
///
/// | code | meaning | what to do |
/// |---|---|---|
/// | `unknown_tool` | no tool has the name called | call a name [`crate::Toolbox::names`] lists (the message offers the closest) |
/// | `duplicate_tool` | a tool with this name was already added | give each tool its own name |
/// | `invalid_schema` | a tool's input or output schema is not a JSON Schema | fix the tool's declaration |
/// | `invalid_args` | the arguments do not match the tool's input schema; the tool was not called | pass arguments the schema accepts |
/// | `invalid_result` | the tool's result does not match its output schema | fix the tool, or its declared output schema |
/// | `tool_failed` | the tool ran and failed: a non-zero exit, output that is not JSON, an MCP error result | read the message (it carries the tool's own words) |
/// | `tool_unavailable` | the tool cannot be reached: its command does not start, its MCP server is gone | check the command, restart the run |
/// | `manifest_invalid` | a tools manifest does not have the documented shape | fix the field the message names |
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// `unknown_tool`
    UnknownTool,
    /// `duplicate_tool`
    DuplicateTool,
    /// `invalid_schema`
    InvalidSchema,
    /// `invalid_args`
    InvalidArgs,
    /// `invalid_result`
    InvalidResult,
    /// `tool_failed`
    ToolFailed,
    /// `tool_unavailable`
    ToolUnavailable,
    /// `manifest_invalid`
    ManifestInvalid,
}

impl ErrorKind {
    /// The stable snake_case code.
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorKind::UnknownTool => "unknown_tool",
            ErrorKind::DuplicateTool => "duplicate_tool",
            ErrorKind::InvalidSchema => "invalid_schema",
            ErrorKind::InvalidArgs => "invalid_args",
            ErrorKind::InvalidResult => "invalid_result",
            ErrorKind::ToolFailed => "tool_failed",
            ErrorKind::ToolUnavailable => "tool_unavailable",
            ErrorKind::ManifestInvalid => "manifest_invalid",
        }
    }
}

/// Why a tool could not be added, found or called.
///
/// [`ToolError::code`] is stable; [`ToolError::message`] is written for the person who reads
/// it: what is wrong, naming the tool, and what to do.
#[derive(Clone, PartialEq, Eq)]
pub struct ToolError {
    inner: Box<Inner>,
}

#[derive(Clone, PartialEq, Eq)]
struct Inner {
    kind: ErrorKind,
    message: String,
}

impl ToolError {
    /// An error of any kind; tool implementers usually want [`ToolError::failed`].
    #[cold]
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> ToolError {
        ToolError {
            inner: Box::new(Inner {
                kind,
                message: message.into(),
            }),
        }
    }

    /// `tool_failed`: the tool ran and could not do what it was asked.
    #[cold]
    pub fn failed(message: impl Into<String>) -> ToolError {
        ToolError::new(ErrorKind::ToolFailed, message)
    }

    /// `tool_unavailable`: the tool cannot be reached at all (its process or server is gone).
    #[cold]
    pub fn unavailable(message: impl Into<String>) -> ToolError {
        ToolError::new(ErrorKind::ToolUnavailable, message)
    }

    /// The kind of error.
    pub fn kind(&self) -> ErrorKind {
        self.inner.kind
    }

    /// The stable snake_case code (see [`ErrorKind`]).
    pub fn code(&self) -> &'static str {
        self.inner.kind.as_str()
    }

    /// What is wrong and what to do.
    pub fn message(&self) -> &str {
        &self.inner.message
    }
}

impl fmt::Display for ToolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.code(), self.inner.message)
    }
}

impl fmt::Debug for ToolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ToolError")
            .field("code", &self.code())
            .field("message", &self.inner.message)
            .finish()
    }
}

impl std::error::Error for ToolError {}
