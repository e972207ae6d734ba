//! writ-jexl: [Jexl](https://github.com/TomFrost/Jexl) 2.3, the expression language of seed
//! 000's jexl cell, parsed once and interpreted from a tree under a budget.
//!
//! A model writes a predicate such as `items[.age >= 30][0].name == "ada"`; the host compiles it
//! once with [`Jexl::compile`] and evaluates the [`Expression`] over any number of contexts.
//! Evaluation reads the context where it lives (nothing is copied: a read or a filter's result
//! shares the context's values by reference count), never panics, and stops with
//! `budget-exceeded` when it passes its [`Limits`].
//!
//! ```
//! use writ_core::parse_json;
//! use writ_jexl::Jexl;
//!
//! let jexl = Jexl::new().with_standard_transforms(&["upper"])?;
//! let expression = jexl.compile(r#"items[.age >= 30][0].name|upper == "ADA""#)?;
//! let context = parse_json(r#"{"items": [{"name": "bo", "age": 20}, {"name": "ada", "age": 36}]}"#)?;
//! assert_eq!(expression.evaluate(&context)?, writ_core::Value::Bool(true));
//! assert_eq!(expression.transforms(), vec![writ_core::Str::from("upper")]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # The language
//!
//! Exactly jexl-js 2.3.0's grammar and answers, checked case by case against it:
//!
//! - Literals: numbers (`1`, `-2.5`, `.5` is not one), strings in either quote (the only escape
//!   is a backslash before the quote; jexl-js also turns the first `\\` into `\`), `true` and
//!   `false`. There is no `null` literal: `null` is a name, usually undefined.
//! - Names read the context: `order.total`. A name may use ASCII letters, digits, `_`, `$`,
//!   Latin-1 letters and basic Cyrillic letters. `a.b` on an array reads `b` of its first
//!   element (a `jexl-runtime` error when the array is empty or that element is `null`); on
//!   `undefined` or `null` it is `undefined`. `.name` outside brackets reads the context too.
//! - Brackets filter: `a[0]`, `a["key"]` and `a[expr]` index (a boolean keeps or drops the whole
//!   value); a bracket holding a relative name, `items[.age > 30 && .active]`, keeps the
//!   elements for which it is truthy (a value that is not an array is filtered as a list of
//!   one, `undefined` as an empty list). A relative name inside parentheses in the brackets does
//!   not count, as in jexl-js.
//! - Array and object literals: `[1, "a"]`, `{total: a + b}` (keys are bare names).
//! - Operators, loosest first: `&&` `||` (returning an operand, as in JavaScript); `==` `!=`
//!   (JavaScript's loose equality: `1 == "1"`, arrays and objects by identity) `<` `<=` `>`
//!   `>=` `in` (substring of a string, strict membership in an array); `+` (concatenates when
//!   either side is a string) `-`; `*` `/` `//` (floor division); `%` `^` (power); then `!`.
//!   A `-` directly before a number makes it negative where jexl-js reads a sign (after an
//!   operator, `(`, `[`, `?` or `:`, but not after `,`).
//! - Conditionals: `a ? b : c`, nested to the right, and `a ?: b` (the test when truthy).
//! - Transforms `value|name(args)` and functions `name(args)` exist only as the host registers
//!   them ([`Jexl::with_transform`], [`Jexl::with_function`], [`Jexl::with_standard_transforms`]);
//!   an unregistered one fails when the evaluation reaches it, as in jexl-js.
//!
//! Results are written as `JSON.stringify` writes them ([`outcome`] gives the CLI's envelope):
//! numbers as JavaScript prints them, `NaN` and infinities as `null`, `undefined` as no value.
//! Strings are UTF-16 throughout, as in JavaScript.
//!
//! # Limits
//!
//! Every node evaluated costs a step, and so does every element a filter visits, every element
//! `in` compares and every 16 code units of text scanned; strings and arrays are checked against
//! their caps before they are built; the meter's clock is read every
//! [`Limits::check_interval`] steps. Nesting is capped when the source is parsed, at the
//! depth limit and never past 1,000 levels, counting brackets and operators alike (`((!x))` is
//! four deep), so 100,000 nested `(` or `!` are refused with `budget-exceeded` rather than
//! recursed into; evaluation counts depth again on the meter. [`DEFAULT_LIMITS`]: one second, ten
//! million steps, strings of ten million code units, arrays of ten million elements, a hundred
//! million units built in all, depth 500. Evaluation is deterministic: no clock is read except
//! the meter's, and nothing is random.
//!
//! # Differences from jexl-js
//!
//! - Property reads reach data only: own keys of objects, elements and `length` of arrays and
//!   strings. jexl-js's lexer already refuses names that would reach `Object.prototype`
//!   (`a.constructor`, `toString(1)`); a computed key that reaches one (`a["constructor"]`)
//!   reads `undefined` here, where jexl-js returns the inherited function.
//! - jexl-js evaluates every element of a filter, argument list or array before reporting the
//!   first error; writ stops at the first.
//! - An empty expression (or one that is only `()`) is a `jexl-syntax` error at compile time;
//!   jexl-js throws when it is evaluated.
//! - Custom operators (`addBinaryOp`, `addUnaryOp`, `removeOp`), promises and the `expr`
//!   template tag are not offered.
//!
//! # The dialect linter
//!
//! [`lint`] names the two habits models bring from JavaScript, `===`/`!==` and a `ctx.` prefix,
//! reading tokens (never the inside of a string). When a source fails to parse and the linter
//! recognises one of them, the error is `jexl-dialect` with the lint's message.

