//! Plan files: the two document forms every `writ plan` command reads.
//!
//! - A **plan document** `{"planId", "nodes", "edges", "bounds"?, "provenance"?}` states the
//!   plan whole. It is read as the ops that build it — one `add_node` per node and one
//!   `add_edge` per edge in document order, then a `set_bounds` when `bounds` is present — so
//!   folding it gives exactly the document's nodes, edges and bounds, in the document's order.
//!   `bounds` may be partial: missing members take [`crate::DEFAULT_PLAN_BOUNDS`].
//! - An **op-log document** `{"planId", "ops": [...], "provenance"?}` is the log itself.
//!
//! Either way the result is a [`PlanSource`], which [`PlanSource::fold`] turns into a view.
//! Anything that cannot be read is refused with a JSON Pointer to it
//! (`/nodes/3/definition/args/x`); a field the forms do not have is refused, never ignored.

use std::collections::HashMap;

use serde_json::{Map as JsonMap, Value as Json};

use crate::fold::{Folded, fold};
use crate::model::{Bounds, Edge, Node, PlanIssue, Provenance};
use crate::ops::{Change, Op};
use crate::value::WireError;

/// The actor the ops read from a plan document are attributed to.
pub const DOCUMENT_ACTOR: &str = "document";

/// A plan file, read: the plan's id, the ops it amounts to, its provenance, and what reading
/// it found wrong that the fold would not see.
#[derive(Clone, Debug, PartialEq)]
pub struct PlanSource {
    /// The plan's id.
    pub plan_id: String,
    /// The op log: as written in an op-log document, built from a plan document.
    pub ops: Vec<Op>,
    /// Where the plan came from, if the document says it is a clone.
    pub provenance: Option<Provenance>,
    /// Problems found reading the document (`duplicate_node_id`, `duplicate_edge_id`).
    pub issues: Vec<PlanIssue>,
}

impl PlanSource {
    /// Folds the ops into a view; the issues are the reader's, then the fold's.
    pub fn fold(&self) -> Folded {
        let mut folded = fold(&self.plan_id, &self.ops, self.provenance.clone());
        let mut issues = self.issues.clone();
        issues.append(&mut folded.issues);
        folded.issues = issues;
        folded
    }
}

const PLAN_FIELDS: [&str; 5] = ["planId", "nodes", "edges", "bounds", "provenance"];
const OP_LOG_FIELDS: [&str; 3] = ["planId", "ops", "provenance"];

/// Reads a plan document or an op-log document (see the module documentation).
pub fn read_document(json: &Json) -> Result<PlanSource, WireError> {
    let Json::Object(object) = json else {
        return Err(refusal(
            "",
            "a plan file is an object: a plan {\"planId\", \"nodes\", \"edges\", \"bounds\"?} or an op log \
             {\"planId\", \"ops\"}",
        ));
    };
    let is_op_log = object.contains_key("ops");
    if is_op_log
        && let Some(key) = ["nodes", "edges", "bounds"]
            .into_iter()
            .find(|k| object.contains_key(*k))
    {
        return Err(refusal(
            &format!("/{key}"),
            "a plan file is either a plan {\"planId\", \"nodes\", \"edges\", \"bounds\"?} or an op log \
             {\"planId\", \"ops\"}, not both; move these edits into ops, or drop \"ops\"",
        ));
    }
    let known: &[&str] = if is_op_log { &OP_LOG_FIELDS } else { &PLAN_FIELDS };
    if let Some(key) = object.keys().find(|key| !known.contains(&key.as_str())) {
        return Err(refusal(
            &format!("/{}", escape(key)),
            format!(
                "unknown field \"{key}\"; {} has only {}",
                if is_op_log { "an op log" } else { "a plan" },
                known.join(", ")
            ),
        ));
    }
    let plan_id = match object.get("planId") {
        Some(Json::String(id)) => id.clone(),
        Some(_) => return Err(refusal("/planId", "planId is a string such as \"plan-q3\"")),
        None => {
            return Err(refusal(
                "",
                "\"planId\" is missing: name the plan, as in \"planId\": \"plan-q3\"",
            ));
        }
    };
    let provenance = match object.get("provenance") {
        None | Some(Json::Null) => None,
        Some(json) => Some(Provenance::from_wire(json).map_err(|e| e.under("/provenance"))?),
    };
    let mut source = PlanSource {
        plan_id,
        ops: Vec::new(),
        provenance,
        issues: Vec::new(),
    };
    if is_op_log {
        for (index, op) in list(object, "ops")?.iter().enumerate() {
            source
                .ops
                .push(Op::from_wire(op).map_err(|e| e.under(&format!("/ops/{index}")))?);
        }
    } else {
        read_plan(object, &mut source)?;
    }
    Ok(source)
}

