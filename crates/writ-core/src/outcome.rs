//! `Outcome`: the answer of one evaluation, and its JSON envelope.

use std::fmt;

use crate::{Diagnostic, JsonTooLong, Value, parse_json, write_json_string};

/// The most bytes an answer's JSON text may take in an envelope (256 MiB). A value can hold
/// one array or object many times over, so its text can be exponentially longer than the
/// memory it takes and the work it took to build; past this, the envelope is the error
/// [`ANSWER_TOO_LARGE`] instead.
pub const MAX_ANSWER_BYTES: usize = 256 << 20;

/// The code of an answer whose JSON text is longer than [`MAX_ANSWER_BYTES`], the same in every
/// language.
pub const ANSWER_TOO_LARGE: &str = "answer-too-large";

/// The answer of one evaluation in any writ language: a value, no value, or an error.
///
/// Its envelope is the line `writ eval` prints and the node oracle writes, so that writ and a
/// reference implementation can be compared case by case:
///
/// ```text
/// {"ok":true,"value":<the value, as JSON.stringify writes it>}
/// {"ok":true,"undefined":true}
/// {"ok":false,"error":{"code":"<stable code>","message":"<what is wrong and what to write instead>"}}
/// ```
///
/// The format only grows: fields may be added, and none is repurposed.
///
/// # Example
///
/// ```
/// use writ_core::{Outcome, Value};
///
/// let line = Outcome::from(Value::from(1e21)).to_envelope();
/// assert_eq!(line, r#"{"ok":true,"value":1e+21}"#);
/// assert_eq!(Outcome::parse_envelope(&line).unwrap(), Outcome::Value(Value::from(1e21)));
/// ```
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    /// A value that JSON can write. Never `undefined`: that is [`Outcome::Undefined`].
    Value(Value),
    /// No value: JavaScript's `undefined`, JSONata's empty result.
    Undefined,
    /// A refusal or a failure.
    Error {
        /// The stable code, as the language's specification names it.
        code: String,
        /// What is wrong, where, and what to write instead.
        message: String,
    },
}

impl From<Value> for Outcome {
    fn from(value: Value) -> Outcome {
        match value {
            Value::Undefined => Outcome::Undefined,
            value => Outcome::Value(value),
        }
    }
}

impl From<&Diagnostic> for Outcome {
    /// The diagnostic's code, and its message with its help.
    fn from(diagnostic: &Diagnostic) -> Outcome {
        Outcome::Error {
            code: diagnostic.code().to_owned(),
            message: diagnostic.full_message(),
        }
    }
}

impl From<Result<Value, Diagnostic>> for Outcome {
    /// The answer of an [`Engine`](crate::Engine) evaluation: its value, no value, or its
    /// diagnostic.
    fn from(result: Result<Value, Diagnostic>) -> Outcome {
        match result {
            Ok(value) => Outcome::from(value),
            Err(diagnostic) => Outcome::from(&diagnostic),
        }
    }
}

impl Outcome {
    /// An error outcome.
    pub fn error(code: impl Into<String>, message: impl fmt::Display) -> Outcome {
        Outcome::Error {
            code: code.into(),
            message: message.to_string(),
        }
    }

    /// The error an answer gets when its JSON text is longer than [`MAX_ANSWER_BYTES`]: code
    /// `answer-too-large`, in every language.
    pub fn answer_too_long(too_long: JsonTooLong) -> Outcome {
        Outcome::error(
            ANSWER_TOO_LARGE,
            format!(
                "the answer's JSON text is longer than {} bytes, the most an answer may take (a value \
                 that holds the same array or object many times over is written out in full each \
                 time); return less, such as a count, a sample or a summary",
                too_long.limit
            ),
        )
    }

    /// True unless this is an error.
    pub fn is_ok(&self) -> bool {
        !matches!(self, Outcome::Error { .. })
    }

