//! `$formatNumber`: XPath F&O 4.7 decimal picture strings, with the decimal-format properties
//! an options object may override, validated (D3080–D3093) and applied exactly as jsonata-js
//! does, its quirks included (a sub-picture without a decimal separator takes its suffix as
//! the fractional part, positions found in one part are searched for in another, and so on).

use super::jsnum::{native_error, pace, reserve, round_half_even};
use super::picture::regular_positions;
use super::text::{char_at, contains, index_of, last_index_of, replace_first, slice, split, substring, units};
use crate::error::{Code, Error, Result};
use std::cell::RefCell;
use std::rc::Rc;

use crate::eval::Cx;
use crate::value::Val;

/// The decimal-format properties.
struct Properties {
    /// `decimal-separator`.
    decimal: Vec<u16>,
    /// `grouping-separator`.
    grouping: Vec<u16>,
    /// `exponent-separator`.
    exponent: Vec<u16>,
    /// `minus-sign`.
    minus: Vec<u16>,
    /// `percent`.
    percent: Vec<u16>,
    /// `per-mille`.
    per_mille: Vec<u16>,
    /// `zero-digit`.
    zero: Vec<u16>,
    /// `digit`: the optional digit sign.
    digit: Vec<u16>,
    /// `pattern-separator`.
    pattern: Vec<u16>,
    /// The ten digits counting up from the zero digit's first unit (none if it is empty).
    family: Vec<u16>,
}

impl Properties {
    /// The defaults, overridden by the entries of `options`.
    fn new(cx: &Cx<'_>, options: &Val) -> Result<Properties> {
        let mut properties = Properties {
            decimal: units("."),
            grouping: units(","),
            exponent: units("e"),
            minus: units("-"),
            percent: units("%"),
            per_mille: units("\u{2030}"),
            zero: units("0"),
            digit: units("#"),
            pattern: units(";"),
            family: Vec::new(),
        };
        if let Some(entries) = options.as_object() {
            for (key, value) in entries.entries() {
                let slot = match key.to_string_lossy().as_ref() {
                    "decimal-separator" => &mut properties.decimal,
                    "grouping-separator" => &mut properties.grouping,
                    "exponent-separator" => &mut properties.exponent,
                    "minus-sign" => &mut properties.minus,
                    "percent" => &mut properties.percent,
                    "per-mille" => &mut properties.per_mille,
                    "zero-digit" => &mut properties.zero,
                    "digit" => &mut properties.digit,
                    "pattern-separator" => &mut properties.pattern,
                    _ => continue,
                };
                let Some(text) = value.as_str() else {
                    return Err(native_error(
                        cx,
                        "the properties of the options of $formatNumber must be strings",
                    ));
                };
                *slot = text.to_utf16();
            }
        }
        if let Some(&zero) = properties.zero.first() {
            properties.family = (0..10).map(|i| zero.wrapping_add(i)).collect();
        }
        Ok(properties)
    }

    /// Whether `unit` is a digit of the family.
    fn is_family(&self, unit: u16) -> bool {
        self.family.contains(&unit)
    }

    /// Whether `unit` is the optional digit sign.
    fn is_digit_sign(&self, unit: u16) -> bool {
        self.digit.as_slice() == [unit]
    }

    /// Whether `unit` is an active character: a digit, a separator or the optional digit
    /// sign (a property of several units is never one character).
    fn is_active(&self, unit: u16) -> bool {
        self.is_family(unit)
            || [
                &self.decimal,
                &self.exponent,
                &self.grouping,
                &self.digit,
                &self.pattern,
            ]
            .iter()
            .any(|s| s.as_slice() == [unit])
    }

    /// How many units of `part` are digits of the family.
    fn count_family(&self, part: &[u16]) -> usize {
        part.iter().filter(|&&u| self.is_family(u)).count()
    }

    /// How many units of `part` are digits or optional digit signs.
    fn count_digits(&self, part: &[u16]) -> usize {
        part.iter()
            .filter(|&&u| self.is_family(u) || self.is_digit_sign(u))
            .count()
    }
}

/// A sub-picture cut into its parts.
struct Parts {
    /// Passive characters before the first active one.
    prefix: Vec<u16>,
    /// Passive characters after the last active one.
    suffix: Vec<u16>,
    /// What lies between.
    active: Vec<u16>,
    /// The active part before the exponent separator.
    mantissa: Vec<u16>,
    /// The active part after the exponent separator, if there is one.
    exponent: Option<Vec<u16>>,
    /// The mantissa before the decimal separator.
    integer: Vec<u16>,
    /// The mantissa after the decimal separator (or the suffix, when there is none).
    fractional: Vec<u16>,
    /// The whole sub-picture.
    picture: Vec<u16>,
}

