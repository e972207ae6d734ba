//! The plan view: nodes, edges, bounds and provenance, as the fold of an op log leaves them.
//!
//! A node's definition is kept as a record of [`StagedValue`]s, exactly as authored: an op can
//! set any field of it, so the view must hold whatever was written. The typed reading of a
//! definition ([`crate::Definition`]) is done by freeze, which reports what does not fit.

use std::collections::BTreeMap;
use std::fmt;

use serde_json::{Map as JsonMap, Value as Json};

use crate::value::{Pointer, StagedValue, WireError};

/// The kinds of node a plan has.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum NodeKind {
    /// Where a run starts; its output is the run's input, which is untrusted.
    Entry,
    /// A tool call.
    Call,
    /// A model call whose answer is checked against a JSON Schema.
    Reason,
    /// A two-way decision by a predicate.
    Branch,
    /// A many-way decision by a predicate that answers one of its cases.
    Select,
    /// Where the routes of a diamond meet again.
    Join,
}

impl NodeKind {
    /// Every kind, in the order messages list them.
    pub const ALL: [NodeKind; 6] = [
        NodeKind::Entry,
        NodeKind::Call,
        NodeKind::Reason,
        NodeKind::Branch,
        NodeKind::Select,
        NodeKind::Join,
    ];

    /// The kind's name on the wire.
    pub fn name(self) -> &'static str {
        match self {
            NodeKind::Entry => "entry",
            NodeKind::Call => "call",
            NodeKind::Reason => "reason",
            NodeKind::Branch => "branch",
            NodeKind::Select => "select",
            NodeKind::Join => "join",
        }
    }

    /// The kind with this wire name.
    pub fn from_name(name: &str) -> Option<NodeKind> {
        NodeKind::ALL.into_iter().find(|kind| kind.name() == name)
    }
}

impl fmt::Display for NodeKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A node of a plan.
#[derive(Clone, Debug, PartialEq)]
pub struct Node {
    /// The node's id (`^[a-z0-9_]+$`, checked at freeze).
    pub id: String,
    /// What the node does.
    pub kind: NodeKind,
    /// A label grouping nodes for people reading the plan; it has no effect on a run.
    pub phase: Option<String>,
    /// The kind's fields, as authored (see [`crate::Definition`] for their typed reading).
    pub definition: BTreeMap<String, StagedValue>,
}

impl Node {
    /// Reads a node from its wire form `{"id", "kind", "phase"?, "definition"?}`.
    pub fn from_wire(json: &Json) -> Result<Node, WireError> {
        read_node(json, &Pointer::Root)
    }

    /// Writes the node in its wire form.
    pub fn to_wire(&self) -> Json {
        let mut object = JsonMap::new();
        object.insert("id".into(), Json::String(self.id.clone()));
        object.insert("kind".into(), Json::String(self.kind.name().into()));
        if let Some(phase) = &self.phase {
            object.insert("phase".into(), Json::String(phase.clone()));
        }
        object.insert("definition".into(), definition_to_wire(&self.definition));
        Json::Object(object)
    }
}

/// Definition fields that hold JSON data, not staged values: they are read and written as plain
/// JSON, with no tags, so a JSON Schema's `$ref` or `$defs` or a predicate's keys are kept as
/// written. Wherever one of these names is the first segment of a field path, the rule applies.
pub const RAW_FIELDS: [&str; 2] = ["outputSchema", "predicate"];

/// Whether a definition field path (dot-separated) lies inside a raw field.
pub fn is_raw_field_path(path: &str) -> bool {
    let root = path.split('.').next().unwrap_or(path);
    RAW_FIELDS.contains(&root)
}

/// Writes a definition field's value: plain JSON inside a raw field, the wire form elsewhere.
pub(crate) fn field_to_wire(path: &str, value: &StagedValue) -> Json {
    if is_raw_field_path(path)
        && let Some(json) = value.to_plain_json()
    {
        return json;
    }
    value.to_wire()
}

/// Reads a definition field's value: plain JSON inside a raw field, the wire form elsewhere.
pub(crate) fn field_from_wire(path: &str, json: &Json) -> Result<StagedValue, WireError> {
    if is_raw_field_path(path) {
        StagedValue::from_plain_json(json)
    } else {
        StagedValue::from_wire(json)
    }
}

