//! XPath date/time pictures (F&O 9.8.4): literals and `[…]` variable markers, analysed into
//! parts, and a time value written out with them (`$fromMillis`, `$now`), with the ISO week
//! arithmetic their `W`, `w`, `X` and `x` components need.

use writ_core::date::{MONTH_NAMES, MS_PER_DAY, UtcFields, time_clip, utc};
use writ_core::{Str, js, js_number_to_string, write_json_string};

use crate::error::{Code, Error, Result};
use crate::eval::Cx;
use crate::functions::number::fdlibm;
use crate::functions::number::jsnum::{native_error, pace, parse_int};
use crate::functions::number::picture::{self as integer, Case, Grouping, IntegerFormat, Primary};
use crate::functions::number::text::{
    ascii_lower, ascii_upper, index_of, last_index_of, replace_all, substring, units,
};

/// The picture `$fromMillis` uses when given none: ISO 8601 with milliseconds.
const ISO_PICTURE: &str = "[Y0001]-[M01]-[D01]T[H01]:[m01]:[s01].[f001][Z01:01t]";

/// Day names, Monday first at 1 (ISO 8601 numbering).
pub(super) const DAYS: [&str; 8] = [
    "",
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
    "Sunday",
];

/// A width modifier `,min-max`; `*` or nothing leaves a bound out.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Width {
    /// The fewest characters (a parsed integer, possibly NaN).
    pub min: Option<f64>,
    /// The most characters.
    pub max: Option<f64>,
}

/// A variable marker.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Marker {
    /// The component letter (`Y`, `M`, `D`, …).
    pub component: u16,
    /// The width modifier, if any.
    pub width: Option<Width>,
    /// The second presentation modifier (`a`, `t`, `c` or `o`).
    pub presentation2: Option<u16>,
    /// Written as a name (`n`, `N`, `Nn`), in this case.
    pub names: Option<Case>,
    /// Written as an integer in this format (and, for `Z`/`z`, the offset's format).
    pub integer: Option<IntegerFormat>,
    /// For `Y`: how many low digits of the year to keep, -1 for all.
    pub year_digits: f64,
}

/// One piece of a picture.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Part {
    /// Text written as is.
    Literal(Vec<u16>),
    /// A component of the date.
    Marker(Marker),
}

/// The presentation modifier a component takes when the marker gives none.
fn default_presentation(component: u16) -> Option<&'static str> {
    Some(match char::from_u32(u32::from(component))? {
        'Y' | 'M' | 'D' | 'd' | 'W' | 'w' | 'X' | 'x' | 'H' | 'h' | 'f' => "1",
        'F' | 'P' | 'C' | 'E' => "n",
        'm' | 's' => "01",
        'Z' | 'z' => "01:01",
        _ => return None,
    })
}

/// Whether `component` is one of `letters`.
fn is_one_of(component: u16, letters: &str) -> bool {
    letters.encode_utf16().any(|c| c == component)
}

/// `text` as a JSON string, for an error's value.
fn json_text(text: &[u16]) -> String {
    let mut out = String::new();
    write_json_string(&Str::from_utf16(text), &mut out);
    out
}

