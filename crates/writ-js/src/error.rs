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
    /// Wrong values where plain JavaScript would have thrown too.
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

/// A failed expression: a [`Reason`] and a message for the person (or model) who wrote it.
///
/// Boxed, so that `Result<Value, Error>` stays two words on the evaluator's hot path.
#[derive(Clone, PartialEq, Eq)]
pub struct Error(Box<Inner>);

#[derive(Clone, PartialEq, Eq)]
struct Inner {
    reason: Reason,
    message: String,
}

impl Error {
    /// An error with `reason` and `message`.
    #[cold]
    pub fn new(reason: Reason, message: impl Into<String>) -> Error {
        Error(Box::new(Inner {
            reason,
            message: message.into(),
        }))
    }

    /// Source that is not one valid expression.
    #[cold]
    pub fn syntax(message: impl Into<String>) -> Error {
        Error::new(Reason::ExpressionSyntax, message)
    }

    /// A refusal where JavaScript would have run.
    #[cold]
    pub fn guardrail(message: impl Into<String>) -> Error {
        Error::new(Reason::GuardrailViolation, message)
    }

    /// A failure where JavaScript would have thrown too.
    #[cold]
    pub fn runtime(message: impl Into<String>) -> Error {
        Error::new(Reason::ExpressionRuntime, message)
    }

    /// A budget error with its own message (the combining-marks rule).
    #[cold]
    pub fn budget(message: impl Into<String>) -> Error {
        Error::new(Reason::BudgetExceeded, message)
    }

    /// Why the expression failed.
    pub fn reason(&self) -> Reason {
        self.0.reason
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
        Error::new(Reason::BudgetExceeded, message)
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.0.reason, self.0.message)
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
