//! JSONata errors: JSONata's own codes, a position, and a message that says what to write.

use std::fmt;

use writ_core::{Bound, BudgetExceeded};

/// A failed compile or evaluation: a [`Code`], a message, and where in the expression.
///
/// The code is JSONata's stable error code (`S0201`, `T2001`, `D1012`, …): the same code
/// jsonata-js 2.2.2 raises for the same expression, so hosts can match on it. The message is
/// writ's own and names what to write instead where there is something to say.
///
/// Opaque and one pointer wide (what it carries lives behind a box), so that the evaluator's
/// `Result`s stay as small as its values.
#[derive(Clone, PartialEq)]
pub struct Error(Box<Details>);

/// What an [`Error`] carries: its code, what it points at, and what its message names.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Details {
    /// JSONata's error code.
    pub(crate) code: Code,
    /// Where the error points, as [`Error::position`] counts.
    pub(crate) position: Option<usize>,
    /// The token or function name the error concerns, when there is one.
    pub(crate) token: Option<String>,
    /// The value the error concerns, written as JSON, when there is one.
    pub(crate) value: Option<String>,
    /// A second value (for type mismatches between two operands).
    pub(crate) value2: Option<String>,
    /// A 1-based argument index (signature errors).
    pub(crate) index: Option<usize>,
    /// The whole message, when it is not the code's own: what the expression gave `$error()`
    /// or `$assert()`, or a text jsonata-js fixes word for word.
    pub(crate) detail: Option<String>,
}

