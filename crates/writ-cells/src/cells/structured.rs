//! The structured cell (`structured`): JSON predicates over the merged output table.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use writ_core::{FifoCache, Limits, Meter, Object, Str, Value};

use super::{CACHE_CAPACITY, Compiled, budget_fault, case_list, check_cases, get_or_compile};
use crate::seam::{
    CellError, CellFuture, Decision, Evaluation, Fault, FaultKind, PredicateContext, PredicateEvaluator, PredicateNode,
    Verdict,
};
use crate::structured::{DEFAULT_LIMITS, Predicate, PredicateError};

/// The structured cell: a branch's predicate is one [`Predicate`]; a select's is an object
/// from each case label to its predicate, tried in the order of `cases`.
///
/// It reads [`OutputTable::merged`](crate::OutputTable::merged): a path starts with the table
/// key, `fetch:e2:e0.status`. Comparing values of different kinds is simply false, so the only
/// faults at evaluation are a predicate that does not parse (a node that skipped validation)
/// and a spent budget.
///
/// ```
/// use writ_cells::{OutputTable, PredicateContext, PredicateEvaluator, PredicateNode, StructuredCell, Verdict};
/// use writ_core::{block_on, parse_json};
///
/// let cell = StructuredCell::default();
/// let node = PredicateNode::branch("decide", "structured", parse_json(
///     r#"{"path": "fetch:e2:e0.count", "op": "gt", "value": 0}"#,
/// )?);
/// block_on(cell.validate(&node))?;
/// let mut outputs = OutputTable::new();
/// outputs.insert("fetch", "e2:e0", [parse_json(r#"{"count": 3}"#)?]);
/// let context = PredicateContext { outputs, ..PredicateContext::default() };
/// let decided = block_on(cell.evaluate(&node, &context));
/// assert_eq!(decided.verdict, Verdict::Branch { matched: true });
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct StructuredCell {
    /// The budget of one evaluation (a select's cases share it).
    limits: Limits,
    /// Plans by the predicate's JSON text and decision.
    by_text: FifoCache<String, Compiled<Plan>>,
    /// Plans by the identity of the predicate object a node carries, with the object kept alive
    /// so its address cannot be reused: a node decided frame after frame skips writing its
    /// predicate as text.
    by_identity: FifoCache<(usize, bool), (Value, Compiled<Plan>)>,
}

/// A parsed predicate, shaped by the decision it serves.
enum Plan {
    /// A branch's predicate.
    Branch(Predicate),
    /// A select's entries by label.
    Select(HashMap<Str, Predicate>),
}

impl StructuredCell {
    /// A cell whose evaluations run under `limits` (steps, time and depth apply).
    pub fn new(limits: Limits) -> StructuredCell {
        StructuredCell {
            limits,
            by_text: FifoCache::new(CACHE_CAPACITY),
            by_identity: FifoCache::new(CACHE_CAPACITY),
        }
    }

    /// The budget of one evaluation.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// The plan for `node`, from a cache when the predicate was seen before.
    fn plan(&self, node: &PredicateNode) -> Compiled<Plan> {
        let select = matches!(node.decision, Decision::Select { .. });
        let Value::Object(object) = &node.predicate else {
            return Arc::new(compile(node));
        };
        let identity = (object.identity(), select);
        if let Some((_, plan)) = self.by_identity.get(&identity) {
            return plan;
        }
        let text = node.predicate.to_json_string().unwrap_or_default();
        let key = format!("{}{text}", if select { 's' } else { 'b' });
        let plan = get_or_compile(&self.by_text, key.as_str(), || compile(node));
        self.by_identity
            .insert(identity, (node.predicate.clone(), Arc::clone(&plan)));
        plan
    }