#![forbid(unsafe_code)]
#![deny(missing_docs)]

mod answer;
mod ast;
mod coerce;
mod engine;
mod error;
mod eval;
mod lexer;
mod lint;
mod parser;
mod transforms;

use std::collections::{BTreeMap, HashSet};
use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use writ_core::{DEFAULT_CHECK_INTERVAL, Limits, Meter, Object, Outcome, Str, Value};

use crate::ast::{Callable, Kind, Pool, Program};

pub use crate::engine::LIMIT_NAMES;
pub use crate::error::{Code, Error};
pub use crate::lint::{Lint, lint};

/// The deepest nesting a source may have, whatever the limits say: deep enough for any
/// expression a person or a model writes, shallow enough that evaluating it cannot exhaust a
/// 2 MiB stack.
const MAX_NESTING: usize = 1_000;

/// The limits an engine starts with: 1 s, 10,000,000 steps, strings of 10,000,000 code units,
/// arrays of 10,000,000 elements, 100,000,000 units built in all, depth 500.
///
/// A filter over 200,000 items costs about a million steps and 5–20 ms, so these leave room for
/// large data while stopping runaway expressions within a second.
pub const DEFAULT_LIMITS: Limits = Limits {
    steps: Some(10_000_000),
    time: Some(Duration::from_millis(1_000)),
    max_string_length: Some(10_000_000),
    max_array_length: Some(10_000_000),
    max_total_allocation: Some(100_000_000),
    max_depth: Some(500),
    max_source_length: None,
    max_memory_bytes: None,
    check_interval: DEFAULT_CHECK_INTERVAL,
};

/// An engine configuration: the transforms and functions the host allows, and the limits.
///
/// Cheap to clone (registrations are shared), `Send` and `Sync`. Registration methods consume
/// and return the engine, so a configuration reads as one expression.
#[derive(Clone)]
pub struct Jexl {
    /// Transforms by name.
    transforms: Arc<BTreeMap<String, Callable>>,
    /// Functions by name.
    functions: Arc<BTreeMap<String, Callable>>,
    /// What each evaluation may spend.
    limits: Limits,
}

impl Default for Jexl {
    fn default() -> Jexl {
        Jexl::new()
    }
}

