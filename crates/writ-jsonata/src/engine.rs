//! JSONata on writ-core's engine seam: [`Jsonata`] is the [`Engine`], a compiled
//! [`Expression`] the [`Program`].
//!
//! The input is the input document, the bindings are the `$`-variables (named without the `$`),
//! and `$now()`, `$millis()` and `$random()` read the caller's [`Host`]. Seed 001's four limits
//! are the JSON-edge names: `timeout` (ms), `depth`, `steps` and `sequence`, each a positive
//! integer or `"Infinity"`.

use std::sync::Arc;

use writ_core::{
    Category, Diagnostic, Engine, ErrorCode, Host, LimitField, LimitName, Limits, Meter, Object, Program, Source, Span,
    Validation, Value,
};

use crate::{Code, Error, Expression, JsonataLimits};

/// Seed 001's expression limits at the JSON edge: `timeout` (ms), `depth`, `steps`, and
/// `sequence` (the longest sequence or array one evaluation may build).
pub const LIMIT_NAMES: &[LimitName] = &[
    LimitName::bound_or_infinity("timeout", LimitField::Milliseconds),
    LimitName::bound_or_infinity("depth", LimitField::Depth),
    LimitName::bound_or_infinity("steps", LimitField::Steps),
    LimitName::bound_or_infinity("sequence", LimitField::ArrayLength),
];

/// JSONata 2.2.2, on the engine seam. It has nothing to configure: every function is built in.
#[derive(Clone, Copy, Debug, Default)]
pub struct Jsonata;

/// The [`Category`] of a JSONata code: `S` codes are syntax; the guardrails (`D1011` depth,
/// `D1012` time, `D2015` sequence length, writ's `U` codes) are budget; `T` codes are types;
/// everything else (`D` codes, `$error`, `$assert`) happens while running.
impl ErrorCode for Code {
    fn as_str(self) -> &'static str {
        Code::as_str(self)
    }

    fn category(self) -> Category {
        category(Code::as_str(self))
    }
}

/// [`ErrorCode::category`] by the code's text, whose letter says the kind.
fn category(code: &str) -> Category {
    match code {
        "D1011" | "D1012" | "D2014" | "D2015" | "U1001" | "U1003" | "U1006" | "U1007" | "U1008" => Category::Budget,
        // A regular expression writ cannot run in bounded time.
        "U1004" => Category::Refused,
        _ if code.starts_with('S') => Category::Syntax,
        _ if code.starts_with('T') => Category::Type,
        _ => Category::Runtime,
    }
}

/// The diagnostic of `error` in `source`: JSONata's code, writ's message with the position
/// (unless the expression wrote the message itself, with `$error` or `$assert`), and the span
/// in bytes of the character the position names.
pub(crate) fn diagnostic(error: &Error, source: &str) -> Diagnostic {
    let mut message = error.message();
    if let (None, Some(position)) = (error.detail(), error.position()) {
        message.push_str(&format!(" (at character {position})"));
    }
    // jsonata-js's position is the UTF-16 index just past the token it names.
    let span = error
        .position()
        .map(|position| Span::from_utf16(source, position.saturating_sub(1), position));
    match error.code() {
        // An answer too long to write is the same error in every language.
        Code::U1008 => Diagnostic::new(writ_core::ANSWER_TOO_LARGE, Category::Budget, message),
        code => Diagnostic::of(code, message),
    }
    .with_span_opt(span)
}

/// A compiled expression with its source, for the spans of its errors.
#[derive(Debug)]
struct Compiled {
    expression: Expression,
    source: Arc<str>,
}

impl Program for Compiled {
    fn evaluate(
        &self,
        input: &Value,
        bindings: &Object,
        meter: &mut Meter,
        host: &dyn Host,
    ) -> Result<Value, Diagnostic> {
        self.expression
            .evaluate_metered(input, bindings, meter, host)
            .map_err(|error| diagnostic(&error, &self.source))
    }
}

impl Jsonata {
    fn compiled(source: Source<'_>) -> Result<Compiled, Diagnostic> {
        let source = source.require_text("JSONata")?;
        let expression = Expression::compile(&source).map_err(|error| diagnostic(&error, &source))?;
        Ok(Compiled {
            expression,
            source: Arc::from(source.as_ref()),
        })
    }
}

impl Engine for Jsonata {
    fn language(&self) -> &'static str {
        "jsonata"
    }

    fn limit_names(&self) -> &'static [LimitName] {
        LIMIT_NAMES
    }

    fn default_limits(&self) -> Limits {
        JsonataLimits::default().to_meter_limits()
    }

    fn compile(&self, source: Source<'_>, _limits: &Limits) -> Result<Arc<dyn Program>, Diagnostic> {
        Ok(Arc::new(Jsonata::compiled(source)?))
    }

    fn validate(&self, source: Source<'_>, _limits: &Limits) -> Result<Validation, Diagnostic> {
        Jsonata::compiled(source).map(|_| Validation::default())
    }

    /// As the default, except that the meter's clock keeps back part of the timeout for what
    /// follows its last check (see [`JsonataLimits`]), so the answer, not only the error,
    /// arrives within the timeout; a D1012 names the timeout asked for.
    fn run(
        &self,
        source: Source<'_>,
        input: &Value,
        bindings: &Object,
        limits: &Limits,
        host: Arc<dyn Host>,
    ) -> Result<Value, Diagnostic> {
        let compiled = Jsonata::compiled(source)?;
        let timeout = limits
            .time
            .map(|time| u64::try_from(time.as_millis()).unwrap_or(u64::MAX));
        let metered = Limits {
            time: timeout.map(crate::clock_budget),
            ..*limits
        };
        let mut meter = Meter::with_clock(&metered, host.clone());
        compiled
            .expression
            .evaluate_metered(input, bindings, &mut meter, host.as_ref())
            .map_err(|error| {
                let error = match (error.code(), timeout) {
                    (crate::Code::D1012, Some(timeout)) => error.with_value(timeout.to_string()),
                    _ => error,
                };
                diagnostic(&error, &compiled.source)
            })
    }
}
