//! `Error` and `Reason`: the one failure type of the language, with seed 004's reasons.

use std::fmt;

use writ_core::{Bound, BudgetExceeded};

/// Why an expression failed: the stable codes of seed 004.
///
/// The split between [`Reason::ExpressionRuntime`] and [`Reason::GuardrailViolation`] follows one
/// rule: `expression-runtime` when plain JavaScript would have thrown too, `guardrail-violation`
/// when JavaScript would have run and writ refuses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Reason {
    /// The source is empty, too long, too deep, or not one JavaScript expression.
    ExpressionSyntax,
    /// Outside the language, or a read or call writ refuses where JavaScript would have run.
    GuardrailViolation,
    /// A free name that no context, host function or global provides.
    UnknownReference,
    /// A step, time, string, array or allocation bound was crossed.
    BudgetExceeded,
    /// A host function's input schema rejected its argument.
    InvalidArguments,
    /// A host function failed, or its output broke its schema or was not plain data.
    HostFunction,
    /// Wrong values where plain JavaScript would have thrown too; [`Error::thrown`] names the
    /// error JavaScript throws.
    ExpressionRuntime,
}

impl Reason {
    /// The stable code, as the CLI envelope writes it.
    pub fn code(self) -> &'static str {
        match self {
            Reason::ExpressionSyntax => "expression-syntax",
            Reason::GuardrailViolation => "guardrail-violation",
            Reason::UnknownReference => "unknown-reference",
            Reason::BudgetExceeded => "budget-exceeded",
            Reason::InvalidArguments => "invalid-arguments",
            Reason::HostFunction => "host-function",
            Reason::ExpressionRuntime => "expression-runtime",
        }
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// The JavaScript error constructor a runtime failure stands for: what plain JavaScript (node 20)
/// throws for the same expression over the same data.
///
/// Every [`Reason::ExpressionRuntime`] error carries one, so a host can treat a `TypeError` (a
/// read from null, a call of something that is not a function, a spread of something that is
/// not iterable) apart from a value out of range without reading the message.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Thrown {
    /// `TypeError`: a value of the wrong kind for the operation.
    TypeError,
    /// `RangeError`: a number or option value outside what the operation accepts, a length
    /// JavaScript cannot build, or nesting past the call stack.
    RangeError,
    /// `SyntaxError`: text `JSON.parse` cannot read. (Source that does not parse is
    /// [`Reason::ExpressionSyntax`], never a runtime error.)
    SyntaxError,
    /// `URIError`: text `encodeURIComponent` or `decodeURIComponent` cannot convert.
    UriError,
    /// `ReferenceError`: a parameter read before it is initialized, by a default that reads
    /// its own parameter or a later one (the temporal dead zone).
    ReferenceError,
}

impl Thrown {
    /// The constructor's name, as JavaScript's `error.constructor.name` gives it.
    pub fn name(self) -> &'static str {
        match self {
            Thrown::TypeError => "TypeError",
            Thrown::RangeError => "RangeError",
            Thrown::SyntaxError => "SyntaxError",
            Thrown::UriError => "URIError",
            Thrown::ReferenceError => "ReferenceError",
        }
    }
}

impl fmt::Display for Thrown {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A failed expression: a [`Reason`] and a message for the person (or model) who wrote it, and
/// for a runtime error the JavaScript error it stands for.
///
/// Boxed, so that `Result<Value, Error>` stays two words on the evaluator's hot path.
#[derive(Clone, PartialEq, Eq)]
pub struct Error(Box<Inner>);

// The evaluator returns `Result<Value>` from every node: the error must not widen it.
const _: () =
    assert!(std::mem::size_of::<Result<writ_core::Value, Error>>() == std::mem::size_of::<writ_core::Value>());

/// What an [`Error`] boxes.
#[derive(Clone, PartialEq, Eq)]
struct Inner {
    /// The stable code.
    reason: Reason,
    /// `Some` exactly when `reason` is [`Reason::ExpressionRuntime`]; the constructors keep it so.
    thrown: Option<Thrown>,
    /// What is wrong, and what to write instead.
    message: String,
}

impl Error {
    /// The one place an error is built. Private, so that a runtime error can only come from a
    /// constructor that names its [`Thrown`].
    #[cold]
    fn build(reason: Reason, thrown: Option<Thrown>, message: impl Into<String>) -> Error {
        Error(Box::new(Inner {
            reason,
            thrown,
            message: message.into(),
        }))
    }