impl Parts {
    /// Cuts `picture` into its parts.
    fn new(p: &Properties, picture: &[u16]) -> Parts {
        let len = picture.len();
        let marks = |i: &usize| {
            let unit = picture[*i];
            p.is_active(unit) && p.exponent.as_slice() != [unit]
        };
        let prefix_len = (0..len).find(marks).unwrap_or(0);
        let suffix_start = (0..len).rev().find(marks).map_or(len, |i| i + 1);
        let prefix = picture[..prefix_len].to_vec();
        let suffix = picture[suffix_start..].to_vec();
        let active = substring(picture, prefix_len as i64, suffix_start as i64).to_vec();
        let (mantissa, exponent) = match index_of(picture, &p.exponent, prefix_len) {
            Some(at) if at <= suffix_start => (
                substring(&active, 0, at as i64).to_vec(),
                Some(substring(&active, at as i64 + 1, active.len() as i64).to_vec()),
            ),
            _ => (active.clone(), None),
        };
        let (integer, fractional) = match index_of(&mantissa, &p.decimal, 0) {
            None => (mantissa.clone(), suffix.clone()),
            Some(at) => (
                substring(&mantissa, 0, at as i64).to_vec(),
                substring(&mantissa, at as i64 + 1, mantissa.len() as i64).to_vec(),
            ),
        };
        Parts {
            prefix,
            suffix,
            active,
            mantissa,
            exponent,
            integer,
            fractional,
            picture: picture.to_vec(),
        }
    }

    /// The error of the last rule of F&O 4.7.3 the sub-picture breaks, if any.
    fn validate(&self, cx: &mut Cx<'_>, p: &Properties) -> Result<Option<Code>> {
        let mut error = None;
        let picture = &self.picture;
        // Each rule reads the sub-picture once or twice: charged rule by rule, so that the
        // clock is read between them.
        let pass = picture.len() as u64 * 2;
        cx.steps(pass)?;
        let decimal_at = index_of(picture, &p.decimal, 0);
        if decimal_at != last_index_of(picture, &p.decimal) {
            error = Some(Code::D3081);
        }
        cx.steps(pass)?;
        if index_of(picture, &p.percent, 0) != last_index_of(picture, &p.percent) {
            error = Some(Code::D3082);
        }
        cx.steps(pass)?;
        if index_of(picture, &p.per_mille, 0) != last_index_of(picture, &p.per_mille) {
            error = Some(Code::D3083);
        }
        cx.steps(pass)?;
        let has_percent = contains(picture, &p.percent);
        let has_per_mille = contains(picture, &p.per_mille);
        if has_percent && has_per_mille {
            error = Some(Code::D3084);
        }
        cx.steps(pass)?;
        if !self.mantissa.iter().any(|&u| p.is_family(u) || p.is_digit_sign(u)) {
            error = Some(Code::D3085);
        }
        cx.steps(pass)?;
        if self.active.iter().any(|&u| !p.is_active(u)) {
            error = Some(Code::D3086);
        }
        match decimal_at {
            Some(at) => {
                let at = at as i64;
                if char_at(picture, at - 1) == p.grouping.as_slice()
                    || char_at(picture, at + 1) == p.grouping.as_slice()
                {
                    error = Some(Code::D3087);
                }
            }
            None => {
                if char_at(&self.integer, self.integer.len() as i64 - 1) == p.grouping.as_slice() {
                    error = Some(Code::D3088);
                }
            }
        }
        cx.steps(pass)?;
        if contains(picture, &[p.grouping.as_slice(), p.grouping.as_slice()].concat()) {
            error = Some(Code::D3089);
        }
        cx.steps(pass)?;
        if let Some(at) = index_of(&self.integer, &p.digit, 0)
            && p.count_family(&self.integer[..at]) > 0
        {
            error = Some(Code::D3090);
        }
        cx.steps(pass)?;
        if let Some(at) = last_index_of(&self.fractional, &p.digit)
            && p.count_family(self.fractional.get(at..).unwrap_or(&[])) > 0
        {
            error = Some(Code::D3091);
        }
        cx.steps(pass)?;
        if let Some(exponent) = &self.exponent {
            if !exponent.is_empty() && (has_percent || has_per_mille) {
                error = Some(Code::D3092);
            }
            if exponent.is_empty() || exponent.iter().any(|&u| !p.is_family(u)) {
                error = Some(Code::D3093);
            }
        }
        Ok(error)
    }
}