impl fmt::Debug for Jexl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Jexl")
            .field("transforms", &self.transforms.keys().collect::<Vec<_>>())
            .field("functions", &self.functions.keys().collect::<Vec<_>>())
            .field("limits", &self.limits)
            .finish()
    }
}

impl Jexl {
    /// An engine with no transforms, no functions and [`DEFAULT_LIMITS`].
    pub fn new() -> Jexl {
        Jexl {
            transforms: Arc::new(BTreeMap::new()),
            functions: Arc::new(BTreeMap::new()),
            limits: DEFAULT_LIMITS,
        }
    }

    /// The same engine with `limits` for every evaluation (and for the nesting a source may
    /// have: its `max_depth`, at most 1,000).
    pub fn with_limits(mut self, limits: Limits) -> Jexl {
        self.limits = limits;
        self
    }

    /// The limits each evaluation runs under.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// Registers transforms from writ's standard set by name: `upper`, `lower`, `split`,
    /// `join` and `length`, which behave as their JavaScript one-liners (`String(v).toUpperCase()`,
    /// `String(v).split(sep)`, `v.join(sep)` for arrays, `v.length` of strings and arrays).
    ///
    /// # Errors
    ///
    /// `jexl-unknown-transform` for a name outside the set.
    pub fn with_standard_transforms(mut self, names: &[&str]) -> Result<Jexl, Error> {
        for name in names {
            let Some(standard) = transforms::standard(name) else {
                return Err(Error::new(
                    Code::UnknownTransform,
                    format!(
                        "unknown transform: {name}; the standard transforms are {}",
                        transforms::STANDARD_NAMES.join(", ")
                    ),
                ));
            };
            Arc::make_mut(&mut self.transforms).insert((*name).to_owned(), Callable::Standard(standard));
        }
        Ok(self)
    }

    /// Registers `f` as the transform `name`: `value|name(a, b)` calls `f(&value, &[a, b])`. An
    /// `Err(message)` fails the evaluation with `jexl-transform`.
    pub fn with_transform(
        mut self,
        name: &str,
        f: impl Fn(&Value, &[Value]) -> Result<Value, String> + Send + Sync + 'static,
    ) -> Jexl {
        Arc::make_mut(&mut self.transforms).insert(name.to_owned(), Callable::Transform(Arc::new(f)));
        self
    }

    /// Registers `f` as the function `name`: `name(a, b)` calls `f(&[a, b])`. An `Err(message)`
    /// fails the evaluation with `jexl-transform`.
    pub fn with_function(
        mut self,
        name: &str,
        f: impl Fn(&[Value]) -> Result<Value, String> + Send + Sync + 'static,
    ) -> Jexl {
        Arc::make_mut(&mut self.functions).insert(name.to_owned(), Callable::Function(Arc::new(f)));
        self
    }

    /// The names of the registered transforms, in byte order.
    pub fn transform_names(&self) -> impl Iterator<Item = &str> {
        self.transforms.keys().map(String::as_str)
    }

    /// The names of the registered functions, in byte order.
    pub fn function_names(&self) -> impl Iterator<Item = &str> {
        self.functions.keys().map(String::as_str)
    }

    /// Parses `source` once, resolving its calls against this engine's registrations.
    ///
    /// # Errors
    ///
    /// `jexl-syntax` when the source is not Jexl; `jexl-dialect` when it is not Jexl and the
    /// [linter](lint) recognises why; `budget-exceeded` when it nests past the depth limit.
    pub fn compile(&self, source: &str) -> Result<Expression, Error> {
        let cap = self
            .limits
            .max_depth
            .map_or(MAX_NESTING, |depth| (depth as usize).clamp(1, MAX_NESTING));
        let mut program = parser::parse(source, cap).map_err(|error| match lint(source) {
            Some(found) => Error::new(Code::Dialect, found.message).at(found.position),
            None => error,
        })?;
        for node in &mut program.nodes {
            if let Kind::Call { pool, name, target, .. } = &mut node.kind {
                let registry = match pool {
                    Pool::Transforms => &self.transforms,
                    Pool::Functions => &self.functions,
                };
                *target = registry.get(name.to_string_lossy().as_ref()).cloned();
            }
        }
        Ok(Expression {
            program: Arc::new(program),
            limits: self.limits,
        })
    }

