//! `Intl.NumberFormat`: its options resolved as V8 11.3 resolves them.

mod data;
mod exact;
mod notation;
mod write;

use std::sync::Arc;

use icu::locale::extensions::unicode::{Value as KeywordValue, key};
use writ_core::Value;

use crate::error::{Error, Result};
use crate::interp::Cx;
use crate::locale::node::DIVERGENT_STYLES;
use crate::locale::options::{Options, digits_in_range, is_type_sequence};
use crate::locale::tags::{requested_locales, resolve_number_locale};

use data::{DataKind, NUMBER_DATA, NumberData, inherited};
use notation::{Notation, Scaler, UnitNames, UnitWidth};

/// `style`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Style {
    /// A plain number.
    Decimal,
    /// The number times 100, with the percent sign.
    Percent,
    /// An amount of money.
    Currency,
}

/// `currencyDisplay`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum CurrencyDisplay {
    /// `"symbol"`: `US$` in en-GB.
    Symbol,
    /// `"narrowSymbol"`: `$`.
    Narrow,
    /// `"code"`: `USD`.
    Code,
    /// `"name"`: `US dollars`.
    Name,
}

/// `useGrouping`, resolved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Grouping {
    /// The locale's minimum grouping digits.
    Auto,
    /// Group from four digits on.
    Always,
    /// Group from five digits on.
    Min2,
    /// No grouping.
    Never,
}

/// `signDisplay`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SignDisplay {
    /// A minus for negative numbers, `-0` included.
    Auto,
    /// No sign.
    Never,
    /// A plus or a minus.
    Always,
    /// A plus or a minus, except for a number that rounds to zero.
    ExceptZero,
    /// A minus for negative numbers that do not round to zero.
    Negative,
}

/// `roundingMode`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum RoundingMode {
    /// Toward +∞.
    Ceil,
    /// Toward -∞.
    Floor,
    /// Away from zero.
    Expand,
    /// Toward zero.
    Trunc,
    /// To nearest, ties toward +∞.
    HalfCeil,
    /// To nearest, ties toward -∞.
    HalfFloor,
    /// To nearest, ties away from zero (the default).
    HalfExpand,
    /// To nearest, ties toward zero.
    HalfTrunc,
    /// To nearest, ties to an even digit.
    HalfEven,
}

/// Which digit limits round the number (`[[RoundingType]]`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum RoundingType {
    /// The fraction digits.
    FractionDigits,
    /// The significant digits.
    SignificantDigits,
    /// Whichever of the two keeps more precision.
    MorePrecision,
    /// Whichever of the two keeps less precision.
    LessPrecision,
}

/// The digit options, resolved as `SetNumberFormatDigitOptions` resolves them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Digits {
    /// `minimumIntegerDigits`.
    min_integer: u32,
    /// `minimumFractionDigits`.
    min_fraction: u32,
    /// `maximumFractionDigits`.
    max_fraction: u32,
    /// `minimumSignificantDigits`.
    min_significant: u32,
    /// `maximumSignificantDigits`.
    max_significant: u32,
    /// Which of the limits round.
    rounding: RoundingType,
    /// `roundingIncrement`, in units of the last fraction digit.
    increment: u32,
    /// `roundingMode`.
    mode: RoundingMode,
    /// `trailingZeroDisplay: "stripIfInteger"`.
    strip_if_integer: bool,
}

/// A resolved `Intl.NumberFormat`: the options and the locale's data.
pub(super) struct NumberFormat {
    /// The locale's symbols and patterns.
    data: Arc<NumberData>,
    /// `style`.
    style: Style,
    /// The digit options.
    digits: Digits,
    /// `useGrouping`.
    grouping: Grouping,
    /// `signDisplay`.
    sign: SignDisplay,
    /// `currencySign: "accounting"`.
    accounting: bool,
    /// A notation's power of ten and names; `None` for the standard notation.
    scaler: Option<Scaler>,
    /// The unit's names, for `style: "unit"`.
    unit: Option<UnitNames>,
    /// Whether the number is a fraction of one hundred: the percent style, not the `percent`
    /// unit, which takes the number as it is.
    hundredths: bool,
}

