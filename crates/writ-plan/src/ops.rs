//! The op log: the edits a plan is made of, each stamped with who made it and when.
//!
//! A plan is the fold of its ops (see [`crate::fold`]); this module holds the ops and their wire
//! form `{"opId", "actorId", "lamport", "at", "op": "add_node" | …, …the op's fields}`.

use std::cmp::Ordering;
use std::collections::BTreeMap;

use serde_json::{Map as JsonMap, Value as Json};

use crate::model::{
    Bounds, Edge, Node, definition_to_wire, field_from_wire, field_to_wire, object_at, read_definition, refuse_unknown,
    string_field,
};
use crate::value::{Pointer, StagedValue, WireError};

/// One edit of a plan.
#[derive(Clone, Debug, PartialEq)]
pub struct Op {
    /// Unique per edit: the last part of the fold's order, so two ops never tie.
    pub op_id: String,
    /// Who made the edit.
    pub actor_id: String,
    /// The logical clock: an edit made after seeing another has a higher lamport.
    pub lamport: u64,
    /// When the edit was made, as its author's clock read (informational; never ordered on).
    pub at: String,
    /// What the edit does.
    pub change: Change,
}

/// What an op changes.
#[derive(Clone, Debug, PartialEq)]
pub enum Change {
    /// Adds a node, or replaces the node with its id.
    AddNode(Node),
    /// Removes a node and the edges that touched it when the op was made.
    RemoveNode {
        /// The node's id.
        node_id: String,
        /// The ids of the edges to remove with it, recorded by the author so that the cascade
        /// does not depend on which edges the fold holds when the op is applied.
        incident_edge_ids: Vec<String>,
    },
    /// Sets one field of a node's definition.
    SetNodeField {
        /// The node's id.
        node_id: String,
        /// A dot-separated path relative to the definition (`tool`, `args.dir`).
        path: String,
        /// The new value.
        value: StagedValue,
    },
    /// Replaces a node's whole definition.
    SetNodeDefinition {
        /// The node's id.
        node_id: String,
        /// The new definition.
        definition: BTreeMap<String, StagedValue>,
    },
    /// Sets or clears a node's phase label.
    SetNodePhase {
        /// The node's id.
        node_id: String,
        /// The new label; `None` clears it.
        phase: Option<String>,
    },
    /// Adds an edge, or replaces the edge with its id.
    AddEdge(Edge),
    /// Removes an edge.
    RemoveEdge {
        /// The edge's id.
        edge_id: String,
    },
    /// Replaces the bounds.
    SetBounds(Bounds),
}

impl Change {
    /// The op's wire name.
    pub fn name(&self) -> &'static str {
        match self {
            Change::AddNode(_) => "add_node",
            Change::RemoveNode { .. } => "remove_node",
            Change::SetNodeField { .. } => "set_node_field",
            Change::SetNodeDefinition { .. } => "set_node_definition",
            Change::SetNodePhase { .. } => "set_node_phase",
            Change::AddEdge(_) => "add_edge",
            Change::RemoveEdge { .. } => "remove_edge",
            Change::SetBounds(_) => "set_bounds",
        }
    }
}

/// The op names, for messages.
const OP_NAMES: &str =
    "add_node, remove_node, set_node_field, set_node_definition, set_node_phase, add_edge, remove_edge, set_bounds";

impl Op {
    /// The fold's total order: lamport, then actor id, then op id.
    pub fn order(&self, other: &Op) -> Ordering {
        (self.lamport, &self.actor_id, &self.op_id).cmp(&(other.lamport, &other.actor_id, &other.op_id))
    }

