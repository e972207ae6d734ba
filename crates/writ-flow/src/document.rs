//! The workflow document: its typed form, and the checker that builds it from JSON, refusing
//! every unknown kind and field with its JSON Pointer.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use writ_core::{Object, Str, Value, closest_name};

use crate::expr::Expr;
use crate::{Code, Issue};

/// The node kinds, as documents spell them.
pub const NODE_KINDS: &[&str] = &[
    "compute",
    "loop",
    "conditional",
    "sequence",
    "subflow",
    "callModel",
    "call",
    "wait",
    "decide",
    "fanOut",
];

/// The predicate kinds, as documents spell them.
pub const PREDICATE_KINDS: &[&str] = &["expr", "any", "all", "maxDuration", "maxCost"];

/// The `maxIterations` a loop gets when it names none.
pub const DEFAULT_MAX_ITERATIONS: u64 = 100;

/// The largest integer a JSON number holds exactly.
const MAX_SAFE_INTEGER: f64 = 9_007_199_254_740_991.0;

/// A checked workflow document, its expressions compiled: what [`crate::run`] runs.
///
/// Built by [`Workflow::parse`], which refuses every document [`check`](crate::check) refuses.
#[derive(Debug, Clone)]
pub struct Workflow {
    pub(crate) root: Arc<Node>,
    pub(crate) document: Value,
    /// Whether any of its expressions can read `$steps`: a run of a workflow none of whose
    /// expressions can need not keep its nodes' outputs.
    pub(crate) reads_steps: bool,
}

impl Workflow {
    /// Checks `document` and builds the workflow, without looking at what its subflows name
    /// (the runtime refuses an unknown name when a subflow runs; [`crate::check`] refuses it
    /// up front).
    ///
    /// # Errors
    ///
    /// Every issue the checker found, sorted by path and then by code.
    pub fn parse(document: &Value) -> Result<Workflow, Vec<Issue>> {
        let mut checker = Checker::new(None);
        let root = checker.document(document);
        match root {
            Some(root) if checker.issues.is_empty() => Ok(Workflow {
                root: Arc::new(root),
                document: document.clone(),
                reads_steps: checker.reads_steps,
            }),
            _ => Err(checker.finish()),
        }
    }

    /// The document as it was given.
    pub fn document(&self) -> &Value {
        &self.document
    }

    /// The id of the root node.
    pub fn root_id(&self) -> String {
        self.root.id.to_string_lossy().into_owned()
    }
}

/// Checks `document` as a workflow whose subflows may name `workflows`: every problem, each
/// with its JSON Pointer, sorted by path and then by code. Empty when the document runs.
pub(crate) fn check_document(document: &Value, workflows: KnownWorkflows<'_>) -> Vec<Issue> {
    let mut checker = Checker::new(Some(workflows));
    checker.document(document);
    checker.finish()
}

/// One node.
#[derive(Debug)]
pub(crate) struct Node {
    pub(crate) id: Str,
    pub(crate) kind: Kind,
    pub(crate) emit: Option<Emit>,
}

/// What a node does.
#[derive(Debug)]
pub(crate) enum Kind {
    Compute {
        expr: Expr,
    },
    Loop {
        body: Box<Node>,
        until: Option<Predicate>,
        /// `None` is `"infinity"`.
        max_iterations: Option<u64>,
    },
    Conditional {
        routes: Vec<Route>,
        default: Option<Box<Node>>,
    },
    Sequence {
        steps: Vec<Node>,
    },
    Subflow {
        reference: String,
    },
    CallModel {
        instructions: String,
    },
    Call {
        connection: Arg,
        op: String,
        args: Arg,
    },
    Wait {
        filter: Option<Expr>,
    },
    Decide,
    FanOut {
        connections: Vec<Str>,
        body: Box<Node>,
    },
}

/// One route of a conditional.
#[derive(Debug)]
pub(crate) struct Route {
    pub(crate) test: RouteTest,
    pub(crate) target: Node,
}