/// The currencies whose minor unit is not two digits, as node's ICU counts them (CLDR 48).
fn currency_digits(code: &str) -> u32 {
    /// No minor unit.
    const ZERO: &[&str] = &[
        "ADP", "AFN", "ALL", "BIF", "BYR", "CLP", "COP", "DJF", "ESP", "GNF", "HUF", "IDR", "IQD", "IRR", "ISK", "ITL",
        "JPY", "KMF", "KPW", "KRW", "LAK", "LBP", "LUF", "MGA", "MGF", "MMK", "MRO", "PKR", "PYG", "RWF", "SLL", "SOS",
        "STD", "SYP", "TMM", "TRL", "UGX", "UYI", "VND", "VUV", "XAF", "XOF", "XPF", "YER", "ZMK", "ZWD",
    ];
    /// Three digits.
    const THREE: &[&str] = &["BHD", "JOD", "KWD", "LYD", "OMR", "TND"];
    /// Four digits.
    const FOUR: &[&str] = &["CLF", "UYW"];
    if ZERO.binary_search(&code).is_ok() {
        0
    } else if THREE.binary_search(&code).is_ok() {
        3
    } else if FOUR.binary_search(&code).is_ok() {
        4
    } else {
        2
    }
}

/// The simple units `style: "unit"` accepts (ECMA-402's sanctioned units).
#[rustfmt::skip]
const SANCTIONED_UNITS: &[&str] = &[
    "acre", "bit", "byte", "celsius", "centimeter", "day", "degree", "fahrenheit", "fluid-ounce", "foot", "gallon",
    "gigabit", "gigabyte", "gram", "hectare", "hour", "inch", "kilobit", "kilobyte", "kilogram", "kilometer", "liter",
    "megabit", "megabyte", "meter", "microsecond", "mile", "mile-scandinavian", "milliliter", "millimeter",
    "millisecond", "minute", "month", "nanosecond", "ounce", "percent", "petabyte", "pound", "second", "stone",
    "terabit", "terabyte", "week", "yard", "year",
];

/// `IsWellFormedUnitIdentifier`.
fn is_well_formed_unit(unit: &str) -> bool {
    let simple = |unit: &str| SANCTIONED_UNITS.binary_search(&unit).is_ok();
    match unit.split_once("-per-") {
        Some((numerator, denominator)) => simple(numerator) && simple(denominator),
        None => simple(unit),
    }
}