    /// The envelope, one line of JSON with no trailing newline.
    pub fn to_envelope(&self) -> String {
        let mut out = String::new();
        match self {
            Outcome::Value(value) => match value.to_json_string_within(MAX_ANSWER_BYTES) {
                Ok(text) => {
                    out.push_str(r#"{"ok":true,"value":"#);
                    out.push_str(text.as_deref().unwrap_or("null"));
                    out.push('}');
                }
                Err(too_long) => return Outcome::answer_too_long(too_long).to_envelope(),
            },
            Outcome::Undefined => out.push_str(r#"{"ok":true,"undefined":true}"#),
            Outcome::Error { code, message } => {
                out.push_str(r#"{"ok":false,"error":{"code":"#);
                write_json_string(&code.as_str().into(), &mut out);
                out.push_str(r#","message":"#);
                write_json_string(&message.as_str().into(), &mut out);
                out.push_str("}}");
            }
        }
        out
    }

    /// Reads an envelope written by [`Outcome::to_envelope`] or by the node oracle.
    ///
    /// # Errors
    ///
    /// `envelope-invalid` when the line is not JSON or not an envelope.
    pub fn parse_envelope(line: &str) -> Result<Outcome, EnvelopeError> {
        let invalid = |reason: String| EnvelopeError { reason };
        let value = parse_json(line).map_err(|error| invalid(error.to_string()))?;
        let object = value.as_object().ok_or_else(|| invalid("not a JSON object".into()))?;
        match object.get_str("ok").and_then(Value::as_bool) {
            Some(true) => {
                if let Some(value) = object.get_str("value") {
                    Ok(Outcome::Value(value.clone()))
                } else if object.get_str("undefined").and_then(Value::as_bool) == Some(true) {
                    Ok(Outcome::Undefined)
                } else {
                    Err(invalid("an ok envelope needs \"value\" or \"undefined\":true".into()))
                }
            }
            Some(false) => {
                let error = object
                    .get_str("error")
                    .and_then(Value::as_object)
                    .ok_or_else(|| invalid("a failed envelope needs an \"error\" object".into()))?;
                let field = |name: &str| {
                    error
                        .get_str(name)
                        .and_then(Value::as_str)
                        .map(|text| text.to_string_lossy().into_owned())
                        .ok_or_else(|| invalid(format!("the error needs a string \"{name}\"")))
                };
                Ok(Outcome::Error {
                    code: field("code")?,
                    message: field("message")?,
                })
            }
            None => Err(invalid("\"ok\" must be true or false".into())),
        }
    }
}

/// A line that is not a result envelope.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EnvelopeError {
    reason: String,
}

impl EnvelopeError {
    /// The stable code: `envelope-invalid`.
    pub fn code(&self) -> &'static str {
        "envelope-invalid"
    }
}

impl fmt::Display for EnvelopeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "not a result envelope: {}", self.reason)
    }
}

impl std::error::Error for EnvelopeError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_answer_too_long_to_write_is_an_error_found_without_writing_it() {
        // Forty levels of [x, x]: 2^40 copies of "x" in memory of forty arrays.
        let mut value = Value::from("x");
        for _ in 0..40 {
            value = Value::from(vec![value.clone(), value]);
        }
        let envelope = Outcome::from(value.clone()).to_envelope();
        assert!(
            envelope.starts_with(r#"{"ok":false,"error":{"code":"answer-too-large","message":"the answer's JSON text is longer than 268435456 bytes"#),
            "{envelope}"
        );
        assert_eq!(
            value.to_json_string_within(1000),
            Err(crate::JsonTooLong { limit: 1000 })
        );
        // At and under the limit, the text is written whole.
        let small = Value::from(vec![Value::from("x"), Value::from(1.0)]);
        assert_eq!(small.to_json_string_within(9), Ok(Some(r#"["x",1]"#.to_owned())));
        assert_eq!(small.to_json_string_within(6), Err(crate::JsonTooLong { limit: 6 }));
        assert_eq!(Value::Undefined.to_json_string_within(0), Ok(None));
    }

    #[test]
    fn envelopes_round_trip() {
        let cases = [
            (
                Outcome::from(parse_json(r#"{"a":[1,"\u00e9"]}"#).expect("valid")),
                "{\"ok\":true,\"value\":{\"a\":[1,\"\u{e9}\"]}}",
            ),
            (Outcome::Undefined, r#"{"ok":true,"undefined":true}"#),
            (
                Outcome::error("budget-exceeded", "step limit of 10 reached \"here\""),
                r#"{"ok":false,"error":{"code":"budget-exceeded","message":"step limit of 10 reached \"here\""}}"#,
            ),
        ];
        for (outcome, line) in cases {
            assert_eq!(outcome.to_envelope(), line);
            assert_eq!(Outcome::parse_envelope(line), Ok(outcome));
        }
    }

    #[test]
    fn malformed_envelopes_are_refused() {
        for line in [
            "",
            "[]",
            r#"{"ok":1}"#,
            r#"{"ok":true}"#,
            r#"{"ok":false,"error":{"code":1}}"#,
        ] {
            assert_eq!(
                Outcome::parse_envelope(line).expect_err(line).code(),
                "envelope-invalid"
            );
        }
    }
}
