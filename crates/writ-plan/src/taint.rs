//! Taint: which outputs carry data that came from a run's input, and where it may go.
//!
//! A run's input is untrusted: it arrives with the request, after the plan was approved. If it
//! could steer a tool's arguments, approving a plan would not say what runs. So, computed over
//! the plan at freeze (a static property, nothing is tracked at run time):
//!
//! - Every entry node's output is tainted, in all its fields.
//! - A node whose data references (a call's `args`, a reason's `prompt`) read a tainted output
//!   is tainted in turn, in all its fields — an echo call that hands its input back unchanged
//!   launders nothing.
//! - A call may name output fields in `declassifies`: the author asserts that the tool sanitises
//!   them, and the operator approves that assertion with the plan. A reference to a declassified
//!   field (or to a path inside one) reads clean data; every other field of that call stays
//!   tainted — a sibling, an undeclared field, the whole item read without a path.
//! - A reason node cannot declassify: a model's answer is generation, not sanitising. Branch,
//!   select and join nodes produce no data a reference could carry taint through (a join's
//!   output is the provenance of its arrivals, a graph constant).
//!
//! A tainted reference may reach a reason prompt (a prompt is text a model reads), but never a
//! call's `args` (an argument is a value a tool acts on) — with one exception, decided on
//! purpose: a call that declares `declassifies` is the sanitiser itself, the one place where
//! tainted input is meant to enter a tool, and its own arguments may read taint. That is what
//! its declaration asserts and what the operator approves ([`Taint::sanitisers`] names them for
//! the rendering). Such a call must declare the fields it declassifies among its outputs
//! (checked at freeze), so the assertion binds to fields a reference can name.
//!
//! Taint only grows as the computation proceeds (a node goes from clean to tainted, never back,
//! and which of its fields are declassified is fixed by its own declaration), so it is a walk
//! from the entries over "reads taint" links: linear in the number of references.

use std::collections::{HashMap, VecDeque};

use crate::model::{Node, NodeKind, PlanView};
use crate::value::{NodeRef, StagedValue};

/// The taint of a plan's nodes, computed at freeze.
#[derive(Debug)]
pub struct Taint<'v> {
    /// For each tainted node: the node whose output tainted it first (`None` for an entry),
    /// which gives the chain a message shows.
    tainted: HashMap<&'v str, Option<&'v str>>,
    /// Each call's declassified output fields, when it declares any.
    declassified: HashMap<&'v str, Vec<&'v str>>,
    /// The calls with their nodes, in view order, for the checks.
    calls: Vec<&'v Node>,
}

/// A call argument that reads taint.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TaintedArg<'v> {
    /// The call whose `args` hold the reference.
    pub call: &'v str,
    /// The argument's name (the key in `args`).
    pub arg: &'v str,
    /// The reference that reads tainted data.
    pub reference: &'v NodeRef,
    /// How the taint reached the referenced node: the entry first, the referenced node last.
    pub chain: Vec<&'v str>,
}

/// How many nodes of a taint chain [`TaintedArg::chain`] keeps: enough to show where the taint
/// came from, and a message stays short however long the chain.
pub const CHAIN_SHOWN: usize = 8;

/// A call that declares `declassifies` and whose own arguments read taint: the declared
/// sanitiser where untrusted input enters a tool.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sanitiser<'v> {
    /// The call.
    pub call: &'v str,
    /// The output fields it declares clean.
    pub declassifies: Vec<&'v str>,
    /// The nodes whose tainted output its arguments read, in the order its arguments name them.
    pub reads_from: Vec<&'v str>,
}

/// The data references of a node: what it reads to produce its output.
fn data_refs(node: &Node) -> Vec<(&str, &NodeRef)> {
    let field = match node.kind {
        NodeKind::Call => "args",
        NodeKind::Reason => "prompt",
        _ => return Vec::new(),
    };
    let Some(value) = node.definition.get(field) else {
        return Vec::new();
    };
    match (node.kind, value) {
        (NodeKind::Call, StagedValue::Object(args)) => args
            .iter()
            .flat_map(|(name, value)| value.node_refs().into_iter().map(move |r| (name.as_str(), r)))
            .collect(),
        _ => value.node_refs().into_iter().map(|r| (field, r)).collect(),
    }
}

