//! Number methods: `toFixed`, `toExponential`, `toPrecision`, `toString(radix)`,
//! `toLocaleString` and `valueOf`, with JavaScript's (V8's) digits exactly.
//!
//! The digits themselves are `writ_core::js`'s, which JSONata's `$formatBase` and
//! `$formatNumber` share.

use writ_core::{Str, Value, js, js_number_to_string};

use crate::coerce;
use crate::error::{Error, Result};
use crate::interp::{Args, Cx};
use crate::tables::NumberMethod;

/// Runs `this.method(args)`.
pub(crate) fn call(cx: &mut Cx<'_>, this: f64, method: NumberMethod, args: &Args<'_, '_>) -> Result<Value> {
    match method {
        NumberMethod::ToFixed => {
            let digits = integer_argument(cx, args.get(0))?;
            if !(0.0..=100.0).contains(&digits) {
                return Err(range_error(
                    "toFixed",
                    "digit count",
                    0,
                    100,
                    digits,
                    "price.toFixed(2)",
                ));
            }
            ascii_value(cx, &js::to_fixed(this, digits as u32))
        }
        NumberMethod::ToExponential => {
            let requested = args.get(0);
            let digits = integer_argument(cx, requested)?;
            if !this.is_finite() {
                return ascii_value(cx, &js_number_to_string(this));
            }
            if !(0.0..=100.0).contains(&digits) {
                return Err(range_error(
                    "toExponential",
                    "digit count",
                    0,
                    100,
                    digits,
                    "n.toExponential(3)",
                ));
            }
            let fraction_digits = if requested.is_undefined() {
                None
            } else {
                Some(digits as u32)
            };
            ascii_value(cx, &js::to_exponential(this, fraction_digits))
        }
        NumberMethod::ToPrecision => {
            let requested = args.get(0);
            if requested.is_undefined() {
                return ascii_value(cx, &js_number_to_string(this));
            }
            let precision = integer_argument(cx, requested)?;
            if !this.is_finite() {
                return ascii_value(cx, &js_number_to_string(this));
            }
            if !(1.0..=100.0).contains(&precision) {
                return Err(range_error(
                    "toPrecision",
                    "precision",
                    1,
                    100,
                    precision,
                    "n.toPrecision(3)",
                ));
            }
            ascii_value(cx, &js::to_precision(this, precision as u32))
        }
        NumberMethod::ToString => {
            let requested = args.get(0);
            let radix = if requested.is_undefined() {
                10.0
            } else {
                integer_argument(cx, requested)?
            };
            if !(2.0..=36.0).contains(&radix) {
                return Err(range_error("toString", "radix", 2, 36, radix, "n.toString(16)"));
            }
            if radix == 10.0 {
                let text = coerce::number_to_str(this);
                cx.string(text.len_utf16())?;
                return Ok(Value::String(text));
            }
            ascii_value(cx, &js::to_radix_string(this, radix as u32))
        }
        NumberMethod::ToLocaleString => {
            let text = crate::locale::number_to_locale_string(cx, this, args.get(0), args.get(1))?;
            Ok(Value::String(text))
        }
        NumberMethod::ValueOf => Ok(Value::Number(this)),
    }
}

/// `ToIntegerOrInfinity(ToNumber(value))`, charged for the text it reads.
fn integer_argument(cx: &mut Cx<'_>, value: &Value) -> Result<f64> {
    let number = coerce::to_number(cx, value)?;
    Ok(coerce::integer_or_infinity(number))
}

/// The RangeError JavaScript throws for an argument out of range, with an example to follow.
fn range_error(method: &str, what: &str, low: u32, high: u32, got: f64, example: &str) -> Error {
    Error::range_error(format!(
        "{method}() takes a {what} from {low} to {high}, not {}: write one in that range, as in {example}",
        js_number_to_string(got)
    ))
}

/// Charges the string and wraps ASCII text (every formatter here writes ASCII only).
fn ascii_value(cx: &mut Cx<'_>, text: &str) -> Result<Value> {
    cx.string(text.len())?;
    Ok(Value::String(Str::from(text)))
}

/// Checks against node's answers (tests/data, from tests/number-gen.js) and the corners by hand.
#[cfg(test)]
mod tests {
    use super::*;
    use crate::ast::Program;
    use writ_core::{Limits, Meter};

