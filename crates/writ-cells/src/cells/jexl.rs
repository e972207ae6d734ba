//! The jexl cell (`jexl`): a Jexl 2.3 expression over the expression scope.

use writ_core::{Str, Value};
use writ_jexl::{Error, Expression, Jexl};

use super::{Cache, Compiled, budget_fault, check_cases, expression_verdict, not_source_fault, source_text};
use crate::seam::{
    CellError, CellFuture, Evaluation, Fault, FaultKind, PredicateContext, PredicateEvaluator, PredicateNode,
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
/// Freeze checks every transform and function a predicate calls against the engine's
/// registrations.
pub struct JexlCell {
    /// The engine: its transforms, functions and limits.
    jexl: Jexl,
    /// Compiled expressions by source.
    cache: Cache<String, Compiled<Expression>>,
}

impl JexlCell {
    /// A cell over `jexl`: its registered transforms and functions are the only ones a
    /// predicate may call, and its limits bound every evaluation.
    pub fn new(jexl: Jexl) -> JexlCell {
        JexlCell {
            jexl,
            cache: Cache::new(),
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

    /// Decides `node` over `context`.
    fn decide(&self, node: &PredicateNode, context: &PredicateContext) -> Evaluation {
        let Some(source) = node.predicate.as_str() else {
            return Evaluation::faulted(node, not_source_fault("jexl", node));
        };
        let source = source.to_string_lossy();
        let compiled = self.cache.get_or_compile(source.as_ref(), || {
            self.jexl.compile(&source).map_err(|error| fault(&error))
        });
        let expression = match compiled.as_ref() {
            Ok(expression) => expression,
            Err(fault) => return Evaluation::faulted(node, fault.clone()),
        };
        let scope = Value::Object(context.outputs.expression_scope());
        match expression.evaluate(&scope) {
            Ok(result) => expression_verdict(node, &result, |result| Ok(result.is_truthy())),
            Err(error) => Evaluation::faulted(node, fault(&error)),
        }
    }
}

impl Default for JexlCell {
    /// No transforms, no functions, and [`writ_jexl::DEFAULT_LIMITS`].
    fn default() -> JexlCell {
        JexlCell::new(Jexl::new())
    }
}

/// The fault an engine error gives.
fn fault(error: &Error) -> Fault {
    let code = error.code();
    match kind(code) {
        FaultKind::BudgetExceeded => budget_fault(code, error.message()),
        kind => Fault::new(kind, code, error.message()),
    }
}

/// The kind of fault behind a writ-jexl code. A transform or function the engine does not
/// register is an invalid predicate (freeze refuses it). Jexl's operators answer as
/// JavaScript's do, so its one type error, and the one error `jexl-runtime` stands for, is a
/// read from `undefined` or `null`.
fn kind(code: &str) -> FaultKind {
    match code {
        "budget-exceeded" => FaultKind::BudgetExceeded,
        "jexl-syntax" | "jexl-dialect" | "jexl-unknown-transform" | "jexl-unknown-function" => {
            FaultKind::InvalidPredicate
        }
        "jexl-runtime" => FaultKind::TypeMismatch,
        _ => FaultKind::Runtime,
    }
}

/// The names `called` lists that `registered` lacks.
fn unregistered<'c>(called: &'c [Str], registered: &[&str]) -> Vec<&'c Str> {
    called
        .iter()
        .filter(|name| !registered.iter().any(|known| name.eq_str(known)))
        .collect()
}

/// Checks a node at freeze: source text, free of the two mistakes models make in Jexl, that
/// compiles and calls only what the engine registers.
fn validate(cell: &JexlCell, node: &PredicateNode) -> Result<(), CellError> {
    check_cases("jexl", node)?;
    let source = source_text("jexl", node, "\"fetch.count > 0\"")?.to_string_lossy();
    if let Some(lint) = writ_jexl::lint(&source) {
        return Err(CellError::invalid(
            node,
            format!(
                "jexl cell: node '{}' ({} at character {}): {}",
                node.id, lint.code, lint.position, lint.message
            ),
        ));
    }
    let expression = cell.jexl.compile(&source).map_err(|error| {
        CellError::invalid(
            node,
            format!(
                "jexl cell: node '{}' has a predicate that is not valid Jexl ({}): {}",
                node.id,
                error.code(),
                error.message()
            ),
        )
    })?;
    let transforms: Vec<&str> = cell.jexl.transform_names().collect();
    if let Some(missing) = unregistered(&expression.transforms(), &transforms).first() {
        return Err(CellError::invalid(
            node,
            format!(
                "jexl cell: node '{}' calls the transform '{missing}', which this cell does not register ({}); \
                 register it on the cell's Jexl engine, or write the predicate without it",
                node.id,
                registered_list(&transforms)
            ),
        ));
    }
    let functions: Vec<&str> = cell.jexl.function_names().collect();
    if let Some(missing) = unregistered(&expression.functions(), &functions).first() {
        return Err(CellError::invalid(
            node,
            format!(
                "jexl cell: node '{}' calls the function '{missing}', which this cell does not register ({}); \
                 register it on the cell's Jexl engine, or write the predicate without it",
                node.id,
                registered_list(&functions)
            ),
        ));
    }
    Ok(())
}

/// The registered names as a refusal lists them.
fn registered_list(names: &[&str]) -> String {
    if names.is_empty() {
        "it registers none".to_string()
    } else {
        format!("registered: {}", names.join(", "))
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
        Box::pin(async move { validate(self, node) })
    }

    fn evaluate<'a>(&'a self, node: &'a PredicateNode, context: &'a PredicateContext) -> CellFuture<'a, Evaluation> {
        Box::pin(async move { self.decide(node, context) })
    }
}
