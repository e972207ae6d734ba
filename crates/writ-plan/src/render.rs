//! The plan as an operator reads it before approving: prose, and a Mermaid flowchart.
//!
//! Both are pure, deterministic functions of the view and its digest: the same plan always
//! renders to the same text, so what an operator read can be reproduced later and compared.
//! Both state the digest, which is what an approval binds to.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt::Write as _;

use crate::definition::{
    AuthorityClaim, CallDefinition, DeclaredField, Definition, FieldType, OnIndeterminate, PromptPart,
};
use crate::graph::Graph;
use crate::model::{Edge, Handle, Node, NodeKind, PlanView, Provenance};
use crate::value::{NodeRef, RouteSegment, Select, StagedValue};

/// The order in which steps are numbered: a depth-first walk from the entry, outgoing edges
/// sorted by handle and then by target, followed by nodes no route reaches.
struct Numbering<'v> {
    /// Reachable nodes in walk order, with their depth (for indentation).
    walk: Vec<(&'v Node, usize)>,
    /// Nodes no route from the entry reaches, in view order.
    unreachable: Vec<&'v Node>,
    /// Each node's step number, from 1.
    step: HashMap<&'v str, usize>,
}

fn sorted_outgoing<'v>(graph: &Graph<'v>, node: &str) -> Vec<&'v Edge> {
    let mut edges = graph.outgoing(node).to_vec();
    edges.sort_by(|a, b| (&a.handle, &a.to, &a.id).cmp(&(&b.handle, &b.to, &b.id)));
    edges
}

fn number<'v>(view: &'v PlanView, graph: &Graph<'v>) -> Numbering<'v> {
    let nodes: HashMap<&str, &Node> = view.nodes.iter().map(|node| (node.id.as_str(), node)).collect();
    let mut walk = Vec::new();
    let mut seen = HashSet::new();
    let mut stack: Vec<(&str, usize)> = graph.entries().into_iter().rev().map(|entry| (entry, 0)).collect();
    while let Some((id, depth)) = stack.pop() {
        if !seen.insert(id) {
            continue;
        }
        let Some(node) = nodes.get(id) else { continue };
        walk.push((*node, depth));
        for edge in sorted_outgoing(graph, id).into_iter().rev() {
            if !seen.contains(edge.to.as_str()) {
                stack.push((edge.to.as_str(), depth + 1));
            }
        }
    }
    let unreachable: Vec<&Node> = view
        .nodes
        .iter()
        .filter(|node| !seen.contains(node.id.as_str()))
        .collect();
    let step = walk
        .iter()
        .map(|(node, _)| *node)
        .chain(unreachable.iter().copied())
        .enumerate()
        .map(|(i, node)| (node.id.as_str(), i + 1))
        .collect();
    Numbering {
        walk,
        unreachable,
        step,
    }
}

/// Renders the plan as prose for the operator who approves it.
///
/// Every step is listed with its kind and id; each call with its tool, its staged arguments
/// (references say which step's output they read), the authority it claims, whether it
/// modifies data and what happens if it is interrupted, and which outputs it declares safe
/// (where taint is cleared). Then the bounds, the total authority requested, and the digest.
pub fn render_prose(view: &PlanView, digest: &str) -> String {
    let graph = Graph::new(view);
    let numbering = number(view, &graph);
    let mut out = String::new();
    let _ = writeln!(out, "Plan {}", view.plan_id);
    let _ = writeln!(out, "digest: {digest}");
    let _ = writeln!(out, "revision: {}", view.revision);
    if let Some(Provenance::Clone {
        parent,
        parent_digest,
        parent_revision,
        completed_at_clone,
    }) = &view.provenance
    {
        let _ = writeln!(
            out,
            "Lineage: cloned from plan {parent} (digest {parent_digest}, revision {parent_revision})"
        );
        if !completed_at_clone.is_empty() {
            let _ = writeln!(
                out,
                "WARNING: the parent's run had already completed {} step(s) when this plan was cloned; \
                 approving this plan performs them AGAIN: {}",
                completed_at_clone.len(),
                completed_at_clone.join(", ")
            );
        }
    }
    out.push('\n');
    if view.nodes.is_empty() {
        out.push_str("The plan has no steps.\n");
    }
    let names = StepNames {
        view,
        numbering: &numbering,
    };
    for (node, depth) in &numbering.walk {
        render_node(&mut out, node, *depth, &graph, &names);
    }
    if !numbering.unreachable.is_empty() {
        out.push_str("\nUnreachable steps (no route from the entry reaches them; they never run):\n");
        for node in &numbering.unreachable {
            render_node(&mut out, node, 0, &graph, &names);
        }
    }
    out.push_str("\nBounds: ");
    let bounds: Vec<String> = view
        .bounds
        .members()
        .iter()
        .map(|(name, value)| format!("{name} {value}"))
        .collect();
    out.push_str(&bounds.join(", "));
    out.push('\n');
    render_authority_total(&mut out, view);
    let _ = writeln!(out, "\nApproving this plan approves digest {digest}.");
    out
}

