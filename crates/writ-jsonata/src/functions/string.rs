//! String built-ins.
//!
//! Text is UTF-16 code units, as in jsonata-js: lengths and indices count code units except
//! where jsonata-js walks code points (`$length`, `$substring`, `$pad` split strings with
//! `Array.from`), and a lone surrogate is one code point. Every function charges the meter for
//! the text it walks before walking it, and for the text it builds (its exact final length,
//! worked out first) before building it.

use std::sync::Arc;

use writ_core::{Object, Shape, Str, Value, js};

use super::Builtin;
use crate::error::{Code, Error, Result};
use crate::eval::Cx;
use crate::function::Function;
use crate::regex::{self, Match, Pattern, Subject};
use crate::value::{Flags, Val};

pub(super) const TABLE: &[Builtin] = &[
    Builtin {
        name: "string",
        signature: "<x-b?:s>",
        imp: string,
    },
    Builtin {
        name: "substring",
        signature: "<s-nn?:s>",
        imp: substring,
    },
    Builtin {
        name: "substringBefore",
        signature: "<s-s:s>",
        imp: substring_before,
    },
    Builtin {
        name: "substringAfter",
        signature: "<s-s:s>",
        imp: substring_after,
    },
    Builtin {
        name: "lowercase",
        signature: "<s-:s>",
        imp: lowercase,
    },
    Builtin {
        name: "uppercase",
        signature: "<s-:s>",
        imp: uppercase,
    },
    Builtin {
        name: "length",
        signature: "<s-:n>",
        imp: length,
    },
    Builtin {
        name: "trim",
        signature: "<s-:s>",
        imp: trim,
    },
    Builtin {
        name: "pad",
        signature: "<s-ns?:s>",
        imp: pad,
    },
    Builtin {
        name: "match",
        signature: "<s-f<s:o>n?:a<o>>",
        imp: match_,
    },
    Builtin {
        name: "contains",
        signature: "<s-(sf):b>",
        imp: contains,
    },
    Builtin {
        name: "replace",
        signature: "<s-(sf)(sf)n?:s>",
        imp: replace,
    },
    Builtin {
        name: "split",
        signature: "<s-(sf)n?:a<s>>",
        imp: split,
    },
    Builtin {
        name: "join",
        signature: "<a<s>s?:s>",
        imp: join,
    },
    Builtin {
        name: "base64encode",
        signature: "<s-:s>",
        imp: base64encode,
    },
    Builtin {
        name: "base64decode",
        signature: "<s-:s>",
        imp: base64decode,
    },
    Builtin {
        name: "encodeUrlComponent",
        signature: "<s-:s>",
        imp: encode_url_component,
    },
    Builtin {
        name: "encodeUrl",
        signature: "<s-:s>",
        imp: encode_url,
    },
    Builtin {
        name: "decodeUrlComponent",
        signature: "<s-:s>",
        imp: decode_url_component,
    },
    Builtin {
        name: "decodeUrl",
        signature: "<s-:s>",
        imp: decode_url,
    },
];

// ---------------------------------------------------------------------------------------------
// Conversion to text: `$string`, `&`, and the JSON writer behind them.

/// `$string(value)` without its undefined case, as the `&` operator uses it: strings as they
/// are, functions (and undefined) as `""`, everything else as `$string`'s JSON.
///
/// # Errors
///
/// D3001 for a number that is not finite; D1001 for one inside an array or object.
pub(crate) fn to_string(cx: &mut Cx<'_>, value: &Val) -> Result<Str> {
    text_of(cx, value, false)
}

/// The JSON text of `value` as `$string` writes it: numbers that are not integers to 15
/// significant digits, functions as `""`, undefined left out of objects and `null` in arrays;
/// pretty-printed with two-space indents when `pretty`.
///
/// # Errors
///
/// D1001 for a number that is not finite, and the meter's errors.
pub(crate) fn stringify(cx: &mut Cx<'_>, value: &Val, pretty: bool) -> Result<Str> {
    // A sequence made around an input array stands for that array.
    let value = match value {
        Val::List(items, flags) if flags.has(Flags::OUTER_WRAPPER) => items.first().cloned().unwrap_or_default(),
        other => other.clone(),
    };
    let mut writer = JsonWriter {
        out: String::new(),
        pretty,
        stack: Vec::new(),
        counted: 0,
        units: 0,
    };
    writer.write(cx, value)?;
    while !writer.stack.is_empty() {
        writer.resume(cx)?;
    }
    let out = writer.out;
    let len = if out.is_ascii() {
        out.len()
    } else {
        out.encode_utf16().count()
    };
    cx.charge_string(len)?;
    Ok(Str::from(out))
}

/// `$string`'s conversion: strings unchanged, functions and undefined as `""`, a number that is
/// not finite refused (D3001), everything else as JSON.
fn text_of(cx: &mut Cx<'_>, value: &Val, pretty: bool) -> Result<Str> {
    match value {
        Val::Undefined | Val::Function(_) => Ok(Str::empty()),
        Val::String(text) => Ok(text.clone()),
        Val::Number(n) if !n.is_finite() => Err(Error::new(Code::D3001).with_value(writ_core::js_number_to_string(*n))),
        Val::Number(n) => {
            // What `stringify` does for a number, without its writer.
            cx.step()?;
            let text = number_text(*n);
            cx.charge_string(text.len())?;
            Ok(Str::from(text.as_str()))
        }
        other => stringify(cx, other, pretty),
    }
}

/// A number as `$string` writes it: integers as JavaScript prints them, anything else first
/// rounded to 15 significant digits (`Number(n.toPrecision(15))`), which hides the binary
/// noise of `0.1 + 0.2`.
fn number_text(n: f64) -> String {
    if n.fract() == 0.0 {
        writ_core::js_number_to_string(n)
    } else {
        writ_core::js_number_to_string(fifteen_digits(n))
    }
}

/// `Number(n.toPrecision(15))` for a finite `n` that is not an integer.
///
/// Rust formats exactly and breaks an exact tie to the even digit; JavaScript's `toPrecision`
/// breaks it upwards (away from zero). A tie needs the exact decimal value of `n` to have
/// exactly 16 significant digits ending in 5, which is checked here exactly.
pub(crate) fn fifteen_digits(n: f64) -> f64 {
    // Shortest digits of fifteen or fewer are what rounding to fifteen gives: the exact value
    // lies within half a unit in the last place of them, far inside half a unit of the
    // fifteenth digit, so the number stands as it is.
    if significant_digits(n) <= 15 {
        return n;
    }
    fifteen_digits_by_rounding(n)
}

/// How many significant digits `String(n)` writes.
fn significant_digits(n: f64) -> usize {
    let text = writ_core::js_number_to_string(n);
    let mantissa = text.split('e').next().unwrap_or_default();
    mantissa
        .bytes()
        .filter(u8::is_ascii_digit)
        .skip_while(|&digit| digit == b'0')
        .count()
}

/// [`fifteen_digits`] by rounding the exact value to fifteen digits, for any `n`.
fn fifteen_digits_by_rounding(n: f64) -> f64 {
    let magnitude = n.abs();
    let rounded = match exact_sixteen_digits(magnitude) {
        Some((digits, exponent)) => format!("{}e{}", digits / 10 + 1, exponent + 1)
            .parse()
            .unwrap_or(magnitude),
        None => format!("{magnitude:.14e}").parse().unwrap_or(magnitude),
    };
    if n < 0.0 { -rounded } else { rounded }
}

/// When `x` (positive, not an integer) is exactly `d × 10^e` for a 16-digit integer `d`
/// ending in 5, that `(d, e)`.
fn exact_sixteen_digits(x: f64) -> Option<(u128, i32)> {
    let bits = x.to_bits();
    let biased = ((bits >> 52) & 0x7FF) as i32;
    let fraction = bits & ((1 << 52) - 1);
    let (mut mantissa, mut exponent) = if biased == 0 {
        (fraction, -1074)
    } else {
        (fraction | (1 << 52), biased - 1075)
    };
    if mantissa == 0 {
        return None;
    }
    while mantissa % 2 == 0 {
        mantissa /= 2;
        exponent += 1;
    }
    // x = mantissa / 2^k = mantissa × 5^k / 10^k, whose digits are those of mantissa × 5^k.
    let k = u32::try_from(-exponent).ok().filter(|&k| (1..=22).contains(&k))?;
    let digits = u128::from(mantissa) * 5u128.pow(k);
    (10u128.pow(15)..10u128.pow(16))
        .contains(&digits)
        .then_some((digits, -(k as i32)))
}

/// A container being written: its items and how far the writer has got.
enum Frame {
    /// An array's items.
    Array { items: Vec<Val>, next: usize },
    /// An object's entries, and how many have been written (undefined ones are skipped).
    Object {
        entries: Vec<(Str, Val)>,
        next: usize,
        written: usize,
    },
}

/// `JSON.stringify` with `$string`'s replacer, without recursion: containers wait on a stack.
struct JsonWriter {
    /// The text so far.
    out: String,
    /// Two-space indents and a newline per item.
    pretty: bool,
    /// The open containers, innermost last.
    stack: Vec<Frame>,
    /// How many bytes of `out` are counted in `units`.
    counted: usize,
    /// The code units of `out`'s first `counted` bytes.
    units: usize,
}

/// How many bytes of JSON text are written between two checks of its length: a value that
/// holds one container many times over writes far more text than it takes, and the text must
/// stop at the string cap, not after it.
const TEXT_CHECK: usize = 1 << 16;

impl JsonWriter {
    /// Fails once the text passes the string cap, counting what was written since the last
    /// check when enough was.
    fn bounded(&mut self, cx: &mut Cx<'_>) -> Result<()> {
        if self.out.len() - self.counted < TEXT_CHECK {
            return Ok(());
        }
        // Checks come between pieces, so the bytes since the last one start a character.
        let fresh = &self.out[self.counted..];
        self.units += if fresh.is_ascii() {
            fresh.len()
        } else {
            fresh.encode_utf16().count()
        };
        self.counted = self.out.len();
        cx.check_string_length(self.units)
    }

