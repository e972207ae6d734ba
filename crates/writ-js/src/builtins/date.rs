//! The `Date` functions: `Date.parse(text)` and `Date.UTC(year, month, …)`.
//!
//! Both answer what node answers with `TZ=UTC`: writ has no time zone, and treats local time
//! as UTC, so the same data gives the same timestamp on every machine. A date-time written
//! without an offset (`"2024-03-05T10:30"`, `"March 5, 2024 10:30"`) is therefore read as UTC.
//!
//! `Date.parse` reads the ECMA-262 date-time string format first, and falls back to the
//! legacy forms V8 accepts (`"Mar 5, 2024"`, `"5 March 2024 10:30 PM"`, `"2024/03/05"`,
//! `"Tue, 05 Mar 2024 10:00:00 GMT"`, `"2024-03-05 10:30 +0100"`, `Date.prototype.toString()`
//! output, …) with V8's rules: how a number is taken (a year, a day, an hour, a zone) depends on
//! the symbols around it, out-of-range days such as February 30 roll over into the next
//! month, and anything the rules do not accept is NaN.

use writ_core::{Str, Value};

use crate::coerce;
use crate::error::Result;
use crate::interp::{Args, Cx};
use crate::tables::DateFn;

/// Runs `Date.function(args)`.
pub(crate) fn call(cx: &mut Cx<'_>, function: DateFn, args: &Args<'_, '_>) -> Result<Value> {
    match function {
        DateFn::Parse => {
            let text = coerce::to_string(cx, args.get(0))?;
            cx.text(text.len_utf16())?;
            Ok(Value::Number(parse(&text)))
        }
        DateFn::Utc => {
            // Year, month, day, hours, minutes, seconds, milliseconds: a missing month is
            // January and a missing day the first; a missing year is NaN.
            let mut fields = [f64::NAN, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0];
            for (index, field) in fields.iter_mut().enumerate().take(args.len()) {
                *field = coerce::to_number(cx, args.get(index))?;
            }
            Ok(Value::Number(utc(fields)))
        }
    }
}

/// Milliseconds in a day.
const MS_PER_DAY: f64 = 86_400_000.0;

/// The largest distance from the epoch a time value may have, in milliseconds (ECMA-262 TimeClip).
const MAX_TIME: f64 = 8.64e15;

/// `Date.UTC` of already converted fields.
fn utc(fields: [f64; 7]) -> f64 {
    let [mut year, month, day, hours, minutes, seconds, millis] = fields;
    if !year.is_nan() {
        let whole = coerce::integer_or_infinity(year);
        if (0.0..=99.0).contains(&whole) {
            year = 1900.0 + whole;
        }
    }
    time_clip(make_date(
        make_day(year, month, day),
        make_time(hours, minutes, seconds, millis),
    ))
}

/// MakeDay: the day number of `date` in month `month` (0-based, any integer, carried into the
/// year) of `year`. Like V8, years beyond ±1,000,000 and months beyond ±10,000,000 give NaN
/// (every such date is out of range anyway, unless a huge day count brings it back).
fn make_day(year: f64, month: f64, date: f64) -> f64 {
    if !(-1_000_000.0..=1_000_000.0).contains(&year)
        || !(-10_000_000.0..=10_000_000.0).contains(&month)
        || !date.is_finite()
    {
        return f64::NAN;
    }
    let month = month.trunc() as i64;
    let year = year.trunc() as i64 + month.div_euclid(12);
    let month = month.rem_euclid(12);
    let first = days_before_year(year) + days_before_month(year, month);
    (first - 1) as f64 + date.trunc()
}

/// Days from 1970-01-01 to January 1 of `year` (negative before 1970), proleptic Gregorian.
fn days_before_year(year: i64) -> i64 {
    365 * (year - 1970) + (year - 1969).div_euclid(4) - (year - 1901).div_euclid(100) + (year - 1601).div_euclid(400)
}

/// Whether `year` has a February 29.
fn is_leap_year(year: i64) -> bool {
    year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
}

/// Days in `year` before the first of `month` (0-based).
fn days_before_month(year: i64, month: i64) -> i64 {
    const BEFORE: [i64; 12] = [0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334];
    let days = BEFORE.get(month as usize).copied().unwrap_or(0);
    if month >= 2 && is_leap_year(year) {
        days + 1
    } else {
        days
    }
}

