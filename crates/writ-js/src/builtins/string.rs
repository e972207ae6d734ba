//! String methods and the `String` statics, over UTF-16 code units as JavaScript sees them
//! (lone surrogates included).
//!
//! Arguments convert as JavaScript converts them (`ToIntegerOrInfinity` for positions and
//! counts, `ToString` for text and patterns). The language has no regular expressions and no
//! function values, so a pattern or a replacement is always text after conversion.
//!
//! Charges follow uicast's method accounting: a search is charged its worst case (the text's
//! length times the pattern's) before it runs, and every string or array a method builds is
//! charged once, before it is built, at its exact final length; a method that returns its
//! receiver unchanged builds nothing and charges nothing for it.

use icu::casemap::CaseMapper;
use icu::locale::LanguageIdentifier;
use icu::normalizer::{ComposingNormalizerBorrowed, DecomposingNormalizerBorrowed};
use icu::properties::props::{CaseIgnorable, Cased, GeneralCategory, GeneralCategoryGroup};
use icu::properties::{CodePointMapData, CodePointSetData};
use writ_core::{Array, Str, Value};

use crate::coerce;
use crate::error::{Error, Result};
use crate::interp::{Args, Cx};
use crate::tables::{StringFn, StringMethod};

/// V8's longest string (2^29 - 24 code units): beyond it JavaScript throws
/// `RangeError: Invalid string length`. Only reached when the caps are set higher.
const MAX_JS_STRING_LENGTH: usize = (1 << 29) - 24;

/// The longest run of combining marks `normalize()` and `localeCompare()` accept.
const MAX_MARK_RUN: usize = 30;

/// 2^53 - 1, where `ToLength` clamps.
const MAX_SAFE_INTEGER: f64 = 9_007_199_254_740_991.0;

/// The replacement character a lone surrogate becomes in `toWellFormed`.
const REPLACEMENT: u16 = 0xFFFD;

/// The code points Unicode 18.0 assigns (ICU4X 2.4's data) that Unicode 17.0, node 20's data,
/// leaves unassigned, as inclusive ranges in order. JavaScript's answer is the answer of node
/// 20, which treats them as unassigned: case mapping and normalization pass them through
/// unchanged (an unassigned code point is uncased, no mark, and a starter that nothing
/// composes with, so cutting the text there changes nothing else), and they are no marks.
/// Found by comparing `\p{Cn}` in node with ICU4X's General_Category over every code point.
#[rustfmt::skip]
const NEWER_THAN_NODE: &[(u32, u32)] = &[
    (0x558, 0x558), (0x58B, 0x58C), (0x5C8, 0x5C9), (0xB53, 0xB54), (0x1ADE, 0x1ADF), (0x1AEC, 0x1AF0),
    (0x208F, 0x208F), (0x209D, 0x209F), (0x20C2, 0x20C4), (0x2E60, 0x2E63), (0xA7DD, 0xA7DD),
    (0xA7E2, 0xA7E2), (0xAB6C, 0xAB6D), (0x107BB, 0x107BF), (0x10EC9, 0x10ECF), (0x10ED9, 0x10EEE),
    (0x10EF0, 0x10EF9), (0x11B0A, 0x11B0A), (0x11DF0, 0x11DF1), (0x1246F, 0x1246F), (0x12475, 0x1247F),
    (0x12550, 0x12686), (0x18CD6, 0x18CDA), (0x18D1F, 0x18D20), (0x18E00, 0x19191), (0x191A0, 0x191D2),
    (0x1B123, 0x1B128), (0x1B168, 0x1B168), (0x1CED2, 0x1CED4), (0x1CEDD, 0x1CEDF), (0x1CEF1, 0x1CEFD),
    (0x1D127, 0x1D128), (0x1D1EB, 0x1D1FF), (0x1D250, 0x1D281), (0x1D6A6, 0x1D6A6), (0x1DB00, 0x1DB1C),
    (0x1DF1F, 0x1DF24), (0x1DF2B, 0x1DF81), (0x1DF90, 0x1DF96), (0x1DFCD, 0x1DFFF), (0x1F1AE, 0x1F1AE),
    (0x1F6D9, 0x1F6D9), (0x1F7DA, 0x1F7DB), (0x1F7F1, 0x1F7FF), (0x1FA8B, 0x1FA8D), (0x1FACC, 0x1FACC),
    (0x1FADD, 0x1FADD), (0x1FAEB, 0x1FAEB), (0x1FAF9, 0x1FAFA), (0x2B81E, 0x2B81E), (0x3D000, 0x3FC3F),
];

/// Runs `this.method(args)`.
pub(crate) fn call(cx: &mut Cx<'_>, this: &Str, method: StringMethod, args: &Args<'_, '_>) -> Result<Value> {
    use StringMethod as M;
    match method {
        M::At => at(cx, this, args.get(0)),
        M::CharAt => char_at(cx, this, args.get(0)),
        M::CharCodeAt => char_code_at(cx, this, args.get(0)),
        M::CodePointAt => code_point_at(cx, this, args.get(0)),
        M::StartsWith => starts_with(cx, this, args),
        M::EndsWith => ends_with(cx, this, args),
        M::Includes => index_of(cx, this, args).map(|found| Value::Bool(found.is_some())),
        M::IndexOf => index_of(cx, this, args).map(position),
        M::LastIndexOf => last_index_of(cx, this, args).map(position),
        M::Slice => slice(cx, this, args),
        M::Substring => substring(cx, this, args),
        M::Concat => concat(cx, this, args),
        M::Split => split(cx, this, args),
        M::Replace => replace(cx, this, args, false),
        M::ReplaceAll => replace(cx, this, args, true),
        M::Repeat => repeat(cx, this, args.get(0)),
        M::PadStart => pad(cx, this, args, false),
        M::PadEnd => pad(cx, this, args, true),
        M::ToLowerCase => change_case(cx, this, false),
        M::ToUpperCase => change_case(cx, this, true),
        M::ToLocaleLowerCase => crate::locale::to_locale_case(cx, this, args.get(0), false).map(Value::String),
        M::ToLocaleUpperCase => crate::locale::to_locale_case(cx, this, args.get(0), true).map(Value::String),
        M::Trim => trim(cx, this, true, true),
        M::TrimStart => trim(cx, this, true, false),
        M::TrimEnd => trim(cx, this, false, true),
        M::Normalize => normalize(cx, this, args.get(0)),
        M::IsWellFormed => Ok(Value::Bool(this.is_well_formed())),
        M::ToWellFormed => to_well_formed(cx, this),
        M::LocaleCompare => {
            let other = coerce::to_string(cx, args.get(0))?;
            crate::locale::compare(cx, this, &other, args.get(1), args.get(2)).map(Value::Number)
        }
        // The receiver itself; `toLocaleString` ignores its arguments, as JavaScript does.
        M::ToString | M::ToLocaleString | M::ValueOf => Ok(Value::String(this.clone())),
    }
}

/// Runs `String.function(args)`.
pub(crate) fn call_static(cx: &mut Cx<'_>, function: StringFn, args: &Args<'_, '_>) -> Result<Value> {
    match function {
        StringFn::FromCharCode => from_char_code(cx, args.values),
        StringFn::FromCodePoint => from_code_point(cx, args.values),
    }
}

