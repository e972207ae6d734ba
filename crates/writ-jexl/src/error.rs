//! Errors: a stable code, a message that says what to write instead, and where.

use std::fmt;

use writ_core::{Bound, BudgetExceeded};

/// A failed compile or evaluation.
///
/// [`Error::code`] is stable (hosts and the corpus match on it); the message is free to improve.
/// The codes:
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
/// One pointer wide, so the evaluator's results stay as small as its values.
#[derive(Clone, PartialEq, Eq)]
pub struct Error(Box<Details>);

/// What an [`Error`] holds.
#[derive(Clone, PartialEq, Eq)]
struct Details {
    /// The stable code.
    code: &'static str,
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
    pub(crate) fn new(code: &'static str, message: impl Into<String>) -> Error {
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
        Error::new("jexl-syntax", message).at(position)
    }

    /// A runtime error (what jexl-js throws as a `TypeError`) at `position`.
    #[cold]
    #[inline(never)]
    pub(crate) fn runtime(position: usize, message: impl Into<String>) -> Error {
        Error::new("jexl-runtime", message).at(position)
    }

    /// The same error pointing at `position`, unless it already points somewhere.
    pub(crate) fn at(mut self, position: usize) -> Error {
        self.0.position.get_or_insert(position);
        self
    }

    /// The stable code: `jexl-syntax`, `jexl-dialect`, `jexl-unknown-transform`,
    /// `jexl-unknown-function`, `jexl-transform`, `jexl-runtime` or `budget-exceeded`.
    pub fn code(&self) -> &'static str {
        self.0.code
    }

    /// What is wrong, where, and what to write instead.
    pub fn message(&self) -> &str {
        &self.0.message
    }

    /// The byte offset in the source the error points at, when it points somewhere.
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
        let mut error = Error::new("budget-exceeded", format!("{exceeded}; {advice}"));
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
