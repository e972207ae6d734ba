//! The checks on each node: its definition and staged values, taint, calls, predicates, and the
//! plan's bounds.

use std::collections::{BTreeMap, HashSet};

use writ_cells::{Decision, PredicateNode, Registry};
use writ_core::{Str, Value, block_on};

use crate::definition::Definition;
use crate::digest::encoded_len;
use crate::freeze::topology::select_cases;
use crate::freeze::{nearest, quoted};
use crate::graph::Graph;
use crate::model::{Node, NodeKind, PlanIssue, PlanView, is_raw_field_path};
use crate::taint::{Taint, within};
use crate::value::{MAX_WIRE_DEPTH, StagedValue};

/// What a tool writes in a field it scaffolded and the author never filled in.
const SCAFFOLD_PLACEHOLDER: &str = "lorem ipsum";

/// The earliest instant a date's wire form holds: 0000-01-01T00:00:00.000Z.
const MIN_WIRE_DATE: i64 = -62_167_219_200_000;
/// The latest instant a date's wire form holds: 9999-12-31T23:59:59.999Z.
const MAX_WIRE_DATE: i64 = 253_402_300_799_999;

/// One value met by the walk over a definition field, with how to find it again.
struct Visit<'a> {
    value: &'a StagedValue,
    /// How deep it sits, as the wire reader counts (a map entry's key and value count two).
    depth: usize,
    /// The visit that holds it, and the step from there; the field itself has none.
    parent: Option<(usize, Step<'a>)>,
}

#[derive(Clone, Copy)]
enum Step<'a> {
    Key(&'a str),
    Index(usize),
    MapKey(usize),
    MapValue(usize),
}

/// Every value inside a definition field, parents before children, without recursion.
fn walk<'a>(value: &'a StagedValue) -> Vec<Visit<'a>> {
    let mut visits = vec![Visit {
        value,
        depth: 0,
        parent: None,
    }];
    let mut next = 0;
    while next < visits.len() {
        let (value, depth) = (visits[next].value, visits[next].depth);
        // A value too deep for the wire is reported once; there is no need to descend further.
        if depth <= MAX_WIRE_DEPTH {
            let mut push = |child: &'a StagedValue, step: Step<'a>, extra: usize| {
                visits.push(Visit {
                    value: child,
                    depth: depth + extra,
                    parent: Some((next, step)),
                });
            };
            match value {
                StagedValue::Array(items) | StagedValue::Set(items) => {
                    for (index, item) in items.iter().enumerate() {
                        push(item, Step::Index(index), 1);
                    }
                }
                StagedValue::Object(fields) => {
                    for (key, item) in fields {
                        push(item, Step::Key(key), 1);
                    }
                }
                StagedValue::Map(entries) => {
                    for (index, (key, item)) in entries.iter().enumerate() {
                        push(key, Step::MapKey(index), 2);
                        push(item, Step::MapValue(index), 2);
                    }
                }
                _ => {}
            }
        }
        next += 1;
    }
    visits
}

