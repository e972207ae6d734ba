//! The typed reading of a node's definition.
//!
//! The view keeps a definition as authored (a record of staged values), because ops may set any
//! field of it. [`Definition::read`] reads that record as the node's kind requires and reports
//! every field that does not fit, so freeze can name them all at once.

use std::collections::BTreeMap;
use std::fmt;

use serde_json::Value as Json;

use crate::model::{Node, NodeKind};
use crate::value::{NodeRef, StagedValue};

/// A node's definition, read by its kind.
#[derive(Clone, Debug, PartialEq)]
pub enum Definition {
    /// `entry`: the run's input fields.
    Entry(EntryDefinition),
    /// `call`: a tool call.
    Call(CallDefinition),
    /// `reason`: a model call.
    Reason(ReasonDefinition),
    /// `branch`: a two-way predicate.
    Branch(BranchDefinition),
    /// `select`: a many-way predicate.
    Select(SelectDefinition),
    /// `join`: nothing to configure; its fork is derived from the graph.
    Join,
}

/// An entry node's definition.
#[derive(Clone, Debug, PartialEq)]
pub struct EntryDefinition {
    /// The fields a run's input must have.
    pub input: Vec<DeclaredField>,
}

/// A field a node declares it reads or produces.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct DeclaredField {
    /// A dot-separated path.
    pub path: String,
    /// What the field holds.
    pub field_type: FieldType,
}

/// The type of a declared field.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum FieldType {
    /// A string, at most `max_bytes` bytes of UTF-8 when given.
    String {
        /// The longest the string may be, in bytes.
        max_bytes: Option<u64>,
    },
    /// A number.
    Number,
    /// A boolean.
    Boolean,
    /// One of these strings.
    Enum(Vec<String>),
}

/// What a call does when a reference in its arguments finds no value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OnMissingValue {
    /// The call fails.
    Fail,
    /// The argument is left out.
    Omit,
}

/// What resuming a run does with this call when it was entered and never settled (the process
/// died mid-call, so whether the tool acted is unknown).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OnIndeterminate {
    /// Call it again (only allowed when the call is replay-safe).
    Retry,
    /// Stop the run and wait for a person.
    Halt,
    /// Carry on as if it had failed, without calling it again.
    Skip,
}

/// What a call may touch: a capability, a scope within it, and a verb.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct AuthorityClaim {
    /// The kind of resource (`fs`, `inbox`, …).
    pub capability: String,
    /// Which of them (`/reports`, `ops`, …).
    pub scope: String,
    /// What is done to them.
    pub verb: Verb,
}

/// The closed set of verbs an authority claim uses; none implies another. Ordered from least
/// to most consequential.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Verb {
    /// Enumerate.
    List,
    /// Read contents.
    Read,
    /// Make something new.
    Create,
    /// Change something that exists.
    Update,
    /// Remove something.
    Delete,
}

impl Verb {
    /// Every verb, least consequential first.
    pub const ALL: [Verb; 5] = [Verb::List, Verb::Read, Verb::Create, Verb::Update, Verb::Delete];

    /// The verb's wire name.
    pub fn name(self) -> &'static str {
        match self {
            Verb::List => "list",
            Verb::Read => "read",
            Verb::Create => "create",
            Verb::Update => "update",
            Verb::Delete => "delete",
        }
    }

    /// Whether the verb changes data.
    pub fn modifies(self) -> bool {
        matches!(self, Verb::Create | Verb::Update | Verb::Delete)
    }
}

/// A call node's definition.
#[derive(Clone, Debug, PartialEq)]
pub struct CallDefinition {
    /// The tool's name.
    pub tool: String,
    /// The staged arguments, by name.
    pub args: BTreeMap<String, StagedValue>,
    /// The fields the call declares its result has.
    pub output: Vec<DeclaredField>,
    /// What happens when a reference in `args` finds no value.
    pub on_missing_value: OnMissingValue,
    /// What the call may touch.
    pub authority: Vec<AuthorityClaim>,
    /// Whether calling it twice does no more than calling it once; `None` when not stated
    /// (freeze requires it).
    pub replay_safe: Option<bool>,
    /// What resuming does with a call that never settled; `None` when not stated (freeze
    /// requires it).
    pub on_indeterminate: Option<OnIndeterminate>,
    /// Output fields the call sanitises: references to them are not tainted.
    pub declassifies: Vec<String>,
}