/// Analyses a date/time picture (D3135 for a marker without its `]`, D3132 for a marker with
/// no presentation that names no component, and the integer pictures' own errors).
pub(super) fn analyse(cx: &mut Cx<'_>, picture: &[u16]) -> Result<Vec<Part>> {
    cx.steps(picture.len() as u64)?;
    let mut parts: Vec<Part> = Vec::new();
    let add_literal = |parts: &mut Vec<Part>, text: &[u16]| {
        if !text.is_empty() {
            parts.push(Part::Literal(replace_all(text, &units("]]"), &units("]"))));
        }
    };
    let (mut start, mut pos) = (0, 0);
    while pos < picture.len() {
        pace(cx, pos, picture.len())?;
        if picture[pos] == 0x5B {
            if picture.get(pos + 1) == Some(&0x5B) {
                add_literal(&mut parts, &picture[start..pos]);
                parts.push(Part::Literal(units("[")));
                pos += 2;
                start = pos;
                continue;
            }
            add_literal(&mut parts, &picture[start..pos]);
            start = pos;
            let Some(end) = index_of(picture, &[0x5D], start) else {
                return Err(Error::new(Code::D3135).at(cx.position));
            };
            pos = end;
            cx.steps((end - start) as u64)?;
            let marker: Vec<u16> = picture[start + 1..pos]
                .iter()
                .copied()
                .filter(|&u| !js::is_space(u))
                .collect();
            let part = analyse_marker(cx, &marker, &mut parts)?;
            parts.push(Part::Marker(part));
            start = pos + 1;
        }
        pos += 1;
    }
    add_literal(&mut parts, &picture[start.min(picture.len())..]);
    Ok(parts)
}

/// One variable marker, its white space already removed. `parts` are those before it: an
/// integer right before an integer must be read with a fixed width.
fn analyse_marker(cx: &mut Cx<'_>, marker: &[u16], parts: &mut [Part]) -> Result<Marker> {
    let len = marker.len() as i64;
    let component = marker.first().copied();
    let (presentation, width) = match last_index_of(marker, &[0x2C]) {
        Some(comma) => {
            let modifier = substring(marker, comma as i64 + 1, len);
            let bound = |text: Option<&[u16]>| match text {
                None | Some([0x2A]) => None,
                Some(text) => Some(parse_int(text)),
            };
            let (min, max) = match index_of(modifier, &[0x2D], 0) {
                None => (Some(modifier), None),
                Some(dash) => (Some(&modifier[..dash]), Some(&modifier[dash + 1..])),
            };
            (
                substring(marker, 1, comma as i64),
                Some(Width {
                    min: bound(min),
                    max: bound(max),
                }),
            )
        }
        None => (substring(marker, 1, len), None),
    };
    let (presentation1, presentation2): (Vec<u16>, Option<u16>) = match presentation {
        [] => match component.and_then(default_presentation) {
            Some(default) => (units(default), None),
            None => {
                let name = component.map(|c| vec![c]).unwrap_or_default();
                return Err(Error::new(Code::D3132).with_value(json_text(&name)).at(cx.position));
            }
        },
        [_] => (presentation.to_vec(), None),
        [first @ .., last] if is_one_of(*last, "atco") => (first.to_vec(), Some(*last)),
        _ => (presentation.to_vec(), None),
    };
    // Every path above gave a component or returned (an empty marker has no presentation).
    let component = component.unwrap_or(0);
    let mut result = Marker {
        component,
        width,
        presentation2,
        names: None,
        integer: None,
        year_digits: -1.0,
    };
    match presentation1.as_slice() {
        [0x6E, ..] => result.names = Some(Case::Lower),
        [0x4E, 0x6E, ..] => result.names = Some(Case::Title),
        [0x4E, ..] => result.names = Some(Case::Upper),
        _ if is_one_of(component, "YMDdFWwXxHhmsf") => {
            let mut pattern = presentation1.clone();
            if let Some(second) = presentation2 {
                pattern.extend_from_slice(&[0x3B, second]);
            }
            let mut format = integer::analyse(cx, &pattern)?;
            if let (Some(min), Some(mandatory)) = (width.and_then(|w| w.min), format.mandatory)
                && mandatory < min
            {
                format.mandatory = Some(min);
            }
            if component == 0x59 {
                match width.and_then(|w| w.max) {
                    Some(max) => {
                        result.year_digits = max;
                        format.mandatory = Some(max);
                    }
                    None => {
                        let digits = format.mandatory.unwrap_or(f64::NAN) + format.optional.unwrap_or(f64::NAN);
                        if digits >= 2.0 {
                            result.year_digits = digits;
                        }
                    }
                }
            }
            if let Some(Part::Marker(Marker {
                integer: Some(previous),
                ..
            })) = parts.last_mut()
            {
                previous.parse_width = previous.mandatory;
            }
            result.integer = Some(format);
        }
        _ => {}
    }
    if component == 0x5A || component == 0x7A {
        result.integer = Some(integer::analyse(cx, &presentation1)?);
    }
    Ok(result)
}

