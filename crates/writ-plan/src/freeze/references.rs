//! The checks on references: that each names a node that exists, a field it declares, a node
//! that has run by then, and one execution of it.

use std::collections::{HashMap, VecDeque};

use crate::freeze::{nearest, quoted};
use crate::graph::{Graph, ROUTE_CAP, Routes};
use crate::model::{Handle, Node, NodeKind, PlanIssue, PlanView};
use crate::taint::within;
use crate::value::{BranchId, JoinSegment, NodeRef, RouteSegment, Select, StagedValue};

/// The fields a join's output items have: the edge each arrival came over, its source, and its
/// branch key.
const JOIN_FIELDS: [&str; 3] = ["via", "from", "branch"];

/// Top-level JSON Schema keywords that let an object hold properties its `properties` do not
/// list; with any of them present, a reason's fields are not known from its schema.
const OPEN_SCHEMA_KEYWORDS: [&str; 10] = [
    "$ref",
    "$dynamicRef",
    "allOf",
    "anyOf",
    "oneOf",
    "if",
    "patternProperties",
    "dependentSchemas",
    "unevaluatedProperties",
    "additionalProperties",
];

/// The output fields a node declares, when they are known: an entry's input, a call's output,
/// a join's provenance fields, the properties of a reason's schema when it lists them and
/// allows no others. `None` when the node's output fields are not known.
fn declared_fields(node: &Node) -> Option<Vec<&str>> {
    let from_list = |key: &str| -> Vec<&str> {
        match node.definition.get(key) {
            Some(StagedValue::Array(items)) => items
                .iter()
                .filter_map(|item| match item {
                    StagedValue::Object(field) => match field.get("path") {
                        Some(StagedValue::String(path)) => Some(path.as_str()),
                        _ => None,
                    },
                    _ => None,
                })
                .collect(),
            _ => Vec::new(),
        }
    };
    let fields = match node.kind {
        NodeKind::Entry => from_list("input"),
        NodeKind::Call => from_list("output"),
        NodeKind::Join => JOIN_FIELDS.to_vec(),
        NodeKind::Reason => {
            let Some(StagedValue::Object(schema)) = node.definition.get("outputSchema") else {
                return None;
            };
            let Some(StagedValue::Object(properties)) = schema.get("properties") else {
                return None;
            };
            let open = OPEN_SCHEMA_KEYWORDS.iter().any(|keyword| match schema.get(*keyword) {
                None => false,
                // `false` closes an object to properties it does not list.
                Some(StagedValue::Bool(false)) => !keyword.ends_with("Properties") || *keyword == "patternProperties",
                Some(_) => true,
            });
            if open {
                return None;
            }
            properties.keys().map(String::as_str).collect()
        }
        NodeKind::Branch | NodeKind::Select => return None,
    };
    (!fields.is_empty()).then_some(fields)
}

/// For each node a join reaches (the join included), the first such join: one walk from every
/// join at once, joins seeded in view order.
fn after_joins<'v>(view: &'v PlanView, graph: &Graph<'v>) -> HashMap<&'v str, &'v str> {
    let mut label: HashMap<&str, &str> = HashMap::new();
    let mut queue = VecDeque::new();
    for join in view.nodes.iter().filter(|node| node.kind == NodeKind::Join) {
        if !label.contains_key(join.id.as_str()) {
            label.insert(&join.id, &join.id);
            queue.push_back(join.id.as_str());
        }
    }
    while let Some(node) = queue.pop_front() {
        let from = label[node];
        for edge in graph.outgoing(node) {
            if !label.contains_key(edge.to.as_str()) {
                label.insert(&edge.to, from);
                queue.push_back(&edge.to);
            }
        }
    }
    label
}

/// Whether `target` has run, and succeeded, on some route to `node`: a route that leaves
/// `target` on an edge other than its `error` edge (over which it runs only when it failed, and
/// has no output).
fn runs_before(graph: &Graph<'_>, routes: &Routes<'_, '_>, target: &str, node: &str) -> bool {
    graph
        .outgoing(target)
        .iter()
        .any(|edge| edge.handle != Handle::Error && (edge.to == node || routes.is_upstream(&edge.to, node)))
}