    /// Decides `node` over `context`.
    fn decide(&self, node: &PredicateNode, context: &PredicateContext) -> Evaluation {
        let plan = self.plan(node);
        let plan = match plan.as_ref() {
            Ok(plan) => plan,
            Err(fault) => return Evaluation::faulted(node, fault.clone()),
        };
        let data = Value::Object(context.outputs.merged());
        let mut meter = Meter::starting_at_first_check(&self.limits, None);
        let decided = match (plan, &node.decision) {
            (Plan::Branch(predicate), _) => predicate
                .evaluate(&data, &mut meter)
                .map(|matched| Verdict::Branch { matched }),
            (Plan::Select(entries), Decision::Select { cases }) => {
                let mut ordered = Vec::with_capacity(cases.len());
                for case in cases {
                    match entries.get(case) {
                        Some(predicate) => ordered.push((case, predicate)),
                        None => return Evaluation::faulted(node, missing_case_fault(node, case)),
                    }
                }
                first_holding(&ordered, &data, &mut meter).map(|case| Verdict::Select { case })
            }
            // Plans are cached per decision, so a select's plan never meets a branch node.
            (Plan::Select(_), Decision::Branch) => {
                let message = format!("structured cell: branch node '{}' was given a select's plan", node.id);
                return Evaluation::faulted(
                    node,
                    Fault::new(FaultKind::InvalidPredicate, FaultKind::InvalidPredicate.code(), message),
                );
            }
        };
        match decided {
            Ok(verdict) => Evaluation::decided(verdict),
            Err(exceeded) => Evaluation::faulted(node, budget_fault("budget-exceeded", exceeded)),
        }
    }
}

impl Default for StructuredCell {
    /// [`DEFAULT_LIMITS`]: a million steps and 100 ms.
    fn default() -> StructuredCell {
        StructuredCell::new(DEFAULT_LIMITS)
    }
}

/// The first case, in `cases` order, whose predicate holds.
fn first_holding(
    ordered: &[(&Str, &Predicate)],
    data: &Value,
    meter: &mut Meter,
) -> Result<Option<Str>, writ_core::BudgetExceeded> {
    for (case, predicate) in ordered {
        if predicate.evaluate(data, meter)? {
            return Ok(Some((*case).clone()));
        }
    }
    Ok(None)
}

/// Parses `node`'s predicate as its decision needs it.
fn compile(node: &PredicateNode) -> Result<Plan, Fault> {
    match &node.decision {
        Decision::Branch => Predicate::parse(&node.predicate)
            .map(Plan::Branch)
            .map_err(|error| parse_fault(&branch_refusal(node, &error), &error)),
        Decision::Select { cases } => {
            let record = select_record(node, cases).map_err(|message| {
                Fault::new(FaultKind::InvalidPredicate, FaultKind::InvalidPredicate.code(), message)
            })?;
            let mut entries = HashMap::with_capacity(record.len());
            for (label, predicate) in record.iter() {
                let parsed = Predicate::parse(predicate)
                    .map_err(|error| parse_fault(&case_refusal(node, label, &error), &error))?;
                entries.insert(label.clone(), parsed);
            }
            Ok(Plan::Select(entries))
        }
    }
}

/// The fault of a predicate that does not parse, under the parser's own code.
fn parse_fault(message: &str, error: &PredicateError) -> Fault {
    Fault::new(FaultKind::InvalidPredicate, error.code(), message)
}

/// Why a branch's predicate is refused.
fn branch_refusal(node: &PredicateNode, error: &PredicateError) -> String {
    format!(
        "structured cell: branch node '{}' has a predicate that is not a structured predicate, {error}",
        node.id
    )
}

/// Why one case of a select is refused.
fn case_refusal(node: &PredicateNode, label: &Str, error: &PredicateError) -> String {
    format!("structured cell: select node '{}', case '{label}': {error}", node.id)
}

/// The fault of a select whose record lacks a declared case.
fn missing_case_fault(node: &PredicateNode, case: &Str) -> Fault {
    Fault::new(
        FaultKind::InvalidPredicate,
        FaultKind::InvalidPredicate.code(),
        missing_case_message(node, case),
    )
}