/// Refuses text with a run of more than 30 combining marks (General_Category Mark: Mn, Mc, Me),
/// which normalization and collation put in order in time that grows with the square of the
/// run. The caller charges reading the text.
pub(crate) fn check_mark_run(text: &Str) -> Result<()> {
    if text.is_ascii() {
        return Ok(());
    }
    let categories = CodePointMapData::<GeneralCategory>::new();
    let mut run = 0usize;
    for decoded in char::decode_utf16(text.code_units()) {
        // A lone surrogate is no mark, so it ends a run, as it does for `\p{M}` in JavaScript.
        let is_mark = decoded
            .is_ok_and(|c| GeneralCategoryGroup::Mark.contains(categories.get(c)) && !newer_than_node(u32::from(c)));
        run = if is_mark { run + 1 } else { 0 };
        if run > MAX_MARK_RUN {
            return Err(Error::budget(format!(
                "Text has more than {MAX_MARK_RUN} combining marks in a row: normalize() and localeCompare() refuse it, \
                 because their time grows with the square of such a run — remove the extra marks first"
            )));
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Conversions and charges shared by the methods.

/// `ToIntegerOrInfinity(value)`, charged by what the conversion reads.
fn integer(cx: &mut Cx<'_>, value: &Value) -> Result<f64> {
    Ok(coerce::integer_or_infinity(coerce::to_number(cx, value)?))
}

/// A position clamped into `0..=len` (integral or infinite `n`).
fn clamp(n: f64, len: usize) -> usize {
    if n <= 0.0 {
        0
    } else if n >= len as f64 {
        len
    } else {
        // In range and integral, so the cast is exact.
        n as usize
    }
}

/// A position counted from the end when negative (`slice`'s rule), clamped into `0..=len`.
fn relative(n: f64, len: usize) -> usize {
    if n < 0.0 {
        clamp(len as f64 + n, len)
    } else {
        clamp(n, len)
    }
}

/// An index as JavaScript's search methods answer it: the position, or -1.
fn position(found: Option<usize>) -> Value {
    Value::Number(found.map_or(-1.0, |at| at as f64))
}

/// Charges a string of `len` code units about to be built, and refuses what JavaScript itself
/// could not build (only reachable when the caps are set above V8's limit).
fn new_string(cx: &mut Cx<'_>, len: usize) -> Result<()> {
    if len > MAX_JS_STRING_LENGTH && cx.meter.check_string_length(len).is_ok() {
        return Err(Error::range_error(format!(
            "Invalid string length: {len} characters is more than JavaScript can hold in one string"
        )));
    }
    cx.string(len)
}

/// Charges the worst case of searching `text_len` code units for a pattern of `pattern_len`.
fn charge_search(cx: &mut Cx<'_>, text_len: usize, pattern_len: usize) -> Result<()> {
    cx.text(text_len.saturating_mul(pattern_len.max(1)))
}

/// Argument `index` as a search string: the language has no regular expressions, and writ does
/// not turn other values into patterns.
fn pattern(cx: &mut Cx<'_>, args: &Args<'_, '_>, index: usize) -> Result<Str> {
    // No regular expression can reach here, so every other value converts as JavaScript
    // converts it: `'a1'.indexOf(1)` searches for "1".
    coerce::to_string(cx, args.get(index))
}

/// The code units from `start` to `end` (clamped) as a new string, reading only those units.
fn sub(text: &Str, start: usize, end: usize) -> Str {
    if text.is_ascii() {
        return text.slice(start, end);
    }
    let units: Vec<u16> = (start..end).map_while(|at| text.code_unit(at)).collect();
    Str::from_utf16(&units)
}

// ---------------------------------------------------------------------------------------------
// Code units, as bytes for ASCII text or as UTF-16 otherwise, so that the common ASCII case
// neither widens nor copies.

/// A code unit of either storage form.
trait Unit: Copy + Eq {
    /// The unit as UTF-16.
    fn code(self) -> u16;
    /// The ASCII character `byte` as a unit.
    fn ascii(byte: u8) -> Self;
    /// A string of these units.
    fn finish(units: &[Self]) -> Str;
}

impl Unit for u8 {
    fn code(self) -> u16 {
        u16::from(self)
    }
    fn ascii(byte: u8) -> u8 {
        byte
    }
    fn finish(units: &[u8]) -> Str {
        // Only ever called with bytes cut from ASCII strings.
        Str::from_ascii(units).unwrap_or_default()
    }
}

impl Unit for u16 {
    fn code(self) -> u16 {
        self
    }
    fn ascii(byte: u8) -> u16 {
        u16::from(byte)
    }
    fn finish(units: &[u16]) -> Str {
        Str::from_utf16(units)
    }
}

/// The first position at or after `from` where `needle` occurs in `hay`.
fn find<T: Unit>(hay: &[T], needle: &[T], from: usize) -> Option<usize> {
    let last = hay.len().checked_sub(needle.len())?;
    if from > last {
        return None;
    }
    let Some((&first, _)) = needle.split_first() else {
        return Some(from);
    };
    (from..=last).find(|&at| hay.get(at) == Some(&first) && hay.get(at..at + needle.len()) == Some(needle))
}

/// The last position at or before `start` where `needle` occurs in `hay`.
fn rfind<T: Unit>(hay: &[T], needle: &[T], start: usize) -> Option<usize> {
    let last = hay.len().checked_sub(needle.len())?;
    (0..=start.min(last))
        .rev()
        .find(|&at| hay.get(at..at + needle.len()) == Some(needle))
}

/// The positions of `needle` in `hay`, non-overlapping, left to right: every one, or only the
/// first. An empty needle matches at every position, ends included (`replaceAll`'s rule).
struct Matches<'a, T> {
    /// The text searched.
    hay: &'a [T],
    /// What is searched for.
    needle: &'a [T],
    /// Where the next search starts; `None` once done.
    next: Option<usize>,
    /// Every match, or only the first.
    all: bool,
}

impl<'a, T: Unit> Matches<'a, T> {
    fn new(hay: &'a [T], needle: &'a [T], all: bool) -> Self {
        Matches {
            hay,
            needle,
            next: Some(0),
            all,
        }
    }
}

impl<T: Unit> Iterator for Matches<'_, T> {
    type Item = usize;

    fn next(&mut self) -> Option<usize> {
        let from = self.next.take()?;
        let at = find(self.hay, self.needle, from)?;
        if self.all {
            self.next = at.checked_add(self.needle.len().max(1));
        }
        Some(at)
    }
}

/// Whether `needle` occurs in `text` at `start`, reading only the needle's length of text.
fn region_eq(text: &Str, start: usize, needle: &Str) -> bool {
    let len = needle.len_utf16();
    match start.checked_add(len) {
        Some(end) if end <= text.len_utf16() => {}
        _ => return false,
    }
    if let (Some(hay), Some(needle)) = (text.ascii_bytes(), needle.ascii_bytes()) {
        return hay.get(start..start + len) == Some(needle);
    }
    needle
        .code_units()
        .enumerate()
        .all(|(offset, unit)| text.code_unit(start + offset) == Some(unit))
}

// ---------------------------------------------------------------------------------------------
// Reading one code unit.

/// `at(index)`: negative counts from the end; `undefined` outside the string.
fn at(cx: &mut Cx<'_>, text: &Str, index: &Value) -> Result<Value> {
    let n = integer(cx, index)?;
    let len = text.len_utf16();
    let k = if n < 0.0 { len as f64 + n } else { n };
    if k < 0.0 || k >= len as f64 {
        return Ok(Value::Undefined);
    }
    unit_string(cx, text, k as usize)
}

/// `charAt(index)`: `""` outside the string.
fn char_at(cx: &mut Cx<'_>, text: &Str, index: &Value) -> Result<Value> {
    let n = integer(cx, index)?;
    if n < 0.0 || n >= text.len_utf16() as f64 {
        new_string(cx, 0)?;
        return Ok(Value::String(Str::empty()));
    }
    unit_string(cx, text, n as usize)
}

/// The one code unit at `at` as a string.
fn unit_string(cx: &mut Cx<'_>, text: &Str, at: usize) -> Result<Value> {
    match text.code_unit(at) {
        Some(unit) => {
            new_string(cx, 1)?;
            Ok(Value::String(Str::from_utf16(&[unit])))
        }
        None => Ok(Value::Undefined),
    }
}

/// `charCodeAt(index)`: the code unit, or NaN outside the string.
fn char_code_at(cx: &mut Cx<'_>, text: &Str, index: &Value) -> Result<Value> {
    let n = integer(cx, index)?;
    if n < 0.0 || n >= text.len_utf16() as f64 {
        return Ok(Value::Number(f64::NAN));
    }
    Ok(text
        .code_unit(n as usize)
        .map_or(Value::Number(f64::NAN), |unit| Value::Number(f64::from(unit))))
}

/// `codePointAt(index)`: the code point starting there (a lone surrogate is its own code
/// point), or `undefined` outside the string.
fn code_point_at(cx: &mut Cx<'_>, text: &Str, index: &Value) -> Result<Value> {
    let n = integer(cx, index)?;
    if n < 0.0 || n >= text.len_utf16() as f64 {
        return Ok(Value::Undefined);
    }
    let at = n as usize;
    let Some(first) = text.code_unit(at) else {
        return Ok(Value::Undefined);
    };
    if (0xD800..0xDC00).contains(&first)
        && let Some(second) = text.code_unit(at + 1)
        && (0xDC00..0xE000).contains(&second)
    {
        let point = 0x10000 + ((u32::from(first) - 0xD800) << 10) + (u32::from(second) - 0xDC00);
        return Ok(Value::Number(f64::from(point)));
    }
    Ok(Value::Number(f64::from(first)))
}

// ---------------------------------------------------------------------------------------------
// Searching.

/// `startsWith(text, position?)`.
fn starts_with(cx: &mut Cx<'_>, text: &Str, args: &Args<'_, '_>) -> Result<Value> {
    let prefix = pattern(cx, args, 0)?;
    cx.text(prefix.len_utf16())?;
    let start = clamp(integer(cx, args.get(1))?, text.len_utf16());
    Ok(Value::Bool(region_eq(text, start, &prefix)))
}

/// `endsWith(text, length?)`: whether the text's first `length` units end with `text`.
fn ends_with(cx: &mut Cx<'_>, text: &Str, args: &Args<'_, '_>) -> Result<Value> {
    let suffix = pattern(cx, args, 0)?;
    cx.text(suffix.len_utf16())?;
    let len = text.len_utf16();
    let end = match args.get(1) {
        Value::Undefined => len,
        value => clamp(integer(cx, value)?, len),
    };
    Ok(Value::Bool(
        end.checked_sub(suffix.len_utf16())
            .is_some_and(|start| region_eq(text, start, &suffix)),
    ))
}

/// `includes` and `indexOf`: the first position at or after `position` (clamped).
fn index_of(cx: &mut Cx<'_>, text: &Str, args: &Args<'_, '_>) -> Result<Option<usize>> {
    let needle = pattern(cx, args, 0)?;
    charge_search(cx, text.len_utf16(), needle.len_utf16())?;
    let from = clamp(integer(cx, args.get(1))?, text.len_utf16());
    Ok(match (text.ascii_bytes(), needle.ascii_bytes()) {
        (Some(hay), Some(needle)) => find(hay, needle, from),
        // A needle with a non-ASCII unit never occurs in ASCII text (and is never empty).
        (Some(_), None) => None,
        _ => find(&text.to_utf16(), &needle.to_utf16(), from),
    })
}

/// `lastIndexOf(text, position?)`: the last position at or before `position`; a NaN or missing
/// position means the end.
fn last_index_of(cx: &mut Cx<'_>, text: &Str, args: &Args<'_, '_>) -> Result<Option<usize>> {
    let needle = pattern(cx, args, 0)?;
    charge_search(cx, text.len_utf16(), needle.len_utf16())?;
    let n = coerce::to_number(cx, args.get(1))?;
    let start = if n.is_nan() {
        text.len_utf16()
    } else {
        clamp(coerce::integer_or_infinity(n), text.len_utf16())
    };
    Ok(match (text.ascii_bytes(), needle.ascii_bytes()) {
        (Some(hay), Some(needle)) => rfind(hay, needle, start),
        (Some(_), None) => None,
        _ => rfind(&text.to_utf16(), &needle.to_utf16(), start),
    })
}

// ---------------------------------------------------------------------------------------------
// Cutting and joining.

/// `slice(start?, end?)`: negative positions count from the end.
fn slice(cx: &mut Cx<'_>, text: &Str, args: &Args<'_, '_>) -> Result<Value> {
    let len = text.len_utf16();
    let from = relative(integer(cx, args.get(0))?, len);
    let to = match args.get(1) {
        Value::Undefined => len,
        value => relative(integer(cx, value)?, len),
    };
    let to = to.max(from);
    new_string(cx, to - from)?;
    Ok(Value::String(sub(text, from, to)))
}

/// `substring(start, end?)`: negative positions are 0, and the two swap when reversed.
fn substring(cx: &mut Cx<'_>, text: &Str, args: &Args<'_, '_>) -> Result<Value> {
    let len = text.len_utf16();
    let start = clamp(integer(cx, args.get(0))?, len);
    let end = match args.get(1) {
        Value::Undefined => len,
        value => clamp(integer(cx, value)?, len),
    };
    let (from, to) = (start.min(end), start.max(end));
    new_string(cx, to - from)?;
    Ok(Value::String(sub(text, from, to)))
}

/// `concat(...values)`: each argument converted to text, appended.
fn concat(cx: &mut Cx<'_>, text: &Str, args: &Args<'_, '_>) -> Result<Value> {
    let mut parts = Vec::with_capacity(args.len() + 1);
    parts.push(text.clone());
    let mut total = text.len_utf16();
    for value in args.values {
        let part = coerce::to_string(cx, value)?;
        total = total.saturating_add(part.len_utf16());
        parts.push(part);
    }
    new_string(cx, total)?;
    Ok(Value::String(coerce::concat_all(&parts, &Str::empty(), total)))
}

/// `split(separator?, limit?)` with a string separator: at most `limit` parts; an empty
/// separator gives the code units; no separator gives the whole string.
fn split(cx: &mut Cx<'_>, text: &Str, args: &Args<'_, '_>) -> Result<Value> {
    let separator = match args.get(0) {
        Value::Undefined => None,
        _ => Some(pattern(cx, args, 0)?),
    };
    let limit = match args.get(1) {
        Value::Undefined => u32::MAX,
        value => coerce::to_uint32(coerce::to_number(cx, value)?),
    };
    let limit = usize::try_from(limit).unwrap_or(usize::MAX);
    let Some(separator) = separator else {
        let parts = if limit == 0 {
            Vec::new()
        } else {
            vec![Value::String(text.clone())]
        };
        cx.array(parts.len())?;
        return Ok(Value::Array(Array::from(parts)));
    };
    if limit == 0 {
        cx.array(0)?;
        return Ok(Value::Array(Array::new()));
    }
    charge_search(cx, text.len_utf16(), separator.len_utf16())?;
    let parts = match (text.ascii_bytes(), separator.ascii_bytes()) {
        (Some(hay), Some(separator)) => split_units(cx, hay, separator, limit)?,
        _ => split_units(cx, &text.to_utf16(), &separator.to_utf16(), limit)?,
    };
    Ok(Value::Array(Array::from(parts)))
}

/// Splits `hay` at each `separator` into at most `limit` (at least 1) parts, charging the
/// array before building it.
fn split_units<T: Unit>(cx: &mut Cx<'_>, hay: &[T], separator: &[T], limit: usize) -> Result<Vec<Value>> {
    if separator.is_empty() {
        let count = hay.len().min(limit);
        cx.array(count)?;
        return Ok(hay
            .iter()
            .take(count)
            .map(|&unit| Value::String(T::finish(&[unit])))
            .collect());
    }
    if hay.is_empty() {
        cx.array(1)?;
        return Ok(vec![Value::String(Str::empty())]);
    }
    // Reaching the limit ends the list at a separator, without the rest of the text.
    let cuts = Matches::new(hay, separator, true).take(limit).count();
    let count = if cuts == limit { limit } else { cuts + 1 };
    cx.array(count)?;
    let mut parts = Vec::with_capacity(count);
    let mut start = 0;
    for at in Matches::new(hay, separator, true).take(cuts) {
        parts.push(Value::String(T::finish(hay.get(start..at).unwrap_or_default())));
        start = at + separator.len();
    }
    if cuts < limit {
        parts.push(Value::String(T::finish(hay.get(start..).unwrap_or_default())));
    }
    Ok(parts)
}

// ---------------------------------------------------------------------------------------------
// Replacing.

/// One piece of a replacement string: literal text, or a `$` pattern.
#[derive(Clone, Copy)]
enum Piece {
    /// Units `start..end` of the replacement.
    Literal(usize, usize),
    /// `$$`: one `$`.
    Dollar,
    /// `$&`: the matched text.
    Matched,
    /// `` $` ``: the text before the match.
    Before,
    /// `$'`: the text after the match.
    After,
}

/// Reads the `$` patterns of a replacement. With a string pattern there are no capture groups,
/// so `$1` and `$<name>` stay literal text, as in JavaScript.
fn parse_replacement<T: Unit>(replacement: &[T]) -> Vec<Piece> {
    let mut pieces = Vec::new();
    let mut literal = 0;
    let mut at = 0;
    while at < replacement.len() {
        let special = match (
            replacement.get(at).map(|u| u.code()),
            replacement.get(at + 1).map(|u| u.code()),
        ) {
            (Some(0x24), Some(0x24)) => Some(Piece::Dollar),
            (Some(0x24), Some(0x26)) => Some(Piece::Matched),
            (Some(0x24), Some(0x60)) => Some(Piece::Before),
            (Some(0x24), Some(0x27)) => Some(Piece::After),
            _ => None,
        };
        match special {
            Some(piece) => {
                if literal < at {
                    pieces.push(Piece::Literal(literal, at));
                }
                pieces.push(piece);
                at += 2;
                literal = at;
            }
            None => at += 1,
        }
    }
    if literal < replacement.len() {
        pieces.push(Piece::Literal(literal, replacement.len()));
    }
    pieces
}

/// `replace(pattern, replacement)` and `replaceAll`, string pattern and string replacement.
fn replace(cx: &mut Cx<'_>, text: &Str, args: &Args<'_, '_>, all: bool) -> Result<Value> {
    let needle = pattern(cx, args, 0)?;
    let replacement = &coerce::to_string(cx, args.get(1))?;
    charge_search(cx, text.len_utf16(), needle.len_utf16())?;
    cx.text(replacement.len_utf16())?;
    let built = match (text.ascii_bytes(), needle.ascii_bytes(), replacement.ascii_bytes()) {
        (Some(hay), Some(needle), Some(replacement)) => replace_units(cx, hay, needle, replacement, all)?,
        _ => replace_units(cx, &text.to_utf16(), &needle.to_utf16(), &replacement.to_utf16(), all)?,
    };
    Ok(Value::String(built.unwrap_or_else(|| text.clone())))
}

/// Replaces the first or every match of `needle` in `hay`: `None` when there is none. The
/// result's exact length is computed first (each `$` pattern expanded at its match) and charged
/// before anything is built.
fn replace_units<T: Unit>(
    cx: &mut Cx<'_>,
    hay: &[T],
    needle: &[T],
    replacement: &[T],
    all: bool,
) -> Result<Option<Str>> {
    let pieces = parse_replacement(replacement);
    let (mut literal, mut matched, mut before, mut after) = (0u128, 0u128, 0u128, 0u128);
    for piece in &pieces {
        match *piece {
            Piece::Literal(start, end) => literal += (end - start) as u128,
            Piece::Dollar => literal += 1,
            Piece::Matched => matched += 1,
            Piece::Before => before += 1,
            Piece::After => after += 1,
        }
    }
    let (len, needle_len) = (hay.len() as u128, needle.len() as u128);
    let mut count = 0u128;
    let mut total = len;
    for at in Matches::new(hay, needle, all) {
        let at = at as u128;
        count += 1;
        // Each match removes the needle and adds the replacement with its `$` patterns filled in.
        let added = literal
            .saturating_add(matched.saturating_mul(needle_len))
            .saturating_add(before.saturating_mul(at))
            .saturating_add(after.saturating_mul(len.saturating_sub(at + needle_len)));
        total = total.saturating_sub(needle_len).saturating_add(added);
    }
    if count == 0 {
        return Ok(None);
    }
    new_string(cx, usize::try_from(total).unwrap_or(usize::MAX))?;
    let mut out: Vec<T> = Vec::with_capacity(usize::try_from(total).unwrap_or(0));
    let mut last = 0;
    for at in Matches::new(hay, needle, all) {
        out.extend_from_slice(hay.get(last..at).unwrap_or_default());
        let end = at + needle.len();
        for piece in &pieces {
            let part = match *piece {
                Piece::Literal(start, stop) => replacement.get(start..stop),
                Piece::Dollar => {
                    out.push(T::ascii(b'$'));
                    continue;
                }
                Piece::Matched => hay.get(at..end),
                Piece::Before => hay.get(..at),
                Piece::After => hay.get(end..),
            };
            out.extend_from_slice(part.unwrap_or_default());
        }
        last = end;
    }
    out.extend_from_slice(hay.get(last..).unwrap_or_default());
    Ok(Some(T::finish(&out)))
}

// ---------------------------------------------------------------------------------------------
// Growing.

/// `repeat(count)`: a RangeError for a negative or infinite count; the result is charged
/// before it is built, so an enormous count fails on the cap without allocating.
fn repeat(cx: &mut Cx<'_>, text: &Str, count: &Value) -> Result<Value> {
    let n = coerce::to_number(cx, count)?;
    let whole = coerce::integer_or_infinity(n);
    if whole < 0.0 || whole == f64::INFINITY {
        return Err(Error::range_error(format!(
            "Invalid count value: {}: \"repeat\" takes a whole number from 0 up",
            coerce::number_to_str(n)
        )));
    }
    let len = text.len_utf16();
    // The float product saturates on the cast, so a huge count charges a huge length.
    let total = if len == 0 { 0 } else { (len as f64 * whole) as usize };
    new_string(cx, total)?;
    if total == 0 {
        return Ok(Value::String(Str::empty()));
    }
    let times = total / len;
    let built = match text.ascii_bytes() {
        Some(bytes) => Str::from_ascii(&bytes.repeat(times)).unwrap_or_default(),
        None => Str::from_utf16(&text.to_utf16().repeat(times)),
    };
    Ok(Value::String(built))
}

/// `padStart` and `padEnd(length, filler?)`: the filler (a space when missing) repeated and
/// cut to fill up to `length`. The receiver comes back unchanged when it is long enough or
/// the filler is empty, and the filler is only converted when there is something to fill.
fn pad(cx: &mut Cx<'_>, text: &Str, args: &Args<'_, '_>, at_end: bool) -> Result<Value> {
    // ToLength: an integer clamped into 0..=2^53-1.
    let target = integer(cx, args.get(0))?.clamp(0.0, MAX_SAFE_INTEGER);
    let len = text.len_utf16();
    if target <= len as f64 {
        return Ok(Value::String(text.clone()));
    }
    let filler = match args.get(1) {
        Value::Undefined => Str::from(" "),
        value => coerce::to_string(cx, value)?,
    };
    if filler.is_empty() {
        return Ok(Value::String(text.clone()));
    }
    let target = target as usize;
    new_string(cx, target)?;
    let fill = target - len;
    let built = match (text.ascii_bytes(), filler.ascii_bytes()) {
        (Some(text), Some(filler)) => Str::from_ascii(&padded(text, filler, fill, at_end)).unwrap_or_default(),
        _ => Str::from_utf16(&padded(&text.to_utf16(), &filler.to_utf16(), fill, at_end)),
    };
    Ok(Value::String(built))
}

/// `text` with `fill` units of `filler`, repeated, before or after it.
fn padded<T: Unit>(text: &[T], filler: &[T], fill: usize, at_end: bool) -> Vec<T> {
    let mut out = Vec::with_capacity(text.len() + fill);
    if at_end {
        out.extend_from_slice(text);
    }
    out.extend(filler.iter().copied().cycle().take(fill));
    if !at_end {
        out.extend_from_slice(text);
    }
    out
}

// ---------------------------------------------------------------------------------------------
// Rewriting: case, white space, normal forms, lone surrogates.

/// Where rewritten text goes: counted first, to charge the result, then collected.
trait Sink {
    /// One code unit.
    fn unit(&mut self, unit: u16);

    /// One character, as one or two code units.
    fn char(&mut self, c: char) {
        let mut buffer = [0u16; 2];
        for &unit in c.encode_utf16(&mut buffer).iter() {
            self.unit(unit);
        }
    }
}

/// Collects the code units a rewrite produces.
struct Collect(Vec<u16>);

impl Sink for Collect {
    fn unit(&mut self, unit: u16) {
        self.0.push(unit);
    }
}

/// A stretch of UTF-16: text for a Unicode algorithm, or one code point it must leave alone.
enum Stretch<'a> {
    /// Well-formed code units to rewrite.
    Text(&'a [u16]),
    /// One code point to copy unchanged: a lone surrogate, or one [`Stretches::keep`] names.
    Keep(&'a [u16]),
}

/// Cuts UTF-16 into stretches to rewrite and code points to keep. Unicode algorithms (case
/// mapping, normalization) run on the stretches; a lone surrogate or a code point node 20 does
/// not assign passes through unchanged, and since neither is cased, case-ignorable or
/// combining, cutting there changes nothing else, as JavaScript's answers confirm
/// (`"ΑΣ\uD800".toLowerCase()` is `"ας\uD800"`).
struct Stretches<'a> {
    /// The text.
    units: &'a [u16],
    /// Where the next stretch starts.
    at: usize,
    /// The code points (besides lone surrogates) to keep as they are.
    keep: fn(u32) -> bool,
}

impl<'a> Stretches<'a> {
    fn new(units: &'a [u16], keep: fn(u32) -> bool) -> Self {
        Stretches { units, at: 0, keep }
    }

    /// The width of the code point at `at`, and whether it is kept as it is.
    fn point(&self, at: usize) -> (usize, bool) {
        match code_point(self.units, at) {
            Some(Ok((point, width))) => (width, (self.keep)(point)),
            Some(Err(_)) => (1, true),
            None => (1, false),
        }
    }
}

impl<'a> Iterator for Stretches<'a> {
    type Item = Stretch<'a>;

    fn next(&mut self) -> Option<Stretch<'a>> {
        let start = self.at;
        if start >= self.units.len() {
            return None;
        }
        let (width, keep) = self.point(start);
        if keep {
            self.at = start + width;
            return Some(Stretch::Keep(self.units.get(start..self.at).unwrap_or_default()));
        }
        let mut end = start;
        while end < self.units.len() {
            let (width, keep) = self.point(end);
            if keep {
                break;
            }
            end += width;
        }
        self.at = end;
        Some(Stretch::Text(self.units.get(start..end).unwrap_or_default()))
    }
}

