//! The engine seam: one face for every language writ evaluates.
//!
//! An [`Engine`] is a configured language (its host functions, transforms or sandbox chosen by
//! whoever built it). It compiles a [`Source`] once into a [`Program`], which is `Send + Sync`
//! and evaluates any number of times, from any thread, over an input [`Value`] and bindings,
//! charging the caller's [`Meter`] and reading time and randomness only from the caller's
//! [`Host`]. Every failure is a [`Diagnostic`]. [`Engine::validate`] runs the checks a predicate
//! cell runs at freeze — the parse, the allow-lists, the dialect lints — without running
//! anything.
//!
//! Limits are the [`Meter`]'s everywhere; each language keeps its own limit names only at the
//! JSON edge, where [`Engine::limit_names`] is the one table that maps them onto [`Limits`]
//! ([`apply_limits`]).

use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use crate::{Category, Diagnostic, Host, Limits, Meter, Object, Value, closest_name};

/// The code of a source that a text language was handed as JSON other than a string.
pub const SOURCE_NOT_TEXT: &str = "source-not-text";

/// The text (or, for the structured language, the JSON) a model wrote.
#[derive(Clone, Copy, Debug)]
pub enum Source<'a> {
    /// Source text.
    Text(&'a str),
    /// A JSON value: a structured predicate as a plan carries it, or a string of source text.
    Json(&'a Value),
}

impl<'a> Source<'a> {
    /// The source as text, when it is text (a JSON string counts; a lone surrogate in it is
    /// written as its `\uXXXX` escape, which every text language reads inside a string literal
    /// as the same code unit).
    pub fn text(self) -> Option<std::borrow::Cow<'a, str>> {
        match self {
            Source::Text(text) => Some(std::borrow::Cow::Borrowed(text)),
            Source::Json(Value::String(text)) => Some(match text.to_str() {
                Some(text) => std::borrow::Cow::Owned(text.into_owned()),
                None => std::borrow::Cow::Owned(
                    char::decode_utf16(text.code_units())
                        .map(|unit| match unit {
                            Ok(c) => c.to_string(),
                            Err(lone) => format!("\\u{:04x}", lone.unpaired_surrogate()),
                        })
                        .collect(),
                ),
            }),
            Source::Json(_) => None,
        }
    }

    /// The source as text, or the diagnostic a text language gives JSON that is not a string.
    ///
    /// # Errors
    ///
    /// [`SOURCE_NOT_TEXT`] in [`Category::Syntax`], naming `language` and what was found.
    pub fn require_text(self, language: &str) -> Result<std::borrow::Cow<'a, str>, Diagnostic> {
        self.text().ok_or_else(|| {
            let found = match self {
                Source::Json(value) => value.kind().described(),
                Source::Text(_) => "text",
            };
            Diagnostic::new(
                SOURCE_NOT_TEXT,
                Category::Syntax,
                format!("a {language} source is text, found {found}"),
            )
            .with_help(format!("write the {language} expression as a JSON string"))
        })
    }
}

impl<'a> From<&'a str> for Source<'a> {
    fn from(text: &'a str) -> Source<'a> {
        Source::Text(text)
    }
}

impl<'a> From<&'a Value> for Source<'a> {
    fn from(value: &'a Value) -> Source<'a> {
        Source::Json(value)
    }
}

/// What validation learned about a source that passed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Validation {
    /// The top-level names the source reads from its input, where the language can tell
    /// (sorted, each once).
    pub reads: Vec<String>,
    /// The host functions, transforms or tools the source calls (sorted, each once).
    pub calls: Vec<String>,
}

/// A language writ evaluates, configured: the one seam the CLI, the predicate cells, the plan
/// runtime and the workflow runtime evaluate expressions through.
pub trait Engine: Send + Sync + fmt::Debug {
    /// The language's name, as `writ eval --lang` spells it (`js`, `jsonata`, `jexl`, `lua`,
    /// `structured`).
    fn language(&self) -> &'static str;

    /// The language's limit names at the JSON edge, and the [`Limits`] field each sets.
    fn limit_names(&self) -> &'static [LimitName];