struct StepNames<'a, 'v> {
    view: &'v PlanView,
    numbering: &'a Numbering<'v>,
}

impl StepNames<'_, '_> {
    fn step(&self, id: &str) -> String {
        match self.numbering.step.get(id) {
            Some(step) => format!("step {step} (`{id}`)"),
            None => format!("`{id}` (no such step)"),
        }
    }

    fn describe_ref(&self, reference: &NodeRef) -> String {
        let which = match reference.select {
            Select::First => "the first output".to_owned(),
            Select::Last => "the last output".to_owned(),
            Select::All => "every output".to_owned(),
            Select::Index(index) => format!("output item {index}"),
        };
        let mut text = format!("← {which} of {}", self.step(&reference.node));
        if let Some(node) = self.view.node(&reference.node) {
            match node.kind {
                NodeKind::Entry => text.push_str(" [run input: UNTRUSTED]"),
                NodeKind::Call => {
                    if let Some(StagedValue::String(tool)) = node.definition.get("tool") {
                        let _ = write!(text, " [{tool}]");
                    }
                }
                _ => {}
            }
        }
        if let Some(path) = &reference.path {
            let _ = write!(text, " @ {path}");
        }
        if let Some(branch) = &reference.branch_id {
            let route: Vec<String> = branch
                .segments
                .iter()
                .map(|segment| match segment {
                    RouteSegment::Edge(id) => format!("→{id}"),
                    RouteSegment::Join(joined) => format!("→join {} of [{}]", joined.join, joined.of.join(", ")),
                })
                .collect();
            let _ = write!(text, " (on the route {})", route.concat());
        }
        text
    }
}

fn indent(depth: usize) -> String {
    "   ".repeat(depth.min(16))
}

