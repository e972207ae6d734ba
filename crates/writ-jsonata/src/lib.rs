//! writ-jsonata: JSONata 2.2.2, compiled once and evaluated under one budget.
//!
//! [`Expression::compile`] parses once into an immutable tree that is `Send + Sync`;
//! [`Expression::evaluate`] runs it over a writ-core [`Value`] without copying the input, under
//! [`JsonataLimits`] (timeout, depth, steps, sequence length), with `$now()`, `$millis()` and
//! `$random()` read from the [`Host`] rather than the system.
//!
//! ```
//! use writ_core::parse_json;
//! use writ_jsonata::{Expression, Options};
//!
//! let order = parse_json(r#"{"items": [{"price": 60}, {"price": 20}, {"price": 75}]}"#)?;
//! let expensive = Expression::compile("$sum(items[price > 50].price)")?;
//! let total = expensive.evaluate(&order, &Options::default())?;
//! assert_eq!(total.as_number(), Some(135.0));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![deny(missing_docs)]
#![forbid(unsafe_code)]

mod ast;
mod engine;
mod error;
mod eval;
mod function;
mod functions;
mod messages;
mod parse;
mod regex;
mod signature;
mod value;

use std::sync::Arc;
use std::time::Duration;

pub use engine::{Jsonata, LIMIT_NAMES};
pub use error::{Code, Error, Result};
pub use writ_core::{FixedHost, Host, Interrupt, Str, SystemHost, Value};

/// The most items a range (`[a..b]`) may hold, as jsonata-js caps it (D2014).
pub const MAX_RANGE: u64 = 10_000_000;

/// The longest string one evaluation may build, in UTF-16 code units (U1007 past it): a
/// bound on memory that holds whatever the limits say, as the range cap does.
pub const MAX_STRING_LENGTH: u64 = 100_000_000;

/// The bounds of one evaluation, in seed 001's names. `None` is unbounded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct JsonataLimits {
    /// Wall-clock milliseconds (D1012 past it).
    pub timeout: Option<u64>,
    /// The deepest nesting of evaluation: nested expressions and calls (D1011 past it).
    pub depth: Option<u32>,
    /// Steps: one per node evaluated, plus what built-ins charge per item (U1006 past it).
    pub steps: Option<u64>,
    /// The longest sequence or array one evaluation may build (D2015 past it).
    pub sequence: Option<u64>,
}

impl Default for JsonataLimits {
    /// Seed 001's defaults.
    fn default() -> JsonataLimits {
        JsonataLimits {
            timeout: Some(1_000),
            depth: Some(5_000),
            steps: Some(100_000_000),
            sequence: Some(10_000_000),
        }
    }
}

impl JsonataLimits {
    /// No bounds but the range cap and the hard nesting cap (for trusted expressions only).
    pub const UNBOUNDED: JsonataLimits = JsonataLimits {
        timeout: None,
        depth: None,
        steps: None,
        sequence: None,
    };
}

/// How one evaluation runs.
#[derive(Clone)]
pub struct Options {
    /// Its bounds.
    pub limits: JsonataLimits,
    /// Variables bound before it starts, by name without `$`.
    pub bindings: Vec<(Str, Value)>,
    /// Where `$now()`, `$millis()` and `$random()` come from, and the monotonic clock the
    /// timeout is measured on.
    pub host: Arc<dyn Host>,
    /// A flag the host may raise to stop the evaluation (U1003).
    pub interrupt: Option<Interrupt>,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            limits: JsonataLimits::default(),
            bindings: Vec::new(),
            host: Arc::new(FixedHost::default()),
            interrupt: None,
        }
    }
}

impl std::fmt::Debug for Options {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Options")
            .field("limits", &self.limits)
            .field("bindings", &self.bindings)
            .finish_non_exhaustive()
    }
}

impl JsonataLimits {
    fn to_core(self) -> writ_core::Limits {
        writ_core::Limits {
            time: self.timeout.map(clock_budget),
            ..self.to_meter_limits()
        }
    }

    /// The limits as writ-core [`Limits`](writ_core::Limits), the timeout as it is (what a
    /// caller's meter on the engine seam counts).
    pub fn to_meter_limits(self) -> writ_core::Limits {
        writ_core::Limits {
            steps: self.steps,
            time: self.timeout.map(Duration::from_millis),
            max_array_length: self.sequence,
            max_string_length: Some(MAX_STRING_LENGTH),
            max_depth: self.depth,
            ..writ_core::Limits::UNLIMITED
        }
    }
}

/// The time the meter gives an evaluation under `timeout` ms: a fifth of it (at most 25 ms)
/// is kept back for what follows the last clock check — finishing the piece of work in hand
/// and dropping everything the evaluation built, which takes time in proportion to what it
/// built — so that the host has its answer within the timeout, not only its error raised.
pub(crate) fn clock_budget(timeout: u64) -> Duration {
    let timeout = Duration::from_millis(timeout);
    timeout - (timeout / 5).min(Duration::from_millis(25))
}

/// A compiled JSONata expression: parse once, evaluate many times, from any thread.
#[derive(Clone, Debug)]
pub struct Expression {
    root: Arc<ast::Node>,
    /// Set when the whole expression is a test decided on an input object in place.
    quick: Option<eval::QuickTest>,
}