/// A branch id as a message shows it: the JSON to write, `{"segments": [...]}`.
fn branch_json(branch: &BranchId) -> String {
    let mut out = String::from("{\"segments\": [");
    let quote = |out: &mut String, text: &str| {
        out.push('"');
        for c in text.chars() {
            match c {
                '"' => out.push_str("\\\""),
                '\\' => out.push_str("\\\\"),
                c if u32::from(c) < 0x20 => out.push_str(&format!("\\u{:04x}", u32::from(c))),
                c => out.push(c),
            }
        }
        out.push('"');
    };
    for (index, segment) in branch.segments.iter().enumerate() {
        if index > 0 {
            out.push_str(", ");
        }
        match segment {
            RouteSegment::Edge(id) => {
                out.push_str("{\"edge\": ");
                quote(&mut out, id);
            }
            RouteSegment::Join(joined) => {
                let JoinSegment { join, of } = &**joined;
                out.push_str("{\"join\": ");
                quote(&mut out, join);
                out.push_str(", \"of\": [");
                for (index, id) in of.iter().enumerate() {
                    if index > 0 {
                        out.push_str(", ");
                    }
                    quote(&mut out, id);
                }
                out.push(']');
            }
        }
        out.push('}');
    }
    out.push_str("]}");
    out
}

/// How many route segments a message shows at most, beyond its first sample route: a second
/// sample is shown only when the two together stay short.
const SHOWN_SEGMENTS: usize = 32;

/// The sample routes of each referenced node, as messages write them, worked out once per node.
#[derive(Default)]
struct SampleTexts<'v>(HashMap<&'v str, String>);

impl<'v> SampleTexts<'v> {
    /// The node's sample routes joined by "or": the first always, a second when both are short.
    fn of(&mut self, routes: &Routes<'_, '_>, node: &'v str) -> &str {
        self.0.entry(node).or_insert_with(|| {
            let samples = routes.sample_routes(node);
            let mut shown = 0;
            let mut texts = Vec::new();
            for (index, sample) in samples.iter().enumerate() {
                shown += sample.segments.len();
                if index > 0 && shown > SHOWN_SEGMENTS {
                    break;
                }
                texts.push(branch_json(sample));
            }
            texts.join(" or ")
        })
    }
}

fn select_name(select: Select) -> &'static str {
    match select {
        Select::First => "first",
        Select::Last => "last",
        Select::All => "all",
        Select::Index(_) => "index",
    }
}

/// Every reference in every node's definition: `missing_reference`, `undeclared_field`,
/// `reference_not_upstream`, `first_last_across_join`, `ambiguous_reference`,
/// `unknown_branch_id`.
pub(super) fn check<'v>(
    view: &'v PlanView,
    graph: &Graph<'v>,
    routes: Option<&Routes<'_, '_>>,
    issues: &mut Vec<PlanIssue>,
) {
    let mut lazy = Lazy::default();
    for node in &view.nodes {
        for (field, value) in &node.definition {
            for reference in value.node_refs() {
                check_one(view, graph, routes, &mut lazy, node, field, reference, issues);
            }
        }
    }
}

/// What the checks work out once, when a reference first needs it.
#[derive(Default)]
struct Lazy<'v> {
    /// For each node a join reaches, the first such join.
    after_join: Option<HashMap<&'v str, &'v str>>,
    /// Sample routes, as messages write them.
    samples: SampleTexts<'v>,
}

