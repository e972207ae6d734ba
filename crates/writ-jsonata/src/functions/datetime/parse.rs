//! `$toMillis`: reading a timestamp, either ISO 8601 (checked against jsonata-js's pattern,
//! then read as V8's `Date.parse` reads it) or by a picture, from which a regular expression
//! is built as jsonata-js builds it, and matched case-insensitively in JavaScript's manner.

use std::cell::RefCell;
use std::sync::LazyLock;

use regex::{Regex, RegexBuilder};

use super::calendar::{Fields, MS_PER_DAY, date_utc, make_date, month_start, time_clip};
use super::picture::{DAYS, MONTHS, Marker, Part, analyse, component_value};
use crate::error::{Error, Result};
use crate::eval::Cx;
use crate::functions::number::jsnum::{parse_int, string_to_number};
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
        return Err(Error::new("D3110").value(value).at(cx.position));
    }
    Ok(date_parse(text.as_bytes()))
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
            return Err(Error::new("U1007").value(MAX_PATTERN_LEN.to_string()).at(cx.position));
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
        return Err(Error::new("U1007").value(MAX_MATCH_UNITS.to_string()).at(cx.position));
    }
    cx.steps(pattern_cost)?;
    cx.steps(match_cost / MATCH_UNITS_PER_STEP)?;
    let Some(regex) = compile(&pattern) else {
        return Err(Error::new("U1007")
            .value(PATTERN_SIZE_LIMIT.to_string())
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
                Some(string_to_number(&digits) * 1000.0)
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
        'M' | 'x' => MONTHS
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
            return Err(Error::new("D3133").value(value).at(cx.position));
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
        let now_fields = Fields::of(now);
        let (mut started, mut ended) = (false, false);
        for c in date_components.chars().chain(time_components.chars()) {
            let given = self.0.iter().any(|(k, v)| u32::from(*k) == u32::from(c) && v.is_some());
            if given {
                started = true;
                if ended {
                    return Err(Error::new("D3136").at(cx.position));
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
            let fields = Fields::of(derived);
            month = fields.month;
            day = fields.day;
        }
        if date_c || date_d {
            return Err(Error::new("D3136").at(cx.position));
        }
        let mut hours = value('H');
        if time_b {
            let h = value('h');
            hours = if h == 12.0 { 0.0 } else { h };
            if self.get('P') == Some(1.0) {
                hours += 12.0;
            }
        }
        let mut millis = date_utc([value('Y'), month, day, hours, value('m'), value('s'), value('f')]);
        let truthy = |v: Option<f64>| v.filter(|v| *v != 0.0 && !v.is_nan());
        if let Some(offset) = truthy(self.get('Z')).or(truthy(self.get('z'))) {
            millis -= offset * 60.0 * 1000.0;
        }
        Ok(millis)
    }
}

/// One token of a date string in the ISO pattern's alphabet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Token {
    /// Digits: their value (leading zeros skipped, digits past the ninth significant dropped,
    /// as V8 reads them) and how many there were.
    Number { value: i32, length: usize },
    /// One of `- : + .`.
    Symbol(u8),
    /// `T` between date and time.
    T,
    /// `Z`, the UTC zone.
    Z,
    /// The end.
    End,
}

impl Token {
    /// The value of a number of exactly `length` digits.
    fn number_of_length(self, length: usize) -> Option<i32> {
        match self {
            Token::Number { value, length: l } if l == length => Some(value),
            _ => None,
        }
    }

    /// `+1` or `-1` for a sign.
    fn sign(self) -> Option<i32> {
        match self {
            Token::Symbol(b'+') => Some(1),
            Token::Symbol(b'-') => Some(-1),
            _ => None,
        }
    }
}

/// Tokens read one ahead.
struct Scanner<'a> {
    /// The text.
    text: &'a [u8],
    /// Where the next token starts.
    at: usize,
    /// The next token.
    ahead: Token,
}