    /// Reads an op from its wire form.
    pub fn from_wire(json: &Json) -> Result<Op, WireError> {
        let at = &Pointer::Root;
        let object = object_at(
            json,
            at,
            "an op is {\"opId\", \"actorId\", \"lamport\", \"at\", \"op\", …}",
        )?;
        let op_name = string_field(object, "op", at)?;
        let fields: &[&str] = match op_name.as_str() {
            "add_node" => &["node"],
            "remove_node" => &["nodeId", "incidentEdgeIds"],
            "set_node_field" => &["nodeId", "path", "value"],
            "set_node_definition" => &["nodeId", "definition"],
            "set_node_phase" => &["nodeId", "phase"],
            "add_edge" => &["edge"],
            "remove_edge" => &["edgeId"],
            "set_bounds" => &["bounds"],
            _ => {
                return Err(WireError {
                    pointer: "/op".into(),
                    message: format!("\"{op_name}\" is not an op; use one of {OP_NAMES}"),
                });
            }
        };
        let mut known = vec!["opId", "actorId", "lamport", "at", "op"];
        known.extend_from_slice(fields);
        refuse_unknown(object, &known, at)?;
        let lamport = object.get("lamport").and_then(Json::as_u64).ok_or_else(|| WireError {
            pointer: "/lamport".into(),
            message: "lamport is a whole number ≥ 0".into(),
        })?;
        let at_text = match object.get("at") {
            None => String::new(),
            Some(Json::String(text)) => text.clone(),
            Some(_) => {
                return Err(WireError {
                    pointer: "/at".into(),
                    message: "\"at\" is a timestamp string".into(),
                });
            }
        };
        let required = |key: &str| {
            object.get(key).ok_or_else(|| WireError {
                pointer: String::new(),
                message: format!("a {op_name} op has \"{key}\""),
            })
        };
        fn under(key: &str) -> impl Fn(WireError) -> WireError + '_ {
            move |error| error.under(&format!("/{key}"))
        }
        let change = match op_name.as_str() {
            "add_node" => Change::AddNode(Node::from_wire(required("node")?).map_err(under("node"))?),
            "remove_node" => Change::RemoveNode {
                node_id: string_field(object, "nodeId", at)?,
                incident_edge_ids: match object.get("incidentEdgeIds") {
                    None => Vec::new(),
                    Some(Json::Array(ids)) => ids
                        .iter()
                        .map(|id| id.as_str().map(str::to_owned))
                        .collect::<Option<_>>()
                        .ok_or_else(|| WireError {
                            pointer: "/incidentEdgeIds".into(),
                            message: "edge ids are strings".into(),
                        })?,
                    Some(_) => {
                        return Err(WireError {
                            pointer: "/incidentEdgeIds".into(),
                            message: "incidentEdgeIds is a list of edge ids".into(),
                        });
                    }
                },
            },
            "set_node_field" => {
                let path = string_field(object, "path", at)?;
                if !crate::definition::valid_dot_path(&path) {
                    return Err(WireError {
                        pointer: "/path".into(),
                        message: "path is a dot-separated field path such as \"args.dir\"".into(),
                    });
                }
                let value = field_from_wire(&path, required("value")?).map_err(under("value"))?;
                Change::SetNodeField {
                    node_id: string_field(object, "nodeId", at)?,
                    path,
                    value,
                }
            }
            "set_node_definition" => Change::SetNodeDefinition {
                node_id: string_field(object, "nodeId", at)?,
                definition: read_definition(required("definition")?, &Pointer::Key(at, "definition"))?,
            },
            "set_node_phase" => Change::SetNodePhase {
                node_id: string_field(object, "nodeId", at)?,
                phase: match object.get("phase") {
                    None | Some(Json::Null) => None,
                    Some(Json::String(phase)) => Some(phase.clone()),
                    Some(_) => {
                        return Err(WireError {
                            pointer: "/phase".into(),
                            message: "phase is a string, or null to clear it".into(),
                        });
                    }
                },
            },
            "add_edge" => Change::AddEdge(Edge::from_wire(required("edge")?).map_err(under("edge"))?),
            "remove_edge" => Change::RemoveEdge {
                edge_id: string_field(object, "edgeId", at)?,
            },
            _ => Change::SetBounds(Bounds::from_wire(required("bounds")?).map_err(under("bounds"))?),
        };
        Ok(Op {
            op_id: string_field(object, "opId", at)?,
            actor_id: string_field(object, "actorId", at)?,
            lamport,
            at: at_text,
            change,
        })
    }

    /// Writes the op in its wire form, the inverse of [`Op::from_wire`].
    pub fn to_wire(&self) -> Json {
        let mut object = JsonMap::new();
        object.insert("opId".into(), Json::String(self.op_id.clone()));
        object.insert("actorId".into(), Json::String(self.actor_id.clone()));
        object.insert("lamport".into(), Json::from(self.lamport));
        object.insert("at".into(), Json::String(self.at.clone()));
        object.insert("op".into(), Json::String(self.change.name().into()));
        match &self.change {
            Change::AddNode(node) => {
                object.insert("node".into(), node.to_wire());
            }
            Change::RemoveNode {
                node_id,
                incident_edge_ids,
            } => {
                object.insert("nodeId".into(), Json::String(node_id.clone()));
                object.insert(
                    "incidentEdgeIds".into(),
                    Json::Array(incident_edge_ids.iter().cloned().map(Json::String).collect()),
                );
            }
            Change::SetNodeField { node_id, path, value } => {
                object.insert("nodeId".into(), Json::String(node_id.clone()));
                object.insert("path".into(), Json::String(path.clone()));
                object.insert("value".into(), field_to_wire(path, value));
            }
            Change::SetNodeDefinition { node_id, definition } => {
                object.insert("nodeId".into(), Json::String(node_id.clone()));
                object.insert("definition".into(), definition_to_wire(definition));
            }
            Change::SetNodePhase { node_id, phase } => {
                object.insert("nodeId".into(), Json::String(node_id.clone()));
                object.insert("phase".into(), phase.clone().map_or(Json::Null, Json::String));
            }
            Change::AddEdge(edge) => {
                object.insert("edge".into(), edge.to_wire());
            }
            Change::RemoveEdge { edge_id } => {
                object.insert("edgeId".into(), Json::String(edge_id.clone()));
            }
            Change::SetBounds(bounds) => {
                object.insert("bounds".into(), bounds.to_wire());
            }
        }
        Json::Object(object)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn ops_round_trip() {
        let ops = [
            json!({"opId": "o1", "actorId": "ann", "lamport": 1, "at": "2026-12-01T10:00:00Z", "op": "add_node",
                   "node": {"id": "entry", "kind": "entry", "definition": {"input": []}}}),
            json!({"opId": "o2", "actorId": "ann", "lamport": 2, "at": "", "op": "remove_node", "nodeId": "a", "incidentEdgeIds": ["e0"]}),
            json!({"opId": "o3", "actorId": "bob", "lamport": 2, "at": "", "op": "set_node_field", "nodeId": "a", "path": "args.when",
                   "value": {"$date": "2026-01-01T00:00:00.000Z"}}),
            json!({"opId": "o4", "actorId": "bob", "lamport": 3, "at": "", "op": "set_node_field", "nodeId": "b", "path": "predicate",
                   "value": {"$ref": "not a tag here"}}),
            json!({"opId": "o5", "actorId": "bob", "lamport": 4, "at": "", "op": "set_node_phase", "nodeId": "b", "phase": null}),
            json!({"opId": "o6", "actorId": "bob", "lamport": 5, "at": "", "op": "add_edge", "edge": {"id": "e0", "from": "entry", "to": "a", "handle": "always"}}),
            json!({"opId": "o7", "actorId": "bob", "lamport": 6, "at": "", "op": "set_bounds", "bounds": {"maxNodes": 256, "maxEdges": 512,
                   "maxSteps": 10, "maxConcurrentFrames": 32, "maxEncodedBytes": 1048576}}),
        ];
        for json in ops {
            let op = Op::from_wire(&json).unwrap_or_else(|e| panic!("{json}: {e}"));
            assert_eq!(op.to_wire(), json);
        }
    }

    #[test]
    fn malformed_ops_say_what_to_write() {
        let error =
            Op::from_wire(&json!({"opId": "o", "actorId": "a", "lamport": 1, "op": "rename_node"})).unwrap_err();
        assert!(error.message.contains("add_node"), "{error}");
        let error =
            Op::from_wire(&json!({"opId": "o", "actorId": "a", "lamport": -1, "op": "remove_edge", "edgeId": "e"}))
                .unwrap_err();
        assert_eq!(error.pointer, "/lamport");
        let error = Op::from_wire(
            &json!({"opId": "o", "actorId": "a", "lamport": 1, "op": "set_bounds", "bounds": {"maxSteps": 0}}),
        )
        .unwrap_err();
        assert_eq!(error.pointer, "/bounds/maxSteps");
    }
}
