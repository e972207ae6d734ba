//! ECMAScript time values and `Date.parse`, as V8 computes them with the time zone set to UTC.
//!
//! A time value is a count of milliseconds since 1970-01-01T00:00:00Z in the proleptic
//! Gregorian calendar: an integer within ±8.64e15 ([`MAX_TIME`]), or NaN for a date that does
//! not exist. The JavaScript subset's `Date.parse` and `Date.UTC` and JSONata's `$toMillis`,
//! `$fromMillis` and `$now` all compute with the operations here, so both languages agree on
//! every date.
//!
//! writ has no time zone: local time is UTC, so a date-time written without an offset
//! (`"2024-03-05T10:30"`, `"March 5, 2024 10:30"`) reads as UTC and the same text gives the same
//! time value on every machine.
//!
//! [`parse_date`] reads the ECMA-262 date-time string format first, and falls back to the legacy
//! forms V8 accepts (`"Mar 5, 2024"`, `"5 March 2024 10:30 PM"`, `"2024/03/05"`,
//! `"Tue, 05 Mar 2024 10:00:00 GMT"`, `"2024-03-05 10:30 +0100"`, `Date.prototype.toString()`
//! output, …) with V8's rules: how a number is taken (a year, a day, an hour, a zone) depends on
//! the symbols around it, out-of-range days such as February 30 roll over into the next month,
//! and anything the rules do not accept is NaN.
//!
//! # Example
//!
//! ```
//! use writ_core::Str;
//! use writ_core::date::{UtcFields, parse_date, utc};
//!
//! let time = parse_date(&Str::from("Tue, 05 Mar 2024 10:00:00 GMT")).unwrap();
//! assert_eq!(time, utc([2024.0, 2.0, 5.0, 10.0, 0.0, 0.0, 0.0]));
//! assert_eq!(UtcFields::of(time).weekday, 2.0);
//! // A day past the month's end rolls over, up to the 31st; beyond that the date is NaN.
//! assert_eq!(parse_date(&Str::from("Feb 30 2024")), parse_date(&Str::from("2024-03-01")));
//! assert_eq!(parse_date(&Str::from("2024-02-32")), None);
//! ```

use crate::Str;

/// Milliseconds in a day.
pub const MS_PER_DAY: f64 = 86_400_000.0;

/// The largest distance from the epoch a time value may have, in milliseconds: 100,000,000
/// days either side (ECMA-262 `TimeClip`).
pub const MAX_TIME: f64 = 8.64e15;

/// The English month names, January first: what `Date.parse` recognises by their first three
/// letters, and what JSONata's date pictures write.
pub const MONTH_NAMES: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];

/// `TimeClip`: NaN beyond ±[`MAX_TIME`] (and for NaN), otherwise the integer part, never -0.
pub fn time_clip(time: f64) -> f64 {
    if time.abs() <= MAX_TIME {
        time.trunc() + 0.0
    } else {
        f64::NAN
    }
}

/// `MakeDay`: the day number (days since the epoch) of day `date` of month `month` (0-based;
/// any integer, carried into the year) of `year`, each truncated. Like V8, NaN for a year beyond
/// ±1,000,000 or a month beyond ±10,000,000 (every such date is out of range anyway, unless a
/// huge day count brings it back), and for a field that is not finite.
pub fn make_day(year: f64, month: f64, date: f64) -> f64 {
    if !(-1_000_000.0..=1_000_000.0).contains(&year)
        || !(-10_000_000.0..=10_000_000.0).contains(&month)
        || !date.is_finite()
    {
        return f64::NAN;
    }
    // Both casts are exact: the ranges were checked above.
    let month = month.trunc() as i64;
    let year = year.trunc() as i64 + month.div_euclid(12);
    let first = days_from_civil(year, month.rem_euclid(12) + 1, 1);
    first as f64 + date.trunc() - 1.0
}

/// `MakeTime`: milliseconds into a day, each field truncated (and any of them may run past its
/// usual range or be negative); NaN unless every field is finite.
pub fn make_time(hours: f64, minutes: f64, seconds: f64, millis: f64) -> f64 {
    if !(hours.is_finite() && minutes.is_finite() && seconds.is_finite() && millis.is_finite()) {
        return f64::NAN;
    }
    hours.trunc() * 3_600_000.0 + minutes.trunc() * 60_000.0 + seconds.trunc() * 1000.0 + millis.trunc()
}