fn read_plan(object: &JsonMap<String, Json>, source: &mut PlanSource) -> Result<(), WireError> {
    let mut lamport = 0;
    let mut push = |source: &mut PlanSource, op_id: String, change: Change| {
        lamport += 1;
        source.ops.push(Op {
            op_id,
            actor_id: DOCUMENT_ACTOR.into(),
            lamport,
            at: String::new(),
            change,
        });
    };
    let mut first_node: HashMap<String, usize> = HashMap::new();
    for (index, json) in list(object, "nodes")?.iter().enumerate() {
        let node = Node::from_wire(json).map_err(|e| e.under(&format!("/nodes/{index}")))?;
        if let Some(first) = first_node.get(&node.id) {
            source.issues.push(
                PlanIssue::blocking(
                    "duplicate_node_id",
                    format!(
                        "nodes {first} and {index} both have the id \"{}\"; node ids are unique, so rename one \
                         (until then only node {first} is read)",
                        node.id
                    ),
                )
                .on_node(node.id.clone()),
            );
            continue;
        }
        first_node.insert(node.id.clone(), index);
        push(source, format!("node:{index}"), Change::AddNode(node));
    }
    let mut first_edge: HashMap<String, (usize, Edge)> = HashMap::new();
    for (index, json) in list(object, "edges")?.iter().enumerate() {
        let edge = Edge::from_wire(json).map_err(|e| e.under(&format!("/edges/{index}")))?;
        if let Some((first, earlier)) = first_edge.get(&edge.id) {
            source.issues.push(
                PlanIssue::blocking(
                    "duplicate_edge_id",
                    format!(
                        "edges {first} ({}→{} ({})) and {index} ({}→{} ({})) both have the id \"{}\"; edge ids are \
                         unique, so rename one (until then only edge {first} is read)",
                        earlier.from, earlier.to, earlier.handle, edge.from, edge.to, edge.handle, edge.id
                    ),
                )
                .on_edge(edge.id.clone()),
            );
            continue;
        }
        first_edge.insert(edge.id.clone(), (index, edge.clone()));
        push(source, format!("edge:{index}"), Change::AddEdge(edge));
    }
    if let Some(bounds) = object.get("bounds") {
        let bounds = Bounds::from_wire(bounds).map_err(|e| e.under("/bounds"))?;
        push(source, "bounds".into(), Change::SetBounds(bounds));
    }
    Ok(())
}

/// The array under `key`; a missing key is an empty list.
fn list<'j>(object: &'j JsonMap<String, Json>, key: &str) -> Result<&'j [Json], WireError> {
    match object.get(key) {
        None => Ok(&[]),
        Some(Json::Array(items)) => Ok(items),
        Some(_) => Err(refusal(
            &format!("/{key}"),
            format!("\"{key}\" is a list: \"{key}\": [ … ]"),
        )),
    }
}

fn refusal(pointer: &str, message: impl Into<String>) -> WireError {
    WireError {
        pointer: pointer.into(),
        message: message.into(),
    }
}

