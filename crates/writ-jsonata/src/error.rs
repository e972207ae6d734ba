//! JSONata errors: JSONata's own codes, a position, and a message that says what to write.

use std::fmt;

use writ_core::{Bound, BudgetExceeded};

/// A failed compile or evaluation.
///
/// `code` is JSONata's stable error code (`S0201`, `T2001`, `D1012`, …): the same code
/// jsonata-js 2.2.2 raises for the same expression, so hosts can match on it. The message is
/// writ's own and names what to write instead where there is something to say.
///
/// One pointer wide (the details live behind it, reached through `Deref`), so that the
/// evaluator's `Result`s stay as small as its values.
#[derive(Clone, Debug, PartialEq)]
pub struct Error(Box<ErrorDetails>);

/// What an [`Error`] says: its code and what it points at.
#[derive(Clone, Debug, PartialEq)]
pub struct ErrorDetails {
    /// JSONata's error code.
    pub code: &'static str,
    /// The character offset in the expression the error points at, when known.
    pub position: Option<usize>,
    /// The token or function name the error concerns, when there is one.
    pub token: Option<String>,
    /// The value the error concerns, written as JSON, when there is one.
    pub value: Option<String>,
    /// A second value (for type mismatches between two operands).
    pub value2: Option<String>,
    /// A 1-based argument index (signature errors).
    pub index: Option<usize>,
    /// A message given by the expression itself (`$error`, `$assert`), or extra detail.
    pub detail: Option<String>,
}

impl std::ops::Deref for Error {
    type Target = ErrorDetails;
    fn deref(&self) -> &ErrorDetails {
        &self.0
    }
}

impl std::ops::DerefMut for Error {
    fn deref_mut(&mut self) -> &mut ErrorDetails {
        &mut self.0
    }
}

/// The result of compiling or evaluating.
pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    /// An error with `code` and nothing else yet.
    pub fn new(code: &'static str) -> Error {
        Error(Box::new(ErrorDetails {
            code,
            position: None,
            token: None,
            value: None,
            value2: None,
            index: None,
            detail: None,
        }))
    }

    /// The same error at `position`, unless it already has one.
    pub fn at(mut self, position: usize) -> Error {
        self.position.get_or_insert(position);
        self
    }

    /// The same error about `token`.
    pub fn token(mut self, token: impl Into<String>) -> Error {
        self.token = Some(token.into());
        self
    }

    /// The same error about `value` (already written as text).
    pub fn value(mut self, value: impl Into<String>) -> Error {
        self.value = Some(value.into());
        self
    }

    /// The same error with a second value.
    pub fn value2(mut self, value: impl Into<String>) -> Error {
        self.value2 = Some(value.into());
        self
    }

    /// The same error about argument `index` (1-based).
    pub fn index(mut self, index: usize) -> Error {
        self.index = Some(index);
        self
    }

    /// The same error with `detail`.
    pub fn detail(mut self, detail: impl Into<String>) -> Error {
        self.detail = Some(detail.into());
        self
    }

    /// The message, without the code.
    pub fn message(&self) -> String {
        crate::messages::describe(self)
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.code, self.message())?;
        if let Some(position) = self.position {
            write!(f, " (at character {position})")?;
        }
        Ok(())
    }
}

impl std::error::Error for Error {}

impl From<BudgetExceeded> for Error {
    /// The codes jsonata-js 2.2's own guardrails raise: D1012 for time, D1011 for depth,
    /// D2015 for sequence length; writ's other bounds (steps, string length, total
    /// allocation, a host interrupt) are U-codes, since jsonata-js has none.
    fn from(exceeded: BudgetExceeded) -> Error {
        let code = match exceeded.bound {
            Bound::Time => "D1012",
            Bound::Depth => "D1011",
            Bound::ArrayLength => "D2015",
            Bound::Steps => "U1006",
            Bound::StringLength | Bound::TotalAllocation => "U1007",
            Bound::Interrupted => "U1003",
            _ => "U1001",
        };
        Error::new(code).value(exceeded.limit.to_string())
    }
}