fn render_node(out: &mut String, node: &Node, depth: usize, graph: &Graph<'_>, names: &StepNames<'_, '_>) {
    let pad = indent(depth);
    let step = names.numbering.step.get(node.id.as_str()).copied().unwrap_or_default();
    let kind = node.kind.name().to_uppercase();
    let phase = node
        .phase
        .as_deref()
        .filter(|phase| !phase.is_empty())
        .map(|phase| format!(" [phase: {phase}]"))
        .unwrap_or_default();
    let definition = Definition::read(node);
    match &definition {
        Ok(Definition::Call(call)) => {
            let _ = writeln!(out, "{pad}{step}. CALL — `{}` — tool {}{phase}", node.id, call.tool);
            render_call(out, &pad, call, names);
        }
        Ok(Definition::Entry(entry)) => {
            let _ = writeln!(out, "{pad}{step}. ENTRY — `{}`{phase}", node.id);
            if entry.input.is_empty() {
                let _ = writeln!(out, "{pad}   input: (none)");
            } else {
                let _ = writeln!(out, "{pad}   input (UNTRUSTED: it comes with each run request):");
                for field in &entry.input {
                    let _ = writeln!(out, "{pad}     {}", describe_field(field));
                }
            }
        }
        Ok(Definition::Reason(reason)) => {
            let _ = writeln!(out, "{pad}{step}. REASON — `{}` — a model answers{phase}", node.id);
            let _ = writeln!(out, "{pad}   prompt:");
            for part in &reason.prompt {
                match part {
                    PromptPart::Text(text) => {
                        let _ = writeln!(out, "{pad}     {}", json_quote(text));
                    }
                    PromptPart::Ref(reference) => {
                        let _ = writeln!(out, "{pad}     {}", names.describe_ref(reference));
                    }
                }
            }
            let schema = serde_json::to_string(&reason.output_schema).unwrap_or_default();
            let _ = writeln!(out, "{pad}   answer schema: {schema}");
            let _ = writeln!(out, "{pad}   max attempts: {}", reason.max_attempts);
            let _ = writeln!(out, "{pad}   (a model's answer never clears taint)");
        }
        Ok(Definition::Branch(branch)) => {
            let _ = writeln!(
                out,
                "{pad}{step}. BRANCH — `{}` — evaluator {}{phase}",
                node.id, branch.evaluator
            );
            let _ = writeln!(
                out,
                "{pad}   predicate: {}",
                serde_json::to_string(&branch.predicate).unwrap_or_default()
            );
        }
        Ok(Definition::Select(select)) => {
            let _ = writeln!(
                out,
                "{pad}{step}. SELECT — `{}` — evaluator {}{phase}",
                node.id, select.evaluator
            );
            let _ = writeln!(
                out,
                "{pad}   predicate: {}",
                serde_json::to_string(&select.predicate).unwrap_or_default()
            );
            let _ = writeln!(out, "{pad}   cases: {}", select.cases.join(", "));
        }
        Ok(Definition::Join) => {
            let incoming = graph.incoming(&node.id);
            let _ = writeln!(
                out,
                "{pad}{step}. JOIN — `{}` — waits for {} incoming edge(s){phase}",
                node.id,
                incoming.len()
            );
            for edge in incoming {
                let _ = writeln!(
                    out,
                    "{pad}   {} from `{}` ({})",
                    edge.id,
                    edge.from,
                    handle_label(&edge.handle)
                );
            }
        }
        Err(problems) => {
            let _ = writeln!(out, "{pad}{step}. {kind} — `{}`{phase}", node.id);
            let _ = writeln!(out, "{pad}   THE DEFINITION DOES NOT READ (freeze refuses it):");
            for problem in problems {
                let _ = writeln!(out, "{pad}     {problem}");
            }
        }
    }
    let outgoing = sorted_outgoing(graph, &node.id);
    if outgoing.is_empty() {
        let _ = writeln!(out, "{pad}   (terminal: nothing follows)");
    } else {
        for edge in outgoing {
            let target = names.step(&edge.to);
            if edge.handle == Handle::Error {
                let _ = writeln!(out, "{pad}   → ON ERROR → {target} (edge {})", edge.id);
            } else {
                let _ = writeln!(
                    out,
                    "{pad}   → on {} → {target} (edge {})",
                    handle_label(&edge.handle),
                    edge.id
                );
            }
        }
    }
}