    /// Writes a scalar, or opens a container and leaves it on the stack.
    fn write(&mut self, cx: &mut Cx<'_>, value: Val) -> Result<()> {
        cx.step()?;
        self.bounded(cx)?;
        match value {
            Val::Undefined | Val::Null => self.out.push_str("null"),
            Val::Bool(b) => self.out.push_str(if b { "true" } else { "false" }),
            Val::Number(n) if n.is_nan() => self.out.push_str("null"),
            Val::Number(n) if n.is_infinite() => {
                return Err(Error::new(Code::D1001).with_value(writ_core::js_number_to_string(n)));
            }
            Val::Number(n) => self.out.push_str(&number_text(n)),
            Val::String(text) => {
                cx.steps(text.len_utf16() as u64)?;
                writ_core::write_json_string(&text, &mut self.out);
            }
            Val::Function(_) => self.out.push_str("\"\""),
            Val::Array(_) | Val::List(..) => {
                let items = value.as_array().map(|items| items.to_vec()).unwrap_or_default();
                cx.steps(items.len() as u64)?;
                self.out.push('[');
                self.stack.push(Frame::Array { items, next: 0 });
            }
            Val::Object(_) | Val::Record(_) => {
                // Built objects keep JavaScript's key order already (`in_js_order`).
                let entries: Vec<(Str, Val)> = value
                    .as_object()
                    .map(|object| object.entries().collect())
                    .unwrap_or_default();
                cx.steps(entries.len() as u64)?;
                self.out.push('{');
                self.stack.push(Frame::Object {
                    entries,
                    next: 0,
                    written: 0,
                });
            }
        }
        Ok(())
    }

    /// Writes the next item of the innermost container, or closes it.
    fn resume(&mut self, cx: &mut Cx<'_>) -> Result<()> {
        let depth = self.stack.len();
        let Some(frame) = self.stack.last_mut() else {
            return Ok(());
        };
        let (item, key, first, close) = match frame {
            Frame::Array { items, next } => {
                let item = items.get(*next).cloned();
                *next += 1;
                (item, None, *next == 1, (']', !items.is_empty()))
            }
            Frame::Object { entries, next, written } => {
                // Undefined values are left out, as `JSON.stringify` leaves them out.
                while entries.get(*next).is_some_and(|(_, value)| value.is_undefined()) {
                    *next += 1;
                }
                let entry = entries.get(*next).cloned();
                *next += 1;
                let first = *written == 0;
                if entry.is_some() {
                    *written += 1;
                }
                let close = ('}', *written > 0);
                match entry {
                    Some((key, value)) => (Some(value), Some(key), first, close),
                    None => (None, None, first, close),
                }
            }
        };
        let Some(item) = item else {
            self.stack.pop();
            if close.1 {
                self.newline(cx, depth - 1)?;
            }
            self.out.push(close.0);
            return Ok(());
        };
        if !first {
            self.out.push(',');
        }
        self.newline(cx, depth)?;
        if let Some(key) = key {
            cx.steps(key.len_utf16() as u64)?;
            writ_core::write_json_string(&key, &mut self.out);
            self.out.push_str(if self.pretty { ": " } else { ":" });
        }
        self.write(cx, item)
    }

    /// In pretty mode, a newline and the indent of `depth` levels.
    fn newline(&mut self, cx: &mut Cx<'_>, depth: usize) -> Result<()> {
        if self.pretty {
            cx.steps(2 * depth as u64)?;
            self.out.push('\n');
            self.out.extend(std::iter::repeat_n(' ', 2 * depth));
        }
        Ok(())
    }
}

/// `$string(arg, prettify?)`.
fn string(cx: &mut Cx<'_>, args: &[Val]) -> Result<Val> {
    let value = args.first().cloned().unwrap_or_default();
    if value.is_undefined() {
        return Ok(Val::Undefined);
    }
    let pretty = matches!(args.get(1), Some(Val::Bool(true)));
    Ok(Val::String(text_of(cx, &value, pretty)?))
}

// ---------------------------------------------------------------------------------------------
// Arguments, units and charges.

/// Argument `idx` when it is a string.
fn text_arg(args: &[Val], idx: usize) -> Option<&Str> {
    match args.get(idx) {
        Some(Val::String(text)) => Some(text),
        _ => None,
    }
}

/// Argument `idx` when it is a number.
fn number_arg(args: &[Val], idx: usize) -> Option<f64> {
    args.get(idx).and_then(Val::as_number)
}

/// Charges building a string of `len` code units: the work of writing it and the string itself.
fn charge_output(cx: &mut Cx<'_>, len: usize) -> Result<()> {
    cx.steps(len as u64)?;
    cx.charge_string(len)
}

/// A lead (high) surrogate.
fn is_lead(unit: u16) -> bool {
    (0xD800..0xDC00).contains(&unit)
}

/// A trail (low) surrogate.
fn is_trail(unit: u16) -> bool {
    (0xDC00..0xE000).contains(&unit)
}

/// The code-unit index where each code point of `units` starts, then the length: what
/// `Array.from(text)` splits on (a surrogate pair is one code point, a lone surrogate another).
fn code_point_starts(units: &[u16]) -> Vec<usize> {
    let mut starts = Vec::with_capacity(units.len() + 1);
    let mut idx = 0;
    while idx < units.len() {
        starts.push(idx);
        let pair =
            units.get(idx).is_some_and(|&unit| is_lead(unit)) && units.get(idx + 1).is_some_and(|&unit| is_trail(unit));
        idx += if pair { 2 } else { 1 };
    }
    starts.push(units.len());
    starts
}

/// The number of code points of `text`.
fn code_point_count(text: &Str) -> usize {
    if text.is_ascii() {
        return text.len_utf16();
    }
    let mut count = 0;
    let mut after_lead = false;
    for unit in text.code_units() {
        if after_lead && is_trail(unit) {
            after_lead = false;
            continue;
        }
        count += 1;
        after_lead = is_lead(unit);
    }
    count
}

/// JavaScript's ToIntegerOrInfinity: NaN is 0, anything else loses its fraction.
fn integer(n: f64) -> f64 {
    if n.is_nan() { 0.0 } else { n.trunc() }
}

/// `Array.prototype.slice`'s reading of a bound `n` over `len` items: negative counts from the
/// end, and the result is clamped to `0..=len`.
fn relative(n: f64, len: usize) -> usize {
    let n = integer(n);
    if n < 0.0 {
        (len as f64 + n).max(0.0) as usize
    } else {
        n.min(len as f64) as usize
    }
}

/// `String.prototype.substring(a, b)`'s bounds over `len` units: each clamped to `0..=len`,
/// the smaller first.
fn substring_bounds(a: f64, b: f64, len: usize) -> (usize, usize) {
    let clamp = |n: f64| integer(n).clamp(0.0, len as f64) as usize;
    let (a, b) = (clamp(a), clamp(b));
    (a.min(b), a.max(b))
}

/// JavaScript's ToUint32, as `String.prototype.split` reads its limit.
fn to_uint32(n: f64) -> u32 {
    if !n.is_finite() {
        return 0;
    }
    n.trunc().rem_euclid(4_294_967_296.0) as u32
}

/// Whether a loop that has handled `count` matches may handle another under `limit`
/// (jsonata-js compares `count < limit` with the limit as given, fractions included).
fn within(count: usize, limit: Option<f64>) -> bool {
    limit.is_none_or(|limit| (count as f64) < limit)
}

/// The text a value has when JavaScript adds it to a string: for the odd values a custom
/// matcher may put where strings belong.
fn js_text(cx: &mut Cx<'_>, value: &Val) -> Result<Str> {
    Ok(match value {
        Val::String(text) => text.clone(),
        Val::Undefined => Str::from("undefined"),
        Val::Null => Str::from("null"),
        Val::Bool(b) => Str::from(if *b { "true" } else { "false" }),
        Val::Number(n) => Str::from(writ_core::js_number_to_string(*n)),
        other => to_string(cx, other)?,
    })
}

/// A text to search in: ASCII text as it is stored, anything else as code units.
enum Haystack<'a> {
    /// Every unit is ASCII.
    Ascii(&'a str),
    /// The code units.
    Wide(Vec<u16>),
}

impl<'a> Haystack<'a> {
    /// The haystack for `text`.
    fn new(text: &'a Str) -> Haystack<'a> {
        match text.as_ascii_str() {
            Some(ascii) => Haystack::Ascii(ascii),
            None => Haystack::Wide(text.to_utf16()),
        }
    }
}

/// Finds one string in others in linear time: the standard library's search for ASCII, a
/// Knuth–Morris–Pratt table over code units otherwise.
struct Finder {
    /// The string searched for.
    needle: Vec<u16>,
    /// The same, when it is ASCII.
    ascii: Option<String>,
    /// For each prefix length, the length of its longest proper border.
    border: Vec<usize>,
}

impl Finder {
    /// A finder for `needle`.
    fn new(needle: &Str) -> Finder {
        let ascii = needle.as_ascii_str().map(str::to_owned);
        let needle = needle.to_utf16();
        let mut border = vec![0; needle.len() + 1];
        let mut k = 0;
        for i in 1..needle.len() {
            while k > 0 && needle.get(i) != needle.get(k) {
                k = border.get(k).copied().unwrap_or(0);
            }
            if needle.get(i) == needle.get(k) {
                k += 1;
            }
            if let Some(slot) = border.get_mut(i + 1) {
                *slot = k;
            }
        }
        Finder { needle, ascii, border }
    }

    /// The first index at or after `from` where the needle starts (an empty needle is found
    /// at `from` itself).
    fn find(&self, haystack: &Haystack<'_>, from: usize) -> Option<usize> {
        match (haystack, &self.ascii) {
            (Haystack::Ascii(text), Some(needle)) => text.get(from..)?.find(needle.as_str()).map(|at| at + from),
            // A needle with a non-ASCII unit is nowhere in ASCII text.
            (Haystack::Ascii(text), None) => (self.needle.is_empty() && from <= text.len()).then_some(from),
            (Haystack::Wide(units), _) => self.find_units(units, from),
        }
    }

    /// The search over code units.
    fn find_units(&self, units: &[u16], from: usize) -> Option<usize> {
        if self.needle.is_empty() {
            return (from <= units.len()).then_some(from);
        }
        let mut k = 0;
        for (i, &unit) in units.iter().enumerate().skip(from) {
            while k > 0 && self.needle.get(k) != Some(&unit) {
                k = self.border.get(k).copied().unwrap_or(0);
            }
            if self.needle.get(k) == Some(&unit) {
                k += 1;
            }
            if k == self.needle.len() {
                return Some(i + 1 - k);
            }
        }
        None
    }

