//! Model files and the environment: where a run's model comes from.

use std::sync::Arc;
use std::time::Duration;

use serde_json::{Map, Value};

use crate::{Model, ModelError, ModelErrorKind, OpenAiConfig, OpenAiModel, ScriptedModel, StructuredOutput};

/// The request timeout of an OpenAI-compatible model when the file sets no `timeoutMs`: long
/// enough for a slow model's long answer.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(120);

/// The longest `timeoutMs` a file may set: an hour.
const MAX_TIMEOUT_MS: u64 = 3_600_000;

/// The base URL [`model_from_env`] uses when `OPENAI_BASE_URL` is unset.
const DEFAULT_BASE_URL: &str = "https://api.openai.com/v1";

const SCRIPTED_FIELDS: &[&str] = &["kind", "answers"];
const OPENAI_FIELDS: &[&str] = &["kind", "baseUrl", "model", "apiKeyEnv", "structuredOutput", "timeoutMs"];
const KINDS: &[&str] = &["scripted", "openai"];

/// Reads a model file into a model, reading the API key's variable from the process environment.
///
/// A model file is one of:
///
/// - `{"kind": "scripted", "answers": [<text or JSON>, …]}`: a [`ScriptedModel`] giving the answers
///   in order (a JSON string is a text answer, anything else a structured answer);
/// - `{"kind": "openai", "baseUrl": "…", "model": "…", "apiKeyEnv": "OPENAI_API_KEY"}`: an
///   [`OpenAiModel`] for any server speaking the OpenAI-compatible chat-completions API.
///   `apiKeyEnv` is optional (a local server may need no key); when given, the variable must be
///   set. Two more optional fields: `structuredOutput`, `"toolCall"` (the default: a forced call of
///   a `submit` tool) or `"jsonSchema"` (a JSON Schema response format), and `timeoutMs`, the
///   request timeout in milliseconds (default 120000, at most 3600000).
///
/// Unknown fields are refused, with the closest known name suggested.
///
/// # Errors
///
/// `model_file_invalid` when the file is not one of these shapes, `model_key_missing` when the
/// variable `apiKeyEnv` names is unset or empty, `model_unavailable` when the HTTP client cannot
/// be built.
///
/// # Example
///
/// ```
/// let file = serde_json::json!({"kind": "openai", "baseUrl": "http://127.0.0.1:8080/v1", "model": "local"});
/// let model = writ_model::model_from_file(&file)?;
/// # Ok::<(), writ_model::ModelError>(())
/// ```
pub fn model_from_file(json: &Value) -> Result<Arc<dyn Model>, ModelError> {
    model_from_file_with(json, |name| std::env::var(name).ok())
}

/// [`model_from_file`], reading variables through `env` instead of the process environment (for
/// hosts that keep their own environment, and for tests).
///
/// # Errors
///
/// As [`model_from_file`].
pub fn model_from_file_with(json: &Value, env: impl Fn(&str) -> Option<String>) -> Result<Arc<dyn Model>, ModelError> {
    let Some(object) = json.as_object() else {
        return Err(invalid(format!(
            "a model file is a JSON object, found {} (write {{\"kind\": \"scripted\", \"answers\": […]}} or {{\"kind\": \"openai\", \"baseUrl\": …, \"model\": …}})",
            type_name(json)
        )));
    };
    let kind = match object.get("kind") {
        Some(Value::String(kind)) => kind.as_str(),
        Some(other) => {
            return Err(invalid(format!(
                "the model file's \"kind\" is a string, found {}",
                type_name(other)
            )));
        }
        None => {
            return Err(invalid(String::from(
                "the model file has no \"kind\" (write \"kind\": \"scripted\" or \"kind\": \"openai\")",
            )));
        }
    };
    match kind {
        "scripted" => {
            check_fields(object, kind, SCRIPTED_FIELDS)?;
            match object.get("answers") {
                Some(Value::Array(answers)) => Ok(Arc::new(ScriptedModel::new(answers.clone()))),
                Some(other) => Err(invalid(format!(
                    "the model file's \"answers\" is an array of answers, found {}",
                    type_name(other)
                ))),
                None => Err(invalid(String::from(
                    "a scripted model file needs \"answers\": the answers to give, in order (a string is a text answer, anything else a structured one)",
                ))),
            }
        }
        "openai" => {
            check_fields(object, kind, OPENAI_FIELDS)?;
            let base_url = required_string(
                object,
                "baseUrl",
                "the server's API root, such as \"http://127.0.0.1:8080/v1\"",
            )?;
            check_base_url(base_url)?;
            let model = required_string(object, "model", "the model's name as the server knows it")?;
            let api_key = match optional_string(object, "apiKeyEnv")? {
                Some(name) => Some(key_from(name, &env)?),
                None => None,
            };
            let structured_output = match optional_string(object, "structuredOutput")? {
                None | Some("toolCall") => StructuredOutput::ToolCall,
                Some("jsonSchema") => StructuredOutput::JsonSchema,
                Some(other) => {
                    return Err(invalid(format!(
                        "the model file's \"structuredOutput\" is \"toolCall\" or \"jsonSchema\", found \"{other}\""
                    )));
                }
            };
            let timeout = match object.get("timeoutMs") {
                None => DEFAULT_TIMEOUT,
                Some(value) => match value.as_u64() {
                    Some(ms) if (1..=MAX_TIMEOUT_MS).contains(&ms) => Duration::from_millis(ms),
                    _ => {
                        return Err(invalid(format!(
                            "the model file's \"timeoutMs\" is a whole number of milliseconds from 1 to {MAX_TIMEOUT_MS}, found {value}"
                        )));
                    }
                },
            };
            let model = OpenAiModel::new(OpenAiConfig {
                base_url: base_url.to_owned(),
                model: model.to_owned(),
                api_key,
                structured_output,
                timeout,
            })?;
            Ok(Arc::new(model))
        }
        other => {
            let suggestion = writ_core::closest_name(other, KINDS.iter().copied())
                .map(|name| format!("did you mean \"{name}\"? "))
                .unwrap_or_default();
            Err(invalid(format!(
                "the model file's kind \"{other}\" is not known ({suggestion}the kinds are \"scripted\" and \"openai\")"
            )))
        }
    }
}

