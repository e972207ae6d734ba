//! The reason loop: ask for a structured answer, check it against the schema, and correct the model
//! until it satisfies the schema or the attempts run out.

use serde_json::Value;

use crate::error::bounded;
use crate::{Answer, Message, Model, ModelError, ModelErrorKind, Turn};

/// The system message every reasoning conversation opens with.
const SYSTEM_PROMPT: &str = "Answer with a structured result only: a JSON value that satisfies the JSON Schema you are given. \
     When a tool is offered for the answer, call it; do not answer in prose.";

/// At most this many schema violations are named in one corrective message.
const MAX_ISSUES: usize = 8;

/// Each violation, and each quoted earlier answer, is cut to this many bytes, so a huge wrong
/// answer cannot make the conversation grow faster than its attempts.
const MAX_ISSUE_BYTES: usize = 400;
const MAX_ECHO_BYTES: usize = 8 * 1024;

/// A value a model gave that satisfies the schema, and how many attempts it took.
#[derive(Clone, Debug, PartialEq)]
pub struct Reasoned {
    /// The structured answer, valid against the schema.
    pub value: Value,
    /// The attempt that gave it, counting from 1.
    pub attempts: u64,
}

/// What was wrong with one attempt.
enum Problem {
    /// The model answered in prose.
    Text,
    /// The model wrote something for the structured channel that is not JSON.
    NotJson(String),
    /// The answer broke the schema: each violation, located.
    Schema(Vec<String>),
}

impl Problem {
    /// The user message that tells the model what was wrong and asks again.
    fn corrective(&self) -> String {
        match self {
            Problem::Text => String::from(
                "Your previous answer was plain text, but a structured answer is required. \
                 Answer again with a JSON value that satisfies the JSON Schema, through the answer tool when one is offered.",
            ),
            Problem::NotJson(detail) => format!(
                "Your previous answer could not be read: {detail}. \
                 Answer again with a JSON value that satisfies the JSON Schema."
            ),
            Problem::Schema(issues) => format!(
                "Your previous answer does not satisfy the required JSON Schema: {}. \
                 Answer again with a JSON value that fixes {}.",
                issues.join("; "),
                if issues.len() == 1 {
                    "this problem"
                } else {
                    "these problems"
                }
            ),
        }
    }

    /// The problem as the end of `reasoning_failed`'s message.
    fn summary(&self) -> String {
        match self {
            Problem::Text => String::from("was plain text, not a structured answer"),
            Problem::NotJson(detail) => format!("could not be read ({detail})"),
            Problem::Schema(issues) => format!("did not satisfy the output schema: {}", issues.join("; ")),
        }
    }
}

/// Asks `model` for an answer to `prompt` satisfying `schema` (a JSON Schema, compiled once), up to
/// `max_attempts` times.
///
/// The conversation opens with a system message asking for a structured answer only, then
/// `prompt` as the user's message. Each failed attempt — a text answer, an answer that is not JSON
/// (`model_answer_not_json`), an answer that breaks the schema — adds the model's answer as an
/// assistant message and a user message saying exactly what was wrong (every schema violation, up
/// to eight, with where it is), and the next attempt sees the whole conversation. Any other error
/// from the model (the server unreachable, a timeout) ends the loop at once: the model client has
/// already retried what is worth retrying.
///
/// # Errors
///
/// - `max_attempts_invalid` when `max_attempts` is 0;
/// - `output_schema_invalid` when `schema` is not a valid JSON Schema;
/// - `reasoning_failed` when every attempt failed, naming the attempts and the last problem;
/// - the model's own error when it fails otherwise.
pub async fn reason(
    model: &dyn Model,
    prompt: &str,
    schema: &Value,
    max_attempts: u64,
) -> Result<Reasoned, ModelError> {
    if max_attempts == 0 {
        return Err(ModelError::new(
            ModelErrorKind::MaxAttemptsInvalid,
            "reasoning needs at least one attempt, and 0 were allowed (set maxAttempts to 1 or more)",
        ));
    }
    let validator = jsonschema::validator_for(schema).map_err(|error| {
        ModelError::new(
            ModelErrorKind::OutputSchemaInvalid,
            format!(
                "the output schema is not a valid JSON Schema: {} (fix the schema at {})",
                bounded(&error.to_string(), MAX_ISSUE_BYTES),
                location(&error.schema_path().to_string()),
            ),
        )
    })?;
    let mut messages = vec![Message::system(SYSTEM_PROMPT), Message::user(prompt)];
    let mut attempt = 0;
    loop {
        attempt += 1;
        let turn = Turn {
            messages: messages.clone(),
            output_schema: Some(schema.clone()),
        };
        let (echo, problem) = match model.answer(turn).await {
            Ok(Answer::Structured(value)) => {
                let issues: Vec<String> = validator
                    .iter_errors(&value)
                    .take(MAX_ISSUES)
                    .map(|error| {
                        format!(
                            "at {}: {}",
                            location(&error.instance_path().to_string()),
                            bounded(&error.to_string(), MAX_ISSUE_BYTES)
                        )
                    })
                    .collect();
                if issues.is_empty() {
                    return Ok(Reasoned {
                        value,
                        attempts: attempt,
                    });
                }
                (Some(value.to_string()), Problem::Schema(issues))
            }
            Ok(Answer::Text(text)) => (Some(text), Problem::Text),
            Err(error) if error.kind() == ModelErrorKind::AnswerNotJson => {
                (None, Problem::NotJson(error.message().to_owned()))
            }
            Err(error) => return Err(error),
        };
        if attempt >= max_attempts {
            let plural = if attempt == 1 { "" } else { "s" };
            return Err(ModelError::new(
                ModelErrorKind::ReasoningFailed,
                format!(
                    "reasoning failed after {attempt} attempt{plural}: the last answer {} \
                     (allow more attempts, or make the prompt or the schema clearer)",
                    problem.summary()
                ),
            ));
        }
        if let Some(echo) = echo {
            messages.push(Message::assistant(bounded(&echo, MAX_ECHO_BYTES)));
        }
        messages.push(Message::user(problem.corrective()));
    }
}

/// A JSON Pointer as a message names it: the root has no pointer of its own.
fn location(pointer: &str) -> String {
    if pointer.is_empty() {
        String::from("the root")
    } else {
        pointer.to_owned()
    }
}