/// Why a select whose record lacks a declared case is refused.
fn missing_case_message(node: &PredicateNode, case: &Str) -> String {
    format!(
        "structured cell: select node '{}' declares the case '{case}', but its predicate has no entry for it; \
         add one, or remove the case",
        node.id
    )
}

/// A select's predicate as the record it must be, or why it is not one.
fn select_record<'n>(node: &'n PredicateNode, cases: &[Str]) -> Result<&'n Object, String> {
    match &node.predicate {
        Value::Object(record) => Ok(record),
        other => Err(format!(
            "structured cell: select node '{}' needs its predicate to be an object from each case label to a \
             structured predicate, e.g. {{\"{}\": {{\"path\": \"check:e2:e0.status\", \"op\": \"eq\", \"value\": \"{}\"}}}}, \
             but it is {}",
            node.id,
            cases.first().map_or_else(|| "label".to_string(), ToString::to_string),
            cases.first().map_or_else(|| "…".to_string(), ToString::to_string),
            other.kind().described()
        )),
    }
}

/// Checks a node at freeze, as [`PredicateEvaluator::validate`] documents.
fn validate(node: &PredicateNode) -> Result<(), CellError> {
    check_cases("structured", node)?;
    match &node.decision {
        Decision::Branch => Predicate::parse(&node.predicate)
            .map(drop)
            .map_err(|error| CellError::invalid(node, branch_refusal(node, &error))),
        Decision::Select { cases } => {
            let record = select_record(node, cases).map_err(|message| CellError::invalid(node, message))?;
            if let Some(case) = cases.iter().find(|case| record.get(case).is_none()) {
                return Err(CellError::invalid(node, missing_case_message(node, case)));
            }
            let declared: HashSet<&Str> = cases.iter().collect();
            if let Some(label) = record.keys().find(|label| !declared.contains(label)) {
                let nearest = writ_core::closest_name(
                    &label.to_string_lossy(),
                    cases.iter().filter_map(|case| case.as_ascii_str()),
                )
                .map(|nearest| format!(" (did you mean '{nearest}'?)"))
                .unwrap_or_default();
                return Err(CellError::invalid(
                    node,
                    format!(
                        "structured cell: select node '{}' has a predicate entry for '{label}', which is not one of \
                         its cases ({}){nearest}; fix the label, or add it to the cases",
                        node.id,
                        case_list(cases)
                    ),
                ));
            }
            for (label, predicate) in record.iter() {
                Predicate::parse(predicate)
                    .map_err(|error| CellError::invalid(node, case_refusal(node, label, &error)))?;
            }
            Ok(())
        }
    }
}

impl PredicateEvaluator for StructuredCell {
    fn id(&self) -> &str {
        "structured"
    }

    /// Nothing to load: the language is part of this crate.
    fn load(&self) -> CellFuture<'_, Result<(), CellError>> {
        Box::pin(async { Ok(()) })
    }

    /// A branch's predicate must parse; a select's must be an object with an entry, that
    /// parses, for every case and for nothing else.
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
    fn a_predicate_is_parsed_once_however_many_frames_decide_it() {
        let cell = StructuredCell::default();
        let predicate = parse_json(r#"{"path": "n:.v", "op": "eq", "value": 1}"#).unwrap();
        let context = PredicateContext::default();
        for _ in 0..10 {
            // A fresh node each time, as a host that rebuilds nodes per frame would make.
            let node = PredicateNode::branch(
                "b",
                "structured",
                parse_json(&predicate.to_json_string().unwrap()).unwrap(),
            );
            cell.decide(&node, &context);
        }
        assert_eq!(cell.by_text.len(), 1);
        let node = PredicateNode::branch("b", "structured", predicate);
        let first = cell.plan(&node);
        assert!(Arc::ptr_eq(&first, &cell.plan(&node)), "the same object finds its plan");
    }
}