/// MakeTime: milliseconds into the day, each field truncated, NaN if any is not finite.
fn make_time(hours: f64, minutes: f64, seconds: f64, millis: f64) -> f64 {
    if !(hours.is_finite() && minutes.is_finite() && seconds.is_finite() && millis.is_finite()) {
        return f64::NAN;
    }
    hours.trunc() * 3_600_000.0 + minutes.trunc() * 60_000.0 + seconds.trunc() * 1000.0 + millis.trunc()
}

/// MakeDate: a day number and a time of day as milliseconds since the epoch.
fn make_date(day: f64, time: f64) -> f64 {
    let date = day * MS_PER_DAY + time;
    if date.is_finite() { date } else { f64::NAN }
}

/// TimeClip: NaN beyond ±8.64e15 ms, otherwise the integer part (never -0).
fn time_clip(time: f64) -> f64 {
    if time.abs() <= MAX_TIME {
        time.trunc() + 0.0
    } else {
        f64::NAN
    }
}

/// `Date.parse(text)`: milliseconds since the epoch, or NaN.
pub(crate) fn parse(text: &Str) -> f64 {
    let units: Vec<u16> = text.code_units().collect();
    let Some(fields) = read_fields(&units) else {
        return f64::NAN;
    };
    let day = make_day(f64::from(fields.year), f64::from(fields.month), f64::from(fields.day));
    let time = make_time(
        f64::from(fields.hour),
        f64::from(fields.minute),
        f64::from(fields.second),
        f64::from(fields.millisecond),
    );
    let mut date = make_date(day, time);
    // Without an offset the time is local, which is UTC here. (V8 lets a local time run ten
    // days past the range before converting it; with nothing to convert, the clip decides.)
    if let Some(offset) = fields.offset_seconds {
        date -= f64::from(offset) * 1000.0;
    }
    time_clip(date)
}

/// What a date string says, before it becomes a time value.
#[derive(Debug)]
struct Fields {
    year: i32,
    /// 0-based.
    month: i32,
    day: i32,
    hour: i32,
    minute: i32,
    second: i32,
    millisecond: i32,
    /// East of UTC, in seconds; `None` for local time.
    offset_seconds: Option<i32>,
}

/// What a word means: V8 knows month names, AM/PM, a few zone names and the ISO `T`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum WordKind {
    /// `jan`…`dec`, or any longer word starting with those letters; the value is 1…12.
    Month,
    /// `am` (value 0) or `pm` (value 12).
    AmPm,
    /// `ut`, `utc`, `gmt`, `z` (0) and the North American zones; the value is hours east.
    Zone,
    /// The `T` between an ISO date and time.
    TimeSeparator,
    /// Any other word: ignored before the first number, an error after it.
    Other,
}

/// One token of a date string.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Token {
    /// Decimal digits: their value (leading zeros skipped, digits past the ninth significant
    /// one dropped) and how many characters they took.
    Number { value: i32, length: usize },
    /// One of `: - + . )`.
    Symbol(u8),
    /// A word: a run of characters from `A` up that are not white space.
    Word { kind: WordKind, value: i32, length: usize },
    /// A run of white space.
    Space,
    /// A parenthesised comment or a character of no meaning.
    Unknown,
    /// The end of the text (or a NUL character, where V8 stops reading).
    End,
}

impl Token {
    /// A number of exactly `length` characters.
    fn is_number_of_length(self, length: usize) -> Option<i32> {
        match self {
            Token::Number { value, length: l } if l == length => Some(value),
            _ => None,
        }
    }

    /// `+1` or `-1` for a sign symbol.
    fn sign(self) -> Option<i32> {
        match self {
            Token::Symbol(b'+') => Some(1),
            Token::Symbol(b'-') => Some(-1),
            _ => None,
        }
    }

    /// The one-letter zone `Z` (either case).
    fn is_z(self) -> bool {
        matches!(
            self,
            Token::Word {
                kind: WordKind::Zone,
                value: 0,
                length: 1
            }
        )
    }
}

/// Reads tokens one ahead.
struct Scanner<'a> {
    units: &'a [u16],
    position: usize,
    ahead: Token,
}

