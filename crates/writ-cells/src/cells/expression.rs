//! The expression cells (jexl, js, jsonata, lua) on writ-core's engine seam: one cell, four
//! dialects.
//!
//! Each dialect names its engine and says what the engine alone cannot: which snapshot of the
//! output table the predicate reads, when a branch's result holds, and how a select's result
//! names its case. Everything else — the freeze checks, the compile cache, the budget, the
//! fixed host, and turning a [`Diagnostic`] into a [`Fault`] — is the same for all four, and is
//! here.

use std::sync::{Arc, OnceLock};

use writ_core::{
    BudgetExceeded, Category, Diagnostic, Engine, FifoCache, FixedHost, Limits, Meter, Object, Program, Source, Str,
    Value,
};

use super::{CACHE_CAPACITY, Compiled, budget_fault, check_cases, get_or_compile, select_verdict, source_text};
use crate::seam::{CellError, Decision, Evaluation, Fault, FaultKind, PredicateContext, PredicateNode, Verdict};

/// What a dialect adds to its engine.
pub(crate) struct Dialect {
    /// The cell's id, as nodes name it.
    pub(crate) id: &'static str,
    /// A predicate of the dialect, for refusals that say what to write.
    pub(crate) example: &'static str,
    /// How a freeze refusal says the predicate is not in the language ("is not valid Jexl").
    pub(crate) invalid: &'static str,
    /// The snapshot of the frame's output table the predicate reads.
    pub(crate) snapshot: fn(&PredicateContext) -> Value,
    /// When a branch's result holds; it may charge the meter (JSONata's `$boolean` walks).
    pub(crate) holds: fn(&Value, &mut Meter) -> Result<bool, BudgetExceeded>,
    /// The case a select's result names: `Ok(None)` for the default, `Err` for a result that
    /// cannot name one.
    pub(crate) label: fn(&Value) -> Result<Option<Str>, ()>,
    /// Codes whose fault is a [`FaultKind::BadResult`] rather than their category's kind.
    pub(crate) bad_result_codes: &'static [&'static str],
    /// A check of the source text freeze makes before the engine's (Lua's empty chunk).
    pub(crate) precheck: fn(&PredicateNode, &str) -> Result<(), CellError>,
}

/// No check before the engine's.
pub(crate) fn no_precheck(_: &PredicateNode, _: &str) -> Result<(), CellError> {
    Ok(())
}

/// JavaScript truthiness (jexl, js).
pub(crate) fn js_truthy(value: &Value, _: &mut Meter) -> Result<bool, BudgetExceeded> {
    Ok(value.is_truthy())
}

/// A cell over one engine and one dialect.
pub(crate) struct ExpressionCell {
    dialect: &'static Dialect,
    /// Builds the engine.
    build: Box<dyn Fn() -> Result<Arc<dyn Engine>, CellError> + Send + Sync>,
    /// The engine, built on first use (a Lua sandbox runs its canaries then).
    engine: OnceLock<Result<Arc<dyn Engine>, CellError>>,
    /// What one evaluation may spend.
    limits: Limits,
    /// Compiled programs by source.
    cache: FifoCache<String, Compiled<Arc<dyn Program>>>,
}

impl ExpressionCell {
    /// A cell of `dialect` over `engine`, each evaluation under `limits`.
    pub(crate) fn new(dialect: &'static Dialect, engine: Arc<dyn Engine>, limits: Limits) -> ExpressionCell {
        ExpressionCell::lazy(dialect, move || Ok(Arc::clone(&engine)), limits)
    }

    /// A cell whose engine `build` makes on first use; a failure is remembered.
    pub(crate) fn lazy(
        dialect: &'static Dialect,
        build: impl Fn() -> Result<Arc<dyn Engine>, CellError> + Send + Sync + 'static,
        limits: Limits,
    ) -> ExpressionCell {
        ExpressionCell {
            dialect,
            build: Box::new(build),
            engine: OnceLock::new(),
            limits,
            cache: FifoCache::new(CACHE_CAPACITY),
        }
    }

    /// The engine, built on first use.
    pub(crate) fn engine(&self) -> Result<&Arc<dyn Engine>, CellError> {
        self.engine
            .get_or_init(|| (self.build)())
            .as_ref()
            .map_err(Clone::clone)
    }

