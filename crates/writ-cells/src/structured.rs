//! The structured predicate language: `{path, op, value}` leaves under `all`, `any` and `not`.
//!
//! # The language
//!
//! A predicate is JSON, one of four forms:
//!
//! | form | meaning |
//! |---|---|
//! | `{"path": P, "op": O, "value": V}` | compare the value at dot-path `P` with `V` |
//! | `{"all": [p, …]}` | every member holds (an empty `all` holds) |
//! | `{"any": [p, …]}` | some member holds (an empty `any` does not) |
//! | `{"not": p}` | `p` does not hold |
//!
//! The operators form a closed set:
//!
//! | op | holds when |
//! |---|---|
//! | `eq` / `ne` | the actual value equals / does not equal `value` |
//! | `lt` `lte` `gt` `gte` | both are numbers, or both strings (UTF-16 code-unit order), and they compare so |
//! | `in` | `value` is an array with an element equal to the actual value |
//! | `contains` | the actual string contains the `value` string, or the actual array has an element equal to `value` |
//! | `truthy` | the actual value is JavaScript-truthy (`[]` and `{}` are; `0`, `""`, `null` are not); takes no `value` |
//! | `exists` | the path leads to a value (`null` counts); takes no `value` |
//!
//! Equality is strict, with no coercion (`1` never equals `"1"`, `NaN` never equals anything),
//! and structural for arrays and objects: two objects are equal when they hold the same keys
//! with equal values, in any order. (The TypeScript original compares objects by identity, so
//! an object literal in a predicate could never match; over a data snapshot, structure is the
//! only meaningful equality.)
//!
//! Paths are checked when the predicate is parsed: `__proto__`, `prototype` and `constructor`
//! are refused at every segment. A leaf may carry other keys beside `path`, `op` and `value`
//! (a `note`, say); a predicate may nest at most [`MAX_PREDICATE_DEPTH`] levels.

use std::fmt;

use std::sync::Arc;

use writ_core::{
    BudgetExceeded, Category, Diagnostic, Engine, Host, LimitField, LimitName, Limits, Meter, Object, Path, PathError,
    Program, Source, Str, Validation, Value, ValueKind,
};

/// The deepest nesting of combinators a predicate may have.
pub const MAX_PREDICATE_DEPTH: usize = 256;

/// A parsed, checked structured predicate.
#[derive(Clone, Debug, PartialEq)]
pub enum Predicate {
    /// A comparison of the value at `path`.
    Leaf(Leaf),
    /// Every member holds.
    All(Vec<Predicate>),
    /// Some member holds.
    Any(Vec<Predicate>),
    /// The member does not hold.
    Not(Box<Predicate>),
}

/// A comparison: `{"path": …, "op": …, "value": …}`.
#[derive(Clone, Debug, PartialEq)]
pub struct Leaf {
    /// Where the actual value is read.
    pub path: Path,
    /// How it is compared.
    pub op: Op,
    /// What it is compared with; `undefined` for the unary `truthy` and `exists`.
    pub value: Value,
}

/// The closed set of structured operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    /// Equal.
    Eq,
    /// Not equal.
    Ne,
    /// Less than.
    Lt,
    /// Less than or equal.
    Lte,
    /// Greater than.
    Gt,
    /// Greater than or equal.
    Gte,
    /// The actual value is an element of `value`.
    In,
    /// The actual value contains `value`.
    Contains,
    /// The actual value is truthy.
    Truthy,
    /// The actual value is not `undefined`.
    Exists,
}

const OPS: [(&str, Op); 10] = [
    ("eq", Op::Eq),
    ("ne", Op::Ne),
    ("lt", Op::Lt),
    ("lte", Op::Lte),
    ("gt", Op::Gt),
    ("gte", Op::Gte),
    ("in", Op::In),
    ("contains", Op::Contains),
    ("truthy", Op::Truthy),
    ("exists", Op::Exists),
];

impl Op {
    /// The operator's name in predicate JSON.
    pub fn name(self) -> &'static str {
        OPS.iter().find(|(_, op)| *op == self).map_or("eq", |(name, _)| name)
    }

    /// True for the operators that take no `value`.
    pub fn is_unary(self) -> bool {
        matches!(self, Op::Truthy | Op::Exists)
    }
}