/// The code point starting at `at` and its width in units, `Err(unit)` for a lone surrogate,
/// `None` past the end.
fn code_point(units: &[u16], at: usize) -> Option<std::result::Result<(u32, usize), u16>> {
    let first = *units.get(at)?;
    Some(match (first, units.get(at + 1)) {
        (0xD800..=0xDBFF, Some(&second @ 0xDC00..=0xDFFF)) => Ok((
            0x10000 + ((u32::from(first) - 0xD800) << 10) + (u32::from(second) - 0xDC00),
            2,
        )),
        (0xD800..=0xDFFF, _) => Err(first),
        _ => Ok((u32::from(first), 1)),
    })
}

/// Whether node 20's Unicode data leaves `point` unassigned where ICU4X's assigns it.
pub(crate) fn newer_than_node(point: u32) -> bool {
    // Everything below the first addition is settled; most text never reaches the search.
    point >= 0x558
        && NEWER_THAN_NODE
            .binary_search_by(|&(first, last)| {
                if last < point {
                    std::cmp::Ordering::Less
                } else if first > point {
                    std::cmp::Ordering::Greater
                } else {
                    std::cmp::Ordering::Equal
                }
            })
            .is_ok()
}

/// Whether the unit at `at` (not the trail of a pair already passed) is a lone surrogate.
fn is_lone(units: &[u16], at: usize) -> bool {
    match units.get(at) {
        Some(0xD800..=0xDBFF) => !matches!(units.get(at + 1), Some(0xDC00..=0xDFFF)),
        Some(0xDC00..=0xDFFF) => true,
        _ => false,
    }
}