/// Writes a definition record: its keys are field names, never tags.
pub(crate) fn definition_to_wire(definition: &BTreeMap<String, StagedValue>) -> Json {
    Json::Object(
        definition
            .iter()
            .map(|(key, value)| (key.clone(), field_to_wire(key, value)))
            .collect(),
    )
}

/// Reads a definition record. Its keys are field names, so `$` keys are refused as field names
/// rather than read as tags.
pub(crate) fn read_definition(json: &Json, at: &Pointer<'_>) -> Result<BTreeMap<String, StagedValue>, WireError> {
    let Json::Object(object) = json else {
        return Err(WireError {
            pointer: at.render(),
            message: "a definition is an object of the kind's fields".into(),
        });
    };
    object
        .iter()
        .map(|(key, value)| {
            let value = field_from_wire(key, value).map_err(|error| error.under(&Pointer::Key(at, key).render()))?;
            Ok((key.clone(), value))
        })
        .collect()
}

fn read_node(json: &Json, at: &Pointer<'_>) -> Result<Node, WireError> {
    let object = object_at(json, at, "a node is {\"id\", \"kind\", \"definition\"}")?;
    refuse_unknown(object, &["id", "kind", "phase", "definition"], at)?;
    let id = string_field(object, "id", at)?;
    let kind_name = string_field(object, "kind", at)?;
    let kind = NodeKind::from_name(&kind_name).ok_or_else(|| WireError {
        pointer: Pointer::Key(at, "kind").render(),
        message: format!(
            "\"{kind_name}\" is not a node kind; use one of {}",
            NodeKind::ALL.map(NodeKind::name).join(", ")
        ),
    })?;
    let phase = match object.get("phase") {
        None | Some(Json::Null) => None,
        Some(Json::String(phase)) => Some(phase.clone()),
        Some(_) => {
            return Err(WireError {
                pointer: Pointer::Key(at, "phase").render(),
                message: "a phase is a string label".into(),
            });
        }
    };
    let definition = match object.get("definition") {
        None => BTreeMap::new(),
        Some(definition) => read_definition(definition, &Pointer::Key(at, "definition"))?,
    };
    Ok(Node {
        id,
        kind,
        phase,
        definition,
    })
}

/// What an edge is followed on.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Handle {
    /// Whenever the source succeeds.
    Always,
    /// When a branch's predicate holds.
    Match,
    /// When a branch's predicate does not hold (or its cell faulted).
    NoMatch,
    /// When no other success edge of the source fired (required on a select).
    Default,
    /// When the source failed.
    Error,
    /// When a select answered this case label (`case_<label>` on the wire).
    Case(String),
    /// A handle name writ does not know, kept so that freeze can name it.
    Unknown(String),
}

impl Handle {
    /// Reads a handle name; an unknown name is kept as [`Handle::Unknown`] for freeze to report.
    pub fn parse(name: &str) -> Handle {
        match name {
            "always" => Handle::Always,
            "match" => Handle::Match,
            "no_match" => Handle::NoMatch,
            "default" => Handle::Default,
            "error" => Handle::Error,
            _ => match name.strip_prefix("case_") {
                Some(label) => Handle::Case(label.to_owned()),
                None => Handle::Unknown(name.to_owned()),
            },
        }
    }

    /// The handle's wire name.
    pub fn name(&self) -> String {
        match self {
            Handle::Always => "always".into(),
            Handle::Match => "match".into(),
            Handle::NoMatch => "no_match".into(),
            Handle::Default => "default".into(),
            Handle::Error => "error".into(),
            Handle::Case(label) => format!("case_{label}"),
            Handle::Unknown(name) => name.clone(),
        }
    }
}

impl fmt::Display for Handle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

/// An edge: `to` runs after `from` when `handle` says so.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Edge {
    /// The edge's id (`^[A-Za-z0-9_-]{1,64}$`, checked at freeze).
    pub id: String,
    /// The source node's id.
    pub from: String,
    /// The target node's id.
    pub to: String,
    /// When the edge is followed.
    pub handle: Handle,
}

impl Edge {
    /// Reads an edge from `{"id", "from", "to", "handle"}`.
    pub fn from_wire(json: &Json) -> Result<Edge, WireError> {
        let at = &Pointer::Root;
        let object = object_at(json, at, "an edge is {\"id\", \"from\", \"to\", \"handle\"}")?;
        refuse_unknown(object, &["id", "from", "to", "handle"], at)?;
        Ok(Edge {
            id: string_field(object, "id", at)?,
            from: string_field(object, "from", at)?,
            to: string_field(object, "to", at)?,
            handle: Handle::parse(&string_field(object, "handle", at)?),
        })
    }

