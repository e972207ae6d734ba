//! Date/time built-ins: `$now`, `$millis`, `$fromMillis` and `$toMillis`, with XPath
//! date/time pictures, in jsonata-js's reading of them.

mod parse;
mod picture;

use super::Builtin;
use crate::error::Result;
use crate::eval::Cx;
use crate::value::Val;

/// The date/time built-ins.
pub(super) const TABLE: &[Builtin] = &[
    Builtin {
        name: "now",
        signature: "<s?s?:s>",
        imp: now,
    },
    Builtin {
        name: "millis",
        signature: "<:n>",
        imp: millis,
    },
    Builtin {
        name: "fromMillis",
        signature: "<n-s?s?:s>",
        imp: from_millis,
    },
    Builtin {
        name: "toMillis",
        signature: "<s-s?:n>",
        imp: to_millis,
    },
];

/// Argument `i` as UTF-16 text, `None` when absent (or undefined).
fn text_arg(args: &[Val], i: usize) -> Option<Vec<u16>> {
    args.get(i).and_then(Val::as_str).map(writ_core::Str::to_utf16)
}

/// Text built by a picture as a string value.
fn string(units: &[u16]) -> Val {
    Val::String(writ_core::Str::from_utf16(units))
}

/// `$now(picture?, timezone?)`: the evaluation's clock, as `$fromMillis` writes it.
fn now(cx: &mut Cx<'_>, args: &[Val]) -> Result<Val> {
    let millis = cx.now_millis();
    let text = picture::format_date_time(cx, millis, text_arg(args, 0).as_deref(), text_arg(args, 1).as_deref())?;
    Ok(string(&text))
}

/// `$millis()`: the evaluation's clock in milliseconds since the epoch.
fn millis(cx: &mut Cx<'_>, _args: &[Val]) -> Result<Val> {
    Ok(Val::Number(cx.now_millis()))
}

/// `$fromMillis(millis, picture?, timezone?)`.
fn from_millis(cx: &mut Cx<'_>, args: &[Val]) -> Result<Val> {
    let Some(millis) = args.first().and_then(Val::as_number) else {
        return Ok(Val::Undefined);
    };
    let text = picture::format_date_time(cx, millis, text_arg(args, 1).as_deref(), text_arg(args, 2).as_deref())?;
    Ok(string(&text))
}