/// The characters of well-formed UTF-16.
fn chars(units: &[u16]) -> impl Iterator<Item = char> + '_ {
    char::decode_utf16(units.iter().copied()).map(|c| c.unwrap_or(char::REPLACEMENT_CHARACTER))
}

/// `toLowerCase()` and `toUpperCase()`: Unicode's full, context-sensitive default case mapping
/// (`ß` → `SS`, final sigma, `İ` → `i̇`), lone surrogates unchanged.
fn change_case(cx: &mut Cx<'_>, text: &Str, upper: bool) -> Result<Value> {
    let len = text.len_utf16();
    cx.text(len)?;
    if let Some(bytes) = text.ascii_bytes() {
        new_string(cx, len)?;
        let mapped = if upper {
            bytes.to_ascii_uppercase()
        } else {
            bytes.to_ascii_lowercase()
        };
        return Ok(Value::String(Str::from_ascii(&mapped).unwrap_or_default()));
    }
    let units = text.to_utf16();
    // One pass, charged when done: a case mapping at most triples the length of a string
    // already within the caps, and the growing text is held to the string cap as it goes.
    let mut out = Collect(Vec::with_capacity(units.len()));
    if upper {
        uppercase_into(cx, &units, &mut out)?;
    } else {
        lowercase_into(cx, &units, &mut out)?;
    }
    new_string(cx, out.0.len())?;
    Ok(Value::String(Str::from_utf16(&out.0)))
}

/// Code units mapped between two reads of the clock: a long text's case mapping or
/// normalization stops at its deadline instead of running to the end.
const UNITS_PER_CLOCK_CHECK: usize = 8192;

/// Whether normalization may start a new piece at `unit`: a starter that never combines with
/// what precedes it (everything below U+0300, the basic letters of Greek, Cyrillic, Hebrew,
/// Arabic and Devanagari, kana, Hangul syllables, CJK ideographs), so normalizing the text
/// piece by piece gives what normalizing it whole gives.
fn starts_a_normalization_piece(unit: u16) -> bool {
    matches!(
        unit,
        0x0000..=0x02FF
            | 0x0391..=0x03C9
            | 0x0410..=0x044F
            | 0x05D0..=0x05EA
            | 0x0621..=0x064A
            | 0x0905..=0x0939
            | 0x3041..=0x3096
            | 0x30A1..=0x30FA
            | 0x4E00..=0x9FFF
            | 0xAC00..=0xD7A3
    )
}

/// Full uppercase mapping in the root locale, which has no context: the text maps a piece at a
/// time, with the clock read between pieces.
fn uppercase_into(cx: &mut Cx<'_>, units: &[u16], out: &mut Collect) -> Result<()> {
    let mapper = CaseMapper::new();
    let root = LanguageIdentifier::UNKNOWN;
    let mut buffer = String::new();
    let mut start = 0;
    while start < units.len() {
        let mut end = (start + UNITS_PER_CLOCK_CHECK).min(units.len());
        // Never between the halves of a surrogate pair.
        if end < units.len() && (0xDC00..0xE000).contains(&units[end]) && (0xD800..0xDC00).contains(&units[end - 1]) {
            end += 1;
        }
        for stretch in Stretches::new(&units[start..end], keep_in_upper_case) {
            match stretch {
                Stretch::Text(part) => {
                    buffer.clear();
                    buffer.extend(chars(part));
                    mapper
                        .uppercase_to_string(&buffer, &root)
                        .chars()
                        .for_each(|c| out.char(c));
                }
                Stretch::Keep(kept) => kept.iter().for_each(|&unit| out.unit(unit)),
            }
        }
        cx.check_clock()?;
        cx.meter.check_string_length(out.0.len())?;
        start = end;
    }
    Ok(())
}

