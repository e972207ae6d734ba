//! `$toMillis`: reading a timestamp, either ISO 8601 (checked against jsonata-js's pattern,
//! then read as V8's `Date.parse` reads it, by [`writ_core::date`]) or by a picture, from which
//! a regular expression is built as jsonata-js builds it, and matched case-insensitively in
//! JavaScript's manner.

use std::cell::RefCell;
use std::sync::LazyLock;

use regex::{Regex, RegexBuilder};
use writ_core::date::{MONTH_NAMES, MS_PER_DAY, UtcFields, parse_date_utf16, time_clip, utc};

use super::picture::{DAYS, Marker, Part, analyse, component_value, month_start};
use crate::error::{Code, Error, Result};
use crate::eval::Cx;
use crate::functions::number::jsnum::parse_int;
use crate::functions::number::picture::{self as integer, Grouping, IntegerFormat, Primary};
use crate::functions::number::text::{index_of, push_code_point, substring, units};

/// What jsonata-js accepts as an ISO 8601 timestamp when no picture is given.
static ISO_8601: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^[0-9]{4}(-[01][0-9])?(-[0-3][0-9])?(T[0-2][0-9]:[0-5][0-9]:[0-5][0-9])?(\.[0-9]+)?([+-][0-2][0-9]:?[0-5][0-9]|Z)?$")
        .expect("the ISO 8601 pattern compiles")
});

/// The most a picture's regular expression may take once compiled (a few dozen components
/// written in words; a typical picture takes a few kilobytes).
const PATTERN_SIZE_LIMIT: usize = 1 << 20;

/// The longest regular expression a picture may make (hundreds of components written in
/// words): parsing a longer one would take time and memory before its size could be refused.
const MAX_PATTERN_LEN: usize = 1 << 18;

/// The most matching work (a pattern byte against a text unit) one `$toMillis` may do: the
/// search cannot be interrupted, so this bounds how long it runs (some milliseconds) whatever
/// the limits. Real pictures over real timestamps need a few thousand.
const MAX_MATCH_UNITS: u64 = 1 << 21;

/// Units of matching work charged as one step.
const MATCH_UNITS_PER_STEP: u64 = 4;

/// The longest pattern kept compiled for the next call.
const CACHED_PATTERN_LEN: usize = 4096;

/// How many compiled patterns each thread keeps.
const CACHED_PATTERNS: usize = 16;

thread_local! {
    /// Patterns compiled lately, most recent last: a picture is usually read many times over.
    static COMPILED: RefCell<Vec<(String, Regex)>> = const { RefCell::new(Vec::new()) };
}

/// `pattern` compiled, from the cache when it was lately; `None` when it compiles too large.
fn compile(pattern: &str) -> Option<Regex> {
    COMPILED.with_borrow_mut(|cache| {
        if let Some(at) = cache.iter().position(|(p, _)| p == pattern) {
            let entry = cache.remove(at);
            let regex = entry.1.clone();
            cache.push(entry);
            return Some(regex);
        }
        let regex = RegexBuilder::new(pattern)
            .size_limit(PATTERN_SIZE_LIMIT)
            .dfa_size_limit(PATTERN_SIZE_LIMIT)
            .build()
            .ok()?;
        if pattern.len() <= CACHED_PATTERN_LEN {
            if cache.len() >= CACHED_PATTERNS {
                cache.remove(0);
            }
            cache.push((pattern.to_owned(), regex.clone()));
        }
        Some(regex)
    })
}

/// `$toMillis(timestamp)`: D3110 unless `timestamp` has the ISO 8601 form; NaN for a date in
/// that form that does not exist (as `Date.parse` gives).
pub(super) fn parse_iso(cx: &mut Cx<'_>, timestamp: &[u16]) -> Result<f64> {
    cx.steps(timestamp.len() as u64)?;
    let text = String::from_utf16_lossy(timestamp);
    if !ISO_8601.is_match(&text) {
        let mut value = String::new();
        writ_core::write_json_string(&writ_core::Str::from_utf16(timestamp), &mut value);
        return Err(Error::new(Code::D3110).with_value(value).at(cx.position));
    }
    Ok(parse_date_utf16(timestamp).unwrap_or(f64::NAN))
}

/// How one part of a picture reads its text.
enum Reader {
    /// A literal: matched, not read.
    Literal,
    /// A zone offset, with `GMT` before it for `z`, and the separator of a regular picture.
    Zone { gmt: bool, separator: Option<Vec<u16>> },
    /// Fractional seconds: the first three digits.
    Fraction,
    /// An integer in a picture's format.
    Integer(IntegerFormat),
    /// A month, day or am/pm name.
    Name(Vec<(Vec<u16>, f64)>),
}

