//! Language models for writ's plan `reason` nodes and workflow `callModel` nodes.
//!
//! A [`Model`] answers a [`Turn`] (the conversation so far and, when a structured answer is
//! wanted, its JSON Schema) with an [`Answer`]. [`reason`] asks a model for a value that satisfies
//! a schema, correcting it after each failed attempt. Three ways to get a model:
//!
//! - [`ScriptedModel`] gives fixed answers in order, for tests and examples;
//! - [`OpenAiModel`] talks to any server speaking the OpenAI-compatible chat-completions API;
//! - [`model_from_file`] reads a model file (`writ … --model FILE`) into either, and
//!   [`model_from_env`] reads the environment when there is no file.
//!
//! Models are asynchronous and need a tokio runtime to answer ([`OpenAiModel`] does its I/O on
//! it); dropping an answer's future cancels the request.
//!
//! # Example
//!
//! ```
//! use serde_json::json;
//! use writ_model::{ScriptedModel, reason};
//!
//! # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
//! // The first answer misses a required field; reason() tells the model so and asks again.
//! let model = ScriptedModel::new(vec![json!({"title": "Q3"}), json!({"title": "Q3", "pages": 12})]);
//! let schema = json!({"type": "object", "required": ["title", "pages"],
//!                     "properties": {"title": {"type": "string"}, "pages": {"type": "integer"}}});
//! let reasoned = reason(&model, "Summarise the Q3 report.", &schema, 3).await?;
//! assert_eq!(reasoned.value, json!({"title": "Q3", "pages": 12}));
//! assert_eq!(reasoned.attempts, 2);
//! assert!(model.turns()[1].messages.last().unwrap().content.contains("\"pages\" is a required property"));
//! # Ok::<(), writ_model::ModelError>(())
//! # }).unwrap();
//! ```
//!
//! # Error codes
//!
//! Every failure is a [`ModelError`] with one of these stable codes:
//!
//! | code | meaning | what to do |
//! |---|---|---|
//! | `model_file_invalid` | a model file is not `{"kind": "scripted", …}` or `{"kind": "openai", …}` as documented, or a field is missing, misspelt or of the wrong type | fix the field the message names |
//! | `model_key_missing` | the variable `apiKeyEnv` names is unset or empty | export the key, or drop `apiKeyEnv` for a server that needs none |
//! | `model_unconfigured` | no model file and no `OPENAI_MODEL` in the environment, or `OPENAI_BASE_URL` is not an http or https URL | give a model file or set `OPENAI_MODEL` (and a valid `OPENAI_BASE_URL`) |
//! | `model_exhausted` | a scripted model was asked more often than it has answers | add answers |
//! | `model_http_error` | the server refused the request with a 4xx status (its message is quoted) | usually a wrong model name or base URL |
//! | `model_auth_failed` | the server answered 401 or 403 | check the API key |
//! | `model_rate_limited` | the server answered 429 through every retry | wait, or raise the account's limits |
//! | `model_unavailable` | the server could not be reached, or answered 5xx through every retry | check `baseUrl` and that the server runs |
//! | `model_timeout` | no answer within the request timeout | raise `timeoutMs` |
//! | `model_reply_invalid` | the reply is not a chat completion (not JSON, no `choices`, too large) | check that `baseUrl` points at an OpenAI-compatible API |
//! | `model_answer_not_json` | a structured answer was asked for and the model wrote text that is not JSON | [`reason`] corrects the model and tries again |
//! | `output_schema_invalid` | the schema handed to [`reason`] is not a valid JSON Schema | fix the node's output schema |
//! | `max_attempts_invalid` | [`reason`] was given 0 attempts | give at least 1 |
//! | `reasoning_failed` | no attempt gave a structured answer satisfying the schema; the message names the attempts and the last problem | raise the attempts, or make the prompt or schema clearer |
//!
//! # The environment
//!
//! [`model_from_env`] reads `OPENAI_MODEL` (the model name; required), `OPENAI_BASE_URL` (default
//! `https://api.openai.com/v1`) and `OPENAI_API_KEY` (sent as a bearer token when set), the names
//! OpenAI's own clients read.

#![deny(missing_docs)]
#![forbid(unsafe_code)]

mod error;
mod file;
mod openai;
mod reason;
mod scripted;

use std::future::Future;
use std::pin::Pin;

pub use error::{ModelError, ModelErrorKind};
pub use file::{DEFAULT_TIMEOUT, model_from_env, model_from_env_with, model_from_file, model_from_file_with};
pub use openai::{OpenAiConfig, OpenAiModel, StructuredOutput};
pub use reason::{Reasoned, reason};
pub use scripted::ScriptedModel;

/// A boxed future that can move between threads, as [`Model::answer`] returns.
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// Who wrote a [`Message`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Role {
    /// Instructions from the host.
    System,
    /// The person's (or the runtime's) words to the model.
    User,
    /// The model's own earlier answers.
    Assistant,
}

impl Role {
    /// The role's name in the chat-completions API: `system`, `user` or `assistant`.
    pub fn as_str(self) -> &'static str {
        match self {
            Role::System => "system",
            Role::User => "user",
            Role::Assistant => "assistant",
        }
    }
}

/// One chat message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Message {
    /// Who wrote it.
    pub role: Role,
    /// What it says.
    pub content: String,
}

impl Message {
    /// A system message.
    pub fn system(content: impl Into<String>) -> Message {
        Message {
            role: Role::System,
            content: content.into(),
        }
    }

    /// A user message.
    pub fn user(content: impl Into<String>) -> Message {
        Message {
            role: Role::User,
            content: content.into(),
        }
    }

    /// An assistant message.
    pub fn assistant(content: impl Into<String>) -> Message {
        Message {
            role: Role::Assistant,
            content: content.into(),
        }
    }
}

/// One request to a model: the conversation so far and, when a structured answer is wanted, its
/// JSON Schema.
#[derive(Clone, Debug, PartialEq)]
pub struct Turn {
    /// The conversation, oldest first.
    pub messages: Vec<Message>,
    /// The JSON Schema a structured answer should satisfy; `None` asks for text.
    pub output_schema: Option<serde_json::Value>,
}

/// What a model answered.
#[derive(Clone, Debug, PartialEq)]
pub enum Answer {
    /// A JSON value, given through the structured-output channel (a tool call or a JSON response
    /// format). It has not been checked against the schema: [`reason`] does that.
    Structured(serde_json::Value),
    /// Plain text.
    Text(String),
}

impl Answer {
    /// The answer as text: text as it is, a structured answer as compact JSON.
    pub fn into_text(self) -> String {
        match self {
            Answer::Text(text) => text,
            Answer::Structured(value) => value.to_string(),
        }
    }
}

/// A language model.
///
/// Implementations must be usable from several tasks at once (`Send + Sync`), since a run asks
/// its model from concurrent frames.
pub trait Model: Send + Sync {
    /// Answers `turn`. Dropping the future cancels the request.
    ///
    /// # Errors
    ///
    /// Any code of the crate's table except `reasoning_failed`, `output_schema_invalid` and
    /// `max_attempts_invalid`, which only [`reason`] returns.
    fn answer(&self, turn: Turn) -> BoxFuture<'_, Result<Answer, ModelError>>;
}