/// Full lowercase mapping in the root locale. Its only multi-character mapping is İ → i̇ and
/// its only context is the final sigma, so every other code point takes its simple mapping,
/// one at a time, with the clock read every [`UNITS_PER_CLOCK_CHECK`] code points.
fn lowercase_into(cx: &mut Cx<'_>, units: &[u16], out: &mut Collect) -> Result<()> {
    let mapper = CaseMapper::new();
    let mut at = 0;
    let mut since_check = 0;
    while let Some(point) = code_point(units, at) {
        match point {
            Ok((point, width)) => {
                match char::from_u32(point) {
                    _ if newer_than_node(point) => units[at..at + width].iter().for_each(|&unit| out.unit(unit)),
                    _ if point == 0x130 => {
                        out.unit(0x69);
                        out.unit(0x307);
                    }
                    _ if point == 0x3A3 => out.unit(if is_final_sigma(units, at, width) { 0x3C2 } else { 0x3C3 }),
                    Some(c) => out.char(mapper.simple_lowercase(c)),
                    None => units[at..at + width].iter().for_each(|&unit| out.unit(unit)),
                }
                at += width;
            }
            Err(unit) => {
                out.unit(unit);
                at += 1;
            }
        }
        since_check += 1;
        if since_check == UNITS_PER_CLOCK_CHECK {
            since_check = 0;
            cx.check_clock()?;
            cx.meter.check_string_length(out.0.len())?;
        }
    }
    Ok(())
}

/// Whether the Σ at `at` ends a word (Unicode's Final_Sigma condition): a cased letter comes
/// before it, and none after it, skipping case-ignorable characters both ways. Code points node
/// does not assign, and lone surrogates, are neither.
fn is_final_sigma(units: &[u16], at: usize, width: usize) -> bool {
    let cased = CodePointSetData::new::<Cased>();
    let ignorable = CodePointSetData::new::<CaseIgnorable>();
    let is = |set: &icu::properties::CodePointSetDataBorrowed<'static>, point: u32| {
        !newer_than_node(point) && set.contains32(point)
    };
    let mut before = at;
    let cased_before = loop {
        let Some(&last) = before.checked_sub(1).and_then(|i| units.get(i)) else {
            break false;
        };
        let (point, width) = match (last, before.checked_sub(2).and_then(|i| units.get(i))) {
            (0xDC00..=0xDFFF, Some(&high @ 0xD800..=0xDBFF)) => (
                0x10000 + ((u32::from(high) - 0xD800) << 10) + (u32::from(last) - 0xDC00),
                2,
            ),
            (0xD800..=0xDFFF, _) => break false,
            _ => (u32::from(last), 1),
        };
        if is(&ignorable, point) {
            before -= width;
            continue;
        }
        break is(&cased, point);
    };
    if !cased_before {
        return false;
    }
    let mut after = at + width;
    loop {
        match code_point(units, after) {
            Some(Ok((point, width))) if is(&ignorable, point) => after += width,
            Some(Ok((point, _))) => return !is(&cased, point),
            Some(Err(_)) | None => return true,
        }
    }
}

/// Whether `toUpperCase` leaves `point` as it is, as node 20 does: a code point node does not
/// assign, or one of the four lowercase letters whose capital only Unicode 18.0 adds
/// (ɷ U+0277, ɼ U+027C, ꭋ U+AB4B, ꭌ U+AB4C). Uppercasing has no context in the root locale, so
/// keeping a letter as it is changes nothing around it.
pub(crate) fn keep_in_upper_case(point: u32) -> bool {
    matches!(point, 0x277 | 0x27C | 0xAB4B | 0xAB4C) || newer_than_node(point)
}

/// `trim()`, `trimStart()`, `trimEnd()`: JavaScript's white space and line terminators.
fn trim(cx: &mut Cx<'_>, text: &Str, start: bool, end: bool) -> Result<Value> {
    let len = text.len_utf16();
    cx.text(len)?;
    let is_space = |at: usize| text.code_unit(at).is_some_and(writ_core::js::is_space);
    let mut from = 0;
    if start {
        while from < len && is_space(from) {
            from += 1;
        }
    }
    let mut to = len;
    if end {
        while to > from && is_space(to - 1) {
            to -= 1;
        }
    }
    if from == 0 && to == len {
        return Ok(Value::String(text.clone()));
    }
    new_string(cx, to - from)?;
    Ok(Value::String(sub(text, from, to)))
}

/// The four normalization forms.
#[derive(Clone, Copy)]
enum Form {
    /// Canonical composition.
    Nfc,
    /// Canonical decomposition.
    Nfd,
    /// Compatibility composition.
    Nfkc,
    /// Compatibility decomposition.
    Nfkd,
}

/// `normalize(form?)`: NFC unless another form is named; a RangeError for any other name.
/// Text with a long run of combining marks is refused first ([`check_mark_run`]).
fn normalize(cx: &mut Cx<'_>, text: &Str, form: &Value) -> Result<Value> {
    cx.text(text.len_utf16())?;
    check_mark_run(text)?;
    let form = match form {
        Value::Undefined => Form::Nfc,
        value => {
            let name = coerce::to_string(cx, value)?;
            match name.as_ascii_str() {
                Some("NFC") => Form::Nfc,
                Some("NFD") => Form::Nfd,
                Some("NFKC") => Form::Nfkc,
                Some("NFKD") => Form::Nfkd,
                _ => {
                    return Err(Error::range_error(format!(
                        "The normalization form should be one of NFC, NFD, NFKC, NFKD, not {}",
                        coerce::describe(&Value::String(name))
                    )));
                }
            }
        }
    };
    // ASCII is in every normal form already.
    if text.is_ascii() {
        return Ok(Value::String(text.clone()));
    }
    let units = text.to_utf16();
    let mut out = Collect(Vec::with_capacity(units.len()));
    let mut start = 0;
    while start < units.len() {
        let mut end = (start + UNITS_PER_CLOCK_CHECK).min(units.len());
        while end < units.len() && !starts_a_normalization_piece(units[end]) {
            end += 1;
        }
        for stretch in Stretches::new(&units[start..end], newer_than_node) {
            match stretch {
                Stretch::Text(part) => match form {
                    Form::Nfc => collect_normalized(
                        cx,
                        &mut out,
                        ComposingNormalizerBorrowed::new_nfc().normalize_iter(chars(part)),
                    )?,
                    Form::Nfkc => collect_normalized(
                        cx,
                        &mut out,
                        ComposingNormalizerBorrowed::new_nfkc().normalize_iter(chars(part)),
                    )?,
                    Form::Nfd => collect_normalized(
                        cx,
                        &mut out,
                        DecomposingNormalizerBorrowed::new_nfd().normalize_iter(chars(part)),
                    )?,
                    Form::Nfkd => collect_normalized(
                        cx,
                        &mut out,
                        DecomposingNormalizerBorrowed::new_nfkd().normalize_iter(chars(part)),
                    )?,
                },
                Stretch::Keep(kept) => kept.iter().for_each(|&unit| out.unit(unit)),
            }
        }
        cx.check_clock()?;
        cx.meter.check_string_length(out.0.len())?;
        start = end;
    }
    new_string(cx, out.0.len())?;
    let normalized = Str::from_utf16(&out.0);
    Ok(Value::String(normalized))
}

/// Appends what `normalized` yields to `out`, reading the clock and the string cap every
/// [`UNITS_PER_CLOCK_CHECK`] characters: a piece between two safe boundaries can be the whole
/// text (`"\u{FDFA}".repeat(n)` has none, and each of its characters becomes 18), and the
/// normalizer yields lazily, so the work stops where the clock says.
fn collect_normalized(cx: &mut Cx<'_>, out: &mut Collect, normalized: impl Iterator<Item = char>) -> Result<()> {
    for (index, c) in normalized.enumerate() {
        out.char(c);
        if index % UNITS_PER_CLOCK_CHECK == UNITS_PER_CLOCK_CHECK - 1 {
            cx.check_clock()?;
            cx.meter.check_string_length(out.0.len())?;
        }
    }
    Ok(())
}

/// `toWellFormed()`: each lone surrogate becomes U+FFFD.
fn to_well_formed(cx: &mut Cx<'_>, text: &Str) -> Result<Value> {
    if text.is_well_formed() {
        return Ok(Value::String(text.clone()));
    }
    let mut units = text.to_utf16();
    cx.text(units.len())?;
    new_string(cx, units.len())?;
    let mut at = 0;
    while at < units.len() {
        if is_lone(&units, at) {
            units[at] = REPLACEMENT;
            at += 1;
        } else {
            // A pair moves on by two, so its trail is never taken for a lone one.
            at += if matches!(units[at], 0xD800..=0xDBFF) { 2 } else { 1 };
        }
    }
    Ok(Value::String(Str::from_utf16(&units)))
}

// ---------------------------------------------------------------------------------------------
// The statics.

/// `String.fromCharCode(...codes)`: each code converted to a number and taken modulo 2^16.
fn from_char_code(cx: &mut Cx<'_>, values: &[Value]) -> Result<Value> {
    let mut units = Vec::with_capacity(values.len());
    for value in values {
        units.push(coerce::to_uint32(coerce::to_number(cx, value)?) as u16);
    }
    new_string(cx, units.len())?;
    Ok(Value::String(Str::from_utf16(&units)))
}

/// `String.fromCodePoint(...points)`: a RangeError for anything but an integer in
/// 0..=0x10FFFF.
fn from_code_point(cx: &mut Cx<'_>, values: &[Value]) -> Result<Value> {
    let mut points = Vec::with_capacity(values.len());
    let mut total = 0usize;
    for value in values {
        let n = coerce::to_number(cx, value)?;
        if !(n.is_finite() && n.fract() == 0.0 && (0.0..=1_114_111.0).contains(&n)) {
            return Err(Error::range_error(format!(
                "Invalid code point {}: String.fromCodePoint takes whole numbers from 0 to 1114111 (0x10FFFF)",
                coerce::number_to_str(n)
            )));
        }
        let point = n as u32;
        total += if point >= 0x10000 { 2 } else { 1 };
        points.push(point);
    }
    new_string(cx, total)?;
    let mut units = Vec::with_capacity(total);
    for point in points {
        if point >= 0x10000 {
            let offset = point - 0x10000;
            units.push(0xD800 + (offset >> 10) as u16);
            units.push(0xDC00 + (offset & 0x3FF) as u16);
        } else {
            units.push(point as u16);
        }
    }
    Ok(Value::String(Str::from_utf16(&units)))
}

#[cfg(test)]
mod tests {
    use writ_core::{Limits, Meter, parse_json};

    use super::*;
    use crate::ast::Program;
    use crate::error::Reason;