    /// Writes the edge in its wire form.
    pub fn to_wire(&self) -> Json {
        let mut object = JsonMap::new();
        object.insert("id".into(), Json::String(self.id.clone()));
        object.insert("from".into(), Json::String(self.from.clone()));
        object.insert("to".into(), Json::String(self.to.clone()));
        object.insert("handle".into(), Json::String(self.handle.name()));
        Json::Object(object)
    }
}

/// The five bounds of a plan. They are plan content: digested, and approved with the plan.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Bounds {
    /// The most nodes the plan may have (checked at freeze).
    pub max_nodes: u64,
    /// The most edges the plan may have (checked at freeze).
    pub max_edges: u64,
    /// The most node executions one run may make (enforced by the runtime).
    pub max_steps: u64,
    /// The most frames one run may have live at once (enforced by the runtime).
    pub max_concurrent_frames: u64,
    /// The largest the plan's canonical encoding may be, in bytes (checked at freeze).
    pub max_encoded_bytes: u64,
}

/// The bounds every plan starts from: the seed of the fold, so an empty op log has a complete
/// view and a stable digest.
pub const DEFAULT_PLAN_BOUNDS: Bounds = Bounds {
    max_nodes: 256,
    max_edges: 512,
    max_steps: 4096,
    max_concurrent_frames: 32,
    max_encoded_bytes: 1_048_576,
};

impl Default for Bounds {
    fn default() -> Bounds {
        DEFAULT_PLAN_BOUNDS
    }
}

impl Bounds {
    /// The bounds' wire names, in the order they are written.
    pub const NAMES: [&'static str; 5] = [
        "maxNodes",
        "maxEdges",
        "maxSteps",
        "maxConcurrentFrames",
        "maxEncodedBytes",
    ];

    /// Reads bounds that may be partial: a missing member keeps its value in
    /// [`DEFAULT_PLAN_BOUNDS`] (never a value set earlier, so a `set_bounds` op means the same
    /// whatever came before it). Each member is a whole number ≥ 1.
    pub fn from_wire(json: &Json) -> Result<Bounds, WireError> {
        let at = &Pointer::Root;
        let object = object_at(
            json,
            at,
            "bounds are {\"maxNodes\", \"maxEdges\", \"maxSteps\", \"maxConcurrentFrames\", \"maxEncodedBytes\"}",
        )?;
        refuse_unknown(object, &Bounds::NAMES, at)?;
        let mut bounds = DEFAULT_PLAN_BOUNDS;
        for name in Bounds::NAMES {
            let Some(value) = object.get(name) else { continue };
            let Some(n) = value.as_u64().filter(|n| *n >= 1) else {
                return Err(WireError {
                    pointer: Pointer::Key(at, name).render(),
                    message: format!("{name} is a whole number ≥ 1, not {value}"),
                });
            };
            *bounds.member_mut(name) = n;
        }
        Ok(bounds)
    }

    /// Writes all five members.
    pub fn to_wire(&self) -> Json {
        let mut object = JsonMap::new();
        for (name, value) in self.members() {
            object.insert(name.into(), Json::from(value));
        }
        Json::Object(object)
    }