    /// Source that is not one valid expression.
    #[cold]
    pub fn syntax(message: impl Into<String>) -> Error {
        Error::build(Reason::ExpressionSyntax, None, message)
    }

    /// A refusal where JavaScript would have run.
    #[cold]
    pub fn guardrail(message: impl Into<String>) -> Error {
        Error::build(Reason::GuardrailViolation, None, message)
    }

    /// A free name that no context, host function or global provides.
    #[cold]
    pub fn unknown_reference(message: impl Into<String>) -> Error {
        Error::build(Reason::UnknownReference, None, message)
    }

    /// A host function's argument its input schema rejects.
    #[cold]
    pub fn invalid_arguments(message: impl Into<String>) -> Error {
        Error::build(Reason::InvalidArguments, None, message)
    }

    /// A host function that failed, broke its output schema, or was bound wrongly.
    #[cold]
    pub fn host_function(message: impl Into<String>) -> Error {
        Error::build(Reason::HostFunction, None, message)
    }

    /// A budget error with its own message (the combining-marks rule).
    #[cold]
    pub fn budget(message: impl Into<String>) -> Error {
        Error::build(Reason::BudgetExceeded, None, message)
    }

    /// A failure where JavaScript would have thrown a `TypeError`.
    #[cold]
    pub fn type_error(message: impl Into<String>) -> Error {
        Error::build(Reason::ExpressionRuntime, Some(Thrown::TypeError), message)
    }

    /// A failure where JavaScript would have thrown a `RangeError`.
    #[cold]
    pub fn range_error(message: impl Into<String>) -> Error {
        Error::build(Reason::ExpressionRuntime, Some(Thrown::RangeError), message)
    }

    /// Text `JSON.parse` rejects, where JavaScript throws a `SyntaxError`.
    #[cold]
    pub fn json_syntax_error(message: impl Into<String>) -> Error {
        Error::build(Reason::ExpressionRuntime, Some(Thrown::SyntaxError), message)
    }

    /// Text the URI functions reject, where JavaScript throws a `URIError`.
    #[cold]
    pub fn uri_error(message: impl Into<String>) -> Error {
        Error::build(Reason::ExpressionRuntime, Some(Thrown::UriError), message)
    }

    /// A read of a parameter before it is initialized, where JavaScript throws a
    /// `ReferenceError`.
    #[cold]
    pub(crate) fn reference_error(message: impl Into<String>) -> Error {
        Error::build(Reason::ExpressionRuntime, Some(Thrown::ReferenceError), message)
    }

    /// Why the expression failed.
    pub fn reason(&self) -> Reason {
        self.0.reason
    }

    /// The JavaScript error a [`Reason::ExpressionRuntime`] error stands for; `None` for every
    /// other reason.
    pub fn thrown(&self) -> Option<Thrown> {
        self.0.thrown
    }

    /// What is wrong, and what to write instead.
    pub fn message(&self) -> &str {
        &self.0.message
    }
}

impl From<BudgetExceeded> for Error {
    #[cold]
    fn from(exceeded: BudgetExceeded) -> Error {
        let limit = exceeded.limit;
        let message = match exceeded.bound {
            Bound::Steps => format!("Expression exceeded its step budget ({limit} steps)"),
            Bound::Time => format!("Expression exceeded its time budget ({limit} ms)"),
            Bound::StringLength => format!("Expression tried to build a string longer than {limit} characters"),
            Bound::ArrayLength => format!("Expression tried to build an array of more than {limit} items"),
            Bound::TotalAllocation => format!("Expression exceeded its total allocation budget ({limit} units)"),
            Bound::Depth => format!("Expression nests deeper than {limit} levels"),
            _ => exceeded.to_string(),
        };
        Error::budget(message)
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0.thrown {
            Some(thrown) => write!(f, "{} ({thrown}): {}", self.0.reason, self.0.message),
            None => write!(f, "{}: {}", self.0.reason, self.0.message),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0.message)
    }
}

impl std::error::Error for Error {}

/// The result of every fallible step inside the evaluator.
pub type Result<T, E = Error> = std::result::Result<T, E>;
