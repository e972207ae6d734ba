//! `--limits` and per-line `limits`: each language's own limit names, mapped onto
//! [`writ_core::Limits`] (and, for js, the longest source).
//!
//! js and structured take non-negative integers; jsonata, as seed 001 writes its limits, takes
//! positive integers or `"Infinity"` (no bound).

use std::time::Duration;

use writ_core::{Limits, Value, closest_name};

/// Which field of [`Limits`] a language's limit name sets.
#[derive(Clone, Copy, Debug)]
pub enum LimitField {
    Steps,
    Milliseconds,
    StringLength,
    ArrayLength,
    TotalAllocation,
    SourceLength,
    Depth,
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

/// The limits of one request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RequestLimits {
    /// What an evaluation may spend.
    pub limits: Limits,
    /// The longest source, for languages that bound it before parsing.
    pub max_source_length: Option<u64>,
    /// The memory ceiling, for languages whose VM allocates on its own (lua).
    pub memory_bytes: Option<u64>,
}

impl From<Limits> for RequestLimits {
    fn from(limits: Limits) -> RequestLimits {
        RequestLimits {
            limits,
            max_source_length: None,
            memory_bytes: None,
        }
    }
}

/// One limit a language accepts: its name as the language spells it, and what it sets.
#[derive(Clone, Copy, Debug)]
pub struct LimitName {
    pub name: &'static str,
    pub field: LimitField,
    pub amounts: Amounts,
}

/// A limit that takes an integer from 0 up.
const fn count(name: &'static str, field: LimitField) -> LimitName {
    LimitName {
        name,
        field,
        amounts: Amounts::NonNegative,
    }
}

/// A limit that takes an integer from 1 up, or `"Infinity"`.
const fn bound_or_infinity(name: &'static str, field: LimitField) -> LimitName {
    LimitName {
        name,
        field,
        amounts: Amounts::PositiveOrInfinity,
    }
}

/// A step count and a time in milliseconds, as seed 004 names them (`steps`, `ms`).
pub const STEPS_AND_MS: &[LimitName] = &[count("steps", LimitField::Steps), count("ms", LimitField::Milliseconds)];

/// Seed 004's budget names for the js language.
pub const JS_LIMITS: &[LimitName] = &[
    count("steps", LimitField::Steps),
    count("ms", LimitField::Milliseconds),
    count("maxStringLength", LimitField::StringLength),
    count("maxArrayLength", LimitField::ArrayLength),
    count("maxTotalAllocation", LimitField::TotalAllocation),
    count("maxSourceLength", LimitField::SourceLength),
];

/// Seed 001's expression limits for jsonata: `timeout` (ms), `depth`, `steps`, and `sequence`
/// (the longest sequence or array one evaluation may build).
pub const JSONATA_LIMITS: &[LimitName] = &[
    bound_or_infinity("timeout", LimitField::Milliseconds),
    bound_or_infinity("depth", LimitField::Depth),
    bound_or_infinity("steps", LimitField::Steps),
    bound_or_infinity("sequence", LimitField::ArrayLength),
];

/// The jexl cell's limits, in seed 004's names: steps, ms, and the longest string and array
/// one evaluation may build, plus the deepest nesting.
pub const JEXL_LIMITS: &[LimitName] = &[
    count("steps", LimitField::Steps),
    count("ms", LimitField::Milliseconds),
    count("maxStringLength", LimitField::StringLength),
    count("maxArrayLength", LimitField::ArrayLength),
    count("maxDepth", LimitField::Depth),
];

/// The Lua cell's limits, named as seed 000's `status()` names them.
pub const LUA_LIMITS: &[LimitName] = &[
    count("timeoutMs", LimitField::Milliseconds),
    count("instructionLimit", LimitField::Steps),
    count("memoryCeilingBytes", LimitField::MemoryBytes),
];

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

/// Applies a JSON object of limits on top of `base`.
///
/// Each value must be what its limit accepts ([`Amounts`]); a name the language does not know
/// is refused with the nearest known name.
pub fn apply(base: RequestLimits, json: &Value, names: &[LimitName], language: &str) -> Result<RequestLimits, String> {
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
            LimitField::Steps => limits.limits.steps = amount,
            LimitField::Milliseconds => limits.limits.time = amount.map(Duration::from_millis),
            LimitField::StringLength => limits.limits.max_string_length = amount,
            LimitField::ArrayLength => limits.limits.max_array_length = amount,
            LimitField::TotalAllocation => limits.limits.max_total_allocation = amount,
            LimitField::SourceLength => limits.max_source_length = amount,
            LimitField::MemoryBytes => limits.memory_bytes = amount,
            LimitField::Depth => {
                limits.limits.max_depth = amount.map(|depth| u32::try_from(depth).unwrap_or(u32::MAX));
            }
        }
    }
    Ok(limits)
}

#[cfg(test)]
mod tests {
    use super::*;

    const NAMES: &[LimitName] = STEPS_AND_MS;

    fn apply_text(text: &str) -> Result<Limits, String> {
        let json = writ_core::parse_json(text).expect("valid JSON");
        apply(Limits::UNLIMITED.into(), &json, NAMES, "structured").map(|limits| limits.limits)
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

    fn apply_jsonata(text: &str) -> Result<Limits, String> {
        let json = writ_core::parse_json(text).expect("valid JSON");
        let base = Limits {
            steps: Some(7),
            ..Limits::UNLIMITED
        };
        apply(base.into(), &json, JSONATA_LIMITS, "jsonata").map(|limits| limits.limits)
    }

    #[test]
    fn jsonata_limits_are_positive_integers_or_infinity() {
        let limits = apply_jsonata(r#"{"timeout": 50, "depth": 20, "sequence": 1000}"#).expect("valid limits");
        assert_eq!(limits.time, Some(Duration::from_millis(50)));
        assert_eq!(limits.max_depth, Some(20));
        assert_eq!(limits.max_array_length, Some(1000));
        assert_eq!(limits.steps, Some(7), "an unset limit keeps its base");
        let limits = apply_jsonata(r#"{"steps": "Infinity", "depth": 1e400}"#).expect("unbounded");
        assert_eq!((limits.steps, limits.max_depth), (None, None));
        let limits = apply_jsonata(r#"{"depth": 1e15}"#).expect("a huge depth saturates");
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
            let message = apply_jsonata(bad).expect_err(bad);
            assert!(
                message.contains("must be a positive integer, or \"Infinity\""),
                "{bad}: {message}"
            );
        }
        assert_eq!(
            apply_jsonata(r#"{"timout": 5}"#).expect_err("misspelled"),
            "unknown limit 'timout' for jsonata (did you mean 'timeout'?); the limits are timeout, depth, steps, \
             sequence"
        );
    }
}
