//! The predicate-evaluator seam: what a plan's `branch` and `select` nodes ask of a cell.
//!
//! A cell is a [`PredicateEvaluator`]: it has an id, loads once, checks a node's predicate at
//! freeze ([`validate`](PredicateEvaluator::validate)) and decides it at run time
//! ([`evaluate`](PredicateEvaluator::evaluate)) against a [`PredicateContext`], a plain-data
//! snapshot of the frame's output table. Every method is async, so a cell whose engine loads
//! asynchronously (a module, a VM) fits the same seam; writ's own cells answer at once.
//!
//! Deciding never fails: a fault — a malformed path, a type mismatch, a spent budget, a runtime
//! error — gives the negative [`Verdict`] (a branch does not match, a select takes its default)
//! together with a [`Fault`] the run records in its events.

use std::collections::HashMap;
use std::fmt;
use std::future::Future;
use std::pin::Pin;

use writ_core::{Array, Object, Str, Value};

/// The future a cell's methods return: boxed, so cells of different types share one registry.
pub type CellFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// A predicate cell: the evaluator a node names in its `evaluator` field.
///
/// Cells hold no per-evaluation state; one cell serves every node and frame that names it, from
/// any thread.
pub trait PredicateEvaluator: Send + Sync {
    /// The name nodes use to pick this cell (`structured`, `jexl`, `lua`, `js`, `jsonata`).
    fn id(&self) -> &str;

    /// Makes the cell ready: builds and probes its engine. Idempotent; a failure is remembered
    /// and returned again, so a plan cannot freeze against a cell that cannot run.
    fn load(&self) -> CellFuture<'_, Result<(), CellError>>;

    /// Checks a node's predicate at freeze: its type, its syntax, its dialect, its cases. A
    /// refusal names the node and says what to write instead.
    fn validate<'a>(&'a self, node: &'a PredicateNode) -> CellFuture<'a, Result<(), CellError>>;

    /// Decides the node for one frame. Never fails: a fault gives the negative verdict and says
    /// why in [`Evaluation::fault`].
    fn evaluate<'a>(&'a self, node: &'a PredicateNode, context: &'a PredicateContext) -> CellFuture<'a, Evaluation>;
}

/// What a node asks a cell to decide.
#[derive(Clone, Debug, PartialEq)]
pub enum Decision {
    /// A two-way `branch`: does the predicate hold?
    Branch,
    /// An n-way `select`: which of `cases`, tried in this order, holds? None routes to the
    /// node's `default` handle.
    Select {
        /// The case labels, in the order the author declared them.
        cases: Vec<Str>,
    },
}

/// The part of a plan node a cell sees: its id, the cell it names, what it decides and its
/// predicate (source text for the expression cells, JSON for the structured cell).
#[derive(Clone, Debug, PartialEq)]
pub struct PredicateNode {
    /// The node's id, named in every refusal and fault.
    pub id: Str,
    /// The cell the node names.
    pub evaluator: Str,
    /// Branch or select, with the select's cases.
    pub decision: Decision,
    /// The predicate as the plan carries it.
    pub predicate: Value,
}

impl PredicateNode {
    /// A `branch` node.
    pub fn branch(id: &str, evaluator: &str, predicate: Value) -> PredicateNode {
        PredicateNode {
            id: Str::from(id),
            evaluator: Str::from(evaluator),
            decision: Decision::Branch,
            predicate,
        }
    }

    /// A `select` node with its cases in order.
    pub fn select(id: &str, evaluator: &str, cases: &[&str], predicate: Value) -> PredicateNode {
        PredicateNode {
            id: Str::from(id),
            evaluator: Str::from(evaluator),
            decision: Decision::Select {
                cases: cases.iter().map(|case| Str::from(*case)).collect(),
            },
            predicate,
        }
    }

    /// The verdict a fault gives this node: a branch does not match, a select takes its default.
    pub fn negative(&self) -> Verdict {
        match self.decision {
            Decision::Branch => Verdict::Branch { matched: false },
            Decision::Select { .. } => Verdict::Select { case: None },
        }
    }
}

/// A cell's answer for one frame.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// A branch's answer.
    Branch {
        /// True routes to the `match` handle, false to `no_match`.
        matched: bool,
    },
    /// A select's answer.
    Select {
        /// The first case that holds, or None for the `default` handle.
        case: Option<Str>,
    },
}

