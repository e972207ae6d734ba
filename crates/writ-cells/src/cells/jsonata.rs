//! The jsonata cell (`jsonata`): a JSONata 2.2.2 expression over the expression scope.

use writ_core::{BudgetExceeded, Limits, Meter, Value};
use writ_jsonata::{Error, Expression, JsonataLimits, Options};

use super::{Cache, Compiled, budget_fault, check_cases, expression_verdict, not_source_fault, source_text};
use crate::seam::{
    CellError, CellFuture, Evaluation, Fault, FaultKind, PredicateContext, PredicateEvaluator, PredicateNode,
};

/// The jsonata cell: a predicate is a JSONata expression whose input document is
/// [`OutputTable::expression_scope`](crate::OutputTable::expression_scope): `fetch.count > 0`,
/// ``outputs.`check:e2:e0`.status = "green"``.
///
/// A branch matches when JSONata's `$boolean` of the result is true (no result is false; an
/// array holds when some member does); a select's result names its case (a number or boolean
/// as `String()` writes it). `$now()`, `$millis()` and `$random()` read a fixed host, so the
/// same snapshot always gives the same verdict.
pub struct JsonataCell {
    /// How every evaluation runs: the cell's limits and the fixed host.
    options: Options,
    /// Compiled expressions by source.
    cache: Cache<String, Compiled<Expression>>,
}

impl JsonataCell {
    /// A cell whose evaluations run under `limits`.
    pub fn new(limits: JsonataLimits) -> JsonataCell {
        JsonataCell {
            options: Options {
                limits,
                ..Options::default()
            },
            cache: Cache::new(),
        }
    }

    /// The bounds of every evaluation.
    pub fn limits(&self) -> JsonataLimits {
        self.options.limits
    }

    /// Decides `node` over `context`.
    fn decide(&self, node: &PredicateNode, context: &PredicateContext) -> Evaluation {
        let Some(source) = node.predicate.as_str() else {
            return Evaluation::faulted(node, not_source_fault("jsonata", node));
        };
        let source = source.to_string_lossy();
        let compiled = self.cache.get_or_compile(source.as_ref(), || {
            Expression::compile(&source).map_err(|error| fault(&error))
        });
        let expression = match compiled.as_ref() {
            Ok(expression) => expression,
            Err(fault) => return Evaluation::faulted(node, fault.clone()),
        };
        let scope = Value::Object(context.outputs.expression_scope());
        match expression.evaluate(&scope, &self.options) {
            Ok(result) => expression_verdict(node, &result, |result| {
                let steps = Limits {
                    steps: self.options.limits.steps,
                    ..Limits::UNLIMITED
                };
                boolean(result, &mut Meter::starting_at_first_check(&steps, None))
                    .map_err(|exceeded| budget_fault("U1006", exceeded))
            }),
            Err(error) => Evaluation::faulted(node, fault(&error)),
        }
    }
}

impl Default for JsonataCell {
    /// JSONata's defaults (seed 001): 1 s, depth 5,000, 100,000,000 steps, sequences of
    /// 10,000,000.
    fn default() -> JsonataCell {
        JsonataCell::new(JsonataLimits::default())
    }
}

/// JSONata's `$boolean`: no result, `null`, `false`, `0`, `""`, `[]` and `{}` are false; an
/// array is true when some member is (arrays inside arrays are looked through). Walked without
/// recursion, a step per value, since an expression can build arrays nested arbitrarily deep.
pub(crate) fn boolean(value: &Value, meter: &mut Meter) -> Result<bool, BudgetExceeded> {
    let mut pending: Vec<&Value> = vec![value];
    while let Some(next) = pending.pop() {
        meter.step()?;
        let holds = match next {
            Value::Array(items) => {
                pending.extend(items.iter().rev());
                false
            }
            Value::Undefined | Value::Null => false,
            Value::Bool(flag) => *flag,
            Value::Number(number) => *number != 0.0 && !number.is_nan(),
            Value::String(text) => !text.is_empty(),
            Value::Object(object) => !object.is_empty(),
        };
        if holds {
            return Ok(true);
        }
    }
    Ok(false)
}

