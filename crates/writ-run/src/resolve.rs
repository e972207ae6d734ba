//! Reading values at run time: references into the output table, a call's arguments, a
//! reason's prompt, and the checks of declared fields on a run's input and a call's result.

use std::collections::BTreeMap;

use serde_json::{Map as JsonMap, Value as Json};
use writ_plan::{DeclaredField, FieldType, NodeRef, OnMissingValue, PromptPart, Select, StagedValue};

use crate::table::Table;

/// Path segments that are never read, whatever the data holds.
const FORBIDDEN: [&str; 3] = ["__proto__", "prototype", "constructor"];

/// Reads a dot-separated `path` in `base`: an empty path is `base` itself; a segment that is
/// empty or forbidden, a missing member, or a step into a scalar finds nothing. Array elements
/// are read by their decimal index.
pub(crate) fn read_path<'v>(base: &'v Json, path: &str) -> Option<&'v Json> {
    if path.is_empty() {
        return Some(base);
    }
    let mut at = base;
    for segment in path.split('.') {
        if segment.is_empty() || FORBIDDEN.contains(&segment) {
            return None;
        }
        at = match at {
            Json::Object(object) => object.get(segment)?,
            Json::Array(items) if segment.bytes().all(|b| b.is_ascii_digit()) => {
                items.get(segment.parse::<usize>().ok()?)?
            }
            _ => return None,
        };
    }
    Some(at)
}

/// The value `reference` reads in `table`, or `None` when nothing is there.
pub(crate) fn resolve_ref(reference: &NodeRef, table: &Table) -> Option<Json> {
    let output = match &reference.branch_id {
        Some(branch) => table.get(&writ_store::run::frame_key(&reference.node, branch))?,
        None => table.first_of(&reference.node)?,
    };
    let items = &output.items;
    let selected = match reference.select {
        Select::First => items.first()?.clone(),
        Select::Last => items.last()?.clone(),
        Select::All => Json::Array(items.clone()),
        Select::Index(index) => items.get(usize::try_from(index).ok()?)?.clone(),
    };
    match &reference.path {
        Some(path) => read_path(&selected, path).cloned(),
        None => Some(selected),
    }
}

/// A reference that found no value, for the failure's message.
#[derive(Debug)]
pub(crate) struct Missing {
    /// Where in the arguments, as a dot path.
    pub(crate) at: String,
    /// The node the reference reads.
    pub(crate) node: String,
}

/// A call's arguments with every reference resolved against `table`. Typed values a tool
/// cannot receive as plain JSON keep their tagged wire form (`{"$date": …}`).
///
/// With `onMissingValue: fail`, the first reference that finds nothing is returned as the
/// error; with `omit`, an object member whose reference finds nothing is left out, and an array
/// element is `null`.
pub(crate) fn resolve_args(
    args: &BTreeMap<String, StagedValue>,
    table: &Table,
    on_missing: OnMissingValue,
) -> Result<JsonMap<String, Json>, Missing> {
    let mut resolved = JsonMap::new();
    for (name, value) in args {
        if let Some(value) = resolve_value(value, table, on_missing, name)? {
            resolved.insert(name.clone(), value);
        }
    }
    Ok(resolved)
}

fn resolve_value(
    value: &StagedValue,
    table: &Table,
    on_missing: OnMissingValue,
    at: &str,
) -> Result<Option<Json>, Missing> {
    Ok(Some(match value {
        StagedValue::NodeRef(reference) => match resolve_ref(reference, table) {
            Some(found) => found,
            None if on_missing == OnMissingValue::Omit => return Ok(None),
            None => {
                return Err(Missing {
                    at: at.to_owned(),
                    node: reference.node.clone(),
                });
            }
        },
        StagedValue::Array(items) => {
            let mut resolved = Vec::with_capacity(items.len());
            for (index, item) in items.iter().enumerate() {
                let item = resolve_value(item, table, on_missing, &format!("{at}.{index}"))?;
                resolved.push(item.unwrap_or(Json::Null));
            }
            Json::Array(resolved)
        }
        StagedValue::Object(fields) => {
            let mut resolved = JsonMap::new();
            for (key, field) in fields {
                if let Some(field) = resolve_value(field, table, on_missing, &format!("{at}.{key}"))? {
                    resolved.insert(key.clone(), field);
                }
            }
            Json::Object(resolved)
        }
        other => other.to_plain_json().unwrap_or_else(|| other.to_wire()),
    }))
}