/// A component's value before formatting.
enum Fragment {
    /// A number (NaN for an invalid date).
    Number(f64),
    /// Text: `am`/`pm`, or `ISO` for the calendar and era.
    Text(&'static str),
    /// No value (`Z`, `z`, and letters that name no component).
    Undefined,
}

/// `Date.UTC(year, month)`: the first of the month at midnight.
pub(super) fn month_start(year: f64, month: f64) -> f64 {
    utc([year, month, 1.0, 0.0, 0.0, 0.0, 0.0])
}

/// Midnight at the start of ISO week 1 of the month (or, for January, the year) that
/// `month` (0-based) of `year` begins: the Monday of the week holding its first Thursday.
fn start_of_first_week(year: f64, month: f64) -> f64 {
    let first = month_start(year, month);
    let mut weekday = UtcFields::of(first).weekday;
    if weekday == 0.0 {
        weekday = 7.0;
    }
    if weekday > 4.0 {
        first + (8.0 - weekday) * MS_PER_DAY
    } else {
        first - (weekday - 1.0) * MS_PER_DAY
    }
}

/// The numeric value of `component` for time value `t` with fields `f`; NaN for the
/// components that are text (`P`, `C`, `E`) or have none.
pub(super) fn component_value(t: f64, f: &UtcFields, component: u16) -> f64 {
    match fragment(t, f, component) {
        Fragment::Number(n) => n,
        Fragment::Text(_) | Fragment::Undefined => f64::NAN,
    }
}

/// Weeks from `start` to `end`, counting the first as week 1.
fn weeks_between(start: f64, end: f64) -> f64 {
    (end - start) / (MS_PER_DAY * 7.0) + 1.0
}

/// The value of `component` for time value `t` with fields `f`, as jsonata-js computes it
/// from a `Date`.
fn fragment(t: f64, f: &UtcFields, component: u16) -> Fragment {
    let today = || utc([f.year, f.month, f.day, 0.0, 0.0, 0.0, 0.0]);
    let next_month = || {
        if f.month == 11.0 {
            (f.year + 1.0, 0.0)
        } else {
            (f.year, f.month + 1.0)
        }
    };
    let previous_month = || {
        if f.month == 0.0 {
            (f.year - 1.0, 11.0)
        } else {
            (f.year, f.month - 1.0)
        }
    };
    let value = match char::from_u32(u32::from(component)).unwrap_or('\0') {
        'Y' => f.year,
        'M' => f.month + 1.0,
        'D' => f.day,
        'd' => (today() - month_start(f.year, 0.0)) / MS_PER_DAY + 1.0,
        'F' => {
            if f.weekday == 0.0 {
                7.0
            } else {
                f.weekday
            }
        }
        'W' => {
            let today = today();
            let mut n = weeks_between(start_of_first_week(f.year, 0.0), today);
            if n > 52.0 {
                if today >= start_of_first_week(f.year + 1.0, 0.0) {
                    n = 1.0;
                }
            } else if n < 1.0 {
                n = weeks_between(start_of_first_week(f.year - 1.0, 0.0), today);
            }
            n.floor()
        }
        'w' => {
            let today = today();
            let mut n = weeks_between(start_of_first_week(f.year, f.month), today);
            if n > 4.0 {
                let (y, m) = next_month();
                if today >= start_of_first_week(y, m) {
                    n = 1.0;
                }
            } else if n < 1.0 {
                let (y, m) = previous_month();
                n = weeks_between(start_of_first_week(y, m), today);
            }
            n.floor()
        }
        'X' => {
            if t < start_of_first_week(f.year, 0.0) {
                f.year - 1.0
            } else if t >= start_of_first_week(f.year + 1.0, 0.0) {
                f.year + 1.0
            } else {
                f.year
            }
        }
        'x' => {
            let (next_year, next) = next_month();
            if t < start_of_first_week(f.year, f.month) {
                previous_month().1 + 1.0
            } else if t >= start_of_first_week(next_year, next) {
                next + 1.0
            } else {
                f.month + 1.0
            }
        }
        'H' => f.hours,
        'h' => {
            let h = f.hours % 12.0;
            if h == 0.0 { 12.0 } else { h }
        }
        'P' => return Fragment::Text(if f.hours >= 12.0 { "pm" } else { "am" }),
        'm' => f.minutes,
        's' => f.seconds,
        'f' => f.millis,
        'C' | 'E' => return Fragment::Text("ISO"),
        _ => return Fragment::Undefined,
    };
    Fragment::Number(value)
}

/// `$fromMillis(millis, picture, timezone)`: `millis` written with `picture` (ISO 8601 when
/// absent) in the zone `timezone` (`±HHMM`, read as jsonata-js reads it: `parseInt`, then
/// hundreds as hours and the rest as minutes).
pub(super) fn format_date_time(
    cx: &mut Cx<'_>,
    millis: f64,
    picture: Option<&[u16]>,
    timezone: Option<&[u16]>,
) -> Result<Vec<u16>> {
    let (offset_hours, offset_minutes) = match timezone {
        Some(zone) => {
            let offset = parse_int(zone);
            ((offset / 100.0).floor(), offset % 100.0)
        }
        None => (0.0, 0.0),
    };
    let parts = match picture {
        Some(picture) => analyse(cx, picture)?,
        None => analyse(cx, &units(ISO_PICTURE))?,
    };
    let t = time_clip(millis + (60.0 * offset_hours + offset_minutes) * 60.0 * 1000.0);
    let fields = UtcFields::of(t);
    let zone = Zone {
        hours: offset_hours,
        minutes: offset_minutes,
    };
    let mut out = Vec::new();
    for part in &parts {
        cx.step()?;
        match part {
            Part::Literal(text) => out.extend_from_slice(text),
            Part::Marker(marker) => out.extend(format_marker(cx, t, &fields, marker, zone)?),
        }
    }
    Ok(out)
}

/// The zone offset the time is written in.
#[derive(Clone, Copy)]
struct Zone {
    /// Whole hours (floored), possibly NaN.
    hours: f64,
    /// The rest, in minutes, with the offset's sign.
    minutes: f64,
}

/// One marker's text.
fn format_marker(cx: &mut Cx<'_>, t: f64, fields: &UtcFields, marker: &Marker, zone: Zone) -> Result<Vec<u16>> {
    let component = marker.component;
    let value = fragment(t, fields, component);
    let integer = |cx: &mut Cx<'_>, n: f64| match &marker.integer {
        Some(format) => integer::format(cx, n, format),
        None => Err(native_error(
            cx,
            "Cannot read properties of undefined (reading 'primary')",
        )),
    };
    match value {
        Fragment::Number(mut n) if is_one_of(component, "YMDdFWwXxHhms") => {
            if component == 0x59 && marker.year_digits != -1.0 {
                n %= fdlibm::pow(10.0, marker.year_digits);
            }
            let Some(case) = marker.names else {
                return integer(cx, n);
            };
            let name = if component == 0x4D || component == 0x78 {
                index(&MONTH_NAMES, n - 1.0)
            } else if component == 0x46 {
                index(&DAYS, n)
            } else {
                return Err(Error::new(Code::D3133)
                    .with_value(json_text(&[component]))
                    .at(cx.position));
            };
            let Some(name) = name else {
                // jsonata-js goes on with `undefined`: an error as soon as it is used as text.
                if case != Case::Title || marker.width.is_some() {
                    return Err(native_error(cx, "Cannot read properties of undefined"));
                }
                return Ok(units("undefined"));
            };
            let mut text = units(name);
            text = match case {
                Case::Upper => ascii_upper(&text),
                Case::Lower => ascii_lower(&text),
                Case::Title => text,
            };
            if let Some(max) = marker.width.and_then(|w| w.max)
                && text.len() as f64 > max
            {
                text = substring(&text, 0, max as i64).to_vec();
            }
            Ok(text)
        }
        Fragment::Number(n) => integer(cx, n),
        Fragment::Undefined if component == 0x5A || component == 0x7A => format_zone(cx, marker, zone),
        Fragment::Text(text) if component == 0x50 && marker.names == Some(Case::Upper) => Ok(ascii_upper(&units(text))),
        Fragment::Text(text) => Ok(units(text)),
        Fragment::Undefined => Ok(units("undefined")),
    }
}