    /// Calls with node's answers, generated by running each call in node 20: a JSON array
    /// `[receiver, method, ...args]` (receiver `"String"` for the statics; `"@u"`, `"@nan"`,
    /// `"@inf"`, `"@-inf"` stand for undefined, NaN, ±Infinity), then `=>` and JSON of the
    /// answer, `undefined`, `NaN`, or `!runtime` where JavaScript throws.
    const NODE_CASES: &str = r##"
["abc","at",0] => "a"
["abc","at",-1] => "c"
["abc","at",3] => undefined
["abc","at",-4] => undefined
["abc","at","@-inf"] => undefined
["abc","at","@nan"] => "a"
["abc","at",1.9] => "b"
["abc","at","1"] => "b"
["abc","at",[2]] => "c"
["abc","at",null] => "a"
["\ud83d\ude00","at",0] => "\ud83d"
["\ud83d\ude00","at",-1] => "\ude00"
["abc","charAt",1] => "b"
["abc","charAt",-1] => ""
["abc","charAt","@nan"] => "a"
["abc","charAt",3] => ""
["abc","charAt"] => "a"
["h\u00e9","charAt",1] => "\u00e9"
["abc","charCodeAt",1] => 98
["abc","charCodeAt",5] => NaN
["abc","charCodeAt",-1] => NaN
["\ud800x","charCodeAt",0] => 55296
["abc","charCodeAt","@inf"] => NaN
["\ud83d\ude00","codePointAt",0] => 128512
["\ud83d\ude00","codePointAt",1] => 56832
["\ude00\ud83d","codePointAt",0] => 56832
["\ud83dx","codePointAt",0] => 55357
["abc","codePointAt",-1] => undefined
["abc","codePointAt",3] => undefined
["abc","codePointAt"] => 97
["abc","startsWith","ab"] => true
["abc","startsWith","bc",1] => true
["abc","startsWith","",99] => true
["abc","startsWith","abcd"] => false
["abc","startsWith","a",-5] => true
["abc","startsWith","c","@inf"] => false
["\ud83d\ude00x","startsWith","\ud83d"] => true
["h\u00e9llo","startsWith","\u00e9l",1] => true
["abc","endsWith","bc"] => true
["abc","endsWith","b",2] => true
["abc","endsWith","a",-1] => false
["abc","endsWith","",-1] => true
["abc","endsWith","abc","@inf"] => true
["abc","endsWith","abc","@u"] => true
["abc","endsWith","abcd"] => false
["x\ud83d\ude00","endsWith","\ude00"] => true
["abcabc","includes","ca"] => true
["abcabc","includes","ca",3] => false
["abc","includes","",100] => true
["abc","includes","d"] => false
["abc","includes","\u00e9"] => false
["h\u00e9llo","includes","llo"] => true
["abcabc","indexOf","c"] => 2
["abcabc","indexOf","c",3] => 5
["abcabc","indexOf","c",-10] => 2
["abc","indexOf","",10] => 3
["abc","indexOf","",2] => 2
["abc","indexOf","abcd"] => -1
["h\u00e9llo h\u00e9llo","indexOf","\u00e9l",2] => 7
["\ud800\ud800","indexOf","\ud800",1] => 1
["abcabc","lastIndexOf","c"] => 5
["abcabc","lastIndexOf","c",4] => 2
["abcabc","lastIndexOf","abc",2] => 0
["abc","lastIndexOf","",1] => 1
["abc","lastIndexOf","",10] => 3
["abc","lastIndexOf","c",-5] => -1
["abc","lastIndexOf","a",-5] => 0
["abc","lastIndexOf","a","@nan"] => 0
["abc","lastIndexOf","c","@inf"] => 2
["abc","lastIndexOf","c","@-inf"] => -1
["abc","lastIndexOf","abcd"] => -1
["h\u00e9llo h\u00e9llo","lastIndexOf","\u00e9l"] => 7
["abcdef","slice",2] => "cdef"
["abcdef","slice",-2] => "ef"
["abcdef","slice",1,-1] => "bcde"
["abcdef","slice",4,1] => ""
["abcdef","slice","@-inf",-1] => "abcde"
["abcdef","slice","@nan","@inf"] => "abcdef"
["abcdef","slice",2,"@u"] => "cdef"
["abcdef","slice"] => "abcdef"
["\ud83d\ude00a","slice",1] => "\ude00a"
["h\u00e9llo","slice",1,3] => "\u00e9l"
["abcdef","substring",2,-1] => "ab"
["abcdef","substring",4,1] => "bcd"
["abcdef","substring","@nan","@inf"] => "abcdef"
["abcdef","substring",3] => "def"
["abcdef","substring",-3] => "abcdef"
["abcdef","substring"] => "abcdef"
["h\u00e9llo","substring",4,1] => "\u00e9ll"
["abc","concat",1,[2,3],null,{},"@u",true] => "abc12,3null[object Object]undefinedtrue"
["abc","concat"] => "abc"
["\ud83d","concat","\ude00"] => "\ud83d\ude00"
["a","concat","\u00e9",[[1,[2]],null]] => "a\u00e91,2,"
["a,b,c","split",","] => ["a","b","c"]
["a,b,c","split",",",2] => ["a","b"]
["a,b,c","split",",",0] => []
["a,b,c","split",",",-1] => ["a","b","c"]
["a,b,c","split",",",4294967297] => ["a"]
["a,b,c","split",",","@nan"] => []
["a,b,c","split",",","2"] => ["a","b"]
["abc","split",""] => ["a","b","c"]
["abc","split","",2] => ["a","b"]
["","split",""] => []
["","split",","] => [""]
["abc","split"] => ["abc"]
["abc","split","@u",0] => []
["abc","split","@u"] => ["abc"]
[",a,,b,","split",","] => ["","a","","b",""]
["aaa","split","aa"] => ["","a"]
["abc","split","abc"] => ["",""]
["abc","split","abcd"] => ["abc"]
["h\u00e9\u00e9llo","split","\u00e9"] => ["h","","llo"]
["\ud83d\ude00","split",""] => ["\ud83d","\ude00"]
["a\u00e9b","split","",2] => ["a","\u00e9"]
["abc","replace","b","X"] => "aXc"
["abc","replace","x","X"] => "abc"
["abc","replace","","-"] => "-abc"
["abcb","replace","b","$$-$&-$`-$'-$1-$<x>-$"] => "a$-b-a-cb-$1-$<x>-$cb"
["abcb","replace","b","$"] => "a$cb"
["abcb","replace","b","$$$"] => "a$$cb"
["abcb","replace","b","$&$&"] => "abbcb"
["aaa","replace","a","$'"] => "aaaa"
["h\u00e9llo","replace","\u00e9","$`$'"] => "hhllollo"
["h\u00e9llo","replace","l","\u00e9$&"] => "h\u00e9\u00e9llo"
["abc","replaceAll","","-"] => "-a-b-c-"
["abc","replaceAll","","$`"] => "aababcabc"
["abc","replaceAll","","$'"] => "abcabcbcc"
["aaa","replaceAll","aa","b"] => "ba"
["ab","replaceAll","b","$'$'"] => "a"
["abab","replaceAll","b","[$`|$&|$']"] => "a[a|b|ab]a[aba|b|]"
["abab","replaceAll","x","y"] => "abab"
["","replaceAll","","x"] => "x"
["","replace","","x"] => "x"
["a\ud800b","replaceAll","\ud800","$&$&"] => "a\ud800\ud800b"
["\u00e9\u00e9","replaceAll","","|"] => "|\u00e9|\u00e9|"
["ab","repeat",3] => "ababab"
["ab","repeat",0] => ""
["ab","repeat","@nan"] => ""
["ab","repeat",-0.5] => ""
["ab","repeat",2.9] => "abab"
["ab","repeat","2"] => "abab"
["ab","repeat",-1] => !runtime
["ab","repeat",-1.5] => !runtime
["ab","repeat","@inf"] => !runtime
["","repeat","@inf"] => !runtime
["","repeat",1000000000] => ""
["\u00e9","repeat",3] => "\u00e9\u00e9\u00e9"
["ab","repeat","-1"] => !runtime
["abc","padStart",6,"12"] => "121abc"
["abc","padStart",6] => "   abc"
["abc","padStart",2,"x"] => "abc"
["abc","padStart",6,""] => "abc"
["abc","padStart",6,123] => "123abc"
["abc","padStart",6,null] => "nulabc"
["abc","padStart",6,"@u"] => "   abc"
["abc","padStart","@nan","x"] => "abc"
["abc","padStart",5.9,"xy"] => "xyabc"
["abc","padEnd",6,"12"] => "abc121"
["abc","padEnd",7,"\u00e9\u00e8"] => "abc\u00e9\u00e8\u00e9\u00e8"
["abc","padEnd",4,[1,2]] => "abc1"
["\u00e9","padStart",4,"ab"] => "aba\u00e9"
["x","padStart",3,"\ud83d\ude00"] => "\ud83d\ude00x"
["Hello World","toLowerCase"] => "hello world"
["Hello World","toUpperCase"] => "HELLO WORLD"
["\u0130","toLowerCase"] => "i\u0307"
["\u00df","toUpperCase"] => "SS"
["\ufb03","toUpperCase"] => "FFI"
["\u0390","toUpperCase"] => "\u0399\u0308\u0301"
["\u0149","toUpperCase"] => "\u02bcN"
["\u01c5","toLowerCase"] => "\u01c6"
["\u01c5","toUpperCase"] => "\u01c4"
["\u0391\u03a3","toLowerCase"] => "\u03b1\u03c2"
["\u03a3","toLowerCase"] => "\u03c3"
["a\u03a3b","toLowerCase"] => "a\u03c3b"
["a\u0301\u03a3","toLowerCase"] => "a\u0301\u03c2"
["a\u03a3\u0301","toLowerCase"] => "a\u03c2\u0301"
["\u0391\u03a3.\u0391","toLowerCase"] => "\u03b1\u03c3.\u03b1"
["\u0391\u03a3\ud800","toLowerCase"] => "\u03b1\u03c2\ud800"
["\u0391\ud800\u03a3","toLowerCase"] => "\u03b1\ud800\u03c3"
["\u0391\u03a3\ud800\u0391","toLowerCase"] => "\u03b1\u03c2\ud800\u03b1"
["a\ud800","toUpperCase"] => "A\ud800"
["\ud801\udc28","toUpperCase"] => "\ud801\udc00"
["\ud801\udc00","toLowerCase"] => "\ud801\udc28"
["A\u0345","toUpperCase"] => "A\u0399"
["\u1fb3","toUpperCase"] => "\u0391\u0399"
["\u00ff\u00b5","toUpperCase"] => "\u0178\u039c"
["I\u0307","toLowerCase"] => "i\u0307"
["\u1e9e","toLowerCase"] => "\u00df"
["\u2126","toLowerCase"] => "\u03c9"
["  a b  ","trim"] => "a b"
["  a b  ","trimStart"] => "a b  "
["  a b  ","trimEnd"] => "  a b"
[" \u00a0\ufeff\u2028x\u180e ","trim"] => "x\u180e"
["\t\n\u000b\f\r\u1680\u2000\u200a\u2029\u202f\u205f\u3000x\u3000","trim"] => "x"
["   ","trim"] => ""
["abc","trim"] => "abc"
["\u200bx\u200b","trim"] => "\u200bx\u200b"
["e\u0301","normalize"] => "\u00e9"
["\u00e9","normalize","NFD"] => "e\u0301"
["\u1e9b\u0323","normalize","NFC"] => "\u1e9b\u0323"
["\u1e9b\u0323","normalize","NFD"] => "\u017f\u0323\u0307"
["\u1e9b\u0323","normalize","NFKC"] => "\u1e69"
["\u1e9b\u0323","normalize","NFKD"] => "s\u0323\u0307"
["\ufb01","normalize","NFKD"] => "fi"
["\ufdfa","normalize","NFKD"] => "\u0635\u0644\u0649 \u0627\u0644\u0644\u0647 \u0639\u0644\u064a\u0647 \u0648\u0633\u0644\u0645"
["\u00e9","normalize","@u"] => "\u00e9"
["abc","normalize","nfc"] => !runtime
["abc","normalize",null] => !runtime
["abc","normalize","bad"] => !runtime
["\ud800","normalize"] => "\ud800"
["e\ud800\u0301","normalize","NFC"] => "e\ud800\u0301"
["a\u0301\ud800","normalize"] => "\u00e1\ud800"
["a\u0316\u0301","normalize","NFD"] => "a\u0316\u0301"
["a\u0301\u0316","normalize","NFD"] => "a\u0316\u0301"
["\u1100\u1161\u11a8","normalize","NFC"] => "\uac01"
["\uac01","normalize","NFD"] => "\u1100\u1161\u11a8"
["abc","isWellFormed"] => true
["\ud800","isWellFormed"] => false
["\ud83d\ude00","isWellFormed"] => true
["\ude00\ud83d","isWellFormed"] => false
["\ud800a","toWellFormed"] => "\ufffda"
["a\ude00\ud83d\ude00\ud83d","toWellFormed"] => "a\ufffd\ud83d\ude00\ufffd"
["\ud83d\ude00","toWellFormed"] => "\ud83d\ude00"
["abc","toString"] => "abc"
["abc","valueOf"] => "abc"
["abc","toLocaleString","de-DE",{"x":1}] => "abc"
["\u0277\u027c\uab4b\uab4c","toUpperCase"] => "\u0277\u027c\uab4b\uab4c"
["\ua7dd\ua7e2","toLowerCase"] => "\ua7dd\ua7e2"
["\u209d\u209e","normalize","NFKD"] => "\u209d\u209e"
["\u0391\ua7dd\u03a3","toLowerCase"] => "\u03b1\ua7dd\u03c3"
["\u0391\u03a3\ua7dd","toLowerCase"] => "\u03b1\u03c2\ua7dd"
["a\u1ade\u0301","normalize","NFC"] => "a\u1ade\u0301"
["a,b,c","split",",",3] => ["a","b","c"]
["a,b,c","split",",",1] => ["a"]
[",","split",",",1] => [""]
["abc","split","abc",1] => [""]
["abc","split","c",2] => ["ab",""]
["a\u0300\u0301","normalize","NFKC"] => "\u00e0\u0301"
["\u212b","normalize","NFC"] => "\u00c5"
["\u0f73","normalize","NFD"] => "\u0f71\u0f72"
["\u0344\u0301","normalize","NFC"] => "\u0308\u0301\u0301"
["String","fromCharCode",65,66,67] => "ABC"
["String","fromCharCode"] => ""
["String","fromCharCode",65601,-1,"@nan","66",1.9,"@inf",4294967361] => "A\uffff\u0000B\u0001\u0000A"
["String","fromCharCode",55357,56832] => "\ud83d\ude00"
["String","fromCharCode",55357] => "\ud83d"
["String","fromCodePoint",128512,65] => "\ud83d\ude00A"
["String","fromCodePoint"] => ""
["String","fromCodePoint","65",[66],"@-0"] => "AB\u0000"
["String","fromCodePoint",1114111] => "\udbff\udfff"
["String","fromCodePoint",55296] => "\ud800"
["String","fromCodePoint",1.5] => !runtime
["String","fromCodePoint",-1] => !runtime
["String","fromCodePoint",1114112] => !runtime
["String","fromCodePoint","@nan"] => !runtime
["String","fromCodePoint","@inf"] => !runtime
["String","fromCodePoint","abc"] => !runtime
["String","fromCodePoint",null] => "\u0000"
"##;