fn render_call(out: &mut String, pad: &str, call: &CallDefinition, names: &StepNames<'_, '_>) {
    if call.args.is_empty() {
        let _ = writeln!(out, "{pad}   arguments: (none)");
    } else {
        let _ = writeln!(out, "{pad}   arguments:");
        for (name, value) in &call.args {
            let rendered = match value {
                StagedValue::NodeRef(reference) => names.describe_ref(reference),
                other => describe_value(other),
            };
            let _ = writeln!(out, "{pad}     {name}: {rendered}");
        }
    }
    if call.authority.is_empty() {
        let _ = writeln!(out, "{pad}   authority: (none claimed)");
        let _ = writeln!(
            out,
            "{pad}   NO AUTHORITY CLAIMED: whether this changes anything is UNKNOWN. Treat it as modifying data."
        );
    } else {
        let _ = writeln!(out, "{pad}   authority:");
        for claim in &call.authority {
            let _ = writeln!(out, "{pad}     {}", describe_claim(claim));
        }
    }
    let modifies = call.authority.is_empty() || call.authority.iter().any(|claim| claim.verb.modifies());
    if modifies {
        if !call.authority.is_empty() {
            let repeat = match call.replay_safe {
                Some(true) => "repeating it is safe (declared replay-safe)",
                Some(false) => "repeating it is NOT safe (declared not replay-safe)",
                None => "whether repeating it is safe is NOT DECLARED",
            };
            let _ = writeln!(out, "{pad}   THIS MODIFIES DATA; {repeat}.");
        }
        let interrupted = match call.on_indeterminate {
            Some(OnIndeterminate::Retry) => "it is called again",
            Some(OnIndeterminate::Halt) => "the run stops and waits for you",
            Some(OnIndeterminate::Skip) => "it is SKIPPED, and later steps run not knowing whether it acted",
            None => "NOTHING IS DECLARED (freeze refuses this)",
        };
        let _ = writeln!(
            out,
            "{pad}   If the run is interrupted during this call, {interrupted}."
        );
    } else {
        let _ = writeln!(out, "{pad}   (changes nothing: every claimed verb is read-only)");
    }
    if !call.output.is_empty() {
        let fields: Vec<String> = call.output.iter().map(describe_field).collect();
        let _ = writeln!(out, "{pad}   output: {}", fields.join("; "));
    }
    if !call.declassifies.is_empty() {
        let _ = writeln!(
            out,
            "{pad}   TAINT CLEARED HERE: this call vouches that its output field(s) {} are safe to pass to other tools, \
             whatever the run's input was",
            call.declassifies.join(", ")
        );
    }
}

fn handle_label(handle: &Handle) -> String {
    match handle {
        Handle::NoMatch => "no match".into(),
        Handle::Case(label) => format!("case {label}"),
        other => other.name(),
    }
}

fn describe_field(field: &DeclaredField) -> String {
    match &field.field_type {
        FieldType::String { max_bytes: Some(max) } => format!("{}: string (≤ {max} bytes)", field.path),
        FieldType::String { max_bytes: None } => format!("{}: string", field.path),
        FieldType::Number => format!("{}: number", field.path),
        FieldType::Boolean => format!("{}: boolean", field.path),
        FieldType::Enum(values) => format!("{}: one of {{{}}}", field.path, values.join(", ")),
    }
}

fn describe_claim(claim: &AuthorityClaim) -> String {
    format!("{} · {} · {}", claim.capability, claim.scope, claim.verb.name())
}

fn json_quote(text: &str) -> String {
    serde_json::to_string(text).unwrap_or_default()
}