impl Expression {
    /// Parses `source`.
    ///
    /// # Errors
    ///
    /// JSONata's S-codes for syntax errors (S0201 and the rest), with the position.
    pub fn compile(source: &str) -> Result<Expression> {
        let root = parse::parse(source)?;
        Ok(Expression {
            quick: eval::QuickTest::of(&root),
            root: Arc::new(root),
        })
    }

    /// The answer over `input` of an expression that is a test of fields and literals
    /// (`stock > 0 and active`, `n = 0`), decided in place as [`Expression::evaluate_metered`] on a
    /// meter just made under `limits` decides it, with no meter, bindings or host: the cheap
    /// way to run many small tests. `None` when the expression is no such test, the input no
    /// object, or the limits too tight to be sure of the answer: the evaluation must then run.
    ///
    /// # Errors
    ///
    /// As the evaluation's: a comparison of mismatched types (T2009, T2010).
    pub fn quick_test(&self, input: &Value, limits: &writ_core::Limits) -> Option<Result<Value>> {
        let (quick, object) = self.quick_over(input)?;
        quick.run_fresh(object, limits)
    }

    /// The answer of an expression that is a test over an object, decided in place; `None`
    /// when the evaluation must be set up.
    #[inline]
    fn quick_answer(&self, input: &Value, meter: &mut writ_core::Meter) -> Option<Result<Value>> {
        let (quick, object) = self.quick_over(input)?;
        quick.run(object, meter)
    }

    /// The expression's quick test and the object it would read, when it is one and `input`
    /// is an object.
    #[inline]
    fn quick_over<'v>(&self, input: &'v Value) -> Option<(&eval::QuickTest, &'v writ_core::Object)> {
        match (&self.quick, input) {
            (Some(quick), Value::Object(object)) => Some((quick, object)),
            _ => None,
        }
    }

    /// Evaluates over `input` (`Value::Undefined` for none). `Value::Undefined` in the answer is
    /// JSONata's "no result".
    ///
    /// # Errors
    ///
    /// JSONata's T- and D-codes for type and runtime errors; D1012/D1011/D2015/U1006 when a
    /// bound is crossed.
    pub fn evaluate(&self, input: &Value, options: &Options) -> Result<Value> {
        let mut meter =
            writ_core::Meter::starting_at_first_check(&options.limits.to_core(), writ_core::meter_clock(&options.host));
        if let Some(interrupt) = &options.interrupt {
            meter = meter.with_interrupt(interrupt.clone());
        }
        let bindings = options.bindings.iter().map(|(name, value)| (name, value));
        let answer = match self.quick_answer(input, &mut meter) {
            Some(answer) => answer,
            None => eval::evaluate_root(&self.root, input, bindings, &mut meter, options.host.as_ref()),
        };
        answer.map_err(|error| {
            // The meter's clock runs short of the timeout (see `clock_budget`); the error
            // names the timeout the host set.
            match (error.code(), options.limits.timeout) {
                (Code::D1012, Some(timeout)) => error.with_value(timeout.to_string()),
                _ => error,
            }
        })
    }

    /// Evaluates over `input` with `bindings` as its `$`-variables, charging the caller's
    /// `meter` and reading `$now()`, `$millis()` and `$random()` from `host`: the engine seam's
    /// evaluation ([`writ_core::Program`]).
    ///
    /// # Errors
    ///
    /// As [`Expression::evaluate`]; D1012 names the meter's own time limit.
    pub fn evaluate_metered(
        &self,
        input: &Value,
        bindings: &writ_core::Object,
        meter: &mut writ_core::Meter,
        host: &dyn Host,
    ) -> Result<Value> {
        if let Some(answer) = self.quick_answer(input, meter) {
            return answer;
        }
        if bindings.is_empty() {
            // Most evaluations bind nothing: no walk over the bindings is set up for them.
            return eval::evaluate_root(&self.root, input, std::iter::empty(), meter, host);
        }
        eval::evaluate_root(&self.root, input, bindings.iter(), meter, host)
    }
}

const _: () = {
    const fn send_sync<T: Send + Sync>() {}
    send_sync::<Expression>();
};

/// What the built-ins' unit tests share.
#[cfg(test)]
mod testing {
    use writ_core::Value;

    /// Evaluates `expr` over `data` (JSON text, empty for no input) under `limits`, and writes
    /// the answer as JSON: `undefined` for no value, the code for an error.
    pub(crate) fn eval_with(expr: &str, data: &str, limits: crate::JsonataLimits) -> String {
        let input = if data.is_empty() {
            Value::Undefined
        } else {
            writ_core::parse_json(data).expect("valid JSON")
        };
        let options = crate::Options {
            limits,
            ..crate::Options::default()
        };
        match crate::Expression::compile(expr).and_then(|e| e.evaluate(&input, &options)) {
            Ok(value) => value.to_json_string().unwrap_or_else(|| "undefined".to_string()),
            Err(error) => error.code().to_string(),
        }
    }

    /// [`eval_with`] under the default limits.
    pub(crate) fn eval(expr: &str, data: &str) -> String {
        eval_with(expr, data, crate::JsonataLimits::default())
    }
}