    /// Runs the built-in under `limits`.
    fn run_with(limits: &Limits, this: f64, method: NumberMethod, args: &[Value]) -> Result<Value> {
        let program = Program::empty();
        let mut cx = Cx::new(Meter::new(limits), &program, &[]);
        let args = Args {
            values: args,
            callback: None,
            name: method.name(),
        };
        call(&mut cx, this, method, &args)
    }

    /// Runs the built-in with no limits.
    fn run(this: f64, method: NumberMethod, args: &[Value]) -> Result<Value> {
        run_with(&Limits::UNLIMITED, this, method, args)
    }

    /// The string a call answers (panics on anything else).
    fn text(this: f64, method: NumberMethod, args: &[Value]) -> String {
        match run(this, method, args) {
            Ok(Value::String(s)) => s.to_string_lossy().into_owned(),
            other => panic!("{this} {method:?} {args:?}: {other:?}"),
        }
    }

    /// A number value.
    fn n(x: f64) -> Value {
        Value::Number(x)
    }

    /// Every row of tests/data/number-format.json (generated by tests/number-gen.js from node).
    #[test]
    fn matches_node_on_generated_table() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/number-format.json");
        let data = std::fs::read_to_string(path).expect("test data");
        let rows = writ_core::parse_json(&data).expect("json");
        let rows = rows.as_array().expect("rows");
        let mut failures = Vec::new();
        for row in rows.iter() {
            let row = row.as_array().expect("row");
            let bits = u64::from_str_radix(&row[0].as_str().expect("bits").to_string_lossy(), 16).expect("hex");
            let x = f64::from_bits(bits);
            let method = NumberMethod::from_name(&row[1].as_str().expect("method").to_string_lossy()).expect("name");
            let args: Vec<Value> = match &row[2] {
                Value::Null => Vec::new(),
                other => vec![other.clone()],
            };
            let expected = row[3].as_str().expect("expected").to_string_lossy().into_owned();
            let got = text(x, method, &args);
            if got != expected {
                failures.push(format!(
                    "{x:e} ({bits:016x}).{}({args:?}): got {got}, node {expected}",
                    method.name()
                ));
            }
        }
        assert!(rows.len() > 10_000, "the table is there");
        assert!(
            failures.is_empty(),
            "{} failures:\n{}",
            failures.len(),
            failures[..failures.len().min(20)].join("\n")
        );
    }

    /// Rounds the exact binary value.
    #[test]
    fn rounds_the_exact_binary_value() {
        assert_eq!(text(1.005, NumberMethod::ToFixed, &[n(2.0)]), "1.00");
        assert_eq!(text(2.5, NumberMethod::ToFixed, &[n(0.0)]), "3");
        assert_eq!(text(-1.5, NumberMethod::ToFixed, &[n(0.0)]), "-2");
        assert_eq!(text(-0.0, NumberMethod::ToFixed, &[n(2.0)]), "0.00");
        assert_eq!(text(-0.0001, NumberMethod::ToFixed, &[n(2.0)]), "-0.00");
        assert_eq!(text(1e21, NumberMethod::ToFixed, &[n(2.0)]), "1e+21");
        assert_eq!(text(1.25, NumberMethod::ToExponential, &[n(1.0)]), "1.3e+0");
        assert_eq!(text(123.456, NumberMethod::ToExponential, &[]), "1.23456e+2");
        assert_eq!(text(0.0, NumberMethod::ToExponential, &[n(2.0)]), "0.00e+0");
        assert_eq!(text(-0.0, NumberMethod::ToPrecision, &[n(3.0)]), "0.00");
        assert_eq!(text(123456.0, NumberMethod::ToPrecision, &[n(2.0)]), "1.2e+5");
        assert_eq!(text(0.000001234, NumberMethod::ToPrecision, &[n(2.0)]), "0.0000012");
        assert_eq!(text(9.96, NumberMethod::ToPrecision, &[n(2.0)]), "10");
        assert_eq!(
            text(1.5, NumberMethod::ToFixed, &[Value::String(Str::from("2"))]),
            "1.50"
        );
    }

    /// Writes v8 radix digits.
    #[test]
    fn writes_v8_radix_digits() {
        assert_eq!(text(255.5, NumberMethod::ToString, &[n(16.0)]), "ff.8");
        assert_eq!(text(-255.5, NumberMethod::ToString, &[n(16.0)]), "-ff.8");
        assert_eq!(
            text(0.1, NumberMethod::ToString, &[n(3.0)]),
            "0.0022002200220022002200220022002201"
        );
        assert_eq!(text(-0.0, NumberMethod::ToString, &[n(2.0)]), "0");
        assert_eq!(
            text(9007199254740994.0, NumberMethod::ToString, &[n(7.0)]),
            "5350140446150306056"
        );
        assert_eq!(text(f64::NAN, NumberMethod::ToString, &[n(2.0)]), "NaN");
        assert_eq!(text(f64::NEG_INFINITY, NumberMethod::ToString, &[n(2.0)]), "-Infinity");
        assert_eq!(text(1.5, NumberMethod::ToString, &[n(10.9)]), "1.5");
        assert_eq!(text(1.5, NumberMethod::ToString, &[Value::Undefined]), "1.5");
        let tiny = text(5e-324, NumberMethod::ToString, &[n(2.0)]);
        assert_eq!(tiny.len(), 1076);
        assert!(tiny.starts_with("0.000") && tiny.ends_with("01"));
    }

    /// Range errors are runtime errors in javascripts order.
    #[test]
    fn range_errors_are_runtime_errors_in_javascripts_order() {
        let cases: &[(f64, NumberMethod, f64)] = &[
            (1.0, NumberMethod::ToFixed, 101.0),
            (f64::NAN, NumberMethod::ToFixed, 101.0),
            (1.0, NumberMethod::ToFixed, f64::INFINITY),
            (1.0, NumberMethod::ToExponential, -1.0),
            (1.0, NumberMethod::ToPrecision, 0.5),
            (1.0, NumberMethod::ToPrecision, 101.0),
            (1.0, NumberMethod::ToString, 1.0),
            (1.0, NumberMethod::ToString, 37.0),
            (f64::NAN, NumberMethod::ToString, 1.0),
        ];
        for &(x, method, arg) in cases {
            let error = run(x, method, &[n(arg)]).expect_err("RangeError");
            assert_eq!(error.reason(), crate::Reason::ExpressionRuntime, "{x} {method:?} {arg}");
            assert!(error.message().contains(method.name()), "{}", error.message());
        }
        // Non-finite receivers answer before the range check where JavaScript does.
        assert_eq!(text(f64::NAN, NumberMethod::ToExponential, &[n(101.0)]), "NaN");
        assert_eq!(text(f64::INFINITY, NumberMethod::ToPrecision, &[n(200.0)]), "Infinity");
        assert_eq!(text(1.0, NumberMethod::ToFixed, &[n(-0.5)]), "1");
    }

    /// Locale formatting goes to crate::locale with both arguments.
    #[test]
    fn to_locale_string_formats_through_the_locale_module() {
        let en = Value::String(Str::from("en-US"));
        assert_eq!(
            text(1234.5, NumberMethod::ToLocaleString, std::slice::from_ref(&en)),
            "1,234.5"
        );
        let de = Value::String(Str::from("de-DE"));
        assert_eq!(text(1234.5, NumberMethod::ToLocaleString, &[de]), "1.234,5");
        let options = Value::Object(writ_core::Object::from_entries(vec![(
            Str::from("maximumFractionDigits"),
            Value::Number(0.0),
        )]));
        assert_eq!(text(1234.5, NumberMethod::ToLocaleString, &[en, options]), "1,235");
    }

    /// Value of and budget.
    #[test]
    fn value_of_and_budget() {
        assert_eq!(run(2.5, NumberMethod::ValueOf, &[]), Ok(Value::Number(2.5)));
        let limits = Limits {
            max_string_length: Some(50),
            ..Limits::UNLIMITED
        };
        let error = run_with(&limits, 1e20, NumberMethod::ToFixed, &[n(100.0)]).expect_err("too long");
        assert_eq!(error.reason(), crate::Reason::BudgetExceeded);
        let error = run_with(&limits, 5e-324, NumberMethod::ToString, &[n(2.0)]).expect_err("too long");
        assert_eq!(error.reason(), crate::Reason::BudgetExceeded);
        assert!(run_with(&limits, 1e20, NumberMethod::ToFixed, &[n(2.0)]).is_ok());
    }
}