    /// Checks a node at freeze: its cases, its source text, the dialect's own check, and every
    /// check of the engine's validation (parse, allow-lists, lints, registrations).
    pub(crate) fn validate(&self, node: &PredicateNode) -> Result<(), CellError> {
        let id = self.dialect.id;
        check_cases(id, node)?;
        let source = source_text(id, node, self.dialect.example)?.to_string_lossy();
        (self.dialect.precheck)(node, &source)?;
        self.engine()?
            .validate(Source::Json(&node.predicate), &self.limits)
            .map(drop)
            .map_err(|diagnostic| {
                CellError::invalid(
                    node,
                    format!(
                        "{id} cell: node '{}' has a predicate that {} ({}): {}",
                        node.id,
                        self.dialect.invalid,
                        diagnostic.code(),
                        diagnostic.full_message()
                    ),
                )
            })
    }

    /// Decides `node` over `context`: never fails, a fault gives the negative verdict.
    pub(crate) fn decide(&self, node: &PredicateNode, context: &PredicateContext) -> Evaluation {
        let Some(source) = node.predicate.as_str() else {
            return Evaluation::faulted(node, not_source_fault(self.dialect.id, node));
        };
        let engine = match self.engine() {
            Ok(engine) => engine,
            Err(error) => return Evaluation::faulted(node, Fault::new(FaultKind::Runtime, error.code, error.message)),
        };
        let source = source.to_string_lossy();
        let compiled = get_or_compile(&self.cache, source.as_ref(), || {
            engine
                .compile(Source::Text(&source), &self.limits)
                .map_err(|diagnostic| self.fault(&diagnostic))
        });
        let program = match compiled.as_ref() {
            Ok(program) => program,
            Err(fault) => return Evaluation::faulted(node, fault.clone()),
        };
        let input = (self.dialect.snapshot)(context);
        // The clock only bounds the evaluation; it starts at the first check, so a small
        // predicate never reads it.
        let mut meter = Meter::starting_at_first_check(&self.limits, None);
        // A cell reads no clock and no random source: the same snapshot, the same verdict.
        let host = FixedHost::default();
        let result = match program.evaluate(&input, &Object::new(), &mut meter, &host) {
            Ok(result) => result,
            Err(diagnostic) => return Evaluation::faulted(node, self.fault(&diagnostic)),
        };
        match &node.decision {
            Decision::Branch => match (self.dialect.holds)(&result, &mut meter) {
                Ok(matched) => Evaluation::decided(Verdict::Branch { matched }),
                Err(exceeded) => Evaluation::faulted(node, budget_fault("budget-exceeded", exceeded)),
            },
            Decision::Select { cases } => select_verdict(node, cases, &result, (self.dialect.label)(&result)),
        }
    }

    /// The fault a diagnostic gives: its kind from its category, its code and message kept.
    fn fault(&self, diagnostic: &Diagnostic) -> Fault {
        let code = diagnostic.code();
        if self.dialect.bad_result_codes.contains(&code) {
            return Fault::new(FaultKind::BadResult, code, diagnostic.full_message());
        }
        match kind(diagnostic.category()) {
            FaultKind::BudgetExceeded => budget_fault(code, diagnostic.full_message()),
            kind => Fault::new(kind, code, diagnostic.full_message()),
        }
    }
}

/// The fault kind of a diagnostic's category: what the author must fix before it runs is an
/// invalid predicate; a bound is a spent budget; a wrong type is a type mismatch; anything
/// else that happened while running is a runtime fault.
pub(crate) fn kind(category: Category) -> FaultKind {
    match category {
        Category::Type => FaultKind::TypeMismatch,
        Category::Budget => FaultKind::BudgetExceeded,
        Category::Runtime | Category::Host => FaultKind::Runtime,
        _ => FaultKind::InvalidPredicate,
    }
}

/// The fault of a predicate that reached `evaluate` without being source text.
fn not_source_fault(cell: &str, node: &PredicateNode) -> Fault {
    Fault::new(
        FaultKind::InvalidPredicate,
        FaultKind::InvalidPredicate.code(),
        format!(
            "{cell} cell: node '{}' carries {} as its predicate, not source text",
            node.id,
            node.predicate.kind().described()
        ),
    )
}