impl<'a> Scanner<'a> {
    /// A scanner at the start of `text`.
    fn new(text: &'a [u8]) -> Scanner<'a> {
        let mut scanner = Scanner {
            text,
            at: 0,
            ahead: Token::End,
        };
        scanner.ahead = scanner.scan();
        scanner
    }

    /// The next token, not taken.
    fn peek(&self) -> Token {
        self.ahead
    }

    /// Takes the next token.
    fn next(&mut self) -> Token {
        let token = self.ahead;
        self.ahead = self.scan();
        token
    }

    /// Takes the next token if it is `symbol`.
    fn skip(&mut self, symbol: u8) -> bool {
        let found = self.ahead == Token::Symbol(symbol);
        if found {
            self.next();
        }
        found
    }

    /// Reads a token.
    fn scan(&mut self) -> Token {
        let Some(&byte) = self.text.get(self.at) else {
            return Token::End;
        };
        self.at += 1;
        match byte {
            b'0'..=b'9' => {
                let start = self.at - 1;
                let length = 1 + self.text[self.at..].iter().take_while(|b| b.is_ascii_digit()).count();
                self.at = start + length;
                let significant = self.text[start..self.at].iter().skip_while(|&&b| b == b'0').take(9);
                let value = significant.fold(0i32, |v, &b| v * 10 + i32::from(b - b'0'));
                Token::Number { value, length }
            }
            b'T' => Token::T,
            b'Z' => Token::Z,
            other => Token::Symbol(other),
        }
    }
}

/// Year, month and day numbers read so far.
#[derive(Default)]
struct Day {
    /// Up to three numbers.
    numbers: Vec<i32>,
    /// Whether they came in the ISO form (year first, no two-digit years).
    iso: bool,
}

impl Day {
    /// Adds a number; a fourth is an error.
    fn add(&mut self, n: i32) -> bool {
        let room = self.numbers.len() < 3;
        if room {
            self.numbers.push(n);
        }
        room
    }

    /// Year, month (1-based) and day, as V8 orders them.
    fn resolve(&self) -> Option<(i32, i32, i32)> {
        if self.numbers.is_empty() {
            return None;
        }
        let mut numbers = [1; 3];
        numbers.iter_mut().zip(&self.numbers).for_each(|(slot, &n)| *slot = n);
        let [a, b, c] = numbers;
        let (mut year, month, day) = if self.iso || !(1..=31).contains(&a) {
            (a, b, c)
        } else {
            (c, a, b)
        };
        if !self.iso {
            if (0..=49).contains(&year) {
                year += 2000;
            } else if (50..=99).contains(&year) {
                year += 1900;
            }
        }
        ((1..=12).contains(&month) && (1..=31).contains(&day)).then_some((year, month, day))
    }
}

/// Hour, minute, second and millisecond numbers read so far.
#[derive(Default)]
struct Time(Vec<i32>);

impl Time {
    /// Adds a number; a fifth is an error.
    fn add(&mut self, n: i32) -> bool {
        let room = self.0.len() < 4;
        if room {
            self.0.push(n);
        }
        room
    }

    /// Adds the last number: the fields after it are zero.
    fn add_final(&mut self, n: i32) -> bool {
        let added = self.add(n);
        if added {
            self.0.resize(4, 0);
        }
        added
    }

    /// Whether `n` fits as the next field after an hour.
    fn expects(&self, n: i32) -> bool {
        match self.0.len() {
            1 | 2 => (0..=59).contains(&n),
            3 => (0..=999).contains(&n),
            _ => false,
        }
    }

    /// The four fields, checked (`24:00:00.000` allowed).
    fn resolve(&self) -> Option<[i32; 4]> {
        let mut fields = [0; 4];
        fields.iter_mut().zip(&self.0).for_each(|(slot, &n)| *slot = n);
        let [hour, minute, second, milli] = fields;
        let valid = (0..=23).contains(&hour)
            && (0..=59).contains(&minute)
            && (0..=59).contains(&second)
            && (0..=999).contains(&milli);
        (valid || (hour == 24 && minute == 0 && second == 0 && milli == 0)).then_some(fields)
    }
}

/// A zone offset read so far.
#[derive(Default)]
struct Zone {
    /// Its sign, once read.
    sign: Option<i32>,
    /// Its hours.
    hour: Option<i32>,
    /// Its minutes.
    minute: Option<i32>,
}

impl Zone {
    /// Whether the offset is zero so far.
    fn is_utc(&self) -> bool {
        self.hour == Some(0) && self.minute == Some(0)
    }

    /// Whether `n` fits as the minutes after the hours.
    fn expects(&self, n: i32) -> bool {
        self.hour.is_some() && self.minute.is_none() && (0..=59).contains(&n)
    }