    /// The needle's length in code units.
    fn len(&self) -> usize {
        self.needle.len()
    }
}

/// `text.indexOf(needle)`, charged for one pass over both.
fn index_of(cx: &mut Cx<'_>, text: &Str, needle: &Str) -> Result<Option<usize>> {
    cx.steps((text.len_utf16() + needle.len_utf16()) as u64)?;
    Ok(Finder::new(needle).find(&Haystack::new(text), 0))
}

/// Where `needle` occurs in `text`, left to right without overlaps as a loop of `indexOf`
/// calls finds them, at most `limit` times; charged for one pass over both.
fn occurrences(cx: &mut Cx<'_>, text: &Str, needle: &Str, limit: Option<f64>) -> Result<Vec<usize>> {
    cx.steps((text.len_utf16() + needle.len_utf16()) as u64)?;
    let finder = Finder::new(needle);
    let haystack = Haystack::new(text);
    let mut found = Vec::new();
    let mut from = 0;
    while within(found.len(), limit) {
        let Some(at) = finder.find(&haystack, from) else { break };
        found.push(at);
        from = at + finder.len().max(1);
    }
    cx.charge_array(found.len())?;
    Ok(found)
}

/// A piece of a result being assembled from a text and other strings.
enum Piece {
    /// Code units `start..end` of the text.
    Span(usize, usize),
    /// A string of its own.
    Text(Str),
}

/// Joins `pieces` (spans of `text`, or strings) into one string, charged before it is built.
fn assemble(cx: &mut Cx<'_>, text: &Str, pieces: &[Piece]) -> Result<Str> {
    let len: usize = pieces
        .iter()
        .map(|piece| match piece {
            Piece::Span(start, end) => end.saturating_sub(*start),
            Piece::Text(part) => part.len_utf16(),
        })
        .sum();
    charge_output(cx, len)?;
    let units = text.to_utf16();
    let mut out: Vec<u16> = Vec::with_capacity(len);
    for piece in pieces {
        match piece {
            Piece::Span(start, end) => out.extend_from_slice(units.get(*start..*end).unwrap_or_default()),
            Piece::Text(part) => out.extend(part.code_units()),
        }
    }
    Ok(Str::from_utf16(&out))
}

// ---------------------------------------------------------------------------------------------
// Length, slicing, case, whitespace, padding.

/// `$length(str)`: code points, not code units.
fn length(cx: &mut Cx<'_>, args: &[Val]) -> Result<Val> {
    let Some(text) = text_arg(args, 0) else {
        return Ok(Val::Undefined);
    };
    cx.steps(text.len_utf16() as u64)?;
    Ok(Val::Number(code_point_count(text) as f64))
}

/// `$substring(str, start, length?)`, over code points, with jsonata-js's reading of negative
/// starts and lengths.
fn substring(cx: &mut Cx<'_>, args: &[Val]) -> Result<Val> {
    let Some(text) = text_arg(args, 0) else {
        return Ok(Val::Undefined);
    };
    cx.steps(text.len_utf16() as u64)?;
    let units = text.to_utf16();
    let starts = code_point_starts(&units);
    let count = starts.len() - 1;
    let mut start = number_arg(args, 1).unwrap_or(0.0);
    if count as f64 + start < 0.0 {
        start = 0.0;
    }
    let end = match number_arg(args, 2) {
        Some(length) if length <= 0.0 => return Ok(Val::String(Str::empty())),
        Some(length) if start >= 0.0 => start + length,
        Some(length) => count as f64 + start + length,
        None => count as f64,
    };
    let (from, to) = (relative(start, count), relative(end, count));
    if from >= to {
        return Ok(Val::String(Str::empty()));
    }
    let (from, to) = (
        starts.get(from).copied().unwrap_or(0),
        starts.get(to).copied().unwrap_or(units.len()),
    );
    charge_output(cx, to - from)?;
    Ok(Val::String(text.slice(from, to)))
}

/// The string `$substringBefore`/`$substringAfter` search for: jsonata-js hands a missing one
/// to `indexOf`, which searches for the text "undefined".
fn boundary_arg(args: &[Val]) -> Str {
    text_arg(args, 1).cloned().unwrap_or_else(|| Str::from("undefined"))
}

/// `$substringBefore(str, chars)`: the text before the first `chars`, or all of it.
fn substring_before(cx: &mut Cx<'_>, args: &[Val]) -> Result<Val> {
    let Some(text) = text_arg(args, 0) else {
        return Ok(Val::Undefined);
    };
    let chars = boundary_arg(args);
    Ok(Val::String(match index_of(cx, text, &chars)? {
        Some(at) => {
            charge_output(cx, at)?;
            text.slice(0, at)
        }
        None => text.clone(),
    }))
}

/// `$substringAfter(str, chars)`: the text after the first `chars`, or all of it.
fn substring_after(cx: &mut Cx<'_>, args: &[Val]) -> Result<Val> {
    let Some(text) = text_arg(args, 0) else {
        return Ok(Val::Undefined);
    };
    let chars = boundary_arg(args);
    Ok(Val::String(match index_of(cx, text, &chars)? {
        Some(at) => {
            let from = at + chars.len_utf16();
            charge_output(cx, text.len_utf16() - from.min(text.len_utf16()))?;
            text.slice(from, text.len_utf16())
        }
        None => text.clone(),
    }))
}

/// `$uppercase(str)`.
fn uppercase(cx: &mut Cx<'_>, args: &[Val]) -> Result<Val> {
    let Some(text) = text_arg(args, 0) else {
        return Ok(Val::Undefined);
    };
    Ok(Val::String(change_case(cx, text, true)?))
}

/// `$lowercase(str)`.
fn lowercase(cx: &mut Cx<'_>, args: &[Val]) -> Result<Val> {
    let Some(text) = text_arg(args, 0) else {
        return Ok(Val::Undefined);
    };
    Ok(Val::String(change_case(cx, text, false)?))
}

/// JavaScript's `toUpperCase`/`toLowerCase`: full Unicode case mapping (ß → SS, a final Σ →
/// ς), with lone surrogates left as they are and breaking the text into separate words for
/// the final-sigma rule, as they do in JavaScript.
fn change_case(cx: &mut Cx<'_>, text: &Str, upper: bool) -> Result<Str> {
    if let Some(ascii) = text.as_ascii_str() {
        // Scanned, then mapped, [`CASE_PIECE`] bytes at a time, each piece charged as it is
        // taken (which reads the clock when the piece is long), so a long text stops at its
        // deadline within a piece, however busy the machine.
        let changes = |b: &u8| {
            if upper {
                b.is_ascii_lowercase()
            } else {
                b.is_ascii_uppercase()
            }
        };
        let mut first = None;
        for (at, piece) in ascii.as_bytes().chunks(CASE_PIECE).enumerate() {
            cx.steps(piece.len() as u64)?;
            if let Some(offset) = piece.iter().position(changes) {
                first = Some(at * CASE_PIECE + offset);
                break;
            }
        }
        let Some(first) = first else {
            return Ok(text.clone());
        };
        charge_output(cx, ascii.len())?;
        let mut out = String::new();
        out.try_reserve_exact(ascii.len())
            .map_err(|_| crate::value::out_of_memory())?;
        out.push_str(ascii);
        let mut at = first;
        while at < out.len() {
            let end = (at + CASE_PIECE).min(out.len());
            cx.steps((end - at) as u64)?;
            // Mapped where it stands: every byte of the text is a character.
            if let Some(piece) = out.get_mut(at..end) {
                if upper {
                    piece.make_ascii_uppercase();
                } else {
                    piece.make_ascii_lowercase();
                }
            }
            at = end;
        }
        return Ok(Str::from(out));
    }
    // Mapped in pieces, each charged as it is taken (which reads the clock) and the text checked
    // against the string cap after it: a character can map to three, and a long text must stop
    // at its deadline and its cap, not after mapping all of it. A piece ends after a space,
    // where no final sigma's context can reach across, or anywhere for upper case, which has
    // no context.
    let convert = |run: &str| if upper { run.to_uppercase() } else { run.to_lowercase() };
    let mut out: Vec<u16> = crate::value::vec_for(text.len_utf16())?;
    let mut run = String::new();
    let mut taken = 0usize;
    let flush = |cx: &mut Cx<'_>, run: &mut String, out: &mut Vec<u16>, taken: &mut usize| -> Result<()> {
        cx.steps(*taken as u64)?;
        *taken = 0;
        out.extend(convert(run).encode_utf16());
        run.clear();
        cx.check_string_length(out.len())
    };
    for decoded in char::decode_utf16(text.code_units()) {
        match decoded {
            Ok(ch) => {
                run.push(ch);
                taken += ch.len_utf16();
                if taken >= CASE_PIECE && (upper || ch.is_ascii_whitespace()) {
                    flush(cx, &mut run, &mut out, &mut taken)?;
                }
            }
            Err(lone) => {
                flush(cx, &mut run, &mut out, &mut taken)?;
                out.push(lone.unpaired_surrogate());
            }
        }
    }
    flush(cx, &mut run, &mut out, &mut taken)?;
    charge_output(cx, out.len())?;
    Ok(Str::from_utf16(&out))
}

/// How many code units of a text are case-mapped between two readings of the clock.
const CASE_PIECE: usize = 1 << 16;

/// `$trim(str)`: runs of spaces, tabs and line breaks become one space, and a space at either
/// end goes.
fn trim(cx: &mut Cx<'_>, args: &[Val]) -> Result<Val> {
    let Some(text) = text_arg(args, 0) else {
        return Ok(Val::Undefined);
    };
    cx.steps(text.len_utf16() as u64)?;
    let is_space = |unit: u16| matches!(unit, 0x20 | 0x09 | 0x0A | 0x0D);
    let mut out: Vec<u16> = Vec::with_capacity(text.len_utf16());
    let mut in_space = false;
    for unit in text.code_units() {
        if is_space(unit) {
            if !in_space {
                out.push(0x20);
            }
            in_space = true;
        } else {
            out.push(unit);
            in_space = false;
        }
    }
    if out.first() == Some(&0x20) {
        out.remove(0);
    }
    if out.last() == Some(&0x20) {
        out.pop();
    }
    charge_output(cx, out.len())?;
    Ok(Val::String(Str::from_utf16(&out)))
}