/// One part of a reason node's prompt.
#[derive(Clone, Debug, PartialEq)]
pub enum PromptPart {
    /// Literal text.
    Text(String),
    /// Another node's output, rendered into the prompt at run time.
    Ref(NodeRef),
}

/// A reason node's definition.
#[derive(Clone, Debug, PartialEq)]
pub struct ReasonDefinition {
    /// The prompt, in parts.
    pub prompt: Vec<PromptPart>,
    /// The JSON Schema the model's answer must satisfy.
    pub output_schema: Json,
    /// How many answers the model may give before the node fails (≥ 1).
    pub max_attempts: u64,
}

/// A branch node's definition.
#[derive(Clone, Debug, PartialEq)]
pub struct BranchDefinition {
    /// The id of the predicate cell that evaluates it (`structured`, `jexl`, `lua`, …).
    pub evaluator: String,
    /// The predicate, in the cell's language.
    pub predicate: Json,
}

/// A select node's definition.
#[derive(Clone, Debug, PartialEq)]
pub struct SelectDefinition {
    /// The id of the predicate cell that evaluates it.
    pub evaluator: String,
    /// The predicate, in the cell's language.
    pub predicate: Json,
    /// The labels the predicate may answer, each with its `case_<label>` handle.
    pub cases: Vec<String>,
}

/// A definition field that does not fit its kind.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FieldProblem {
    /// The field's dot-separated path in the definition (`args`, `output.2.type`, …).
    pub field: String,
    /// What is wrong and what to write instead.
    pub message: String,
}

impl fmt::Display for FieldProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.field, self.message)
    }
}

impl Definition {
    /// The fields each kind's definition has.
    pub fn fields(kind: NodeKind) -> &'static [&'static str] {
        match kind {
            NodeKind::Entry => &["input"],
            NodeKind::Call => &[
                "tool",
                "args",
                "output",
                "onMissingValue",
                "authority",
                "replaySafe",
                "onIndeterminate",
                "declassifies",
            ],
            NodeKind::Reason => &["prompt", "outputSchema", "maxAttempts"],
            NodeKind::Branch => &["evaluator", "predicate"],
            NodeKind::Select => &["evaluator", "predicate", "cases"],
            NodeKind::Join => &["kind"],
        }
    }

    /// Reads a node's definition as its kind requires, or every problem found.
    pub fn read(node: &Node) -> Result<Definition, Vec<FieldProblem>> {
        let mut reader = Reader {
            fields: &node.definition,
            problems: Vec::new(),
        };
        for key in node.definition.keys() {
            if !Definition::fields(node.kind).contains(&key.as_str()) {
                let known = Definition::fields(node.kind).join(", ");
                reader.problem(
                    key,
                    format!("a {} node has no field \"{key}\"; its fields are {known}", node.kind),
                );
            }
        }
        let definition = match node.kind {
            NodeKind::Entry => Definition::Entry(EntryDefinition {
                input: reader.declared_fields("input", true),
            }),
            NodeKind::Call => Definition::Call(CallDefinition {
                tool: reader.string("tool").unwrap_or_default(),
                args: reader.record("args"),
                output: reader.declared_fields("output", false),
                on_missing_value: reader
                    .choice(
                        "onMissingValue",
                        &[("fail", OnMissingValue::Fail), ("omit", OnMissingValue::Omit)],
                        true,
                    )
                    .unwrap_or(OnMissingValue::Fail),
                authority: reader.authority(),
                replay_safe: reader.optional_bool("replaySafe"),
                on_indeterminate: reader.choice(
                    "onIndeterminate",
                    &[
                        ("retry", OnIndeterminate::Retry),
                        ("halt", OnIndeterminate::Halt),
                        ("skip", OnIndeterminate::Skip),
                    ],
                    false,
                ),
                declassifies: reader.strings("declassifies", false),
            }),
            NodeKind::Reason => Definition::Reason(ReasonDefinition {
                prompt: reader.prompt(),
                output_schema: reader.json_schema(),
                max_attempts: reader.max_attempts(),
            }),
            NodeKind::Branch => Definition::Branch(BranchDefinition {
                evaluator: reader.string("evaluator").unwrap_or_default(),
                predicate: reader.predicate(),
            }),
            NodeKind::Select => Definition::Select(SelectDefinition {
                evaluator: reader.string("evaluator").unwrap_or_default(),
                predicate: reader.predicate(),
                cases: reader.strings("cases", true),
            }),
            NodeKind::Join => {
                if let Some(kind) = node.definition.get("kind")
                    && *kind != StagedValue::String("diamond".into())
                {
                    reader.problem(
                        "kind",
                        "a join's only kind is \"diamond\"; leave the field out or write \"diamond\"",
                    );
                }
                Definition::Join
            }
        };
        if reader.problems.is_empty() {
            Ok(definition)
        } else {
            Err(reader.problems)
        }
    }
}