/// A predicate was refused when parsed.
///
/// The code is `invalid-predicate`, or the path's own code (`forbidden-path-segment`,
/// `empty-path-segment`) when a leaf's path is refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PredicateError {
    /// Where in the predicate, as a JSON Pointer (`/all/1/path`).
    pointer: String,
    kind: PredicateErrorKind,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum PredicateErrorKind {
    NotAnObject(ValueKind),
    MixedForms(Vec<&'static str>),
    NoForm,
    PathNotString(ValueKind),
    Path(PathError),
    OpNotString(ValueKind),
    UnknownOp(String),
    UnaryWithValue(&'static str),
    MissingValue(&'static str),
    NotAnArray(&'static str, ValueKind),
    TooDeep,
}

impl PredicateError {
    /// The stable code.
    pub fn code(&self) -> &'static str {
        match &self.kind {
            PredicateErrorKind::Path(error) => error.code(),
            _ => "invalid-predicate",
        }
    }

    /// Where in the predicate the problem is, as a JSON Pointer; empty for the root.
    pub fn pointer(&self) -> &str {
        &self.pointer
    }
}

impl fmt::Display for PredicateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let at = if self.pointer.is_empty() { "/" } else { &self.pointer };
        write!(f, "at {at}: ")?;
        match &self.kind {
            PredicateErrorKind::NotAnObject(kind) => write!(
                f,
                "expected a predicate object, found {} (write a leaf {{\"path\": …, \"op\": …, \"value\": …}} \
                 or a combinator {{\"all\": […]}}, {{\"any\": […]}}, {{\"not\": …}})",
                kind.described()
            ),
            PredicateErrorKind::MixedForms(keys) => write!(
                f,
                "a predicate has exactly one form, but this one carries {} (split it, e.g. wrap the parts in \"all\")",
                keys.iter()
                    .map(|key| format!("'{key}'"))
                    .collect::<Vec<_>>()
                    .join(" and ")
            ),
            PredicateErrorKind::NoForm => f.write_str(
                "expected one of the keys 'path', 'all', 'any' or 'not', found none \
                 (a leaf is {\"path\": \"a.b\", \"op\": \"eq\", \"value\": 1})",
            ),
            PredicateErrorKind::PathNotString(kind) => write!(
                f,
                "expected 'path' to be a dot-path string such as \"order.total\", found {}",
                kind.described()
            ),
            PredicateErrorKind::Path(error) => write!(f, "{error}"),
            PredicateErrorKind::OpNotString(kind) => {
                write!(
                    f,
                    "expected 'op' to be a string such as \"eq\", found {}",
                    kind.described()
                )
            }
            PredicateErrorKind::UnknownOp(name) => {
                write!(f, "unknown op '{name}'")?;
                if let Some(nearest) = nearest_op(name) {
                    write!(f, " (did you mean '{nearest}'?)")?;
                }
                write!(
                    f,
                    "; the ops are {}",
                    OPS.iter().map(|(name, _)| *name).collect::<Vec<_>>().join(", ")
                )
            }
            PredicateErrorKind::UnaryWithValue(name) => {
                write!(f, "op '{name}' takes no 'value' (remove the 'value' field)")
            }
            PredicateErrorKind::MissingValue(name) => {
                write!(f, "op '{name}' needs a 'value' to compare with (add a 'value' field)")
            }
            PredicateErrorKind::NotAnArray(key, kind) => write!(
                f,
                "expected '{key}' to be an array of predicates, found {}",
                kind.described()
            ),
            PredicateErrorKind::TooDeep => write!(
                f,
                "predicate nests deeper than {MAX_PREDICATE_DEPTH} levels (flatten it: 'all' and 'any' take many members)"
            ),
        }
    }
}

impl std::error::Error for PredicateError {}

fn nearest_op(name: &str) -> Option<&'static str> {
    writ_core::closest_name(name, OPS.iter().map(|(candidate, _)| *candidate))
}

const FORM_KEYS: [&str; 4] = ["path", "all", "any", "not"];