/// `$pad(str, width, char?)`: pads to `|width|` code points with repeats of `char` (a space
/// by default), on the right for a positive width and on the left for a negative one.
fn pad(cx: &mut Cx<'_>, args: &[Val]) -> Result<Val> {
    let Some(text) = text_arg(args, 0) else {
        return Ok(Val::Undefined);
    };
    let filler = match text_arg(args, 2) {
        Some(filler) if !filler.is_empty() => filler.clone(),
        _ => Str::from(" "),
    };
    let width = integer(number_arg(args, 1).unwrap_or(0.0));
    cx.steps(text.len_utf16() as u64)?;
    let missing = width.abs() - code_point_count(text) as f64;
    if missing <= 0.0 || missing.is_nan() {
        return Ok(Val::String(text.clone()));
    }
    // jsonata-js repeats the filler `missing` times and keeps the first `missing` code points.
    let filler_units = filler.to_utf16();
    let filler_starts = code_point_starts(&filler_units);
    let per_filler = filler_starts.len() - 1;
    let padding_len = if per_filler > 0 && filler.is_well_formed() {
        let whole = (missing / per_filler as f64).floor();
        let rest = (missing as usize) % per_filler;
        whole * filler_units.len() as f64 + filler_starts.get(rest).copied().unwrap_or(0) as f64
    } else {
        // Lone surrogates may pair up across repeats: charge the most the padding can hold.
        missing * filler_units.len().min(2) as f64
    };
    // A float-to-integer cast saturates, so an absurd width is charged as the most there is.
    charge_output(cx, (padding_len + text.len_utf16() as f64) as usize)?;
    let missing = missing as usize;
    let padding = if per_filler > 0 && filler.is_well_formed() {
        // Whole fillers are copied as blocks: a long padding costs a memory copy, not a loop
        // per code point, so the time reserved above stays true on a busy machine.
        let (whole, rest) = (missing / per_filler, missing % per_filler);
        if let (Some(ascii), Some(own)) = (filler.as_ascii_str(), text.as_ascii_str()) {
            // ASCII throughout, the common case: the whole result is built in one buffer, a
            // block of fillers at a time with the clock read between blocks, so a long padding
            // stops at its deadline within a block however busy the machine.
            let mut out = String::new();
            out.try_reserve_exact(own.len() + whole * ascii.len() + rest)
                .map_err(|_| crate::value::out_of_memory())?;
            if width > 0.0 {
                out.push_str(own);
            }
            let per_block = (CASE_PIECE / ascii.len()).max(1);
            let block = ascii.repeat(per_block.min(whole));
            let mut left = whole;
            while left > 0 {
                let count = per_block.min(left);
                cx.steps((count * ascii.len()) as u64)?;
                out.push_str(&block[..count * ascii.len()]);
                left -= count;
            }
            out.push_str(&ascii[..rest]);
            if width < 0.0 {
                out.push_str(own);
            }
            return Ok(Val::String(Str::from(out)));
        } else if let Some(ascii) = filler.as_ascii_str() {
            let mut padding = ascii.repeat(whole);
            padding.push_str(&ascii[..rest]);
            Str::from(padding)
        } else {
            let mut padding = filler_units.repeat(whole);
            padding.extend_from_slice(&filler_units[..filler_starts[rest]]);
            Str::from_utf16(&padding)
        }
    } else {
        let mut padding: Vec<u16> = Vec::with_capacity(padding_len as usize);
        let mut points = 0;
        let mut cycle = filler_units.iter().copied().cycle().peekable();
        while points < missing {
            let Some(unit) = cycle.next() else { break };
            padding.push(unit);
            if is_lead(unit) && cycle.peek().is_some_and(|&next| is_trail(next)) {
                padding.extend(cycle.next());
            }
            points += 1;
        }
        Str::from_utf16(&padding)
    };
    Ok(Val::String(if width > 0.0 {
        text.concat(&padding)
    } else {
        padding.concat(text)
    }))
}

/// `$join(strings, separator?)`.
fn join(cx: &mut Cx<'_>, args: &[Val]) -> Result<Val> {
    let items: Vec<Val> = match args.first() {
        Some(Val::String(text)) => return Ok(Val::String(text.clone())),
        Some(value) => match value.as_array() {
            Some(items) => items.to_vec(),
            None => return Ok(Val::Undefined),
        },
        None => return Ok(Val::Undefined),
    };
    let separator = text_arg(args, 1).cloned().unwrap_or_else(Str::empty);
    cx.steps(items.len() as u64)?;
    let parts: Vec<Str> = items
        .iter()
        .map(|item| match item {
            Val::String(text) => text.clone(),
            _ => Str::empty(),
        })
        .collect();
    let len = parts.iter().map(Str::len_utf16).sum::<usize>() + separator.len_utf16() * parts.len().saturating_sub(1);
    charge_output(cx, len)?;
    let mut out: Vec<u16> = crate::value::vec_for(len)?;
    for (idx, part) in parts.iter().enumerate() {
        if idx > 0 {
            out.extend(separator.code_units());
        }
        out.extend(part.code_units());
    }
    Ok(Val::String(Str::from_utf16(&out)))
}

// ---------------------------------------------------------------------------------------------
// Matchers: `$contains`, `$split`, `$match`, `$replace` with a regex or a custom function.

/// The matches of a matcher over a text, walked one at a time as jsonata-js walks them: the
/// first from calling the matcher on the text, each next one from the previous match's `next`.
enum Matches<'a> {
    /// A regex literal, searched directly: the text is prepared once for every search.
    Regex {
        /// The pattern.
        pattern: &'a Arc<Pattern>,
        /// The text, as the pattern searches it.
        subject: Subject,
        /// The current match.
        current: Option<Match>,
    },
    /// Any other function, which must return `{match, start, end, groups, next}` objects.
    Custom {
        /// The current result; undefined when there are no more.
        current: Val,
    },
}

impl<'a> Matches<'a> {
    /// The first match of `matcher` over `text`.
    fn first(cx: &mut Cx<'_>, matcher: &'a Val, text: &Str) -> Result<Matches<'a>> {
        if let Some(pattern) = regex_of(matcher) {
            let subject = pattern.subject(cx, text)?;
            let current = pattern.find_at(cx, &subject, 0)?;
            return Ok(Matches::Regex {
                pattern,
                subject,
                current,
            });
        }
        let current = cx.apply(matcher, &[Val::String(text.clone())])?;
        check_matcher_result(&current)?;
        Ok(Matches::Custom { current })
    }

    /// Whether the matches have run out.
    fn done(&self) -> bool {
        match self {
            Matches::Regex { current, .. } => current.is_none(),
            Matches::Custom { current } => current.is_undefined(),
        }
    }

    /// Moves to the next match (`next()` of the current one), refusing a regex that matches
    /// the empty string there (D1004), since it would never move on.
    fn advance(&mut self, cx: &mut Cx<'_>) -> Result<()> {
        match self {
            Matches::Regex {
                pattern,
                subject,
                current,
            } => {
                let Some(previous) = current.take() else { return Ok(()) };
                if previous.end >= subject.len() {
                    return Ok(());
                }
                let found = pattern.find_at(cx, subject, previous.end)?;
                if found.as_ref().is_some_and(|found| found.start == found.end) {
                    return Err(regex::zero_length(pattern));
                }
                *current = found;
            }
            Matches::Custom { current } => {
                let next = field(current, "next");
                if !matches!(next, Val::Function(_)) {
                    return Err(Error::new(Code::T1010));
                }
                *current = cx.apply(&next, &[])?;
                check_matcher_result(current)?;
            }
        }
        Ok(())
    }

    /// The current match's start, as a number (a custom matcher's must be one).
    fn start(&self) -> Result<f64> {
        match self {
            Matches::Regex { current, .. } => Ok(current.as_ref().map_or(0.0, |found| found.start as f64)),
            Matches::Custom { current } => field(current, "start")
                .as_number()
                .ok_or_else(|| Error::new(Code::T1010)),
        }
    }

    /// The current match's end, as a number (a custom matcher's must be one).
    fn end(&self) -> Result<f64> {
        match self {
            Matches::Regex { current, .. } => Ok(current.as_ref().map_or(0.0, |found| found.end as f64)),
            Matches::Custom { current } => field(current, "end").as_number().ok_or_else(|| Error::new(Code::T1010)),
        }
    }

    /// The current match's `match` field.
    fn matched(&self, cx: &mut Cx<'_>) -> Result<Val> {
        match self {
            Matches::Regex { subject, current, .. } => {
                let Some(found) = current else {
                    return Ok(Val::Undefined);
                };
                charge_output(cx, found.end - found.start)?;
                Ok(Val::String(subject.text().slice(found.start, found.end)))
            }
            Matches::Custom { current } => Ok(field(current, "match")),
        }
    }

    /// The current match's groups: each group's text, or undefined where a group took no
    /// part. A custom matcher's field is taken as it is.
    fn groups(&self, cx: &mut Cx<'_>) -> Result<Val> {
        match self {
            Matches::Regex { subject, current, .. } => {
                let Some(found) = current else {
                    return Ok(Val::Undefined);
                };
                Ok(Val::array(found.group_values(cx, subject.text())?))
            }
            Matches::Custom { current } => Ok(field(current, "groups")),
        }
    }

    /// The whole current match object, as a replacement function receives it.
    fn record(&self, cx: &mut Cx<'_>) -> Result<Val> {
        match self {
            Matches::Regex {
                pattern,
                subject,
                current,
            } => match current {
                Some(found) => regex::match_record(cx, pattern, subject, found),
                None => Ok(Val::Undefined),
            },
            Matches::Custom { current } => Ok(current.clone()),
        }
    }
}

/// The pattern of a regex function value.
fn regex_of(value: &Val) -> Option<&Arc<Pattern>> {
    match value {
        Val::Function(function) => match function.as_ref() {
            Function::Regex(pattern) => Some(pattern),
            _ => None,
        },
        _ => None,
    }
}

/// Field `name` of an object value; undefined for anything else.
fn field(value: &Val, name: &str) -> Val {
    value
        .as_object()
        .and_then(|object| object.get(&Str::from(name)))
        .unwrap_or_default()
}

/// jsonata-js's check of what a custom matcher returned (T1010 unless it looks like a match:
/// a number `start`, an array `groups` or a function `next`). Undefined means no match, and a
/// falsy value passes unchecked, as it does there.
fn check_matcher_result(result: &Val) -> Result<()> {
    let truthy = match result {
        Val::Undefined | Val::Null | Val::Bool(false) => false,
        Val::Number(n) => *n != 0.0 && !n.is_nan(),
        Val::String(text) => !text.is_empty(),
        _ => true,
    };
    if !truthy {
        return Ok(());
    }
    let looks_like_match = matches!(field(result, "start"), Val::Number(_))
        || field(result, "groups").is_array()
        || matches!(field(result, "next"), Val::Function(_));
    if looks_like_match {
        Ok(())
    } else {
        Err(Error::new(Code::T1010))
    }
}

/// A limit argument, refused with `code` when negative (as `index` says which argument).
fn limit_arg(args: &[Val], idx: usize, code: Code) -> Result<Option<f64>> {
    match number_arg(args, idx) {
        Some(limit) if limit < 0.0 => Err(Error::new(code)
            .with_value(writ_core::js_number_to_string(limit))
            .with_index(idx + 1)),
        limit => Ok(limit),
    }
}

