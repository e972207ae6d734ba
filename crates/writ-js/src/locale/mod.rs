//! The locale methods: a number's and an array's `toLocaleString`, `toLocaleUpperCase` and
//! `toLocaleLowerCase`, and `localeCompare`, on ICU4X's CLDR data, answering as node 20 does
//! (V8 11.3 on ICU 78, CLDR 48; ICU4X 2.4 ships CLDR 49 and Unicode 18).
//!
//! writ fixes the default locale to `en-US`: with no locales (`undefined` or `[]`) every host
//! formats and compares the same data the same way, whatever its own settings say.
//!
//! How the answers stay node's:
//! - Locale lists are validated, canonicalized and resolved the way V8 resolves them: a tag
//!   whose language node has no data for is skipped, and nothing left means `en-US`.
//! - Options are read in `Intl`'s order and checked against its ranges (V8 11.3's: at most 20
//!   fraction digits), so a RangeError or TypeError comes exactly where JavaScript throws one.
//! - Numbers are rounded here, exactly, from the shortest decimal that round-trips the double
//!   (as ICU does), with every digit and rounding option of `Intl.NumberFormat`; the
//!   grouping, sign, currency-spacing and plural rules are ICU's.
//! - The symbols and patterns are CLDR data read off ICU4X's own formatters (the formatters'
//!   output for a few probe values), once per locale and style, and cached.
//! - Where ICU4X's CLDR 49 differs from node's CLDR 48 in a way a rule can repair (a symbol
//!   the locale writes as the code, a style's own grouping, a name pattern ICU4X does not
//!   carry), node's own tables ([`node`], read from `data/`) repair it.
//! - The scientific and engineering notations round the number over its power of ten and write
//!   node's exponent separator; the compact notation takes its names and powers from ICU4X's CLDR
//!   patterns, the unit style its names from ICU4X's unit data (lengths, areas, volumes, masses,
//!   durations, and `percent` as the percent style).
//! - Where it cannot (the other units, a notation with another style, a locale node knows and
//!   ICU4X has no data for, the locales and styles of [`node::DIVERGENT_STYLES`] and
//!   [`node::NOTATIONS_REFUSED`], a lone surrogate or a Han-against-Han decision in collated
//!   text), the call is refused as a guardrail violation, never answered differently.
//!
//! The module's parts: [`tags`] reads and resolves locale lists, [`options`] reads option bags,
//! [`number`] resolves, rounds and writes numbers, [`collate`] compares text, [`case`] maps case,
//! and [`node`] holds node's facts, read from the files in `data/`. What was built is kept in
//! [`FifoCache`]s of [`CACHE_SIZE`] entries each.

mod case;
mod collate;
mod node;
mod number;
mod options;
mod tags;
#[cfg(test)]
mod tests;

pub(crate) use case::to_locale_case;
pub(crate) use collate::compare;

use std::sync::{Arc, LazyLock};

use icu::locale::Locale;
use writ_core::{Array, FifoCache, Str, Value};

use crate::coerce::{self, number_to_str};
use crate::error::{Error, Result};
use crate::interp::Cx;

use number::NumberFormat;
use tags::{refuse_unusual_locales, refuse_unusual_options};

/// The locale writ formats and compares with when none is given.
const DEFAULT_LOCALE: &str = "en-US";

/// [`DEFAULT_LOCALE`], parsed.
fn default_locale() -> Locale {
    icu::locale::locale!("en-US")
}

/// Marks where the number goes in a pattern (a private-use character CLDR never uses).
const NUMBER_MARK: char = '\u{F8F0}';
/// Marks where the currency goes in a pattern.
const CURRENCY_MARK: char = '\u{F8F1}';

/// Formatters and collators kept per kind, oldest dropped first.
const CACHE_SIZE: usize = 64;

/// Resolved number formats per locale and option arguments.
static FORMATS: LazyLock<FifoCache<String, Arc<NumberFormat>>> = LazyLock::new(|| FifoCache::new(CACHE_SIZE));

/// `n.toLocaleString(locales, options)`, as `Intl.NumberFormat(locales, options).format(n)`.
pub(crate) fn number_to_locale_string(cx: &mut Cx<'_>, n: f64, locales: &Value, options: &Value) -> Result<Str> {
    let format = resolved_format(cx, locales, options)?;
    format.format(cx, n)
}

/// The number format for these arguments: from the cache when the same arguments were
/// resolved before (a repeat call reads and charges only the arguments), else resolved.
fn resolved_format(cx: &mut Cx<'_>, locales: &Value, options: &Value) -> Result<Arc<NumberFormat>> {
    let Some(key) = arguments_key("number", locales, options) else {
        return NumberFormat::new(cx, locales, options).map(Arc::new);
    };
    charge_arguments(cx, &key, locales)?;
    let (format, _) = FORMATS.get_or_try_insert_with(&key, || NumberFormat::new(cx, locales, options).map(Arc::new))?;
    Ok(format)
}