/// A staged literal as the operator reads it: JSON where JSON says it, the type named where
/// JSON cannot.
fn describe_value(value: &StagedValue) -> String {
    match value {
        StagedValue::Null => "null".into(),
        StagedValue::Bool(b) => b.to_string(),
        StagedValue::Number(_) => value.to_wire().to_string(),
        StagedValue::String(s) => json_quote(s),
        StagedValue::Array(items) => format!("[{}]", items.iter().map(describe_value).collect::<Vec<_>>().join(", ")),
        StagedValue::Object(fields) => format!(
            "{{{}}}",
            fields
                .iter()
                .map(|(k, v)| format!("{}: {}", json_quote(k), describe_value(v)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        StagedValue::NodeRef(reference) => format!("$ref {}", reference.to_wire()),
        StagedValue::ParamRef(param) => format!("$param {}", json_quote(&param.path)),
        StagedValue::Date(_) => format!("Date({})", value.to_wire()["$date"].as_str().unwrap_or_default()),
        StagedValue::Regex { pattern, flags } => format!("RegExp(/{pattern}/{flags})"),
        StagedValue::Map(entries) => format!(
            "Map{{{}}}",
            entries
                .iter()
                .map(|(k, v)| format!("{} → {}", describe_value(k), describe_value(v)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        StagedValue::Set(members) => format!(
            "Set{{{}}}",
            members.iter().map(describe_value).collect::<Vec<_>>().join(", ")
        ),
        StagedValue::BigInt(digits) => format!("{digits}n"),
        StagedValue::Bytes(bytes) => format!(
            "Bytes({} bytes: {})",
            bytes.len(),
            value.to_wire()["$bytes"].as_str().unwrap_or_default()
        ),
    }
}

fn render_authority_total(out: &mut String, view: &PlanView) {
    // Every call, reachable or not: the operator sees everything the plan could ask for.
    let mut by_capability: BTreeMap<&str, Vec<&AuthorityClaim>> = BTreeMap::new();
    let calls: Vec<CallDefinition> = view
        .nodes
        .iter()
        .filter_map(|node| match Definition::read(node) {
            Ok(Definition::Call(call)) => Some(call),
            _ => None,
        })
        .collect();
    for call in &calls {
        for claim in &call.authority {
            let claims = by_capability.entry(claim.capability.as_str()).or_default();
            if !claims.iter().any(|c| c.scope == claim.scope && c.verb == claim.verb) {
                claims.push(claim);
            }
        }
    }
    out.push_str("\nTotal authority requested:\n");
    if by_capability.is_empty() {
        out.push_str("   (no call claims any authority)\n");
        return;
    }
    for (capability, mut claims) in by_capability {
        claims.sort_by(|a, b| (&a.scope, a.verb).cmp(&(&b.scope, b.verb)));
        let listed: Vec<String> = claims
            .iter()
            .map(|claim| format!("{} · {}", claim.scope, claim.verb.name()))
            .collect();
        let _ = writeln!(out, "   {capability}: {}", listed.join("; "));
    }
}

/// Renders the plan as a Mermaid flowchart: one box per node (shaped by kind, labelled with
/// its kind, id and, for a call, its tool), one arrow per edge labelled with its handle, error
/// edges dashed. The digest is stated in a comment line and in the title.
pub fn render_mermaid(view: &PlanView, digest: &str) -> String {
    let graph = Graph::new(view);
    let numbering = number(view, &graph);
    let ordered: Vec<&Node> = numbering
        .walk
        .iter()
        .map(|(node, _)| *node)
        .chain(numbering.unreachable.iter().copied())
        .collect();
    let ids: HashMap<&str, String> = ordered
        .iter()
        .enumerate()
        .map(|(i, node)| (node.id.as_str(), format!("n{i}")))
        .collect();
    let mut out = String::new();
    let _ = writeln!(
        out,
        "---\ntitle: \"plan {} · digest {digest}\"\n---",
        mermaid_escape(&view.plan_id)
    );
    let _ = writeln!(
        out,
        "%% plan {} digest {digest}",
        view.plan_id.replace(['\n', '\r'], " ")
    );
    out.push_str("flowchart TD\n");
    for node in &ordered {
        let mut label = format!("{} {}", node.kind.name().to_uppercase(), node.id);
        if node.kind == NodeKind::Call
            && let Some(StagedValue::String(tool)) = node.definition.get("tool")
        {
            let _ = write!(label, "<br/>tool: {tool}");
        }
        if let Ok(Definition::Call(call)) = Definition::read(node) {
            if call.authority.is_empty() || call.authority.iter().any(|claim| claim.verb.modifies()) {
                label.push_str("<br/>MODIFIES DATA");
            }
            if !call.declassifies.is_empty() {
                let _ = write!(label, "<br/>clears taint: {}", call.declassifies.join(", "));
            }
        }
        let label = mermaid_escape(&label);
        let id = &ids[node.id.as_str()];
        let _ = match node.kind {
            NodeKind::Entry => writeln!(out, "  {id}[/\"{label}\"/]"),
            NodeKind::Call => writeln!(out, "  {id}[\"{label}\"]"),
            NodeKind::Reason => writeln!(out, "  {id}([\"{label}\"])"),
            NodeKind::Branch | NodeKind::Select => writeln!(out, "  {id}{{\"{label}\"}}"),
            NodeKind::Join => writeln!(out, "  {id}((\"{label}\"))"),
        };
    }
    for edge in &view.edges {
        let (Some(from), Some(to)) = (ids.get(edge.from.as_str()), ids.get(edge.to.as_str())) else {
            continue;
        };
        let label = mermaid_escape(&format!("{} ({})", handle_label(&edge.handle), edge.id));
        let arrow = if edge.handle == Handle::Error { "-.->" } else { "-->" };
        let _ = writeln!(out, "  {from} {arrow}|\"{label}\"| {to}");
    }
    out
}

/// Escapes text for a quoted Mermaid label: quotes and angle brackets other than the `<br/>`
/// line breaks the renderer inserts become entity codes.
fn mermaid_escape(text: &str) -> String {
    let mut escaped = String::with_capacity(text.len());
    for (i, part) in text.split("<br/>").enumerate() {
        if i > 0 {
            escaped.push_str("<br/>");
        }
        for c in part.chars() {
            match c {
                '"' => escaped.push_str("#quot;"),
                '<' => escaped.push_str("#lt;"),
                '>' => escaped.push_str("#gt;"),
                '#' => escaped.push_str("#35;"),
                '\n' | '\r' => escaped.push(' '),
                c => escaped.push(c),
            }
        }
    }
    escaped
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Bounds, Edge};

    fn example(name: &str) -> PlanView {
        let path = format!("{}/../../examples/plans/{name}", env!("CARGO_MANIFEST_DIR"));
        let json: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        PlanView {
            plan_id: json["planId"].as_str().unwrap().into(),
            revision: 1,
            nodes: json["nodes"]
                .as_array()
                .unwrap()
                .iter()
                .map(|n| Node::from_wire(n).unwrap())
                .collect(),
            edges: json["edges"]
                .as_array()
                .unwrap()
                .iter()
                .map(|e| Edge::from_wire(e).unwrap())
                .collect(),
            bounds: json
                .get("bounds")
                .map_or(Bounds::default(), |b| Bounds::from_wire(b).unwrap()),
            provenance: None,
        }
    }

    #[test]
    fn prose_names_what_an_operator_approves() {
        let prose = render_prose(&example("declassify.json"), "d1g35t");
        for expected in [
            "digest: d1g35t",
            "1. ENTRY — `entry`",
            "folder: string (≤ 200 bytes)",
            "2. CALL — `resolve_folder` — tool resolve_path",
            "path: ← the first output of step 1 (`entry`) [run input: UNTRUSTED] @ folder",
            "root: \"/reports\"",
            "fs · /reports · read",
            "TAINT CLEARED HERE: this call vouches that its output field(s) path are safe",
            "3. CALL — `list_files` — tool list_files",
            "dir: ← the first output of step 2 (`resolve_folder`) [resolve_path] @ path",
            "(changes nothing: every claimed verb is read-only)",
            "maxSteps 16",
            "fs: /reports · list; /reports · read",
            "Approving this plan approves digest d1g35t.",
        ] {
            assert!(prose.contains(expected), "missing {expected:?} in\n{prose}");
        }
        assert_eq!(
            prose,
            render_prose(&example("declassify.json"), "d1g35t"),
            "rendering is deterministic"
        );
    }

    #[test]
    fn prose_warns_of_data_changes_and_interruptions() {
        let prose = render_prose(&example("select.json"), "d");
        assert!(
            prose.contains("THIS MODIFIES DATA; repeating it is NOT safe (declared not replay-safe)."),
            "{prose}"
        );
        assert!(
            prose.contains("If the run is interrupted during this call, the run stops and waits for you."),
            "{prose}"
        );
        assert!(prose.contains("→ on case page → step"), "{prose}");
        assert!(prose.contains("→ on default → step"), "{prose}");
    }

    #[test]
    fn mermaid_draws_every_node_and_edge() {
        let view = example("join.json");
        let chart = render_mermaid(&view, "d1g35t");
        assert!(chart.contains("digest d1g35t"));
        assert!(chart.starts_with("---\ntitle: \"plan plan-join · digest d1g35t\"\n---\n"));
        assert_eq!(
            chart.matches(" -->|").count() + chart.matches(" -.->|").count(),
            view.edges.len()
        );
        assert!(chart.contains("((\"JOIN both\"))"), "{chart}");
        assert!(chart.contains("tool: append_line<br/>MODIFIES DATA"), "{chart}");
        let escaped = mermaid_escape("a \"quoted\" <b> #1");
        assert_eq!(escaped, "a #quot;quoted#quot; #lt;b#gt; #35;1");
    }
}