/// A verdict and, when the cell faulted, why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Evaluation {
    /// What the node decides. After a fault this is the node's negative verdict.
    pub verdict: Verdict,
    /// The fault behind a negative verdict, for the run's events; None when the predicate ran.
    pub fault: Option<Fault>,
}

impl Evaluation {
    /// A verdict reached without a fault.
    pub fn decided(verdict: Verdict) -> Evaluation {
        Evaluation { verdict, fault: None }
    }

    /// The node's negative verdict, with the fault that forced it.
    pub fn faulted(node: &PredicateNode, fault: Fault) -> Evaluation {
        Evaluation {
            verdict: node.negative(),
            fault: Some(fault),
        }
    }
}

/// Why a predicate could not be decided.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fault {
    /// The kind of fault.
    pub kind: FaultKind,
    /// The engine's own error code (`budget-exceeded`, `T2001`, `jexl-syntax`, …).
    pub code: String,
    /// What went wrong, written for the plan's author.
    pub message: String,
}

impl Fault {
    /// A fault of `kind` with the engine's code and message.
    pub fn new(kind: FaultKind, code: impl Into<String>, message: impl Into<String>) -> Fault {
        Fault {
            kind,
            code: code.into(),
            message: message.into(),
        }
    }
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({}): {}", self.kind.code(), self.code, self.message)
    }
}

/// The kinds of fault the seed names, each with a stable code.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum FaultKind {
    /// The predicate is not one this cell can run: not source text, a syntax error, a malformed
    /// path, an unknown case. Freeze refuses these; a fault of this kind means the node reached
    /// the cell without being validated.
    InvalidPredicate,
    /// A value had the wrong type for what the predicate did with it.
    TypeMismatch,
    /// The evaluation ran out of steps, time, memory or depth.
    BudgetExceeded,
    /// The predicate raised an error while it ran.
    Runtime,
    /// The predicate returned something that is not a verdict (a select's label that is not a
    /// case, say).
    BadResult,
    /// The node names no cell the registry holds.
    Unwired,
}

impl FaultKind {
    /// The stable code recorded in the run's events.
    pub fn code(self) -> &'static str {
        match self {
            FaultKind::InvalidPredicate => "predicate-invalid",
            FaultKind::TypeMismatch => "predicate-type-mismatch",
            FaultKind::BudgetExceeded => "predicate-budget-exceeded",
            FaultKind::Runtime => "predicate-runtime-error",
            FaultKind::BadResult => "predicate-bad-result",
            FaultKind::Unwired => "predicate-cell-unwired",
        }
    }
}

/// A refusal from [`PredicateEvaluator::load`] or [`PredicateEvaluator::validate`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CellError {
    /// The stable code: `cell-unavailable`, `cell-unwired`, `predicate-invalid`, or a cell's own.
    pub code: &'static str,
    /// The node refused, when there is one.
    pub node: Option<Str>,
    /// What is wrong and what to write instead.
    pub message: String,
}

impl CellError {
    /// A refusal of `node`'s predicate.
    pub fn invalid(node: &PredicateNode, message: impl Into<String>) -> CellError {
        CellError {
            code: "predicate-invalid",
            node: Some(node.id.clone()),
            message: message.into(),
        }
    }
}

impl fmt::Display for CellError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for CellError {}

/// Which frame is deciding: plain data, for a cell that wants to say where it was asked.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct FrameRef {
    /// The node the frame runs.
    pub node_id: Str,
    /// The frame's branch key (`e2:e0`; empty for the entry route).
    pub branch_key: Str,
    /// The edge that led here; None for the entry frame.
    pub via_edge: Option<Str>,
}

/// What a predicate may read: the frame's output table and the frame itself.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct PredicateContext {
    /// The outputs visible on this frame's branch.
    pub outputs: OutputTable,
    /// The deciding frame.
    pub frame: FrameRef,
}

/// The output table a predicate reads: for each table key `nodeId:branchKey`, that output's
/// items, each an object whose `json` member is the item's data.
///
/// It is a snapshot of plain data ([`Value`] holds nothing else), so no predicate can reach a
/// method, a getter or a live runtime object through it.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct OutputTable {
    entries: Vec<(Str, Array)>,
}

impl OutputTable {
    /// An empty table.
    pub fn new() -> OutputTable {
        OutputTable::default()
    }

