//! A client for any server speaking the OpenAI-compatible chat-completions API.

use std::fmt;
use std::time::Duration;

use serde_json::{Value, json};

use crate::error::bounded;
use crate::{Answer, BoxFuture, Model, ModelError, ModelErrorKind, Turn};

/// How many times one answer's request is sent at most: the first try and two retries.
const MAX_TRIES: usize = 3;

/// The wait before each retry when the server gives no `Retry-After`.
const BACKOFF: [Duration; MAX_TRIES - 1] = [Duration::from_millis(250), Duration::from_millis(1000)];

/// The longest `Retry-After` honoured; a server asking for more is waited on this long.
const MAX_RETRY_AFTER: Duration = Duration::from_secs(10);

/// The largest reply read; a chat completion is far smaller, so a larger one is refused rather
/// than held in memory.
const MAX_REPLY_BYTES: usize = 8 * 1024 * 1024;

/// How much of a server's error message or of a malformed reply a message quotes.
const MAX_QUOTE_BYTES: usize = 500;

/// The tool a structured answer is submitted through.
const TOOL_NAME: &str = "submit";

/// The property a schema that does not describe an object is wrapped in: the chat-completions
/// API wants an object at the root of a tool's parameters and of a response format.
const WRAPPED: &str = "value";

/// How a structured answer is asked of the server.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum StructuredOutput {
    /// A forced call of one tool, `submit`, whose parameters are the schema; the answer is the
    /// call's arguments. Servers that support tools support this.
    #[default]
    ToolCall,
    /// A `json_schema` response format; the answer is the message's content, read as JSON.
    JsonSchema,
}

/// Where an [`OpenAiModel`] sends its requests and how.
#[derive(Clone, PartialEq, Eq)]
pub struct OpenAiConfig {
    /// The API root, such as `https://api.openai.com/v1` or `http://127.0.0.1:8080/v1`; requests
    /// go to `{base_url}/chat/completions`.
    pub base_url: String,
    /// The model's name as the server knows it.
    pub model: String,
    /// The API key, sent as a bearer token; `None` sends no `Authorization` header.
    pub api_key: Option<String>,
    /// How structured answers are asked for.
    pub structured_output: StructuredOutput,
    /// How long one request may take, from sending it to the last byte of the reply.
    pub timeout: Duration,
}

impl fmt::Debug for OpenAiConfig {
    /// Never shows the key.
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter
            .debug_struct("OpenAiConfig")
            .field("base_url", &self.base_url)
            .field("model", &self.model)
            .field("api_key", &self.api_key.as_ref().map(|_| "(set)"))
            .field("structured_output", &self.structured_output)
            .field("timeout", &self.timeout)
            .finish()
    }
}

/// A model behind any server speaking the OpenAI-compatible chat-completions API.
///
/// Each answer is one `POST {base_url}/chat/completions` with `model` and `messages`. A turn with
/// an output schema asks for structured output as the config says:
///
/// - [`StructuredOutput::ToolCall`]: `tools` holds one function, `submit`, whose `parameters` are
///   the schema, and `tool_choice` forces it; the answer is the call's `arguments` read as JSON.
///   A model that answers in prose instead gives a text answer.
/// - [`StructuredOutput::JsonSchema`]: `response_format` is `{"type": "json_schema",
///   "json_schema": {"name": "answer", "schema": …, "strict": false}}`; the answer is the message's
///   content read as JSON. Strict mode is off because OpenAI's strict mode accepts only schemas
///   where every property is required and no other property is allowed, and writ's callers check
///   the answer against the whole schema anyway.
///
/// A schema whose `type` is given and is not `"object"` is sent wrapped as an object with one
/// required property, `value` (its `$defs` and `definitions` moved to the wrapper's root), since
/// the API wants an object there; the answer is unwrapped again.
///
/// A request answered 429 or 5xx, or that cannot connect, is tried again up to twice, after
/// 250 ms and then 1 s, or after the server's `Retry-After` (in seconds, at most 10 s). A
/// timeout is not retried, since the server may still be working on a request that costs money.
///
/// Needs a tokio runtime to answer. Dropping the answer's future cancels the request.
pub struct OpenAiModel {
    config: OpenAiConfig,
    endpoint: String,
    client: reqwest::Client,
}

impl fmt::Debug for OpenAiModel {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter
            .debug_struct("OpenAiModel")
            .field("config", &self.config)
            .finish()
    }
}

