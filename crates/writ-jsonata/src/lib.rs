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

pub use error::{Error, ErrorDetails, Result};
pub use writ_core::{Clock, Interrupt, Str, Value};

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

/// Where `$now()`, `$millis()` and `$random()` come from.
pub trait Host: Send + Sync {
    /// Milliseconds since the Unix epoch. Read once per evaluation, at its first use, so every
    /// `$now()` of one evaluation agrees, as in jsonata-js.
    fn now_millis(&self) -> f64;
    /// A number in `[0, 1)`.
    fn random(&self) -> f64;
}

/// A host that always answers the same: the clock stands at `millis`, and `$random()` walks a
/// fixed pseudo-random sequence from `seed`. The default, so that evaluation is deterministic
/// unless the host opts into the real clock.
#[derive(Debug)]
pub struct FixedHost {
    millis: f64,
    state: std::sync::atomic::AtomicU64,
}

impl FixedHost {
    /// The clock at `millis`, random numbers from `seed`.
    pub fn new(millis: f64, seed: u64) -> FixedHost {
        FixedHost {
            millis,
            state: std::sync::atomic::AtomicU64::new(seed),
        }
    }
}

impl Default for FixedHost {
    /// The Unix epoch and seed 0.
    fn default() -> FixedHost {
        FixedHost::new(0.0, 0)
    }
}

impl Host for FixedHost {
    fn now_millis(&self) -> f64 {
        self.millis
    }

    fn random(&self) -> f64 {
        use std::sync::atomic::Ordering;
        // splitmix64: one atomic step per draw, so a shared host stays deterministic per thread
        // order and never repeats a short cycle.
        let mut z = self
            .state
            .fetch_add(0x9E37_79B9_7F4A_7C15, Ordering::Relaxed)
            .wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        (z >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// The system clock and a random source seeded from it: for hosts that want `$now()` to be now.
#[derive(Debug)]
pub struct SystemHost(FixedHost);

impl Default for SystemHost {
    fn default() -> SystemHost {
        let seed = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64);
        SystemHost(FixedHost::new(0.0, seed))
    }
}

impl Host for SystemHost {
    fn now_millis(&self) -> f64 {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0.0, |d| d.as_millis() as f64)
    }

    fn random(&self) -> f64 {
        self.0.random()
    }
}

/// How one evaluation runs.
#[derive(Clone)]
pub struct Options {
    /// Its bounds.
    pub limits: JsonataLimits,
    /// Variables bound before it starts, by name without `$`.
    pub bindings: Vec<(Str, Value)>,
    /// Where `$now()`, `$millis()` and `$random()` come from.
    pub host: Arc<dyn Host>,
    /// The clock the timeout is measured on (the system's by default).
    pub clock: Option<Arc<dyn Clock>>,
    /// A flag the host may raise to stop the evaluation (U1003).
    pub interrupt: Option<Interrupt>,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            limits: JsonataLimits::default(),
            bindings: Vec::new(),
            host: Arc::new(FixedHost::default()),
            clock: None,
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
            steps: self.steps,
            time: self.timeout.map(clock_budget),
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
fn clock_budget(timeout: u64) -> Duration {
    let timeout = Duration::from_millis(timeout);
    timeout - (timeout / 5).min(Duration::from_millis(25))
}

/// A compiled JSONata expression: parse once, evaluate many times, from any thread.
#[derive(Clone, Debug)]
pub struct Expression {
    root: Arc<ast::Node>,
}

impl Expression {
    /// Parses `source`.
    ///
    /// # Errors
    ///
    /// JSONata's S-codes for syntax errors (S0201 and the rest), with the position.
    pub fn compile(source: &str) -> Result<Expression> {
        Ok(Expression {
            root: Arc::new(parse::parse(source)?),
        })
    }

    /// Evaluates over `input` (`Value::Undefined` for none). `Value::Undefined` in the answer is
    /// JSONata's "no result".
    ///
    /// # Errors
    ///
    /// JSONata's T- and D-codes for type and runtime errors; D1012/D1011/D2015/U1006 when a
    /// bound is crossed.
    pub fn evaluate(&self, input: &Value, options: &Options) -> Result<Value> {
        let mut meter = writ_core::Meter::starting_at_first_check(&options.limits.to_core(), options.clock.clone());
        if let Some(interrupt) = &options.interrupt {
            meter = meter.with_interrupt(interrupt.clone());
        }
        eval::evaluate_root(&self.root, input, options, meter).map_err(|mut error| {
            // The meter's clock runs short of the timeout (see `clock_budget`); the error
            // names the timeout the host set.
            if let ("D1012", Some(timeout)) = (error.code, options.limits.timeout) {
                error.value = Some(timeout.to_string());
            }
            error
        })
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
            Err(error) => error.code.to_string(),
        }
    }

    /// [`eval_with`] under the default limits.
    pub(crate) fn eval(expr: &str, data: &str) -> String {
        eval_with(expr, data, crate::JsonataLimits::default())
    }
}