/// Where a visit sits, as a dot path from the definition (`args.dirs.0`, `args.m.[2].key`).
fn location(field: &str, visits: &[Visit<'_>], at: usize) -> String {
    let mut steps = Vec::new();
    let mut current = at;
    while let Some((parent, step)) = visits[current].parent {
        steps.push(match step {
            Step::Key(key) => key.to_owned(),
            Step::Index(index) => index.to_string(),
            Step::MapKey(index) => format!("[{index}].key"),
            Step::MapValue(index) => format!("[{index}].value"),
        });
        current = parent;
    }
    steps.push(field.to_owned());
    steps.reverse();
    steps.join(".")
}

/// Why a value cannot be written in the plan's wire form and read back as itself, if it
/// cannot. Values read from the wire always can; a view built or edited in code need not.
fn unencodable(value: &StagedValue, raw: bool, depth: usize) -> Option<String> {
    if depth > MAX_WIRE_DEPTH {
        return Some(format!(
            "it nests more than {MAX_WIRE_DEPTH} levels deep, which the wire form refuses; flatten it"
        ));
    }
    if raw && is_typed(value) {
        return Some(format!(
            "it is {}, but this field holds plain JSON only; write the value as JSON (a date as an RFC 3339 \
             string, a big integer as a string of digits)",
            value.kind_name()
        ));
    }
    match value {
        StagedValue::Number(n) if !n.is_finite() => Some(format!(
            "{n} is not a finite number; plans hold finite numbers only (write null or a string)"
        )),
        StagedValue::BigInt(digits) if !canonical_bigint(digits) => Some(format!(
            "\"{digits}\" is not a big integer in canonical form: decimal digits, an optional leading \"-\", no \
             leading zeros, no \"-0\""
        )),
        StagedValue::Regex { flags, .. } if !canonical_flags(flags) => Some(format!(
            "the flags \"{flags}\" are not in canonical form: each of d, g, i, m, s, u, v, y at most once, sorted, \
             u and v not together"
        )),
        StagedValue::Date(millis) if !(MIN_WIRE_DATE..=MAX_WIRE_DATE).contains(millis) => Some(format!(
            "the date ({millis} ms after 1970) lies outside the years 0000 to 9999 that the wire form writes"
        )),
        StagedValue::Map(entries) => first_repeat(entries.iter().map(|(key, _)| key))
            .map(|index| format!("map key {index} repeats an earlier key; a map's keys are distinct")),
        StagedValue::Set(members) => first_repeat(members.iter())
            .map(|index| format!("set member {index} repeats an earlier member; a set's members are distinct")),
        _ => None,
    }
}

/// Whether the value itself (not its contents) is a typed value plain JSON cannot hold.
fn is_typed(value: &StagedValue) -> bool {
    !matches!(
        value,
        StagedValue::Null
            | StagedValue::Bool(_)
            | StagedValue::Number(_)
            | StagedValue::String(_)
            | StagedValue::Array(_)
            | StagedValue::Object(_)
    )
}

/// The position of the first item equal to an earlier one. Items are compared by their wire
/// text, hashed, so a large map or set is checked in linear time.
fn first_repeat<'a>(items: impl Iterator<Item = &'a StagedValue>) -> Option<usize> {
    let mut seen = HashSet::new();
    for (index, item) in items.enumerate() {
        // A value the walk will report as unencodable has no reliable wire text; it is reported
        // on its own account, so it is skipped here.
        if walk(item)
            .iter()
            .any(|visit| unencodable(visit.value, false, visit.depth).is_some())
        {
            continue;
        }
        if !seen.insert(item.to_wire().to_string()) {
            return Some(index);
        }
    }
    None
}

fn canonical_bigint(digits: &str) -> bool {
    let magnitude = digits.strip_prefix('-').unwrap_or(digits);
    !magnitude.is_empty()
        && magnitude.bytes().all(|b| b.is_ascii_digit())
        && (magnitude == "0" || !magnitude.starts_with('0'))
        && digits != "-0"
}

fn canonical_flags(flags: &str) -> bool {
    let bytes = flags.as_bytes();
    bytes.iter().all(|b| b"dgimsuvy".contains(b))
        && bytes.windows(2).all(|pair| pair[0] < pair[1])
        && !(flags.contains('u') && flags.contains('v'))
}