    /// Seconds east of UTC (`Some(None)` when no zone was given: local time, UTC here);
    /// `None` if too large, as V8 refuses it.
    fn resolve(&self) -> Option<Option<i32>> {
        let Some(sign) = self.sign else {
            return Some(None);
        };
        let total = (self.hour.unwrap_or(0) as u32)
            .wrapping_mul(3600)
            .wrapping_add((self.minute.unwrap_or(0) as u32).wrapping_mul(60));
        let total = i32::try_from(total).ok()?;
        Some(Some(if sign < 0 { -total } else { total }))
    }
}

/// Milliseconds from a fraction's digits: the first three (V8 reads them from the value and
/// the digit count).
fn milliseconds(token: Token) -> i32 {
    let Token::Number { value, length } = token else {
        return 0;
    };
    match length {
        1 => value * 100,
        2 => value * 10,
        3 => value,
        _ => (3..length.min(9)).fold(value, |v, _| v / 10),
    }
}

/// `Date.parse(text)` for text that passed [`ISO_8601`]: the ISO form where it holds, V8's
/// legacy reading of what follows where it does not (`2018.5` is May 2018), local time as UTC.
fn date_parse(text: &[u8]) -> f64 {
    let Some((year, month, day, [hour, minute, second, milli], offset)) = read_fields(text) else {
        return f64::NAN;
    };
    let mut date = make_date([
        f64::from(year),
        f64::from(month - 1),
        f64::from(day),
        f64::from(hour),
        f64::from(minute),
        f64::from(second),
        f64::from(milli),
    ]);
    if let Some(offset) = offset {
        date = time_clip(date - f64::from(offset) * 1000.0);
    }
    date
}

/// The fields of a date string, `None` where V8 refuses it.
#[allow(clippy::type_complexity)]
fn read_fields(text: &[u8]) -> Option<(i32, i32, i32, [i32; 4], Option<i32>)> {
    let mut scanner = Scanner::new(text);
    let (mut day, mut time, mut zone) = (Day::default(), Time::default(), Zone::default());
    let mut token = read_iso(&mut scanner, &mut day, &mut time, &mut zone)?;
    let mut has_number = !day.numbers.is_empty();
    while token != Token::End {
        match token {
            Token::Number { value: n, .. } => {
                has_number = true;
                if scanner.skip(b':') {
                    if scanner.skip(b':') {
                        if !time.0.is_empty() {
                            return None;
                        }
                        time.add(n);
                        time.add(0);
                    } else {
                        if !time.add(n) {
                            return None;
                        }
                        scanner.skip(b'.');
                    }
                } else if scanner.skip(b'.') && time.expects(n) {
                    time.add(n);
                    if !matches!(scanner.peek(), Token::Number { .. }) {
                        return None;
                    }
                    let fraction = scanner.next();
                    time.add_final(milliseconds(fraction));
                } else if zone.expects(n) {
                    zone.minute = Some(n);
                } else if time.expects(n) {
                    time.add_final(n);
                    let after = scanner.peek();
                    if !(after == Token::End || after == Token::Z || after.sign().is_some()) {
                        return None;
                    }
                } else {
                    if !day.add(n) {
                        return None;
                    }
                    scanner.skip(b'-');
                }
            }
            Token::Z if has_number => {
                zone.sign = Some(1);
                zone.hour = Some(0);
                zone.minute = Some(0);
            }
            // A word other than a zone after a number, or right before one, is refused.
            Token::T | Token::Z if has_number || matches!(scanner.peek(), Token::Number { .. }) => return None,
            Token::Symbol(_) if token.sign().is_some() && (zone.is_utc() || !time.0.is_empty()) => {
                zone.sign = token.sign();
                let (mut n, mut length) = (0, 0);
                if let Token::Number { value, length: l } = scanner.peek() {
                    scanner.next();
                    (n, length) = (value, l);
                }
                has_number = true;
                if scanner.peek() == Token::Symbol(b':') {
                    zone.hour = Some(n);
                    zone.minute = None;
                } else if length == 1 || length == 2 {
                    zone.hour = Some(n);
                    zone.minute = Some(0);
                } else if length == 3 || length == 4 {
                    zone.hour = Some(n / 100);
                    zone.minute = Some(n % 100);
                } else {
                    return None;
                }
            }
            Token::Symbol(b'+' | b'-') if has_number => return None,
            _ => {}
        }
        token = scanner.next();
    }
    let (year, month, day) = day.resolve()?;
    let time = time.resolve()?;
    Some((year, month, day, time, zone.resolve()?))
}

/// Reads the ECMAScript date-time format from the start (`YYYY[-MM[-DD]][THH:mm[:ss[.s]]][Z|±HH:mm]`):
/// the first token it leaves for the legacy rules, `End` when the whole text was in the
/// format, `None` when the text broke the format inside the time.
fn read_iso(scanner: &mut Scanner<'_>, day: &mut Day, time: &mut Time, zone: &mut Zone) -> Option<Token> {
    let Some(year) = scanner.peek().number_of_length(4) else {
        return Some(scanner.next());
    };
    scanner.next();
    day.add(year);
    if scanner.skip(b'-') {
        match scanner.peek().number_of_length(2) {
            Some(month) if (1..=12).contains(&month) => {
                scanner.next();
                day.add(month);
            }
            _ => return Some(scanner.next()),
        }
        if scanner.skip(b'-') {
            match scanner.peek().number_of_length(2) {
                Some(d) if (1..=31).contains(&d) => {
                    scanner.next();
                    day.add(d);
                }
                _ => return Some(scanner.next()),
            }
        }
    }
    if scanner.peek() != Token::T {
        if scanner.peek() != Token::End {
            return Some(scanner.next());
        }
    } else {
        scanner.next();
        let hour = scanner.peek().number_of_length(2).filter(|h| (0..=24).contains(h))?;
        let is_24 = hour == 24;
        scanner.next();
        time.add(hour);
        if !scanner.skip(b':') {
            return None;
        }
        let minute = scanner
            .peek()
            .number_of_length(2)
            .filter(|&m| (0..=59).contains(&m) && !(is_24 && m > 0))?;
        scanner.next();
        time.add(minute);
        if scanner.skip(b':') {
            let second = scanner
                .peek()
                .number_of_length(2)
                .filter(|&s| (0..=59).contains(&s) && !(is_24 && s > 0))?;
            scanner.next();
            time.add(second);
            if scanner.skip(b'.') {
                let fraction = scanner.peek();
                match fraction {
                    Token::Number { value, .. } if !(is_24 && value > 0) => {}
                    _ => return None,
                }
                scanner.next();
                time.add(milliseconds(fraction));
            }
        }
        if scanner.peek() == Token::Z {
            scanner.next();
            (zone.sign, zone.hour, zone.minute) = (Some(1), Some(0), Some(0));
        } else if let Some(sign) = scanner.peek().sign() {
            scanner.next();
            zone.sign = Some(sign);
            if let Some(hhmm) = scanner.peek().number_of_length(4) {
                let (hours, minutes) = (hhmm / 100, hhmm % 100);
                if !(0..=23).contains(&hours) || !(0..=59).contains(&minutes) {
                    return None;
                }
                scanner.next();
                (zone.hour, zone.minute) = (Some(hours), Some(minutes));
            } else {
                let hours = scanner.peek().number_of_length(2).filter(|h| (0..=23).contains(h))?;
                scanner.next();
                zone.hour = Some(hours);
                if !scanner.skip(b':') {
                    return None;
                }
                let minutes = scanner.peek().number_of_length(2).filter(|m| (0..=59).contains(m))?;
                scanner.next();
                zone.minute = Some(minutes);
            }
        }
        if scanner.peek() != Token::End {
            return None;
        }
    }
    day.iso = true;
    Some(Token::End)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> f64 {
        date_parse(text.as_bytes())
    }

    #[test]
    fn iso_dates_as_v8_reads_them() {
        assert_eq!(parse("2018"), 1_514_764_800_000.0);
        assert_eq!(parse("2017-10-30"), 1_509_321_600_000.0);
        assert_eq!(parse("2017-10-30T15:28:34Z"), 1_509_377_314_000.0);
        assert_eq!(parse("1970-01-01T00:00:00.001Z"), 1.0);
        assert_eq!(parse("2018-02-01T09:42:13.123+0000"), 1_517_478_133_123.0);
        assert_eq!(parse("2018-02-31"), parse("2018-03-03"));
        assert!(parse("2018-13").is_nan());
        assert!(parse("2018-02-30T25:00:00").is_nan());
        assert_eq!(parse("0000-01-01"), -62_167_219_200_000.0);
        assert_eq!(parse("0050"), -60_589_296_000_000.0);
        assert_eq!(parse("2018.5"), 1_525_132_800_000.0);
        assert_eq!(parse("2018-00:00"), 1_514_764_800_000.0);
    }

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