    fn default_limits() -> Limits {
        Limits {
            steps: Some(1_000_000),
            max_string_length: Some(1_000_000),
            max_array_length: Some(100_000),
            max_total_allocation: Some(10_000_000),
            ..Limits::UNLIMITED
        }
    }

    /// Runs `receiver.name(args)` (or `String.name(args)`) under `limits`; also answers the
    /// allocation the meter counted.
    fn run_under(limits: &Limits, receiver: &Value, name: &str, args: &[Value]) -> (Result<Value>, u64) {
        let program = Program::empty();
        let mut cx = Cx::new(Meter::new(limits), &program, &[]);
        let call_args = Args {
            values: args,
            callback: None,
            name: "test",
        };
        let result = match receiver {
            Value::String(text) if text.eq_str("String") && StringFn::from_name(name).is_some() => call_static(
                &mut cx,
                StringFn::from_name(name).unwrap_or(StringFn::FromCharCode),
                &call_args,
            ),
            Value::String(text) => match StringMethod::from_name(name) {
                Some(method) => call(&mut cx, text, method, &call_args),
                None => panic!("no string method {name}"),
            },
            other => panic!("receiver {other:?} is not a string"),
        };
        (result, cx.meter.allocated())
    }

    fn run(receiver: &str, name: &str, args: &[Value]) -> Result<Value> {
        run_under(&default_limits(), &Value::String(Str::from(receiver)), name, args).0
    }

    fn s(text: &str) -> Value {
        Value::String(Str::from(text))
    }

    fn n(number: f64) -> Value {
        Value::Number(number)
    }

    fn special(value: Value) -> Value {
        match &value {
            Value::String(text) if text.eq_str("@u") => Value::Undefined,
            Value::String(text) if text.eq_str("@nan") => Value::Number(f64::NAN),
            Value::String(text) if text.eq_str("@inf") => Value::Number(f64::INFINITY),
            Value::String(text) if text.eq_str("@-inf") => Value::Number(f64::NEG_INFINITY),
            Value::String(text) if text.eq_str("@-0") => Value::Number(-0.0),
            _ => value,
        }
    }

    fn reason(result: Result<Value>) -> Reason {
        match result {
            Ok(value) => panic!("expected an error, got {value:?}"),
            Err(error) => error.reason(),
        }
    }

    /// Runs each case of `cases` (the format of [`NODE_CASES`]): how many, and the differences.
    fn differences(cases: &str) -> (usize, Vec<String>) {
        let mut failures = Vec::new();
        let mut count = 0;
        for line in cases.lines().filter(|line| !line.trim().is_empty()) {
            count += 1;
            let (call_text, expected) = line
                .split_once(" => ")
                .unwrap_or_else(|| panic!("bad case line {line}"));
            let Ok(Value::Array(parts)) = parse_json(call_text) else {
                panic!("bad case {call_text}")
            };
            let receiver = parts.get(0).cloned().unwrap_or_default();
            let Some(Value::String(name)) = parts.get(1) else {
                panic!("bad case {call_text}")
            };
            let args: Vec<Value> = parts.iter().skip(2).cloned().map(special).collect();
            let (result, _) = run_under(&default_limits(), &receiver, &name.to_string_lossy(), &args);
            let ok = match (expected, &result) {
                ("!runtime", Err(error)) => error.reason() == Reason::ExpressionRuntime,
                ("!runtime", Ok(_)) => false,
                ("undefined", Ok(value)) => matches!(value, Value::Undefined),
                ("NaN", Ok(Value::Number(x))) => x.is_nan(),
                (json, Ok(value)) => parse_json(json).is_ok_and(|want| want == *value),
                _ => false,
            };
            if !ok {
                failures.push(format!("{call_text}: expected {expected}, got {result:?}"));
            }
        }
        (count, failures)
    }

    #[test]
    fn answers_as_node_does() {
        let (count, failures) = differences(NODE_CASES);
        assert!(count > 200, "only {count} cases were read");
        assert!(
            failures.is_empty(),
            "{} of {count} differ from node:\n{}",
            failures.len(),
            failures.join("\n")
        );
    }