/// `$contains(str, token)`: whether the string or a match of the matcher occurs.
fn contains(cx: &mut Cx<'_>, args: &[Val]) -> Result<Val> {
    let Some(text) = text_arg(args, 0) else {
        return Ok(Val::Undefined);
    };
    let Some(token) = args.get(1).filter(|token| !token.is_undefined()) else {
        return Ok(Val::Undefined);
    };
    if let Val::String(needle) = token {
        return Ok(Val::Bool(index_of(cx, text, needle)?.is_some()));
    }
    if let Some(pattern) = regex_of(token) {
        let subject = pattern.subject(cx, text)?;
        return Ok(Val::Bool(pattern.is_match(&subject)));
    }
    let found = Matches::first(cx, token, text)?;
    Ok(Val::Bool(!found.done()))
}

/// `$split(str, separator, limit?)`: the pieces between the separators (a string, or the
/// matches of a matcher), at most `limit` of them.
fn split(cx: &mut Cx<'_>, args: &[Val]) -> Result<Val> {
    let Some(text) = text_arg(args, 0) else {
        return Ok(Val::Undefined);
    };
    let limit = limit_arg(args, 2, Code::D3020)?;
    if limit.is_some_and(|limit| limit <= 0.0) {
        return Ok(Val::array(Vec::new()));
    }
    let separator = args.get(1).cloned().unwrap_or_default();
    let spans = match &separator {
        Val::String(needle) => split_on_string(cx, text, needle, limit)?,
        Val::Function(_) => split_on_matches(cx, text, &separator, limit)?,
        _ => return Ok(Val::Undefined),
    };
    cx.charge_array(spans.len())?;
    charge_output(cx, spans.iter().map(|(start, end)| end - start).sum())?;
    let pieces = spans
        .into_iter()
        .map(|(start, end)| Val::String(text.slice(start, end)))
        .collect();
    Ok(Val::array(pieces))
}

/// `String.prototype.split` with a string separator and a limit (read as ToUint32 reads it):
/// the spans of the pieces.
fn split_on_string(cx: &mut Cx<'_>, text: &Str, needle: &Str, limit: Option<f64>) -> Result<Vec<(usize, usize)>> {
    let cap = limit.map_or(u32::MAX, to_uint32) as usize;
    let len = text.len_utf16();
    if cap == 0 {
        return Ok(Vec::new());
    }
    if needle.is_empty() {
        // One piece per code unit, surrogates apart.
        let count = len.min(cap);
        cx.steps(count as u64)?;
        return Ok((0..count).map(|idx| (idx, idx + 1)).collect());
    }
    let found = occurrences(cx, text, needle, Some(cap as f64))?;
    let mut spans = Vec::with_capacity(found.len() + 1);
    let mut start = 0;
    for at in found {
        spans.push((start, at));
        start = at + needle.len_utf16();
    }
    if spans.len() < cap {
        spans.push((start, len));
    }
    Ok(spans)
}

/// jsonata-js's split over a matcher's matches: the text before each match, then the rest
/// unless the limit was reached.
fn split_on_matches(cx: &mut Cx<'_>, text: &Str, matcher: &Val, limit: Option<f64>) -> Result<Vec<(usize, usize)>> {
    let len = text.len_utf16();
    let mut found = Matches::first(cx, matcher, text)?;
    if found.done() {
        return Ok(vec![(0, len)]);
    }
    let mut spans = Vec::new();
    let mut start = 0.0;
    while !found.done() && within(spans.len(), limit) {
        spans.push(substring_bounds(start, found.start()?, len));
        start = found.end()?;
        found.advance(cx)?;
    }
    if within(spans.len(), limit) {
        spans.push(substring_bounds(start, len as f64, len));
    }
    Ok(spans)
}

/// `$match(str, matcher, limit?)`: a sequence of `{match, index, groups}`, one per match.
fn match_(cx: &mut Cx<'_>, args: &[Val]) -> Result<Val> {
    let Some(text) = text_arg(args, 0) else {
        return Ok(Val::Undefined);
    };
    let limit = limit_arg(args, 2, Code::D3040)?;
    let mut results = Vec::new();
    if limit.is_none_or(|limit| limit > 0.0) {
        let matcher = args.get(1).cloned().unwrap_or_default();
        let mut found = Matches::first(cx, &matcher, text)?;
        let shape = Shape::new(&[Str::from("match"), Str::from("index"), Str::from("groups")]);
        while !found.done() && within(results.len(), limit) {
            results.push(match_object(cx, &found, shape.as_ref())?);
            found.advance(cx)?;
        }
    }
    cx.charge_array(results.len())?;
    Ok(Val::sequence(results))
}

/// One item of `$match`'s result (`shape` holds its three keys, shared by every item).
fn match_object(cx: &mut Cx<'_>, found: &Matches<'_>, shape: Option<&Shape>) -> Result<Val> {
    let matched = found.matched(cx)?;
    let groups = found.groups(cx)?;
    if let Matches::Regex { .. } = found {
        // Built as data directly, so that a group that took no part stays undefined.
        let groups = groups
            .as_array()
            .map(|items| {
                items.iter().map(|item| match item {
                    Val::String(text) => Value::String(text),
                    _ => Value::Undefined,
                })
            })
            .map(|items| Value::Array(items.collect()))
            .unwrap_or(Value::Undefined);
        let values = [matched.to_value(), Value::Number(found.start()?), groups];
        return Ok(Val::Object(match shape {
            Some(shape) => shape.build(values.into_iter()),
            None => Object::from_entries(
                ["match", "index", "groups"]
                    .into_iter()
                    .map(Str::from)
                    .zip(values)
                    .collect(),
            ),
        }));
    }
    let index = match &found {
        Matches::Custom { current } => field(current, "start"),
        Matches::Regex { .. } => Val::Undefined,
    };
    let entries: Vec<(Str, Val)> = [("match", matched), ("index", index), ("groups", groups)]
        .into_iter()
        .filter(|(_, value)| !value.is_undefined())
        .map(|(key, value)| (Str::from(key), value))
        .collect();
    cx.make_object(entries)
}

/// `$replace(str, pattern, replacement, limit?)`.
fn replace(cx: &mut Cx<'_>, args: &[Val]) -> Result<Val> {
    let Some(text) = text_arg(args, 0) else {
        return Ok(Val::Undefined);
    };
    let pattern = args.get(1).cloned().unwrap_or_default();
    if matches!(&pattern, Val::String(needle) if needle.is_empty()) {
        return Err(Error::new(Code::D3010).with_value("\"\"").with_index(2));
    }
    let limit = limit_arg(args, 3, Code::D3011)?;
    if limit.is_some_and(|limit| limit <= 0.0) {
        return Ok(Val::String(text.clone()));
    }
    let replacement = args.get(2).cloned().unwrap_or_default();
    let pieces = match &pattern {
        Val::String(needle) => {
            // With a string pattern the replacement is used as it is, `$` and all; a
            // replacement function has no text to stand in for (jsonata-js would paste the
            // function's source code), so it is refused as a non-string replacement.
            let Val::String(substitute) = &replacement else {
                return Err(Error::new(Code::D3012).with_value(crate::eval::describe(&replacement)));
            };
            let mut pieces = Vec::new();
            let mut position = 0;
            for at in occurrences(cx, text, needle, limit)? {
                pieces.push(Piece::Span(position, at));
                pieces.push(Piece::Text(substitute.clone()));
                position = at + needle.len_utf16();
            }
            pieces.push(Piece::Span(position, text.len_utf16()));
            pieces
        }
        Val::Function(_) => match replace_matches(cx, text, &pattern, &replacement, limit)? {
            Some(pieces) => pieces,
            None => return Ok(Val::String(text.clone())),
        },
        _ => return Ok(Val::Undefined),
    };
    Ok(Val::String(assemble(cx, text, &pieces)?))
}

/// The pieces of `$replace`'s result over a matcher's matches; `None` when nothing matched.
fn replace_matches(
    cx: &mut Cx<'_>,
    text: &Str,
    matcher: &Val,
    replacement: &Val,
    limit: Option<f64>,
) -> Result<Option<Vec<Piece>>> {
    let len = text.len_utf16();
    let mut found = Matches::first(cx, matcher, text)?;
    if found.done() {
        return Ok(None);
    }
    let template = match replacement {
        Val::String(template) => Some(template.to_utf16()),
        _ => None,
    };
    let mut pieces = Vec::new();
    let mut position = 0.0;
    let mut count = 0;
    while !found.done() && within(count, limit) {
        let start = found.start()?;
        let (from, to) = substring_bounds(position, start, len);
        pieces.push(Piece::Span(from, to));
        let matched = found.matched(cx)?;
        let substitute = match &template {
            Some(template) => {
                let groups = found.groups(cx)?;
                let groups = groups.as_array().map(|items| items.to_vec()).unwrap_or_default();
                let matched = js_text(cx, &matched)?;
                expand_template(cx, template, &matched, &groups)?
            }
            None => {
                let record = found.record(cx)?;
                match cx.apply(replacement, &[record])? {
                    Val::String(substitute) => substitute,
                    other => return Err(Error::new(Code::D3012).with_value(crate::eval::describe(&other))),
                }
            }
        };
        pieces.push(Piece::Text(substitute));
        let Val::String(matched) = matched else {
            return Err(Error::new(Code::T1010));
        };
        position = start + matched.len_utf16() as f64;
        count += 1;
        found.advance(cx)?;
    }
    let (from, to) = substring_bounds(position, len as f64, len);
    pieces.push(Piece::Span(from, to));
    Ok(Some(pieces))
}

/// A replacement string with `$0` (the match), `$1`… (groups, as many digits as the group
/// count has, fewer when that names no group) and `$$` (a `$`) filled in, exactly as
/// jsonata-js reads it: a `$` before anything else stays, and a group that took no part is
/// empty.
fn expand_template(cx: &mut Cx<'_>, template: &[u16], matched: &Str, groups: &[Val]) -> Result<Str> {
    cx.steps(template.len() as u64)?;
    const DOLLAR: u16 = 0x24;
    let slice = |from: usize, to: usize| template.get(from.min(to)..to.min(template.len())).unwrap_or_default();
    let find_dollar = |from: usize| {
        template
            .iter()
            .skip(from)
            .position(|&unit| unit == DOLLAR)
            .map(|at| at + from)
    };
    let max_digits = if groups.is_empty() {
        1
    } else {
        ((groups.len() as f64).ln() * std::f64::consts::LOG10_E).floor() as usize + 1
    };
    let mut out: Vec<u16> = Vec::with_capacity(template.len());
    let mut position = 0;
    let mut index = find_dollar(position);
    while let Some(at) = index {
        if position >= template.len() {
            break;
        }
        out.extend_from_slice(slice(position, at));
        position = at + 1;
        match template.get(position) {
            Some(&DOLLAR) => {
                out.push(DOLLAR);
                position += 1;
            }
            Some(&0x30) => {
                out.extend(matched.code_units());
                position += 1;
            }
            _ => {
                let mut number = parse_int(slice(position, position + max_digits));
                if max_digits > 1 && number.is_some_and(|n| n > groups.len() as f64) {
                    number = parse_int(slice(position, position + max_digits - 1));
                }
                match number {
                    Some(n) => {
                        if !groups.is_empty() && n >= 1.0 {
                            match groups.get(n as usize - 1) {
                                Some(Val::Undefined) | None => {}
                                Some(group) => out.extend(js_text(cx, group)?.code_units()),
                            }
                        }
                        position += writ_core::js_number_to_string(n).len();
                    }
                    None => out.push(DOLLAR),
                }
            }
        }
        index = find_dollar(position);
    }
    out.extend_from_slice(slice(position, template.len()));
    charge_output(cx, out.len())?;
    Ok(Str::from_utf16(&out))
}