impl NumberFormat {
    /// `InitializeNumberFormat`: reads and checks every option (a RangeError or TypeError
    /// exactly where Intl throws one), then refuses what writ cannot render, then loads the
    /// locale's data.
    pub(super) fn new(cx: &mut Cx<'_>, locales: &Value, options: &Value) -> Result<NumberFormat> {
        let requested = requested_locales(cx, locales)?;
        let bag = Options::new(options, "Number.prototype.toLocaleString")?;
        bag.choice(cx, "localeMatcher", &["lookup", "best fit"])?;
        let numbering = bag.text(cx, "numberingSystem")?;
        if let Some(numbering) = &numbering
            && !is_type_sequence(numbering)
        {
            return Err(Error::range_error(format!(
                "Invalid numberingSystem : {numbering} — write a numbering system such as \"latn\" or \"arab\""
            )));
        }
        let style_name = bag.choice(cx, "style", &["decimal", "percent", "currency", "unit"])?;
        let unit_style = style_name == Some("unit");
        let style = match style_name {
            Some("percent") => Style::Percent,
            Some("currency") => Style::Currency,
            _ => Style::Decimal,
        };
        let currency = match bag.text(cx, "currency")? {
            None if style == Style::Currency => {
                return Err(Error::type_error(
                    "Currency code is required with currency style: add one, as in { style: \"currency\", currency: \
                     \"EUR\" }",
                ));
            }
            None => None,
            Some(code) => {
                if code.len() != 3 || !code.bytes().all(|b| b.is_ascii_alphabetic()) {
                    let shown: String = code.chars().take(40).collect();
                    return Err(Error::range_error(format!(
                        "Invalid currency code : {shown} — a currency is three letters, such as \"USD\" or \"EUR\""
                    )));
                }
                Some(code.to_ascii_uppercase())
            }
        };
        let display = match bag.choice(cx, "currencyDisplay", &["code", "symbol", "narrowSymbol", "name"])? {
            Some("code") => CurrencyDisplay::Code,
            Some("narrowSymbol") => CurrencyDisplay::Narrow,
            Some("name") => CurrencyDisplay::Name,
            _ => CurrencyDisplay::Symbol,
        };
        let accounting = bag.choice(cx, "currencySign", &["standard", "accounting"])? == Some("accounting");
        let unit = match bag.text(cx, "unit")? {
            None if unit_style => {
                return Err(Error::type_error(
                    "Invalid unit argument: the unit style needs a unit, as in { style: \"unit\", unit: \"meter\" }",
                ));
            }
            Some(unit) if !is_well_formed_unit(&unit) => {
                let shown: String = unit.chars().take(40).collect();
                return Err(Error::range_error(format!(
                    "Invalid unit argument '{shown}': use a unit such as \"meter\", \"kilogram\" or \
                     \"kilometer-per-hour\""
                )));
            }
            None => None,
            Some(unit) => Some(unit),
        };
        let width = UnitWidth::named(bag.choice(cx, "unitDisplay", &["short", "narrow", "long"])?);
        let notation = bag.choice(cx, "notation", &["standard", "scientific", "engineering", "compact"])?;
        let (default_min_fraction, default_max_fraction) = match (style, &currency) {
            (Style::Currency, Some(code)) if !unit_style => {
                let digits = currency_digits(code);
                (digits, digits)
            }
            (Style::Percent, _) if !unit_style => (0, 0),
            _ if notation == Some("compact") => (0, 0),
            _ => (0, 3),
        };
        let digits = read_digit_options(cx, &bag, default_min_fraction, default_max_fraction, notation)?;
        let notation = Notation::named(notation, bag.choice(cx, "compactDisplay", &["short", "long"])?);
        let grouping = read_grouping(cx, &bag, matches!(notation, Notation::Compact { .. }))?;
        let sign = match bag.choice(
            cx,
            "signDisplay",
            &["auto", "never", "always", "exceptZero", "negative"],
        )? {
            Some("never") => SignDisplay::Never,
            Some("always") => SignDisplay::Always,
            Some("exceptZero") => SignDisplay::ExceptZero,
            Some("negative") => SignDisplay::Negative,
            _ => SignDisplay::Auto,
        };

        // Everything Intl checks has passed: now what writ cannot render.
        if notation != Notation::Standard && (style != Style::Decimal || unit_style) {
            return Err(Error::guardrail(format!(
                "The option notation: \"{}\" is supported with the decimal style only; format a plain number, or \
                 drop the notation",
                notation.name()
            )));
        }
        // The `percent` unit is the percent style without the scaling.
        let percent_unit = unit_style && unit.as_deref() == Some("percent");
        let style = if percent_unit { Style::Percent } else { style };
        let mut locale = resolve_number_locale(&requested)?;
        // V8 lets the option replace the `nu` keyword even when it names no numbering system.
        let chosen = numbering.or_else(|| {
            locale
                .extensions
                .unicode
                .keywords
                .get(&key!("nu"))
                .map(|v| v.to_string())
        });
        locale.extensions.unicode.keywords.clear();
        let mut zero = None;
        if let Some(numbering) = chosen
            && let Some(system_zero) = numbering_zero(&numbering)
            && let Ok(value) = KeywordValue::try_from_str(&numbering)
        {
            locale.extensions.unicode.keywords.set(key!("nu"), value);
            zero = Some(system_zero);
        }
        let component = match (style, accounting) {
            (Style::Decimal, _) => "decimal",
            // A name is placed by its own pattern; only the symbols matter.
            (Style::Currency, _) if display == CurrencyDisplay::Name => "name",
            (Style::Percent, _) => "percent",
            (Style::Currency, false) => "currency",
            (Style::Currency, true) => "accounting",
        };
        if let Some(list) = inherited(&DIVERGENT_STYLES, &locale)
            && list.split(' ').any(|known| known == "decimal" || known == component)
        {
            return Err(Error::guardrail(format!(
                "writ's {component} format data for the locale \"{locale}\" differs from JavaScript's (ICU4X has a newer \
                 CLDR); format with another locale, such as \"en-US\""
            )));
        }
        let kind = match (style, &currency) {
            (Style::Currency, Some(code)) => DataKind::Currency {
                code: code.clone(),
                display,
            },
            (Style::Percent, _) => DataKind::Percent,
            _ => DataKind::Decimal,
        };
        let key = format!("{locale}|{kind:?}");
        cx.text(key.len())?;
        let (data, built) =
            NUMBER_DATA.get_or_try_insert_with(&key, || NumberData::build(&locale, &kind, zero).map(Arc::new))?;
        if built {
            cx.check_clock()?;
        }
        let zero = data.symbols.digits.first().copied().unwrap_or('0');
        let scaler = Scaler::new(notation, &locale, zero)?;
        let unit = match unit {
            Some(unit) if unit_style && !percent_unit => Some(UnitNames::new(&unit, width, &locale)?),
            _ => None,
        };
        Ok(NumberFormat {
            data,
            style,
            digits,
            grouping,
            sign,
            accounting,
            scaler,
            unit,
            hundredths: !percent_unit,
        })
    }
}