/// The fault an engine error gives.
fn fault(error: &Error) -> Fault {
    let mut message = error.message();
    if let Some(position) = error.position {
        message.push_str(&format!(" (at character {position})"));
    }
    match kind(error.code) {
        FaultKind::BudgetExceeded => budget_fault(error.code, message),
        kind => Fault::new(kind, error.code, message),
    }
}

/// The kind of fault behind a JSONata code: S (syntax) and a regular expression writ cannot run
/// are invalid predicates, T (type) codes are type mismatches, the bounds' codes are spent
/// budgets, and every other D code is a runtime error.
fn kind(code: &str) -> FaultKind {
    match code {
        "D1011" | "D1012" | "D2014" | "D2015" | "U1001" | "U1003" | "U1006" | "U1007" => FaultKind::BudgetExceeded,
        "U1004" => FaultKind::InvalidPredicate,
        _ if code.starts_with('S') => FaultKind::InvalidPredicate,
        _ if code.starts_with('T') => FaultKind::TypeMismatch,
        _ => FaultKind::Runtime,
    }
}

/// Checks a node at freeze: source text that compiles.
fn validate(node: &PredicateNode) -> Result<(), CellError> {
    check_cases("jsonata", node)?;
    let source = source_text("jsonata", node, "\"fetch.count > 0\"")?.to_string_lossy();
    Expression::compile(&source).map(drop).map_err(|error| {
        CellError::invalid(
            node,
            format!(
                "jsonata cell: node '{}' has a predicate that is not valid JSONata: {}",
                node.id,
                fault(&error).message
            ),
        )
    })
}

impl PredicateEvaluator for JsonataCell {
    fn id(&self) -> &str {
        "jsonata"
    }

    /// Nothing to load: the engine is part of the binary.
    fn load(&self) -> CellFuture<'_, Result<(), CellError>> {
        Box::pin(async { Ok(()) })
    }

    /// The predicate must be source text that compiles as JSONata.
    fn validate<'a>(&'a self, node: &'a PredicateNode) -> CellFuture<'a, Result<(), CellError>> {
        Box::pin(async move { validate(node) })
    }

    fn evaluate<'a>(&'a self, node: &'a PredicateNode, context: &'a PredicateContext) -> CellFuture<'a, Evaluation> {
        Box::pin(async move { self.decide(node, context) })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use writ_core::parse_json;

    #[test]
    fn boolean_agrees_with_jsonata() {
        let options = Options::default();
        for input in [
            "null",
            "false",
            "true",
            "0",
            "1",
            "-0.5",
            "\"\"",
            "\"a\"",
            "[]",
            "[0]",
            "[1]",
            "[0, \"\"]",
            "[0, 1]",
            "[[[]], [[0]]]",
            "[[[]], [[\"x\"]]]",
            "{}",
            "{\"a\": 0}",
            "[null, {}]",
            "[null, {\"a\": 1}]",
        ] {
            let value = parse_json(input).unwrap();
            let expected = Expression::compile("$boolean($)")
                .unwrap()
                .evaluate(&value, &options)
                .unwrap();
            let mut meter = Meter::new(&Limits::UNLIMITED);
            assert_eq!(Value::Bool(boolean(&value, &mut meter).unwrap()), expected, "{input}");
        }
        let mut meter = Meter::new(&Limits::UNLIMITED);
        assert!(!boolean(&Value::Undefined, &mut meter).unwrap());
    }

    #[test]
    fn every_bound_code_is_a_spent_budget() {
        for code in ["D1011", "D1012", "D2014", "D2015", "U1001", "U1003", "U1006", "U1007"] {
            assert_eq!(kind(code), FaultKind::BudgetExceeded, "{code}");
        }
        assert_eq!(kind("S0201"), FaultKind::InvalidPredicate);
        assert_eq!(kind("T2001"), FaultKind::TypeMismatch);
        assert_eq!(kind("D3001"), FaultKind::Runtime);
    }
}