/// `$toMillis(timestamp, picture)`: the time `timestamp` gives, read by `picture`; `None` when
/// it does not match (or the picture has no components). Components left out are taken from
/// `now` before the first given one and are zero (or one) after the last; a gap between given
/// components is D3136.
pub(super) fn parse_with_picture(cx: &mut Cx<'_>, timestamp: &[u16], picture: &[u16], now: f64) -> Result<Option<f64>> {
    let parts = analyse(cx, picture)?;
    let mut pattern = String::from("^");
    let mut readers: Vec<(u16, Reader)> = Vec::with_capacity(parts.len());
    // The digits that fixed-width integers need: a text shorter than that cannot match, and
    // a very wide one would make a pattern too large to compile.
    let mut fixed_digits = 0.0;
    for part in &parts {
        let (component, regex, reader) = reader_for(cx, part)?;
        if let Reader::Integer(IntegerFormat {
            primary: Primary::Decimal { .. },
            parse_width: Some(width),
            ..
        }) = &reader
            && *width > 0.0
        {
            fixed_digits += width;
        }
        pattern.push('(');
        pattern.push_str(&regex);
        pattern.push(')');
        if pattern.len() > MAX_PATTERN_LEN {
            return Err(Error::new(Code::U1007)
                .with_value(MAX_PATTERN_LEN.to_string())
                .at(cx.position));
        }
        readers.push((component, reader));
    }
    if fixed_digits > timestamp.len() as f64 {
        return Ok(None);
    }
    pattern.push('$');
    // Compiling costs in proportion to the pattern, and matching with captures at worst to the
    // pattern times the text (a step being worth several units of either): both charged
    // before they run, as neither can be interrupted.
    let pattern_cost = pattern.len() as u64;
    let match_cost = pattern_cost.saturating_mul(timestamp.len() as u64 + 1);
    if match_cost > MAX_MATCH_UNITS {
        return Err(Error::new(Code::U1007)
            .with_value(MAX_MATCH_UNITS.to_string())
            .at(cx.position));
    }
    cx.steps(pattern_cost)?;
    cx.steps(match_cost / MATCH_UNITS_PER_STEP)?;
    let Some(regex) = compile(&pattern) else {
        return Err(Error::new(Code::U1007)
            .with_value(PATTERN_SIZE_LIMIT.to_string())
            .at(cx.position));
    };
    let canonical: Vec<u16> = timestamp.iter().map(|&u| canonicalize(u)).collect();
    let text = String::from_utf16_lossy(&canonical);
    let Some(captures) = regex.captures(&text) else {
        return Ok(None);
    };
    // Byte offsets in `text` to offsets in code units (a replaced lone surrogate is one unit).
    let mut unit_at = vec![0usize; text.len() + 1];
    let mut units_so_far = 0;
    for (byte, c) in text.char_indices() {
        unit_at[byte] = units_so_far;
        units_so_far += c.len_utf16();
    }
    unit_at[text.len()] = units_so_far;

    let mut components = Components::default();
    for (i, (component, reader)) in readers.iter().enumerate() {
        let Some(found) = captures.get(i + 1) else { continue };
        let value = &timestamp[unit_at[found.start()]..unit_at[found.end()]];
        let parsed = match reader {
            Reader::Literal => continue,
            Reader::Zone { gmt, separator } => Some(read_zone(value, *gmt, separator.as_deref())),
            Reader::Fraction => {
                let mut digits = units("0.");
                digits.extend_from_slice(&value[..value.len().min(3)]);
                Some(writ_core::js::utf16_to_number(&digits) * 1000.0)
            }
            Reader::Integer(format) => Some(integer::parse(cx, value, format)?),
            Reader::Name(names) => names.iter().find(|(name, _)| name == value).map(|(_, v)| *v),
        };
        components.set(*component, parsed);
    }
    if components.is_empty() {
        return Ok(None);
    }
    components.resolve(cx, now).map(Some)
}