impl<'a> Scanner<'a> {
    /// A scanner at the start of `units`.
    fn new(units: &'a [u16]) -> Scanner<'a> {
        let mut scanner = Scanner {
            units,
            position: 0,
            ahead: Token::End,
        };
        scanner.ahead = scanner.scan();
        scanner
    }

    /// The next token, without taking it.
    fn peek(&self) -> Token {
        self.ahead
    }

    /// Takes the next token.
    fn next(&mut self) -> Token {
        let token = self.ahead;
        self.ahead = self.scan();
        token
    }

    /// Takes the next token if it is the symbol `symbol`.
    fn skip_symbol(&mut self, symbol: u8) -> bool {
        if self.ahead == Token::Symbol(symbol) {
            self.next();
            true
        } else {
            false
        }
    }

    /// The unit at the cursor; 0 at the end, as a NUL in the text also reads.
    fn current(&self) -> u16 {
        self.units.get(self.position).copied().unwrap_or(0)
    }

    /// Reads one token from the text.
    fn scan(&mut self) -> Token {
        let unit = self.current();
        if unit == 0 {
            return Token::End;
        }
        let start = self.position;
        if (0x30..=0x39).contains(&unit) {
            let mut value: i32 = 0;
            let mut significant = 0;
            while self.current() == 0x30 {
                self.position += 1;
            }
            while let c @ 0x30..=0x39 = self.current() {
                if significant < 9 {
                    value = value * 10 + i32::from(c - 0x30);
                }
                significant += 1;
                self.position += 1;
            }
            return Token::Number {
                value,
                length: self.position - start,
            };
        }
        if let Some(symbol) = [b':', b'-', b'+', b'.', b')']
            .into_iter()
            .find(|&s| unit == u16::from(s))
        {
            self.position += 1;
            return Token::Symbol(symbol);
        }
        if unit >= 0x41 && !is_date_space(unit) {
            let mut prefix = [0u16; 3];
            let mut length = 0;
            while self.current() >= 0x41 && !is_date_space(self.current()) {
                if let Some(slot) = prefix.get_mut(length) {
                    *slot = self.current() | 0x20;
                }
                length += 1;
                self.position += 1;
            }
            let (kind, value) = keyword(prefix, length);
            return Token::Word { kind, value, length };
        }
        if is_date_space(unit) {
            while is_date_space(self.current()) {
                self.position += 1;
            }
            return Token::Space;
        }
        if unit == u16::from(b'(') {
            // Skip to the matching parenthesis, or to the end.
            let mut depth = 0usize;
            loop {
                match self.current() {
                    0x29 => depth = depth.saturating_sub(1),
                    0x28 => depth += 1,
                    _ => {}
                }
                self.position += 1;
                if depth == 0 || self.current() == 0 {
                    break;
                }
            }
            return Token::Unknown;
        }
        self.position += 1;
        Token::Unknown
    }
}

/// White space as V8's date parser sees it: JavaScript's, except that the line and paragraph
/// separators (U+2028, U+2029) count as letters of a word.
fn is_date_space(unit: u16) -> bool {
    coerce::is_js_space(unit) && !matches!(unit, 0x2028 | 0x2029)
}

/// What a word means, from its first three letters (lower-cased by setting bit 5, as V8
/// does) and its length: month names may run on (`"March"`, `"Sept"`), other keywords must be
/// whole.
fn keyword(prefix: [u16; 3], length: usize) -> (WordKind, i32) {
    const TABLE: &[(&[u8; 3], WordKind, i32)] = &[
        (b"jan", WordKind::Month, 1),
        (b"feb", WordKind::Month, 2),
        (b"mar", WordKind::Month, 3),
        (b"apr", WordKind::Month, 4),
        (b"may", WordKind::Month, 5),
        (b"jun", WordKind::Month, 6),
        (b"jul", WordKind::Month, 7),
        (b"aug", WordKind::Month, 8),
        (b"sep", WordKind::Month, 9),
        (b"oct", WordKind::Month, 10),
        (b"nov", WordKind::Month, 11),
        (b"dec", WordKind::Month, 12),
        (b"am\0", WordKind::AmPm, 0),
        (b"pm\0", WordKind::AmPm, 12),
        (b"ut\0", WordKind::Zone, 0),
        (b"utc", WordKind::Zone, 0),
        (b"z\0\0", WordKind::Zone, 0),
        (b"gmt", WordKind::Zone, 0),
        (b"cdt", WordKind::Zone, -5),
        (b"cst", WordKind::Zone, -6),
        (b"edt", WordKind::Zone, -4),
        (b"est", WordKind::Zone, -5),
        (b"mdt", WordKind::Zone, -6),
        (b"mst", WordKind::Zone, -7),
        (b"pdt", WordKind::Zone, -7),
        (b"pst", WordKind::Zone, -8),
        (b"t\0\0", WordKind::TimeSeparator, 0),
    ];
    for &(letters, kind, value) in TABLE {
        let same = letters
            .iter()
            .zip(prefix)
            .all(|(&letter, unit)| u16::from(letter) == unit);
        if same && (length <= 3 || kind == WordKind::Month) {
            return (kind, value);
        }
    }
    (WordKind::Other, 0)
}

/// The date numbers read so far: up to three, plus a month named in words.
#[derive(Default)]
struct DayParts {
    numbers: Vec<i32>,
    named_month: Option<i32>,
    iso: bool,
}

impl DayParts {
    /// Adds a number; a fourth is an error.
    fn add(&mut self, n: i32) -> bool {
        if self.numbers.len() < 3 {
            self.numbers.push(n);
            true
        } else {
            false
        }
    }