/// `MakeDate`: a day number and a time into that day as milliseconds since the epoch, NaN if
/// not finite. Not clipped: pass the result through [`time_clip`] to make it a time value.
pub fn make_date(day: f64, time: f64) -> f64 {
    let date = day * MS_PER_DAY + time;
    if date.is_finite() { date } else { f64::NAN }
}

/// `Date.UTC(year, month, day, hours, minutes, seconds, millis)` of fields already converted to
/// numbers: the time value of that date, with the month 0-based and a year from 0 to 99 meaning
/// 1900 to 1999, as JavaScript reads it. A NaN year is NaN.
pub fn utc(fields: [f64; 7]) -> f64 {
    let [mut year, month, day, hours, minutes, seconds, millis] = fields;
    if !year.is_nan() && (0.0..=99.0).contains(&year.trunc()) {
        year = 1900.0 + year.trunc();
    }
    time_clip(make_date(
        make_day(year, month, day),
        make_time(hours, minutes, seconds, millis),
    ))
}

/// Days from 1970-01-01 to the given date (month 1-based), proleptic Gregorian: the days of
/// whole 400-year eras, then of the years and months into the era, counting years from March so
/// that February's leap day falls at the end.
fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let year_of_era = y - era * 400;
    let month_from_march = (month + 9) % 12;
    let day_of_year = (153 * month_from_march + 2) / 5 + day - 1;
    let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    era * 146_097 + day_of_era - 719_468
}

/// The year, month (1-based) and day of a day number: [`days_from_civil`] backwards.
fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let day_of_era = z - era * 146_097;
    let year_of_era = (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_from_march = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * month_from_march + 2) / 5 + 1;
    let month = if month_from_march < 10 {
        month_from_march + 3
    } else {
        month_from_march - 9
    };
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

/// What the UTC getters of a JavaScript `Date` give for one time value; every field is NaN for
/// an invalid time, as in JavaScript.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct UtcFields {
    /// `getUTCFullYear()`.
    pub year: f64,
    /// `getUTCMonth()`: 0 is January.
    pub month: f64,
    /// `getUTCDate()`: the day of the month, from 1.
    pub day: f64,
    /// `getUTCDay()`: 0 is Sunday.
    pub weekday: f64,
    /// `getUTCHours()`.
    pub hours: f64,
    /// `getUTCMinutes()`.
    pub minutes: f64,
    /// `getUTCSeconds()`.
    pub seconds: f64,
    /// `getUTCMilliseconds()`.
    pub millis: f64,
}

impl UtcFields {
    /// The fields of `time` after [`time_clip`] (so any number may be passed: one beyond the
    /// range, or NaN, gives NaN fields).
    pub fn of(time: f64) -> UtcFields {
        let time = time_clip(time);
        if time.is_nan() {
            return UtcFields {
                year: f64::NAN,
                month: f64::NAN,
                day: f64::NAN,
                weekday: f64::NAN,
                hours: f64::NAN,
                minutes: f64::NAN,
                seconds: f64::NAN,
                millis: f64::NAN,
            };
        }
        let days = (time / MS_PER_DAY).floor();
        // Exact: a clipped time is an integer, and so is its distance into its day.
        let in_day = (time - days * MS_PER_DAY) as i64;
        let days = days as i64;
        let (year, month, day) = civil_from_days(days);
        UtcFields {
            year: year as f64,
            month: (month - 1) as f64,
            day: day as f64,
            weekday: (days + 4).rem_euclid(7) as f64,
            hours: (in_day / 3_600_000) as f64,
            minutes: (in_day / 60_000 % 60) as f64,
            seconds: (in_day / 1000 % 60) as f64,
            millis: (in_day % 1000) as f64,
        }
    }
}