/// A reason node's prompt: text as written, each reference's value as text (a string as is,
/// anything else as JSON), and `[unresolved: <node>]` where a reference finds nothing.
pub(crate) fn render_prompt(parts: &[PromptPart], table: &Table) -> String {
    let mut prompt = String::new();
    for part in parts {
        match part {
            PromptPart::Text(text) => prompt.push_str(text),
            PromptPart::Ref(reference) => match resolve_ref(reference, table) {
                Some(Json::String(text)) => prompt.push_str(&text),
                Some(value) => prompt.push_str(&value.to_string()),
                None => {
                    prompt.push_str("[unresolved: ");
                    prompt.push_str(&reference.node);
                    prompt.push(']');
                }
            },
        }
    }
    prompt
}

/// What is wrong with `value` against the declared `fields`: one line per field, naming it.
pub(crate) fn check_fields(value: &Json, fields: &[DeclaredField]) -> Vec<String> {
    let mut problems = Vec::new();
    for field in fields {
        let Some(found) = read_path(value, &field.path) else {
            problems.push(format!("\"{}\" is missing", field.path));
            continue;
        };
        let fits = match (&field.field_type, found) {
            (FieldType::String { max_bytes }, Json::String(text)) => {
                if let Some(max) = max_bytes.filter(|&max| text.len() as u64 > max) {
                    problems.push(format!(
                        "\"{}\" is {} bytes long, over its maxBytes of {max}",
                        field.path,
                        text.len()
                    ));
                }
                true
            }
            (FieldType::Number, Json::Number(_)) | (FieldType::Boolean, Json::Bool(_)) => true,
            (FieldType::Enum(allowed), Json::String(text)) => {
                if !allowed.contains(text) {
                    problems.push(format!(
                        "\"{}\" is \"{text}\", which is not one of {}",
                        field.path,
                        allowed
                            .iter()
                            .map(|a| format!("\"{a}\""))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ));
                }
                true
            }
            _ => false,
        };
        if !fits {
            problems.push(format!(
                "\"{}\" should be {}, found {}",
                field.path,
                type_name(&field.field_type),
                json_kind(found)
            ));
        }
    }
    problems
}

fn type_name(field_type: &FieldType) -> &'static str {
    match field_type {
        FieldType::String { .. } => "a string",
        FieldType::Number => "a number",
        FieldType::Boolean => "a boolean",
        FieldType::Enum(_) => "one of its enum's strings",
    }
}

/// How a JSON value is described in messages.
pub(crate) fn json_kind(value: &Json) -> &'static str {
    match value {
        Json::Null => "null",
        Json::Bool(_) => "a boolean",
        Json::Number(_) => "a number",
        Json::String(_) => "a string",
        Json::Array(_) => "an array",
        Json::Object(_) => "an object",
    }
}