impl OpenAiModel {
    /// A client for `config`. Nothing is sent until the first answer.
    ///
    /// # Errors
    ///
    /// `model_unavailable` when the HTTP client cannot be built (its TLS set-up failed).
    pub fn new(config: OpenAiConfig) -> Result<OpenAiModel, ModelError> {
        let client = reqwest::Client::builder()
            .timeout(config.timeout)
            .build()
            .map_err(|error| {
                ModelError::new(
                    ModelErrorKind::Unavailable,
                    format!("the HTTP client for the model server could not be built: {error}"),
                )
            })?;
        let endpoint = format!("{}/chat/completions", config.base_url.trim_end_matches('/'));
        Ok(OpenAiModel {
            config,
            endpoint,
            client,
        })
    }

    /// The configuration it was built with.
    pub fn config(&self) -> &OpenAiConfig {
        &self.config
    }

    /// The request body for `turn`, and whether its schema was wrapped.
    fn body(&self, turn: &Turn) -> (Value, bool) {
        let messages: Vec<Value> = turn
            .messages
            .iter()
            .map(|message| json!({"role": message.role.as_str(), "content": message.content}))
            .collect();
        let mut body = json!({"model": self.config.model, "messages": messages});
        let Some(schema) = &turn.output_schema else {
            return (body, false);
        };
        let (schema, wrapped) = wrap(schema);
        match self.config.structured_output {
            StructuredOutput::ToolCall => {
                body["tools"] = json!([{
                    "type": "function",
                    "function": {
                        "name": TOOL_NAME,
                        "description": "Submit your answer. Call this exactly once, with the answer as the arguments.",
                        "parameters": schema,
                    },
                }]);
                body["tool_choice"] = json!({"type": "function", "function": {"name": TOOL_NAME}});
            }
            StructuredOutput::JsonSchema => {
                body["response_format"] = json!({
                    "type": "json_schema",
                    "json_schema": {"name": "answer", "schema": schema, "strict": false},
                });
            }
        }
        (body, wrapped)
    }

    /// Sends `body`, retrying what is worth retrying, and returns the reply's JSON.
    async fn send(&self, body: &Value) -> Result<Value, ModelError> {
        let body = body.to_string();
        let mut tries = 0;
        loop {
            tries += 1;
            let mut request = self
                .client
                .post(&self.endpoint)
                .header(reqwest::header::CONTENT_TYPE, "application/json")
                .body(body.clone());
            if let Some(key) = &self.config.api_key {
                request = request.bearer_auth(key);
            }
            let failure = match request.send().await {
                Ok(response) if response.status().is_success() => return self.read(response).await,
                Ok(response) => {
                    let status = response.status();
                    let retry_after = retry_after(&response);
                    let retryable = status.as_u16() == 429 || status.is_server_error();
                    if retryable && tries < MAX_TRIES {
                        tokio::time::sleep(retry_after.unwrap_or(BACKOFF[tries - 1])).await;
                        continue;
                    }
                    let quoted = server_message(response).await;
                    return Err(self.status_error(status, &quoted, tries));
                }
                Err(error) if error.is_timeout() => return Err(self.timeout_error()),
                Err(error) => error,
            };
            if failure.is_connect() && tries < MAX_TRIES {
                tokio::time::sleep(BACKOFF[tries - 1]).await;
                continue;
            }
            return Err(ModelError::new(
                ModelErrorKind::Unavailable,
                format!(
                    "the model server at {} could not be reached after {tries} tr{}: {} (check \"baseUrl\" and that the server is running)",
                    self.endpoint,
                    if tries == 1 { "y" } else { "ies" },
                    error_chain(&failure)
                ),
            ));
        }
    }

    /// Reads a successful reply's body, at most [`MAX_REPLY_BYTES`] of it, as JSON.
    async fn read(&self, mut response: reqwest::Response) -> Result<Value, ModelError> {
        let mut bytes = Vec::new();
        loop {
            match response.chunk().await {
                Ok(Some(chunk)) => {
                    if bytes.len() + chunk.len() > MAX_REPLY_BYTES {
                        return Err(self.reply_error(format!("the reply is larger than {MAX_REPLY_BYTES} bytes")));
                    }
                    bytes.extend_from_slice(&chunk);
                }
                Ok(None) => break,
                Err(error) if error.is_timeout() => return Err(self.timeout_error()),
                Err(error) => return Err(self.reply_error(format!("the reply broke off: {}", error_chain(&error)))),
            }
        }
        serde_json::from_slice(&bytes).map_err(|error| {
            self.reply_error(format!(
                "the reply is not JSON ({error}): \"{}\"",
                bounded(&String::from_utf8_lossy(&bytes), MAX_QUOTE_BYTES)
            ))
        })
    }