/// JavaScript's `parseInt(text, 10)`; `None` for NaN (no digit).
fn parse_int(text: &[u16]) -> Option<f64> {
    Some(js::parse_int(text.iter().copied(), 10)).filter(|n| !n.is_nan())
}

// ---------------------------------------------------------------------------------------------
// Base64 and URL encoding.

/// The base64 alphabet.
const BASE64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// `$base64encode(str)`: as Node's `Buffer.from(str, 'binary').toString('base64')`, which
/// keeps the low byte of each code unit.
fn base64encode(cx: &mut Cx<'_>, args: &[Val]) -> Result<Val> {
    let Some(text) = text_arg(args, 0) else {
        return Ok(Val::Undefined);
    };
    let bytes: Vec<u8> = text.code_units().map(|unit| unit as u8).collect();
    charge_output(cx, bytes.len().div_ceil(3) * 4)?;
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk.first().copied().unwrap_or(0),
            chunk.get(1).copied().unwrap_or(0),
            chunk.get(2).copied().unwrap_or(0),
        ];
        let sextets = [
            b[0] >> 2,
            ((b[0] & 0x03) << 4) | (b[1] >> 4),
            ((b[1] & 0x0F) << 2) | (b[2] >> 6),
            b[2] & 0x3F,
        ];
        for (idx, &sextet) in sextets.iter().enumerate() {
            if idx <= chunk.len() {
                out.push(char::from(BASE64[usize::from(sextet)]));
            } else {
                out.push('=');
            }
        }
    }
    Ok(Val::String(Str::from(out)))
}

/// `$base64decode(str)`: as Node's `Buffer.from(str, 'base64').toString('binary')`, which
/// reads the low byte of each code unit, takes both the standard and the URL-safe alphabet,
/// skips anything else, and stops at the first `=`; each byte becomes one code unit.
fn base64decode(cx: &mut Cx<'_>, args: &[Val]) -> Result<Val> {
    let Some(text) = text_arg(args, 0) else {
        return Ok(Val::Undefined);
    };
    cx.steps(text.len_utf16() as u64)?;
    let mut out: Vec<u16> = Vec::with_capacity(text.len_utf16() * 3 / 4);
    let mut bits: u32 = 0;
    let mut held = 0;
    for unit in text.code_units() {
        let sextet = match unit as u8 {
            byte @ b'A'..=b'Z' => byte - b'A',
            byte @ b'a'..=b'z' => byte - b'a' + 26,
            byte @ b'0'..=b'9' => byte - b'0' + 52,
            b'+' | b'-' => 62,
            b'/' | b'_' => 63,
            b'=' => break,
            _ => continue,
        };
        bits = (bits << 6) | u32::from(sextet);
        held += 6;
        if held >= 8 {
            held -= 8;
            out.push(((bits >> held) & 0xFF) as u16);
        }
    }
    charge_output(cx, out.len())?;
    Ok(Val::String(Str::from_utf16(&out)))
}

/// The characters `encodeURIComponent` leaves as they are.
fn component_safe(unit: u16) -> bool {
    u8::try_from(unit).is_ok_and(|byte| byte.is_ascii_alphanumeric() || b"-_.!~*'()".contains(&byte))
}

/// The characters `encodeURI` leaves as they are.
fn uri_safe(unit: u16) -> bool {
    component_safe(unit) || u8::try_from(unit).is_ok_and(|byte| b";/?:@&=+$,#".contains(&byte))
}

/// `$encodeUrlComponent(str)`.
fn encode_url_component(cx: &mut Cx<'_>, args: &[Val]) -> Result<Val> {
    percent_encode(cx, args, "encodeUrlComponent", component_safe)
}

/// `$encodeUrl(str)`.
fn encode_url(cx: &mut Cx<'_>, args: &[Val]) -> Result<Val> {
    percent_encode(cx, args, "encodeUrl", uri_safe)
}

/// `$decodeUrlComponent(str)`.
fn decode_url_component(cx: &mut Cx<'_>, args: &[Val]) -> Result<Val> {
    percent_decode(cx, args, "decodeUrlComponent", b"")
}

/// `$decodeUrl(str)`: escapes of the characters `encodeUrl` keeps stay escaped.
fn decode_url(cx: &mut Cx<'_>, args: &[Val]) -> Result<Val> {
    percent_decode(cx, args, "decodeUrl", b";/?:@&=+$,#")
}

/// D3140, naming the function and the text as jsonata-js's message does.
fn malformed_url(name: &str, text: &Str) -> Error {
    let mut json = String::new();
    writ_core::write_json_string(text, &mut json);
    Error::new(Code::D3140)
        .with_token(name)
        .with_detail(format!("Malformed URL passed to ${name}(): {json}"))
        .with_value(json)
}

/// JavaScript's `encodeURI`/`encodeURIComponent`: each character not `safe` as the `%XX`
/// escapes of its UTF-8 bytes; a lone surrogate is malformed (D3140).
fn percent_encode(cx: &mut Cx<'_>, args: &[Val], name: &str, safe: fn(u16) -> bool) -> Result<Val> {
    let Some(text) = text_arg(args, 0) else {
        return Ok(Val::Undefined);
    };
    cx.steps(text.len_utf16() as u64)?;
    let mut len = 0;
    for decoded in char::decode_utf16(text.code_units()) {
        len += match decoded {
            Ok(ch) if ch.len_utf16() == 1 && safe(ch as u16) => 1,
            Ok(ch) => 3 * ch.len_utf8(),
            Err(_) => return Err(malformed_url(name, text)),
        };
    }
    charge_output(cx, len)?;
    let mut out = String::with_capacity(len);
    for ch in char::decode_utf16(text.code_units()).flatten() {
        if ch.len_utf16() == 1 && safe(ch as u16) {
            out.push(ch);
        } else {
            let mut bytes = [0; 4];
            for byte in ch.encode_utf8(&mut bytes).bytes() {
                out.push_str(&format!("%{byte:02X}"));
            }
        }
    }
    Ok(Val::String(Str::from(out)))
}

/// JavaScript's `decodeURI`/`decodeURIComponent`: `%XX` escapes of UTF-8 bytes back to
/// characters, except escapes of the ASCII characters in `keep`, which stay as written; a
/// broken escape or invalid UTF-8 is malformed (D3140).
fn percent_decode(cx: &mut Cx<'_>, args: &[Val], name: &str, keep: &[u8]) -> Result<Val> {
    let Some(text) = text_arg(args, 0) else {
        return Ok(Val::Undefined);
    };
    cx.steps(text.len_utf16() as u64)?;
    let units = text.to_utf16();
    let hex_byte = |at: usize| -> Option<u8> {
        let digit = |idx: usize| char::from_u32(u32::from(*units.get(idx)?))?.to_digit(16);
        Some((digit(at)? * 16 + digit(at + 1)?) as u8)
    };
    let mut out: Vec<u16> = Vec::with_capacity(units.len());
    let mut k = 0;
    while let Some(&unit) = units.get(k) {
        if unit != u16::from(b'%') {
            out.push(unit);
            k += 1;
            continue;
        }
        let Some(first) = hex_byte(k + 1) else {
            return Err(malformed_url(name, text));
        };
        let escape_start = k;
        k += 2;
        if first < 0x80 {
            if keep.contains(&first) {
                out.extend_from_slice(units.get(escape_start..=k).unwrap_or_default());
            } else {
                out.push(u16::from(first));
            }
            k += 1;
            continue;
        }
        let count = first.leading_ones() as usize;
        if count == 1 || count > 4 {
            return Err(malformed_url(name, text));
        }
        let mut bytes = vec![first];
        for _ in 1..count {
            k += 1;
            if units.get(k) != Some(&u16::from(b'%')) {
                return Err(malformed_url(name, text));
            }
            let Some(byte) = hex_byte(k + 1) else {
                return Err(malformed_url(name, text));
            };
            bytes.push(byte);
            k += 2;
        }
        let Ok(decoded) = std::str::from_utf8(&bytes) else {
            return Err(malformed_url(name, text));
        };
        out.extend(decoded.encode_utf16());
        k += 1;
    }
    charge_output(cx, out.len())?;
    Ok(Val::String(Str::from_utf16(&out)))
}

#[cfg(test)]
mod tests {
    use writ_core::{Str, Value};

    use super::*;
    use crate::{Expression, JsonataLimits, Options};

    /// Evaluates `source` with `bindings` under `limits`.
    fn run(source: &str, bindings: Vec<(&str, Value)>, limits: JsonataLimits) -> Result<Value> {
        let options = Options {
            limits,
            bindings: bindings
                .into_iter()
                .map(|(name, value)| (Str::from(name), value))
                .collect(),
            ..Options::default()
        };
        Expression::compile(source)?.evaluate(&Value::Undefined, &options)
    }

    /// The result of `source` as JSON text, `undefined`, or `ERR` and the error code.
    fn eval(source: &str) -> String {
        match run(source, Vec::new(), JsonataLimits::default()) {
            Ok(Value::Undefined) => "undefined".to_owned(),
            Ok(value) => value.to_json_string().unwrap_or_default(),
            Err(error) => format!("ERR {}", error.details().code.as_str()),
        }
    }

    /// Checks each `(expression, jsonata-js's answer)`.
    fn check(cases: &[(&str, &str)]) {
        let failures: Vec<String> = cases
            .iter()
            .filter_map(|(source, want)| {
                let got = eval(source);
                (got != *want).then(|| format!("{source}\n   got {got}\n  want {want}"))
            })
            .collect();
        assert!(failures.is_empty(), "{}", failures.join("\n"));
    }

    /// A string of `units` code units.
    fn wide(units: &[u16]) -> Value {
        Value::String(Str::from_utf16(units))
    }

