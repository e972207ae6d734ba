//! XPath integer pictures (F&O 4.6.1): `$formatInteger`, `$parseInteger`, and the integer
//! components of date/time pictures. Decimal digit patterns in any Unicode decimal digit family,
//! grouping separators (regular or not), ordinals, English words, roman numerals and letters.

use std::sync::LazyLock;

use writ_core::{Str, js, write_json_string};

use super::fdlibm;
use super::jsnum::{native_error, number_units, pace, parse_int, reserve};
use super::text::{
    ascii_lower, ascii_upper, code_points, insert_at, last_index_of, push_code_point, replace_all, units,
};
use crate::error::{Code, Error, Result};
use crate::eval::Cx;

/// The zero digit of every decimal digit family jsonata-js recognises.
const DECIMAL_GROUPS: [u32; 37] = [
    0x30, 0x0660, 0x06F0, 0x07C0, 0x0966, 0x09E6, 0x0A66, 0x0AE6, 0x0B66, 0x0BE6, 0x0C66, 0x0CE6, 0x0D66, 0x0DE6,
    0x0E50, 0x0ED0, 0x0F20, 0x1040, 0x1090, 0x17E0, 0x1810, 0x1946, 0x19D0, 0x1A80, 0x1A90, 0x1B50, 0x1BB0, 0x1C40,
    0x1C50, 0xA620, 0xA8D0, 0xA900, 0xA9D0, 0xA9F0, 0xAA50, 0xABF0, 0xFF10,
];

/// Letter case of words, roman numerals and letters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(in crate::functions) enum Case {
    /// `A`, `I`, `W`.
    Upper,
    /// `a`, `i`, `w`, and the default.
    Lower,
    /// `Ww`.
    Title,
}

/// Where grouping separators go in a decimal number.
#[derive(Clone, Debug, PartialEq)]
pub(in crate::functions) enum Grouping {
    /// The same separator every `every` digits from the right.
    Regular {
        /// The interval, at least 1.
        every: usize,
        /// The separator (a code point).
        separator: u32,
    },
    /// Each separator (a code point) at its own count of digits from the right, nearest
    /// first.
    Irregular(Vec<(usize, u32)>),
}

/// The kind of numbering a picture asks for.
#[derive(Clone, Debug, PartialEq)]
pub(in crate::functions) enum Primary {
    /// Digits of the family whose zero is `zero`, grouped.
    Decimal {
        /// The code point of the family's zero.
        zero: u32,
        /// The grouping separators.
        grouping: Grouping,
    },
    /// `a`: spreadsheet column letters.
    Letters,
    /// `i`: roman numerals.
    Roman,
    /// `w`: English words.
    Words,
    /// Anything else: a numbering sequence this implementation does not support (D3130).
    Sequence(Vec<u16>),
}

/// An analysed integer picture.
#[derive(Clone, Debug, PartialEq)]
pub(in crate::functions) struct IntegerFormat {
    /// What numbering.
    pub primary: Primary,
    /// Letter case.
    pub case: Case,
    /// Whether the `o` (ordinal) modifier was given.
    pub ordinal: bool,
    /// Digits always written (decimal pictures only; a date width may change it, even to NaN).
    pub mandatory: Option<f64>,
    /// Optional digit signs `#` (decimal pictures only).
    pub optional: Option<f64>,
    /// How many digits to read when the next date component follows without a literal.
    pub parse_width: Option<f64>,
}

/// `text` as a JSON string, for an error's value.
fn json_text(text: &[u16]) -> String {
    let mut out = String::new();
    write_json_string(&Str::from_utf16(text), &mut out);
    out
}

