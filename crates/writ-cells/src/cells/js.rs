//! The js cell (`js`): one expression of writ's JavaScript subset over the expression scope.

use writ_js::{Budget, Compiled, Error, Evaluator, Reason, Thrown};

use super::{Cache, Compiled as Entry, budget_fault, check_cases, expression_verdict, not_source_fault, source_text};
use crate::seam::{
    CellError, CellFuture, Evaluation, Fault, FaultKind, PredicateContext, PredicateEvaluator, PredicateNode,
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
    /// The engine: no host functions, the cell's budget.
    evaluator: Evaluator,
    /// Compiled expressions by source.
    cache: Cache<String, Entry<Compiled>>,
}

impl JsCell {
    /// A cell whose evaluations run under `budget`.
    pub fn new(budget: Budget) -> JsCell {
        let evaluator = Evaluator::builder()
            .budget(budget)
            .build()
            .unwrap_or_else(|_| Evaluator::new());
        JsCell {
            evaluator,
            cache: Cache::new(),
        }
    }

    /// The budget of every evaluation.
    pub fn budget(&self) -> Budget {
        self.evaluator.budget()
    }

    /// Decides `node` over `context`.
    fn decide(&self, node: &PredicateNode, context: &PredicateContext) -> Evaluation {
        let Some(source) = node.predicate.as_str() else {
            return Evaluation::faulted(node, not_source_fault("js", node));
        };
        let source = source.to_string_lossy();
        let compiled = self.cache.get_or_compile(source.as_ref(), || {
            self.evaluator.compile(&source).map_err(|error| fault(&error))
        });
        let compiled = match compiled.as_ref() {
            Ok(compiled) => compiled,
            Err(fault) => return Evaluation::faulted(node, fault.clone()),
        };
        let scope = context.outputs.expression_scope();
        match compiled.eval(&[&scope]) {
            Ok(result) => expression_verdict(node, &result, |result| Ok(result.is_truthy())),
            Err(error) => Evaluation::faulted(node, fault(&error)),
        }
    }
}

impl Default for JsCell {
    /// Seed 004's default budget: a million steps, 100 ms, strings of a million characters,
    /// arrays of 100,000 items, ten million units allocated.
    fn default() -> JsCell {
        JsCell::new(Budget::default())
    }
}

/// The fault an engine error gives.
fn fault(error: &Error) -> Fault {
    let code = error.reason().code();
    match error.reason() {
        Reason::BudgetExceeded => budget_fault(code, error.message()),
        _ => Fault::new(kind(error), code, error.message()),
    }
}

/// The kind of fault behind an engine error. A runtime error that JavaScript throws as a
/// `TypeError` (a read from null or undefined, a call of something that is not a function, a
/// spread or destructuring of something that cannot be) is a type mismatch, as writ-js names it
/// ([`Error::thrown`]); every other runtime error is a runtime fault.
fn kind(error: &Error) -> FaultKind {
    match error.reason() {
        Reason::ExpressionSyntax | Reason::GuardrailViolation => FaultKind::InvalidPredicate,
        Reason::BudgetExceeded => FaultKind::BudgetExceeded,
        Reason::ExpressionRuntime if error.thrown() == Some(Thrown::TypeError) => FaultKind::TypeMismatch,
        Reason::UnknownReference | Reason::InvalidArguments | Reason::HostFunction | Reason::ExpressionRuntime => {
            FaultKind::Runtime
        }
    }
}

/// Checks a node at freeze: source text that compiles.
fn validate(cell: &JsCell, node: &PredicateNode) -> Result<(), CellError> {
    check_cases("js", node)?;
    let source = source_text("js", node, "\"fetch.count > 0\"")?.to_string_lossy();
    cell.evaluator.compile(&source).map(drop).map_err(|error| {
        CellError::invalid(
            node,
            format!(
                "js cell: node '{}' has a predicate that is not one expression of writ's JavaScript subset \
                 ({}): {}",
                node.id,
                error.reason().code(),
                error.message()
            ),
        )
    })
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
        Box::pin(async move { validate(self, node) })
    }

    fn evaluate<'a>(&'a self, node: &'a PredicateNode, context: &'a PredicateContext) -> CellFuture<'a, Evaluation> {
        Box::pin(async move { self.decide(node, context) })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn javascript_type_errors_are_type_mismatches() {
        let evaluator = Evaluator::new();
        let context = writ_core::parse_json(r#"{"n": null, "s": "x", "o": {"map": 1}}"#).unwrap();
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
            assert_eq!(kind(&error), expected, "{source}: {error:?}");
        }
    }
}
