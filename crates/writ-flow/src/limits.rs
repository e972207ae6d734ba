//! Seed 001's expression limits: the defaults, and reading per-run overrides.

use std::time::Duration;

use writ_core::{LimitField, LimitName, Limits, Value, apply_limits};
use writ_jsonata::JsonataLimits;

use crate::{Code, Error};

/// The four limits each evaluation runs under: `timeout` (wall-clock ms), `depth` (nested
/// evaluation), `steps`, and `sequence` (the longest sequence or array one evaluation builds).
/// `None` is `Infinity`, no bound.
pub type ExpressionLimits = JsonataLimits;

/// The limits an evaluation gets where a run sets none: 1,000 ms, depth 5,000, 100,000,000
/// steps, sequences of 10,000,000 items. Seed 001's limits table is not in the seed text writ
/// has, so these are writ-jsonata's defaults (ARCHITECTURE.md, "JSONata's default limits"):
/// every JSONata suite case and any realistic workflow expression runs under them, and a
/// runaway stops within a second.
///
/// ```
/// use writ_flow::{DEFAULT_EXPRESSION_LIMITS, ExpressionLimits};
///
/// // Five times the default timeout and a shallower depth; steps and sequence keep theirs.
/// let limits = ExpressionLimits {
///     timeout: DEFAULT_EXPRESSION_LIMITS.timeout.map(|ms| ms * 5),
///     depth: Some(1000),
///     ..DEFAULT_EXPRESSION_LIMITS
/// };
/// assert_eq!(limits.steps, Some(100_000_000));
/// ```
pub const DEFAULT_EXPRESSION_LIMITS: ExpressionLimits = ExpressionLimits {
    timeout: Some(1_000),
    depth: Some(5_000),
    steps: Some(100_000_000),
    sequence: Some(10_000_000),
};

/// The deepest subflow nesting a run allows by default.
pub const DEFAULT_MAX_RECURSION_DEPTH: u32 = 100;

/// The limit names `--limits` takes besides the four expression limits.
const MAX_RECURSION_DEPTH: &str = "maxRecursionDepth";

/// The limits a run's overrides give: expression limits over their defaults, and the recursion
/// depth.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RunLimits {
    /// The four limits of each evaluation.
    pub expression: ExpressionLimits,
    /// The deepest subflow nesting; `None` is no bound.
    pub max_recursion_depth: Option<u32>,
}

impl Default for RunLimits {
    fn default() -> RunLimits {
        RunLimits {
            expression: DEFAULT_EXPRESSION_LIMITS,
            max_recursion_depth: Some(DEFAULT_MAX_RECURSION_DEPTH),
        }
    }
}