/// Charges what reading the arguments costs when their resolution is cached: the key's text,
/// and the square of the locale list's length, as the engine compares each tag with the others.
fn charge_arguments(cx: &mut Cx<'_>, key: &str, locales: &Value) -> Result<()> {
    cx.text(key.len())?;
    if let Value::Array(items) = locales {
        let n = items.len() as u64;
        cx.steps(n.saturating_mul(n))?;
    }
    Ok(())
}

/// A key that tells apart every pair of locale and option arguments that could resolve
/// differently (`2` and `"2"`, `null` and `undefined`), or `None` for arguments the cache does
/// not keep (they are checked, and refused, on every call).
fn arguments_key(kind: &str, locales: &Value, options: &Value) -> Option<String> {
    let mut key = String::from(kind);
    let push = |key: &mut String, value: &Value| -> Option<()> {
        match value {
            Value::Undefined => key.push('u'),
            Value::Null => key.push('n'),
            Value::Bool(b) => key.push(if *b { 't' } else { 'f' }),
            Value::Number(n) => {
                key.push('#');
                key.push_str(&number_to_str(*n).to_string_lossy());
                if *n == 0.0 && n.is_sign_negative() {
                    key.push('-');
                }
            }
            // Every text an argument may hold and resolve is ASCII; other text is not kept.
            Value::String(text) => {
                let text = text.as_ascii_str()?;
                key.push_str(&format!("s{}:", text.len()));
                key.push_str(text);
            }
            Value::Array(_) | Value::Object(_) => return None,
        }
        Some(())
    };
    key.push('|');
    match locales {
        Value::Undefined | Value::String(_) => push(&mut key, locales)?,
        Value::Array(items) => {
            key.push('[');
            for item in items.iter() {
                let Value::String(_) = item else { return None };
                push(&mut key, item)?;
            }
        }
        _ => return None,
    }
    key.push('|');
    match options {
        Value::Undefined => key.push('u'),
        Value::Object(object) => {
            key.push('{');
            for (name, value) in object.iter() {
                let name = name.as_ascii_str()?;
                key.push_str(&format!("{}:{name}=", name.len()));
                push(&mut key, value)?;
            }
        }
        _ => return None,
    }
    Some(key)
}

/// `items.toLocaleString(locales, options)`: each element's own `toLocaleString` with the same
/// locales and options (a number formatted, a string as it is, `null` and `undefined` empty,
/// a nested array recursively, an object `[object Object]` or a TypeError as ToPrimitive
/// says), joined with `,`.
///
/// As in JavaScript, the locales and options are only read when a number is formatted, so
/// `["a"].toLocaleString(null)` is `"a"`; arguments JavaScript would accept and writ refuses
/// anyway are refused up front.
pub(crate) fn array_to_locale_string(cx: &mut Cx<'_>, items: &Array, locales: &Value, options: &Value) -> Result<Str> {
    refuse_unusual_locales(locales)?;
    refuse_unusual_options(options)?;
    let mut format: Option<Arc<NumberFormat>> = None;
    let mut parts: Vec<Str> = Vec::new();
    let mut total = 0usize;
    // An explicit stack: arrays nest as deep as the data does.
    let mut stack: Vec<(&Array, usize)> = vec![(items, 0)];
    let comma = Str::from(",");
    while let Some(top) = stack.last_mut() {
        let (array, index) = (top.0, top.1);
        let Some(item) = array.get(index) else {
            stack.pop();
            continue;
        };
        top.1 += 1;
        if index > 0 {
            parts.push(comma.clone());
            total = total.saturating_add(1);
        }
        cx.steps(1)?;
        let part = match item {
            Value::Undefined | Value::Null => continue,
            Value::Array(inner) => {
                stack.push((inner, 0));
                continue;
            }
            Value::Number(n) => {
                if format.is_none() {
                    format = Some(resolved_format(cx, locales, options)?);
                }
                match &format {
                    Some(format) => format.format(cx, *n)?,
                    None => continue,
                }
            }
            Value::String(text) => text.clone(),
            Value::Bool(true) => Str::from("true"),
            Value::Bool(false) => Str::from("false"),
            // JavaScript calls the object's own `toLocaleString` (then `toString`); data holds
            // no function, so an own property of that name fails as it does there.
            Value::Object(object) => {
                if let Some(name) = ["toLocaleString", "toString"]
                    .into_iter()
                    .find(|name| object.get_str(name).is_some())
                {
                    return Err(Error::type_error(format!(
                        "An object in the array has a \"{name}\" property that is not a function, so it cannot be \
                         written by toLocaleString; map the objects to text first"
                    )));
                }
                // `Object.prototype.toLocaleString` calls `toString`: an object from
                // `Object.groupBy` has neither.
                coerce::object_to_primitive(cx, object)?
            }
        };
        total = total.saturating_add(part.len_utf16());
        parts.push(part);
    }
    cx.string(total)?;
    let mut units: Vec<u16> = Vec::with_capacity(total);
    for part in &parts {
        units.extend(part.code_units());
    }
    Ok(Str::from_utf16(&units))
}