/// How a route decides.
#[derive(Debug)]
pub(crate) enum RouteTest {
    /// The input's text contains this.
    Match(String),
    /// This test passes on the input.
    Expr(Expr),
}

/// An until predicate.
#[derive(Debug)]
pub(crate) enum Predicate {
    Expr(Expr),
    Any(Vec<Predicate>),
    All(Vec<Predicate>),
    MaxDuration(Duration),
    MaxCost(f64),
}

/// A call's connection or arguments: JSON with `{"$expr": …}` values evaluated over the input.
#[derive(Debug)]
pub(crate) enum Arg {
    Literal(Value),
    Expr(Expr),
    Array(Vec<Arg>),
    Object(Vec<(Str, Arg)>),
}

/// A node's emitItems hooks.
#[derive(Debug)]
pub(crate) struct Emit {
    pub(crate) item: Option<Str>,
    pub(crate) on_start: Option<Expr>,
    pub(crate) on_done: Option<Expr>,
}

/// Writes one JSON Pointer segment.
fn escape(segment: &str) -> String {
    segment.replace('~', "~0").replace('/', "~1")
}

fn join(path: &str, segment: &str) -> String {
    format!("{path}/{}", escape(segment))
}

/// Answers whether a subflow's `ref` names a workflow: `None` when it does, else the names
/// there are.
pub(crate) type KnownWorkflows<'a> = &'a dyn Fn(&str) -> Option<Vec<String>>;

struct Checker<'a> {
    issues: Vec<Issue>,
    ids: HashMap<String, String>,
    workflows: Option<KnownWorkflows<'a>>,
    /// Whether an expression compiled so far can read `$steps`.
    reads_steps: bool,
}