struct Reader<'a> {
    fields: &'a BTreeMap<String, StagedValue>,
    problems: Vec<FieldProblem>,
}

impl<'a> Reader<'a> {
    fn problem(&mut self, field: &str, message: impl Into<String>) {
        self.problems.push(FieldProblem {
            field: field.to_owned(),
            message: message.into(),
        });
    }

    fn string(&mut self, key: &str) -> Option<String> {
        match self.fields.get(key) {
            Some(StagedValue::String(s)) if !s.is_empty() => Some(s.clone()),
            Some(StagedValue::String(_)) => {
                self.problem(key, format!("\"{key}\" is empty; write a name"));
                None
            }
            Some(other) => {
                self.problem(key, format!("\"{key}\" is a string, not {}", other.kind_name()));
                None
            }
            None => {
                self.problem(key, format!("\"{key}\" is missing"));
                None
            }
        }
    }

    fn optional_bool(&mut self, key: &str) -> Option<bool> {
        match self.fields.get(key) {
            Some(StagedValue::Bool(b)) => Some(*b),
            Some(other) => {
                self.problem(key, format!("\"{key}\" is true or false, not {}", other.kind_name()));
                None
            }
            None => None,
        }
    }

    fn choice<T: Copy>(&mut self, key: &str, options: &[(&str, T)], required: bool) -> Option<T> {
        // Written only for a problem: every run's start reads every node's choices.
        let names = || {
            options
                .iter()
                .map(|(name, _)| format!("\"{name}\""))
                .collect::<Vec<_>>()
                .join(", ")
        };
        match self.fields.get(key) {
            Some(StagedValue::String(s)) => match options.iter().find(|(name, _)| name == s) {
                Some((_, value)) => Some(*value),
                None => {
                    self.problem(key, format!("\"{s}\" is not one of {}", names()));
                    None
                }
            },
            Some(other) => {
                self.problem(
                    key,
                    format!("\"{key}\" is one of {}, not {}", names(), other.kind_name()),
                );
                None
            }
            None => {
                if required {
                    self.problem(key, format!("\"{key}\" is missing; write one of {}", names()));
                }
                None
            }
        }
    }

    fn record(&mut self, key: &str) -> BTreeMap<String, StagedValue> {
        match self.fields.get(key) {
            Some(StagedValue::Object(record)) => record.clone(),
            None => BTreeMap::new(),
            Some(other) => {
                self.problem(
                    key,
                    format!("\"{key}\" is an object of named values, not {}", other.kind_name()),
                );
                BTreeMap::new()
            }
        }
    }