/// Analyses an integer picture: a primary token, then optionally `;` and modifiers.
pub(in crate::functions) fn analyse(cx: &mut Cx<'_>, picture: &[u16]) -> Result<IntegerFormat> {
    cx.steps(picture.len() as u64)?;
    let (primary, ordinal) = match last_index_of(picture, &[0x3B]) {
        None => (picture, false),
        Some(semicolon) => (&picture[..semicolon], picture.get(semicolon + 1) == Some(&0x6F)),
    };
    let mut format = IntegerFormat {
        primary: Primary::Decimal {
            zero: 0x30,
            grouping: Grouping::Irregular(Vec::new()),
        },
        case: Case::Lower,
        ordinal,
        mandatory: None,
        optional: None,
        parse_width: None,
    };
    let (kind, case) = match primary {
        [0x41] => (Primary::Letters, Case::Upper),
        [0x61] => (Primary::Letters, Case::Lower),
        [0x49] => (Primary::Roman, Case::Upper),
        [0x69] => (Primary::Roman, Case::Lower),
        [0x57] => (Primary::Words, Case::Upper),
        [0x57, 0x77] => (Primary::Words, Case::Title),
        [0x77] => (Primary::Words, Case::Lower),
        _ => return analyse_digits(cx, primary, format),
    };
    format.primary = kind;
    format.case = case;
    Ok(format)
}

/// A decimal digit pattern, read right to left: digits of one family, `#`, and separators.
fn analyse_digits(cx: &mut Cx<'_>, primary: &[u16], mut format: IntegerFormat) -> Result<IntegerFormat> {
    let mut zero: Option<u32> = None;
    let mut mandatory = 0usize;
    let mut optional = 0usize;
    let mut position = 0usize;
    let mut separators: Vec<(usize, u32)> = Vec::new();
    let code_points = code_points(primary);
    for (i, &cp) in code_points.iter().rev().enumerate() {
        pace(cx, i, code_points.len())?;
        // The families are in ascending order: the candidate is the last zero at or below.
        let family = DECIMAL_GROUPS
            .partition_point(|&g| g <= cp)
            .checked_sub(1)
            .map(|i| DECIMAL_GROUPS[i]);
        if let Some(group) = family.filter(|&g| cp <= g + 9) {
            mandatory += 1;
            position += 1;
            match zero {
                None => zero = Some(group),
                Some(z) if z != group => return Err(Error::new(Code::D3131).at(cx.position)),
                Some(_) => {}
            }
        } else if cp == 0x23 {
            position += 1;
            optional += 1;
        } else {
            separators.push((position, cp));
        }
    }
    let Some(zero) = zero else {
        format.primary = Primary::Sequence(primary.to_vec());
        return Ok(format);
    };
    let grouping = match regular_interval(&separators) {
        Some(every) => Grouping::Regular {
            every,
            separator: separators[0].1,
        },
        None => Grouping::Irregular(separators),
    };
    format.primary = Primary::Decimal { zero, grouping };
    format.mandatory = Some(mandatory as f64);
    format.optional = Some(optional as f64);
    Ok(format)
}

/// The interval of separators that are all the same character at every multiple of one
/// interval (and nowhere else), if they are.
fn regular_interval(separators: &[(usize, u32)]) -> Option<usize> {
    let (first, rest) = separators.split_first()?;
    if rest.iter().any(|(_, c)| *c != first.1) {
        return None;
    }
    let positions: Vec<usize> = separators.iter().map(|(p, _)| *p).collect();
    regular_positions(&positions)
}

/// The greatest common divisor of `positions`, if every multiple of it up to their count is
/// among them (and it is not zero).
pub(in crate::functions) fn regular_positions(positions: &[usize]) -> Option<usize> {
    let (&first, rest) = positions.split_first()?;
    let factor = rest.iter().fold(first, |a, &b| gcd(a, b));
    // As many positions as multiples wanted: all are there only if, sorted, they are exactly
    // the multiples.
    let mut sorted = positions.to_vec();
    sorted.sort_unstable();
    let every_multiple = sorted.iter().enumerate().all(|(i, &p)| p == (i + 1) * factor);
    (every_multiple && factor > 0).then_some(factor)
}

