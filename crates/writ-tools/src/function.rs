//! `FnTool`: a tool made from a closure.

use std::fmt;
use std::future::Future;

use serde_json::Value;

use crate::{BoxFuture, Tool, ToolCall, ToolError, ToolSpec};

/// A tool made from a closure, for tests, benchmarks and hosts that embed writ.
pub struct FnTool {
    spec: ToolSpec,
    function: Box<dyn Fn(ToolCall) -> BoxFuture<'static, Result<Value, ToolError>> + Send + Sync>,
}

impl FnTool {
    /// A tool declared by `spec` whose calls run `function`.
    pub fn new<F, Fut>(spec: ToolSpec, function: F) -> FnTool
    where
        F: Fn(ToolCall) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<Value, ToolError>> + Send + 'static,
    {
        FnTool {
            spec,
            function: Box::new(move |call| Box::pin(function(call))),
        }
    }
}

impl Tool for FnTool {
    fn spec(&self) -> &ToolSpec {
        &self.spec
    }

    fn call(&self, call: ToolCall) -> BoxFuture<'_, Result<Value, ToolError>> {
        (self.function)(call)
    }
}

impl fmt::Debug for FnTool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FnTool")
            .field("spec", &self.spec)
            .finish_non_exhaustive()
    }
}
