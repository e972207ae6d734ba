//! The lua cell (`lua`): a sandboxed Lua chunk over the unmerged output table.

use std::sync::Arc;

use writ_core::{BudgetExceeded, Limits, Meter, Str, Value};
use writ_lua::{LuaLimits, Sandbox, Status};

use super::expression::{Dialect, ExpressionCell};
use crate::seam::{CellError, CellFuture, Evaluation, PredicateContext, PredicateEvaluator, PredicateNode};

/// How the lua cell reads the table and its results.
static LUA: Dialect = Dialect {
    id: "lua",
    example: "\"return ctx['fetch:'][1].json.count > 0\"",
    invalid: "does not compile",
    snapshot: |context| context.outputs.to_value(),
    holds: lua_truthy,
    label: string_label,
    bad_result_codes: &["lua-unrepresentable"],
    precheck: not_empty,
};

/// Lua truthiness: only `nil` and `false` are false, so `0` and `""` hold.
fn lua_truthy(value: &Value, _: &mut Meter) -> Result<bool, BudgetExceeded> {
    Ok(!matches!(value, Value::Undefined | Value::Null | Value::Bool(false)))
}

/// A select's chunk names its case with a string, or the default with `nil`; no number is
/// turned into a label.
fn string_label(value: &Value) -> Result<Option<Str>, ()> {
    match value {
        Value::String(label) => Ok(Some(label.clone())),
        Value::Undefined | Value::Null => Ok(None),
        _ => Err(()),
    }
}

/// Refuses an empty chunk at freeze: Lua compiles it, and it would decide every frame `nil`.
fn not_empty(node: &PredicateNode, source: &str) -> Result<(), CellError> {
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
    Ok(())
}

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
/// build that each bound holds; [`LuaCell::status`] says what they verified.
pub struct LuaCell {
    cell: ExpressionCell,
    /// The sandbox, once built, for its status.
    sandbox: Arc<std::sync::OnceLock<Sandbox>>,
}

impl LuaCell {
    /// A cell whose sandbox enforces `limits`.
    pub fn new(limits: LuaLimits) -> LuaCell {
        let sandbox: Arc<std::sync::OnceLock<Sandbox>> = Arc::new(std::sync::OnceLock::new());
        let built = Arc::clone(&sandbox);
        let build = move || match Sandbox::new(limits) {
            Ok(made) => {
                let made = built.get_or_init(|| made).clone();
                Ok(Arc::new(made) as Arc<dyn writ_core::Engine>)
            }
            Err(error) => Err(CellError {
                code: "cell-unavailable",
                node: None,
                message: format!(
                    "lua cell: the sandbox could not be built ({}): {}",
                    error.code(),
                    error.message()
                ),
            }),
        };
        let meter_limits = Limits {
            steps: Some(limits.instruction_limit),
            time: Some(limits.timeout),
            max_memory_bytes: Some(limits.memory_ceiling_bytes as u64),
            ..Limits::UNLIMITED
        };
        LuaCell {
            cell: ExpressionCell::lazy(&LUA, build, meter_limits),
            sandbox,
        }
    }

    /// What the sandbox's canaries verified on this build: which bounds hold and at what
    /// values. Builds the sandbox if [`load`](PredicateEvaluator::load) has not.
    ///
    /// # Errors
    ///
    /// `cell-unavailable` when the sandbox cannot be built.
    pub fn status(&self) -> Result<Status, CellError> {
        self.cell.engine()?;
        self.sandbox.get().map(Sandbox::status).ok_or_else(|| CellError {
            code: "cell-unavailable",
            node: None,
            message: "lua cell: the sandbox was not built".into(),
        })
    }
}

impl Default for LuaCell {
    /// [`writ_lua::DEFAULT_LIMITS`].
    fn default() -> LuaCell {
        LuaCell::new(writ_lua::DEFAULT_LIMITS)
    }
}

impl PredicateEvaluator for LuaCell {
    fn id(&self) -> &str {
        "lua"
    }

    /// Builds the sandbox and runs its canaries, once; a failure (`cell-unavailable`) is
    /// remembered and returned to every later call.
    fn load(&self) -> CellFuture<'_, Result<(), CellError>> {
        Box::pin(async move { self.cell.engine().map(drop) })
    }

    /// The predicate must be non-empty source text, not bytecode, that compiles.
    fn validate<'a>(&'a self, node: &'a PredicateNode) -> CellFuture<'a, Result<(), CellError>> {
        Box::pin(async move { self.cell.validate(node) })
    }

    fn evaluate<'a>(&'a self, node: &'a PredicateNode, context: &'a PredicateContext) -> CellFuture<'a, Evaluation> {
        Box::pin(async move { self.cell.decide(node, context) })
    }
}