/// `invalid_definition`, `unencodable_value`, `unresolved_param`, `scaffold_placeholder`, for
/// every node in view order.
pub(super) fn values(view: &PlanView, issues: &mut Vec<PlanIssue>) {
    for node in &view.nodes {
        let mut too_deep = false;
        let mut typed_raw_fields = Vec::new();
        let mut found = Vec::new();
        for (field, value) in &node.definition {
            let raw = is_raw_field_path(field);
            let visits = walk(value);
            for (at, visit) in visits.iter().enumerate() {
                if let Some(reason) = unencodable(visit.value, raw, visit.depth) {
                    too_deep |= visit.depth > MAX_WIRE_DEPTH;
                    if raw && is_typed(visit.value) {
                        typed_raw_fields.push(field.as_str());
                    }
                    found.push(
                        PlanIssue::blocking(
                            "unencodable_value",
                            format!(
                                "Node \"{}\" holds a value at \"{}\" that the plan cannot carry: {reason}.",
                                node.id,
                                location(field, &visits, at)
                            ),
                        )
                        .on_node(&node.id),
                    );
                    continue;
                }
                match visit.value {
                    StagedValue::ParamRef(param) => found.push(
                        PlanIssue::blocking(
                            "unresolved_param",
                            format!(
                                "Node \"{}\" holds the template parameter reference {{\"$param\": {{\"path\": \"{}\"}}}} \
                                 at \"{}\"; a plan is not a template, and nothing fills a parameter in at run time. \
                                 Write the value itself, or a {{\"$ref\": …}} to the entry's input.",
                                node.id,
                                param.path,
                                location(field, &visits, at)
                            ),
                        )
                        .on_node(&node.id),
                    ),
                    StagedValue::String(text) if text == SCAFFOLD_PLACEHOLDER => found.push(
                        PlanIssue::blocking(
                            "scaffold_placeholder",
                            format!(
                                "Node \"{}\" still holds the scaffold placeholder \"{SCAFFOLD_PLACEHOLDER}\" at \"{}\"; \
                                 replace it with the value meant.",
                                node.id,
                                location(field, &visits, at)
                            ),
                        )
                        .on_node(&node.id),
                    ),
                    _ => {}
                }
            }
        }
        // Reading a definition descends recursively into its raw fields; a value too deep for
        // the wire is reported above and the reading is skipped rather than risked.
        if !too_deep && let Err(problems) = Definition::read(node) {
            for problem in problems {
                if typed_raw_fields.contains(&problem.field.as_str()) {
                    continue;
                }
                issues.push(definition_issue(node, &problem.field, &problem.message));
            }
        }
        issues.extend(found);
    }
}

fn definition_issue(node: &Node, field: &str, message: &str) -> PlanIssue {
    let message = if node.kind == NodeKind::Reason && field == "declassifies" {
        format!(
            "Reason node \"{}\" declares \"declassifies\", but a reason node cannot declassify: a model's answer is \
             generation, not sanitising. Remove the field; to clear taint, pass the value through a call whose tool \
             sanitises it and that declares the field in its own \"declassifies\".",
            node.id
        )
    } else {
        format!("Node \"{}\" ({}), field \"{field}\": {message}.", node.id, node.kind)
    };
    PlanIssue::blocking("invalid_definition", message).on_node(&node.id)
}