    /// Each member with its wire name.
    pub fn members(&self) -> [(&'static str, u64); 5] {
        [
            ("maxNodes", self.max_nodes),
            ("maxEdges", self.max_edges),
            ("maxSteps", self.max_steps),
            ("maxConcurrentFrames", self.max_concurrent_frames),
            ("maxEncodedBytes", self.max_encoded_bytes),
        ]
    }

    fn member_mut(&mut self, name: &str) -> &mut u64 {
        match name {
            "maxNodes" => &mut self.max_nodes,
            "maxEdges" => &mut self.max_edges,
            "maxSteps" => &mut self.max_steps,
            "maxConcurrentFrames" => &mut self.max_concurrent_frames,
            _ => &mut self.max_encoded_bytes,
        }
    }
}

/// Where a plan came from, when it did not start empty. Digested with the plan: approving a
/// clone approves its lineage too.
#[derive(Clone, Debug, PartialEq)]
pub enum Provenance {
    /// The plan is a copy of another plan's op log.
    Clone {
        /// The plan it was copied from.
        parent: String,
        /// The parent's digest when it was copied.
        parent_digest: String,
        /// The parent's revision when it was copied.
        parent_revision: u64,
        /// Nodes the parent's run had completed when it was copied: running the clone performs
        /// them again.
        completed_at_clone: Vec<String>,
    },
}

impl Provenance {
    /// Writes the provenance in its wire form.
    pub fn to_wire(&self) -> Json {
        match self {
            Provenance::Clone {
                parent,
                parent_digest,
                parent_revision,
                completed_at_clone,
            } => {
                let mut object = JsonMap::new();
                object.insert("kind".into(), Json::String("clone".into()));
                object.insert("parent".into(), Json::String(parent.clone()));
                object.insert("parentDigest".into(), Json::String(parent_digest.clone()));
                object.insert("parentRevision".into(), Json::from(*parent_revision));
                object.insert(
                    "completedAtClone".into(),
                    Json::Array(completed_at_clone.iter().cloned().map(Json::String).collect()),
                );
                Json::Object(object)
            }
        }
    }

    /// Reads a provenance record.
    pub fn from_wire(json: &Json) -> Result<Provenance, WireError> {
        let at = &Pointer::Root;
        let object = object_at(json, at, "provenance is {\"kind\": \"clone\", …}")?;
        refuse_unknown(
            object,
            &["kind", "parent", "parentDigest", "parentRevision", "completedAtClone"],
            at,
        )?;
        if string_field(object, "kind", at)? != "clone" {
            return Err(WireError {
                pointer: "/kind".into(),
                message: "the only provenance kind is \"clone\"".into(),
            });
        }
        let parent_revision = object
            .get("parentRevision")
            .and_then(Json::as_u64)
            .ok_or_else(|| WireError {
                pointer: "/parentRevision".into(),
                message: "parentRevision is a whole number".into(),
            })?;
        let completed_at_clone = match object.get("completedAtClone") {
            Some(Json::Array(ids)) => ids
                .iter()
                .map(|id| id.as_str().map(str::to_owned))
                .collect::<Option<Vec<_>>>()
                .ok_or_else(|| WireError {
                    pointer: "/completedAtClone".into(),
                    message: "node ids are strings".into(),
                })?,
            _ => {
                return Err(WireError {
                    pointer: "/completedAtClone".into(),
                    message: "completedAtClone is a list of node ids".into(),
                });
            }
        };
        Ok(Provenance::Clone {
            parent: string_field(object, "parent", at)?,
            parent_digest: string_field(object, "parentDigest", at)?,
            parent_revision,
            completed_at_clone,
        })
    }
}

/// The plan as the fold of its op log leaves it: what is digested, frozen and approved.
#[derive(Clone, Debug, PartialEq)]
pub struct PlanView {
    /// The plan's id.
    pub plan_id: String,
    /// How many distinct ops were folded (a duplicated op is counted once). Not digested:
    /// the same content reached by different edit histories is the same plan.
    pub revision: u64,
    /// The nodes, in the order the fold defines.
    pub nodes: Vec<Node>,
    /// The edges, in the order the fold defines.
    pub edges: Vec<Edge>,
    /// The bounds: [`DEFAULT_PLAN_BOUNDS`] unless a `set_bounds` op changed them.
    pub bounds: Bounds,
    /// Where the plan came from, if it is a clone.
    pub provenance: Option<Provenance>,
}

impl PlanView {
    /// The view of an empty op log: no nodes, no edges, the default bounds.
    pub fn empty(plan_id: impl Into<String>) -> PlanView {
        PlanView {
            plan_id: plan_id.into(),
            revision: 0,
            nodes: Vec::new(),
            edges: Vec::new(),
            bounds: DEFAULT_PLAN_BOUNDS,
            provenance: None,
        }
    }

    /// The node with this id.
    pub fn node(&self, id: &str) -> Option<&Node> {
        self.nodes.iter().find(|node| node.id == id)
    }