    fn list(&mut self, key: &str, required: bool) -> &'a [StagedValue] {
        let fields = self.fields;
        match fields.get(key) {
            Some(StagedValue::Array(items)) => items,
            None => {
                if required {
                    self.problem(key, format!("\"{key}\" is missing; write a list"));
                }
                &[]
            }
            Some(other) => {
                self.problem(key, format!("\"{key}\" is a list, not {}", other.kind_name()));
                &[]
            }
        }
    }

    fn strings(&mut self, key: &str, required: bool) -> Vec<String> {
        let items = self.list(key, required);
        let mut strings = Vec::with_capacity(items.len());
        for (index, item) in items.iter().enumerate() {
            match item {
                StagedValue::String(s) if !s.is_empty() && !strings.contains(s) => strings.push(s.clone()),
                StagedValue::String(s) if s.is_empty() => {
                    self.problem(&format!("{key}.{index}"), "an empty string; write a name")
                }
                StagedValue::String(s) => self.problem(&format!("{key}.{index}"), format!("\"{s}\" is listed twice")),
                other => self.problem(
                    &format!("{key}.{index}"),
                    format!("a string, not {}", other.kind_name()),
                ),
            }
        }
        strings
    }

    fn declared_fields(&mut self, key: &str, required: bool) -> Vec<DeclaredField> {
        let items = self.list(key, required);
        let mut declared: Vec<DeclaredField> = Vec::with_capacity(items.len());
        for (index, item) in items.iter().enumerate() {
            let at = format!("{key}.{index}");
            let StagedValue::Object(field) = item else {
                self.problem(
                    &at,
                    format!("a declared field is {{\"path\", \"type\"}}, not {}", item.kind_name()),
                );
                continue;
            };
            if let Some(unknown) = field
                .keys()
                .find(|k| !["path", "type", "maxBytes", "values"].contains(&k.as_str()))
            {
                self.problem(
                    &at,
                    format!("a declared field has no \"{unknown}\"; its fields are path, type, maxBytes, values"),
                );
            }
            let path = match field.get("path") {
                Some(StagedValue::String(path)) if valid_dot_path(path) => path.clone(),
                _ => {
                    self.problem(
                        &format!("{at}.path"),
                        "path is a dot-separated field name such as \"summary\" or \"file.size\"",
                    );
                    continue;
                }
            };
            if declared.iter().any(|d| d.path == path) {
                self.problem(&format!("{at}.path"), format!("\"{path}\" is declared twice"));
            }
            let field_type = match field.get("type") {
                Some(StagedValue::String(t)) if t == "string" => FieldType::String {
                    max_bytes: match field.get("maxBytes") {
                        None => None,
                        Some(StagedValue::Number(n)) if *n >= 1.0 && n.fract() == 0.0 => Some(*n as u64),
                        Some(_) => {
                            self.problem(&format!("{at}.maxBytes"), "maxBytes is a whole number ≥ 1");
                            None
                        }
                    },
                },
                Some(StagedValue::String(t)) if t == "number" => FieldType::Number,
                Some(StagedValue::String(t)) if t == "boolean" => FieldType::Boolean,
                Some(StagedValue::String(t)) if t == "enum" => {
                    let values = match field.get("values") {
                        Some(StagedValue::Array(values)) if !values.is_empty() => values
                            .iter()
                            .filter_map(|v| {
                                if let StagedValue::String(s) = v {
                                    Some(s.clone())
                                } else {
                                    None
                                }
                            })
                            .collect::<Vec<_>>(),
                        _ => Vec::new(),
                    };
                    if values.is_empty()
                        || Some(values.len())
                            != field.get("values").and_then(|v| {
                                if let StagedValue::Array(a) = v {
                                    Some(a.len())
                                } else {
                                    None
                                }
                            })
                    {
                        self.problem(
                            &format!("{at}.values"),
                            "an enum field lists its values as a non-empty list of strings",
                        );
                    }
                    FieldType::Enum(values)
                }
                _ => {
                    self.problem(
                        &format!("{at}.type"),
                        "type is \"string\", \"number\", \"boolean\" or \"enum\"",
                    );
                    continue;
                }
            };
            if field.contains_key("maxBytes") && !matches!(field_type, FieldType::String { .. }) {
                self.problem(&format!("{at}.maxBytes"), "maxBytes applies to string fields only");
            }
            if field.contains_key("values") && !matches!(field_type, FieldType::Enum(_)) {
                self.problem(&format!("{at}.values"), "values apply to enum fields only");
            }
            declared.push(DeclaredField { path, field_type });
        }
        declared
    }

    fn authority(&mut self) -> Vec<AuthorityClaim> {
        let items = self.list("authority", false);
        let mut claims = Vec::with_capacity(items.len());
        for (index, item) in items.iter().enumerate() {
            match AuthorityClaim::from_staged(item) {
                Some(claim) => claims.push(claim),
                None => self.problem(
                    &format!("authority.{index}"),
                    "a claim is {\"capability\": non-empty string, \"scope\": non-empty string, \"verb\": one of list, read, create, update, delete} and nothing else",
                ),
            }
        }
        claims
    }

    fn prompt(&mut self) -> Vec<PromptPart> {
        let items = self.list("prompt", true);
        if items.is_empty() && self.fields.contains_key("prompt") {
            self.problem("prompt", "the prompt is empty; write at least one {\"text\": …} part");
        }
        let mut parts = Vec::with_capacity(items.len());
        for (index, item) in items.iter().enumerate() {
            match item {
                StagedValue::NodeRef(reference) => parts.push(PromptPart::Ref(reference.clone())),
                StagedValue::Object(part)
                    if part.len() == 1 && matches!(part.get("text"), Some(StagedValue::String(_))) =>
                {
                    if let Some(StagedValue::String(text)) = part.get("text") {
                        parts.push(PromptPart::Text(text.clone()));
                    }
                }
                _ => self.problem(
                    &format!("prompt.{index}"),
                    "a prompt part is {\"text\": \"…\"} or {\"$ref\": {…}}",
                ),
            }
        }
        parts
    }

    fn json_schema(&mut self) -> Json {
        match self.fields.get("outputSchema") {
            None => {
                self.problem(
                    "outputSchema",
                    "\"outputSchema\" is missing; write the JSON Schema the answer must satisfy",
                );
                Json::Null
            }
            Some(value) => match value.to_plain_json() {
                Some(schema @ (Json::Object(_) | Json::Bool(_))) => schema,
                _ => {
                    self.problem(
                        "outputSchema",
                        "\"outputSchema\" is a JSON Schema: an object or a boolean",
                    );
                    Json::Null
                }
            },
        }
    }

    fn max_attempts(&mut self) -> u64 {
        match self.fields.get("maxAttempts") {
            None => 1,
            Some(StagedValue::Number(n)) if *n >= 1.0 && *n <= 100.0 && n.fract() == 0.0 => *n as u64,
            Some(_) => {
                self.problem("maxAttempts", "maxAttempts is a whole number from 1 to 100");
                1
            }
        }
    }

    fn predicate(&mut self) -> Json {
        match self.fields.get("predicate") {
            None => {
                self.problem(
                    "predicate",
                    "\"predicate\" is missing; write the predicate in the evaluator's language",
                );
                Json::Null
            }
            Some(value) => value.to_plain_json().unwrap_or_else(|| {
                self.problem(
                    "predicate",
                    "a predicate is plain JSON (a structured predicate or a source string)",
                );
                Json::Null
            }),
        }
    }
}