/// `tainted_call_arg` and `undeclared_declassify`.
pub(super) fn taint(view: &PlanView, graph: &Graph<'_>, issues: &mut Vec<PlanIssue>) {
    let taint = Taint::compute(view);
    for arg in taint.tainted_args() {
        let reference = arg.reference;
        let read = match &reference.path {
            Some(path) => format!("\"{path}\" of node \"{}\"", reference.node),
            None => format!("the whole output of node \"{}\"", reference.node),
        };
        let through = match arg.chain.first() {
            Some(first) if graph.node(first).is_some_and(|node| node.kind == NodeKind::Entry) => {
                if arg.chain.len() > 1 {
                    format!(" (tainted through {})", arg.chain.join(" → "))
                } else {
                    String::new()
                }
            }
            _ => format!(" (tainted through … → {})", arg.chain.join(" → ")),
        };
        let instead = match graph.node(&reference.node).map(|source| &source.definition) {
            Some(definition)
                if let Some(StagedValue::Array(fields)) = definition.get("declassifies")
                    && !fields.is_empty() =>
            {
                let fields: Vec<&str> = fields
                    .iter()
                    .filter_map(|field| match field {
                        StagedValue::String(field) => Some(field.as_str()),
                        _ => None,
                    })
                    .collect();
                format!(
                    "\"{}\" declassifies only {}: read one of those fields (with its path), or stage a literal value",
                    reference.node,
                    quoted(&fields)
                )
            }
            _ => "Stage a literal value instead, or pass the input through a call whose tool sanitises it and that \
                  declares the sanitised output field in \"declassifies\", and read that field"
                .to_string(),
        };
        issues.push(
            PlanIssue::blocking(
                "tainted_call_arg",
                format!(
                    "Call node \"{}\" passes {read} into its argument \"{}\", and that data comes from the run's \
                     input{through}. Input may reach a reason prompt, but never a call's arguments: the plan approved \
                     would not be the plan that runs. {instead}.",
                    arg.call, arg.arg
                ),
            )
            .on_node(arg.call),
        );
    }
    for node in view.nodes.iter().filter(|node| node.kind == NodeKind::Call) {
        let Some(StagedValue::Array(items)) = node.definition.get("declassifies") else {
            continue;
        };
        let outputs: Vec<&str> = match node.definition.get("output") {
            Some(StagedValue::Array(fields)) => fields
                .iter()
                .filter_map(|field| match field {
                    StagedValue::Object(field) => match field.get("path") {
                        Some(StagedValue::String(path)) => Some(path.as_str()),
                        _ => None,
                    },
                    _ => None,
                })
                .collect(),
            _ => Vec::new(),
        };
        for item in items {
            let StagedValue::String(field) = item else { continue };
            if field.is_empty() || outputs.iter().any(|out| within(field, out) || within(out, field)) {
                continue;
            }
            issues.push(
                PlanIssue::blocking(
                    "undeclared_declassify",
                    format!(
                        "Call node \"{}\" declassifies \"{field}\", which is not one of its declared output fields ({}). \
                         A declassification binds to a field a reference can name: declare \"{field}\" in \"output\", \
                         or remove it from \"declassifies\".",
                        node.id,
                        if outputs.is_empty() { "it declares none".to_string() } else { quoted(&outputs) }
                    ),
                )
                .on_node(&node.id),
            );
        }
    }
}

/// `unknown_tool`, `missing_replay_safe`, `missing_on_indeterminate`, `retry_unsafe_repeat`.
pub(super) fn calls(view: &PlanView, tools: Option<&[String]>, issues: &mut Vec<PlanIssue>) {
    let catalogue: Option<HashSet<&str>> = tools.map(|tools| tools.iter().map(String::as_str).collect());
    for node in view.nodes.iter().filter(|node| node.kind == NodeKind::Call) {
        let definition = &node.definition;
        if let (Some(catalogue), Some(tools), Some(StagedValue::String(tool))) =
            (&catalogue, tools, definition.get("tool"))
            && !tool.is_empty()
            && !catalogue.contains(tool.as_str())
        {
            let offer = if tools.is_empty() {
                "the catalogue lists no tools".to_string()
            } else {
                format!(
                    "use one of the {} tools available (nearest: {})",
                    catalogue.len(),
                    quoted(nearest(tool, tools.iter().map(String::as_str), 3))
                )
            };
            issues.push(
                PlanIssue::blocking(
                    "unknown_tool",
                    format!(
                        "Call node \"{}\" names the tool \"{tool}\", which is not in the tool catalogue; {offer}.",
                        node.id
                    ),
                )
                .on_node(&node.id),
            );
        }
        if !definition.contains_key("replaySafe") {
            issues.push(
                PlanIssue::blocking(
                    "missing_replay_safe",
                    format!(
                        "Call node \"{}\" does not say whether calling its tool twice does no more than calling it once. \
                         Set \"replaySafe\": true if a repeat is harmless (a read, an idempotent write), false otherwise.",
                        node.id
                    ),
                )
                .on_node(&node.id),
            );
        }
        if !definition.contains_key("onIndeterminate") {
            issues.push(
                PlanIssue::blocking(
                    "missing_on_indeterminate",
                    format!(
                        "Call node \"{}\" does not say what a resumed run does when the call started and never \
                         finished (whether the tool acted is unknown). Set \"onIndeterminate\" to \"retry\" (only if \
                         replay-safe), \"halt\" (wait for a person) or \"skip\".",
                        node.id
                    ),
                )
                .on_node(&node.id),
            );
        }
        if definition.get("onIndeterminate") == Some(&StagedValue::String("retry".into()))
            && definition.get("replaySafe") == Some(&StagedValue::Bool(false))
        {
            issues.push(
                PlanIssue::blocking(
                    "retry_unsafe_repeat",
                    format!(
                        "Call node \"{}\" is declared not replay-safe yet set to retry when interrupted: a retry \
                         would repeat a call that must not be repeated. Set \"onIndeterminate\" to \"halt\" or \
                         \"skip\", or set \"replaySafe\": true if a repeat is in fact harmless.",
                        node.id
                    ),
                )
                .on_node(&node.id),
            );
        }
    }
}

