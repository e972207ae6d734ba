//! The one error type of this crate: a stable code and a message written for the person who hits it.

use std::fmt;

/// Why a model could not be built or could not answer.
///
/// The [`code`](ModelError::code) is stable (snake_case, like the plan runtime's codes); the
/// [message](ModelError::message) names what went wrong and what to do about it. See the crate
/// documentation for the table of codes.
#[derive(Clone, PartialEq, Eq)]
pub struct ModelError(Box<Inner>);

#[derive(Clone, PartialEq, Eq)]
struct Inner {
    kind: ModelErrorKind,
    message: String,
}

/// The kinds of [`ModelError`], one per code. More may be added.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ModelErrorKind {
    /// `model_file_invalid`: a model file is not one of the documented shapes.
    FileInvalid,
    /// `model_key_missing`: the environment variable the model file names for the API key is unset
    /// or empty.
    KeyMissing,
    /// `model_unconfigured`: no model file was given and the environment names no model, or names
    /// a base URL that is not an http or https URL.
    Unconfigured,
    /// `model_exhausted`: a scripted model has given all of its answers.
    Exhausted,
    /// `model_http_error`: the model server refused the request (a 4xx status other than 401, 403
    /// and 429).
    HttpError,
    /// `model_auth_failed`: the model server refused the API key (401 or 403).
    AuthFailed,
    /// `model_rate_limited`: the model server kept answering 429 through every retry.
    RateLimited,
    /// `model_unavailable`: the model server could not be reached, or kept failing with a 5xx
    /// status through every retry.
    Unavailable,
    /// `model_timeout`: the model server did not answer within the request timeout.
    Timeout,
    /// `model_reply_invalid`: the server's reply is not a chat completion writ can read.
    ReplyInvalid,
    /// `model_answer_not_json`: the model was asked for a structured answer and wrote text that is
    /// not JSON. [`reason`](crate::reason) treats it as a failed attempt and corrects the model.
    AnswerNotJson,
    /// `output_schema_invalid`: the JSON Schema an answer must satisfy does not compile.
    OutputSchemaInvalid,
    /// `max_attempts_invalid`: [`reason`](crate::reason) was given no attempt to make.
    MaxAttemptsInvalid,
    /// `reasoning_failed`: no attempt gave a structured answer that satisfies the schema.
    ReasoningFailed,
}

impl ModelErrorKind {
    /// The stable code.
    pub fn as_str(self) -> &'static str {
        match self {
            ModelErrorKind::FileInvalid => "model_file_invalid",
            ModelErrorKind::KeyMissing => "model_key_missing",
            ModelErrorKind::Unconfigured => "model_unconfigured",
            ModelErrorKind::Exhausted => "model_exhausted",
            ModelErrorKind::HttpError => "model_http_error",
            ModelErrorKind::AuthFailed => "model_auth_failed",
            ModelErrorKind::RateLimited => "model_rate_limited",
            ModelErrorKind::Unavailable => "model_unavailable",
            ModelErrorKind::Timeout => "model_timeout",
            ModelErrorKind::ReplyInvalid => "model_reply_invalid",
            ModelErrorKind::AnswerNotJson => "model_answer_not_json",
            ModelErrorKind::OutputSchemaInvalid => "output_schema_invalid",
            ModelErrorKind::MaxAttemptsInvalid => "max_attempts_invalid",
            ModelErrorKind::ReasoningFailed => "reasoning_failed",
        }
    }
}

impl ModelError {
    /// An error of `kind` with `message`, for [`Model`](crate::Model) implementations outside this
    /// crate. Messages start in lowercase, end without a period, and say what to do.
    #[cold]
    pub fn new(kind: ModelErrorKind, message: impl Into<String>) -> ModelError {
        ModelError(Box::new(Inner {
            kind,
            message: message.into(),
        }))
    }

    /// The stable code, such as `model_timeout`.
    pub fn code(&self) -> &'static str {
        self.0.kind.as_str()
    }

    /// The kind, one per code.
    pub fn kind(&self) -> ModelErrorKind {
        self.0.kind
    }

    /// What went wrong and what to do about it.
    pub fn message(&self) -> &str {
        &self.0.message
    }
}

impl fmt::Display for ModelError {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str(&self.0.message)
    }
}

impl fmt::Debug for ModelError {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(formatter, "ModelError({}: {})", self.code(), self.0.message)
    }
}

impl std::error::Error for ModelError {}

/// `text` cut to at most `max` bytes at a character boundary, marked when cut; for quoting what a
/// server or a model wrote in a message without letting it grow the message without bound.
pub(crate) fn bounded(text: &str, max: usize) -> String {
    if text.len() <= max {
        return text.to_owned();
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}… ({} bytes in all)", &text[..end], text.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounded_cuts_at_a_character_boundary() {
        assert_eq!(bounded("short", 10), "short");
        assert_eq!(bounded("ééé", 3), "é… (6 bytes in all)");
    }
}