impl Predicate {
    /// Parses and checks a predicate.
    ///
    /// # Errors
    ///
    /// `invalid-predicate` for a malformed predicate, and `forbidden-path-segment` or
    /// `empty-path-segment` for a refused path; the message says where and what to write.
    pub fn parse(json: &Value) -> Result<Predicate, PredicateError> {
        let mut pointer = String::new();
        parse_at(json, &mut pointer, 0)
    }

    /// Evaluates the predicate against `data`, charging `meter` a step per node and per element
    /// compared.
    ///
    /// # Errors
    ///
    /// Only a [`BudgetExceeded`]: a predicate has no other way to fail. Comparing values of
    /// different kinds is simply false.
    pub fn evaluate(&self, data: &Value, meter: &mut Meter) -> Result<bool, BudgetExceeded> {
        meter.step()?;
        match self {
            Predicate::Leaf(leaf) => leaf.holds(data, meter),
            Predicate::All(members) => {
                for member in members {
                    if !member.evaluate(data, meter)? {
                        return Ok(false);
                    }
                }
                Ok(true)
            }
            Predicate::Any(members) => {
                for member in members {
                    if member.evaluate(data, meter)? {
                        return Ok(true);
                    }
                }
                Ok(false)
            }
            Predicate::Not(member) => Ok(!member.evaluate(data, meter)?),
        }
    }
}

fn parse_at(json: &Value, pointer: &mut String, depth: usize) -> Result<Predicate, PredicateError> {
    let fail = |pointer: &str, kind| {
        Err(PredicateError {
            pointer: pointer.to_string(),
            kind,
        })
    };
    if depth > MAX_PREDICATE_DEPTH {
        return fail(pointer, PredicateErrorKind::TooDeep);
    }
    let Value::Object(object) = json else {
        return fail(pointer, PredicateErrorKind::NotAnObject(json.kind()));
    };
    let present: Vec<&'static str> = FORM_KEYS
        .into_iter()
        .filter(|key| object.get_str(key).is_some())
        .collect();
    match present.as_slice() {
        [] => fail(pointer, PredicateErrorKind::NoForm),
        ["path"] => parse_leaf(object, pointer).map(Predicate::Leaf),
        [key @ ("all" | "any")] => {
            let members = object.get_str(key).unwrap_or(&Value::Undefined);
            let Value::Array(members) = members else {
                return fail(pointer, PredicateErrorKind::NotAnArray(key, members.kind()));
            };
            let mut parsed = Vec::with_capacity(members.len());
            for (idx, member) in members.iter().enumerate() {
                let len = pointer.len();
                pointer.push_str(&format!("/{key}/{idx}"));
                parsed.push(parse_at(member, pointer, depth + 1)?);
                pointer.truncate(len);
            }
            Ok(if *key == "all" {
                Predicate::All(parsed)
            } else {
                Predicate::Any(parsed)
            })
        }
        ["not"] => {
            let len = pointer.len();
            pointer.push_str("/not");
            let member = parse_at(object.get_str("not").unwrap_or(&Value::Undefined), pointer, depth + 1)?;
            pointer.truncate(len);
            Ok(Predicate::Not(Box::new(member)))
        }
        _ => fail(pointer, PredicateErrorKind::MixedForms(present)),
    }
}

fn parse_leaf(object: &Object, pointer: &str) -> Result<Leaf, PredicateError> {
    let fail = |suffix: &str, kind| {
        Err(PredicateError {
            pointer: format!("{pointer}{suffix}"),
            kind,
        })
    };
    let path = match object.get_str("path") {
        Some(Value::String(text)) => match Path::parse_dotted_str(text) {
            Ok(path) => path,
            Err(error) => return fail("/path", PredicateErrorKind::Path(error)),
        },
        other => {
            return fail(
                "/path",
                PredicateErrorKind::PathNotString(other.map_or(ValueKind::Undefined, Value::kind)),
            );
        }
    };
    let op = match object.get_str("op") {
        Some(Value::String(name)) => match OPS.iter().find(|(candidate, _)| name.eq_str(candidate)) {
            Some((_, op)) => *op,
            None => {
                return fail(
                    "/op",
                    PredicateErrorKind::UnknownOp(name.to_string_lossy().into_owned()),
                );
            }
        },
        other => {
            return fail(
                "/op",
                PredicateErrorKind::OpNotString(other.map_or(ValueKind::Undefined, Value::kind)),
            );
        }
    };
    let value = object.get_str("value").cloned();
    let value = match (op.is_unary(), value) {
        (true, Some(_)) => return fail("/value", PredicateErrorKind::UnaryWithValue(op.name())),
        (true, None) => Value::Undefined,
        (false, Some(value)) => value,
        (false, None) => return fail("", PredicateErrorKind::MissingValue(op.name())),
    };
    Ok(Leaf { path, op, value })
}