/// The model the environment names, with the process environment; used when there is no model
/// file.
///
/// Reads `OPENAI_MODEL` (required: the model's name), `OPENAI_BASE_URL` (default
/// `https://api.openai.com/v1`) and `OPENAI_API_KEY` (optional: sent as a bearer token when set
/// and not empty). Structured answers go through a forced tool call, with the default timeout of
/// 120 s.
///
/// # Errors
///
/// `model_unconfigured` when `OPENAI_MODEL` is unset or empty or `OPENAI_BASE_URL` is not an http
/// or https URL, `model_unavailable` when the HTTP client cannot be built.
pub fn model_from_env() -> Result<Arc<dyn Model>, ModelError> {
    model_from_env_with(|name| std::env::var(name).ok())
}

/// [`model_from_env`], reading variables through `env` instead of the process environment.
///
/// # Errors
///
/// As [`model_from_env`].
pub fn model_from_env_with(env: impl Fn(&str) -> Option<String>) -> Result<Arc<dyn Model>, ModelError> {
    let present = |name: &str| env(name).filter(|value| !value.is_empty());
    let Some(model) = present("OPENAI_MODEL") else {
        return Err(ModelError::new(
            ModelErrorKind::Unconfigured,
            "no model is configured: give a model file, or set OPENAI_MODEL (with OPENAI_BASE_URL and OPENAI_API_KEY as the server needs)",
        ));
    };
    let base_url = present("OPENAI_BASE_URL").unwrap_or_else(|| String::from(DEFAULT_BASE_URL));
    check_base_url(&base_url).map_err(|error| {
        ModelError::new(
            ModelErrorKind::Unconfigured,
            error
                .message()
                .replace("the model file's \"baseUrl\"", "OPENAI_BASE_URL"),
        )
    })?;
    let model = OpenAiModel::new(OpenAiConfig {
        base_url,
        model,
        api_key: present("OPENAI_API_KEY"),
        structured_output: StructuredOutput::ToolCall,
        timeout: DEFAULT_TIMEOUT,
    })?;
    Ok(Arc::new(model))
}

#[cold]
fn invalid(message: String) -> ModelError {
    ModelError::new(ModelErrorKind::FileInvalid, message)
}

/// Refuses a field the kind does not have, suggesting the closest one.
fn check_fields(object: &Map<String, Value>, kind: &str, known: &[&str]) -> Result<(), ModelError> {
    for name in object.keys() {
        if !known.contains(&name.as_str()) {
            let suggestion = writ_core::closest_name(name, known.iter().copied())
                .map(|known| format!("did you mean \"{known}\"? "))
                .unwrap_or_default();
            return Err(invalid(format!(
                "the model file has a field \"{name}\" that the {kind} kind does not have ({suggestion}its fields are {})",
                known.join(", ")
            )));
        }
    }
    Ok(())
}

fn required_string<'a>(object: &'a Map<String, Value>, name: &str, what: &str) -> Result<&'a str, ModelError> {
    match optional_string(object, name)? {
        Some(value) => Ok(value),
        None => Err(invalid(format!("an openai model file needs \"{name}\": {what}"))),
    }
}

/// A string field, absent as `None`; present and not a non-empty string is an error.
fn optional_string<'a>(object: &'a Map<String, Value>, name: &str) -> Result<Option<&'a str>, ModelError> {
    match object.get(name) {
        None => Ok(None),
        Some(Value::String(value)) if !value.is_empty() => Ok(Some(value)),
        Some(Value::String(_)) => Err(invalid(format!("the model file's \"{name}\" is empty"))),
        Some(other) => Err(invalid(format!(
            "the model file's \"{name}\" is a string, found {}",
            type_name(other)
        ))),
    }
}

fn check_base_url(base_url: &str) -> Result<(), ModelError> {
    match reqwest::Url::parse(base_url) {
        Ok(url) if matches!(url.scheme(), "http" | "https") && url.has_host() => Ok(()),
        Ok(url) => Err(invalid(format!(
            "the model file's \"baseUrl\" \"{base_url}\" is not an http or https URL (its scheme is \"{}\")",
            url.scheme()
        ))),
        Err(error) => Err(invalid(format!(
            "the model file's \"baseUrl\" \"{base_url}\" is not a URL ({error}); write the server's API root, such as \"http://127.0.0.1:8080/v1\""
        ))),
    }
}

fn key_from(name: &str, env: &impl Fn(&str) -> Option<String>) -> Result<String, ModelError> {
    match env(name) {
        Some(key) if !key.is_empty() => Ok(key),
        Some(_) => Err(ModelError::new(
            ModelErrorKind::KeyMissing,
            format!(
                "the model file reads the API key from the environment variable {name}, which is empty (set it to the key)"
            ),
        )),
        None => Err(ModelError::new(
            ModelErrorKind::KeyMissing,
            format!(
                "the model file reads the API key from the environment variable {name}, which is not set \
                 (export {name}=<key>, or drop \"apiKeyEnv\" for a server that needs no key)"
            ),
        )),
    }
}

fn type_name(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}