/// `SetNumberFormatDigitOptions` (ECMA-402 2023), which V8 11.3 follows.
fn read_digit_options(
    cx: &mut Cx<'_>,
    bag: &Options<'_>,
    default_min_fraction: u32,
    default_max_fraction: u32,
    notation: Option<&str>,
) -> Result<Digits> {
    let min_integer = match bag.number(cx, "minimumIntegerDigits")? {
        Some(n) => digits_in_range(n, "minimumIntegerDigits", 1, 21)?,
        None => 1,
    };
    let min_fraction = bag.number(cx, "minimumFractionDigits")?;
    let max_fraction = bag.number(cx, "maximumFractionDigits")?;
    let min_significant = bag.number(cx, "minimumSignificantDigits")?;
    let max_significant = bag.number(cx, "maximumSignificantDigits")?;
    let increment = match bag.number(cx, "roundingIncrement")? {
        Some(n) => {
            let increment = digits_in_range(n, "roundingIncrement", 1, 5000)?;
            if ![1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 2500, 5000].contains(&increment) {
                return Err(Error::range_error(format!(
                    "roundingIncrement value is out of range: use 1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, \
                     2000, 2500 or 5000, not {increment}"
                )));
            }
            increment
        }
        None => 1,
    };
    let mode = match bag.choice(
        cx,
        "roundingMode",
        &[
            "ceil",
            "floor",
            "expand",
            "trunc",
            "halfCeil",
            "halfFloor",
            "halfExpand",
            "halfTrunc",
            "halfEven",
        ],
    )? {
        Some("ceil") => RoundingMode::Ceil,
        Some("floor") => RoundingMode::Floor,
        Some("expand") => RoundingMode::Expand,
        Some("trunc") => RoundingMode::Trunc,
        Some("halfCeil") => RoundingMode::HalfCeil,
        Some("halfFloor") => RoundingMode::HalfFloor,
        Some("halfTrunc") => RoundingMode::HalfTrunc,
        Some("halfEven") => RoundingMode::HalfEven,
        _ => RoundingMode::HalfExpand,
    };
    let priority = bag.choice(cx, "roundingPriority", &["auto", "morePrecision", "lessPrecision"])?;
    let strip_if_integer =
        bag.choice(cx, "trailingZeroDisplay", &["auto", "stripIfInteger"])? == Some("stripIfInteger");

    let default_max_fraction = if increment != 1 {
        default_min_fraction
    } else {
        default_max_fraction
    };
    let has_significant = min_significant.is_some() || max_significant.is_some();
    let has_fraction = min_fraction.is_some() || max_fraction.is_some();
    let compact = notation == Some("compact");
    let (mut need_significant, mut need_fraction) = (true, true);
    if matches!(priority, None | Some("auto")) {
        need_significant = has_significant;
        if need_significant || (!has_fraction && compact) {
            need_fraction = false;
        }
    }
    let mut digits = Digits {
        min_integer,
        min_fraction: 0,
        max_fraction: 0,
        min_significant: 1,
        max_significant: 21,
        rounding: RoundingType::FractionDigits,
        increment,
        mode,
        strip_if_integer,
    };
    if need_significant && has_significant {
        let min = match min_significant {
            Some(n) => digits_in_range(n, "minimumSignificantDigits", 1, 21)?,
            None => 1,
        };
        let max = match max_significant {
            Some(n) => digits_in_range(n, "maximumSignificantDigits", min, 21)?,
            None => 21,
        };
        digits.min_significant = min;
        digits.max_significant = max;
    }
    if need_fraction {
        if has_fraction {
            // V8 11.3 keeps ECMA-402's older limit of 20 fraction digits.
            let min = min_fraction
                .map(|n| digits_in_range(n, "minimumFractionDigits", 0, 20))
                .transpose()?;
            let max = max_fraction
                .map(|n| digits_in_range(n, "maximumFractionDigits", 0, 20))
                .transpose()?;
            let (min, max) = match (min, max) {
                (None, Some(max)) => (default_min_fraction.min(max), max),
                (Some(min), None) => (min, default_max_fraction.max(min)),
                (Some(min), Some(max)) => {
                    if min > max {
                        return Err(Error::range_error(format!(
                            "maximumFractionDigits value is out of range: it is {max}, below minimumFractionDigits \
                             {min}"
                        )));
                    }
                    (min, max)
                }
                (None, None) => (default_min_fraction, default_max_fraction),
            };
            digits.min_fraction = min;
            digits.max_fraction = max;
        } else {
            digits.min_fraction = default_min_fraction;
            digits.max_fraction = default_max_fraction;
        }
    }
    digits.rounding = if !need_significant && !need_fraction {
        digits.min_fraction = 0;
        digits.max_fraction = 0;
        digits.min_significant = 1;
        digits.max_significant = 2;
        RoundingType::MorePrecision
    } else {
        match priority {
            Some("morePrecision") => RoundingType::MorePrecision,
            Some("lessPrecision") => RoundingType::LessPrecision,
            _ if has_significant => RoundingType::SignificantDigits,
            _ => RoundingType::FractionDigits,
        }
    };
    if increment != 1 {
        if digits.rounding != RoundingType::FractionDigits {
            return Err(Error::type_error(
                "roundingIncrement needs fraction digits: RoundingType is not fractionDigits, so drop the significant \
                 digits options or the roundingPriority",
            ));
        }
        if digits.max_fraction != digits.min_fraction {
            return Err(Error::range_error(
                "maximumFractionDigits not equal to minimumFractionDigits: a roundingIncrement needs both set to the \
                 same number",
            ));
        }
    }
    Ok(digits)
}