    /// Year, month (1-based) and day, deciding which number is which as V8 does: a first
    /// number that cannot be a day is a year; two-digit years are 1950–2049 outside ISO form.
    fn resolve(&self) -> Option<(i32, i32, i32)> {
        if self.numbers.is_empty() {
            return None;
        }
        let mut numbers = [1; 3];
        for (slot, &n) in numbers.iter_mut().zip(&self.numbers) {
            *slot = n;
        }
        let [a, b, c] = numbers;
        let (mut year, month, day) = match self.named_month {
            None if self.iso || !is_day(a) => (a, b, c),
            None => (c, a, b),
            Some(month) if !is_day(a) => (a, month, b),
            Some(month) => (b, month, a),
        };
        if !self.iso {
            if (0..=49).contains(&year) {
                year += 2000;
            } else if (50..=99).contains(&year) {
                year += 1900;
            }
        }
        if !(1..=12).contains(&month) || !is_day(day) {
            return None;
        }
        Some((year, month, day))
    }
}

/// Whether `n` can be a day of a month (1–31).
fn is_day(n: i32) -> bool {
    (1..=31).contains(&n)
}

/// Whether `n` can be minutes or seconds.
fn is_minute(n: i32) -> bool {
    (0..=59).contains(&n)
}

/// Whether `n` can be an hour on a 24-hour clock.
fn is_hour(n: i32) -> bool {
    (0..=23).contains(&n)
}

/// The time numbers read so far: hour, minute, second, millisecond.
#[derive(Default)]
struct TimeParts {
    numbers: Vec<i32>,
    /// 0 for AM, 12 for PM.
    hour_offset: Option<i32>,
}

impl TimeParts {
    /// Whether nothing has been read.
    fn is_empty(&self) -> bool {
        self.numbers.is_empty()
    }

    /// Adds a number; a fifth is an error.
    fn add(&mut self, n: i32) -> bool {
        if self.numbers.len() < 4 {
            self.numbers.push(n);
            true
        } else {
            false
        }
    }

    /// Adds the last number: the fields after it are zero.
    fn add_final(&mut self, n: i32) -> bool {
        if !self.add(n) {
            return false;
        }
        self.numbers.resize(4, 0);
        true
    }

    /// Whether `n` fits as the next field after an hour: minutes, seconds or milliseconds.
    fn expects(&self, n: i32) -> bool {
        match self.numbers.len() {
            1 | 2 => is_minute(n),
            3 => (0..=999).contains(&n),
            _ => false,
        }
    }

    /// Hour, minute, second and millisecond, checked; `24:00:00.000` is allowed.
    fn resolve(&self) -> Option<[i32; 4]> {
        let mut fields = [0; 4];
        for (slot, &n) in fields.iter_mut().zip(&self.numbers) {
            *slot = n;
        }
        let [mut hour, minute, second, millisecond] = fields;
        if let Some(offset) = self.hour_offset {
            if !(0..=12).contains(&hour) {
                return None;
            }
            hour = hour % 12 + offset;
        }
        let valid = is_hour(hour) && is_minute(minute) && is_minute(second) && (0..=999).contains(&millisecond);
        if !(valid || (hour == 24 && minute == 0 && second == 0 && millisecond == 0)) {
            return None;
        }
        Some([hour, minute, second, millisecond])
    }
}

/// The zone read so far: a sign with hours and minutes, each possibly still missing.
#[derive(Default)]
struct ZoneParts {
    sign: Option<i32>,
    hour: Option<i32>,
    minute: Option<i32>,
}

impl ZoneParts {
    /// Sets a whole zone from hours east of UTC.
    fn set_hours(&mut self, hours: i32) {
        self.sign = Some(if hours < 0 { -1 } else { 1 });
        self.hour = Some(hours.abs());
        self.minute = Some(0);
    }