impl<'a> Checker<'a> {
    fn new(workflows: Option<KnownWorkflows<'a>>) -> Checker<'a> {
        Checker {
            issues: Vec::new(),
            ids: HashMap::new(),
            workflows,
            reads_steps: false,
        }
    }

    fn finish(mut self) -> Vec<Issue> {
        self.issues
            .sort_by(|a, b| (&a.path, a.code.as_str()).cmp(&(&b.path, b.code.as_str())));
        self.issues
    }

    fn issue(&mut self, code: Code, path: &str, message: impl Into<String>) {
        self.issues.push(Issue {
            code,
            path: path.to_string(),
            message: message.into(),
        });
    }

    /// Refuses the fields of `object` not in `allowed`, offering the closest allowed name.
    fn fields(&mut self, object: &Object, allowed: &[&str], path: &str, what: &str) {
        for key in object.keys() {
            let key = key.to_string_lossy();
            if allowed.contains(&key.as_ref()) {
                continue;
            }
            let hint = closest_name(&key, allowed.iter().copied())
                .map(|nearest| format!("did you mean \"{nearest}\"? "))
                .unwrap_or_default();
            self.issue(
                Code::UnknownField,
                &join(path, &key),
                format!(
                    "{what} has no field \"{key}\"; {hint}its fields are {}",
                    allowed.join(", ")
                ),
            );
        }
    }

    fn document(&mut self, document: &Value) -> Option<Node> {
        let Value::Object(object) = document else {
            self.issue(
                Code::UnsupportedVersion,
                "",
                format!(
                    "a workflow document is a JSON object {{\"version\": 1, \"root\": {{…}}}}, found {}",
                    document.kind().described()
                ),
            );
            return None;
        };
        self.fields(object, &["version", "root", "$schema"], "", "a workflow document");
        match object.get_str("version") {
            None => self.issue(
                Code::MissingField,
                "/version",
                "a workflow document needs \"version\": 1",
            ),
            Some(Value::Number(version)) if *version == 1.0 => {}
            Some(other) => self.issue(
                Code::UnsupportedVersion,
                "/version",
                format!(
                    "this runtime reads version 1 documents, found {}; write \"version\": 1",
                    other.to_json_string().unwrap_or_default()
                ),
            ),
        }
        if let Some(schema) = object.get_str("$schema")
            && !matches!(schema, Value::String(_))
        {
            self.issue(
                Code::InvalidField,
                "/$schema",
                "\"$schema\" is the URI of the schema, a string",
            );
        }
        match object.get_str("root") {
            None => {
                self.issue(
                    Code::MissingField,
                    "/root",
                    "a workflow document needs a \"root\" node, such as {\"kind\": \"compute\", \"id\": \"step\", \"expr\": \"…\"}",
                );
                None
            }
            Some(root) => self.node(root, "/root"),
        }
    }

    fn string_field(&mut self, object: &Object, key: &str, path: &str, what: &str) -> Option<String> {
        match object.get_str(key) {
            None => {
                self.issue(
                    Code::MissingField,
                    &join(path, key),
                    format!("{what} needs \"{key}\", a string"),
                );
                None
            }
            Some(Value::String(text)) => Some(text.to_string_lossy().into_owned()),
            Some(other) => {
                self.issue(
                    Code::InvalidField,
                    &join(path, key),
                    format!("{what}'s \"{key}\" is a string, found {}", other.kind().described()),
                );
                None
            }
        }
    }

    fn expr_field(&mut self, object: &Object, key: &str, path: &str, what: &str, site: String) -> Option<Expr> {
        let source = self.string_field(object, key, path, what)?;
        self.expr(&source, &join(path, key), site)
    }

    fn expr(&mut self, source: &str, path: &str, site: String) -> Option<Expr> {
        match Expr::compile(source, site) {
            Ok(expr) => {
                self.reads_steps |= expr.reads_steps();
                Some(expr)
            }
            Err(message) => {
                self.issue(
                    Code::InvalidExpression,
                    path,
                    format!("{message}; write a JSONata expression (https://docs.jsonata.org)"),
                );
                None
            }
        }
    }

    fn node(&mut self, value: &Value, path: &str) -> Option<Node> {
        stacker::maybe_grow(64 * 1024, 1024 * 1024, || self.node_inner(value, path))
    }

    fn node_inner(&mut self, value: &Value, path: &str) -> Option<Node> {
        let Value::Object(object) = value else {
            self.issue(
                Code::InvalidField,
                path,
                format!(
                    "a node is an object such as {{\"kind\": \"compute\", \"id\": \"step\", \"expr\": \"…\"}}, found {}",
                    value.kind().described()
                ),
            );
            return None;
        };
        let kind = match object.get_str("kind") {
            None => {
                self.issue(
                    Code::MissingField,
                    &join(path, "kind"),
                    format!("a node needs \"kind\", one of {}", NODE_KINDS.join(", ")),
                );
                None
            }
            Some(Value::String(kind)) => {
                let kind = kind.to_string_lossy().into_owned();
                if NODE_KINDS.contains(&kind.as_str()) {
                    Some(kind)
                } else {
                    let hint = closest_name(&kind, NODE_KINDS.iter().copied())
                        .map(|nearest| format!("did you mean \"{nearest}\"? "))
                        .unwrap_or_default();
                    self.issue(
                        Code::UnknownNodeKind,
                        &join(path, "kind"),
                        format!(
                            "no node kind is named \"{kind}\"; {hint}the kinds are {}",
                            NODE_KINDS.join(", ")
                        ),
                    );
                    None
                }
            }
            Some(other) => {
                self.issue(
                    Code::InvalidField,
                    &join(path, "kind"),
                    format!("a node's \"kind\" is a string, found {}", other.kind().described()),
                );
                None
            }
        };
        let id = match object.get_str("id") {
            None => {
                self.issue(
                    Code::MissingField,
                    &join(path, "id"),
                    "a node needs \"id\", a non-empty string",
                );
                None
            }
            Some(Value::String(id)) if !id.is_empty() => {
                let text = id.to_string_lossy().into_owned();
                if let Some(first) = self.ids.get(&text) {
                    let first = first.clone();
                    self.issue(
                        Code::DuplicateNodeId,
                        &join(path, "id"),
                        format!(
                            "node id \"{text}\" is already used at {first}; give each node its own id, since $steps reads outputs by id"
                        ),
                    );
                } else {
                    self.ids.insert(text, join(path, "id"));
                }
                Some(id.clone())
            }
            Some(other) => {
                self.issue(
                    Code::InvalidField,
                    &join(path, "id"),
                    format!("a node's \"id\" is a non-empty string, found {}", describe(other)),
                );
                None
            }
        };
        let kind = kind?;
        let label = match &id {
            Some(id) => format!("{kind} node '{}'", id.to_string_lossy()),
            None => format!("{kind} node at {path}"),
        };
        let specific: &[&str] = match kind.as_str() {
            "compute" => &["expr"],
            "loop" => &["body", "until", "maxIterations"],
            "conditional" => &["routes", "default"],
            "sequence" => &["steps"],
            "subflow" => &["ref"],
            "callModel" => &["instructions"],
            "call" => &["connection", "op", "args"],
            "wait" => &["filter"],
            "decide" => &["question"],
            _ => &["connections", "body"],
        };
        let allowed: Vec<&str> = ["kind", "id", "emitItems"].iter().chain(specific).copied().collect();
        self.fields(object, &allowed, path, &format!("a {kind} node"));
        let emit = match object.get_str("emitItems") {
            None => None,
            Some(emit) => self.emit(emit, &join(path, "emitItems"), &label),
        };
        let built = match kind.as_str() {
            "compute" => self
                .expr_field(object, "expr", path, &label, label.clone())
                .map(|expr| Kind::Compute { expr }),
            "loop" => self.loop_node(object, path, &label),
            "conditional" => self.conditional(object, path, &label),
            "sequence" => {
                let steps = self.node_list(object, "steps", path, &label);
                steps.map(|steps| Kind::Sequence { steps })
            }
            "subflow" => {
                let reference = self.string_field(object, "ref", path, &label);
                if let (Some(reference), Some(workflows)) = (&reference, self.workflows)
                    && let Some(known) = workflows(reference)
                {
                    let listed = if known.is_empty() {
                        "no named workflows were given (writ flow run --workflows DIR)".to_string()
                    } else {
                        format!("the named workflows are {}", known.join(", "))
                    };
                    self.issue(
                        Code::UnknownWorkflow,
                        &join(path, "ref"),
                        format!("{label} calls \"{reference}\", which is not a named workflow; {listed}"),
                    );
                }
                reference.map(|reference| Kind::Subflow { reference })
            }
            "callModel" => self
                .string_field(object, "instructions", path, &label)
                .map(|instructions| Kind::CallModel { instructions }),
            "call" => self.call(object, path, &label),
            "wait" => match object.get_str("filter") {
                None => Some(Kind::Wait { filter: None }),
                Some(_) => self
                    .expr_field(object, "filter", path, &label, format!("filter of {label}"))
                    .map(|filter| Kind::Wait { filter: Some(filter) }),
            },
            "decide" => {
                if object.get_str("question").is_some() {
                    self.string_field(object, "question", path, &label);
                }
                Some(Kind::Decide)
            }
            _ => self.fan_out(object, path, &label),
        };
        Some(Node {
            id: id?,
            kind: built?,
            emit,
        })
    }

    fn required_node(&mut self, object: &Object, key: &str, path: &str, label: &str) -> Option<Box<Node>> {
        match object.get_str(key) {
            None => {
                self.issue(
                    Code::MissingField,
                    &join(path, key),
                    format!("{label} needs \"{key}\", a node"),
                );
                None
            }
            Some(node) => self.node(node, &join(path, key)).map(Box::new),
        }
    }

    fn node_list(&mut self, object: &Object, key: &str, path: &str, label: &str) -> Option<Vec<Node>> {
        let path = join(path, key);
        match object.get_str(key) {
            None => {
                self.issue(
                    Code::MissingField,
                    &path,
                    format!("{label} needs \"{key}\", an array of nodes"),
                );
                None
            }
            Some(Value::Array(items)) => {
                let mut nodes = Vec::with_capacity(items.len());
                let mut complete = true;
                for (idx, item) in items.iter().enumerate() {
                    match self.node(item, &format!("{path}/{idx}")) {
                        Some(node) => nodes.push(node),
                        None => complete = false,
                    }
                }
                complete.then_some(nodes)
            }
            Some(other) => {
                self.issue(
                    Code::InvalidField,
                    &path,
                    format!(
                        "{label}'s \"{key}\" is an array of nodes, found {}",
                        other.kind().described()
                    ),
                );
                None
            }
        }
    }

    fn loop_node(&mut self, object: &Object, path: &str, label: &str) -> Option<Kind> {
        let body = self.required_node(object, "body", path, label);
        let until = object
            .get_str("until")
            .map(|until| self.predicate(until, &join(path, "until"), &format!("until of {label}")));
        let max_iterations = match object.get_str("maxIterations") {
            None => Some(Some(DEFAULT_MAX_ITERATIONS)),
            Some(Value::String(text)) if text.eq_str("infinity") || text.eq_str("Infinity") => Some(None),
            Some(Value::Number(n)) if n.fract() == 0.0 && *n >= 1.0 && *n <= MAX_SAFE_INTEGER => Some(Some(*n as u64)),
            Some(other) => {
                self.issue(
                    Code::InvalidField,
                    &join(path, "maxIterations"),
                    format!(
                        "{label}'s \"maxIterations\" is a positive integer or \"infinity\", found {}",
                        describe(other)
                    ),
                );
                None
            }
        };
        if max_iterations == Some(None) && object.get_str("until").is_none() {
            self.issue(
                Code::UnboundedLoop,
                &join(path, "maxIterations"),
                format!(
                    "{label} has \"maxIterations\": \"infinity\" and no \"until\", so nothing could end it; add an until predicate such as {{\"kind\": \"expr\", \"expr\": \"done = true\"}}"
                ),
            );
        }
        let until = match until {
            None => None,
            Some(until) => Some(until?),
        };
        Some(Kind::Loop {
            body: body?,
            until,
            max_iterations: max_iterations?,
        })
    }

    fn predicate(&mut self, value: &Value, path: &str, site: &str) -> Option<Predicate> {
        stacker::maybe_grow(64 * 1024, 1024 * 1024, || self.predicate_inner(value, path, site))
    }

    fn predicate_inner(&mut self, value: &Value, path: &str, site: &str) -> Option<Predicate> {
        let Value::Object(object) = value else {
            self.issue(
                Code::InvalidField,
                path,
                format!(
                    "a predicate is an object such as {{\"kind\": \"expr\", \"expr\": \"n = 0\"}}, found {}",
                    value.kind().described()
                ),
            );
            return None;
        };
        let kind = match object.get_str("kind") {
            Some(Value::String(kind)) => kind.to_string_lossy().into_owned(),
            None => {
                self.issue(
                    Code::MissingField,
                    &join(path, "kind"),
                    format!("a predicate needs \"kind\", one of {}", PREDICATE_KINDS.join(", ")),
                );
                return None;
            }
            Some(other) => {
                self.issue(
                    Code::InvalidField,
                    &join(path, "kind"),
                    format!("a predicate's \"kind\" is a string, found {}", other.kind().described()),
                );
                return None;
            }
        };
        let what = format!("a {kind} predicate");
        match kind.as_str() {
            "expr" => {
                self.fields(object, &["kind", "expr"], path, &what);
                self.expr_field(object, "expr", path, &what, site.to_string())
                    .map(Predicate::Expr)
            }
            "any" | "all" => {
                self.fields(object, &["kind", "predicates"], path, &what);
                let list_path = join(path, "predicates");
                match object.get_str("predicates") {
                    Some(Value::Array(items)) if !items.is_empty() => {
                        let mut predicates = Vec::with_capacity(items.len());
                        let mut complete = true;
                        for (idx, item) in items.iter().enumerate() {
                            let site = format!("{site} (predicate {idx} of its {kind})");
                            match self.predicate(item, &format!("{list_path}/{idx}"), &site) {
                                Some(predicate) => predicates.push(predicate),
                                None => complete = false,
                            }
                        }
                        complete.then(|| {
                            if kind == "any" {
                                Predicate::Any(predicates)
                            } else {
                                Predicate::All(predicates)
                            }
                        })
                    }
                    None => {
                        self.issue(
                            Code::MissingField,
                            &list_path,
                            format!("{what} needs \"predicates\", a non-empty array of predicates"),
                        );
                        None
                    }
                    Some(other) => {
                        self.issue(
                            Code::InvalidField,
                            &list_path,
                            format!(
                                "{what}'s \"predicates\" is a non-empty array of predicates, found {}",
                                describe(other)
                            ),
                        );
                        None
                    }
                }
            }
            "maxDuration" => {
                self.fields(object, &["kind", "duration"], path, &what);
                match object.get_str("duration") {
                    Some(Value::Number(ms)) if ms.fract() == 0.0 && *ms >= 1.0 && *ms <= MAX_SAFE_INTEGER => {
                        Some(Predicate::MaxDuration(Duration::from_millis(*ms as u64)))
                    }
                    None => {
                        self.issue(
                            Code::MissingField,
                            &join(path, "duration"),
                            format!("{what} needs \"duration\", in milliseconds"),
                        );
                        None
                    }
                    Some(other) => {
                        self.issue(
                            Code::InvalidField,
                            &join(path, "duration"),
                            format!(
                                "{what}'s \"duration\" is a positive integer of milliseconds, found {}",
                                describe(other)
                            ),
                        );
                        None
                    }
                }
            }
            "maxCost" => {
                self.fields(object, &["kind", "cost"], path, &what);
                match object.get_str("cost") {
                    Some(Value::Number(cost)) if cost.is_finite() && *cost > 0.0 => Some(Predicate::MaxCost(*cost)),
                    None => {
                        self.issue(
                            Code::MissingField,
                            &join(path, "cost"),
                            format!("{what} needs \"cost\", a positive number"),
                        );
                        None
                    }
                    Some(other) => {
                        self.issue(
                            Code::InvalidField,
                            &join(path, "cost"),
                            format!("{what}'s \"cost\" is a positive number, found {}", describe(other)),
                        );
                        None
                    }
                }
            }
            _ => {
                let hint = closest_name(&kind, PREDICATE_KINDS.iter().copied())
                    .map(|nearest| format!("did you mean \"{nearest}\"? "))
                    .unwrap_or_default();
                self.issue(
                    Code::UnknownPredicateKind,
                    &join(path, "kind"),
                    format!(
                        "no predicate kind is named \"{kind}\"; {hint}the kinds are {}",
                        PREDICATE_KINDS.join(", ")
                    ),
                );
                None
            }
        }
    }

    fn conditional(&mut self, object: &Object, path: &str, label: &str) -> Option<Kind> {
        let routes_path = join(path, "routes");
        let routes = match object.get_str("routes") {
            None => {
                self.issue(
                    Code::MissingField,
                    &routes_path,
                    format!("{label} needs \"routes\", an array of routes"),
                );
                None
            }
            Some(Value::Array(items)) => {
                let mut routes = Vec::with_capacity(items.len());
                let mut complete = true;
                for (idx, item) in items.iter().enumerate() {
                    match self.route(item, &format!("{routes_path}/{idx}"), idx, label) {
                        Some(route) => routes.push(route),
                        None => complete = false,
                    }
                }
                complete.then_some(routes)
            }
            Some(other) => {
                self.issue(
                    Code::InvalidField,
                    &routes_path,
                    format!(
                        "{label}'s \"routes\" is an array of routes, found {}",
                        other.kind().described()
                    ),
                );
                None
            }
        };
        let default = match object.get_str("default") {
            None => Some(None),
            Some(node) => self.node(node, &join(path, "default")).map(|node| Some(Box::new(node))),
        };
        Some(Kind::Conditional {
            routes: routes?,
            default: default?,
        })
    }

    fn route(&mut self, value: &Value, path: &str, idx: usize, label: &str) -> Option<Route> {
        let what = format!("route {idx} of {label}");
        let Value::Object(object) = value else {
            self.issue(
                Code::InvalidField,
                path,
                format!(
                    "{what} is an object with \"match\" or \"expr\" and a \"target\" node, found {}",
                    value.kind().described()
                ),
            );
            return None;
        };
        self.fields(object, &["match", "expr", "target"], path, &what);
        let test = match (object.get_str("match"), object.get_str("expr")) {
            (Some(_), Some(_)) => {
                self.issue(
                    Code::InvalidField,
                    path,
                    format!("{what} has both \"match\" and \"expr\"; a route carries exactly one of them"),
                );
                None
            }
            (None, None) => {
                self.issue(
                    Code::MissingField,
                    &join(path, "expr"),
                    format!(
                        "{what} needs exactly one of \"match\" (a substring of the input) or \"expr\" (a JSONata test)"
                    ),
                );
                None
            }
            (Some(_), None) => self.string_field(object, "match", path, &what).map(RouteTest::Match),
            (None, Some(_)) => self
                .expr_field(object, "expr", path, &what, what.clone())
                .map(RouteTest::Expr),
        };
        let target = self.required_node(object, "target", path, &what);
        Some(Route {
            test: test?,
            target: *target?,
        })
    }

    fn call(&mut self, object: &Object, path: &str, label: &str) -> Option<Kind> {
        let connection = match object.get_str("connection") {
            None => {
                self.issue(
                    Code::MissingField,
                    &join(path, "connection"),
                    format!("{label} needs \"connection\": an MCP server of the tools manifest, or \"tools\""),
                );
                None
            }
            Some(Value::String(name)) => Some(Arg::Literal(Value::String(name.clone()))),
            Some(value @ Value::Object(_)) => {
                let arg = self.arg(value, &join(path, "connection"), &format!("connection of {label}"));
                match arg {
                    Some(Arg::Expr(expr)) => Some(Arg::Expr(expr)),
                    Some(_) | None => {
                        if arg.is_some() {
                            self.issue(
                                Code::InvalidField,
                                &join(path, "connection"),
                                format!("{label}'s \"connection\" is a name or {{\"$expr\": …}} giving one"),
                            );
                        }
                        None
                    }
                }
            }
            Some(other) => {
                self.issue(
                    Code::InvalidField,
                    &join(path, "connection"),
                    format!(
                        "{label}'s \"connection\" is a name or {{\"$expr\": …}} giving one, found {}",
                        other.kind().described()
                    ),
                );
                None
            }
        };
        let op = self.string_field(object, "op", path, label);
        let args = match object.get_str("args") {
            None => Some(Arg::Literal(Value::Object(Object::new()))),
            Some(value @ Value::Object(_)) => self.arg(value, &join(path, "args"), &format!("argument of {label}")),
            Some(other) => {
                self.issue(
                    Code::InvalidField,
                    &join(path, "args"),
                    format!("{label}'s \"args\" is an object, found {}", other.kind().described()),
                );
                None
            }
        };
        Some(Kind::Call {
            connection: connection?,
            op: op?,
            args: args?,
        })
    }

    fn arg(&mut self, value: &Value, path: &str, site: &str) -> Option<Arg> {
        stacker::maybe_grow(64 * 1024, 1024 * 1024, || self.arg_inner(value, path, site))
    }

    fn arg_inner(&mut self, value: &Value, path: &str, site: &str) -> Option<Arg> {
        match value {
            Value::Object(object) => {
                if let Some(source) = object.get_str("$expr") {
                    if object.len() != 1 {
                        self.issue(
                            Code::InvalidField,
                            path,
                            "an {\"$expr\": …} object has no other keys; put the expression in an object of its own",
                        );
                        return None;
                    }
                    let Value::String(source) = source else {
                        self.issue(
                            Code::InvalidField,
                            &join(path, "$expr"),
                            format!(
                                "\"$expr\" holds a JSONata expression as a string, found {}",
                                source.kind().described()
                            ),
                        );
                        return None;
                    };
                    let source = source.to_string_lossy();
                    return self
                        .expr(&source, &join(path, "$expr"), format!("{site} at {path}"))
                        .map(Arg::Expr);
                }
                if !contains_expr(value) {
                    return Some(Arg::Literal(value.clone()));
                }
                let mut fields = Vec::with_capacity(object.len());
                let mut complete = true;
                for (key, item) in object.iter() {
                    match self.arg(item, &join(path, &key.to_string_lossy()), site) {
                        Some(arg) => fields.push((key.clone(), arg)),
                        None => complete = false,
                    }
                }
                complete.then_some(Arg::Object(fields))
            }
            Value::Array(items) if contains_expr(value) => {
                let mut args = Vec::with_capacity(items.len());
                let mut complete = true;
                for (idx, item) in items.iter().enumerate() {
                    match self.arg(item, &format!("{path}/{idx}"), site) {
                        Some(arg) => args.push(arg),
                        None => complete = false,
                    }
                }
                complete.then_some(Arg::Array(args))
            }
            other => Some(Arg::Literal(other.clone())),
        }
    }

    fn fan_out(&mut self, object: &Object, path: &str, label: &str) -> Option<Kind> {
        let list_path = join(path, "connections");
        let connections = match object.get_str("connections") {
            Some(Value::Array(items))
                if !items.is_empty() && items.iter().all(|item| matches!(item, Value::String(_))) =>
            {
                Some(items.iter().filter_map(|item| item.as_str().cloned()).collect())
            }
            None => {
                self.issue(
                    Code::MissingField,
                    &list_path,
                    format!("{label} needs \"connections\", a non-empty array of connection names"),
                );
                None
            }
            Some(other) => {
                self.issue(
                    Code::InvalidField,
                    &list_path,
                    format!(
                        "{label}'s \"connections\" is a non-empty array of connection names, found {}",
                        describe(other)
                    ),
                );
                None
            }
        };
        let body = self.required_node(object, "body", path, label);
        Some(Kind::FanOut {
            connections: connections?,
            body: body?,
        })
    }

    fn emit(&mut self, value: &Value, path: &str, label: &str) -> Option<Emit> {
        let Value::Object(object) = value else {
            self.issue(
                Code::InvalidField,
                path,
                format!(
                    "{label}'s \"emitItems\" is an object {{\"item\"?, \"onStart\"?, \"onDone\"?}}, found {}",
                    value.kind().described()
                ),
            );
            return None;
        };
        self.fields(
            object,
            &["item", "onStart", "onDone"],
            path,
            &format!("the emitItems of {label}"),
        );
        let item = match object.get_str("item") {
            None => None,
            Some(Value::String(item)) => Some(item.clone()),
            Some(other) => {
                self.issue(
                    Code::InvalidField,
                    &join(path, "item"),
                    format!(
                        "\"item\" names the item the hooks emit, a string; found {}",
                        other.kind().described()
                    ),
                );
                None
            }
        };
        let on_start = match object.get_str("onStart") {
            None => None,
            Some(_) => self.expr_field(object, "onStart", path, "emitItems", format!("onStart hook of {label}")),
        };
        let on_done = match object.get_str("onDone") {
            None => None,
            Some(_) => self.expr_field(object, "onDone", path, "emitItems", format!("onDone hook of {label}")),
        };
        Some(Emit {
            item,
            on_start,
            on_done,
        })
    }
}

/// True when an `{"$expr": …}` object sits anywhere in `value`.
fn contains_expr(value: &Value) -> bool {
    let mut pending = vec![value];
    while let Some(value) = pending.pop() {
        match value {
            Value::Object(object) => {
                if object.get_str("$expr").is_some() {
                    return true;
                }
                pending.extend(object.values());
            }
            Value::Array(items) => pending.extend(items.iter()),
            _ => {}
        }
    }
    false
}

/// A value as a message quotes it: its kind, and its JSON when short.
fn describe(value: &Value) -> String {
    match value.to_json_string() {
        Some(text) if text.len() <= 40 => format!("{} ({text})", value.kind().described()),
        _ => value.kind().described().to_string(),
    }
}
