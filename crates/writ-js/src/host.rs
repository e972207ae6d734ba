//! Host functions: the only callables an expression can reach.
//!
//! Each is a standard tool — a name, a description, optional JSON Schemas for its input and
//! output, and an async `execute`. The parser lets a call stand only where it is the
//! expression's result, so the evaluator finishes evaluating before anything runs; the
//! evaluator then checks the argument against the input schema, awaits `execute`, and checks
//! the output against the output schema and the result gate.

use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use writ_core::Value;

use crate::error::{Error, Result};
use crate::interp::check_result_depth;

/// What `execute` returns: the output, or a message saying why the call failed.
pub type HostFuture = Pin<Box<dyn Future<Output = std::result::Result<Value, String>> + Send>>;

type Execute = dyn Fn(Value) -> HostFuture + Send + Sync;

/// A function the host hands to the evaluator.
///
/// ```
/// use writ_core::Value;
/// use writ_js::{Evaluator, HostFunction};
/// use serde_json::json;
///
/// let get_user = HostFunction::new("getUser", "Look up a user by id", |input: Value| async move {
///     let id = input.as_object().and_then(|o| o.get_str("id")).and_then(Value::as_number);
///     Ok(Value::from(serde_json::json!({"id": id, "name": "Ada"})))
/// })
/// .with_input_schema(json!({"type": "object", "properties": {"id": {"type": "number"}}, "required": ["id"]}))?;
/// let evaluator = Evaluator::builder().function(get_user).build()?;
/// let user = evaluator.eval("getUser({ id: 7 })", &[])?;
/// assert_eq!(user.to_json_string().as_deref(), Some(r#"{"id":7,"name":"Ada"}"#));
/// let refused = evaluator.eval("getUser({ id: 'seven' })", &[]).unwrap_err();
/// assert_eq!(refused.reason().code(), "invalid-arguments");
/// # Ok::<(), writ_js::Error>(())
/// ```
#[derive(Clone)]
pub struct HostFunction {
    name: String,
    description: String,
    input: Option<Schema>,
    output: Option<Schema>,
    execute: Arc<Execute>,
}

#[derive(Clone)]
struct Schema {
    json: serde_json::Value,
    validator: Arc<jsonschema::Validator>,
}

impl fmt::Debug for HostFunction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("HostFunction")
            .field("name", &self.name)
            .field("description", &self.description)
            .field("input_schema", &self.input.as_ref().map(|schema| &schema.json))
            .field("output_schema", &self.output.as_ref().map(|schema| &schema.json))
            .finish_non_exhaustive()
    }
}

impl HostFunction {
    /// A function named `name` (what expressions call), described for the model by
    /// `description`, that runs `execute` on its argument (`undefined` for `f()`).
    pub fn new<F, Fut>(name: impl Into<String>, description: impl Into<String>, execute: F) -> HostFunction
    where
        F: Fn(Value) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = std::result::Result<Value, String>> + Send + 'static,
    {
        HostFunction {
            name: name.into(),
            description: description.into(),
            input: None,
            output: None,
            execute: Arc::new(move |input| Box::pin(execute(input))),
        }
    }

    /// Checks every argument against `schema` (JSON Schema) before `execute` runs. A call
    /// without an argument is checked as `null`.
    ///
    /// # Errors
    ///
    /// `host-function` when `schema` is not a valid JSON Schema.
    pub fn with_input_schema(mut self, schema: serde_json::Value) -> Result<HostFunction> {
        self.input = Some(Schema::compile(&self.name, "input", schema)?);
        Ok(self)
    }

    /// Checks every output against `schema` (JSON Schema) after `execute` returns. An
    /// `undefined` output is checked as `null`.
    ///
    /// # Errors
    ///
    /// `host-function` when `schema` is not a valid JSON Schema.
    pub fn with_output_schema(mut self, schema: serde_json::Value) -> Result<HostFunction> {
        self.output = Some(Schema::compile(&self.name, "output", schema)?);
        Ok(self)
    }