/// `$toMillis(timestamp, picture?)`: NaN for an ISO timestamp naming no real date, undefined
/// when a picture does not match.
fn to_millis(cx: &mut Cx<'_>, args: &[Val]) -> Result<Val> {
    let Some(timestamp) = text_arg(args, 0) else {
        return Ok(Val::Undefined);
    };
    match text_arg(args, 1) {
        None => Ok(Val::Number(parse::parse_iso(cx, &timestamp)?)),
        Some(picture) => {
            let now = cx.now_millis();
            Ok(parse::parse_with_picture(cx, &timestamp, &picture, now)?.map_or(Val::Undefined, Val::Number))
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use writ_core::Value;

    use crate::{Expression, FixedHost, JsonataLimits, Options};

    /// 2018-03-23T10:33:36.617Z, a Friday.
    const NOW: f64 = 1_521_801_216_617.0;

    /// Evaluates `source` with no input and the clock at [`NOW`]: the result as JSON,
    /// `undefined`, or the error's code.
    fn run_with(source: &str, limits: JsonataLimits) -> String {
        let options = Options {
            limits,
            host: Arc::new(FixedHost::new(NOW, 0)),
            ..Options::default()
        };
        match Expression::compile(source).and_then(|e| e.evaluate(&Value::Undefined, &options)) {
            Ok(Value::Undefined) => "undefined".to_owned(),
            Ok(value) => value.to_json_string().unwrap_or_default(),
            Err(error) => error.details().code.as_str().to_owned(),
        }
    }

    /// [`run_with`] under the default limits.
    fn run(source: &str) -> String {
        run_with(source, JsonataLimits::default())
    }

    #[test]
    fn the_clock_comes_from_the_host() {
        assert_eq!(run("$millis()"), "1521801216617");
        assert_eq!(run("$now()"), r#""2018-03-23T10:33:36.617Z""#);
        assert_eq!(run("$now('[H01]:[m01]', '+0530')"), r#""16:03""#);
        assert_eq!(run("$now() = $now()"), "true");
    }

    #[test]
    fn formats_dates_with_pictures() {
        assert_eq!(run("$fromMillis(1)"), r#""1970-01-01T00:00:00.001Z""#);
        assert_eq!(run("$fromMillis(-1.7)"), r#""1969-12-31T23:59:59.999Z""#);
        assert_eq!(run("$fromMillis(1e20)"), r#""0NaN-NaN-NaNTNaN:NaN:NaN.NaNZ""#);
        assert_eq!(
            run("$fromMillis(1521801216617, '[FNn], [D1o] [MNn,3-3] [Y] [h]:[m][P]')"),
            r#""Friday, 23rd Mar 2018 10:33am""#
        );
        assert_eq!(
            run("$fromMillis(1521801216617, '[Dwo] of [MNn]')"),
            r#""twenty-third of March""#
        );
        assert_eq!(
            run("$fromMillis(1521801216617, '[Y,2] [YI] [[[Y0001]]]')"),
            r#""18 MMXVIII [2018]""#
        );
        assert_eq!(run("$fromMillis(0, '[H]:[m] [Z]', '-0530')"), r#""17:30 -06:30""#);
        assert_eq!(run("$fromMillis(0, '[z]', '+0100')"), r#""GMT+01:00""#);
        assert_eq!(
            run("$fromMillis(1104537600000, '[X0001]-W[W01]-[F1] [w] [xNn]')"),
            r#""2004-W53-6 5 December""#
        );
        assert_eq!(run("$fromMillis(0, '[q1]')"), r#""undefined""#);
        assert_eq!(run("$fromMillis(0, '[q]')"), "D3132");
        assert_eq!(run("$fromMillis(0, '[YN]')"), "D3133");
        assert_eq!(run("$fromMillis(0, '[Z010101]')"), "D3134");
        assert_eq!(run("$fromMillis(0, '[Y')"), "D3135");
        assert_eq!(run("$fromMillis(nothing)"), "undefined");
    }

    #[test]
    fn reads_iso_timestamps() {
        assert_eq!(run("$toMillis('2018-02-01T09:42:13.123+0000')"), "1517478133123");
        assert_eq!(run("$toMillis('2018')"), "1514764800000");
        assert_eq!(run("$toMillis('2018.5')"), "1525132800000");
        assert_eq!(run("$toMillis('2018-02-30T24:00:00Z')"), "1520035200000");
        assert_eq!(run("$toMillis('2018-13')"), "null");
        assert_eq!(run("$toMillis('01-02-2018')"), "D3110");
        assert_eq!(run("$toMillis(nothing)"), "undefined");
    }

    #[test]
    fn reads_timestamps_with_pictures() {
        assert_eq!(
            run("$toMillis('27th April 2008', '[D1o] [MNn] [Y0001]')"),
            "1209254400000"
        );
        assert_eq!(
            run("$toMillis('TWENTY-SECOND August two thousand and seventeen', '[DW] [MNn] [Yw]')"),
            "1503360000000"
        );
        assert_eq!(
            run("$toMillis('4/4/2018 12:06 pm', '[D1]/[M1]/[Y0001] [h]:[m] [P]')"),
            "1522843560000"
        );
        assert_eq!(run("$toMillis('2018-094', '[Y0001]-[d001]')"), "1522800000000");
        assert_eq!(
            run("$toMillis('2020-09-09 12:00:00 +0530', '[Y]-[M]-[D] [H]:[m]:[s] [Z0001]')"),
            "1599633000000"
        );
        // Components left out before the first given one come from the clock.
        assert_eq!(run("$toMillis('13:45', '[H]:[m]')"), "1521812700000");
        assert_eq!(run("$toMillis('irrelevant', '[Y]-[M]')"), "undefined");
        assert_eq!(run("$toMillis('2018-22', '[Y]-[D]')"), "D3136");
        assert_eq!(run("$toMillis('2018', '[Y]-[q]')"), "D3132");
        assert_eq!(run("$toMillis('2018 x', '[Y] [Dn]')"), "D3133");
    }

    #[test]
    fn big_pictures_are_charged() {
        assert_eq!(run("$fromMillis(0, '[Y,999999999]')"), "U1007");
        assert_eq!(run("$toMillis('2018', $pad('', 20000, '[Yw]'))"), "U1007");
        // Matching cannot be interrupted, so it is bounded whatever the limits.
        assert_eq!(
            run_with("$toMillis($pad('', 20000, 'one '), '[Yw]')", JsonataLimits::UNBOUNDED),
            "U1007"
        );
        let few_steps = JsonataLimits {
            steps: Some(1000),
            ..JsonataLimits::default()
        };
        assert_eq!(run_with("$fromMillis(0, $pad('', 5000, '[Y]'))", few_steps), "U1006");
        assert_eq!(run_with("$toMillis($pad('', 300, 'one '), '[Yw]')", few_steps), "U1006");
        assert_eq!(run("$toMillis('one', '[Yw]')"), "-2177452800000");
    }
}
