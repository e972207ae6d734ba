//! `--limits` and per-line `limits`: each language's own limit names, mapped onto
//! [`writ_core::Limits`] (and, for js, the longest source).

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
}

/// The limits of one request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RequestLimits {
    /// What an evaluation may spend.
    pub limits: Limits,
    /// The longest source, for languages that bound it before parsing.
    pub max_source_length: Option<u64>,
}

impl From<Limits> for RequestLimits {
    fn from(limits: Limits) -> RequestLimits {
        RequestLimits {
            limits,
            max_source_length: None,
        }
    }
}

/// One limit a language accepts: its name as the language spells it, and what it sets.
#[derive(Clone, Copy, Debug)]
pub struct LimitName {
    pub name: &'static str,
    pub field: LimitField,
}

/// A step count and a time in milliseconds, as seed 004 names them (`steps`, `ms`).
pub const STEPS_AND_MS: &[LimitName] = &[
    LimitName {
        name: "steps",
        field: LimitField::Steps,
    },
    LimitName {
        name: "ms",
        field: LimitField::Milliseconds,
    },
];

/// Seed 004's budget names for the js language.
pub const JS_LIMITS: &[LimitName] = &[
    LimitName {
        name: "steps",
        field: LimitField::Steps,
    },
    LimitName {
        name: "ms",
        field: LimitField::Milliseconds,
    },
    LimitName {
        name: "maxStringLength",
        field: LimitField::StringLength,
    },
    LimitName {
        name: "maxArrayLength",
        field: LimitField::ArrayLength,
    },
    LimitName {
        name: "maxTotalAllocation",
        field: LimitField::TotalAllocation,
    },
    LimitName {
        name: "maxSourceLength",
        field: LimitField::SourceLength,
    },
];

/// Applies a JSON object of limits on top of `base`.
///
/// Values are non-negative integers; a name the language does not know is refused with the
/// nearest known name.
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
        let amount = value
            .as_number()
            .filter(|number| number.fract() == 0.0 && *number >= 0.0 && *number <= 9_007_199_254_740_991.0)
            .ok_or_else(|| {
                format!(
                    "limit '{key}' must be a non-negative integer, found {}",
                    value.to_json_string().unwrap_or_else(|| "undefined".into())
                )
            })? as u64;
        match limit.field {
            LimitField::Steps => limits.limits.steps = Some(amount),
            LimitField::Milliseconds => limits.limits.time = Some(Duration::from_millis(amount)),
            LimitField::StringLength => limits.limits.max_string_length = Some(amount),
            LimitField::ArrayLength => limits.limits.max_array_length = Some(amount),
            LimitField::TotalAllocation => limits.limits.max_total_allocation = Some(amount),
            LimitField::SourceLength => limits.max_source_length = Some(amount),
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
}