    #[test]
    fn answers_as_jsonata_js_does() {
        // Each answer was produced by jsonata-js 2.2.2.
        check(&[
            (r"$string(0.1 + 0.2)", r#""0.3""#),
            (r"$string(1234567890123.125)", r#""1234567890123.13""#),
            (r"$string(-1234567890123.125)", r#""-1234567890123.13""#),
            (r"$string(1e21)", r#""1e+21""#),
            (r"$string(-0)", r#""0""#),
            (r"$string(5890840712243076)", r#""5890840712243076""#),
            (r"$string(1/3 * 1e-10)", r#""3.33333333333333e-11""#),
            (
                r#"$string({"b": 1, "1": 2, "f": $sum, "u": undefined})"#,
                r#""{\"1\":2,\"b\":1,\"f\":\"\"}""#,
            ),
            (
                r#"$string([1, undefined, $sum, {"a": [], "b": {}}], true)"#,
                r#""[\n  1,\n  \"\",\n  {\n    \"a\": [],\n    \"b\": {}\n  }\n]""#,
            ),
            (
                r#"$string({"a": {"b": [1, {"c": null}]}}, true)"#,
                r#""{\n  \"a\": {\n    \"b\": [\n      1,\n      {\n        \"c\": null\n      }\n    ]\n  }\n}""#,
            ),
            (r#"$string("a\"b\\c\u0001")"#, r#""a\"b\\c\u0001""#),
            (
                r#""x" & 1.5 & true & null & [1.10, "s"] & {"k": 2/3}"#,
                r#""x1.5truenull[1.1,\"s\"]{\"k\":0.666666666666667}""#,
            ),
            (r#"$length("a\uD800b")"#, r"3"),
            (r#"$length("😀😀")"#, r"2"),
            (r#"$substring("a😀b😀c", 1, 3)"#, r#""😀b😀""#),
            (r#"$substring("a😀b😀c", -2)"#, r#""😀c""#),
            (r#"$substring("hello", 1.9, 2.1)"#, r#""ell""#),
            (r#"$substring("hello", -100)"#, r#""hello""#),
            (r#"$substring("hello", 2, 1e300)"#, r#""llo""#),
            (r#"$substringBefore("a😀b", "b")"#, r#""a😀""#),
            (r#"$substringAfter("a😀b", "😀")"#, r#""b""#),
            (r#"$substringBefore("abc", "")"#, r#""""#),
            (r#"$substringAfter("abc", "")"#, r#""abc""#),
            (r#"$substringBefore("abcundefinedxyz", nothing)"#, r#""abc""#),
            (r#"$uppercase("straße ﬁ ŉ")"#, r#""STRASSE FI ʼN""#),
            (r#"$lowercase("ΣΑΣ Σ aΣ. İ")"#, r#""σας σ aς. i̇""#),
            (r#"$lowercase("ÀÉÎ")"#, r#""àéî""#),
            (r#"$trim("\r\n\t  a\t\tb  ")"#, r#""a b""#),
            (r#"$trim("")"#, r#""""#),
            (r#"$trim("   ")"#, r#""""#),
            (r#"$pad("ab", 5, "xyz")"#, r#""abxyz""#),
            (r#"$pad("ab", -6, "😀x")"#, r#""😀x😀xab""#),
            (r#"$pad("ab", 6, "xyz")"#, r#""abxyzx""#),
            (r#"$pad("ab", -5, "😀x")"#, r#""😀x😀ab""#),
            (r#"$pad("ab", 7, "é😀")"#, r#""abé😀é😀é""#),
            (r#"$pad("abc", 2)"#, r#""abc""#),
            (r#"$pad("ab", 4.9)"#, r#""ab  ""#),
            (r#"$pad("", -3, "0")"#, r#""000""#),
            (r#"$contains("a😀b", "😀")"#, r"true"),
            (r#"$contains("abc", "")"#, r"true"),
            (r#"$contains("abc", /B/i)"#, r"true"),
            (r#"$contains("abc", /^b/)"#, r"false"),
            (r#"$split("a😀b😀c", "😀")"#, r#"["a","b","c"]"#),
            (r#"$split("a,b,,c,", ",")"#, r#"["a","b","","c",""]"#),
            (r#"$split("abc", "", 2)"#, r#"["a","b"]"#),
            (r#"$split("", "")"#, r"[]"),
            (r#"$split("", ",")"#, r#"[""]"#),
            (r#"$split("a1b22c333", /\d+/)"#, r#"["a","b","c",""]"#),
            (r#"$split("a1b22c333", /\d+/, 2)"#, r#"["a","b"]"#),
            (r#"$split("abc", /x/)"#, r#"["abc"]"#),
            (r#"$split("a b", / /, 0)"#, r"[]"),
            (r#"$split("a😀b", /./)"#, r#"["","","","",""]"#),
            (r#"$join(["a", "😀", "b"], "-")"#, r#""a-😀-b""#),
            (r#"$join([], "-")"#, r#""""#),
            (r#"$join(["x"])"#, r#""x""#),
            (
                r#"$match("ab12cd345", /\d+/)"#,
                r#"[{"match":"12","index":2,"groups":[]},{"match":"345","index":6,"groups":[]}]"#,
            ),
            (
                r#"$match("ab12cd345", /(\d)(\d)?/)"#,
                r#"[{"match":"12","index":2,"groups":["1","2"]},{"match":"34","index":6,"groups":["3","4"]},{"match":"5","index":8,"groups":["5",null]}]"#,
            ),
            (
                r#"$match("ab12cd345", /\d/, 2)"#,
                r#"[{"match":"1","index":2,"groups":[]},{"match":"2","index":3,"groups":[]}]"#,
            ),
            (
                r#"$match("ab12cd345", /\d/, 2.5)"#,
                r#"[{"match":"1","index":2,"groups":[]},{"match":"2","index":3,"groups":[]},{"match":"3","index":6,"groups":[]}]"#,
            ),
            (
                r#"$match("a😀b😀", /😀/)"#,
                r#"[{"match":"😀","index":1,"groups":[]},{"match":"😀","index":4,"groups":[]}]"#,
            ),
            (r#"$match("xyz", /a/)"#, r"undefined"),
            (r#"$match("", /x*/)"#, r#"{"match":"","index":0,"groups":[]}"#),
            (r#"$match("aaa", /a*/)"#, r#"{"match":"aaa","index":0,"groups":[]}"#),
            (
                r#"$match("Hello World", /(?<first>\w+) (?<second>\w+)/)"#,
                r#"{"match":"Hello World","index":0,"groups":["Hello","World"]}"#,
            ),
            (r#"$replace("a.b.c", ".", "$0")"#, r#""a$0b$0c""#),
            (r#"$replace("aaa", "a", "b", 2)"#, r#""bba""#),
            (r#"$replace("abc", /b/, "[$&]")"#, r#""a[$&]c""#),
            (r#"$replace("abc", /(b)/, "$1$1$$$")"#, r#""abb$$c""#),
            (r#"$replace("abc", /(b)/, "$2")"#, r#""ac""#),
            (r#"$replace("abc", /b/, "$1")"#, r#""ac""#),
            (
                r#"$replace("a-b-c", /-/, function($m) { "+" & $m.start & "+" })"#,
                r#""a+1+b+3+c""#,
            ),
            (r#"$replace("a-b-c", /-/, function($m) { $m.groups })"#, r"ERR D3012"),
            (r#"$replace("x😀y", /😀/, "🙂")"#, r#""x🙂y""#),
            (r#"$replace("aaaa", /a/, "b", 2.5)"#, r#""bbba""#),
            (
                r#"$replace("abcdefghijklm", /(a)(b)(c)(d)(e)(f)(g)(h)(i)(j)(k)/, "$ 1|$11|$12|$1a")"#,
                r#""a1|k|a2|aalm""#,
            ),
            (r#"$replace("abc", /c$/, "X")"#, r#""abX""#),
            (r#"$replace("line1\nline2", /^l/m, "L")"#, r#""Line1\nLine2""#),
            (
                r#"$replace("line1\r\nline2\rline3", /^l/m, "L")"#,
                r#""Line1\r\nLine2\rLine3""#,
            ),
            (r#"/a/("banana")"#, r#"{"match":"a","start":1,"end":2,"groups":[]}"#),
            (
                r#"/(a)(n)?/("banana")"#,
                r#"{"match":"an","start":1,"end":3,"groups":["a","n"]}"#,
            ),
            (r#"$base64encode("hello world")"#, r#""aGVsbG8gd29ybGQ=""#),
            (r#"$base64encode("")"#, r#""""#),
            (r#"$base64encode("\u0141\u0100")"#, r#""QQA=""#),
            (r#"$base64decode("aGVsbG8gd29ybGQ=")"#, r#""hello world""#),
            (r#"$base64decode("YWJjZŁ==")"#, r#""abcd""#),
            (r#"$base64decode("YQ==YWJj")"#, r#""a""#),
            (
                r#"$encodeUrlComponent("a b&c=d/é😀")"#,
                r#""a%20b%26c%3Dd%2F%C3%A9%F0%9F%98%80""#,
            ),
            (
                r#"$encodeUrl("http://x.y/a b?q=1&r=é#h")"#,
                r#""http://x.y/a%20b?q=1&r=%C3%A9#h""#,
            ),
            (r#"$decodeUrlComponent("%F0%9F%98%80%20%3B")"#, r#""😀 ;""#),
            (r#"$decodeUrl("%F0%9F%98%80%20%3B%23%25")"#, r#""😀 %3B%23%""#),
            (r#"$decodeUrlComponent("%C0%80")"#, r"ERR D3140"),
            (r#"$decodeUrlComponent("%ED%A0%80")"#, r"ERR D3140"),
            (r#"$decodeUrlComponent("%")"#, r"ERR D3140"),
            (r#"$decodeUrl("%zz")"#, r"ERR D3140"),
            (r#"$encodeUrl("\uDC00")"#, r"ERR D3140"),
            (
                r#"$match("aXbxc", /x/i)"#,
                r#"[{"match":"X","index":1,"groups":[]},{"match":"x","index":3,"groups":[]}]"#,
            ),
            (r#"$replace("ſSs", /s/i, "-")"#, r#""ſ--""#),
            (r#"$split("one  two\tthree", /\s+/)"#, r#"["one","two","three"]"#),
            (r#"$contains("\u00a0", /\s/)"#, r"true"),
            (r#"$match("é", /\w/)"#, r"undefined"),
            (r#"$match("a\nb", /a.b/)"#, r"undefined"),
            (
                r#"$match("a\nb", /a[^]b/)"#,
                r#"{"match":"a\nb","index":0,"groups":[]}"#,
            ),
            (r#"$replace("Tab\tEnd", /\t/, "\\t")"#, r#""Tab\\tEnd""#),
        ]);
    }

    #[test]
    fn custom_matchers_and_match_objects() {
        check(&[
            (r"$split('some text', $uppercase)", r"ERR T1010"),
            (r#"$contains("abc", function($s){ null })"#, r"true"),
            (r#"$contains("abc", function($s){ undefined })"#, r"false"),
            (
                r#"$match("abc", function($s){ {"match": "b", "start": 1, "end": 2, "groups": [], "next": function(){ undefined }} })"#,
                r#"{"match":"b","index":1,"groups":[]}"#,
            ),
            (
                r#"$replace("abc", function($s){ {"match": "b", "start": 1, "end": 2, "groups": ["B"], "next": function(){()}} }, "[$1]")"#,
                r#""a[B]c""#,
            ),
            (
                r#"$split("abc", function($s){ {"match": "b", "start": 1, "end": 2, "groups": [], "next": function(){()}} })"#,
                r#"["a","c"]"#,
            ),
            (r#"$match("abracadabra", /a(.)/).groups"#, r#"["b","c","d","b"]"#),
            (r#"($r := /a./; [$r("abracadabra").match, $r("xyz")])"#, r#"["ab"]"#),
            (
                r#"$map(["a1", "b", "c22"], function($s) { $match($s, /\d+/).match })"#,
                r#"["1","22"]"#,
            ),
            (r"$string(/a/)", r#""""#),
            (r#"$replace("a", /a/, "$")"#, r#""$""#),
            (r#"$replace("a", /a/, "$$")"#, r#""$""#),
            (r#"$replace("a", /(a)/, "$01")"#, r#""a1""#),
            (r#"$replace("abc", /(b)/, "$-1")"#, r#""a$-1c""#),
            (
                r#"$replace("2024-05", /(\d+)-(\d+)/, function($m) { $m.groups[1] & "/" & $m.groups[0] })"#,
                r#""05/2024""#,
            ),
        ]);
        // jsonata-js pastes a replacement function's source text when the pattern is a string;
        // writ refuses it as a replacement that is not a string.
        assert_eq!(eval(r#"$replace("abc", "b", function($m){ "x" })"#), "ERR D3012");
    }

    #[test]
    fn a_regex_match_walks_on_with_next() {
        check(&[
            (r#"/a/("banana")"#, r#"{"match":"a","start":1,"end":2,"groups":[]}"#),
            (
                r#"/a/("banana").next()"#,
                r#"{"match":"a","start":3,"end":4,"groups":[]}"#,
            ),
            (
                r#"/a/("banana").next().next()"#,
                r#"{"match":"a","start":5,"end":6,"groups":[]}"#,
            ),
            (r#"/a/("banana").next().next().next()"#, r"undefined"),
            (r#"/a*/("baa").next()"#, r"ERR D1004"),
        ]);
    }

    #[test]
    fn lone_surrogates_stay_code_units() {
        let lone = wide(&[0x61, 0xD800, 0x62]);
        let limits = JsonataLimits::default();
        let length = run("$length($s)", vec![("s", lone.clone())], limits).expect("runs");
        assert_eq!(length.as_number(), Some(3.0));
        let upper = run("$uppercase($s)", vec![("s", lone.clone())], limits).expect("runs");
        assert_eq!(upper, wide(&[0x41, 0xD800, 0x42]));
        let pieces = run("$substring($s, 1, 1)", vec![("s", lone.clone())], limits).expect("runs");
        assert_eq!(pieces, wide(&[0xD800]));
        let matched = run("$match($s, /[^ab]/).match", vec![("s", lone)], limits).expect("runs");
        assert_eq!(matched, wide(&[0xD800]));
        // An astral character is two units to a regex, as in JavaScript without the u flag.
        let halves = run("$split($s, /./)", vec![("s", Value::String(Str::from("😀")))], limits).expect("runs");
        assert_eq!(halves.to_json_string().as_deref(), Some(r#"["","",""]"#));
    }

    #[test]
    fn url_errors_name_the_function_and_the_text() {
        let error = run("$decodeUrl('%E0%A4%A')", Vec::new(), JsonataLimits::default()).expect_err("malformed");
        assert_eq!(error.details().code.as_str(), "D3140");
        assert_eq!(
            error.details().detail.as_deref(),
            Some(r#"Malformed URL passed to $decodeUrl(): "%E0%A4%A""#)
        );
        assert_eq!(error.details().token.as_deref(), Some("decodeUrl"));
        let error = run(
            "$encodeUrlComponent($s)",
            vec![("s", wide(&[0xD800]))],
            JsonataLimits::default(),
        )
        .expect_err("lone surrogate");
        assert_eq!(
            (
                error.details().code.as_str(),
                error.details().token.as_deref(),
                error.details().value.as_deref()
            ),
            ("D3140", Some("encodeUrlComponent"), Some(r#""\ud800""#))
        );
    }

    #[test]
    fn argument_errors_carry_jsonata_fields() {
        let error = run(r#"$replace("hello", "", "bye")"#, Vec::new(), JsonataLimits::default()).expect_err("empty");
        assert_eq!(
            (error.details().code.as_str(), error.details().index),
            ("D3010", Some(2))
        );
        let error = run(
            r#"$replace("hello", "l", "1", -2)"#,
            Vec::new(),
            JsonataLimits::default(),
        )
        .expect_err("negative");
        assert_eq!(
            (
                error.details().code.as_str(),
                error.details().index,
                error.details().value.as_deref()
            ),
            ("D3011", Some(4), Some("-2"))
        );
        assert_eq!(eval(r#"$split("a", ",", -1)"#), "ERR D3020");
        assert_eq!(eval(r#"$match("a", /a/, -1)"#), "ERR D3040");
        let error = run(r#"$match("aab", /a*/)"#, Vec::new(), JsonataLimits::default()).expect_err("empty match");
        assert_eq!(
            (error.details().code.as_str(), error.details().value.as_deref()),
            ("D1004", Some(r#""a*""#))
        );
        assert_eq!(eval("$string(1/0)"), "ERR D3001");
    }

    #[test]
    fn huge_results_are_refused_before_they_are_built() {
        let limits = JsonataLimits {
            steps: Some(100_000),
            ..JsonataLimits::default()
        };
        let error = run(r#"$pad("x", 1e15)"#, Vec::new(), limits).expect_err("too wide");
        assert_eq!(error.details().code.as_str(), "U1006");
        let error = run(r#"$pad("x", -1e300, "ab")"#, Vec::new(), limits).expect_err("too wide");
        assert_eq!(error.details().code.as_str(), "U1006");
        let text = Value::String(Str::from("a".repeat(1_000).as_str()));
        let long = Value::String(Str::from("b".repeat(1_000).as_str()));
        let error = run(
            r#"$replace($s, "a", $t)"#,
            vec![("s", text.clone()), ("t", long.clone())],
            limits,
        )
        .expect_err("grows to a million");
        assert_eq!(error.details().code.as_str(), "U1006");
        let error = run(
            r#"$replace($s, /a/, $t)"#,
            vec![("s", text.clone()), ("t", long)],
            limits,
        )
        .expect_err("grows to a million");
        assert_eq!(error.details().code.as_str(), "U1006");
        let error = run(r#"$join([1..200].$s, ",")"#, vec![("s", text)], limits).expect_err("long join");
        assert_eq!(error.details().code.as_str(), "U1006");
        let nested = "[".repeat(400) + &"]".repeat(400);
        let error = run(
            &format!("$string({nested}, true)"),
            Vec::new(),
            JsonataLimits {
                steps: Some(50_000),
                ..limits
            },
        )
        .expect_err("indentation grows with the square of the depth");
        assert_eq!(error.details().code.as_str(), "U1006");
    }

    #[test]
    fn fifteen_digits_keeps_numbers_of_fifteen_digits_or_fewer() {
        let mut x: u64 = 0x2545_F491_4F6C_DD1D;
        for i in 0..20_000u32 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            // Random doubles, and decimals of a few digits as data holds them.
            let n = if i % 2 == 0 {
                f64::from_bits(x)
            } else {
                (x % 100_000_000) as f64 / 10f64.powi((x >> 40) as i32 % 12) - 1_000.0
            };
            if !n.is_finite() || n.fract() == 0.0 {
                continue;
            }
            assert_eq!(
                fifteen_digits(n).to_bits(),
                fifteen_digits_by_rounding(n).to_bits(),
                "{n}"
            );
        }
    }

    #[test]
    fn fifteen_digits_round_half_up_like_to_precision() {
        assert_eq!(fifteen_digits(0.1 + 0.2), 0.3);
        assert_eq!(fifteen_digits(1234567890123.125), 1234567890123.13);
        assert_eq!(fifteen_digits(-1234567890123.125), -1234567890123.13);
        assert_eq!(fifteen_digits(22.0 / 7.0), 3.14285714285714);
        assert_eq!(number_text(1e-7), "1e-7");
        assert_eq!(number_text(-0.0), "0");
    }

    #[test]
    fn helpers_read_numbers_as_javascript_does() {
        let units = |text: &str| text.encode_utf16().collect::<Vec<u16>>();
        assert_eq!(parse_int(&units(" 12x")), Some(12.0));
        assert_eq!(parse_int(&units("-0")), Some(-0.0));
        assert_eq!(parse_int(&units("\u{a0}+7")), Some(7.0));
        assert_eq!(parse_int(&units("x1")), None);
        assert_eq!(parse_int(&units("-")), None);
        assert_eq!(to_uint32(4_294_967_296.0), 0);
        assert_eq!(to_uint32(2.7), 2);
        assert_eq!(to_uint32(-1.0), u32::MAX);
        assert_eq!(substring_bounds(5.0, 1.0, 3), (1, 3));
        assert_eq!(relative(-2.5, 5), 3);
        assert_eq!(code_point_starts(&[0x61, 0xD83D, 0xDE00, 0xDC00]), [0, 1, 3, 4]);
    }

    #[test]
    fn finder_searches_ascii_and_wide_text() {
        let text = Str::from("aaab😀aab");
        let finder = Finder::new(&Str::from("aab"));
        let haystack = Haystack::new(&text);
        assert_eq!(finder.find(&haystack, 0), Some(1));
        assert_eq!(finder.find(&haystack, 2), Some(6));
        assert_eq!(finder.find(&haystack, 7), None);
        let ascii = Str::from("abcabd");
        assert_eq!(Finder::new(&Str::from("abd")).find(&Haystack::new(&ascii), 0), Some(3));
        assert_eq!(Finder::new(&Str::from("é")).find(&Haystack::new(&ascii), 0), None);
        assert_eq!(Finder::new(&Str::empty()).find(&Haystack::new(&ascii), 6), Some(6));
    }
}