/// `Date.parse(text)`: the time value `text` names, or `None` where JavaScript gives NaN.
///
/// One pass over the text, in time linear in its length and without allocating for ASCII text:
/// a caller that meters its work charges the length before calling.
pub fn parse_date(text: &Str) -> Option<f64> {
    match text.ascii_bytes() {
        Some(bytes) => parse_units(bytes),
        None => parse_units(text.to_utf16().as_slice()),
    }
}

/// [`parse_date`] of text held as UTF-16 code units.
pub fn parse_date_utf16(units: &[u16]) -> Option<f64> {
    parse_units(units)
}

/// Text the parser can read: code units by index.
trait Units {
    /// The unit at `at`; 0 past the end, which a NUL in the text also reads as.
    fn unit(&self, at: usize) -> u16;
}

impl Units for [u8] {
    #[inline]
    fn unit(&self, at: usize) -> u16 {
        self.get(at).map_or(0, |&byte| u16::from(byte))
    }
}

impl Units for [u16] {
    #[inline]
    fn unit(&self, at: usize) -> u16 {
        self.get(at).copied().unwrap_or(0)
    }
}

/// [`parse_date`] over either form of text.
fn parse_units<U: Units + ?Sized>(units: &U) -> Option<f64> {
    let fields = read_fields(units)?;
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
    let date = time_clip(date);
    (!date.is_nan()).then_some(date)
}