impl Leaf {
    fn holds(&self, data: &Value, meter: &mut Meter) -> Result<bool, BudgetExceeded> {
        let actual = self.path.read(data);
        let expected = &self.value;
        Ok(match self.op {
            Op::Eq => strict_equal(actual, expected, meter)?,
            Op::Ne => !strict_equal(actual, expected, meter)?,
            Op::Lt => compare(actual, expected).is_some_and(|ordering| ordering.is_lt()),
            Op::Lte => compare(actual, expected).is_some_and(|ordering| ordering.is_le()),
            Op::Gt => compare(actual, expected).is_some_and(|ordering| ordering.is_gt()),
            Op::Gte => compare(actual, expected).is_some_and(|ordering| ordering.is_ge()),
            Op::In => match expected {
                Value::Array(elements) => any_equal(elements, actual, meter)?,
                _ => false,
            },
            Op::Contains => match (actual, expected) {
                (Value::String(haystack), Value::String(needle)) => contains_text(haystack, needle, meter)?,
                (Value::Array(elements), _) => any_equal(elements, expected, meter)?,
                _ => false,
            },
            Op::Truthy => actual.is_truthy(),
            Op::Exists => !actual.is_undefined(),
        })
    }
}

fn compare(a: &Value, b: &Value) -> Option<std::cmp::Ordering> {
    match (a, b) {
        (Value::Number(a), Value::Number(b)) => a.partial_cmp(b),
        (Value::String(a), Value::String(b)) => Some(a.cmp(b)),
        _ => None,
    }
}

fn any_equal(elements: &[Value], wanted: &Value, meter: &mut Meter) -> Result<bool, BudgetExceeded> {
    for element in elements {
        if strict_equal(element, wanted, meter)? {
            return Ok(true);
        }
    }
    Ok(false)
}

/// `===` on leaves, structural on arrays and objects; charged a step per element visited.
fn strict_equal(a: &Value, b: &Value, meter: &mut Meter) -> Result<bool, BudgetExceeded> {
    meter.step()?;
    Ok(match (a, b) {
        (Value::Undefined, Value::Undefined) | (Value::Null, Value::Null) => true,
        (Value::Bool(a), Value::Bool(b)) => a == b,
        (Value::Number(a), Value::Number(b)) => a == b,
        (Value::String(a), Value::String(b)) => {
            meter.steps(a.len_utf16() as u64 / 16)?;
            a == b
        }
        (Value::Array(a), Value::Array(b)) => {
            a.ptr_eq(b) || (a.len() == b.len() && all_equal(a.iter().zip(b.iter()).map(|(a, b)| (a, Some(b))), meter)?)
        }
        (Value::Object(a), Value::Object(b)) => {
            a.ptr_eq(b) || (a.len() == b.len() && all_equal(a.iter().map(|(key, a)| (a, b.get(key))), meter)?)
        }
        _ => false,
    })
}

/// True when every pair is equal (a missing counterpart is unequal), one nesting level down.
fn all_equal<'v>(
    pairs: impl Iterator<Item = (&'v Value, Option<&'v Value>)>,
    meter: &mut Meter,
) -> Result<bool, BudgetExceeded> {
    meter.enter()?;
    let mut equal = true;
    for (a, b) in pairs {
        equal = match b {
            Some(b) => strict_equal(a, b, meter)?,
            None => false,
        };
        if !equal {
            break;
        }
    }
    meter.leave();
    Ok(equal)
}