/// The component, regular expression and reader of one picture part (D3130 for a numbering
/// sequence, D3133 for a name the component cannot have).
fn reader_for(cx: &Cx<'_>, part: &Part) -> Result<(u16, String, Reader)> {
    let marker: &Marker = match part {
        Part::Literal(text) => return Ok((0, regex_literal(text), Reader::Literal)),
        Part::Marker(marker) => marker,
    };
    let component = marker.component;
    let is_zone = component == 0x5A || component == 0x7A;
    if let (true, Some(format)) = (is_zone, &marker.integer) {
        let separator = match &format.primary {
            Primary::Decimal {
                grouping: Grouping::Regular { separator, .. },
                ..
            } => {
                let mut units = Vec::with_capacity(2);
                push_code_point(&mut units, *separator);
                Some(units)
            }
            _ => None,
        };
        let gmt = component == 0x7A;
        let mut regex = String::from(if gmt { "GMT" } else { "" });
        regex.push_str("[-+][0-9]+");
        if let Some(separator) = &separator {
            // jsonata-js puts the separator into its pattern unescaped: `.` matches any
            // character but a line break.
            if separator.as_slice() == [0x2E] {
                regex.push_str("[^\\n\\r\\u{2028}\\u{2029}]");
            } else {
                regex.push_str(&regex_literal(separator));
            }
            regex.push_str("[0-9]+");
        }
        return Ok((component, regex, Reader::Zone { gmt, separator }));
    }
    if component == 0x66 {
        return Ok((component, "[0-9]+".to_owned(), Reader::Fraction));
    }
    if let Some(format) = &marker.integer {
        return Ok((
            component,
            integer::pattern(cx, format)?,
            Reader::Integer(format.clone()),
        ));
    }
    let max = marker.width.and_then(|w| w.max).filter(|m| *m != 0.0 && !m.is_nan());
    let shorten = |name: &str| {
        let name = units(name);
        match max {
            Some(max) => substring(&name, 0, max as i64).to_vec(),
            None => name,
        }
    };
    let names: Vec<(Vec<u16>, f64)> = match char::from_u32(u32::from(component)).unwrap_or('\0') {
        'M' | 'x' => MONTH_NAMES
            .iter()
            .enumerate()
            .map(|(i, name)| (shorten(name), (i + 1) as f64))
            .collect(),
        'F' => DAYS
            .iter()
            .enumerate()
            .skip(1)
            .map(|(i, name)| (shorten(name), i as f64))
            .collect(),
        'P' => [("am", 0.0), ("AM", 0.0), ("pm", 1.0), ("PM", 1.0)]
            .iter()
            .map(|(n, v)| (units(n), *v))
            .collect(),
        _ => {
            let mut value = String::new();
            writ_core::write_json_string(&writ_core::Str::from_utf16(&[component]), &mut value);
            return Err(Error::new(Code::D3133).with_value(value).at(cx.position));
        }
    };
    Ok((component, "[A-Z]+".to_owned(), Reader::Name(names)))
}

/// `text` as a pattern matching it literally, over canonical (upper-cased) text.
fn regex_literal(text: &[u16]) -> String {
    let canonical: Vec<u16> = text.iter().map(|&u| canonicalize(u)).collect();
    regex::escape(&String::from_utf16_lossy(&canonical))
}

/// The character a case-insensitive JavaScript pattern (without the `u` flag) compares a code
/// unit by: its upper case, unless that is several characters, or ASCII from beyond it.
fn canonicalize(unit: u16) -> u16 {
    if unit < 0x80 {
        return if (0x61..=0x7A).contains(&unit) {
            unit - 0x20
        } else {
            unit
        };
    }
    let Some(c) = char::from_u32(u32::from(unit)) else {
        return unit;
    };
    let mut upper = c.to_uppercase();
    match (upper.next(), upper.next()) {
        (Some(u), None) if (0x80..0x1_0000).contains(&u32::from(u)) => u32::from(u) as u16,
        _ => unit,
    }
}

/// A zone offset in minutes east, read as jsonata-js reads it: hours and minutes either side
/// of the separator, or by the count of digits.
fn read_zone(value: &[u16], gmt: bool, separator: Option<&[u16]>) -> f64 {
    let value = if gmt { value.get(3..).unwrap_or(&[]) } else { value };
    let len = value.len() as i64;
    let (hours, minutes) = match separator {
        Some(separator) => {
            let at = index_of(value, separator, 0).map_or(-1, |i| i as i64);
            (
                parse_int(substring(value, 0, at)),
                parse_int(substring(value, at + 1, len)),
            )
        }
        None if value.len() <= 3 => (parse_int(value), 0.0),
        None => (parse_int(&value[..3]), parse_int(&value[3..])),
    };
    hours * 60.0 + minutes
}

/// The components read from a timestamp: each `None` when read but not understood (a name
/// not in the list), which counts as not given.
#[derive(Default)]
struct Components(Vec<(u16, Option<f64>)>);

impl Components {
    /// Records `value` for `component` (a later part replaces an earlier one).
    fn set(&mut self, component: u16, value: Option<f64>) {
        match self.0.iter_mut().find(|(c, _)| *c == component) {
            Some(slot) => slot.1 = value,
            None => self.0.push((component, value)),
        }
    }