/// `unwired_evaluator`, `evaluator_error`: each branch and select is validated by the cell it
/// names, as the cell will evaluate it.
pub(super) fn predicates(view: &PlanView, registry: &Registry, issues: &mut Vec<PlanIssue>) {
    for node in &view.nodes {
        let decision = match node.kind {
            NodeKind::Branch => Decision::Branch,
            NodeKind::Select => Decision::Select {
                cases: select_cases(&node.definition).into_iter().map(Str::from).collect(),
            },
            _ => continue,
        };
        let Some(StagedValue::String(evaluator)) = node.definition.get("evaluator") else {
            continue;
        };
        if evaluator.is_empty() {
            continue;
        }
        if registry.get(evaluator).is_none() {
            let wired: Vec<&str> = registry.ids().collect();
            let offer = if wired.is_empty() {
                "no predicate cell is wired, so no branch or select can be decided".to_string()
            } else {
                format!(
                    "the wired cells are {}; name one of them (nearest: {}) and write the predicate in its language",
                    quoted(&wired),
                    quoted(nearest(evaluator, wired.iter().copied(), 1))
                )
            };
            issues.push(
                PlanIssue::blocking(
                    "unwired_evaluator",
                    format!(
                        "{} node \"{}\" names the predicate cell \"{evaluator}\", which is not wired; {offer}.",
                        capitalised(node.kind.name()),
                        node.id
                    ),
                )
                .on_node(&node.id),
            );
            continue;
        }
        let Some(predicate) = plain_predicate(&node.definition) else {
            continue;
        };
        let cell_node = PredicateNode {
            id: Str::from(node.id.as_str()),
            evaluator: Str::from(evaluator.as_str()),
            decision,
            predicate,
        };
        if let Err(error) = block_on(registry.validate(&cell_node)) {
            issues.push(
                PlanIssue::blocking(
                    "evaluator_error",
                    format!(
                        "The predicate cell \"{evaluator}\" refuses the predicate of {} node \"{}\": {}",
                        node.kind, node.id, error.message
                    ),
                )
                .on_node(&node.id),
            );
        }
    }
}

/// A node's predicate as a cell reads it, when it is plain JSON no deeper than the wire allows
/// (anything else is a definition or value issue already).
fn plain_predicate(definition: &BTreeMap<String, StagedValue>) -> Option<Value> {
    let predicate = definition.get("predicate")?;
    if walk(predicate).iter().any(|visit| visit.depth > MAX_WIRE_DEPTH) {
        return None;
    }
    predicate.to_plain_json().map(|json| Value::from(&json))
}

