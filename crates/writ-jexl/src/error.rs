//! Errors: a stable code, a message that says what to write instead, and where.

use std::fmt;

use writ_core::{Bound, BudgetExceeded};

/// A failed compile or evaluation.
///
/// [`Error::code`] is stable (hosts and the corpus match on it): a closed [`Code`], written as
/// the strings below. The message is free to improve. The codes:
///
/// | code | when |
/// |---|---|
/// | `jexl-syntax` | the source does not lex or parse as Jexl 2.3; or a part of it left empty (`a[]`, `{a:}`, `false ? 1 :`) is reached (jexl-js parses those and fails when it evaluates them, so `true ? 1 :` is 1) |
/// | `jexl-dialect` | it does not parse, and the [linter](crate::lint) recognises a JavaScript habit (`===`, `!==`, `ctx.`); the message is the lint's |
/// | `jexl-unknown-transform` | `x\|t` names a transform the host did not register (raised when the call is reached, as jexl-js does), or [`Jexl::with_standard_transforms`](crate::Jexl::with_standard_transforms) was given a name outside the standard set |
/// | `jexl-unknown-function` | `f(…)` names a function the host did not register (raised when the call is reached) |
/// | `jexl-transform` | a registered transform or function returned an error |
/// | `jexl-runtime` | an evaluation error jexl-js throws too: reading a property of `undefined` or `null` (`missing[0]`, `[].name`) |
/// | `budget-exceeded` | a bound of the [`Limits`](writ_core::Limits) was reached, the depth limit included when the source nests past it |
///
/// Opaque and one pointer wide, so the evaluator's results stay as small as its values.
#[derive(Clone, PartialEq, Eq)]
pub struct Error(Box<Details>);

/// The code of an [`Error`]: what kind of failure it is, as the table on [`Error`] says.
/// [`Code::as_str`] is the stable text hosts and the corpus match on; codes are never renamed or
/// reused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Code {
    /// `jexl-syntax`: the source does not lex or parse, or an empty part of it is reached.
    Syntax,
    /// `jexl-dialect`: it does not parse, and the linter recognises a JavaScript habit.
    Dialect,
    /// `jexl-unknown-transform`: a transform the host did not register.
    UnknownTransform,
    /// `jexl-unknown-function`: a function the host did not register.
    UnknownFunction,
    /// `jexl-transform`: a registered transform or function returned an error.
    Transform,
    /// `jexl-runtime`: an evaluation error jexl-js throws too.
    Runtime,
    /// `budget-exceeded`: a bound of the limits was reached.
    BudgetExceeded,
}

impl Code {
    /// Every code.
    pub const ALL: &'static [Code] = &[
        Code::Syntax,
        Code::Dialect,
        Code::UnknownTransform,
        Code::UnknownFunction,
        Code::Transform,
        Code::Runtime,
        Code::BudgetExceeded,
    ];

    /// The stable text: `jexl-syntax`, `jexl-dialect`, `jexl-unknown-transform`,
    /// `jexl-unknown-function`, `jexl-transform`, `jexl-runtime` or `budget-exceeded`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Code::Syntax => "jexl-syntax",
            Code::Dialect => "jexl-dialect",
            Code::UnknownTransform => "jexl-unknown-transform",
            Code::UnknownFunction => "jexl-unknown-function",
            Code::Transform => "jexl-transform",
            Code::Runtime => "jexl-runtime",
            Code::BudgetExceeded => "budget-exceeded",
        }
    }
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What an [`Error`] holds.
#[derive(Clone, PartialEq, Eq)]
struct Details {
    /// The stable code.
    code: Code,
    /// What is wrong and what to write instead.
    message: String,
    /// The byte offset in the source the error points at, when there is one.
    position: Option<usize>,
    /// The bound crossed, for `budget-exceeded`.
    budget: Option<BudgetExceeded>,
}

/// The result of compiling or evaluating.
pub(crate) type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    /// An error with `code` and `message`.
    #[cold]
    #[inline(never)]
    pub(crate) fn new(code: Code, message: impl Into<String>) -> Error {
        Error(Box::new(Details {
            code,
            message: message.into(),
            position: None,
            budget: None,
        }))
    }

    /// A syntax error at `position`.
    #[cold]
    #[inline(never)]
    pub(crate) fn syntax(position: usize, message: impl Into<String>) -> Error {
        Error::new(Code::Syntax, message).at(position)
    }

    /// A runtime error (what jexl-js throws as a `TypeError`) at `position`.
    #[cold]
    #[inline(never)]
    pub(crate) fn runtime(position: usize, message: impl Into<String>) -> Error {
        Error::new(Code::Runtime, message).at(position)
    }

    /// The same error pointing at `position`, unless it already points somewhere.
    pub(crate) fn at(mut self, position: usize) -> Error {
        self.0.position.get_or_insert(position);
        self
    }

    /// The stable code (its text is [`Code::as_str`]).
    pub fn code(&self) -> Code {
        self.0.code
    }

    /// What is wrong, where, and what to write instead.
    pub fn message(&self) -> &str {
        &self.0.message
    }

    /// Where in the source the error points, when it points somewhere: a byte offset from the
    /// start of the source (UTF-8), at the start of the token or construct the error is about.
    pub fn position(&self) -> Option<usize> {
        self.0.position
    }

    /// The bound that was crossed, for a `budget-exceeded` error.
    pub fn budget(&self) -> Option<BudgetExceeded> {
        self.0.budget
    }
}

impl From<BudgetExceeded> for Error {
    #[cold]
    #[inline(never)]
    fn from(exceeded: BudgetExceeded) -> Error {
        let advice = match exceeded.bound {
            Bound::Steps => "the expression did too much work: filter less data, or raise the `steps` limit",
            Bound::Time => "the expression ran too long: filter less data, or raise the `time` limit",
            Bound::StringLength => {
                "a string grew too long: build shorter strings, or raise the `max_string_length` limit"
            }
            Bound::ArrayLength => "an array grew too long: build shorter arrays, or raise the `max_array_length` limit",
            Bound::TotalAllocation => {
                "the expression built too much: build less, or raise the `max_total_allocation` limit"
            }
            Bound::Depth => "the expression nests too deeply: split it up, or raise the `max_depth` limit",
            _ => "the host stopped the evaluation",
        };
        let mut error = Error::new(Code::BudgetExceeded, format!("{exceeded}; {advice}"));
        error.0.budget = Some(exceeded);
        error
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.0.code, self.0.message)
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Error")
            .field("code", &self.0.code)
            .field("message", &self.0.message)
            .field("position", &self.0.position)
            .finish()
    }
}

impl std::error::Error for Error {}

const _: () = assert!(std::mem::size_of::<Error>() == std::mem::size_of::<usize>());

#[cfg(test)]
mod code_tests {
    use super::Code;

    #[test]
    fn every_code_is_written_once_in_kebab_case() {
        let mut seen = std::collections::HashSet::new();
        for &code in Code::ALL {
            let text = code.as_str();
            assert!(
                text.bytes().all(|b| b.is_ascii_lowercase() || b == b'-')
                    && !text.starts_with('-')
                    && !text.ends_with('-'),
                "{text}"
            );
            assert!(text.starts_with("jexl-") || text == "budget-exceeded", "{text}");
            assert_eq!(code.to_string(), text);
            assert!(seen.insert(text), "{text} twice");
        }
        assert_eq!(seen.len(), 7);
    }
}
