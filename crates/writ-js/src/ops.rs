//! The operators: equality, relational comparison, arithmetic, `+`.

use writ_core::Value;

/// `===`: numbers by value (NaN unequal, -0 equal to 0), strings by content, arrays and
/// objects by identity.
pub(crate) fn strict_equals(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Undefined, Value::Undefined) | (Value::Null, Value::Null) => true,
        (Value::Bool(x), Value::Bool(y)) => x == y,
        (Value::Number(x), Value::Number(y)) => x == y,
        (Value::String(x), Value::String(y)) => x == y,
        (Value::Array(x), Value::Array(y)) => x.ptr_eq(y),
        (Value::Object(x), Value::Object(y)) => x.ptr_eq(y),
        _ => false,
    }
}

/// SameValueZero (`includes`): `===` except that NaN equals NaN.
pub(crate) fn same_value_zero(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x == y || (x.is_nan() && y.is_nan()),
        _ => strict_equals(a, b),
    }
}

/// SameValue (`Object.is`): NaN equals NaN, and -0 differs from 0.
pub(crate) fn same_value(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            (x.is_nan() && y.is_nan()) || (x == y && x.is_sign_negative() == y.is_sign_negative())
        }
        _ => strict_equals(a, b),
    }
}

/// `**`: the same function as `Math.pow`, fdlibm's algorithm as V8 runs it (not always
/// correctly rounded: `10 ** -5` is 0.000009999999999999999 there, and so here).
pub(crate) fn js_pow(base: f64, exponent: f64) -> f64 {
    crate::builtins::math::pow(base, exponent)
}
