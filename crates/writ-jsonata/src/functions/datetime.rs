//! Date/time built-ins: `$now`, `$millis`, `$fromMillis` and `$toMillis`, with XPath
//! date/time pictures, in jsonata-js's reading of them.

mod calendar;
mod parse;
mod picture;

use super::Builtin;
use crate::error::Result;
use crate::eval::Cx;
use crate::value::Val;

pub(super) const TABLE: &[Builtin] = &[
    Builtin { name: "now", signature: "<s?s?:s>", imp: now },
    Builtin { name: "millis", signature: "<:n>", imp: millis },
    Builtin { name: "fromMillis", signature: "<n-s?s?:s>", imp: from_millis },
    Builtin { name: "toMillis", signature: "<s-s?:n>", imp: to_millis },
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