/// A sub-picture analysed (F&O 4.7.4).
#[derive(Clone)]
struct Analysis {
    /// Digits to the right of each grouping separator of the integer part, left to right.
    integer_grouping: Vec<usize>,
    /// Their common interval, when they are regular.
    regular: Option<usize>,
    /// The fewest integer digits to write.
    min_integer: usize,
    /// The integer digits of the mantissa when there is an exponent.
    scaling: usize,
    /// Written before the number.
    prefix: Vec<u16>,
    /// Digits to the left of each grouping separator of the fractional part.
    fractional_grouping: Vec<usize>,
    /// The fewest fractional digits to write.
    min_fraction: usize,
    /// The most fractional digits to write.
    max_fraction: usize,
    /// The fewest exponent digits to write, 0 when there is no exponent.
    min_exponent: usize,
    /// Written after the number.
    suffix: Vec<u16>,
    /// The sub-picture.
    picture: Vec<u16>,
}

impl Analysis {
    /// Analyses validated parts.
    fn new(cx: &mut Cx<'_>, p: &Properties, parts: &Parts) -> Result<Analysis> {
        cx.steps(parts.picture.len() as u64 * 2)?;
        let integer_grouping = grouping_positions(cx, p, &parts.integer, &parts.integer, false)?;
        let regular = regular_positions(&integer_grouping);
        let fractional_grouping = grouping_positions(cx, p, &parts.fractional, &parts.integer, true)?;
        let mut min_integer = p.count_family(&parts.integer);
        let scaling = min_integer;
        let mut min_fraction = p.count_family(&parts.fractional);
        let mut max_fraction = p.count_digits(&parts.fractional);
        let exponent_present = parts.exponent.is_some();
        if min_integer == 0 && max_fraction == 0 {
            if exponent_present {
                min_fraction = 1;
                max_fraction = 1;
            } else {
                min_integer = 1;
            }
        }
        if exponent_present && min_integer == 0 && contains(&parts.integer, &p.digit) {
            min_integer = 1;
        }
        if min_integer == 0 && min_fraction == 0 {
            min_fraction = 1;
        }
        let min_exponent = parts.exponent.as_deref().map_or(0, |e| p.count_family(e));
        Ok(Analysis {
            integer_grouping,
            regular,
            min_integer,
            scaling,
            prefix: parts.prefix.clone(),
            fractional_grouping,
            min_fraction,
            max_fraction,
            min_exponent,
            suffix: parts.suffix.clone(),
            picture: parts.picture.clone(),
        })
    }
}

/// For each grouping separator of `part`, the digits (and optional digit signs) of `part` to
/// its right (or, with `to_left`, its left). As in jsonata-js, each separator after the first
/// is looked for in the integer part, whichever part is being measured.
fn grouping_positions(
    cx: &mut Cx<'_>,
    p: &Properties,
    part: &[u16],
    integer: &[u16],
    to_left: bool,
) -> Result<Vec<usize>> {
    cx.steps((part.len() + integer.len()) as u64)?;
    let mut before = Vec::with_capacity(part.len() + 1);
    before.push(0);
    for &unit in part {
        let counted = p.is_family(unit) || p.is_digit_sign(unit);
        before.push(before.last().copied().unwrap_or(0) + usize::from(counted));
    }
    let total = before.last().copied().unwrap_or(0);
    let mut positions = Vec::new();
    let mut at = index_of(part, &p.grouping, 0);
    while let Some(found) = at {
        let left = before.get(found).copied().unwrap_or(total);
        positions.push(if to_left { left } else { total - left });
        // An empty separator would be found at the same place for ever (validation rules it
        // out, D3089).
        if p.grouping.is_empty() {
            break;
        }
        at = index_of(integer, &p.grouping, found + 1);
    }
    Ok(positions)
}

/// `$formatNumber(value, picture, options)`.
/// The properties and the analysed sub-pictures of one picture, with no options.
type Prepared = Rc<(Properties, Vec<Analysis>)>;