/// Whether `path` is a dot-separated path of non-empty segments.
pub fn valid_dot_path(path: &str) -> bool {
    !path.is_empty() && path.split('.').all(|segment| !segment.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn node(json: Json) -> Node {
        Node::from_wire(&json).unwrap()
    }

    #[test]
    fn a_call_reads_whole() {
        let call = node(
            json!({"id": "list_files", "kind": "call", "definition": {"tool": "list_files",
            "args": {"dir": "/reports/q3", "after": {"$ref": {"node": "entry", "select": "first", "path": "since"}}},
            "output": [{"path": "count", "type": "number"}], "onMissingValue": "fail",
            "authority": [{"capability": "fs", "scope": "/reports", "verb": "list"}],
            "replaySafe": true, "onIndeterminate": "retry"}}),
        );
        let Definition::Call(call) = Definition::read(&call).unwrap() else {
            panic!("not a call")
        };
        assert_eq!(call.tool, "list_files");
        assert_eq!(call.authority[0].verb, Verb::List);
        assert_eq!(call.on_indeterminate, Some(OnIndeterminate::Retry));
        assert!(matches!(call.args["after"], StagedValue::NodeRef(_)));
    }

    #[test]
    fn every_problem_is_named() {
        let call = node(
            json!({"id": "c", "kind": "call", "definition": {"tool": 3, "onMissingValue": "ignore",
            "authority": [{"capability": "fs", "scope": "/", "verb": "write"}], "retries": 2}}),
        );
        let problems = Definition::read(&call).unwrap_err();
        let fields: Vec<&str> = problems.iter().map(|p| p.field.as_str()).collect();
        assert_eq!(
            fields,
            ["retries", "tool", "onMissingValue", "authority.0"],
            "{problems:?}"
        );
    }

    #[test]
    fn a_schema_keeps_its_dollar_keys() {
        let json = json!({"id": "r", "kind": "reason", "definition": {"prompt": [{"text": "Summarise"}],
            "outputSchema": {"$defs": {"s": {"type": "string"}}, "type": "object", "properties": {"summary": {"$ref": "#/$defs/s"}}},
            "maxAttempts": 2}});
        let reason = node(json.clone());
        assert_eq!(reason.to_wire(), json);
        let Definition::Reason(reason) = Definition::read(&reason).unwrap() else {
            panic!("not a reason")
        };
        assert_eq!(reason.output_schema["properties"]["summary"]["$ref"], "#/$defs/s");
    }
}
