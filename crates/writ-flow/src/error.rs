//! The one error type of the workflow runtime, its codes, and the issues the checker reports.

use std::fmt;

/// The stable code of a workflow failure or a checker issue.
///
/// Seed 001's codes are written as the seed writes them (`EXPRESSION_FAILED`); the codes writ
/// adds are kebab-case and name the problem (STYLE.md). Codes are API: none is renamed or
/// reused. [`Code::Tool`] and [`Code::Model`] carry the code of the tool or model layer
/// (`tool_failed`, `invalid_args`, `reasoning_failed`, …) as it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Code {
    /// An expression failed while running (a JSONata type or runtime error), a test gave
    /// something other than true, false or no value, or a compute expression gave no value.
    ExpressionFailed,
    /// An evaluation crossed one of its four limits, or a range passed 10,000,000 items.
    ExpressionLimitExceeded,
    /// A limit is not a positive integer or `"Infinity"`, or names no limit.
    InvalidExpressionLimits,
    /// A subflow call would nest deeper than `maxRecursionDepth`.
    WorkflowRecursionLimit,
    /// The document is not a JSON object, or its `version` is not 1.
    UnsupportedVersion,
    /// A field the node, predicate, route or document does not have.
    UnknownField,
    /// A required field is absent.
    MissingField,
    /// A field holds a value of the wrong kind.
    InvalidField,
    /// A node `kind` the runtime does not know.
    UnknownNodeKind,
    /// A predicate `kind` the runtime does not know.
    UnknownPredicateKind,
    /// Two nodes of one document share an id.
    DuplicateNodeId,
    /// A subflow names a workflow that is not given.
    UnknownWorkflow,
    /// An expression does not parse as JSONata.
    InvalidExpression,
    /// A loop with `"maxIterations": "infinity"` and no `until`: nothing could end it.
    UnboundedLoop,
    /// A call names a connection the tools manifest does not have, or an op its connection
    /// does not offer, or no tools were given.
    UnknownConnection,
    /// A wait node found no event its filter accepts.
    NoEvent,
    /// A decide node has no answer.
    NoAnswer,
    /// A callModel node ran with no model given.
    NoModel,
    /// The host stopped the run (its interrupt was raised).
    RunAborted,
    /// The run store failed, or holds no run of that id, or a resumed run's document changed.
    Store,
    /// A tool call failed; the code is the tool layer's.
    Tool(&'static str),
    /// A model failed; the code is the model layer's.
    Model(&'static str),
}

impl Code {
    /// The code as envelopes and issues carry it.
    pub fn as_str(self) -> &'static str {
        match self {
            Code::ExpressionFailed => "EXPRESSION_FAILED",
            Code::ExpressionLimitExceeded => "EXPRESSION_LIMIT_EXCEEDED",
            Code::InvalidExpressionLimits => "INVALID_EXPRESSION_LIMITS",
            Code::WorkflowRecursionLimit => "WORKFLOW_RECURSION_LIMIT",
            Code::UnsupportedVersion => "unsupported-version",
            Code::UnknownField => "unknown-field",
            Code::MissingField => "missing-field",
            Code::InvalidField => "invalid-field",
            Code::UnknownNodeKind => "unknown-node-kind",
            Code::UnknownPredicateKind => "unknown-predicate-kind",
            Code::DuplicateNodeId => "duplicate-node-id",
            Code::UnknownWorkflow => "unknown-workflow",
            Code::InvalidExpression => "invalid-expression",
            Code::UnboundedLoop => "unbounded-loop",
            Code::UnknownConnection => "unknown-connection",
            Code::NoEvent => "no-event",
            Code::NoAnswer => "no-answer",
            Code::NoModel => "no-model",
            Code::RunAborted => "run-aborted",
            Code::Store => "store-failed",
            Code::Tool(code) | Code::Model(code) => code,
        }
    }
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A workflow that could not be checked, run or resumed: a stable [`Code`] and a message that
/// says what is wrong, where, and what to write instead.
#[derive(Clone, PartialEq, Eq)]
pub struct Error(Box<Inner>);

#[derive(Clone, PartialEq, Eq)]
struct Inner {
    code: Code,
    message: String,
}

impl Error {
    /// An error of `code` with `message`.
    #[cold]
    pub fn new(code: Code, message: impl Into<String>) -> Error {
        Error(Box::new(Inner {
            code,
            message: message.into(),
        }))
    }

    /// What kind of failure this is.
    pub fn kind(&self) -> Code {
        self.0.code
    }

    /// The stable code, as the CLI's error object carries it.
    pub fn code(&self) -> &'static str {
        self.0.code.as_str()
    }

    /// What is wrong, where, and what to write instead.
    pub fn message(&self) -> &str {
        &self.0.message
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.code(), self.message())
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.code(), self.message())
    }
}

impl std::error::Error for Error {}

/// One problem the checker found in a document: its code, a JSON Pointer into the document,
/// and a message naming the node and what to write instead.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Issue {
    /// The stable code.
    pub code: Code,
    /// Where: a JSON Pointer (RFC 6901) into the document (`/root/body/expr`).
    pub path: String,
    /// What is wrong and what to write instead.
    pub message: String,
}

impl Issue {
    /// The issues as one error: the first issue's code, every issue in the message.
    pub fn into_error(issues: &[Issue]) -> Error {
        let code = issues.first().map_or(Code::InvalidField, |issue| issue.code);
        let listed: Vec<String> = issues
            .iter()
            .map(|issue| format!("{} at {}: {}", issue.code, display_path(&issue.path), issue.message))
            .collect();
        Error::new(
            code,
            format!("the workflow document was refused: {}", listed.join("; ")),
        )
    }
}

/// The root pointer written so a person can see it.
fn display_path(path: &str) -> &str {
    if path.is_empty() { "/" } else { path }
}