    /// The view as a plan document (`{"planId", "nodes", "edges", "bounds", "provenance"?}`).
    pub fn to_wire(&self) -> Json {
        let mut object = JsonMap::new();
        object.insert("planId".into(), Json::String(self.plan_id.clone()));
        object.insert(
            "nodes".into(),
            Json::Array(self.nodes.iter().map(Node::to_wire).collect()),
        );
        object.insert(
            "edges".into(),
            Json::Array(self.edges.iter().map(Edge::to_wire).collect()),
        );
        object.insert("bounds".into(), self.bounds.to_wire());
        if let Some(provenance) = &self.provenance {
            object.insert("provenance".into(), provenance.to_wire());
        }
        Json::Object(object)
    }
}

/// How much an issue matters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Severity {
    /// The plan cannot be frozen until it is fixed.
    Blocking,
    /// Worth knowing; does not stop a freeze.
    Advisory,
}

impl Severity {
    /// The severity's wire name.
    pub fn name(self) -> &'static str {
        match self {
            Severity::Blocking => "blocking",
            Severity::Advisory => "advisory",
        }
    }
}

/// One thing wrong with a plan, addressed to whoever (person or model) will fix it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PlanIssue {
    /// A stable snake_case code (the original's codes where it has the check).
    pub code: &'static str,
    /// Whether it stops a freeze.
    pub severity: Severity,
    /// The node it is about, if any.
    pub node_id: Option<String>,
    /// The edge it is about, if any.
    pub edge_id: Option<String>,
    /// What is wrong and what to write instead.
    pub message: String,
}

impl PlanIssue {
    /// A blocking issue.
    pub fn blocking(code: &'static str, message: impl Into<String>) -> PlanIssue {
        PlanIssue {
            code,
            severity: Severity::Blocking,
            node_id: None,
            edge_id: None,
            message: message.into(),
        }
    }

    /// An advisory issue.
    pub fn advisory(code: &'static str, message: impl Into<String>) -> PlanIssue {
        PlanIssue {
            code,
            severity: Severity::Advisory,
            node_id: None,
            edge_id: None,
            message: message.into(),
        }
    }

    /// The same issue, about this node.
    pub fn on_node(mut self, node_id: impl Into<String>) -> PlanIssue {
        self.node_id = Some(node_id.into());
        self
    }

    /// The same issue, about this edge.
    pub fn on_edge(mut self, edge_id: impl Into<String>) -> PlanIssue {
        self.edge_id = Some(edge_id.into());
        self
    }

    /// The issue as `writ plan check --json` prints it.
    pub fn to_json(&self) -> Json {
        let mut object = JsonMap::new();
        object.insert("code".into(), Json::String(self.code.into()));
        object.insert("severity".into(), Json::String(self.severity.name().into()));
        if let Some(node_id) = &self.node_id {
            object.insert("nodeId".into(), Json::String(node_id.clone()));
        }
        if let Some(edge_id) = &self.edge_id {
            object.insert("edgeId".into(), Json::String(edge_id.clone()));
        }
        object.insert("message".into(), Json::String(self.message.clone()));
        Json::Object(object)
    }
}

impl fmt::Display for PlanIssue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} [{}]", self.code, self.severity.name())?;
        if let Some(node_id) = &self.node_id {
            write!(f, " node {node_id}")?;
        }
        if let Some(edge_id) = &self.edge_id {
            write!(f, " edge {edge_id}")?;
        }
        write!(f, ": {}", self.message)
    }
}

pub(crate) fn object_at<'j>(
    json: &'j Json,
    at: &Pointer<'_>,
    form: &str,
) -> Result<&'j JsonMap<String, Json>, WireError> {
    match json {
        Json::Object(object) => Ok(object),
        _ => Err(WireError {
            pointer: at.render(),
            message: format!("expected an object: {form}"),
        }),
    }
}

pub(crate) fn refuse_unknown(
    object: &JsonMap<String, Json>,
    known: &[&str],
    at: &Pointer<'_>,
) -> Result<(), WireError> {
    match object.keys().find(|key| !known.contains(&key.as_str())) {
        Some(key) => Err(WireError {
            pointer: Pointer::Key(at, key).render(),
            message: format!("unknown field \"{key}\"; the fields are {}", known.join(", ")),
        }),
        None => Ok(()),
    }
}

pub(crate) fn string_field(object: &JsonMap<String, Json>, key: &str, at: &Pointer<'_>) -> Result<String, WireError> {
    match object.get(key) {
        Some(Json::String(s)) => Ok(s.clone()),
        Some(_) => Err(WireError {
            pointer: Pointer::Key(at, key).render(),
            message: format!("\"{key}\" is a string"),
        }),
        None => Err(WireError {
            pointer: at.render(),
            message: format!("\"{key}\" is missing"),
        }),
    }
}