    /// The answer in a chat completion.
    fn answer_in(&self, reply: &Value, turn: &Turn, wrapped: bool) -> Result<Answer, ModelError> {
        let Some(message) = reply
            .pointer("/choices/0/message")
            .filter(|message| message.is_object())
        else {
            let quoted = bounded(&reply.to_string(), MAX_QUOTE_BYTES);
            return Err(self.reply_error(format!("the reply has no choices[0].message: {quoted}")));
        };
        let content = message.get("content").and_then(Value::as_str);
        // A refusal is the model's answer in prose: the caller decides what a text answer means.
        let prose = content.or_else(|| message.get("refusal").and_then(Value::as_str));
        if turn.output_schema.is_none() {
            return prose
                .map(|text| Answer::Text(text.to_owned()))
                .ok_or_else(|| self.reply_error(String::from("the reply's message has no text content")));
        }
        let structured = match self.config.structured_output {
            StructuredOutput::ToolCall => {
                let calls = message
                    .get("tool_calls")
                    .and_then(Value::as_array)
                    .map(Vec::as_slice)
                    .unwrap_or_default();
                let Some(call) = calls
                    .iter()
                    .find(|call| call.pointer("/function/name").and_then(Value::as_str) == Some(TOOL_NAME))
                    .or_else(|| calls.first())
                else {
                    return prose.map(|text| Answer::Text(text.to_owned())).ok_or_else(|| {
                        self.reply_error(String::from(
                            "the reply's message has neither a tool call nor text content",
                        ))
                    });
                };
                match call.pointer("/function/arguments") {
                    Some(Value::String(arguments)) => parse_answer(arguments, "the arguments of its submit call")?,
                    // Some servers send the arguments as an object rather than as JSON text.
                    Some(arguments @ Value::Object(_)) => arguments.clone(),
                    _ => {
                        let quoted = bounded(&call.to_string(), MAX_QUOTE_BYTES);
                        return Err(self.reply_error(format!("the reply's tool call has no arguments: {quoted}")));
                    }
                }
            }
            StructuredOutput::JsonSchema => match content {
                Some(content) => parse_answer(content, "its content")?,
                None => {
                    return prose
                        .map(|text| Answer::Text(text.to_owned()))
                        .ok_or_else(|| self.reply_error(String::from("the reply's message has no content")));
                }
            },
        };
        Ok(Answer::Structured(if wrapped {
            unwrap(structured)
        } else {
            structured
        }))
    }

    #[cold]
    fn status_error(&self, status: reqwest::StatusCode, quoted: &str, tries: usize) -> ModelError {
        let (kind, hint) = match status.as_u16() {
            401 | 403 => (
                ModelErrorKind::AuthFailed,
                "check the API key in the variable the model file's \"apiKeyEnv\" names",
            ),
            429 => (
                ModelErrorKind::RateLimited,
                "wait and run again, or raise the account's rate limit",
            ),
            404 => (
                ModelErrorKind::HttpError,
                "check \"baseUrl\" (it ends before /chat/completions) and \"model\"",
            ),
            code if code >= 500 => (ModelErrorKind::Unavailable, "the server is failing; try again later"),
            _ => (
                ModelErrorKind::HttpError,
                "check \"model\" and that the server speaks the chat-completions API",
            ),
        };
        let after = if tries > 1 {
            format!(" after {tries} tries")
        } else {
            String::new()
        };
        ModelError::new(
            kind,
            format!(
                "the model server at {} answered {status}{after}: \"{quoted}\" ({hint})",
                self.endpoint
            ),
        )
    }

    #[cold]
    fn timeout_error(&self) -> ModelError {
        ModelError::new(
            ModelErrorKind::Timeout,
            format!(
                "the model server at {} did not answer within {} ms (raise the model file's \"timeoutMs\")",
                self.endpoint,
                self.config.timeout.as_millis()
            ),
        )
    }

    #[cold]
    fn reply_error(&self, what: String) -> ModelError {
        ModelError::new(
            ModelErrorKind::ReplyInvalid,
            format!(
                "the model server at {} sent a reply that is not a chat completion: {what} (check that \"baseUrl\" points at an OpenAI-compatible API)",
                self.endpoint
            ),
        )
    }
}

impl Model for OpenAiModel {
    fn answer(&self, turn: Turn) -> BoxFuture<'_, Result<Answer, ModelError>> {
        Box::pin(async move {
            let (body, wrapped) = self.body(&turn);
            let reply = self.send(&body).await?;
            self.answer_in(&reply, &turn, wrapped)
        })
    }
}