    /// Records the items node `node_id` produced on the route `branch_key`, each item's data
    /// given as is (it is wrapped as `{"json": data}`). A key recorded again replaces its items.
    pub fn insert(&mut self, node_id: &str, branch_key: &str, items: impl IntoIterator<Item = Value>) {
        let key = Str::from(format!("{node_id}:{branch_key}").as_str());
        let json = Str::from("json");
        let items: Vec<Value> = items
            .into_iter()
            .map(|data| Value::Object(Object::from_entries(vec![(json.clone(), data)])))
            .collect();
        let items = Array::from(items);
        match self.entries.iter_mut().find(|(existing, _)| *existing == key) {
            Some(entry) => entry.1 = items,
            None => self.entries.push((key, items)),
        }
    }

    /// A table read from JSON: an object from table key to an array of items `{"json": …}`.
    ///
    /// # Errors
    ///
    /// A message naming the key or item that is not of that shape.
    pub fn from_value(value: &Value) -> Result<OutputTable, String> {
        let Value::Object(object) = value else {
            return Err(format!(
                "an output table is an object from 'nodeId:branchKey' to an array of items, found {}",
                value.kind().described()
            ));
        };
        let mut entries = Vec::with_capacity(object.len());
        for (key, items) in object.iter() {
            if !key.code_units().any(|unit| unit == u16::from(b':')) {
                return Err(format!(
                    "output table key '{key}' has no ':' (keys are 'nodeId:branchKey', e.g. 'fetch:' or 'fetch:e2:e0')"
                ));
            }
            let Value::Array(items) = items else {
                return Err(format!(
                    "output table key '{key}' must hold an array of items {{\"json\": …}}"
                ));
            };
            if let Some(idx) = items
                .iter()
                .position(|item| item.as_object().is_none_or(|item| item.get_str("json").is_none()))
            {
                return Err(format!(
                    "output table key '{key}', item {idx}: an item is an object {{\"json\": …}}"
                ));
            }
            entries.push((key.clone(), items.clone()));
        }
        Ok(OutputTable { entries })
    }

    /// The table as JSON: table key to its array of items.
    pub fn to_value(&self) -> Value {
        Value::Object(Object::from_entries(
            self.entries
                .iter()
                .map(|(key, items)| (key.clone(), Value::Array(items.clone())))
                .collect(),
        ))
    }

    /// Each table key with its items, in the order they were recorded.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = (&Str, &Array)> + '_ {
        self.entries.iter().map(|(key, items)| (key, items))
    }

    /// The number of table keys.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// True when no output is recorded.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Each table key with the merge of its items' `json` objects (a later item's key replaces
    /// an earlier one's; an item whose data is not an object replaces the whole merge). This is
    /// what the structured cell's paths read: `fetch:e2:e0.status`.
    pub fn merged(&self) -> Object {
        Object::from_entries(
            self.entries
                .iter()
                .map(|(key, items)| (key.clone(), merge_items(items)))
                .collect(),
        )
    }

    /// The scope of the expression cells (jexl, js, JSONata): every merged output under its
    /// bare node id when that id is an identifier and occurs under exactly one table key, and
    /// every merged output under its full key in `outputs` (set last, so a node named
    /// `outputs` cannot hide it).
    pub fn expression_scope(&self) -> Object {
        let merged: Vec<(Str, Value)> = self
            .entries
            .iter()
            .map(|(key, items)| (key.clone(), merge_items(items)))
            .collect();
        let node_ids: Vec<Str> = merged.iter().map(|(key, _)| node_id_of(key)).collect();
        let mut occurrences: HashMap<&Str, usize> = HashMap::with_capacity(node_ids.len());
        for node_id in &node_ids {
            *occurrences.entry(node_id).or_default() += 1;
        }
        let mut scope = Object::with_capacity(merged.len() + 1);
        for (node_id, (_, value)) in node_ids.iter().zip(&merged) {
            if occurrences.get(node_id) == Some(&1) && is_identifier(node_id) {
                scope.insert(node_id.clone(), value.clone());
            }
        }
        scope.insert(Str::from("outputs"), Value::Object(Object::from_entries(merged)));
        scope
    }
}

/// The node id of a table key: what precedes its first `:`.
fn node_id_of(key: &Str) -> Str {
    let colon = key.code_units().position(|unit| unit == u16::from(b':'));
    key.slice(0, colon.unwrap_or(key.len_utf16()))
}