/// `useGrouping`, read as V8 11.3 reads it: `true` is `"always"`, a falsy value is off, the
/// strings `"true"` and `"false"` are the default.
fn read_grouping(cx: &mut Cx<'_>, bag: &Options<'_>, compact: bool) -> Result<Grouping> {
    let fallback = if compact { Grouping::Min2 } else { Grouping::Auto };
    let Some(value) = bag.get("useGrouping") else {
        return Ok(fallback);
    };
    if matches!(value, Value::Bool(true)) {
        return Ok(Grouping::Always);
    }
    if !value.is_truthy() {
        return Ok(Grouping::Never);
    }
    let allowed = ["min2", "auto", "always", "true", "false"];
    let text = bag.text(cx, "useGrouping")?.unwrap_or_default();
    Ok(match text.as_str() {
        "min2" => Grouping::Min2,
        "always" => Grouping::Always,
        "auto" | "true" | "false" => fallback,
        _ => return Err(bag.out_of_range("useGrouping", &text, &allowed)),
    })
}

/// The name of the numbering system whose digit zero is `zero`.
fn numbering_name(zero: char) -> Option<&'static str> {
    NUMBERING_SYSTEMS
        .iter()
        .find(|&&(_, known)| known == zero)
        .map(|&(name, _)| name)
}