thread_local! {
    /// The last picture used without options, analysed: `$formatNumber` is usually called
    /// with the same picture for every item of a sequence.
    static LAST_PICTURE: RefCell<Option<(Vec<u16>, Prepared)>> = const { RefCell::new(None) };
}

pub(super) fn format_number(cx: &mut Cx<'_>, value: f64, picture: &[u16], options: &Val) -> Result<Vec<u16>> {
    cx.steps(picture.len() as u64)?;
    let cached = options
        .is_undefined()
        .then(|| {
            LAST_PICTURE.with(|last| {
                last.borrow()
                    .as_ref()
                    .filter(|(seen, _)| seen.as_slice() == picture)
                    .map(|(_, prepared)| prepared.clone())
            })
        })
        .flatten();
    let prepared = match cached {
        Some(prepared) => {
            cx.steps(picture.len() as u64 * 4)?;
            prepared
        }
        None => {
            let prepared = Rc::new(prepare(cx, picture, options)?);
            if options.is_undefined() {
                LAST_PICTURE.with(|last| *last.borrow_mut() = Some((picture.to_vec(), prepared.clone())));
            }
            prepared
        }
    };
    let (p, analyses) = (&prepared.0, &prepared.1);
    format_prepared(cx, value, p, analyses)
}

/// Reads the options and analyses the picture's sub-pictures (positive, then negative).
fn prepare(cx: &mut Cx<'_>, picture: &[u16], options: &Val) -> Result<(Properties, Vec<Analysis>)> {
    let p = Properties::new(cx, options)?;
    let sub_pictures = split(picture, &p.pattern);
    if sub_pictures.len() > 2 {
        return Err(Error::new(Code::D3080).at(cx.position));
    }
    let mut parts = Vec::with_capacity(2);
    for sub in sub_pictures {
        cx.steps(sub.len() as u64 * 4)?;
        parts.push(Parts::new(&p, sub));
    }
    for part in &parts {
        if let Some(code) = part.validate(cx, &p)? {
            return Err(Error::new(code).at(cx.position));
        }
    }
    let mut analyses = Vec::with_capacity(2);
    for part in &parts {
        analyses.push(Analysis::new(cx, &p, part)?);
    }
    if analyses.len() == 1 {
        let mut negative = analyses[0].clone();
        negative.prefix = [p.minus.as_slice(), &negative.prefix].concat();
        analyses.push(negative);
    }
    Ok((p, analyses))
}