impl RunLimits {
    /// Reads overrides such as `{"timeout": 5000, "depth": 1000}`: unset fields keep their
    /// defaults. Besides `timeout`, `depth`, `steps` and `sequence` it takes
    /// `maxRecursionDepth`. Each value is a positive integer or `"Infinity"`.
    ///
    /// # Errors
    ///
    /// `INVALID_EXPRESSION_LIMITS`: not an object, an unknown name (the nearest is offered), or
    /// a value that is not a positive integer or `"Infinity"`.
    ///
    /// # Example
    ///
    /// ```
    /// use writ_core::parse_json;
    /// use writ_flow::{DEFAULT_EXPRESSION_LIMITS, RunLimits};
    ///
    /// let limits = RunLimits::from_json(&parse_json(r#"{"steps": "Infinity", "depth": 100}"#)?)?;
    /// assert_eq!(limits.expression.steps, None);
    /// assert_eq!(limits.expression.timeout, DEFAULT_EXPRESSION_LIMITS.timeout);
    /// let refused = RunLimits::from_json(&parse_json(r#"{"timeout": 0}"#)?).unwrap_err();
    /// assert_eq!(refused.code(), "INVALID_EXPRESSION_LIMITS");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn from_json(json: &Value) -> Result<RunLimits, Error> {
        RunLimits::default().with_overrides(json)
    }

    /// These limits with `json`'s overrides applied (see [`RunLimits::from_json`]).
    ///
    /// # Errors
    ///
    /// As [`RunLimits::from_json`].
    pub fn with_overrides(self, json: &Value) -> Result<RunLimits, Error> {
        let invalid = |message: String| {
            Error::new(
                Code::InvalidExpressionLimits,
                format!("{message}; write each limit as a positive integer or \"Infinity\""),
            )
        };
        let Value::Object(object) = json else {
            return Err(invalid(format!(
                "expression limits are a JSON object such as {{\"timeout\": 5000}}, found {}",
                json.kind().described()
            )));
        };
        let mut rest = object.clone();
        let mut max_recursion_depth = self.max_recursion_depth;
        if let Some(depth) = rest.remove(&MAX_RECURSION_DEPTH.into()) {
            const NAMES: &[LimitName] = &[LimitName::bound_or_infinity(MAX_RECURSION_DEPTH, LimitField::Depth)];
            let mut single = writ_core::Object::new();
            single.insert(MAX_RECURSION_DEPTH.into(), depth);
            let read = apply_limits(Limits::UNLIMITED, &Value::Object(single), NAMES, "writ flow").map_err(invalid)?;
            max_recursion_depth = read.max_depth;
        }
        let names: Vec<LimitName> = writ_jsonata::LIMIT_NAMES
            .iter()
            .copied()
            .chain([LimitName::bound_or_infinity(MAX_RECURSION_DEPTH, LimitField::Depth)])
            .collect();
        let base = self.expression.to_meter_limits();
        let read = apply_limits(base, &Value::Object(rest), &names, "writ flow").map_err(invalid)?;
        Ok(RunLimits {
            expression: ExpressionLimits {
                timeout: read
                    .time
                    .map(|time| u64::try_from(time.as_millis()).unwrap_or(u64::MAX)),
                depth: read.max_depth,
                steps: read.steps,
                sequence: read.max_array_length,
            },
            max_recursion_depth,
        })
    }
}

/// The meter limits of one evaluation under `limits`.
pub(crate) fn meter_limits(limits: &ExpressionLimits) -> Limits {
    let mut meter = limits.to_meter_limits();
    // A timeout of `u64::MAX` ms would overflow an `Instant`; it is no bound in practice.
    if meter
        .time
        .is_some_and(|time| time > Duration::from_secs(365 * 24 * 3600))
    {
        meter.time = None;
    }
    meter
}

#[cfg(test)]
mod tests {
    use super::*;
    use writ_core::parse_json;

    #[test]
    fn the_defaults_are_writ_jsonata_s() {
        assert_eq!(DEFAULT_EXPRESSION_LIMITS, JsonataLimits::default());
    }

    #[test]
    fn unset_fields_keep_their_defaults() {
        let limits =
            RunLimits::from_json(&parse_json(r#"{"timeout": 5000, "maxRecursionDepth": 3}"#).unwrap()).unwrap();
        assert_eq!(limits.expression.timeout, Some(5000));
        assert_eq!(limits.expression.depth, DEFAULT_EXPRESSION_LIMITS.depth);
        assert_eq!(limits.max_recursion_depth, Some(3));
        let limits = RunLimits::from_json(&parse_json(r#"{"maxRecursionDepth": "Infinity"}"#).unwrap()).unwrap();
        assert_eq!(limits.max_recursion_depth, None);
    }

    #[test]
    fn bad_limits_are_refused_with_the_seed_s_code() {
        for bad in [
            r#"{"timeout": 0}"#,
            r#"{"depth": -1}"#,
            r#"{"steps": 1.5}"#,
            r#"{"sequence": "10"}"#,
            r#"{"timout": 10}"#,
            r#"{"maxRecursionDepth": 0}"#,
            "[]",
        ] {
            let error = RunLimits::from_json(&parse_json(bad).unwrap()).unwrap_err();
            assert_eq!(error.code(), "INVALID_EXPRESSION_LIMITS", "{bad}");
        }
        let error = RunLimits::from_json(&parse_json(r#"{"timout": 10}"#).unwrap()).unwrap_err();
        assert!(
            error.message().contains("did you mean 'timeout'"),
            "{}",
            error.message()
        );
    }
}