    /// Whether nothing was read.
    fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The value of `component`, `None` if not given.
    fn get(&self, component: char) -> Option<f64> {
        self.0
            .iter()
            .find(|(c, _)| u32::from(*c) == u32::from(component))
            .and_then(|(_, v)| *v)
    }

    /// A bit mask of which of `letters` were given a truthy value (0 counts as not given),
    /// first letter highest.
    fn mask(&self, letters: &str) -> u32 {
        letters.chars().fold(0, |mask, c| {
            mask << 1 | u32::from(self.get(c).is_some_and(|v| v != 0.0 && !v.is_nan()))
        })
    }

    /// The time the components give (see [`parse_with_picture`]).
    fn resolve(mut self, cx: &Cx<'_>, now: f64) -> Result<f64> {
        // Which of the date forms {Y M D}, {Y d}, {X x w F}, {X W F} and time forms {H m s f},
        // {P h m s f} the components fit: none outside the form, at least one inside.
        let fits = |form: u32, mask: u32| !form & mask == 0 && form & mask != 0;
        let date_mask = self.mask("YXMxWwdD");
        let date_a = fits(0b1010_0001, date_mask);
        let date_b = !date_a && fits(0b1000_0010, date_mask);
        let date_c = fits(0b0101_0100, date_mask);
        let date_d = !date_c && fits(0b0100_1000, date_mask);
        let time_mask = self.mask("PHhmsf");
        let time_a = fits(0b01_0111, time_mask);
        let time_b = !time_a && fits(0b10_1111, time_mask);
        // jsonata-js fills `D`, not `d`, for the day-of-year form; `d` is always given there.
        let date_components = if date_b {
            "YD"
        } else if date_c {
            "XxwF"
        } else if date_d {
            "XWF"
        } else {
            "YMD"
        };
        let time_components = if time_b { "Phmsf" } else { "Hmsf" };
        let now = time_clip(now);
        let now_fields = UtcFields::of(now);
        let (mut started, mut ended) = (false, false);
        for c in date_components.chars().chain(time_components.chars()) {
            let given = self.0.iter().any(|(k, v)| u32::from(*k) == u32::from(c) && v.is_some());
            if given {
                started = true;
                if ended {
                    return Err(Error::new(Code::D3136).at(cx.position));
                }
            } else if started {
                self.set(c as u16, Some(if "MDd".contains(c) { 1.0 } else { 0.0 }));
                ended = true;
            } else {
                self.set(c as u16, Some(component_value(now, &now_fields, c as u16)));
            }
        }
        let value = |c: char| self.get(c).unwrap_or(f64::NAN);
        let mut month = match self.get('M') {
            Some(m) if m > 0.0 => m - 1.0,
            _ => 0.0,
        };
        let mut day = value('D');
        if date_b {
            let derived = time_clip(month_start(value('Y'), 0.0) + (value('d') - 1.0) * MS_PER_DAY);
            let fields = UtcFields::of(derived);
            month = fields.month;
            day = fields.day;
        }
        if date_c || date_d {
            return Err(Error::new(Code::D3136).at(cx.position));
        }
        let mut hours = value('H');
        if time_b {
            let h = value('h');
            hours = if h == 12.0 { 0.0 } else { h };
            if self.get('P') == Some(1.0) {
                hours += 12.0;
            }
        }
        let mut millis = utc([value('Y'), month, day, hours, value('m'), value('s'), value('f')]);
        let truthy = |v: Option<f64>| v.filter(|v| *v != 0.0 && !v.is_nan());
        if let Some(offset) = truthy(self.get('Z')).or(truthy(self.get('z'))) {
            millis -= offset * 60.0 * 1000.0;
        }
        Ok(millis)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn canonical_units() {
        assert_eq!(canonicalize(u16::from(b'a')), u16::from(b'A'));
        assert_eq!(canonicalize(0x0131), 0x0131);
        assert_eq!(canonicalize(0x017F), 0x017F);
        assert_eq!(canonicalize(0x00DF), 0x00DF);
        assert_eq!(canonicalize(0x00E9), 0x00C9);
        assert_eq!(canonicalize(0xD800), 0xD800);
    }

    #[test]
    fn zones() {
        let u = |s: &str| units(s);
        assert_eq!(read_zone(&u("+02:00"), false, Some(&u(":"))), 120.0);
        assert_eq!(read_zone(&u("-05:30"), false, Some(&u(":"))), -270.0);
        assert_eq!(read_zone(&u("GMT-5"), true, None), -300.0);
        assert_eq!(read_zone(&u("+0530"), false, None), 330.0);
    }
}
