//! The jexl cell (`jexl`): a Jexl 2.3 expression over the expression scope.

use std::sync::Arc;

use writ_core::Value;
use writ_jexl::Jexl;

use super::coerced_label;
use super::expression::{Dialect, ExpressionCell, js_truthy, no_precheck};
use crate::seam::{CellError, CellFuture, Evaluation, PredicateContext, PredicateEvaluator, PredicateNode};

/// How the jexl cell reads the table and its results.
static JEXL: Dialect = Dialect {
    id: "jexl",
    example: "\"fetch.count > 0\"",
    invalid: "is not valid Jexl",
    snapshot: |context| Value::Object(context.outputs.expression_scope()),
    holds: js_truthy,
    label: coerced_label,
    bad_result_codes: &[],
    precheck: no_precheck,
};

/// The jexl cell: a predicate is a Jexl expression whose context is
/// [`OutputTable::expression_scope`](crate::OutputTable::expression_scope): `fetch.count > 0`,
/// `fetch.items[.age >= 30][0].name == "ada"`, `outputs["check:e2:e0"].status == "green"`.
///
/// A branch matches when the result is JavaScript-truthy; a select's result names its case (a
/// number or boolean as `String()` writes it). Transforms (`x|upper`) and functions (`f(x)`)
/// exist only as the [`Jexl`] engine the cell is built with registers them; the default
/// registers none, so a pipe resolves nothing.
///
/// Freeze runs the engine's validation: the dialect linter (`===`, `ctx.`), the parse, and every
/// transform and function the predicate calls against the engine's registrations.
pub struct JexlCell {
    /// The engine's configuration, kept to register more on it.
    jexl: Jexl,
    cell: ExpressionCell,
}

impl JexlCell {
    /// A cell over `jexl`: its registered transforms and functions are the only ones a
    /// predicate may call, and its limits bound every evaluation.
    pub fn new(jexl: Jexl) -> JexlCell {
        let limits = *jexl.limits();
        JexlCell {
            cell: ExpressionCell::new(&JEXL, Arc::new(jexl.clone()), limits),
            jexl,
        }
    }

    /// The same cell with `f` registered as the function `name` (see [`Jexl::with_function`]).
    pub fn with_function(
        self,
        name: &str,
        f: impl Fn(&[Value]) -> Result<Value, String> + Send + Sync + 'static,
    ) -> JexlCell {
        JexlCell::new(self.jexl.with_function(name, f))
    }
}

impl Default for JexlCell {
    /// No transforms, no functions, and [`writ_jexl::DEFAULT_LIMITS`].
    fn default() -> JexlCell {
        JexlCell::new(Jexl::new())
    }
}

impl PredicateEvaluator for JexlCell {
    fn id(&self) -> &str {
        "jexl"
    }

    /// Nothing to load: the engine is part of the binary.
    fn load(&self) -> CellFuture<'_, Result<(), CellError>> {
        Box::pin(async { Ok(()) })
    }

    /// The predicate must be source text that passes the dialect linter (no `===`, no `ctx.`
    /// prefix), compiles, and calls only registered transforms and functions.
    fn validate<'a>(&'a self, node: &'a PredicateNode) -> CellFuture<'a, Result<(), CellError>> {
        Box::pin(async move { self.cell.validate(node) })
    }

    fn evaluate<'a>(&'a self, node: &'a PredicateNode, context: &'a PredicateContext) -> CellFuture<'a, Evaluation> {
        Box::pin(async move { self.cell.decide(node, context) })
    }
}