/// Euclid's algorithm, as jsonata-js runs it (`gcd(a, 0) = a`).
fn gcd(mut a: usize, mut b: usize) -> usize {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// Formats `value` (already an integer, or NaN from an invalid date) with `format`.
pub(in crate::functions) fn format(cx: &mut Cx<'_>, value: f64, format: &IntegerFormat) -> Result<Vec<u16>> {
    let negative = value < 0.0;
    let value = value.abs();
    let mut text = match &format.primary {
        Primary::Letters => letters(cx, value, if format.case == Case::Upper { 0x41 } else { 0x61 })?,
        Primary::Roman => {
            let numeral = roman(cx, value)?;
            if format.case == Case::Upper {
                ascii_upper(&numeral)
            } else {
                numeral
            }
        }
        Primary::Words => {
            if !value.is_finite() {
                return Err(native_error(cx, "Maximum call stack size exceeded"));
            }
            cx.steps(64)?;
            let words = units(&number_to_words(value, format.ordinal));
            match format.case {
                Case::Upper => ascii_upper(&words),
                Case::Lower => ascii_lower(&words),
                Case::Title => words,
            }
        }
        Primary::Decimal { zero, grouping } => decimal(cx, value, *zero, grouping, format)?,
        Primary::Sequence(token) => return Err(Error::new(Code::D3130).with_value(json_text(token)).at(cx.position)),
    };
    if negative {
        text.insert(0, 0x2D);
    }
    Ok(text)
}

/// The decimal digits of `value`: `String(value)`, padded to the mandatory digits, moved into
/// the digit family, grouped, and given an English ordinal suffix if asked.
fn decimal(cx: &mut Cx<'_>, value: f64, zero: u32, grouping: &Grouping, format: &IntegerFormat) -> Result<Vec<u16>> {
    let digits = number_units(value);
    let pad = format.mandatory.map_or(0.0, |m| m - digits.len() as f64);
    let pad = if pad > 0.0 {
        pad.min(usize::MAX as f64) as usize
    } else {
        0
    };
    reserve(cx, pad.saturating_add(digits.len()))?;
    let mut text = vec![0x30; pad];
    text.extend_from_slice(&digits);
    if zero != 0x30 {
        let mut shifted = Vec::with_capacity(text.len());
        for (i, &unit) in text.iter().enumerate() {
            pace(cx, i, text.len())?;
            push_code_point(&mut shifted, u32::from(unit) + zero - 0x30);
        }
        text = shifted;
    }
    text = group(cx, text, grouping)?;
    if format.ordinal {
        let last = text.last().copied();
        let teen = text.len() > 1 && text.get(text.len() - 2) == Some(&0x31);
        let suffix = match last {
            _ if teen => "th",
            Some(0x31) => "st",
            Some(0x32) => "nd",
            Some(0x33) => "rd",
            _ => "th",
        };
        text.extend(suffix.encode_utf16());
    }
    Ok(text)
}

/// `digits` with the grouping separators put in, as jsonata-js does by inserting them one by
/// one at a distance from the (growing) string's end.
fn group(cx: &mut Cx<'_>, digits: Vec<u16>, grouping: &Grouping) -> Result<Vec<u16>> {
    let len = digits.len();
    // Where the separators go, as distances from the right end of `digits`, in the order
    // they are inserted at the same place.
    let mut at: Vec<(usize, u32)> = match grouping {
        Grouping::Regular { every, separator } => (1..=len.saturating_sub(1) / every)
            .map(|i| (i * every, *separator))
            .collect(),
        Grouping::Irregular(separators) => {
            if separators.iter().any(|(position, _)| *position > len) {
                return group_by_insertion(cx, digits, separators);
            }
            separators.iter().rev().copied().collect()
        }
    };
    reserve(cx, len + 2 * at.len())?;
    // Farthest from the end first; insertion order kept among equals.
    at.sort_by_key(|&(distance, _)| std::cmp::Reverse(distance));
    let mut out = Vec::with_capacity(len + at.len());
    let mut next = at.iter().peekable();
    for (i, &unit) in digits.iter().enumerate() {
        pace(cx, i, len)?;
        while let Some(&(_, separator)) = next.next_if(|(distance, _)| *distance == len - i) {
            push_code_point(&mut out, separator);
        }
        out.push(unit);
    }
    for &(_, separator) in next {
        push_code_point(&mut out, separator);
    }
    Ok(out)
}

/// Irregular separators inserted literally one by one, for when one lies beyond the digits
/// and JavaScript's `substr` with a negative offset decides what happens.
fn group_by_insertion(cx: &mut Cx<'_>, digits: Vec<u16>, separators: &[(usize, u32)]) -> Result<Vec<u16>> {
    reserve(cx, digits.len() + 2 * separators.len())?;
    let mut text = digits;
    for &(position, separator) in separators.iter().rev() {
        // Each insertion copies the text.
        cx.steps(text.len() as u64)?;
        let start = text.len() as i64 - position as i64;
        let mut unit = Vec::with_capacity(2);
        push_code_point(&mut unit, separator);
        text = insert_at(&text, start, &unit);
    }
    Ok(text)
}

/// Spreadsheet column letters: 1 is `a`, 26 `z`, 27 `aa`; nothing for zero (or NaN).
fn letters(cx: &mut Cx<'_>, value: f64, a: u16) -> Result<Vec<u16>> {
    let mut out = Vec::new();
    let mut value = value;
    // Each letter divides by 26, so a double runs out of them within a few hundred.
    while value > 0.0 {
        cx.step()?;
        let offset = ((value - 1.0) % 26.0) as u16;
        out.push(a.wrapping_add(offset));
        value = ((value - 1.0) / 26.0).floor();
    }
    out.reverse();
    Ok(out)
}

/// Roman numerals, greedily, lower case: a thousand is `m`, however many of them it takes.
fn roman(cx: &mut Cx<'_>, value: f64) -> Result<Vec<u16>> {
    /// Each numeral and its value, largest first.
    const NUMERALS: [(f64, &str); 13] = [
        (1000.0, "m"),
        (900.0, "cm"),
        (500.0, "d"),
        (400.0, "cd"),
        (100.0, "c"),
        (90.0, "xc"),
        (50.0, "l"),
        (40.0, "xl"),
        (10.0, "x"),
        (9.0, "ix"),
        (5.0, "v"),
        (4.0, "iv"),
        (1.0, "i"),
    ];
    if !value.is_finite() {
        return Ok(Vec::new());
    }
    let thousands = (value / 1000.0).floor();
    reserve(cx, (thousands as usize).saturating_add(16))?;
    let mut out = vec![0x6D; thousands as usize];
    let mut rest = value - thousands * 1000.0;
    for (amount, text) in NUMERALS {
        while rest >= amount {
            out.extend(text.encode_utf16());
            rest -= amount;
        }
    }
    Ok(out)
}

/// Cardinal numbers in words.
const FEW: [&str; 20] = [
    "Zero",
    "One",
    "Two",
    "Three",
    "Four",
    "Five",
    "Six",
    "Seven",
    "Eight",
    "Nine",
    "Ten",
    "Eleven",
    "Twelve",
    "Thirteen",
    "Fourteen",
    "Fifteen",
    "Sixteen",
    "Seventeen",
    "Eighteen",
    "Nineteen",
];

/// Ordinal numbers in words.
const ORDINALS: [&str; 20] = [
    "Zeroth",
    "First",
    "Second",
    "Third",
    "Fourth",
    "Fifth",
    "Sixth",
    "Seventh",
    "Eighth",
    "Ninth",
    "Tenth",
    "Eleventh",
    "Twelfth",
    "Thirteenth",
    "Fourteenth",
    "Fifteenth",
    "Sixteenth",
    "Seventeenth",
    "Eighteenth",
    "Nineteenth",
];

/// Tens from twenty, then a hundred.
const DECADES: [&str; 9] = [
    "Twenty", "Thirty", "Forty", "Fifty", "Sixty", "Seventy", "Eighty", "Ninety", "Hundred",
];

/// Powers of a thousand; above the largest, the largest repeats (`Thousand Trillion`).
const MAGNITUDES: [&str; 4] = ["Thousand", "Million", "Billion", "Trillion"];

/// A finite non-negative integer in English words, title case: `Three Thousand, Seven Hundred
/// and Thirty-First`.
pub(in crate::functions) fn number_to_words(value: f64, ordinal: bool) -> String {
    let mut out = String::new();
    words(value, false, ordinal, &mut out);
    out
}

/// Appends `num` in words; `prev` says that words come before it in the same number (so it
/// takes `and` or a comma). Each level at least divides by a thousand, so the depth is bounded
/// by a double's range.
fn words(num: f64, prev: bool, ordinal: bool, out: &mut String) {
    let pick = |table: &[&'static str], i: f64| table.get(i as usize).copied().unwrap_or("");
    if num <= 19.0 {
        if prev {
            out.push_str(" and ");
        }
        out.push_str(pick(if ordinal { &ORDINALS } else { &FEW }, num));
    } else if num < 100.0 {
        if prev {
            out.push_str(" and ");
        }
        let decade = pick(&DECADES, (num / 10.0).floor() - 2.0);
        let remainder = num % 10.0;
        if remainder > 0.0 {
            out.push_str(decade);
            out.push('-');
            words(remainder, false, ordinal, out);
        } else if ordinal {
            out.push_str(&decade[..decade.len().saturating_sub(1)]);
            out.push_str("ieth");
        } else {
            out.push_str(decade);
        }
    } else if num < 1000.0 {
        if prev {
            out.push_str(", ");
        }
        out.push_str(pick(&FEW, (num / 100.0).floor()));
        out.push_str(" Hundred");
        let remainder = num % 100.0;
        if remainder > 0.0 {
            words(remainder, true, ordinal, out);
        } else if ordinal {
            out.push_str("th");
        }
    } else {
        let magnitude = (fdlibm::log10(num) / 3.0).floor().min(MAGNITUDES.len() as f64);
        let factor = fdlibm::pow(10.0, magnitude * 3.0);
        let mantissa = (num / factor).floor();
        let remainder = num - mantissa * factor;
        if prev {
            out.push_str(", ");
        }
        words(mantissa, false, false, out);
        out.push(' ');
        out.push_str(pick(&MAGNITUDES, magnitude - 1.0));
        if remainder > 0.0 {
            words(remainder, true, ordinal, out);
        } else if ordinal {
            out.push_str("th");
        }
    }
}

/// Every number word, lower case, with its value, in the order jsonata-js lists them (the
/// order its word pattern tries them in).
static WORDS: LazyLock<Vec<(String, f64)>> = LazyLock::new(|| {
    let mut words: Vec<(String, f64)> = Vec::new();
    for (i, word) in FEW.iter().chain(ORDINALS.iter()).enumerate() {
        words.push((word.to_ascii_lowercase(), (i % 20) as f64));
    }
    for (i, decade) in DECADES.iter().enumerate() {
        let value = ((i + 2) * 10) as f64;
        words.push((decade.to_ascii_lowercase(), value));
        words.push((
            format!("{}ieth", &decade[..decade.len() - 1]).to_ascii_lowercase(),
            value,
        ));
    }
    words.push(("hundredth".to_owned(), 100.0));
    for (i, magnitude) in MAGNITUDES.iter().enumerate() {
        let value = fdlibm::pow(10.0, ((i + 1) * 3) as f64);
        words.push((magnitude.to_ascii_lowercase(), value));
        words.push((format!("{magnitude}th").to_ascii_lowercase(), value));
    }
    words
});

/// The pattern of a number in words, upper case (see [`pattern`]).
static WORDS_PATTERN: LazyLock<String> = LazyLock::new(|| {
    let alternatives: Vec<String> = WORDS.iter().map(|(word, _)| word.to_ascii_uppercase()).collect();
    format!("(?:{}|AND|[\\-, ])+", alternatives.join("|"))
});

/// The value of one lower-case number word (cardinal or ordinal), NaN for anything else.
fn word_value(word: &[u16]) -> f64 {
    WORDS
        .iter()
        .find(|(w, _)| w.len() == word.len() && w.bytes().zip(word).all(|(a, &b)| u16::from(a) == b))
        .map_or(f64::NAN, |(_, value)| *value)
}

/// English words to a number: split at white space, hyphens, backslashes, `, ` and ` and `;
/// small values add within a group, larger ones multiply it. NaN if a word is unknown.
fn words_to_number(cx: &mut Cx<'_>, text: &[u16]) -> Result<f64> {
    cx.steps(text.len() as u64)?;
    let text = ascii_lower(text);
    let is_space = |i: usize| text.get(i).is_some_and(|&u| js::is_space(u));
    let mut parts: Vec<&[u16]> = Vec::new();
    let (mut start, mut i) = (0, 0);
    while i < text.len() {
        let separator = if text.get(i) == Some(&0x2C) && is_space(i + 1) {
            2
        } else if is_space(i) && text.get(i + 1..i + 4) == Some(&[0x61, 0x6E, 0x64]) && is_space(i + 4) {
            5
        } else if is_space(i) || text.get(i) == Some(&0x5C) || text.get(i) == Some(&0x2D) {
            1
        } else {
            i += 1;
            continue;
        };
        parts.push(&text[start..i]);
        i += separator;
        start = i;
    }
    parts.push(&text[start..]);
    let mut groups: Vec<f64> = vec![0.0];
    for part in parts {
        let value = word_value(part);
        let top = groups.pop().unwrap_or(0.0);
        if value < 100.0 {
            if top >= 1000.0 {
                groups.push(top);
                groups.push(value);
            } else {
                groups.push(top + value);
            }
        } else {
            groups.push(top * value);
        }
    }
    Ok(groups.iter().fold(0.0, |sum, v| sum + v))
}

/// Parses `text` as a number written with `format` (`$parseInteger`, and the integer
/// components of `$toMillis` pictures). Nothing is validated first: what does not fit gives
/// NaN, or a prefix's value, as in jsonata-js.
pub(in crate::functions) fn parse(cx: &mut Cx<'_>, text: &[u16], format: &IntegerFormat) -> Result<f64> {
    cx.steps(text.len() as u64)?;
    match &format.primary {
        Primary::Letters => {
            let a = if format.case == Case::Upper { 0x41 } else { 0x61 };
            let mut value = 0.0;
            for (i, &unit) in text.iter().rev().enumerate() {
                pace(cx, i, text.len())?;
                value += (f64::from(unit) - f64::from(a) + 1.0) * fdlibm::pow(26.0, i as f64);
            }
            Ok(value)
        }
        Primary::Roman => Ok(roman_value(text, format.case == Case::Upper)),
        Primary::Words => words_to_number(cx, text),
        Primary::Decimal { zero, grouping } => {
            let mut digits = if format.ordinal {
                &text[..text.len().saturating_sub(2)]
            } else {
                text
            }
            .to_vec();
            match grouping {
                Grouping::Regular { .. } => digits = replace_all(&digits, &[0x2C], &[]),
                Grouping::Irregular(separators) => digits = remove_separators(cx, digits, separators)?,
            }
            if *zero != 0x30 {
                let mut shifted = Vec::with_capacity(digits.len());
                for (i, &unit) in digits.iter().enumerate() {
                    pace(cx, i, digits.len())?;
                    let Some(cp) = (u32::from(unit) + 0x30).checked_sub(*zero) else {
                        return Err(native_error(cx, "Invalid code point"));
                    };
                    push_code_point(&mut shifted, cp);
                }
                digits = shifted;
            }
            Ok(parse_int(&digits))
        }
        Primary::Sequence(token) => Err(Error::new(Code::D3130).with_value(json_text(token)).at(cx.position)),
    }
}

/// `text` without any of the separators, each removed in turn as jsonata-js does; in one pass
/// when they are all single units that are not surrogates (removing one cannot then make
/// another).
fn remove_separators(cx: &mut Cx<'_>, text: Vec<u16>, separators: &[(usize, u32)]) -> Result<Vec<u16>> {
    let single = |cp: u32| u16::try_from(cp).ok().filter(|u| !(0xD800..0xE000).contains(u));
    if separators.iter().all(|&(_, cp)| single(cp).is_some()) {
        let mut removed = separators
            .iter()
            .filter_map(|&(_, cp)| single(cp))
            .collect::<Vec<u16>>();
        removed.sort_unstable();
        let mut out = Vec::with_capacity(text.len());
        for (i, &unit) in text.iter().enumerate() {
            pace(cx, i, text.len())?;
            if removed.binary_search(&unit).is_err() {
                out.push(unit);
            }
        }
        return Ok(out);
    }
    let mut text = text;
    for &(_, cp) in separators {
        cx.steps(text.len() as u64)?;
        let mut separator = Vec::with_capacity(2);
        push_code_point(&mut separator, cp);
        text = replace_all(&text, &separator, &[]);
    }
    Ok(text)
}

/// Roman numerals to a number (a smaller numeral before a larger one subtracts); NaN if any
/// character is not a numeral. Lower case is upper-cased first, dotless `ı` included.
fn roman_value(text: &[u16], upper: bool) -> f64 {
    let mut total = 0.0;
    let mut max = 1.0;
    for &unit in text.iter().rev() {
        let unit = match unit {
            0x61..=0x7A if !upper => unit - 0x20,
            0x131 if !upper => 0x49,
            _ => unit,
        };
        let value = match unit {
            0x4D => 1000.0,
            0x44 => 500.0,
            0x43 => 100.0,
            0x4C => 50.0,
            0x58 => 10.0,
            0x56 => 5.0,
            0x49 => 1.0,
            _ => return f64::NAN,
        };
        if value < max {
            total -= value;
        } else {
            max = value;
            total += value;
        }
    }
    total
}

/// The regular expression (in the `regex` crate's syntax, over text upper-cased as a
/// case-insensitive JavaScript pattern compares it) that a date component in this format
/// matches when `$toMillis` reads a picture.
pub(in crate::functions) fn pattern(cx: &Cx<'_>, format: &IntegerFormat) -> Result<String> {
    Ok(match &format.primary {
        Primary::Letters => "[A-Z]+".to_owned(),
        Primary::Roman => "[MDCLXVI]+".to_owned(),
        Primary::Words => WORDS_PATTERN.clone(),
        Primary::Decimal { .. } => {
            let mut pattern = "[0-9]".to_owned();
            match format.parse_width {
                Some(width) if width != 0.0 && !width.is_nan() => {
                    pattern.push_str(&format!("{{{}}}", writ_core::js_number_to_string(width)));
                }
                _ => pattern.push('+'),
            }
            if format.ordinal {
                pattern.push_str("(?:TH|ST|ND|RD)");
            }
            pattern
        }
        Primary::Sequence(token) => return Err(Error::new(Code::D3130).with_value(json_text(token)).at(cx.position)),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_in_english() {
        assert_eq!(number_to_words(0.0, false), "Zero");
        assert_eq!(number_to_words(0.0, true), "Zeroth");
        assert_eq!(number_to_words(20.0, true), "Twentieth");
        assert_eq!(number_to_words(555.0, false), "Five Hundred and Fifty-Five");
        assert_eq!(
            number_to_words(3731.0, true),
            "Three Thousand, Seven Hundred and Thirty-First"
        );
        assert_eq!(number_to_words(1e15, false), "One Thousand Trillion");
        assert_eq!(number_to_words(1e46, false), "Ten Billion Trillion Trillion Trillion");
        assert_eq!(number_to_words(1_000_000_000_001.0, true), "One Trillion and First");
        assert_eq!(
            number_to_words(999_999_999_999_999_999.0, false),
            "One Million Trillion"
        );
    }

    #[test]
    fn word_values() {
        let v = |s: &str| word_value(&units(s));
        assert_eq!(v("seventeen"), 17.0);
        assert_eq!(v("seventeenth"), 17.0);
        assert_eq!(v("thirtieth"), 30.0);
        assert_eq!(v("hundreieth"), 100.0);
        assert_eq!(v("hundredth"), 100.0);
        assert_eq!(v("trillionth"), 1e12);
        assert!(v("").is_nan());
        assert_eq!(WORDS[40].0, "twenty");
        assert_eq!(WORDS[41].0, "twentieth");
        assert!(WORDS_PATTERN.starts_with("(?:ZERO|ONE|TWO|"));
        assert!(WORDS_PATTERN.ends_with("|TRILLION|TRILLIONTH|AND|[\\-, ])+"));
    }

    #[test]
    fn roman_values() {
        let r = |s: &str, upper| roman_value(&units(s), upper);
        assert_eq!(r("MCMLXXXIV", true), 1984.0);
        assert_eq!(r("xcix", false), 99.0);
        assert_eq!(r("ı", false), 1.0);
        assert_eq!(r("", true), 0.0);
        assert!(r("xcix", true).is_nan());
        assert!(r("xyz", false).is_nan());
    }

    #[test]
    fn regular_intervals() {
        assert_eq!(regular_positions(&[3, 6, 9]), Some(3));
        assert_eq!(regular_positions(&[3, 6]), Some(3));
        assert_eq!(regular_positions(&[3, 5]), None);
        assert_eq!(regular_positions(&[6]), Some(6));
        assert_eq!(regular_positions(&[0]), None);
        assert_eq!(regular_positions(&[]), None);
        let sep = |p: usize, c: char| (p, u32::from(c));
        assert_eq!(regular_interval(&[sep(3, ','), sep(6, ':')]), None);
        assert_eq!(regular_interval(&[sep(2, ':')]), Some(2));
    }
}
