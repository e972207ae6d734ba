//! The jsonata cell (`jsonata`): a JSONata 2.2.2 expression over the expression scope.

use std::sync::Arc;

use writ_core::{BudgetExceeded, Meter, Value};
use writ_jsonata::{Jsonata, JsonataLimits};

use super::coerced_label;
use super::expression::{Dialect, ExpressionCell, no_precheck};
use crate::seam::{CellError, CellFuture, Evaluation, PredicateContext, PredicateEvaluator, PredicateNode};

/// How the jsonata cell reads the table and its results.
static JSONATA: Dialect = Dialect {
    id: "jsonata",
    example: "\"fetch.count > 0\"",
    invalid: "is not valid JSONata",
    snapshot: |context| Value::Object(context.outputs.expression_scope()),
    holds: boolean,
    label: coerced_label,
    bad_result_codes: &[],
    precheck: no_precheck,
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
    limits: JsonataLimits,
    cell: ExpressionCell,
}

impl JsonataCell {
    /// A cell whose evaluations run under `limits`.
    pub fn new(limits: JsonataLimits) -> JsonataCell {
        JsonataCell {
            limits,
            cell: ExpressionCell::new(&JSONATA, Arc::new(Jsonata), limits.to_meter_limits()),
        }
    }

    /// The bounds of every evaluation.
    pub fn limits(&self) -> JsonataLimits {
        self.limits
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
        Box::pin(async move { self.cell.validate(node) })
    }

    fn evaluate<'a>(&'a self, node: &'a PredicateNode, context: &'a PredicateContext) -> CellFuture<'a, Evaluation> {
        Box::pin(async move { self.cell.decide(node, context) })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use writ_core::{Limits, parse_json};
    use writ_jsonata::{Expression, Options};

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
    fn every_bound_is_a_spent_budget_and_each_code_has_its_kind() {
        use writ_core::{Engine, FixedHost, Object, Source};

        use super::super::expression::kind;
        use crate::seam::FaultKind;

        for (source, expected) in [
            ("[1..20000000]", FaultKind::BudgetExceeded),
            ("$count([1..2000000].($ * 2))", FaultKind::BudgetExceeded),
            ("(", FaultKind::InvalidPredicate),
            ("1 + 'a'", FaultKind::TypeMismatch),
            ("$error('no')", FaultKind::Runtime),
        ] {
            let limits = JsonataLimits {
                sequence: Some(1_000),
                ..JsonataLimits::default()
            };
            let diagnostic = Jsonata
                .run(
                    Source::Text(source),
                    &Value::Undefined,
                    &Object::new(),
                    &limits.to_meter_limits(),
                    Arc::new(FixedHost::default()),
                )
                .expect_err(source);
            assert_eq!(kind(diagnostic.category()), expected, "{source}: {diagnostic:?}");
        }
    }
}