    /// Whether the zone is UTC so far (an offset may still follow `GMT`).
    fn is_utc(&self) -> bool {
        self.hour == Some(0) && self.minute == Some(0)
    }

    /// Whether `n` fits as the zone's minutes, after its hours.
    fn expects(&self, n: i32) -> bool {
        self.hour.is_some() && self.minute.is_none() && is_minute(n)
    }

    /// The offset in seconds east of UTC, `Some(None)` for local time, `None` if it is too
    /// large (V8 wraps the product in 32 bits and refuses what then exceeds `i32::MAX`).
    fn resolve(&self) -> Option<Option<i32>> {
        let Some(sign) = self.sign else {
            return Some(None);
        };
        let hours = self.hour.unwrap_or(0) as u32;
        let minutes = self.minute.unwrap_or(0) as u32;
        let total = hours.wrapping_mul(3600).wrapping_add(minutes.wrapping_mul(60));
        let total = i32::try_from(total).ok()?;
        Some(Some(if sign < 0 { -total } else { total }))
    }
}

/// Milliseconds from a fraction's digits: its first three, as V8 reads them (from the value and
/// the digit count, so a long run of leading zeros is not honoured).
fn milliseconds(token: Token) -> i32 {
    let Token::Number { value, length } = token else {
        return 0;
    };
    match length {
        1 => value * 100,
        2 => value * 10,
        3 => value,
        _ => {
            let mut value = value;
            for _ in 3..length.min(9) {
                value /= 10;
            }
            value
        }
    }
}

/// The parts of a date string, or `None` when it is not one V8 accepts.
fn read_fields(units: &[u16]) -> Option<Fields> {
    let mut scanner = Scanner::new(units);
    let mut day = DayParts::default();
    let mut time = TimeParts::default();
    let mut zone = ZoneParts::default();
    let first_unread = read_iso(&mut scanner, &mut day, &mut time, &mut zone)?;
    let mut has_number = !day.numbers.is_empty();
    let mut token = first_unread;
    while token != Token::End {
        match token {
            Token::Number { value: n, .. } => {
                has_number = true;
                if scanner.skip_symbol(b':') {
                    if scanner.skip_symbol(b':') {
                        // `n::` is an hour with zero minutes.
                        if !time.is_empty() {
                            return None;
                        }
                        time.add(n);
                        time.add(0);
                    } else {
                        if !time.add(n) {
                            return None;
                        }
                        if scanner.peek() == Token::Symbol(b'.') {
                            scanner.next();
                        }
                    }
                } else if scanner.skip_symbol(b'.') && time.expects(n) {
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
                    // A time's last number must be followed by the end, a space, Z or a sign.
                    let after = scanner.peek();
                    if !(after == Token::End || after == Token::Space || after.is_z() || after.sign().is_some()) {
                        return None;
                    }
                } else {
                    if !day.add(n) {
                        return None;
                    }
                    scanner.skip_symbol(b'-');
                }
            }
            Token::Word { kind, value, .. } => match kind {
                WordKind::AmPm if !time.is_empty() => time.hour_offset = Some(value),
                WordKind::Month => {
                    day.named_month = Some(value);
                    scanner.skip_symbol(b'-');
                }
                WordKind::Zone if has_number => zone.set_hours(value),
                _ => {
                    // Words are skipped before the first number ("Tuesday, 5 March"), but
                    // must be set apart from it.
                    if has_number || matches!(scanner.peek(), Token::Number { .. }) {
                        return None;
                    }
                }
            },
            Token::Symbol(_) if token.sign().is_some() && (zone.is_utc() || !time.is_empty()) => {
                zone.sign = token.sign();
                let mut n = 0;
                let mut length = 0;
                if let Token::Number { value, length: l } = scanner.peek() {
                    scanner.next();
                    n = value;
                    length = l;
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
            Token::Symbol(b'+' | b'-' | b')') if has_number => return None,
            _ => {}
        }
        token = scanner.next();
    }
    let (year, month, day_of_month) = day.resolve()?;
    let [hour, minute, second, millisecond] = time.resolve()?;
    let offset_seconds = zone.resolve()?;
    Some(Fields {
        year,
        month: month - 1,
        day: day_of_month,
        hour,
        minute,
        second,
        millisecond,
        offset_seconds,
    })
}

/// Reads the ECMA-262 date-time string format from the start: `YYYY[-MM[-DD]]` or
/// `±YYYYYY[-MM[-DD]]`, then `THH:mm[:ss[.sss]]` and `Z` or `±HH:mm` (or `±HHmm`).
///
/// Returns the first token it did not handle, for the legacy rules to go on from (a date
/// followed by a space and a time reads on that way), `Some(Token::End)` when the whole text was
/// in the format, and `None` when it broke the format past the point of no return (inside the
/// time, or `-000000`).
fn read_iso(
    scanner: &mut Scanner<'_>,
    day: &mut DayParts,
    time: &mut TimeParts,
    zone: &mut ZoneParts,
) -> Option<Token> {
    if let Some(sign) = scanner.peek().sign() {
        let sign_token = scanner.next();
        let Some(year) = scanner.peek().is_number_of_length(6) else {
            return Some(sign_token);
        };
        scanner.next();
        if sign < 0 && year == 0 {
            // "-000000" is not a year; the legacy rules see what follows.
            return Some(sign_token);
        }
        day.add(sign * year);
    } else if let Some(year) = scanner.peek().is_number_of_length(4) {
        scanner.next();
        day.add(year);
    } else {
        return Some(scanner.next());
    }
    if scanner.skip_symbol(b'-') {
        match scanner.peek().is_number_of_length(2) {
            Some(month) if (1..=12).contains(&month) => {
                scanner.next();
                day.add(month);
            }
            _ => return Some(scanner.next()),
        }
        if scanner.skip_symbol(b'-') {
            match scanner.peek().is_number_of_length(2) {
                Some(d) if is_day(d) => {
                    scanner.next();
                    day.add(d);
                }
                _ => return Some(scanner.next()),
            }
        }
    }
    if !matches!(
        scanner.peek(),
        Token::Word {
            kind: WordKind::TimeSeparator,
            ..
        }
    ) {
        if scanner.peek() != Token::End {
            return Some(scanner.next());
        }
    } else {
        scanner.next();
        let hour = scanner.peek().is_number_of_length(2).filter(|h| (0..=24).contains(h))?;
        let hour_is_24 = hour == 24;
        scanner.next();
        time.add(hour);
        if !scanner.skip_symbol(b':') {
            return None;
        }
        let minute = scanner
            .peek()
            .is_number_of_length(2)
            .filter(|&m| is_minute(m) && !(hour_is_24 && m > 0))?;
        scanner.next();
        time.add(minute);
        if scanner.skip_symbol(b':') {
            let second = scanner
                .peek()
                .is_number_of_length(2)
                .filter(|&s| is_minute(s) && !(hour_is_24 && s > 0))?;
            scanner.next();
            time.add(second);
            if scanner.skip_symbol(b'.') {
                let fraction = scanner.peek();
                match fraction {
                    Token::Number { value, .. } if !(hour_is_24 && value > 0) => {}
                    _ => return None,
                }
                scanner.next();
                time.add(milliseconds(fraction));
            }
        }
        if scanner.peek().is_z() {
            scanner.next();
            zone.set_hours(0);
        } else if let Some(sign) = scanner.peek().sign() {
            scanner.next();
            zone.sign = Some(sign);
            if let Some(hhmm) = scanner.peek().is_number_of_length(4) {
                let (hours, minutes) = (hhmm / 100, hhmm % 100);
                if !is_hour(hours) || !is_minute(minutes) {
                    return None;
                }
                scanner.next();
                zone.hour = Some(hours);
                zone.minute = Some(minutes);
            } else {
                let hours = scanner.peek().is_number_of_length(2).filter(|&h| is_hour(h))?;
                scanner.next();
                zone.hour = Some(hours);
                if !scanner.skip_symbol(b':') {
                    return None;
                }
                let minutes = scanner.peek().is_number_of_length(2).filter(|&m| is_minute(m))?;
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

/// Checks against node's answers (tests/data, from tests/number-gen.js) and the corners by hand.
#[cfg(test)]
mod tests {
    use super::*;
    use crate::ast::Program;
    use writ_core::{Limits, Meter};

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

    /// `Date.parse(text)`.
    fn parsed(text: &str) -> f64 {
        run(DateFn::Parse, &[Value::String(Str::from(text))])
    }

    /// `Date.UTC(...fields)`.
    fn utc_of(fields: &[f64]) -> f64 {
        let args: Vec<Value> = fields.iter().map(|&n| Value::Number(n)).collect();
        run(DateFn::Utc, &args)
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

    /// Parse reads the common forms.
    #[test]
    fn parse_reads_the_common_forms() {
        let march_5 = 1_709_596_800_000.0;
        assert_eq!(parsed("2024-03-05"), march_5);
        assert_eq!(parsed("Mar 5, 2024"), march_5);
        assert_eq!(parsed("5 March 2024"), march_5);
        assert_eq!(parsed("2024/03/05"), march_5);
        assert_eq!(parsed("March 5, 2024 10:30:00"), march_5 + 37_800_000.0);
        assert_eq!(parsed("2024-03-05 10:30"), march_5 + 37_800_000.0);
        assert_eq!(parsed("2024-03-05T10:30:00.000Z"), march_5 + 37_800_000.0);
        assert_eq!(parsed("Tue, 05 Mar 2024 10:00:00 GMT"), march_5 + 36_000_000.0);
        assert_eq!(parsed("05 Mar 2024 10:00:00 +0100"), march_5 + 32_400_000.0);
        assert_eq!(parsed("2024-03-05T10:00:00+01:00"), march_5 + 32_400_000.0);
        assert_eq!(parsed("+275760-09-13T00:00:00.000Z"), 8.64e15);
        // ISO days up to 31 roll over, as V8 does; past 31 they are NaN.
        assert_eq!(parsed("2024-02-30"), march_5 - 4.0 * MS_PER_DAY);
        for bad in [
            "2024-02-32",
            "-000000",
            "+275760-09-13T00:00:00.001Z",
            "2024-03-05T25:00",
            "Mar 5 9999999",
            "",
            "soon",
        ] {
            assert!(parsed(bad).is_nan(), "{bad}");
        }
        // Not a string: converted first.
        assert_eq!(run(DateFn::Parse, &[Value::Number(2024.0)]), 1_704_067_200_000.0);
    }

    /// Utc follows make day and make time.
    #[test]
    fn utc_follows_make_day_and_make_time() {
        assert_eq!(utc_of(&[2024.0, 2.0, 5.0]), 1_709_596_800_000.0);
        assert_eq!(utc_of(&[2024.0]), 1_704_067_200_000.0);
        assert_eq!(utc_of(&[99.0]), 915_148_800_000.0);
        assert_eq!(utc_of(&[99.5]), 915_148_800_000.0);
        assert_eq!(utc_of(&[-0.5]), -2_208_988_800_000.0);
        assert_eq!(utc_of(&[100.0]), -59_011_459_200_000.0);
        assert_eq!(utc_of(&[2024.0, 13.0, 1.0]), utc_of(&[2025.0, 1.0, 1.0]));
        assert_eq!(utc_of(&[2024.0, -1.0, 1.0]), utc_of(&[2023.0, 11.0, 1.0]));
        assert_eq!(
            utc_of(&[2024.0, 0.0, 1.0, 25.0, 61.0, 61.0, 1001.0]),
            1_704_160_922_001.0
        );
        assert_eq!(utc_of(&[275760.0, 8.0, 13.0, 0.0, 0.0, 0.0, 0.9]), 8.64e15);
        let zero = utc_of(&[1970.0, 0.0, 1.0, 0.0, 0.0, 0.0, -0.9]);
        assert!(zero == 0.0 && zero.is_sign_positive());
        assert!(utc_of(&[275760.0, 8.0, 13.0, 0.0, 0.0, 0.0, 1.0]).is_nan());
        assert!(utc_of(&[1_000_000.5, 0.0]).is_nan());
        assert!(utc_of(&[2024.0, 1e7 + 1.0]).is_nan());
        assert!(utc_of(&[2024.0, f64::NAN]).is_nan());
        assert!(utc_of(&[f64::INFINITY]).is_nan());
        assert!(run(DateFn::Utc, &[]).is_nan());
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
