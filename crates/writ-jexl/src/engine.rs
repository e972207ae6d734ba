//! Jexl on writ-core's engine seam: a [`Jexl`] is an [`Engine`], an [`Expression`] a
//! [`Program`].
//!
//! Through the seam a source compiles only when it is Jexl free of the two JavaScript habits
//! the [linter](crate::lint) names (`===`, `ctx.`): `ctx.count > 0`, which Jexl would read as the
//! missing name `ctx` and answer `false`, is refused at the command line as in the jexl cell.
//! Validation (freeze) also checks every transform and function call against the registrations.

use std::sync::Arc;

use writ_core::{
    ANSWER_TOO_LARGE, Category, Diagnostic, Engine, ErrorCode, Host, LimitField, LimitName, Limits, MAX_ANSWER_BYTES,
    Meter, Object, Program, Source, Span, Validation, Value,
};

use crate::{Code, DEFAULT_LIMITS, Error, Expression, Jexl, lint};

/// Jexl's limit names at the JSON edge: steps, ms, and the longest string and array one
/// evaluation may build, plus the deepest nesting.
pub const LIMIT_NAMES: &[LimitName] = &[
    LimitName::count("steps", LimitField::Steps),
    LimitName::count("ms", LimitField::Milliseconds),
    LimitName::count("maxStringLength", LimitField::StringLength),
    LimitName::count("maxArrayLength", LimitField::ArrayLength),
    LimitName::count("maxDepth", LimitField::Depth),
];

/// The [`Category`] of each writ-jexl code. A transform or function the engine does not
/// register is refused; Jexl's operators answer as JavaScript's do, so its one type error, the one
/// `jexl-runtime` stands for, is a read from `undefined` or `null`.
impl ErrorCode for Code {
    fn as_str(self) -> &'static str {
        Code::as_str(self)
    }

    fn category(self) -> Category {
        match self {
            Code::BudgetExceeded => Category::Budget,
            Code::Syntax => Category::Syntax,
            Code::Dialect | Code::UnknownTransform | Code::UnknownFunction => Category::Refused,
            Code::Runtime => Category::Type,
            Code::Transform => Category::Host,
        }
    }
}

impl From<&Error> for Diagnostic {
    fn from(error: &Error) -> Diagnostic {
        Diagnostic::of(error.code(), error.message()).with_span_opt(error.position().map(Span::at))
    }
}

impl From<Error> for Diagnostic {
    fn from(error: Error) -> Diagnostic {
        Diagnostic::from(&error)
    }
}

impl Jexl {
    /// Compiles `source` after the dialect lint, so `ctx.x` and `===` are named even where Jexl
    /// would parse them.
    fn linted(&self, source: &str) -> Result<Expression, Diagnostic> {
        if let Some(found) = lint(source) {
            return Err(Diagnostic::of(Code::Dialect, found.message).with_span(Span::at(found.position)));
        }
        Ok(self.compile(source)?)
    }

    /// [`Jexl::linted`], then every transform and function call checked against the
    /// registrations: what freeze checks. (Evaluation alone raises an unregistered call only
    /// when it is reached, as jexl-js does.)
    fn checked(&self, source: &str) -> Result<Expression, Diagnostic> {
        let expression = self.linted(source)?;
        let transforms: Vec<&str> = self.transform_names().collect();
        if let Some(name) = expression
            .transforms()
            .into_iter()
            .find(|name| !transforms.iter().any(|known| name.eq_str(known)))
        {
            return Err(unregistered(
                Code::UnknownTransform,
                "transform",
                &name.to_string_lossy(),
                &transforms,
            ));
        }
        let functions: Vec<&str> = self.function_names().collect();
        if let Some(name) = expression
            .functions()
            .into_iter()
            .find(|name| !functions.iter().any(|known| name.eq_str(known)))
        {
            return Err(unregistered(
                Code::UnknownFunction,
                "function",
                &name.to_string_lossy(),
                &functions,
            ));
        }
        Ok(expression)
    }
}

/// The refusal of a call to a name the engine does not register.
fn unregistered(code: Code, what: &str, name: &str, registered: &[&str]) -> Diagnostic {
    let registrations = if registered.is_empty() {
        "it registers none".to_owned()
    } else {
        format!("registered: {}", registered.join(", "))
    };
    let nearest = writ_core::closest_name(name, registered.iter().copied())
        .map(|nearest| format!("did you mean '{nearest}'? "))
        .unwrap_or_default();
    Diagnostic::of(
        code,
        format!("the expression calls the {what} '{name}', which this engine does not register ({registrations})"),
    )
    .with_help(format!(
        "{nearest}register it on the Jexl engine, or write the expression without it"
    ))
}

impl Engine for Jexl {
    fn language(&self) -> &'static str {
        "jexl"
    }

    fn limit_names(&self) -> &'static [LimitName] {
        LIMIT_NAMES
    }

    fn default_limits(&self) -> Limits {
        DEFAULT_LIMITS
    }

    fn compile(&self, source: Source<'_>, limits: &Limits) -> Result<Arc<dyn Program>, Diagnostic> {
        let source = source.require_text("jexl")?;
        let engine = self.clone().with_limits(*limits);
        Ok(Arc::new(engine.linted(&source)?))
    }

    fn validate(&self, source: Source<'_>, limits: &Limits) -> Result<Validation, Diagnostic> {
        let source = source.require_text("jexl")?;
        let expression = self.clone().with_limits(*limits).checked(&source)?;
        let mut calls: Vec<String> = expression
            .transforms()
            .into_iter()
            .chain(expression.functions())
            .map(|name| name.to_string_lossy().into_owned())
            .collect();
        calls.sort();
        calls.dedup();
        Ok(Validation {
            reads: Vec::new(),
            calls,
        })
    }
}

impl Program for Expression {
    fn evaluate(
        &self,
        input: &Value,
        _bindings: &Object,
        meter: &mut Meter,
        _host: &dyn Host,
    ) -> Result<Value, Diagnostic> {
        let answer = self.evaluate_with(input, meter)?;
        // The host writes the answer out next: that is charged here, within the budget.
        match crate::answer::measure(&answer, meter)? {
            Ok(()) => Ok(answer),
            Err(crate::answer::TooLong) => Err(Diagnostic::new(
                ANSWER_TOO_LARGE,
                Category::Budget,
                format!(
                    "the answer's JSON text is longer than {MAX_ANSWER_BYTES} bytes, the most an answer may take (a \
                     value that holds the same array or object many times over is written out in full each time); \
                     return less, such as a count, a sample or a summary"
                ),
            )),
        }
    }
}