/// `schema` as the API wants it, an object at the root, and whether it had to be wrapped.
fn wrap(schema: &Value) -> (Value, bool) {
    let object = match schema.get("type") {
        None => true,
        Some(kind) => kind == "object",
    };
    if object {
        return (schema.clone(), false);
    }
    let mut inner = schema.clone();
    let mut wrapper = json!({
        "type": "object",
        "properties": {},
        "required": [WRAPPED],
        "additionalProperties": false,
    });
    // `#/$defs/…` references inside the schema must still resolve from the new root.
    if let Some(inner) = inner.as_object_mut() {
        for key in ["$defs", "definitions"] {
            if let Some(definitions) = inner.remove(key) {
                wrapper[key] = definitions;
            }
        }
    }
    wrapper["properties"][WRAPPED] = inner;
    (wrapper, true)
}

/// The answer inside a wrapped schema's object; an answer without it is returned whole, so the
/// schema check names what is wrong with it.
fn unwrap(answer: Value) -> Value {
    match answer {
        Value::Object(mut object) if object.len() == 1 && object.contains_key(WRAPPED) => {
            object.remove(WRAPPED).unwrap_or_default()
        }
        other => other,
    }
}

/// The model's structured answer read from JSON text.
fn parse_answer(text: &str, what: &str) -> Result<Value, ModelError> {
    serde_json::from_str(text).map_err(|error| {
        ModelError::new(
            ModelErrorKind::AnswerNotJson,
            format!(
                "the model's answer ({what}) is not JSON: {error}, in \"{}\"",
                bounded(text, MAX_QUOTE_BYTES)
            ),
        )
    })
}

/// The server's `Retry-After`, when it gives one in seconds, capped.
fn retry_after(response: &reqwest::Response) -> Option<Duration> {
    let seconds: u64 = response
        .headers()
        .get(reqwest::header::RETRY_AFTER)?
        .to_str()
        .ok()?
        .trim()
        .parse()
        .ok()?;
    Some(Duration::from_secs(seconds).min(MAX_RETRY_AFTER))
}

/// The error message in a failed reply's body (`{"error": {"message"}}`, as OpenAI writes it, or
/// `{"error": "…"}`, or `{"message": "…"}`), or the body itself, bounded.
async fn server_message(response: reqwest::Response) -> String {
    let text = match response.text().await {
        Ok(text) => text,
        Err(error) => return format!("(the body could not be read: {})", error_chain(&error)),
    };
    let parsed: Option<Value> = serde_json::from_str(&text).ok();
    let message = parsed.as_ref().and_then(|body| {
        body.pointer("/error/message")
            .or_else(|| body.get("error"))
            .or_else(|| body.get("message"))
            .and_then(Value::as_str)
    });
    let message = message.unwrap_or(&text);
    bounded(message.trim(), MAX_QUOTE_BYTES)
}

/// An error and its causes, joined: reqwest's own message alone rarely says what failed.
fn error_chain(error: &reqwest::Error) -> String {
    let mut text = error.to_string();
    let mut source = std::error::Error::source(error);
    while let Some(cause) = source {
        text.push_str(": ");
        text.push_str(&cause.to_string());
        source = cause.source();
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_schemas_typed_other_than_object_are_wrapped() {
        let object = json!({"type": "object", "properties": {"a": {"type": "string"}}});
        assert_eq!(wrap(&object), (object.clone(), false));
        let untyped = json!({"anyOf": [{"type": "object"}]});
        assert_eq!(wrap(&untyped), (untyped.clone(), false));
        let (wrapped, was_wrapped) =
            wrap(&json!({"type": "array", "items": {"$ref": "#/$defs/item"}, "$defs": {"item": {"type": "string"}}}));
        assert!(was_wrapped);
        assert_eq!(
            wrapped,
            json!({
                "type": "object",
                "properties": {"value": {"type": "array", "items": {"$ref": "#/$defs/item"}}},
                "required": ["value"],
                "additionalProperties": false,
                "$defs": {"item": {"type": "string"}},
            })
        );
        assert!(jsonschema::is_valid(&wrapped, &json!({"value": ["a"]})));
        assert!(!jsonschema::is_valid(&wrapped, &json!({"value": [1]})));
        assert_eq!(unwrap(json!({"value": [1]})), json!([1]));
        assert_eq!(unwrap(json!({"value": 1, "other": 2})), json!({"value": 1, "other": 2}));
    }
}
