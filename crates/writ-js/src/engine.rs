//! The JavaScript subset on writ-core's engine seam: an [`Evaluator`] is an [`Engine`], a
//! [`Compiled`] expression a [`Program`].
//!
//! Through the seam the input's object supplies the names an expression reads and the bindings
//! shadow them, as a second context would ([`Evaluator::eval`] takes contexts in that order).

use std::sync::Arc;

use writ_core::{
    Category, Diagnostic, Engine, ErrorCode, Host, LimitField, LimitName, Limits, Meter, Object, Program, Source,
    Validation, Value,
};

use crate::error::{Error, Reason, Thrown};
use crate::evaluator::{Compiled, Evaluator};

/// Seed 004's budget names at the JSON edge.
pub const LIMIT_NAMES: &[LimitName] = &[
    LimitName::count("steps", LimitField::Steps),
    LimitName::count("ms", LimitField::Milliseconds),
    LimitName::count("maxStringLength", LimitField::StringLength),
    LimitName::count("maxArrayLength", LimitField::ArrayLength),
    LimitName::count("maxTotalAllocation", LimitField::TotalAllocation),
    LimitName::count("maxSourceLength", LimitField::SourceLength),
];

impl ErrorCode for Reason {
    fn as_str(self) -> &'static str {
        self.code()
    }

    fn category(self) -> Category {
        match self {
            Reason::ExpressionSyntax => Category::Syntax,
            Reason::GuardrailViolation => Category::Refused,
            // A name no context provides is known only when the expression runs.
            Reason::UnknownReference | Reason::ExpressionRuntime => Category::Runtime,
            Reason::BudgetExceeded => Category::Budget,
            Reason::InvalidArguments | Reason::HostFunction => Category::Host,
        }
    }
}

impl From<&Error> for Diagnostic {
    fn from(error: &Error) -> Diagnostic {
        let diagnostic = Diagnostic::of(error.reason(), error.message());
        // `expression-runtime` covers every JavaScript error; a TypeError is a type failure.
        match error.thrown() {
            Some(Thrown::TypeError) if error.reason() == Reason::ExpressionRuntime => {
                diagnostic.with_category(Category::Type)
            }
            _ => diagnostic,
        }
    }
}

impl From<Error> for Diagnostic {
    fn from(error: Error) -> Diagnostic {
        Diagnostic::from(&error)
    }
}

impl Evaluator {
    /// The compiled expression for `source`, its length bounded by `limits` when they bound
    /// it and by the evaluator's own bound otherwise.
    fn compiled(&self, source: Source<'_>, limits: &Limits) -> Result<Compiled, Diagnostic> {
        let source = source.require_text("JavaScript")?;
        let max_source_length = limits.max_source_length.map_or(self.max_source_length(), |length| {
            usize::try_from(length).unwrap_or(usize::MAX)
        });
        let program = self.program_within(&source, max_source_length)?;
        Ok(Compiled::of(self, program))
    }
}

impl Engine for Evaluator {
    fn language(&self) -> &'static str {
        "js"
    }

    fn limit_names(&self) -> &'static [LimitName] {
        LIMIT_NAMES
    }

    fn default_limits(&self) -> Limits {
        Limits {
            max_source_length: Some(self.max_source_length() as u64),
            ..self.budget().limits()
        }
    }

    fn compile(&self, source: Source<'_>, limits: &Limits) -> Result<Arc<dyn Program>, Diagnostic> {
        Ok(Arc::new(self.compiled(source, limits)?))
    }

    fn validate(&self, source: Source<'_>, limits: &Limits) -> Result<Validation, Diagnostic> {
        let compiled = self.compiled(source, limits)?;
        let mut reads = compiled.free_names();
        reads.sort();
        reads.dedup();
        let mut calls = compiled.host_call_names();
        calls.sort();
        calls.dedup();
        Ok(Validation { reads, calls })
    }
}

impl Program for Compiled {
    fn evaluate(
        &self,
        input: &Value,
        bindings: &Object,
        meter: &mut Meter,
        _host: &dyn Host,
    ) -> Result<Value, Diagnostic> {
        let contexts: Vec<&Object> = input
            .as_object()
            .into_iter()
            .chain((!bindings.is_empty()).then_some(bindings))
            .collect();
        self.eval_metered(&contexts, meter).map_err(Diagnostic::from)
    }
}