/// The digit zero of each numbering system node formats with (the algorithmic ones, such as
/// `roman`, are not among them: V8 ignores them).
fn numbering_zero(name: &str) -> Option<char> {
    NUMBERING_SYSTEMS
        .binary_search_by(|&(system, _)| system.cmp(name))
        .ok()
        .and_then(|at| NUMBERING_SYSTEMS.get(at))
        .map(|&(_, zero)| zero)
}

/// The numbering systems node formats with, sorted by name, with their digit zero.
const NUMBERING_SYSTEMS: &[(&str, char)] = &[
    ("adlm", '\u{1E950}'),
    ("ahom", '\u{11730}'),
    ("arab", '\u{0660}'),
    ("arabext", '\u{06F0}'),
    ("bali", '\u{1B50}'),
    ("beng", '\u{09E6}'),
    ("bhks", '\u{11C50}'),
    ("brah", '\u{11066}'),
    ("cakm", '\u{11136}'),
    ("cham", '\u{AA50}'),
    ("deva", '\u{0966}'),
    ("diak", '\u{11950}'),
    ("fullwide", '\u{FF10}'),
    ("gara", '\u{10D40}'),
    ("gong", '\u{11DA0}'),
    ("gonm", '\u{11D50}'),
    ("gujr", '\u{0AE6}'),
    ("gukh", '\u{16130}'),
    ("guru", '\u{0A66}'),
    ("hanidec", '\u{3007}'),
    ("hmng", '\u{16B50}'),
    ("hmnp", '\u{1E140}'),
    ("java", '\u{A9D0}'),
    ("kali", '\u{A900}'),
    ("kawi", '\u{11F50}'),
    ("khmr", '\u{17E0}'),
    ("knda", '\u{0CE6}'),
    ("krai", '\u{16D70}'),
    ("lana", '\u{1A80}'),
    ("lanatham", '\u{1A90}'),
    ("laoo", '\u{0ED0}'),
    ("latn", '0'),
    ("lepc", '\u{1C40}'),
    ("limb", '\u{1946}'),
    ("mathbold", '\u{1D7CE}'),
    ("mathdbl", '\u{1D7D8}'),
    ("mathmono", '\u{1D7F6}'),
    ("mathsanb", '\u{1D7EC}'),
    ("mathsans", '\u{1D7E2}'),
    ("mlym", '\u{0D66}'),
    ("modi", '\u{11650}'),
    ("mong", '\u{1810}'),
    ("mroo", '\u{16A60}'),
    ("mtei", '\u{ABF0}'),
    ("mymr", '\u{1040}'),
    ("mymrepka", '\u{116DA}'),
    ("mymrpao", '\u{116D0}'),
    ("mymrshan", '\u{1090}'),
    ("mymrtlng", '\u{A9F0}'),
    ("nagm", '\u{1E4F0}'),
    ("newa", '\u{11450}'),
    ("nkoo", '\u{07C0}'),
    ("olck", '\u{1C50}'),
    ("onao", '\u{1E5F1}'),
    ("orya", '\u{0B66}'),
    ("osma", '\u{104A0}'),
    ("outlined", '\u{1CCF0}'),
    ("rohg", '\u{10D30}'),
    ("saur", '\u{A8D0}'),
    ("segment", '\u{1FBF0}'),
    ("shrd", '\u{111D0}'),
    ("sind", '\u{112F0}'),
    ("sinh", '\u{0DE6}'),
    ("sora", '\u{110F0}'),
    ("sund", '\u{1BB0}'),
    ("sunu", '\u{11BF0}'),
    ("takr", '\u{116C0}'),
    ("talu", '\u{19D0}'),
    ("tamldec", '\u{0BE6}'),
    ("telu", '\u{0C66}'),
    ("thai", '\u{0E50}'),
    ("tibt", '\u{0F20}'),
    ("tirh", '\u{114D0}'),
    ("tnsa", '\u{16AC0}'),
    ("tols", '\u{11DE0}'),
    ("vaii", '\u{A620}'),
    ("wara", '\u{118E0}'),
    ("wcho", '\u{1E2F0}'),
];