fn capitalised(word: &str) -> String {
    let mut chars = word.chars();
    chars
        .next()
        .map(|first| first.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

/// `max_nodes_exceeded`, `max_edges_exceeded`, `max_encoded_bytes_exceeded`.
pub(super) fn bounds(view: &PlanView, issues: &mut Vec<PlanIssue>) {
    let nodes = view.nodes.len() as u64;
    if nodes > view.bounds.max_nodes {
        issues.push(PlanIssue::blocking(
            "max_nodes_exceeded",
            format!(
                "The plan has {nodes} nodes, more than its bound maxNodes = {}. Remove {} node(s), or raise maxNodes \
                 with set_bounds (the operator approves the bounds with the plan).",
                view.bounds.max_nodes,
                nodes - view.bounds.max_nodes
            ),
        ));
    }
    let edges = view.edges.len() as u64;
    if edges > view.bounds.max_edges {
        issues.push(PlanIssue::blocking(
            "max_edges_exceeded",
            format!(
                "The plan has {edges} edges, more than its bound maxEdges = {}. Remove {} edge(s), or raise maxEdges \
                 with set_bounds (the operator approves the bounds with the plan).",
                view.bounds.max_edges,
                edges - view.bounds.max_edges
            ),
        ));
    }
    let encoded = encoded_len(view);
    if encoded > view.bounds.max_encoded_bytes {
        issues.push(PlanIssue::blocking(
            "max_encoded_bytes_exceeded",
            format!(
                "The plan's canonical encoding is {encoded} bytes, more than its bound maxEncodedBytes = {}. Stage less \
                 (large data belongs in the run's input or a tool's output, not in the plan), or raise \
                 maxEncodedBytes with set_bounds (the operator approves the bounds with the plan).",
                view.bounds.max_encoded_bytes
            ),
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reason(value: &StagedValue, raw: bool) -> Option<String> {
        let visits = walk(value);
        visits
            .iter()
            .find_map(|visit| unencodable(visit.value, raw, visit.depth))
    }

    #[test]
    fn values_the_wire_cannot_carry_are_named() {
        let cases = [
            (StagedValue::Number(f64::NAN), false, "finite"),
            (StagedValue::BigInt("007".into()), false, "canonical"),
            (StagedValue::BigInt("-0".into()), false, "canonical"),
            (
                StagedValue::Regex {
                    pattern: "a".into(),
                    flags: "ig".into(),
                },
                false,
                "flags",
            ),
            (StagedValue::Date(MAX_WIRE_DATE + 1), false, "9999"),
            (
                StagedValue::Map(vec![
                    (StagedValue::String("k".into()), StagedValue::Null),
                    (StagedValue::String("k".into()), StagedValue::Bool(true)),
                ]),
                false,
                "map key 1",
            ),
            (
                StagedValue::Set(vec![StagedValue::Number(1.0), StagedValue::Number(1.0)]),
                false,
                "set member 1",
            ),
            (StagedValue::Array(vec![StagedValue::Date(0)]), true, "plain JSON"),
        ];
        for (value, raw, expected) in cases {
            let found = reason(&value, raw).unwrap_or_else(|| panic!("{value:?} passed"));
            assert!(found.contains(expected), "{value:?}: {found}");
        }
        let mut deep = StagedValue::Null;
        for _ in 0..10_000 {
            deep = StagedValue::Array(vec![deep]);
        }
        assert!(reason(&deep, false).unwrap().contains("nests"));
        // Dropping a value this deep recurses; it is taken apart by hand instead.
        while let StagedValue::Array(mut items) = deep {
            deep = items.pop().unwrap_or(StagedValue::Null);
        }
    }

    #[test]
    fn what_the_wire_can_carry_passes_and_reads_back() {
        let values = [
            StagedValue::Date(MIN_WIRE_DATE),
            StagedValue::Date(MAX_WIRE_DATE),
            StagedValue::BigInt("-120".into()),
            StagedValue::BigInt("0".into()),
            StagedValue::Regex {
                pattern: "^x$".into(),
                flags: "gimsuy".into(),
            },
            StagedValue::Map(vec![
                (StagedValue::Number(1.0), StagedValue::Null),
                (StagedValue::String("1".into()), StagedValue::Null),
            ]),
            StagedValue::Set(vec![StagedValue::Set(vec![]), StagedValue::Array(vec![])]),
        ];
        for value in values {
            assert_eq!(reason(&value, false), None, "{value:?}");
            assert_eq!(StagedValue::from_wire(&value.to_wire()).as_ref(), Ok(&value));
        }
    }

    #[test]
    fn locations_name_the_path_inside_the_field() {
        let value =
            StagedValue::from_wire(&serde_json::json!({"dirs": ["a", {"$map": [["k", "lorem ipsum"]]}]})).unwrap();
        let visits = walk(&value);
        let at = visits
            .iter()
            .position(|visit| visit.value == &StagedValue::String("lorem ipsum".into()))
            .unwrap();
        assert_eq!(location("args", &visits, at), "args.dirs.1.[0].value");
    }
}