    /// The limits an evaluation gets when its caller sets none (each seed names its own).
    fn default_limits(&self) -> Limits;

    /// Parses and checks `source` once. `limits` bounds the source itself
    /// ([`Limits::max_source_length`]); evaluation is bounded by the [`Meter`] passed to
    /// [`Program::evaluate`].
    ///
    /// # Errors
    ///
    /// The first problem found, in the language's codes.
    fn compile(&self, source: Source<'_>, limits: &Limits) -> Result<Arc<dyn Program>, Diagnostic>;

    /// Every check [`compile`](Engine::compile) makes, plus the linter's, without running
    /// anything: what a predicate cell runs at freeze.
    ///
    /// # Errors
    ///
    /// The first problem found.
    fn validate(&self, source: Source<'_>, limits: &Limits) -> Result<Validation, Diagnostic>;

    /// Compiles and evaluates once, under a fresh [`Meter`] on `limits` whose clock is the
    /// host's: the whole of `writ eval` for one request.
    ///
    /// # Errors
    ///
    /// As [`compile`](Engine::compile) and [`Program::evaluate`].
    fn run(
        &self,
        source: Source<'_>,
        input: &Value,
        bindings: &Object,
        limits: &Limits,
        host: Arc<dyn Host>,
    ) -> Result<Value, Diagnostic> {
        let program = self.compile(source, limits)?;
        let mut meter = Meter::with_clock(limits, host.clone());
        program.evaluate(input, bindings, &mut meter, host.as_ref())
    }
}

/// A compiled source: evaluates any number of times, from any thread.
pub trait Program: Send + Sync + fmt::Debug {
    /// Evaluates over `input` with `bindings`, charging `meter` and reading time and randomness
    /// only from `host`. `Value::Undefined` is "no value" (JavaScript's `undefined`, JSONata's
    /// empty result).
    ///
    /// What `input` and `bindings` mean is the language's: the JavaScript subset reads the
    /// names of `input`'s object and then of `bindings`; JSONata's input document is `input`
    /// and `bindings` its `$`-variables; Jexl's context and Lua's `ctx` are `input`; a
    /// structured predicate's paths resolve against `input`. A language without variables
    /// ignores `bindings`.
    ///
    /// # Errors
    ///
    /// A [`Diagnostic`]; a crossed bound is in [`Category::Budget`].
    fn evaluate(
        &self,
        input: &Value,
        bindings: &Object,
        meter: &mut Meter,
        host: &dyn Host,
    ) -> Result<Value, Diagnostic>;
}

/// Which field of [`Limits`] a language's limit name sets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum LimitField {
    /// [`Limits::steps`].
    Steps,
    /// [`Limits::time`], in milliseconds.
    Milliseconds,
    /// [`Limits::max_string_length`].
    StringLength,
    /// [`Limits::max_array_length`].
    ArrayLength,
    /// [`Limits::max_total_allocation`].
    TotalAllocation,
    /// [`Limits::max_source_length`].
    SourceLength,
    /// [`Limits::max_depth`].
    Depth,
    /// [`Limits::max_memory_bytes`].
    MemoryBytes,
}

/// Which amounts a limit accepts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Amounts {
    /// An integer from 0 up (seed 004's budgets: 0 refuses all work).
    NonNegative,
    /// An integer from 1 up, or `"Infinity"` for no bound (seed 001's expression limits).
    PositiveOrInfinity,
}

/// One limit a language accepts at the JSON edge: its name as the language spells it, the
/// [`Limits`] field it sets, and the amounts it takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LimitName {
    /// The name, as the language's specification spells it (`timeout`, `maxStringLength`, …).
    pub name: &'static str,
    /// The field it sets.
    pub field: LimitField,
    /// What it accepts.
    pub amounts: Amounts,
}

impl LimitName {
    /// A limit that takes an integer from 0 up.
    pub const fn count(name: &'static str, field: LimitField) -> LimitName {
        LimitName {
            name,
            field,
            amounts: Amounts::NonNegative,
        }
    }

