//! ECMAScript time values (milliseconds since the epoch, proleptic Gregorian, UTC) and the
//! operations jsonata-js performs on them through `Date`: `Date.UTC`, `TimeClip`, the UTC
//! getters, and the ISO week arithmetic of date pictures. An invalid time is NaN, and every
//! getter of it is NaN, as in JavaScript.

/// Milliseconds in a day.
pub(super) const MS_PER_DAY: f64 = 86_400_000.0;

/// `TimeClip`: NaN beyond ±8.64e15 ms, otherwise the integer part (never -0).
pub(super) fn time_clip(time: f64) -> f64 {
    if time.abs() <= 8.64e15 {
        time.trunc() + 0.0
    } else {
        f64::NAN
    }
}

/// `MakeDay`: the day number of `date` in month `month` (0-based, carried into the year) of
/// `year`; like V8, NaN for years beyond ±1,000,000 or months beyond ±10,000,000.
fn make_day(year: f64, month: f64, date: f64) -> f64 {
    if !(-1_000_000.0..=1_000_000.0).contains(&year)
        || !(-10_000_000.0..=10_000_000.0).contains(&month)
        || !date.is_finite()
    {
        return f64::NAN;
    }
    let month = month.trunc() as i64;
    let year = year.trunc() as i64 + month.div_euclid(12);
    let first = days_from_civil(year, month.rem_euclid(12) + 1, 1);
    first as f64 + date.trunc() - 1.0
}

/// `MakeTime`: milliseconds into the day, each field truncated, NaN unless all are finite.
fn make_time(hours: f64, minutes: f64, seconds: f64, millis: f64) -> f64 {
    if !(hours.is_finite() && minutes.is_finite() && seconds.is_finite() && millis.is_finite()) {
        return f64::NAN;
    }
    hours.trunc() * 3_600_000.0 + minutes.trunc() * 60_000.0 + seconds.trunc() * 1000.0 + millis.trunc()
}

/// `Date.UTC(year, month, day, hours, minutes, seconds, millis)`: years 0 to 99 mean 1900 to
/// 1999.
pub(super) fn date_utc(fields: [f64; 7]) -> f64 {
    let mut fields = fields;
    if !fields[0].is_nan() && (0.0..=99.0).contains(&fields[0].trunc()) {
        fields[0] = 1900.0 + fields[0].trunc();
    }
    make_date(fields)
}

/// The time value of the given year, month (0-based), day, hours, minutes, seconds and
/// milliseconds (UTC), every field taken as it is, clipped.
pub(super) fn make_date(fields: [f64; 7]) -> f64 {
    let [year, month, day, hours, minutes, seconds, millis] = fields;
    let day = make_day(year, month, day);
    let time = make_time(hours, minutes, seconds, millis);
    let date = day * MS_PER_DAY + time;
    time_clip(if date.is_finite() { date } else { f64::NAN })
}

/// `Date.UTC(year, month)`: the first of the month at midnight.
pub(super) fn month_start(year: f64, month: f64) -> f64 {
    date_utc([year, month, 1.0, 0.0, 0.0, 0.0, 0.0])
}

/// Days from 1970-01-01 to the given date (month 1-based), proleptic Gregorian.
fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The year, month (1-based) and day of a day number.
fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

/// What the UTC getters of a `Date` give, all NaN for an invalid time.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Fields {
    /// `getUTCFullYear()`.
    pub year: f64,
    /// `getUTCMonth()`: 0-based.
    pub month: f64,
    /// `getUTCDate()`.
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

impl Fields {
    /// The fields of time value `t` (already clipped).
    pub(super) fn of(t: f64) -> Fields {
        if t.is_nan() {
            return Fields {
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
        let days = (t / MS_PER_DAY).floor();
        let in_day = (t - days * MS_PER_DAY) as i64;
        let days = days as i64;
        let (year, month, day) = civil_from_days(days);
        Fields {
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

/// Midnight at the start of ISO week 1 of the month (or, for January, the year) that
/// `month` (0-based) of `year` begins: the Monday of the week holding its first Thursday.
pub(super) fn start_of_first_week(year: f64, month: f64) -> f64 {
    let first = month_start(year, month);
    let mut weekday = Fields::of(first).weekday;
    if weekday == 0.0 {
        weekday = 7.0;
    }
    if weekday > 4.0 {
        first + (8.0 - weekday) * MS_PER_DAY
    } else {
        first - (weekday - 1.0) * MS_PER_DAY
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
    }

    #[test]
    fn date_utc_like_javascript() {
        assert_eq!(
            date_utc([2018.0, 2.0, 23.0, 10.0, 33.0, 36.0, 617.0]),
            1_521_801_216_617.0
        );
        assert_eq!(date_utc([99.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0]), 915_148_800_000.0);
        assert_eq!(
            date_utc([2018.0, 13.0, 1.0, 0.0, 0.0, 0.0, 0.0]),
            date_utc([2019.0, 1.0, 1.0, 0.0, 0.0, 0.0, 0.0])
        );
        assert_eq!(
            date_utc([2018.0, 0.0, 0.0, 0.0, 0.0, 0.0, 19.9]),
            date_utc([2017.0, 11.0, 31.0, 0.0, 0.0, 0.0, 19.0])
        );
        assert!(date_utc([f64::NAN, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0]).is_nan());
        assert!(date_utc([275_761.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0]).is_nan());
        assert_eq!(time_clip(-1.7), -1.0);
    }

    #[test]
    fn fields_of_times() {
        let f = Fields::of(1_521_801_216_617.0);
        assert_eq!((f.year, f.month, f.day, f.weekday), (2018.0, 2.0, 23.0, 5.0));
        assert_eq!((f.hours, f.minutes, f.seconds, f.millis), (10.0, 33.0, 36.0, 617.0));
        let f = Fields::of(-1.0);
        assert_eq!(
            (f.year, f.month, f.day, f.hours, f.millis),
            (1969.0, 11.0, 31.0, 23.0, 999.0)
        );
        assert!(Fields::of(f64::NAN).year.is_nan());
        // 2005-01-03 is the Monday of ISO week 1 of 2005.
        assert_eq!(
            start_of_first_week(2005.0, 0.0),
            date_utc([2005.0, 0.0, 3.0, 0.0, 0.0, 0.0, 0.0])
        );
        assert_eq!(
            start_of_first_week(2009.0, 0.0),
            date_utc([2008.0, 11.0, 29.0, 0.0, 0.0, 0.0, 0.0])
        );
    }
}