    /// The name expressions call it by.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// What it does, for the model.
    pub fn description(&self) -> &str {
        &self.description
    }

    /// The input schema, if any.
    pub fn input_schema(&self) -> Option<&serde_json::Value> {
        self.input.as_ref().map(|schema| &schema.json)
    }

    /// The output schema, if any.
    pub fn output_schema(&self) -> Option<&serde_json::Value> {
        self.output.as_ref().map(|schema| &schema.json)
    }

    /// Checks the argument, runs `execute`, checks the output.
    pub(crate) async fn invoke(&self, argument: Option<Value>) -> Result<Value> {
        let argument = argument.unwrap_or(Value::Undefined);
        check_result_depth(&argument, &format!("\"{}\" argument", self.name))?;
        if let Some(schema) = &self.input
            && let Some(issues) = schema.issues(&argument)
        {
            return Err(Error::invalid_arguments(format!(
                "\"{}\" rejected its argument — {issues}",
                self.name
            )));
        }
        let output = (self.execute)(argument)
            .await
            .map_err(|message| Error::host_function(format!("\"{}\" failed: {message}", self.name)))?;
        if let Some(schema) = &self.output
            && let Some(issues) = schema.issues(&output)
        {
            return Err(Error::host_function(format!(
                "\"{}\" returned an output its schema rejects — {issues}",
                self.name
            )));
        }
        check_result_depth(&output, &format!("\"{}\" result", self.name))
            .map_err(|error| Error::host_function(error.message()))?;
        Ok(output)
    }
}

impl Schema {
    fn compile(name: &str, which: &str, json: serde_json::Value) -> Result<Schema> {
        let validator = jsonschema::validator_for(&json)
            .map_err(|error| Error::host_function(format!("\"{name}\" has an invalid {which} schema: {error}")))?;
        Ok(Schema {
            json,
            validator: Arc::new(validator),
        })
    }

    /// The schema's complaints about `value`, joined; `None` when it is valid.
    fn issues(&self, value: &Value) -> Option<String> {
        let instance = if value.is_undefined() {
            serde_json::Value::Null
        } else {
            value.to_serde_json()
        };
        let issues: Vec<String> = self
            .validator
            .iter_errors(&instance)
            .take(8)
            .map(|error| {
                let path = error.instance_path().to_string();
                let path = if path.is_empty() {
                    String::from("(the argument)")
                } else {
                    path
                };
                format!("{path}: {error}")
            })
            .collect();
        if issues.is_empty() {
            None
        } else {
            Some(issues.join("; "))
        }
    }
}

/// Why a host function's name cannot be bound, if it cannot.
pub(crate) fn name_fault(name: &str) -> Option<String> {
    let mut chars = name.chars();
    let valid = chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == '$')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$');
    if !valid {
        return Some(format!(
            "\"{name}\" is not a valid host function name: use letters, digits, _ and $, not starting with a digit"
        ));
    }
    if RESERVED.contains(&name) {
        return Some(format!(
            "\"{name}\" is a reserved word of JavaScript and cannot name a host function"
        ));
    }
    if crate::tables::Global::from_name(name).is_some() {
        return Some(format!(
            "\"{name}\" is a global of the language and cannot name a host function"
        ));
    }
    None
}

/// Words that cannot be identifiers in strict-mode JavaScript.
const RESERVED: &[&str] = &[
    "await",
    "break",
    "case",
    "catch",
    "class",
    "const",
    "continue",
    "debugger",
    "default",
    "delete",
    "do",
    "else",
    "enum",
    "export",
    "extends",
    "false",
    "finally",
    "for",
    "function",
    "if",
    "implements",
    "import",
    "in",
    "instanceof",
    "interface",
    "let",
    "new",
    "null",
    "package",
    "private",
    "protected",
    "public",
    "return",
    "static",
    "super",
    "switch",
    "this",
    "throw",
    "true",
    "try",
    "typeof",
    "var",
    "void",
    "while",
    "with",
    "yield",
    "eval",
    "arguments",
];