/// True for the names a bare reference can spell in every expression cell:
/// `[A-Za-z_$][A-Za-z0-9_$]*`.
fn is_identifier(name: &Str) -> bool {
    let mut units = name.code_units();
    let starts =
        |unit: u16| unit < 128 && (unit as u8 == b'_' || unit as u8 == b'$' || (unit as u8).is_ascii_alphabetic());
    match units.next() {
        Some(first) if starts(first) => units.all(|unit| starts(unit) || (unit < 128 && (unit as u8).is_ascii_digit())),
        _ => false,
    }
}

/// The merge of an output's items' `json` members.
fn merge_items(items: &Array) -> Value {
    let mut merged: Option<Object> = None;
    let mut last_non_object = None;
    for item in items.iter() {
        let data = item
            .as_object()
            .and_then(|item| item.get_str("json"))
            .cloned()
            .unwrap_or_default();
        match data {
            Value::Object(object) => {
                last_non_object = None;
                match &mut merged {
                    None => merged = Some(object),
                    Some(merged) => {
                        for (key, value) in object.iter() {
                            merged.insert(key.clone(), value.clone());
                        }
                    }
                }
            }
            other => {
                merged = None;
                last_non_object = Some(other);
            }
        }
    }
    match (merged, last_non_object) {
        (Some(object), _) => Value::Object(object),
        (None, Some(value)) => value,
        (None, None) => Value::Object(Object::new()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use writ_core::parse_json;

    fn table() -> OutputTable {
        let mut table = OutputTable::new();
        table.insert("fetch", "", [parse_json(r#"{"status": "ready", "count": 2}"#).unwrap()]);
        table.insert(
            "check",
            "e2:e0",
            [
                parse_json(r#"{"a": 1, "b": 1}"#).unwrap(),
                parse_json(r#"{"b": 2}"#).unwrap(),
            ],
        );
        table.insert("check", "e2:e1", [parse_json(r#"{"a": 9}"#).unwrap()]);
        table.insert("n-1", "", [parse_json(r#"{"x": 1}"#).unwrap()]);
        table
    }

    #[test]
    fn merged_outputs_join_their_items_later_keys_winning() {
        let merged = Value::Object(table().merged());
        assert_eq!(
            merged.to_json_string().unwrap(),
            r#"{"fetch:":{"status":"ready","count":2},"check:e2:e0":{"a":1,"b":2},"check:e2:e1":{"a":9},"n-1:":{"x":1}}"#
        );
    }

    #[test]
    fn the_expression_scope_drops_ambiguous_and_non_identifier_node_ids() {
        let scope = table().expression_scope();
        let names: Vec<String> = scope.keys().map(|key| key.to_string()).collect();
        assert_eq!(names, ["fetch", "outputs"]);
        let outputs = scope.get_str("outputs").and_then(Value::as_object).unwrap();
        assert_eq!(outputs.len(), 4);
    }

    #[test]
    fn a_node_named_outputs_cannot_hide_the_table() {
        let mut table = OutputTable::new();
        table.insert("outputs", "", [parse_json(r#"{"fake": true}"#).unwrap()]);
        let scope = table.expression_scope();
        let outputs = scope.get_str("outputs").and_then(Value::as_object).unwrap();
        assert!(outputs.get_str("outputs:").is_some());
    }

    #[test]
    fn a_table_round_trips_through_json_and_refuses_bad_shapes() {
        let table = table();
        assert_eq!(OutputTable::from_value(&table.to_value()).unwrap(), table);
        for bad in [
            r#"[]"#,
            r#"{"nocolon": []}"#,
            r#"{"a:": {}}"#,
            r#"{"a:": [1]}"#,
            r#"{"a:": [{"x": 1}]}"#,
        ] {
            assert!(OutputTable::from_value(&parse_json(bad).unwrap()).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_fault_gives_the_negative_verdict_of_its_node() {
        let fault = Fault::new(FaultKind::Runtime, "x", "boom");
        let branch = PredicateNode::branch("b", "jexl", Value::Undefined);
        let select = PredicateNode::select("s", "jexl", &["a"], Value::Undefined);
        assert_eq!(
            Evaluation::faulted(&branch, fault.clone()).verdict,
            Verdict::Branch { matched: false }
        );
        assert_eq!(
            Evaluation::faulted(&select, fault).verdict,
            Verdict::Select { case: None }
        );
    }
}