/// A tool's result as a call node's output items: an object is one item, an array one item
/// per element (a non-object element as `{"value": …}`), and any other value one item holding
/// it under the first declared field's path (or `value`).
pub(crate) fn result_items(result: Json, declared: &[DeclaredField]) -> Vec<Json> {
    let wrap = |value: Json| {
        let field = declared
            .first()
            .filter(|field| !field.path.contains('.'))
            .map_or("value", |field| field.path.as_str());
        let mut object = JsonMap::new();
        object.insert(field.to_owned(), value);
        Json::Object(object)
    };
    match result {
        Json::Object(_) => vec![result],
        Json::Array(items) => items
            .into_iter()
            .map(|item| match item {
                Json::Object(_) => item,
                other => {
                    let mut object = JsonMap::new();
                    object.insert("value".into(), other);
                    Json::Object(object)
                }
            })
            .collect(),
        other => vec![wrap(other)],
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use serde_json::json;
    use writ_plan::BranchId;

    use super::*;
    use crate::table::Output;

    fn table() -> Table {
        Table::default().with(
            "fetch:e2:e0".into(),
            Arc::new(Output {
                node_id: "fetch".into(),
                items: vec![json!({"count": 3, "rows": [{"id": "a"}]}), json!({"count": 4})],
            }),
        )
    }

    fn reference(select: Select, path: Option<&str>) -> NodeRef {
        NodeRef {
            node: "fetch".into(),
            select,
            path: path.map(str::to_owned),
            branch_id: None,
        }
    }

    #[test]
    fn references_select_items_and_read_paths() {
        let table = table();
        assert_eq!(
            resolve_ref(&reference(Select::First, Some("count")), &table),
            Some(json!(3))
        );
        assert_eq!(
            resolve_ref(&reference(Select::Last, Some("count")), &table),
            Some(json!(4))
        );
        assert_eq!(
            resolve_ref(&reference(Select::Index(0), Some("rows.0.id")), &table),
            Some(json!("a"))
        );
        assert_eq!(
            resolve_ref(&reference(Select::All, None), &table)
                .unwrap()
                .as_array()
                .unwrap()
                .len(),
            2
        );
        assert_eq!(resolve_ref(&reference(Select::Index(2), None), &table), None);
        assert_eq!(
            resolve_ref(&reference(Select::First, Some("rows.constructor")), &table),
            None
        );
        assert_eq!(resolve_ref(&reference(Select::First, Some("count.x")), &table), None);
    }

    #[test]
    fn a_branch_id_reads_exactly_that_execution() {
        let mut wanted = reference(Select::First, Some("count"));
        wanted.branch_id = Some(BranchId {
            segments: vec![writ_plan::RouteSegment::Edge("e0".into())],
        });
        assert_eq!(resolve_ref(&wanted, &table()), Some(json!(3)));
        wanted.branch_id = Some(BranchId::default());
        assert_eq!(resolve_ref(&wanted, &table()), None);
    }

    #[test]
    fn missing_values_fail_or_are_omitted() {
        let mut args = BTreeMap::new();
        args.insert(
            "n".to_owned(),
            StagedValue::NodeRef(reference(Select::First, Some("count"))),
        );
        args.insert(
            "gone".to_owned(),
            StagedValue::NodeRef(reference(Select::First, Some("nope"))),
        );
        let missing = resolve_args(&args, &table(), OnMissingValue::Fail).unwrap_err();
        assert_eq!((missing.at.as_str(), missing.node.as_str()), ("gone", "fetch"));
        let omitted = resolve_args(&args, &table(), OnMissingValue::Omit).unwrap();
        assert_eq!(Json::Object(omitted), json!({"n": 3}));
    }

    #[test]
    fn declared_fields_are_checked_by_type_enum_and_size() {
        let fields = vec![
            DeclaredField {
                path: "topic".into(),
                field_type: FieldType::String { max_bytes: Some(3) },
            },
            DeclaredField {
                path: "mode".into(),
                field_type: FieldType::Enum(vec!["fast".into()]),
            },
            DeclaredField {
                path: "n".into(),
                field_type: FieldType::Number,
            },
        ];
        assert!(check_fields(&json!({"topic": "abc", "mode": "fast", "n": 1}), &fields).is_empty());
        let problems = check_fields(&json!({"topic": "abcd", "mode": "slow"}), &fields);
        assert_eq!(problems.len(), 3, "{problems:?}");
        assert!(problems[0].contains("maxBytes of 3"));
        assert!(problems[1].contains("not one of \"fast\""));
        assert!(problems[2].contains("\"n\" is missing"));
    }

    #[test]
    fn results_become_items() {
        let declared = vec![DeclaredField {
            path: "text".into(),
            field_type: FieldType::String { max_bytes: None },
        }];
        assert_eq!(result_items(json!("hi"), &declared), vec![json!({"text": "hi"})]);
        assert_eq!(
            result_items(json!([{"a": 1}, 2]), &declared),
            vec![json!({"a": 1}), json!({"value": 2})]
        );
        assert_eq!(result_items(json!({"a": 1}), &[]), vec![json!({"a": 1})]);
    }
}