    #[test]
    fn non_string_patterns_and_replacements_convert_as_in_javascript() {
        // Expected answers from node 20.
        let ok = |text: &str, method: &str, args: &[Value]| run(text, method, args).expect("runs");
        assert_eq!(ok("a1", "replace", &[n(1.0), s("x")]), s("ax"));
        assert_eq!(ok("a1", "replaceAll", &[n(1.0), s("x")]), s("ax"));
        assert_eq!(ok("a1", "replace", &[s("1"), n(5.0)]), s("a5"));
        assert_eq!(ok("a1", "replace", &[s("1"), Value::Null]), s("anull"));
        assert_eq!(ok("a1", "includes", &[n(1.0)]), Value::Bool(true));
        assert_eq!(ok("a1", "indexOf", &[n(1.0)]), n(1.0));
        assert_eq!(ok("atrue", "lastIndexOf", &[Value::Bool(true)]), n(1.0));
        assert_eq!(ok("aundefined", "startsWith", &[]), Value::Bool(false));
        assert_eq!(ok("aundefined", "endsWith", &[Value::Undefined]), Value::Bool(true));
        assert_eq!(
            ok("anull", "split", &[Value::Null, n(0.0)]).to_json_string().as_deref(),
            Some("[]")
        );
    }

    #[test]
    fn locale_methods_pass_their_arguments_on() {
        assert_eq!(
            run("istanbul", "toLocaleUpperCase", &[s("tr")]),
            Ok(s("\u{130}STANBUL"))
        );
        assert_eq!(run("I", "toLocaleLowerCase", &[s("tr")]), Ok(s("\u{131}")));
        assert_eq!(run("a", "localeCompare", &[s("B")]), Ok(n(-1.0)));
        let base = Value::Object([(Str::from("sensitivity"), s("base"))].into_iter().collect());
        assert_eq!(run("a", "localeCompare", &[s("A"), Value::Undefined, base]), Ok(n(0.0)));
        // A missing argument compares with "undefined", as in JavaScript.
        assert_eq!(run("a", "localeCompare", &[]), Ok(n(-1.0)));
    }

    #[test]
    fn locale_string_ignores_its_arguments() {
        assert_eq!(run("abc", "toLocaleString", &[n(5.0), Value::Null]), Ok(s("abc")));
    }

    #[test]
    fn results_are_charged_once_at_their_length() {
        let limits = default_limits();
        let cases: &[(&str, &str, Vec<Value>, u64)] = &[
            ("ab", "repeat", vec![n(3.0)], 6),
            ("abc", "padStart", vec![n(7.0), s("xy")], 7),
            ("abc", "concat", vec![s("de"), n(12.0)], 7),
            ("abcb", "replaceAll", vec![s("b"), s("[$`]")], 10),
            ("h\u{e9}", "toUpperCase", vec![], 2),
            ("\u{df}", "toUpperCase", vec![], 2),
            ("\u{fdfa}", "normalize", vec![s("NFKD")], 18),
            ("a,b,c", "split", vec![s(",")], 3),
            ("abcdef", "slice", vec![n(1.0), n(-1.0)], 4),
            // Returned unchanged: nothing is built.
            ("abc", "padStart", vec![n(2.0)], 0),
            ("abc", "trim", vec![], 0),
            ("abc", "replace", vec![s("x"), s("y")], 0),
        ];
        for (receiver, name, args, allocated) in cases {
            let (result, counted) = run_under(&limits, &s(receiver), name, args);
            assert!(result.is_ok(), "{receiver}.{name}: {result:?}");
            assert_eq!(counted, *allocated, "{receiver}.{name}({args:?})");
        }
    }

    fn small_limits() -> Limits {
        Limits {
            steps: Some(100_000),
            max_string_length: Some(1_000),
            max_array_length: Some(100),
            max_total_allocation: Some(5_000),
            ..Limits::UNLIMITED
        }
    }

    #[test]
    fn bombs_fail_on_the_budget_before_building() {
        let limits = small_limits();
        let bomb = |receiver: &str, name: &str, args: &[Value]| {
            let (result, _) = run_under(&limits, &s(receiver), name, args);
            reason(result)
        };
        // Each of these would need terabytes if it were built before being charged.
        let huge = 2f64.powi(42);
        assert_eq!(bomb("x", "repeat", &[n(huge)]), Reason::BudgetExceeded);
        assert_eq!(bomb("\u{e9}", "repeat", &[n(1e300)]), Reason::BudgetExceeded);
        assert_eq!(bomb("x", "padStart", &[n(huge), s("ab")]), Reason::BudgetExceeded);
        assert_eq!(bomb("x", "padEnd", &[n(f64::INFINITY)]), Reason::BudgetExceeded);
        // Growth through the replacement: 500 matches, each inserting the whole text twice.
        let text = "a".repeat(500);
        assert_eq!(bomb(&text, "replaceAll", &[s("a"), s("$`$'")]), Reason::BudgetExceeded);
        assert_eq!(
            bomb(&text, "replaceAll", &[s(""), s("0123456789")]),
            Reason::BudgetExceeded
        );
        assert_eq!(bomb(&text, "replace", &[s("a"), s("$'$'$'")]), Reason::BudgetExceeded);
        // Splitting 500 characters into 500 parts passes the 100-item cap.
        assert_eq!(bomb(&text, "split", &[s("")]), Reason::BudgetExceeded);
        assert_eq!(bomb(&"a,".repeat(400), "split", &[s(",")]), Reason::BudgetExceeded);
        // But a limit keeps it small, as in JavaScript.
        let (split, _) = run_under(&limits, &s(&text), "split", &[s(""), n(3.0)]);
        assert_eq!(split, Ok(Value::Array(Array::from(vec![s("a"), s("a"), s("a")]))));
        // A negative or infinite count is JavaScript's own RangeError, before any charge.
        assert_eq!(bomb("x", "repeat", &[n(-1.0)]), Reason::ExpressionRuntime);
        assert_eq!(bomb("x", "repeat", &[n(f64::INFINITY)]), Reason::ExpressionRuntime);
        // Concatenation is charged at its final length too.
        let long = s(&"b".repeat(600));
        assert_eq!(bomb("a", "concat", &[long.clone(), long]), Reason::BudgetExceeded);
    }

    #[test]
    fn searches_are_charged_their_worst_case_first() {
        let limits = Limits {
            steps: Some(1_000),
            ..Limits::UNLIMITED
        };
        let text = s(&"a".repeat(4_000));
        let pattern = s(&format!("{}b", "a".repeat(99)));
        // 4000 × 100 / 16 = 25000 steps: over the budget before the search starts.
        for name in ["includes", "indexOf", "lastIndexOf", "split", "replace", "replaceAll"] {
            // A second argument only where it is the replacement (split's would be its limit).
            let args = if name.starts_with("replace") {
                vec![pattern.clone(), s("")]
            } else {
                vec![pattern.clone()]
            };
            let (result, _) = run_under(&limits, &text, name, &args);
            assert_eq!(reason(result), Reason::BudgetExceeded, "{name}");
        }
        // The same text with a one-character pattern fits: 4000 / 16 = 250 steps.
        let (result, _) = run_under(&limits, &text, "indexOf", &[s("b")]);
        assert_eq!(result, Ok(n(-1.0)));
    }

    #[test]
    fn the_js_string_limit_holds_without_caps() {
        // With no caps at all, JavaScript's own limit still stops the allocation.
        let (result, _) = run_under(&Limits::UNLIMITED, &s("ab"), "repeat", &[n(2f64.powi(40))]);
        assert_eq!(reason(result), Reason::ExpressionRuntime);
        let (result, _) = run_under(&Limits::UNLIMITED, &s("ab"), "padEnd", &[n(2f64.powi(30))]);
        assert_eq!(reason(result), Reason::ExpressionRuntime);
    }

    #[test]
    fn long_runs_of_combining_marks_are_refused() {
        let marks = |count: usize| "\u{301}".repeat(count);
        assert_eq!(check_mark_run(&Str::from(format!("e{}", marks(30)).as_str())), Ok(()));
        let too_many = Str::from(format!("e{}", marks(31)).as_str());
        let error = check_mark_run(&too_many).err();
        assert_eq!(error.as_ref().map(Error::reason), Some(Reason::BudgetExceeded));
        assert!(error.is_some_and(|e| {
            e.message()
                .starts_with("Text has more than 30 combining marks in a row")
        }));
        // Spacing (Mc) and enclosing (Me) marks count too; anything else ends the run.
        let mixed = format!("{}\u{93e}\u{20dd}", marks(29));
        assert!(check_mark_run(&Str::from(mixed.as_str())).is_err());
        let broken = format!("{}x{}", marks(30), marks(30));
        assert_eq!(check_mark_run(&Str::from(broken.as_str())), Ok(()));
        // A lone surrogate is no mark.
        let mut units: Vec<u16> = marks(20).encode_utf16().collect();
        units.push(0xD800);
        units.extend(marks(20).encode_utf16());
        assert_eq!(check_mark_run(&Str::from_utf16(&units)), Ok(()));
        // Astral marks are read as code points.
        let astral = "\u{1D167}".repeat(31);
        assert!(check_mark_run(&Str::from(astral.as_str())).is_err());
        // normalize() checks first.
        assert_eq!(
            reason(run(&too_many.to_string_lossy(), "normalize", &[])),
            Reason::BudgetExceeded
        );
        assert!(run(&format!("e{}", marks(30)), "normalize", &[s("NFD")]).is_ok());
    }

    #[test]
    fn long_non_ascii_text_rewrites_in_full() {
        // Many stretches and lone surrogates: every unit comes out once, in order.
        let mut units = Vec::new();
        for i in 0..2_000u16 {
            units.extend([0x3A3, 0xD800 + (i % 3), u16::from(b'a'), 0x130]);
        }
        let text = Str::from_utf16(&units);
        let limits = default_limits();
        let (lower, _) = run_under(&limits, &Value::String(text.clone()), "toLowerCase", &[]);
        let Ok(Value::String(lower)) = lower else {
            panic!("{lower:?}")
        };
        // Σ before a lone surrogate is final (ς) and keeps its length; İ becomes i + U+0307.
        assert_eq!(lower.len_utf16(), units.len() + 2_000);
        assert_eq!(lower.code_unit(0), Some(0x3C3));
        let (fixed, _) = run_under(&limits, &Value::String(text), "toWellFormed", &[]);
        let Ok(Value::String(fixed)) = fixed else {
            panic!("{fixed:?}")
        };
        assert!(fixed.is_well_formed());
        assert_eq!(fixed.len_utf16(), units.len());
    }
}