/// The name at a 1-based month or 0-based day index, if the index is one.
fn index(table: &[&'static str], i: f64) -> Option<&'static str> {
    if i >= 0.0 && i.fract() == 0.0 {
        table.get(i as usize).copied()
    } else {
        None
    }
}

/// A `Z` or `z` marker: the offset as `±HH:MM`-like text per the picture (D3134 when the
/// picture asks for more than four digits), `GMT` before it for `z`, `Z` for UTC with `t`.
fn format_zone(cx: &mut Cx<'_>, marker: &Marker, zone: Zone) -> Result<Vec<u16>> {
    let offset = zone.hours * 100.0 + zone.minutes;
    let Some(format) = &marker.integer else {
        return Err(native_error(
            cx,
            "Cannot read properties of undefined (reading 'regular')",
        ));
    };
    let regular = matches!(
        format.primary,
        Primary::Decimal {
            grouping: Grouping::Regular { .. },
            ..
        }
    );
    let mut text = if regular {
        integer::format(cx, offset, format)?
    } else {
        match format.mandatory {
            Some(digits) if digits == 1.0 || digits == 2.0 => {
                let mut text = integer::format(cx, zone.hours, format)?;
                if zone.minutes != 0.0 {
                    let two_digits = integer::analyse(cx, &units("00"))?;
                    text.push(0x3A);
                    text.extend(integer::format(cx, zone.minutes.floor(), &two_digits)?);
                }
                text
            }
            Some(digits) if digits == 3.0 || digits == 4.0 => integer::format(cx, offset, format)?,
            digits => {
                let error = Error::new(Code::D3134).at(cx.position);
                return Err(match digits {
                    Some(digits) => error.with_value(js_number_to_string(digits)),
                    None => error,
                });
            }
        }
    };
    if offset >= 0.0 {
        text.insert(0, 0x2B);
    }
    if marker.component == 0x7A {
        text.splice(0..0, units("GMT"));
    }
    if offset == 0.0 && marker.presentation2 == Some(0x74) {
        text = units("Z");
    }
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_presentations() {
        assert_eq!(default_presentation(u16::from(b'Z')), Some("01:01"));
        assert_eq!(default_presentation(u16::from(b'm')), Some("01"));
        assert_eq!(default_presentation(u16::from(b'q')), None);
        assert_eq!(index(&MONTH_NAMES, 2.0), Some("March"));
        assert_eq!(index(&MONTH_NAMES, 12.0), None);
        assert_eq!(index(&DAYS, f64::NAN), None);
    }

    #[test]
    fn first_weeks_start_on_the_monday_of_the_first_thursday() {
        // 2005-01-03 is the Monday of ISO week 1 of 2005, and 2008-12-29 that of 2009.
        assert_eq!(
            start_of_first_week(2005.0, 0.0),
            utc([2005.0, 0.0, 3.0, 0.0, 0.0, 0.0, 0.0])
        );
        assert_eq!(
            start_of_first_week(2009.0, 0.0),
            utc([2008.0, 11.0, 29.0, 0.0, 0.0, 0.0, 0.0])
        );
    }
}