/// Substring search over code units, charged its worst case (haystack times needle, per 16
/// code units) before it runs.
fn contains_text(haystack: &Str, needle: &Str, meter: &mut Meter) -> Result<bool, BudgetExceeded> {
    let n = haystack.len_utf16() as u64;
    let m = needle.len_utf16() as u64;
    meter.steps(n.saturating_mul(m.max(1)) / 16)?;
    if m > n {
        return Ok(false);
    }
    if let (Some(haystack), Some(needle)) = (haystack.as_ascii_str(), needle.as_ascii_str()) {
        return Ok(haystack.contains(needle));
    }
    let haystack = haystack.to_utf16();
    let needle = needle.to_utf16();
    Ok(needle.is_empty() || haystack.windows(needle.len()).any(|window| window == needle.as_slice()))
}

/// The limits a structured predicate runs under unless the caller sets others: a million
/// steps and 100 ms.
pub const DEFAULT_LIMITS: Limits = Limits {
    steps: Some(1_000_000),
    time: Some(std::time::Duration::from_millis(100)),
    ..Limits::UNLIMITED
};

/// The structured language's limit names at the JSON edge: a step count and a time in
/// milliseconds, as seed 004 names them.
pub const LIMIT_NAMES: &[LimitName] = &[
    LimitName::count("steps", LimitField::Steps),
    LimitName::count("ms", LimitField::Milliseconds),
];

/// The structured language on writ-core's engine seam: a predicate compiles into a
/// [`Predicate`], which evaluates to a boolean.
///
/// A source is the predicate as JSON, or a string of its JSON text. A refused predicate
/// answers with its [`PredicateError`] code, and a spent budget with `budget-exceeded`.
///
/// ```
/// use std::sync::Arc;
/// use writ_core::{Engine, FixedHost, Object, Source, Value, parse_json};
/// use writ_cells::structured::Structured;
///
/// let data = parse_json(r#"{"order": {"total": 120}}"#)?;
/// let verdict = Structured.run(
///     Source::Text(r#"{"path": "order.total", "op": "gt", "value": 100}"#),
///     &data,
///     &Object::new(),
///     &Structured.default_limits(),
///     Arc::new(FixedHost::default()),
/// )?;
/// assert_eq!(verdict, Value::Bool(true));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct Structured;

impl From<&PredicateError> for Diagnostic {
    fn from(error: &PredicateError) -> Diagnostic {
        Diagnostic::new(error.code(), Category::Syntax, error.to_string())
    }
}

impl Structured {
    /// The predicate a source holds, parsed and checked.
    fn predicate(source: Source<'_>) -> Result<Predicate, Diagnostic> {
        let parsed;
        let json = match source {
            Source::Json(Value::String(text)) => {
                parsed = parse_predicate_text(&text.to_string_lossy())?;
                &parsed
            }
            Source::Text(text) => {
                parsed = parse_predicate_text(text)?;
                &parsed
            }
            Source::Json(json) => json,
        };
        Predicate::parse(json).map_err(|error| Diagnostic::from(&error))
    }
}

/// A predicate written as JSON text.
fn parse_predicate_text(text: &str) -> Result<Value, Diagnostic> {
    writ_core::parse_json(text).map_err(|error| {
        Diagnostic::new(
            "invalid-predicate",
            Category::Syntax,
            format!("the predicate is not JSON: {error}"),
        )
    })
}

impl Engine for Structured {
    fn language(&self) -> &'static str {
        "structured"
    }

    fn limit_names(&self) -> &'static [LimitName] {
        LIMIT_NAMES
    }

    fn default_limits(&self) -> Limits {
        DEFAULT_LIMITS
    }

    fn compile(&self, source: Source<'_>, _limits: &Limits) -> Result<Arc<dyn Program>, Diagnostic> {
        Ok(Arc::new(Structured::predicate(source)?))
    }

    fn validate(&self, source: Source<'_>, _limits: &Limits) -> Result<Validation, Diagnostic> {
        Structured::predicate(source).map(|_| Validation::default())
    }
}

impl Program for Predicate {
    fn evaluate(
        &self,
        input: &Value,
        _bindings: &Object,
        meter: &mut Meter,
        _host: &dyn Host,
    ) -> Result<Value, Diagnostic> {
        Predicate::evaluate(self, input, meter)
            .map(Value::Bool)
            .map_err(|exceeded| {
                Diagnostic::new(
                    "budget-exceeded",
                    Category::Budget,
                    format!("{exceeded} (simplify the predicate, or raise the limit)"),
                )
            })
    }
}