/// The fields a call declares in `declassifies` (read leniently: a malformed declaration is
/// reported by the definition checks, and declassifies nothing).
fn declassifies(node: &Node) -> Vec<&str> {
    if node.kind != NodeKind::Call {
        return Vec::new();
    }
    match node.definition.get("declassifies") {
        Some(StagedValue::Array(items)) => items
            .iter()
            .filter_map(|item| match item {
                StagedValue::String(field) if !field.is_empty() => Some(field.as_str()),
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// Whether `path` is `field` or a path inside it.
pub(crate) fn within(path: &str, field: &str) -> bool {
    path == field || path.strip_prefix(field).is_some_and(|rest| rest.starts_with('.'))
}

impl<'v> Taint<'v> {
    /// Computes the taint of every node of `view`.
    pub fn compute(view: &'v PlanView) -> Taint<'v> {
        let mut declassified = HashMap::new();
        let mut calls = Vec::new();
        // Who reads whom: for each referenced node id, the readers and their references.
        let mut readers: HashMap<&str, Vec<(&str, &NodeRef)>> = HashMap::new();
        let mut seen_ids = std::collections::HashSet::new();
        for node in &view.nodes {
            // A duplicated id names the first node with it, as everywhere else.
            if !seen_ids.insert(node.id.as_str()) {
                continue;
            }
            if node.kind == NodeKind::Call {
                calls.push(node);
                let fields = declassifies(node);
                if !fields.is_empty() {
                    declassified.insert(node.id.as_str(), fields);
                }
            }
            for (_, reference) in data_refs(node) {
                readers
                    .entry(reference.node.as_str())
                    .or_default()
                    .push((node.id.as_str(), reference));
            }
        }
        let mut taint = Taint {
            tainted: HashMap::new(),
            declassified,
            calls,
        };
        let mut queue = VecDeque::new();
        for node in &view.nodes {
            if node.kind == NodeKind::Entry && !taint.tainted.contains_key(node.id.as_str()) {
                taint.tainted.insert(node.id.as_str(), None);
                queue.push_back(node.id.as_str());
            }
        }
        while let Some(source) = queue.pop_front() {
            for &(reader, reference) in readers.get(source).map_or(&[][..], Vec::as_slice) {
                if !taint.tainted.contains_key(reader) && taint.reads_taint(reference) {
                    taint.tainted.insert(reader, Some(source));
                    queue.push_back(reader);
                }
            }
        }
        taint
    }

    /// Whether `node`'s output carries taint (in some field).
    pub fn is_tainted(&self, node: &str) -> bool {
        self.tainted.contains_key(node)
    }

    /// Whether `reference` reads tainted data: its node is tainted and it does not read a field
    /// that node declassifies (or a path inside one).
    pub fn reads_taint(&self, reference: &NodeRef) -> bool {
        if !self.is_tainted(&reference.node) {
            return false;
        }
        match (&reference.path, self.declassified.get(reference.node.as_str())) {
            (Some(path), Some(fields)) => !fields.iter().any(|field| within(path, field)),
            _ => true,
        }
    }

    /// How taint reached `node`: the entry first, `node` last; empty when it is clean.
    pub fn chain(&self, node: &str) -> Vec<&'v str> {
        self.chain_up_to(node, self.tainted.len())
    }

    /// The last `limit` nodes of `node`'s chain.
    fn chain_up_to(&self, node: &str, limit: usize) -> Vec<&'v str> {
        let mut chain = Vec::new();
        let Some((&first, &from)) = self.tainted.get_key_value(node) else {
            return chain;
        };
        chain.push(first);
        let mut next = from;
        // Each link was set when its node was first tainted, from a node tainted earlier, so
        // the chain ends at an entry; the limit also guards the walk.
        while let Some(source) = next
            && chain.len() < limit.max(1)
        {
            chain.push(source);
            next = self.tainted.get(source).copied().flatten();
        }
        chain.reverse();
        chain
    }

    /// Every call argument that reads taint, in view order, except in calls that declare
    /// `declassifies` (the declared sanitisers, see [`Taint::sanitisers`]).
    pub fn tainted_args(&self) -> Vec<TaintedArg<'v>> {
        let mut found = Vec::new();
        for call in &self.calls {
            if self.declassified.contains_key(call.id.as_str()) {
                continue;
            }
            for (arg, reference) in data_refs(call) {
                if self.reads_taint(reference) {
                    found.push(TaintedArg {
                        call: &call.id,
                        arg,
                        reference,
                        chain: self.chain_up_to(&reference.node, CHAIN_SHOWN),
                    });
                }
            }
        }
        found
    }

    /// The calls that declare `declassifies` and whose arguments read taint, in view order:
    /// where untrusted input enters a tool, on the author's assertion that the tool sanitises
    /// what it declassifies. A rendering for the operator names them.
    pub fn sanitisers(&self) -> Vec<Sanitiser<'v>> {
        let mut found = Vec::new();
        for call in &self.calls {
            let Some(fields) = self.declassified.get(call.id.as_str()) else {
                continue;
            };
            let mut reads_from: Vec<&'v str> = Vec::new();
            for (_, reference) in data_refs(call) {
                if self.reads_taint(reference) && !reads_from.contains(&reference.node.as_str()) {
                    reads_from.push(&reference.node);
                }
            }
            if !reads_from.is_empty() {
                found.push(Sanitiser {
                    call: &call.id,
                    declassifies: fields.clone(),
                    reads_from,
                });
            }
        }
        found
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Edge, Node};
    use serde_json::{Value as Json, json};

    fn view(nodes: Json) -> PlanView {
        let mut view = PlanView::empty("plan-t");
        view.nodes = nodes
            .as_array()
            .unwrap()
            .iter()
            .map(|node| Node::from_wire(node).unwrap())
            .collect();
        view.edges = Vec::<Edge>::new();
        view
    }

    fn call(id: &str, args: Json, extra: Json) -> Json {
        let mut definition = json!({"tool": "t", "args": args, "onMissingValue": "fail",
            "replaySafe": true, "onIndeterminate": "halt"});
        for (key, value) in extra.as_object().unwrap() {
            definition[key] = value.clone();
        }
        json!({"id": id, "kind": "call", "definition": definition})
    }

    fn r(node: &str, path: Option<&str>) -> Json {
        match path {
            Some(path) => json!({"$ref": {"node": node, "select": "first", "path": path}}),
            None => json!({"$ref": {"node": node, "select": "first"}}),
        }
    }

    fn entry() -> Json {
        json!({"id": "entry", "kind": "entry", "definition": {"input": [{"path": "topic", "type": "string"}]}})
    }

    #[test]
    fn declassification_is_per_field_and_echoes_do_not_launder() {
        let view = view(json!([
            entry(),
            call(
                "san",
                json!({"x": r("entry", Some("topic"))}),
                json!({"output": [{"path": "safe", "type": "string"}, {"path": "unsafe", "type": "string"}],
                       "declassifies": ["safe"]})
            ),
            call(
                "echo",
                json!({"x": r("entry", Some("topic"))}),
                json!({"output": [{"path": "v", "type": "string"}]})
            ),
            call(
                "ok",
                json!({"a": r("san", Some("safe")), "b": r("san", Some("safe.inner"))}),
                json!({})
            ),
            call(
                "bad",
                json!({"a": r("san", Some("unsafe")), "b": r("san", None), "c": r("echo", Some("v"))}),
                json!({})
            ),
        ]));
        let taint = Taint::compute(&view);
        let args: Vec<(&str, &str)> = taint.tainted_args().iter().map(|t| (t.call, t.arg)).collect();
        assert_eq!(args, [("echo", "x"), ("bad", "a"), ("bad", "b"), ("bad", "c")]);
        assert!(!taint.is_tainted("ok"));
        assert_eq!(taint.chain("bad"), ["entry", "san", "bad"]);
        let sanitisers = taint.sanitisers();
        assert_eq!(sanitisers.len(), 1);
        assert_eq!(
            (sanitisers[0].call, sanitisers[0].reads_from.as_slice()),
            ("san", &["entry"][..])
        );
    }

    #[test]
    fn a_reason_prompt_may_read_taint_but_carries_it_on() {
        let view = view(json!([
            entry(),
            {"id": "think", "kind": "reason", "definition": {"prompt": [{"text": "Summarise"}, r("entry", Some("topic"))],
                "outputSchema": {"type": "object"}, "declassifies": ["summary"]}},
            call("sink", json!({"s": r("think", Some("summary"))}), json!({})),
        ]));
        let taint = Taint::compute(&view);
        assert!(taint.is_tainted("think"));
        let args: Vec<&str> = taint.tainted_args().iter().map(|t| t.call).collect();
        assert_eq!(args, ["sink"]);
    }

    #[test]
    fn a_long_chain_is_walked_once() {
        let mut nodes = vec![entry()];
        let mut previous = "entry".to_string();
        for i in 0..2_000 {
            let id = format!("c{i}");
            nodes.push(call(&id, json!({"x": r(&previous, None)}), json!({})));
            previous = id;
        }
        // Reverse the order so that a pass-by-pass fixpoint would need one pass per node.
        nodes[1..].reverse();
        let view = view(Json::Array(nodes));
        let taint = Taint::compute(&view);
        let args = taint.tainted_args();
        assert_eq!(args.len(), 2_000);
        assert_eq!(taint.chain("c1999").len(), 2_001);
        assert_eq!(
            args[0].chain,
            ["c1991", "c1992", "c1993", "c1994", "c1995", "c1996", "c1997", "c1998"]
        );
    }
}
