//! The js cell (`js`): one expression of writ's JavaScript subset over the expression scope.

use std::sync::Arc;

use writ_core::{Engine, Value};
use writ_js::{Budget, Evaluator};

use super::coerced_label;
use super::expression::{Dialect, ExpressionCell, js_truthy, no_precheck};
use crate::seam::{CellError, CellFuture, Evaluation, PredicateContext, PredicateEvaluator, PredicateNode};

/// How the js cell reads the table and its results.
static JS: Dialect = Dialect {
    id: "js",
    example: "\"fetch.count > 0\"",
    invalid: "is not one expression of writ's JavaScript subset",
    snapshot: |context| Value::Object(context.outputs.expression_scope()),
    holds: js_truthy,
    label: coerced_label,
    bad_result_codes: &[],
    precheck: no_precheck,
};

/// The js cell: a predicate is one expression of writ's JavaScript subset (seed 004), with no
/// host functions, run over [`OutputTable::expression_scope`](crate::OutputTable::expression_scope):
/// `fetch.count > 0`, `outputs['check:e2:e0'].status === 'green'`.
///
/// A branch matches when the result is JavaScript-truthy; a select's result names its case
/// (a number or boolean as `String()` writes it). Every evaluation runs under the cell's
/// [`Budget`] (steps, time, string and array lengths, total allocation) and is stopped
/// in-process when it crosses it.
pub struct JsCell {
    budget: Budget,
    cell: ExpressionCell,
}

impl JsCell {
    /// A cell whose evaluations run under `budget`.
    pub fn new(budget: Budget) -> JsCell {
        let evaluator = Evaluator::builder()
            .budget(budget)
            .build()
            .unwrap_or_else(|_| Evaluator::new());
        let limits = evaluator.default_limits();
        JsCell {
            budget,
            cell: ExpressionCell::new(&JS, Arc::new(evaluator), limits),
        }
    }

    /// The budget of every evaluation.
    pub fn budget(&self) -> Budget {
        self.budget
    }
}

impl Default for JsCell {
    /// Seed 004's default budget: a million steps, 100 ms, strings of a million characters,
    /// arrays of 100,000 items, ten million units allocated.
    fn default() -> JsCell {
        JsCell::new(Budget::default())
    }
}

impl PredicateEvaluator for JsCell {
    fn id(&self) -> &str {
        "js"
    }

    /// Nothing to load: the interpreter is part of the binary.
    fn load(&self) -> CellFuture<'_, Result<(), CellError>> {
        Box::pin(async { Ok(()) })
    }

    /// The predicate must be source text that compiles as one expression of the subset, with
    /// no host functions.
    fn validate<'a>(&'a self, node: &'a PredicateNode) -> CellFuture<'a, Result<(), CellError>> {
        Box::pin(async move { self.cell.validate(node) })
    }

    fn evaluate<'a>(&'a self, node: &'a PredicateNode, context: &'a PredicateContext) -> CellFuture<'a, Evaluation> {
        Box::pin(async move { self.cell.decide(node, context) })
    }
}

#[cfg(test)]
mod tests {
    use writ_core::{Diagnostic, parse_json};
    use writ_js::Evaluator;

    use super::super::expression::kind;
    use crate::seam::FaultKind;

    #[test]
    fn javascript_type_errors_are_type_mismatches() {
        let evaluator = Evaluator::new();
        let context = parse_json(r#"{"n": null, "s": "x", "o": {"map": 1}}"#).unwrap();
        let context = context.as_object().unwrap();
        for (source, expected) in [
            ("n.field", FaultKind::TypeMismatch),
            ("n.toFixed(1)", FaultKind::TypeMismatch),
            ("o.map(x => x)", FaultKind::TypeMismatch),
            ("[...o]", FaultKind::TypeMismatch),
            // TypeErrors whose messages read nothing like a bad read or call.
            ("[].reduce((a, b) => a + b)", FaultKind::TypeMismatch),
            ("Object.keys(n)", FaultKind::TypeMismatch),
            (
                "(1).toLocaleString(undefined, { style: 'currency' })",
                FaultKind::TypeMismatch,
            ),
            ("JSON.parse(s)", FaultKind::Runtime),
            ("s.repeat(-1)", FaultKind::Runtime),
            ("decodeURIComponent('%')", FaultKind::Runtime),
            ("missing > 1", FaultKind::Runtime),
            ("[1].push(2)", FaultKind::InvalidPredicate),
        ] {
            let error = evaluator.eval(source, &[context]).expect_err(source);
            assert_eq!(
                kind(Diagnostic::from(&error).category()),
                expected,
                "{source}: {error:?}"
            );
        }
    }
}