/// The result of compiling or evaluating.
pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    /// An error with `code` and nothing else yet.
    #[cold]
    #[inline(never)]
    pub(crate) fn new(code: Code) -> Error {
        Error(Box::new(Details {
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
    pub(crate) fn at(mut self, position: usize) -> Error {
        self.0.position.get_or_insert(position);
        self
    }

    /// The same error pointing `offset` further on (as an error of a signature, which counts
    /// from the signature's start, points into the whole expression).
    pub(crate) fn moved_by(mut self, offset: usize) -> Error {
        self.0.position = Some(offset + self.0.position.unwrap_or(0));
        self
    }

    /// The same error about `token`.
    pub(crate) fn with_token(mut self, token: impl Into<String>) -> Error {
        self.0.token = Some(token.into());
        self
    }

    /// The same error about the token `token` gives, unless it is already about one.
    pub(crate) fn token_unless_named(mut self, token: impl FnOnce() -> Option<String>) -> Error {
        if self.0.token.is_none() {
            self.0.token = token();
        }
        self
    }

    /// The same error about `value` (already written as text).
    pub(crate) fn with_value(mut self, value: impl Into<String>) -> Error {
        self.0.value = Some(value.into());
        self
    }

    /// The same error with a second value.
    pub(crate) fn with_value2(mut self, value: impl Into<String>) -> Error {
        self.0.value2 = Some(value.into());
        self
    }

    /// The same error about argument `index` (1-based).
    pub(crate) fn with_index(mut self, index: usize) -> Error {
        self.0.index = Some(index);
        self
    }

    /// The same error with `detail` as its whole message.
    pub(crate) fn with_detail(mut self, detail: impl Into<String>) -> Error {
        self.0.detail = Some(detail.into());
        self
    }

    /// What the error carries, for the tests.
    #[cfg(test)]
    pub(crate) fn details(&self) -> &Details {
        &self.0
    }

    /// JSONata's code for the error.
    pub fn code(&self) -> Code {
        self.0.code
    }

    /// The message, without the code or the position.
    pub fn message(&self) -> String {
        crate::messages::describe(&self.0)
    }

    /// Where in the expression the error points, when it points somewhere: jsonata-js's
    /// `position`, a count of UTF-16 code units from the start of the expression to just past
    /// the token the error is about (an operator, a name, the call's opening bracket, or the
    /// place the parser stopped). For an expression in ASCII it is a count of characters.
    pub fn position(&self) -> Option<usize> {
        self.0.position
    }

    /// The token or function name the error is about, when it is about one (jsonata-js's
    /// `token`, or its `functionName` for an argument error): a function's name is kept
    /// without its `$`.
    pub fn token(&self) -> Option<&str> {
        self.0.token.as_deref()
    }

    /// The value the error is about, written as JSON, when it is about one (jsonata-js's
    /// `value`); for a crossed bound, the bound's limit.
    pub fn value(&self) -> Option<&str> {
        self.0.value.as_deref()
    }

    /// The message when it was given whole rather than built from the code: what the
    /// expression passed to `$error()` or `$assert()`, or a text jsonata-js fixes word for word
    /// (a malformed URL, a regular expression JavaScript rejects). Such a message is shown as it
    /// is, without a position after it.
    pub fn detail(&self) -> Option<&str> {
        self.0.detail.as_deref()
    }

    /// The error as the engine seam reports it for an expression compiled from `source` (what
    /// a [`crate::Jsonata`] program answers): the code, the message with its position, and the
    /// span of the character the position names.
    pub fn to_diagnostic(&self, source: &str) -> writ_core::Diagnostic {
        crate::engine::diagnostic(self, source)
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.0.code, self.message())?;
        if let Some(position) = self.0.position {
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
    #[cold]
    #[inline(never)]
    fn from(exceeded: BudgetExceeded) -> Error {
        let code = match exceeded.bound {
            Bound::Time => Code::D1012,
            Bound::Depth => Code::D1011,
            Bound::ArrayLength => Code::D2015,
            Bound::Steps => Code::U1006,
            Bound::StringLength | Bound::TotalAllocation => Code::U1007,
            Bound::Interrupted => Code::U1003,
            _ => Code::U1001,
        };
        Error::new(code).with_value(exceeded.limit.to_string())
    }
}

/// Every code an [`Error`] can carry: JSONata's own (jsonata-js 2.2.2 raises the same code for
/// the same expression) and writ's U-codes for the bounds jsonata-js has no code for.
///
/// The letter says the kind, as in JSONata: S for syntax (compile), T for a type error, D for
/// any other evaluation error, U for writ's own bounds. [`Code::as_str`] is the stable text
/// (`"T2001"`); codes are never renamed or reused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Code {
    /// A string literal is not closed.
    S0101,
    /// A number literal is too large to represent.
    S0102,
    /// A string literal holds an escape JSON does not have.
    S0103,
    /// `\u` in a string literal is not followed by four hex digits.
    S0104,
    /// A backquoted name is not closed.
    S0105,
    /// A comment is not closed.
    S0106,
    /// The expression cannot be read at a token.
    S0201,
    /// A token other than the one expected.
    S0202,
    /// The expression ends where a token is still expected.
    S0203,
    /// An operator JSONata does not know.
    S0204,
    /// A token that cannot appear where it is.
    S0205,
    /// A kind of expression JSONata does not know.
    S0206,
    /// The expression ends too early.
    S0207,
    /// A parameter of a function definition is not a variable.
    S0208,
    /// A predicate follows a grouping in the same step.
    S0209,
    /// A step has more than one grouping.
    S0210,
    /// A symbol used as a prefix operator that is not one.
    S0211,
    /// The left side of `:=` is not a variable.
    S0212,
    /// A literal used as a step of a path.
    S0213,
    /// The right side of `@` or `#` is not a variable.
    S0214,
    /// A context binding follows a predicate on the same step.
    S0215,
    /// A context binding follows an order-by on the same step.
    S0216,
    /// `%` has no parent to reach.
    S0217,
    /// An empty regular expression.
    S0301,
    /// A regular expression is not closed.
    S0302,
    /// A regular expression JavaScript itself rejects.
    S0303,
    /// Type parameters on a signature type other than a function or an array.
    S0401,
    /// A choice group in a signature holds a parameterized type.
    S0402,
    /// An expression with syntax errors was evaluated.
    S0500,
    /// An argument does not match the function's signature.
    T0410,
    /// The context value cannot stand in for an argument.
    T0411,
    /// An array argument holds items of the wrong type.
    T0412,
    /// A number out of range (infinite or not a number).
    D1001,
    /// Unary minus applied to something other than a number.
    D1002,
    /// An object key that is not a string.
    T1003,
    /// A regular expression that matches the empty string.
    D1004,
    /// A call of something that is not a function, named as a field.
    T1005,
    /// A call of a value that is not a function.
    T1006,
    /// A partial application of something that is not a function, named as a field.
    T1007,
    /// A partial application of a value that is not a function.
    T1008,
    /// Two entries of an object constructor give the same key.
    D1009,
    /// A matcher function returned something other than a match.
    T1010,
    /// Evaluation nested past the depth limit.
    D1011,
    /// Evaluation reached the time limit.
    D1012,
    /// An object key starts with `_jsonata_`.
    D1013,
    /// The left side of an arithmetic operator is not a number.
    T2001,
    /// The right side of an arithmetic operator is not a number.
    T2002,
    /// The left side of a range is not an integer.
    T2003,
    /// The right side of a range is not an integer.
    T2004,
    /// The left side of `:=` is not a variable.
    D2005,
    /// The right side of `~>` is not a function.
    T2006,
    /// Order-by keys of different types.
    T2007,
    /// An order-by key that is neither a number nor a string.
    T2008,
    /// The sides of a comparison have different types.
    T2009,
    /// A side of a comparison is neither a number nor a string.
    T2010,
    /// A transform's update is not an object.
    T2011,
    /// A transform's delete is not a string or an array of strings.
    T2012,
    /// `$clone` is bound to something else inside a transform.
    T2013,
    /// A range of more than 10,000,000 items.
    D2014,
    /// A sequence grew past the sequence limit.
    D2015,
    /// Infinity or NaN written as a string.
    D3001,
    /// An empty pattern given to `$replace()`.
    D3010,
    /// A negative limit given to `$replace()`.
    D3011,
    /// A replacement function that returned something other than a string.
    D3012,
    /// A negative limit given to `$split()`.
    D3020,
    /// A value that cannot be converted to a number.
    D3030,
    /// A negative limit given to `$match()`.
    D3040,
    /// A function given to `$reduce()` with fewer than two parameters.
    D3050,
    /// The square root of a negative number.
    D3060,
    /// A power that is not a finite number.
    D3061,
    /// `$sort()` without a function over items that are not all strings or all numbers.
    D3070,
    /// A number picture with more than two sub-pictures.
    D3080,
    /// A sub-picture with more than one decimal separator.
    D3081,
    /// A sub-picture with more than one percent sign.
    D3082,
    /// A sub-picture with more than one per-mille sign.
    D3083,
    /// A sub-picture with both a percent and a per-mille sign.
    D3084,
    /// A sub-picture whose mantissa has no digit.
    D3085,
    /// A passive character between two active ones in a sub-picture.
    D3086,
    /// A grouping separator next to the decimal separator.
    D3087,
    /// An integer part that ends with a grouping separator.
    D3088,
    /// Two grouping separators side by side.
    D3089,
    /// An optional digit after a decimal digit in the integer part.
    D3090,
    /// A decimal digit after an optional digit in the fractional part.
    D3091,
    /// An exponent in a sub-picture with a percent or per-mille sign.
    D3092,
    /// An exponent with characters other than decimal digits.
    D3093,
    /// A radix outside 2 to 36 given to `$formatBase()`.
    D3100,
    /// A timestamp `$toMillis()` cannot read.
    D3110,
    /// An expression given to `$eval()` that cannot be read.
    D3120,
    /// An expression given to `$eval()` that failed.
    D3121,
    /// An integer picture of an unsupported kind.
    D3130,
    /// Decimal digits from different families in one picture.
    D3131,
    /// A date/time picture component that does not exist.
    D3132,
    /// A name modifier on a component other than a month or a day.
    D3133,
    /// A timezone integer of more than four digits.
    D3134,
    /// An unmatched `[` in a date/time picture.
    D3135,
    /// A date/time picture without what is needed to read the timestamp.
    D3136,
    /// `$error()` was called.
    D3137,
    /// `$single()` found more than one match.
    D3138,
    /// `$single()` found no match.
    D3139,
    /// A malformed URL given to a URL function.
    D3140,
    /// An `$assert()` failed.
    D3141,
    /// The expression or the data nests too deeply (writ's own code).
    U1001,
    /// The host stopped the evaluation (writ's own code).
    U1003,
    /// A regular expression feature writ does not support (writ's own code).
    U1004,
    /// The step limit was reached (writ's own code).
    U1006,
    /// A string or the memory used passed its limit (writ's own code).
    U1007,
    /// The answer's JSON text would be longer than an answer may be (writ's own code; on the
    /// engine seam, writ-core's `answer-too-large`).
    U1008,
}

impl Code {
    /// Every code, in the order of JSONata's error table (then writ's own).
    pub const ALL: &'static [Code] = &[
        Code::S0101,
        Code::S0102,
        Code::S0103,
        Code::S0104,
        Code::S0105,
        Code::S0106,
        Code::S0201,
        Code::S0202,
        Code::S0203,
        Code::S0204,
        Code::S0205,
        Code::S0206,
        Code::S0207,
        Code::S0208,
        Code::S0209,
        Code::S0210,
        Code::S0211,
        Code::S0212,
        Code::S0213,
        Code::S0214,
        Code::S0215,
        Code::S0216,
        Code::S0217,
        Code::S0301,
        Code::S0302,
        Code::S0303,
        Code::S0401,
        Code::S0402,
        Code::S0500,
        Code::T0410,
        Code::T0411,
        Code::T0412,
        Code::D1001,
        Code::D1002,
        Code::T1003,
        Code::D1004,
        Code::T1005,
        Code::T1006,
        Code::T1007,
        Code::T1008,
        Code::D1009,
        Code::T1010,
        Code::D1011,
        Code::D1012,
        Code::D1013,
        Code::T2001,
        Code::T2002,
        Code::T2003,
        Code::T2004,
        Code::D2005,
        Code::T2006,
        Code::T2007,
        Code::T2008,
        Code::T2009,
        Code::T2010,
        Code::T2011,
        Code::T2012,
        Code::T2013,
        Code::D2014,
        Code::D2015,
        Code::D3001,
        Code::D3010,
        Code::D3011,
        Code::D3012,
        Code::D3020,
        Code::D3030,
        Code::D3040,
        Code::D3050,
        Code::D3060,
        Code::D3061,
        Code::D3070,
        Code::D3080,
        Code::D3081,
        Code::D3082,
        Code::D3083,
        Code::D3084,
        Code::D3085,
        Code::D3086,
        Code::D3087,
        Code::D3088,
        Code::D3089,
        Code::D3090,
        Code::D3091,
        Code::D3092,
        Code::D3093,
        Code::D3100,
        Code::D3110,
        Code::D3120,
        Code::D3121,
        Code::D3130,
        Code::D3131,
        Code::D3132,
        Code::D3133,
        Code::D3134,
        Code::D3135,
        Code::D3136,
        Code::D3137,
        Code::D3138,
        Code::D3139,
        Code::D3140,
        Code::D3141,
        Code::U1001,
        Code::U1003,
        Code::U1004,
        Code::U1006,
        Code::U1007,
        Code::U1008,
    ];

    /// The code as JSONata writes it: `"S0201"`, `"T2001"`, `"D1012"`, `"U1006"`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Code::S0101 => "S0101",
            Code::S0102 => "S0102",
            Code::S0103 => "S0103",
            Code::S0104 => "S0104",
            Code::S0105 => "S0105",
            Code::S0106 => "S0106",
            Code::S0201 => "S0201",
            Code::S0202 => "S0202",
            Code::S0203 => "S0203",
            Code::S0204 => "S0204",
            Code::S0205 => "S0205",
            Code::S0206 => "S0206",
            Code::S0207 => "S0207",
            Code::S0208 => "S0208",
            Code::S0209 => "S0209",
            Code::S0210 => "S0210",
            Code::S0211 => "S0211",
            Code::S0212 => "S0212",
            Code::S0213 => "S0213",
            Code::S0214 => "S0214",
            Code::S0215 => "S0215",
            Code::S0216 => "S0216",
            Code::S0217 => "S0217",
            Code::S0301 => "S0301",
            Code::S0302 => "S0302",
            Code::S0303 => "S0303",
            Code::S0401 => "S0401",
            Code::S0402 => "S0402",
            Code::S0500 => "S0500",
            Code::T0410 => "T0410",
            Code::T0411 => "T0411",
            Code::T0412 => "T0412",
            Code::D1001 => "D1001",
            Code::D1002 => "D1002",
            Code::T1003 => "T1003",
            Code::D1004 => "D1004",
            Code::T1005 => "T1005",
            Code::T1006 => "T1006",
            Code::T1007 => "T1007",
            Code::T1008 => "T1008",
            Code::D1009 => "D1009",
            Code::T1010 => "T1010",
            Code::D1011 => "D1011",
            Code::D1012 => "D1012",
            Code::D1013 => "D1013",
            Code::T2001 => "T2001",
            Code::T2002 => "T2002",
            Code::T2003 => "T2003",
            Code::T2004 => "T2004",
            Code::D2005 => "D2005",
            Code::T2006 => "T2006",
            Code::T2007 => "T2007",
            Code::T2008 => "T2008",
            Code::T2009 => "T2009",
            Code::T2010 => "T2010",
            Code::T2011 => "T2011",
            Code::T2012 => "T2012",
            Code::T2013 => "T2013",
            Code::D2014 => "D2014",
            Code::D2015 => "D2015",
            Code::D3001 => "D3001",
            Code::D3010 => "D3010",
            Code::D3011 => "D3011",
            Code::D3012 => "D3012",
            Code::D3020 => "D3020",
            Code::D3030 => "D3030",
            Code::D3040 => "D3040",
            Code::D3050 => "D3050",
            Code::D3060 => "D3060",
            Code::D3061 => "D3061",
            Code::D3070 => "D3070",
            Code::D3080 => "D3080",
            Code::D3081 => "D3081",
            Code::D3082 => "D3082",
            Code::D3083 => "D3083",
            Code::D3084 => "D3084",
            Code::D3085 => "D3085",
            Code::D3086 => "D3086",
            Code::D3087 => "D3087",
            Code::D3088 => "D3088",
            Code::D3089 => "D3089",
            Code::D3090 => "D3090",
            Code::D3091 => "D3091",
            Code::D3092 => "D3092",
            Code::D3093 => "D3093",
            Code::D3100 => "D3100",
            Code::D3110 => "D3110",
            Code::D3120 => "D3120",
            Code::D3121 => "D3121",
            Code::D3130 => "D3130",
            Code::D3131 => "D3131",
            Code::D3132 => "D3132",
            Code::D3133 => "D3133",
            Code::D3134 => "D3134",
            Code::D3135 => "D3135",
            Code::D3136 => "D3136",
            Code::D3137 => "D3137",
            Code::D3138 => "D3138",
            Code::D3139 => "D3139",
            Code::D3140 => "D3140",
            Code::D3141 => "D3141",
            Code::U1001 => "U1001",
            Code::U1003 => "U1003",
            Code::U1004 => "U1004",
            Code::U1006 => "U1006",
            Code::U1007 => "U1007",
            Code::U1008 => "U1008",
        }
    }
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

const _: () = assert!(std::mem::size_of::<Error>() == std::mem::size_of::<usize>());

#[cfg(test)]
mod tests {
    use super::Code;

    #[test]
    fn every_code_is_written_once_as_jsonata_writes_codes() {
        let mut seen = std::collections::HashSet::new();
        for &code in Code::ALL {
            let text = code.as_str();
            let mut chars = text.chars();
            assert!(
                matches!(chars.next(), Some('S' | 'T' | 'D' | 'U'))
                    && text.len() == 5
                    && chars.all(|c| c.is_ascii_digit()),
                "{text}"
            );
            assert_eq!(format!("{code:?}"), text, "the variant is named by its code");
            assert_eq!(code.to_string(), text);
            assert!(seen.insert(text), "{text} twice");
        }
        assert_eq!(seen.len(), 107);
    }
}
