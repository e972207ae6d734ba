//! The lua cell (`lua`): a sandboxed Lua chunk over the unmerged output table.

use std::sync::OnceLock;

use writ_core::Value;
use writ_lua::{Error, LuaLimits, Sandbox, Status};

use super::{budget_fault, check_cases, not_source_fault, select_verdict, source_text};
use crate::seam::{
    CellError, CellFuture, Decision, Evaluation, Fault, FaultKind, PredicateContext, PredicateEvaluator, PredicateNode,
    Verdict,
};

/// The lua cell: a predicate is a Lua chunk that returns its verdict, run in a
/// [`writ_lua::Sandbox`] with the global `ctx` set to [`OutputTable::to_value`](crate::OutputTable::to_value):
/// each table key holds its items, unmerged, 1-based, each with its data under `json`
/// (`return ctx['fetch:'][1].json.count > 0`).
///
/// A branch matches by Lua truthiness: only `nil` and `false` are false, so `0` and `""` hold.
/// A select's chunk returns a case label as a string, or `nil` for the default; nothing else
/// names a case (no number is turned into a label).
///
/// The sandbox is built by [`load`](PredicateEvaluator::load), whose canaries check on this
/// build that each bound holds; [`LuaCell::status`] says what they verified. It caches the
/// chunks it compiles, so the cell keeps no cache of its own.
pub struct LuaCell {
    /// The bounds asked for.
    limits: LuaLimits,
    /// The sandbox, or why it could not be built: built once, by the first caller.
    sandbox: OnceLock<Result<Sandbox, CellError>>,
}

impl LuaCell {
    /// A cell whose sandbox enforces `limits`.
    pub fn new(limits: LuaLimits) -> LuaCell {
        LuaCell {
            limits,
            sandbox: OnceLock::new(),
        }
    }

    /// The sandbox, built on first use; a failure is remembered and returned again.
    fn sandbox(&self) -> Result<&Sandbox, CellError> {
        self.sandbox
            .get_or_init(|| {
                Sandbox::new(self.limits).map_err(|error| CellError {
                    code: "cell-unavailable",
                    node: None,
                    message: format!(
                        "lua cell: the sandbox could not be built ({}): {}",
                        error.code(),
                        error.message()
                    ),
                })
            })
            .as_ref()
            .map_err(Clone::clone)
    }

    /// What the sandbox's canaries verified on this build: which bounds hold and at what
    /// values. Builds the sandbox if [`load`](PredicateEvaluator::load) has not.
    ///
    /// # Errors
    ///
    /// `cell-unavailable` when the sandbox cannot be built.
    pub fn status(&self) -> Result<Status, CellError> {
        self.sandbox().map(Sandbox::status)
    }

    /// Decides `node` over `context`.
    fn decide(&self, node: &PredicateNode, context: &PredicateContext) -> Evaluation {
        let Some(source) = node.predicate.as_str() else {
            return Evaluation::faulted(node, not_source_fault("lua", node));
        };
        let sandbox = match self.sandbox() {
            Ok(sandbox) => sandbox,
            Err(error) => {
                return Evaluation::faulted(node, Fault::new(FaultKind::Runtime, error.code, error.message));
            }
        };
        let result = match sandbox.evaluate(&source.to_string_lossy(), &context.outputs.to_value()) {
            Ok(result) => result,
            Err(error) => return Evaluation::faulted(node, fault(&error)),
        };
        match &node.decision {
            Decision::Branch => Evaluation::decided(Verdict::Branch {
                matched: !matches!(result, Value::Undefined | Value::Null | Value::Bool(false)),
            }),
            Decision::Select { cases } => {
                let label = match &result {
                    Value::String(label) => Ok(Some(label.clone())),
                    Value::Undefined | Value::Null => Ok(None),
                    _ => Err(()),
                };
                select_verdict(node, cases, &result, label)
            }
        }
    }
}

impl Default for LuaCell {
    /// [`writ_lua::DEFAULT_LIMITS`].
    fn default() -> LuaCell {
        LuaCell::new(writ_lua::DEFAULT_LIMITS)
    }
}

/// The fault a sandbox error gives.
fn fault(error: &Error) -> Fault {
    let code = error.code();
    match kind(error) {
        FaultKind::BudgetExceeded => budget_fault(code, error.message()),
        kind => Fault::new(kind, code, error.message()),
    }
}

/// The kind of fault behind a writ-lua error. Luau's own type errors (`attempt to index nil
/// with 'x'`, `attempt to compare number < nil`, arithmetic, concatenation, the length of or
/// a loop over the wrong kind of value) share `lua-runtime` with `error()`; writ-lua tells them
/// apart ([`Error::is_type_error`]).
fn kind(error: &Error) -> FaultKind {
    match error.code() {
        "lua-instruction-limit" | "lua-timeout" | "lua-memory" | "lua-stack" => FaultKind::BudgetExceeded,
        "lua-syntax" | "lua-bytecode-refused" => FaultKind::InvalidPredicate,
        "lua-unrepresentable" => FaultKind::BadResult,
        "lua-runtime" if error.is_type_error() => FaultKind::TypeMismatch,
        _ => FaultKind::Runtime,
    }
}

/// Checks a node at freeze: non-empty source text, not bytecode, that compiles.
fn validate(cell: &LuaCell, node: &PredicateNode) -> Result<(), CellError> {
    check_cases("lua", node)?;
    let source = source_text("lua", node, "\"return ctx['fetch:'][1].json.count > 0\"")?.to_string_lossy();
    if source.trim().is_empty() {
        return Err(CellError::invalid(
            node,
            format!(
                "lua cell: node '{}' has an empty predicate; write a chunk that returns the verdict, \
                 e.g. \"return ctx['fetch:'][1].json.ok\"",
                node.id
            ),
        ));
    }
    if source.starts_with('\u{1b}') {
        return Err(CellError::invalid(
            node,
            format!(
                "lua cell: node '{}' carries precompiled Lua bytecode, which is refused (bytecode can break the \
                 VM's own safety checks); supply the chunk's source text",
                node.id
            ),
        ));
    }
    cell.sandbox()?.check(&source).map_err(|error| {
        CellError::invalid(
            node,
            format!(
                "lua cell: node '{}' has a predicate that does not compile ({}): {}",
                node.id,
                error.code(),
                error.message()
            ),
        )
    })
}

impl PredicateEvaluator for LuaCell {
    fn id(&self) -> &str {
        "lua"
    }

    /// Builds the sandbox and runs its canaries, once; a failure (`cell-unavailable`) is
    /// remembered and returned to every later call.
    fn load(&self) -> CellFuture<'_, Result<(), CellError>> {
        Box::pin(async move { self.sandbox().map(drop) })
    }

    /// The predicate must be non-empty source text, not bytecode, that compiles.
    fn validate<'a>(&'a self, node: &'a PredicateNode) -> CellFuture<'a, Result<(), CellError>> {
        Box::pin(async move { validate(self, node) })
    }

    fn evaluate<'a>(&'a self, node: &'a PredicateNode, context: &'a PredicateContext) -> CellFuture<'a, Evaluation> {
        Box::pin(async move { self.decide(node, context) })
    }
}
