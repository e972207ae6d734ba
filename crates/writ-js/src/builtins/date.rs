//! The `Date` functions: `Date.parse(text)` and `Date.UTC(year, month, …)`.
//!
//! Both answer what node answers with `TZ=UTC`, computed by [`writ_core::date`]: writ has no
//! time zone, and treats local time as UTC, so the same data gives the same timestamp on every
//! machine. A date-time written without an offset (`"2024-03-05T10:30"`,
//! `"March 5, 2024 10:30"`) is therefore read as UTC.

use writ_core::{Value, date};

use crate::coerce;
use crate::error::Result;
use crate::interp::{Args, Cx};
use crate::tables::DateFn;

/// Runs `Date.function(args)`.
pub(crate) fn call(cx: &mut Cx<'_>, function: DateFn, args: &Args<'_, '_>) -> Result<Value> {
    match function {
        DateFn::Parse => {
            let text = coerce::to_string(cx, args.get(0))?;
            // One pass over the text, charged before it runs.
            cx.text(text.len_utf16())?;
            Ok(Value::Number(date::parse_date(&text).unwrap_or(f64::NAN)))
        }
        DateFn::Utc => {
            // Year, month, day, hours, minutes, seconds, milliseconds: a missing month is
            // January and a missing day the first; a missing year is NaN.
            let mut fields = [f64::NAN, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0];
            for (index, field) in fields.iter_mut().enumerate().take(args.len()) {
                *field = coerce::to_number(cx, args.get(index))?;
            }
            Ok(Value::Number(date::utc(fields)))
        }
    }
}

/// Checks against node's answers (tests/data, from tests/number-gen.js), through the built-in.
#[cfg(test)]
mod tests {
    use super::*;
    use crate::ast::Program;
    use writ_core::{Limits, Meter, Str};

    /// Runs the built-in under `limits`.
    fn run_with(limits: &Limits, function: DateFn, args: &[Value]) -> Result<Value> {
        let program = Program::empty();
        let mut cx = Cx::new(Meter::new(limits), &program, &[]);
        let args = Args {
            values: args,
            callback: None,
            name: function.name(),
        };
        call(&mut cx, function, &args)
    }

    /// Runs the built-in with no limits.
    fn run(function: DateFn, args: &[Value]) -> f64 {
        match run_with(&Limits::UNLIMITED, function, args) {
            Ok(Value::Number(n)) => n,
            other => panic!("not a number: {other:?}"),
        }
    }

    /// Every row of tests/data/date-parse.json: node's `Date.parse` with TZ=UTC over the
    /// formats people write, their broken variants and random token soup.
    #[test]
    fn parse_matches_node_on_generated_table() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/date-parse.json");
        let data = std::fs::read_to_string(path).expect("test data");
        let rows = writ_core::parse_json(&data).expect("json");
        let rows = rows.as_array().expect("rows");
        let mut failures = Vec::new();
        for row in rows.iter() {
            let row = row.as_array().expect("row");
            let text = row[0].clone();
            let expected = row[1].as_number().unwrap_or(f64::NAN);
            let got = run(DateFn::Parse, std::slice::from_ref(&text));
            if !(got == expected || (got.is_nan() && expected.is_nan())) {
                let shown: Vec<String> = text
                    .as_str()
                    .map_or(Vec::new(), |t| t.code_units().map(|u| format!("{u:04x}")).collect());
                failures.push(format!(
                    "Date.parse({:?} = [{}]): got {got}, node {expected}",
                    text.as_str().map(|t| t.to_string_lossy().into_owned()),
                    shown.join(" ")
                ));
            }
        }
        assert!(rows.len() > 5000, "the table is there");
        assert!(
            failures.is_empty(),
            "{} failures:\n{}",
            failures.len(),
            failures[..failures.len().min(30)].join("\n")
        );
    }

    /// The arguments are converted as JavaScript converts them; writ-core's tests cover the
    /// date arithmetic itself.
    #[test]
    fn arguments_are_converted_first() {
        assert_eq!(run(DateFn::Parse, &[Value::Number(2024.0)]), 1_704_067_200_000.0);
        assert!(run(DateFn::Parse, &[]).is_nan());
        let utc_of = |fields: &[f64]| {
            let args: Vec<Value> = fields.iter().map(|&n| Value::Number(n)).collect();
            run(DateFn::Utc, &args)
        };
        assert_eq!(utc_of(&[2024.0, 2.0, 5.0]), 1_709_596_800_000.0);
        assert_eq!(utc_of(&[2024.0]), 1_704_067_200_000.0);
        assert!(utc_of(&[]).is_nan());
        assert!(run(DateFn::Utc, &[Value::Number(2024.0), Value::Undefined]).is_nan());
        assert_eq!(
            run(
                DateFn::Utc,
                &[Value::String(Str::from("2024")), Value::String(Str::from("1"))]
            ),
            1_706_745_600_000.0
        );
    }

    /// Parse is charged for what it reads.
    #[test]
    fn parse_is_charged_for_what_it_reads() {
        let limits = Limits {
            steps: Some(10),
            ..Limits::UNLIMITED
        };
        let long = Value::String(Str::from(" ".repeat(1000)));
        let error = run_with(&limits, DateFn::Parse, &[long]).expect_err("over budget");
        assert_eq!(error.reason(), crate::Reason::BudgetExceeded);
    }
}