#[allow(clippy::too_many_arguments)]
fn check_one<'v>(
    view: &'v PlanView,
    graph: &Graph<'v>,
    routes: Option<&Routes<'_, '_>>,
    lazy: &mut Lazy<'v>,
    node: &Node,
    field: &str,
    reference: &'v NodeRef,
    issues: &mut Vec<PlanIssue>,
) {
    let here = format!("Node \"{}\" (in \"{field}\")", node.id);
    let target_id = reference.node.as_str();
    let Some(target) = graph.node(target_id) else {
        issues.push(
            PlanIssue::blocking(
                "missing_reference",
                format!(
                    "{here} references node \"{target_id}\", which does not exist. Reference one of the plan's nodes \
                     (nearest: {}).",
                    quoted(nearest(target_id, view.nodes.iter().map(|n| n.id.as_str()), 3))
                ),
            )
            .on_node(&node.id),
        );
        return;
    };
    if let Some(path) = &reference.path
        && let Some(fields) = declared_fields(target)
        && !fields
            .iter()
            .any(|declared| within(path, declared) || within(declared, path))
    {
        let source = match target.kind {
            NodeKind::Entry => "input fields",
            NodeKind::Reason => "output schema's properties",
            NodeKind::Join => "output fields (one item per merged route)",
            _ => "output fields",
        };
        issues.push(
            PlanIssue::blocking(
                "undeclared_field",
                format!(
                    "{here} reads \"{path}\" from node \"{target_id}\", which does not declare it; its {source} are {}. \
                     Read one of those (nearest: {}), or declare the field on \"{target_id}\".",
                    quoted(&fields),
                    quoted(nearest(path, fields.iter().copied(), 1))
                ),
            )
            .on_node(&node.id),
        );
    }
    if let Some(routes) = routes
        && (target_id == node.id || !runs_before(graph, routes, target_id, &node.id))
    {
        let message = if target_id == node.id {
            format!(
                "{here} references itself; a node's output exists only once it has run. Reference a step that runs \
                 before it."
            )
        } else if routes.is_upstream(target_id, &node.id) {
            format!(
                "{here} references node \"{target_id}\", but every route from \"{target_id}\" to \"{}\" leaves it on \
                 its \"error\" edge: when \"{}\" runs, \"{target_id}\" has failed and has no output. Read a step \
                 that succeeded, or stage a literal value.",
                node.id, node.id
            )
        } else {
            format!(
                "{here} references node \"{target_id}\", but no route leads from \"{target_id}\" to \"{}\", so \
                 \"{target_id}\" has not run when \"{}\" runs and the reference finds nothing. Reference a step that \
                 comes before \"{}\", or add the edges that make \"{target_id}\" run first.",
                node.id, node.id, node.id
            )
        };
        issues.push(PlanIssue::blocking("reference_not_upstream", message).on_node(&node.id));
    }
    if matches!(reference.select, Select::First | Select::Last) {
        let after_join = lazy.after_join.get_or_insert_with(|| after_joins(view, graph));
        if let Some(join) = after_join.get(target_id) {
            let at = if *join == target_id {
                format!("the join \"{join}\"")
            } else {
                format!("\"{target_id}\", which runs after the join \"{join}\"")
            };
            issues.push(
                PlanIssue::blocking(
                    "first_last_across_join",
                    format!(
                        "{here} reads the \"{}\" item of {at}; across a join, items are not paired by route, so \
                         \"first\" and \"last\" would pick an arrival by position. Write \"select\": \"all\" to read \
                         every item, or {{\"index\": n}} for one.",
                        select_name(reference.select)
                    ),
                )
                .on_node(&node.id),
            );
        }
    }
    let Some(routes) = routes else { return };
    match &reference.branch_id {
        None => {
            let executions = routes.executions(target_id);
            if executions > 1 {
                let times = if executions > ROUTE_CAP {
                    format!("more than {ROUTE_CAP}")
                } else {
                    executions.to_string()
                };
                let samples = lazy.samples.of(routes, target_id);
                issues.push(
                    PlanIssue::blocking(
                        "ambiguous_reference",
                        format!(
                            "{here} reads node \"{target_id}\" without a branchId, but \"{target_id}\" runs {times} \
                             times in a run (once per route that reaches it), so the reference does not say which \
                             run to read. Add \"branchId\" naming one, such as {samples}; or merge the routes with a \
                             join before \"{target_id}\".",
                        ),
                    )
                    .on_node(&node.id),
                );
            }
        }
        Some(branch) => {
            if let Err(mismatch) = routes.check_branch(target_id, branch) {
                let samples = lazy.samples.of(routes, target_id);
                let instead = if samples.is_empty() {
                    format!("\"{target_id}\" never runs: the entry does not reach it.")
                } else {
                    format!("\"{target_id}\" runs under {samples}; write one of those.")
                };
                issues.push(
                    PlanIssue::blocking(
                        "unknown_branch_id",
                        format!(
                            "{here} reads node \"{target_id}\" under the branchId {}, which names no run of \
                             \"{target_id}\": at segment {}, {}. {instead}",
                            branch_json(branch),
                            mismatch.segment,
                            mismatch.reason
                        ),
                    )
                    .on_node(&node.id),
                );
            }
        }
    }
}