    /// Compiles and evaluates `source` over `context` in one go.
    ///
    /// # Errors
    ///
    /// As [`Jexl::compile`] and [`Expression::evaluate`].
    pub fn eval(&self, source: &str, context: &Value) -> Result<Value, Error> {
        self.compile(source)?.evaluate(context)
    }
}

/// A compiled expression: parsed once, evaluated any number of times, from any thread.
///
/// It holds its tree and what its calls resolved to, so later registrations on the engine do
/// not change it.
#[derive(Clone)]
pub struct Expression {
    /// The tree, shared by clones.
    program: Arc<Program>,
    /// The engine's limits when it was compiled.
    limits: Limits,
}

impl fmt::Debug for Expression {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Expression")
            .field("nodes", &self.program.nodes.len())
            .field("limits", &self.limits)
            .finish()
    }
}

impl Expression {
    /// Evaluates over `context` under the engine's limits (the clock starts at the first check,
    /// so a small expression never reads it).
    ///
    /// # Errors
    ///
    /// `jexl-runtime`, `jexl-unknown-transform`, `jexl-unknown-function`, `jexl-transform` or
    /// `budget-exceeded`; see [`Error`].
    pub fn evaluate(&self, context: &Value) -> Result<Value, Error> {
        let mut meter = Meter::starting_at_first_check(&self.limits, None);
        self.evaluate_with(context, &mut meter)
    }

    /// Evaluates over `context`, charging `meter` (for a host that shares one budget between
    /// several evaluations, or runs on its own clock).
    ///
    /// # Errors
    ///
    /// As [`Expression::evaluate`].
    pub fn evaluate_with(&self, context: &Value, meter: &mut Meter) -> Result<Value, Error> {
        // jexl-js evaluates over `context || {}`.
        let empty;
        let context = if context.is_truthy() {
            context
        } else {
            empty = Value::Object(Object::new());
            &empty
        };
        eval::Cx::new(&self.program, context, meter).run()
    }

    /// The transform names the expression calls, in the order written, each once.
    pub fn transforms(&self) -> Vec<Str> {
        self.calls(Pool::Transforms)
    }

    /// The function names the expression calls, in the order written, each once.
    pub fn functions(&self) -> Vec<Str> {
        self.calls(Pool::Functions)
    }

    /// The names called from `pool`.
    fn calls(&self, pool: Pool) -> Vec<Str> {
        let mut seen = HashSet::new();
        let mut names: Vec<Str> = Vec::new();
        for id in self.program.reachable() {
            if let Kind::Call { pool: called, name, .. } = &self.program.node(id).kind
                && *called == pool
                && seen.insert(name.clone())
            {
                names.push(name.clone());
            }
        }
        names
    }
}

/// One CLI request's answer: compiles `source` with `jexl`, evaluates it over `context`, and
/// returns the value, no value, or the error with its code.
///
/// ```
/// use writ_core::Value;
///
/// let jexl = writ_jexl::Jexl::new();
/// let answer = writ_jexl::outcome(&jexl, "a === 1", &Value::Null);
/// assert_eq!(
///     answer.to_envelope(),
///     r#"{"ok":false,"error":{"code":"jexl-dialect","message":"'===' at byte 2: JEXL's equality operator is '=='; replace '===' with '=='"}}"#
/// );
/// ```
pub fn outcome(jexl: &Jexl, source: &str, context: &Value) -> Outcome {
    match jexl.eval(source, context) {
        Ok(value) => Outcome::from(value),
        Err(error) => Outcome::error(error.code().as_str(), error.message()),
    }
}