/// What a date string says, before it becomes a time value.
#[derive(Debug)]
struct Fields {
    /// The full year (two-digit years already placed).
    year: i32,
    /// 0-based.
    month: i32,
    /// Day of the month, 1 to 31 (rolled over into the next month when the month is shorter).
    day: i32,
    /// 0 to 24.
    hour: i32,
    /// 0 to 59.
    minute: i32,
    /// 0 to 59.
    second: i32,
    /// 0 to 999.
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
    /// one dropped, as V8 reads them) and how many characters they took.
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
    /// The value of a number of exactly `length` characters.
    fn number_of_length(self, length: usize) -> Option<i32> {
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

    /// Whether this is the one-letter zone `Z` (either case).
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
struct Scanner<'a, U: ?Sized> {
    /// The text.
    units: &'a U,
    /// Where the token after `ahead` starts.
    position: usize,
    /// The next token.
    ahead: Token,
}

impl<'a, U: Units + ?Sized> Scanner<'a, U> {
    /// A scanner at the start of `units`.
    fn new(units: &'a U) -> Scanner<'a, U> {
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
        let found = self.ahead == Token::Symbol(symbol);
        if found {
            self.next();
        }
        found
    }

    /// The unit at the cursor; 0 at the end.
    #[inline]
    fn current(&self) -> u16 {
        self.units.unit(self.position)
    }

    /// Reads one token from the text; every token but `End` takes at least one unit.
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
            // A comment runs to its matching parenthesis, or to the end.
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
    crate::js::is_space(unit) && !matches!(unit, 0x2028 | 0x2029)
}

/// The keywords other than month names, by their (lower-case, NUL-padded) letters.
const KEYWORDS: [(&[u8; 3], WordKind, i32); 15] = [
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

/// What a word means, from its first three letters (lower-cased by setting bit 5, as V8
/// does) and its length: month names may run on (`"March"`, `"Sept"`), other keywords must be
/// whole.
fn keyword(prefix: [u16; 3], length: usize) -> (WordKind, i32) {
    let same = |letters: &[u8]| {
        letters
            .iter()
            .zip(prefix)
            .all(|(&letter, unit)| u16::from(letter | 0x20) == unit)
    };
    if let Some(month) = MONTH_NAMES.iter().position(|name| same(&name.as_bytes()[..3])) {
        return (WordKind::Month, month as i32 + 1);
    }
    if length <= 3
        && let Some(&(_, kind, value)) = KEYWORDS.iter().find(|(letters, _, _)| {
            letters
                .iter()
                .zip(prefix)
                .all(|(&letter, unit)| u16::from(letter) == unit)
        })
    {
        return (kind, value);
    }
    (WordKind::Other, 0)
}

/// The date numbers read so far: up to three, plus a month named in words.
#[derive(Default)]
struct DayParts {
    /// The numbers, in the order written.
    numbers: [i32; 3],
    /// How many of `numbers` were read.
    count: usize,
    /// The month a word named, 1 to 12.
    named_month: Option<i32>,
    /// Whether the numbers came in the ISO form (year first, no two-digit years).
    iso: bool,
}

impl DayParts {
    /// Adds a number; a fourth is an error.
    fn add(&mut self, n: i32) -> bool {
        let Some(slot) = self.numbers.get_mut(self.count) else {
            return false;
        };
        *slot = n;
        self.count += 1;
        true
    }

    /// Year, month (1-based) and day, deciding which number is which as V8 does: a first
    /// number that cannot be a day is a year; two-digit years are 1950–2049 outside ISO form.
    fn resolve(&self) -> Option<(i32, i32, i32)> {
        if self.count == 0 {
            return None;
        }
        let mut numbers = [1; 3];
        for (slot, &n) in numbers.iter_mut().zip(&self.numbers).take(self.count) {
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
        ((1..=12).contains(&month) && is_day(day)).then_some((year, month, day))
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
    /// The numbers; those not read are 0.
    numbers: [i32; 4],
    /// How many of `numbers` were read (or settled as 0).
    count: usize,
    /// 0 for AM, 12 for PM.
    hour_offset: Option<i32>,
}

impl TimeParts {
    /// Whether nothing has been read.
    fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// Adds a number; a fifth is an error.
    fn add(&mut self, n: i32) -> bool {
        let Some(slot) = self.numbers.get_mut(self.count) else {
            return false;
        };
        *slot = n;
        self.count += 1;
        true
    }

    /// Adds the last number: the fields after it are zero.
    fn add_final(&mut self, n: i32) -> bool {
        let added = self.add(n);
        if added {
            self.count = self.numbers.len();
        }
        added
    }

    /// Whether `n` fits as the next field after an hour: minutes, seconds or milliseconds.
    fn expects(&self, n: i32) -> bool {
        match self.count {
            1 | 2 => is_minute(n),
            3 => (0..=999).contains(&n),
            _ => false,
        }
    }

    /// Hour, minute, second and millisecond, checked; `24:00:00.000` is allowed.
    fn resolve(&self) -> Option<[i32; 4]> {
        let [mut hour, minute, second, millisecond] = self.numbers;
        if let Some(offset) = self.hour_offset {
            if !(0..=12).contains(&hour) {
                return None;
            }
            hour = hour % 12 + offset;
        }
        let valid = is_hour(hour) && is_minute(minute) && is_minute(second) && (0..=999).contains(&millisecond);
        let midnight_at_24 = hour == 24 && minute == 0 && second == 0 && millisecond == 0;
        (valid || midnight_at_24).then_some([hour, minute, second, millisecond])
    }
}

/// The zone read so far: a sign with hours and minutes, each possibly still missing.
#[derive(Default)]
struct ZoneParts {
    /// `+1` or `-1`, once read.
    sign: Option<i32>,
    /// Its hours.
    hour: Option<i32>,
    /// Its minutes.
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
        // Both are read from at most nine digits, so neither is negative.
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
        _ => (3..length.min(9)).fold(value, |value, _| value / 10),
    }
}

/// The parts of a date string, or `None` when it is not one V8 accepts.
fn read_fields<U: Units + ?Sized>(units: &U) -> Option<Fields> {
    let mut scanner = Scanner::new(units);
    let mut day = DayParts::default();
    let mut time = TimeParts::default();
    let mut zone = ZoneParts::default();
    let first_unread = read_iso(&mut scanner, &mut day, &mut time, &mut zone)?;
    let mut has_number = day.count > 0;
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
                        scanner.skip_symbol(b'.');
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
/// time).
fn read_iso<U: Units + ?Sized>(
    scanner: &mut Scanner<'_, U>,
    day: &mut DayParts,
    time: &mut TimeParts,
    zone: &mut ZoneParts,
) -> Option<Token> {
    if let Some(sign) = scanner.peek().sign() {
        let sign_token = scanner.next();
        let Some(year) = scanner.peek().number_of_length(6) else {
            return Some(sign_token);
        };
        scanner.next();
        if sign < 0 && year == 0 {
            // "-000000" is not a year; the legacy rules see what follows.
            return Some(sign_token);
        }
        day.add(sign * year);
    } else if let Some(year) = scanner.peek().number_of_length(4) {
        scanner.next();
        day.add(year);
    } else {
        return Some(scanner.next());
    }
    if scanner.skip_symbol(b'-') {
        match scanner.peek().number_of_length(2) {
            Some(month) if (1..=12).contains(&month) => {
                scanner.next();
                day.add(month);
            }
            _ => return Some(scanner.next()),
        }
        if scanner.skip_symbol(b'-') {
            match scanner.peek().number_of_length(2) {
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
        let hour = scanner.peek().number_of_length(2).filter(|h| (0..=24).contains(h))?;
        let hour_is_24 = hour == 24;
        scanner.next();
        time.add(hour);
        if !scanner.skip_symbol(b':') {
            return None;
        }
        let minute = scanner
            .peek()
            .number_of_length(2)
            .filter(|&m| is_minute(m) && !(hour_is_24 && m > 0))?;
        scanner.next();
        time.add(minute);
        if scanner.skip_symbol(b':') {
            let second = scanner
                .peek()
                .number_of_length(2)
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
            if let Some(hhmm) = scanner.peek().number_of_length(4) {
                let (hours, minutes) = (hhmm / 100, hhmm % 100);
                if !is_hour(hours) || !is_minute(minutes) {
                    return None;
                }
                scanner.next();
                zone.hour = Some(hours);
                zone.minute = Some(minutes);
            } else {
                let hours = scanner.peek().number_of_length(2).filter(|&h| is_hour(h))?;
                scanner.next();
                zone.hour = Some(hours);
                if !scanner.skip_symbol(b':') {
                    return None;
                }
                let minutes = scanner.peek().number_of_length(2).filter(|&m| is_minute(m))?;
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

    /// `Date.parse(text)` with NaN for `None`, through both entry points, which must agree.
    fn parse(text: &str) -> f64 {
        let units: Vec<u16> = text.encode_utf16().collect();
        let from_str = parse_date(&Str::from(text));
        assert_eq!(
            from_str.map(f64::to_bits),
            parse_date_utf16(&units).map(f64::to_bits),
            "{text:?}"
        );
        from_str.unwrap_or(f64::NAN)
    }

    /// node 20's `Date.parse` with `TZ=UTC` (`None` for NaN) over each kind of text it reads:
    /// the ISO format with and without a zone, RFC 2822 and `toString()` output, slashes, month
    /// names, AM/PM, comments, white space beyond ASCII, rollover, and what is out of range.
    const NODE_20: &[(&str, Option<f64>)] = &[
        ("2019", Some(1_546_300_800_000.0)),
        ("2019-01", Some(1_546_300_800_000.0)),
        ("2019-01-02", Some(1_546_387_200_000.0)),
        ("2019-01-02T03:04", Some(1_546_398_240_000.0)),
        ("2019-01-02T03:04:05", Some(1_546_398_245_000.0)),
        ("2019-01-02T03:04:05.678", Some(1_546_398_245_678.0)),
        ("2019-01-02T03:04:05.678Z", Some(1_546_398_245_678.0)),
        ("2019-01-02T03:04:05+01:00", Some(1_546_394_645_000.0)),
        ("2019-01-02T03:04:05.6-0530", Some(1_546_418_045_600.0)),
        ("2019-01-02T24:00:00Z", Some(1_546_473_600_000.0)),
        ("2019-01-02T24:00:01Z", None),
        ("2019-01-02t03:04:05z", Some(1_546_398_245_000.0)),
        ("+002019-01-02T00:00:00Z", Some(1_546_387_200_000.0)),
        ("-000001-01-01T00:00:00Z", Some(-62_198_755_200_000.0)),
        ("-000000-01-01T00:00:00Z", None),
        ("+275760-09-13T00:00:00.000Z", Some(8.64e15)),
        ("+275760-09-13T00:00:00.001Z", None),
        ("-271821-04-20T00:00:00.000Z", Some(-8.64e15)),
        ("-271821-04-19T23:59:59.999Z", None),
        ("+275761-01-01", None),
        ("-271822-01-01", None),
        ("275760-09-13", Some(8.64e15)),
        ("Sep 13 275760", Some(8.64e15)),
        ("Sep 14 275760", None),
        ("Apr 19 -271821", None),
        ("Mar 5 99999", Some(3_093_501_888_000_000.0)),
        ("Mar 5 9999999", None),
        ("Tue, 01 Jan 2019 00:00:00 GMT", Some(1_546_300_800_000.0)),
        ("Tue, 01 Jan 2019 00:00:00 +0100", Some(1_546_297_200_000.0)),
        ("01 Jan 2019 00:00:00 EST", Some(1_546_318_800_000.0)),
        (
            "Tue Jan 01 2019 10:20:30 GMT+0000 (Coordinated Universal Time)",
            Some(1_546_338_030_000.0),
        ),
        ("Dec 25, 1995 13:30:00 PST", Some(819_927_000_000.0)),
        ("2019/01/02", Some(1_546_387_200_000.0)),
        ("2019/1/2 3:04 PM", Some(1_546_441_440_000.0)),
        ("2019-1-2", Some(1_546_387_200_000.0)),
        ("1/2/2019", Some(1_546_387_200_000.0)),
        ("1/2/19", Some(1_546_387_200_000.0)),
        ("1/2/70", Some(86_400_000.0)),
        ("13/01/2019", None),
        ("January 2, 2019", Some(1_546_387_200_000.0)),
        ("2 January 2019", Some(1_546_387_200_000.0)),
        ("jan 2 2019", Some(1_546_387_200_000.0)),
        ("JANUARY 2 2019", Some(1_546_387_200_000.0)),
        ("Sept 9, 2019", Some(1_567_987_200_000.0)),
        ("12:00 AM Jan 1 2019", Some(1_546_300_800_000.0)),
        ("Jan 2 2019 12:00 PM", Some(1_546_430_400_000.0)),
        ("Jan 2 2019 13:00 PM", None),
        ("Jan 2 2019 3:4:5.6", Some(1_546_398_245_600.0)),
        ("10:00 Jan 2 2019 Z", Some(1_546_423_200_000.0)),
        ("2019-01-02 03:04:05", Some(1_546_398_245_000.0)),
        ("2019-01-02 03:04:05 +05:30", Some(1_546_378_445_000.0)),
        ("2019-01-02 (a comment) 10:00", Some(1_546_423_200_000.0)),
        ("Jan 2 2019 (open", Some(1_546_387_200_000.0)),
        ("  2019-01-02  ", Some(1_546_387_200_000.0)),
        ("\u{a0}Jan\u{a0}2\u{a0}2019", Some(1_546_387_200_000.0)),
        ("Jan\u{3000}2\u{3000}2019", Some(1_546_387_200_000.0)),
        ("Jan\u{2028}2 2019", Some(1_546_387_200_000.0)),
        ("Jan 2 2019\0garbage", Some(1_546_387_200_000.0)),
        ("M\u{e4}r 5 2024", None),
        ("2019-02-29", Some(1_551_398_400_000.0)),
        ("2020-02-30", Some(1_583_020_800_000.0)),
        ("Feb 30 2019", Some(1_551_484_800_000.0)),
        ("2019-02-32", None),
        ("Feb 32 2019", None),
        ("2019-13-01", None),
        ("2019-00-01", None),
        ("2019-01-02T25:00", None),
        ("2019-01-02T03:60", None),
        ("2019-01-02T03:04:05+24:00", None),
        ("2019-01-02T03:04:05.678+01", None),
        ("1970-01-01T00:00:00.0001Z", Some(0.0)),
        ("1970-01-01T00:00:00.9999Z", Some(999.0)),
        ("2019.5", Some(1_556_668_800_000.0)),
        ("20190102", None),
        ("0", Some(946_684_800_000.0)),
        ("12", Some(1_007_164_800_000.0)),
        ("32", Some(1_956_528_000_000.0)),
        ("99", Some(915_148_800_000.0)),
        ("", None),
        ("soon", None),
        ("2019 soon", None),
        ("Tuesday", None),
    ];

    #[test]
    fn parse_matches_node_20() {
        let failures: Vec<String> = NODE_20
            .iter()
            .filter(|(text, expected)| {
                let got = parse(text);
                got.to_bits() != expected.unwrap_or(f64::NAN).to_bits()
            })
            .map(|(text, expected)| format!("{text:?}: got {}, node {expected:?}", parse(text)))
            .collect();
        assert!(failures.is_empty(), "{}", failures.join("\n"));
    }

    #[test]
    fn parse_reads_a_lone_surrogate_as_a_letter() {
        // JavaScript text may hold one; it ends a date as any other stray letter does.
        let mut units: Vec<u16> = "2019-01-02".encode_utf16().collect();
        assert_eq!(parse_date_utf16(&units), Some(1_546_387_200_000.0));
        units.push(0xD800);
        assert_eq!(parse_date_utf16(&units), None);
        assert_eq!(parse_date(&Str::from_utf16(&units)), None);
        units.splice(0..0, [0xD800, 0x20]);
        units.pop();
        assert_eq!(parse_date(&Str::from_utf16(&units)), Some(1_546_387_200_000.0));
    }

    #[test]
    fn parse_reads_the_common_forms() {
        let march_5 = 1_709_596_800_000.0;
        assert_eq!(parse("2024-03-05"), march_5);
        assert_eq!(parse("Mar 5, 2024"), march_5);
        assert_eq!(parse("5 March 2024"), march_5);
        assert_eq!(parse("2024/03/05"), march_5);
        assert_eq!(parse("March 5, 2024 10:30:00"), march_5 + 37_800_000.0);
        assert_eq!(parse("2024-03-05 10:30"), march_5 + 37_800_000.0);
        assert_eq!(parse("2024-03-05T10:30:00.000Z"), march_5 + 37_800_000.0);
        assert_eq!(parse("Tue, 05 Mar 2024 10:00:00 GMT"), march_5 + 36_000_000.0);
        assert_eq!(parse("05 Mar 2024 10:00:00 +0100"), march_5 + 32_400_000.0);
        assert_eq!(parse("2024-03-05T10:00:00+01:00"), march_5 + 32_400_000.0);
        // ISO days up to 31 roll over, as V8 does; past 31 they are NaN.
        assert_eq!(parse("2024-02-30"), march_5 - 4.0 * MS_PER_DAY);
        for bad in ["-000000", "2024-03-05T25:00", "2018-13", "2018-02-30T25:00:00"] {
            assert!(parse(bad).is_nan(), "{bad}");
        }
    }

    #[test]
    fn iso_dates_as_v8_reads_them() {
        assert_eq!(parse("2018"), 1_514_764_800_000.0);
        assert_eq!(parse("2017-10-30T15:28:34Z"), 1_509_377_314_000.0);
        assert_eq!(parse("1970-01-01T00:00:00.001Z"), 1.0);
        assert_eq!(parse("2018-02-01T09:42:13.123+0000"), 1_517_478_133_123.0);
        assert_eq!(parse("2018-02-31"), parse("2018-03-03"));
        assert_eq!(parse("0000-01-01"), -62_167_219_200_000.0);
        // Four digits are a year in the ISO form, however small.
        assert_eq!(parse("0050"), -60_589_296_000_000.0);
        // Where the ISO form breaks off, the legacy rules read on: May 2018, and a zone.
        assert_eq!(parse("2018.5"), 1_525_132_800_000.0);
        assert_eq!(parse("2018-00:00"), 1_514_764_800_000.0);
    }

    #[test]
    fn utc_follows_make_day_and_make_time() {
        let utc_of = |fields: &[f64]| {
            let mut all = [f64::NAN, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0];
            all[..fields.len()].copy_from_slice(fields);
            utc(all)
        };
        assert_eq!(utc_of(&[2024.0, 2.0, 5.0]), 1_709_596_800_000.0);
        assert_eq!(
            utc_of(&[2018.0, 2.0, 23.0, 10.0, 33.0, 36.0, 617.0]),
            1_521_801_216_617.0
        );
        assert_eq!(utc_of(&[2024.0]), 1_704_067_200_000.0);
        // Years 0 to 99 are 1900 to 1999, after truncation.
        assert_eq!(utc_of(&[99.0]), 915_148_800_000.0);
        assert_eq!(utc_of(&[99.5]), 915_148_800_000.0);
        assert_eq!(utc_of(&[-0.5]), -2_208_988_800_000.0);
        assert_eq!(utc_of(&[100.0]), -59_011_459_200_000.0);
        // Fields past their range carry into the next one up, either way.
        assert_eq!(utc_of(&[2024.0, 13.0, 1.0]), utc_of(&[2025.0, 1.0, 1.0]));
        assert_eq!(utc_of(&[2024.0, -1.0, 1.0]), utc_of(&[2023.0, 11.0, 1.0]));
        assert_eq!(
            utc_of(&[2018.0, 0.0, 0.0, 0.0, 0.0, 0.0, 19.9]),
            utc_of(&[2017.0, 11.0, 31.0, 0.0, 0.0, 0.0, 19.0])
        );
        assert_eq!(
            utc_of(&[2024.0, 0.0, 1.0, 25.0, 61.0, 61.0, 1001.0]),
            1_704_160_922_001.0
        );
        assert_eq!(utc_of(&[275760.0, 8.0, 13.0, 0.0, 0.0, 0.0, 0.9]), 8.64e15);
        let zero = utc_of(&[1970.0, 0.0, 1.0, 0.0, 0.0, 0.0, -0.9]);
        assert!(zero == 0.0 && zero.is_sign_positive());
        assert_eq!(time_clip(-1.7), -1.0);
        for out_of_range in [
            &[275760.0, 8.0, 13.0, 0.0, 0.0, 0.0, 1.0][..],
            &[275_761.0],
            &[1_000_000.5, 0.0],
            &[2024.0, 1e7 + 1.0],
            &[2024.0, f64::NAN],
            &[f64::INFINITY],
            &[f64::NAN],
            &[],
        ] {
            assert!(utc_of(out_of_range).is_nan(), "{out_of_range:?}");
        }
    }

    #[test]
    fn civil_round_trip() {
        for days in [
            -719_468i64,
            -1,
            0,
            1,
            10_957,
            17_613,
            2_932_896,
            -100_000_000,
            100_000_000,
        ] {
            let (y, m, d) = civil_from_days(days);
            assert_eq!(days_from_civil(y, m, d), days, "{days}");
        }
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
        assert_eq!(make_day(1900.0, 2.0, 1.0), make_day(1900.0, 1.0, 29.0));
        assert_eq!(make_day(2000.0, 2.0, 1.0), make_day(2000.0, 1.0, 30.0));
    }

    #[test]
    fn fields_of_times() {
        let f = UtcFields::of(1_521_801_216_617.0);
        assert_eq!((f.year, f.month, f.day, f.weekday), (2018.0, 2.0, 23.0, 5.0));
        assert_eq!((f.hours, f.minutes, f.seconds, f.millis), (10.0, 33.0, 36.0, 617.0));
        let f = UtcFields::of(-1.0);
        assert_eq!(
            (f.year, f.month, f.day, f.hours, f.millis),
            (1969.0, 11.0, 31.0, 23.0, 999.0)
        );
        let f = UtcFields::of(-8.64e15);
        assert_eq!((f.year, f.month, f.day, f.weekday), (-271_821.0, 3.0, 20.0, 2.0));
        assert!(UtcFields::of(f64::NAN).year.is_nan());
        assert!(UtcFields::of(8.64e15 + 1.0).weekday.is_nan());
        assert!(UtcFields::of(f64::INFINITY).millis.is_nan());
    }

    #[test]
    fn month_names_are_what_parse_reads() {
        for (index, name) in MONTH_NAMES.iter().enumerate() {
            let expected = utc([2019.0, index as f64, 2.0, 0.0, 0.0, 0.0, 0.0]);
            assert_eq!(parse(&format!("{name} 2 2019")), expected, "{name}");
            assert_eq!(parse(&format!("2 {} 2019", name.to_uppercase())), expected, "{name}");
        }
    }
}