    /// A limit that takes an integer from 1 up, or `"Infinity"`.
    pub const fn bound_or_infinity(name: &'static str, field: LimitField) -> LimitName {
        LimitName {
            name,
            field,
            amounts: Amounts::PositiveOrInfinity,
        }
    }
}

/// The largest integer a JSON number holds exactly.
const MAX_SAFE_INTEGER: f64 = 9_007_199_254_740_991.0;

/// Reads one limit's amount: `Some(n)` for a bound, `None` for no bound.
fn amount(limit: &LimitName, value: &Value) -> Result<Option<u64>, String> {
    let integer = |lowest: f64| {
        value
            .as_number()
            .filter(|number| number.fract() == 0.0 && *number >= lowest && *number <= MAX_SAFE_INTEGER)
            .map(|number| number as u64)
    };
    let found = || value.to_json_string().unwrap_or_else(|| "undefined".into());
    match limit.amounts {
        Amounts::NonNegative => integer(0.0).map(Some).ok_or_else(|| {
            format!(
                "limit '{}' must be a non-negative integer, found {}",
                limit.name,
                found()
            )
        }),
        Amounts::PositiveOrInfinity => {
            let unbounded =
                value.as_str().is_some_and(|text| text.eq_str("Infinity")) || value.as_number() == Some(f64::INFINITY);
            if unbounded {
                return Ok(None);
            }
            integer(1.0).map(Some).ok_or_else(|| {
                format!(
                    "limit '{}' must be a positive integer, or \"Infinity\" for no bound, found {}",
                    limit.name,
                    found()
                )
            })
        }
    }
}