/// Formats `value` by an analysed picture.
fn format_prepared(cx: &mut Cx<'_>, value: f64, p: &Properties, analyses: &[Analysis]) -> Result<Vec<u16>> {
    let Some(pic) = analyses.get(if value >= 0.0 { 0 } else { 1 }) else {
        return Err(native_error(cx, "the picture of $formatNumber is empty"));
    };
    let adjusted = if contains(&pic.picture, &p.percent) {
        value * 100.0
    } else if contains(&pic.picture, &p.per_mille) {
        value * 1000.0
    } else {
        value
    };
    let (mantissa, exponent) = scale(cx, adjusted, pic)?;
    let rounded = round_half_even(mantissa, pic.max_fraction as f64);
    let mut text = digits(cx, p, rounded, pic.max_fraction)?;
    text = match index_of(&text, &[0x2E], 0) {
        Some(_) => replace_first(&text, &[0x2E], &p.decimal),
        None => [text.as_slice(), &p.decimal].concat(),
    };
    let zero = p.zero.as_slice();
    cx.steps(text.len() as u64)?;
    let leading = text.iter().take_while(|&&u| zero == [u]).count();
    text.drain(..leading);
    let trailing = text.iter().rev().take_while(|&&u| zero == [u]).count();
    text.truncate(text.len() - trailing);

    let decimal_at = position(index_of(&text, &p.decimal, 0));
    let pad_left = pic.min_integer as i64 - decimal_at;
    let pad_right = pic.min_fraction as i64 - (text.len() as i64 - decimal_at - 1);
    let pad = |n: i64| if n > 0 { n as usize } else { 0 };
    reserve(
        cx,
        (pad(pad_left) + pad(pad_right))
            .saturating_mul(zero.len())
            .saturating_add(text.len()),
    )?;
    text = [zero.repeat(pad(pad_left)), text, zero.repeat(pad(pad_right))].concat();

    let mut decimal_at = position(index_of(&text, &p.decimal, 0));
    let separators = pic.regular.map_or(pic.integer_grouping.len(), |_| text.len()) + pic.fractional_grouping.len();
    reserve(
        cx,
        text.len().saturating_add(separators.saturating_mul(p.grouping.len())),
    )?;
    match pic.regular {
        Some(every) => {
            // Before each unit a multiple of `every` to the left of the decimal separator, but
            // not before the first.
            let every = every as i64;
            let mut grouped = Vec::with_capacity(text.len());
            for (i, &unit) in text.iter().enumerate() {
                pace(cx, i, text.len())?;
                let to_point = decimal_at - i as i64;
                if i > 0 && to_point >= every && to_point % every == 0 {
                    grouped.extend_from_slice(&p.grouping);
                }
                grouped.push(unit);
            }
            text = grouped;
        }
        None => {
            for &at in &pic.integer_grouping {
                // Each insertion copies the text.
                cx.steps(text.len() as u64)?;
                text = join(&text, decimal_at - at as i64, &p.grouping);
                decimal_at += 1;
            }
        }
    }
    let decimal_at = position(index_of(&text, &p.decimal, 0));
    for &at in &pic.fractional_grouping {
        cx.steps(text.len() as u64)?;
        text = join(&text, at as i64 + decimal_at + 1, &p.grouping);
    }
    let decimal_at = position(index_of(&text, &p.decimal, 0));
    if !contains(&pic.picture, &p.decimal) || decimal_at == text.len() as i64 - 1 {
        text = substring(&text, 0, text.len() as i64 - 1).to_vec();
    }
    if let Some(exponent) = exponent {
        let mut digits = digits(cx, p, exponent, 0)?;
        let pad_left = pad(pic.min_exponent as i64 - digits.len() as i64);
        reserve(cx, pad_left.saturating_mul(zero.len()))?;
        digits = [zero.repeat(pad_left), digits].concat();
        text.extend_from_slice(&p.exponent);
        if exponent < 0.0 {
            text.extend_from_slice(&p.minus);
        }
        text.extend_from_slice(&digits);
    }
    let out = [pic.prefix.as_slice(), &text, &pic.suffix].concat();
    reserve(cx, out.len())?;
    Ok(out)
}

/// `indexOf`'s answer as a number, -1 for none.
fn position(found: Option<usize>) -> i64 {
    found.map_or(-1, |at| at as i64)
}

/// `text.slice(0, at) + insert + text.slice(at)`.
fn join(text: &[u16], at: i64, insert: &[u16]) -> Vec<u16> {
    [slice(text, 0, at), insert, slice(text, at, text.len() as i64)].concat()
}

/// The mantissa and exponent of `value` for a picture with an exponent: the mantissa brought
/// between `10^(scaling-1)` and `10^scaling` by steps of ten.
fn scale(cx: &mut Cx<'_>, value: f64, pic: &Analysis) -> Result<(f64, Option<f64>)> {
    if pic.min_exponent == 0 {
        return Ok((value, None));
    }
    let max = super::fdlibm::pow(10.0, pic.scaling as f64);
    let min = super::fdlibm::pow(10.0, pic.scaling as f64 - 1.0);
    let (mut mantissa, mut exponent) = (value, 0.0);
    if mantissa != 0.0 {
        // Each step moves a decimal place, so a double's range bounds the walk (~650 steps).
        while mantissa.abs() < min {
            cx.step()?;
            mantissa *= 10.0;
            exponent -= 1.0;
        }
        while mantissa.abs() > max {
            cx.step()?;
            mantissa /= 10.0;
            exponent += 1.0;
        }
    }
    Ok((mantissa, Some(exponent)))
}

/// `Math.abs(value).toFixed(places)` with its digits moved into the digit family.
fn digits(cx: &mut Cx<'_>, p: &Properties, value: f64, places: usize) -> Result<Vec<u16>> {
    if places > 100 {
        return Err(native_error(cx, "toFixed() digits argument must be between 0 and 100"));
    }
    let fixed = writ_core::js::to_fixed(value.abs(), places as u32);
    reserve(cx, fixed.len())?;
    if p.zero == units("0") {
        return Ok(units(&fixed));
    }
    let mut out = Vec::with_capacity(fixed.len());
    for byte in fixed.bytes() {
        if byte.is_ascii_digit() {
            out.extend(p.family.get(usize::from(byte - b'0')));
        } else {
            out.push(u16::from(byte));
        }
    }
    Ok(out)
}
