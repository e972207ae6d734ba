//! The workflow runtime's workloads (issue 16): writ-flow running a JSON workflow document,
//! against jsonata-js evaluating the same expressions in a plain loop in node — no document,
//! no runtime, no limits: the floor of any JavaScript workflow runtime built on jsonata-js.
//!
//! - `flow/compute-loop/100k`: seed 001's summing loop (a compute body, an `until` test) from
//!   `n` = ten times the item count of `items-10k` (100,000 iterations at scale 1) down to 0.
//! - `flow/routing/items-10k`: a conditional with two expression routes and a default, each
//!   target a compute, run once per item of `items-10k`. Each item is handed over parsed, as a
//!   caller with the data in hand hands it (`Output::from_value`), the way node's side hands
//!   jsonata-js each parsed item: both sides parse the file once, untimed, and neither reads
//!   an item's text per run.
//!
//! Both sides check the same text: the loop's last state, and how many items took each route.

use writ_core::{HintedKey, Str, Value, parse_json};
use writ_flow::{Output, RunOptions, Workflow, Workflows, run};

use crate::workloads::Task;

/// The summing loop's body and test, as in the document and in `peers/node.mjs`.
pub const LOOP_BODY: &str = "{ 'n': n - 1, 'sum': sum + n }";
/// The loop's `until` test.
pub const LOOP_UNTIL: &str = "n = 0";
/// The first route's test: on sale and in stock.
pub const ROUTE_SALE: &str = "active and stock > 0 and price < 20";
/// The second route's test: out of stock.
pub const ROUTE_RESTOCK: &str = "stock < 100";
/// The first route's target.
pub const ACT_SALE: &str = "{ 'action': 'sale', 'id': id, 'price': price * 0.9 }";
/// The second route's target.
pub const ACT_RESTOCK: &str = "{ 'action': 'restock', 'id': id, 'order': 100 - stock }";
/// The default target.
pub const ACT_KEEP: &str = "{ 'action': 'keep', 'id': id }";

fn workflow(document: &serde_json::Value) -> Result<Workflow, String> {
    let text = document.to_string();
    let value = parse_json(&text).map_err(|error| error.to_string())?;
    Workflow::parse(&value).map_err(|issues| {
        let said: Vec<String> = issues
            .iter()
            .map(|issue| format!("{}: {}", issue.path, issue.message))
            .collect();
        said.join("; ")
    })
}

fn item_count(text: &str) -> Result<usize, String> {
    match parse_json(text).map_err(|error| error.to_string())? {
        Value::Array(items) => Ok(items.len()),
        _ => Err("the items file holds no array".to_owned()),
    }
}

struct ComputeLoop {
    workflow: Workflow,
    start: String,
    last: String,
}

/// writ's side of `flow/compute-loop/100k`.
pub fn load_loop(text: String) -> Result<Box<dyn Task>, String> {
    let workflow = workflow(&serde_json::json!({"version": 1, "root": {
        "kind": "loop", "id": "count", "maxIterations": "infinity",
        "body": {"kind": "compute", "id": "step", "expr": LOOP_BODY},
        "until": {"kind": "expr", "expr": LOOP_UNTIL}}}))?;
    let start = format!(r#"{{"n":{},"sum":0}}"#, 10 * item_count(&text)?);
    Ok(Box::new(ComputeLoop {
        workflow,
        start,
        last: String::new(),
    }))
}

impl Task for ComputeLoop {
    fn iterate(&mut self) {
        let options = RunOptions::default();
        self.last = match run(
            &self.workflow,
            &Workflows::new(),
            Output::text_output(self.start.as_str()),
            &options,
        ) {
            Ok(output) => output.text().to_string_lossy().into_owned(),
            Err(error) => format!("error: {error}"),
        };
    }

    fn check(&self) -> String {
        self.last.clone()
    }
}

struct Routing {
    workflow: Workflow,
    items: Vec<Value>,
    /// The outputs' `action` key, read as a caller reading many outputs of one shape reads it.
    action: HintedKey,
    counts: [usize; 4],
}

/// writ's side of `flow/routing/items-10k`.
pub fn load_routing(text: String) -> Result<Box<dyn Task>, String> {
    let workflow = workflow(&serde_json::json!({"version": 1, "root": {
        "kind": "conditional", "id": "triage",
        "routes": [
            {"expr": ROUTE_SALE, "target": {"kind": "compute", "id": "sale", "expr": ACT_SALE}},
            {"expr": ROUTE_RESTOCK, "target": {"kind": "compute", "id": "restock", "expr": ACT_RESTOCK}}],
        "default": {"kind": "compute", "id": "keep", "expr": ACT_KEEP}}}))?;
    let Value::Array(items) = parse_json(&text).map_err(|error| error.to_string())? else {
        return Err("the items file holds no array".to_owned());
    };
    Ok(Box::new(Routing {
        workflow,
        items: items.as_slice().to_vec(),
        action: HintedKey::new(Str::from("action")),
        counts: [0; 4],
    }))
}

/// The count a run that failed, or answered no action, adds to.
const FAILED: usize = 3;

/// Which target answered `output`: its `action`'s place in sale, restock, keep.
fn route_taken(action: &HintedKey, output: &Value) -> usize {
    let action = output.as_object().and_then(|fields| fields.get_hinted(action));
    ["sale", "restock", "keep"]
        .iter()
        .position(|name| matches!(action, Some(Value::String(text)) if text.eq_str(name)))
        .unwrap_or(FAILED)
}

impl Task for Routing {
    fn iterate(&mut self) {
        let options = RunOptions::default();
        let workflows = Workflows::new();
        let mut counts = [0; 4];
        for item in &self.items {
            let route =
                match Output::from_value(item.clone()).map(|input| run(&self.workflow, &workflows, input, &options)) {
                    Some(Ok(output)) => route_taken(&self.action, &output.data()),
                    _ => FAILED,
                };
            counts[route] += 1;
        }
        self.counts = counts;
    }

    fn check(&self) -> String {
        let [sale, restock, keep, failed] = self.counts;
        format!("sale {sale}, restock {restock}, keep {keep}, failed {failed}")
    }
}