/// Applies a JSON object of limits, in a language's own `names`, on top of `base`: the one
/// place a language's limit names meet the [`Meter`]'s bounds.
///
/// # Errors
///
/// A message naming the limit: a value its limit does not accept ([`Amounts`]), or a name the
/// language does not know (with the nearest known name).
///
/// # Example
///
/// ```
/// use std::time::Duration;
/// use writ_core::{LimitField, LimitName, Limits, apply_limits, parse_json};
///
/// const NAMES: &[LimitName] = &[LimitName::bound_or_infinity("timeout", LimitField::Milliseconds)];
/// let limits = apply_limits(Limits::UNLIMITED, &parse_json(r#"{"timeout": 50}"#)?, NAMES, "jsonata")?;
/// assert_eq!(limits.time, Some(Duration::from_millis(50)));
/// let refused = apply_limits(Limits::UNLIMITED, &parse_json(r#"{"timout": 50}"#)?, NAMES, "jsonata");
/// assert_eq!(
///     refused.unwrap_err(),
///     "unknown limit 'timout' for jsonata (did you mean 'timeout'?); the limits are timeout"
/// );
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn apply_limits(base: Limits, json: &Value, names: &[LimitName], language: &str) -> Result<Limits, String> {
    let Value::Object(object) = json else {
        return Err(format!(
            "limits must be a JSON object such as {{\"{}\": 10000}}, found {}",
            names.first().map_or("steps", |name| name.name),
            json.kind().described()
        ));
    };
    let mut limits = base;
    for (key, value) in object.iter() {
        let key = key.to_string_lossy();
        let Some(limit) = names.iter().find(|limit| limit.name == key) else {
            let known: Vec<&str> = names.iter().map(|limit| limit.name).collect();
            let hint = closest_name(&key, known.iter().copied())
                .map(|nearest| format!(" (did you mean '{nearest}'?)"))
                .unwrap_or_default();
            return Err(format!(
                "unknown limit '{key}' for {language}{hint}; the limits are {}",
                known.join(", ")
            ));
        };
        let amount = amount(limit, value)?;
        match limit.field {
            LimitField::Steps => limits.steps = amount,
            LimitField::Milliseconds => limits.time = amount.map(Duration::from_millis),
            LimitField::StringLength => limits.max_string_length = amount,
            LimitField::ArrayLength => limits.max_array_length = amount,
            LimitField::TotalAllocation => limits.max_total_allocation = amount,
            LimitField::SourceLength => limits.max_source_length = amount,
            LimitField::MemoryBytes => limits.max_memory_bytes = amount,
            LimitField::Depth => {
                limits.max_depth = amount.map(|depth| u32::try_from(depth).unwrap_or(u32::MAX));
            }
        }
    }
    Ok(limits)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse_json;

    const STEPS_AND_MS: &[LimitName] = &[
        LimitName::count("steps", LimitField::Steps),
        LimitName::count("ms", LimitField::Milliseconds),
    ];

    const SEED_001: &[LimitName] = &[
        LimitName::bound_or_infinity("timeout", LimitField::Milliseconds),
        LimitName::bound_or_infinity("depth", LimitField::Depth),
        LimitName::bound_or_infinity("steps", LimitField::Steps),
        LimitName::bound_or_infinity("sequence", LimitField::ArrayLength),
    ];

    fn apply_text(text: &str) -> Result<Limits, String> {
        let json = parse_json(text).expect("valid JSON");
        apply_limits(Limits::UNLIMITED, &json, STEPS_AND_MS, "structured")
    }

    #[test]
    fn known_names_set_their_fields() {
        let limits = apply_text(r#"{"steps": 10, "ms": 5}"#).expect("valid limits");
        assert_eq!(limits.steps, Some(10));
        assert_eq!(limits.time, Some(Duration::from_millis(5)));
    }

    #[test]
    fn unknown_names_and_bad_values_are_refused() {
        assert_eq!(
            apply_text(r#"{"setps": 10}"#).expect_err("misspelled"),
            "unknown limit 'setps' for structured (did you mean 'steps'?); the limits are steps, ms"
        );
        for bad in [r#"{"steps": -1}"#, r#"{"steps": 1.5}"#, r#"{"steps": "10"}"#, "[]"] {
            assert!(apply_text(bad).is_err(), "{bad}");
        }
    }

    fn apply_seed_001(text: &str) -> Result<Limits, String> {
        let json = parse_json(text).expect("valid JSON");
        let base = Limits {
            steps: Some(7),
            ..Limits::UNLIMITED
        };
        apply_limits(base, &json, SEED_001, "jsonata")
    }

    #[test]
    fn seed_001_limits_are_positive_integers_or_infinity() {
        let limits = apply_seed_001(r#"{"timeout": 50, "depth": 20, "sequence": 1000}"#).expect("valid limits");
        assert_eq!(limits.time, Some(Duration::from_millis(50)));
        assert_eq!(limits.max_depth, Some(20));
        assert_eq!(limits.max_array_length, Some(1000));
        assert_eq!(limits.steps, Some(7), "an unset limit keeps its base");
        let limits = apply_seed_001(r#"{"steps": "Infinity", "depth": 1e400}"#).expect("unbounded");
        assert_eq!((limits.steps, limits.max_depth), (None, None));
        let limits = apply_seed_001(r#"{"depth": 1e15}"#).expect("a huge depth saturates");
        assert_eq!(limits.max_depth, Some(u32::MAX));
        for bad in [
            r#"{"timeout": 0}"#,
            r#"{"timeout": -5}"#,
            r#"{"depth": 2.5}"#,
            r#"{"steps": "100"}"#,
            r#"{"steps": "infinity"}"#,
            r#"{"sequence": null}"#,
            r#"{"sequence": true}"#,
        ] {
            let message = apply_seed_001(bad).expect_err(bad);
            assert!(
                message.contains("must be a positive integer, or \"Infinity\""),
                "{bad}: {message}"
            );
        }
    }

    #[test]
    fn a_json_source_is_text_only_when_a_string() {
        let lone = Value::String(crate::Str::from_utf16(&[0x22, 0xD800, 0x22]));
        assert_eq!(Source::Json(&lone).text().as_deref(), Some("\"\\ud800\""));
        let refused = Source::Json(&Value::from(1.0)).require_text("jexl").unwrap_err();
        assert_eq!(refused.message(), "a jexl source is text, found a number");
    }
}