fn escape(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::digest::digest;
    use crate::model::{PlanView, Severity};
    use serde_json::json;

    fn plan() -> Json {
        json!({"planId": "plan-q3",
            "nodes": [
                {"id": "entry", "kind": "entry", "definition": {"input": [{"path": "topic", "type": "string"}]}},
                {"id": "list_files", "kind": "call", "phase": "gather", "definition": {"tool": "list_files",
                    "args": {"dir": "/reports/q3", "since": {"$date": "2026-01-01T00:00:00.000Z"},
                             "topic": {"$ref": {"node": "entry", "select": "first", "path": "topic"}}}}},
                {"id": "a_summary", "kind": "reason", "definition": {"prompt": [{"text": "Summarise"}],
                    "outputSchema": {"$defs": {"s": {"type": "string"}}, "$ref": "#/$defs/s"}}}],
            "edges": [
                {"id": "e1", "from": "list_files", "to": "a_summary", "handle": "always"},
                {"id": "e0", "from": "entry", "to": "list_files", "handle": "always"}],
            "bounds": {"maxSteps": 100}})
    }

    fn without_revision(mut view: PlanView) -> PlanView {
        view.revision = 0;
        view
    }

    #[test]
    fn a_plan_document_folds_to_itself() {
        let folded = read_document(&plan()).unwrap().fold();
        assert!(folded.issues.is_empty(), "{:?}", folded.issues);
        let view = folded.view;
        assert_eq!(view.plan_id, "plan-q3");
        let node_ids: Vec<&str> = view.nodes.iter().map(|n| n.id.as_str()).collect();
        assert_eq!(node_ids, ["entry", "list_files", "a_summary"]);
        let edge_ids: Vec<&str> = view.edges.iter().map(|e| e.id.as_str()).collect();
        assert_eq!(edge_ids, ["e1", "e0"]);
        assert_eq!(view.bounds.max_steps, 100);
        assert_eq!(view.bounds.max_nodes, 256);
        let mut expected = plan();
        expected["bounds"] = view.bounds.to_wire();
        assert_eq!(view.to_wire(), expected);
    }

    #[test]
    fn to_wire_reads_back_to_the_same_view() {
        let view = read_document(&plan()).unwrap().fold().view;
        let mut cloned = view.clone();
        cloned.provenance = Some(Provenance::Clone {
            parent: "plan-q2".into(),
            parent_digest: "ab".repeat(32),
            parent_revision: 7,
            completed_at_clone: vec!["entry".into()],
        });
        for view in [PlanView::empty("empty"), view, cloned] {
            let again = read_document(&view.to_wire()).unwrap().fold();
            assert!(again.issues.is_empty(), "{:?}", again.issues);
            assert_eq!(digest(&again.view), digest(&view));
            assert_eq!(without_revision(again.view), without_revision(view));
        }
    }

    #[test]
    fn an_op_log_document_is_its_ops() {
        let log = json!({"planId": "p", "ops": [
            {"opId": "o2", "actorId": "ann", "lamport": 2, "at": "", "op": "set_node_phase", "nodeId": "a", "phase": "x"},
            {"opId": "o1", "actorId": "ann", "lamport": 1, "at": "", "op": "add_node",
             "node": {"id": "a", "kind": "entry", "definition": {}}}]});
        let source = read_document(&log).unwrap();
        assert_eq!(source.ops.len(), 2);
        let view = source.fold().view;
        assert_eq!(view.revision, 2);
        assert_eq!(view.nodes[0].phase.as_deref(), Some("x"));
        assert_eq!(
            read_document(&json!({"planId": "p", "ops": []})).unwrap().fold().view,
            PlanView::empty("p")
        );
    }

    #[test]
    fn one_id_twice_in_a_document_blocks() {
        let mut document = plan();
        document["nodes"]
            .as_array_mut()
            .unwrap()
            .push(json!({"id": "entry", "kind": "join"}));
        document["edges"]
            .as_array_mut()
            .unwrap()
            .push(json!({"id": "e0", "from": "entry", "to": "a_summary", "handle": "always"}));
        let folded = read_document(&document).unwrap().fold();
        let codes: Vec<_> = folded.issues.iter().map(|i| (i.code, i.severity)).collect();
        assert_eq!(
            codes,
            [
                ("duplicate_node_id", Severity::Blocking),
                ("duplicate_edge_id", Severity::Blocking)
            ]
        );
        assert_eq!(folded.issues[0].node_id.as_deref(), Some("entry"));
        assert_eq!(folded.issues[1].edge_id.as_deref(), Some("e0"));
        assert!(
            folded.issues[1].message.contains("entry→a_summary (always)"),
            "{}",
            folded.issues[1]
        );
    }

    #[test]
    fn what_cannot_be_read_is_refused_with_a_pointer() {
        let with = |key: &str, value: Json| {
            let mut document = plan();
            document[key] = value;
            document
        };
        let mut bad_arg = plan();
        bad_arg["nodes"][1]["definition"]["args"]["x"] = json!({"$reff": 1});
        let cases = [
            (json!([]), ""),
            (with("planid", json!("p")), "/planid"),
            (with("a/b", json!(1)), "/a~1b"),
            (with("planId", json!(3)), "/planId"),
            (with("nodes", json!({})), "/nodes"),
            (with("ops", json!([])), "/nodes"),
            (bad_arg, "/nodes/1/definition/args/x"),
            (
                with("edges", json!([{"id": "e", "from": "a", "to": 1, "handle": "always"}])),
                "/edges/0/to",
            ),
            (with("bounds", json!({"maxNodes": 0})), "/bounds/maxNodes"),
            (with("provenance", json!({"kind": "template"})), "/provenance/kind"),
            (
                json!({"planId": "p", "ops": [{"opId": "o", "actorId": "a", "lamport": 1, "op": "remove_edge"}]}),
                "/ops/0",
            ),
            (json!({"planId": "p", "ops": [], "extra": 1}), "/extra"),
        ];
        for (document, pointer) in cases {
            let error = read_document(&document).expect_err(&document.to_string());
            assert_eq!(error.pointer, pointer, "{document}: {error}");
        }
    }
}
